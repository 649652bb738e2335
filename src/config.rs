//! Effective settings of a run: command-line flags over the config file
//! over the defaults.

use crate::rules::{Rule, Severity};
use serde::Serialize;
use std::collections::BTreeMap;

/// Numbers rules compare against.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Thresholds {
    /// RL206: more total attempts than this in one policy.
    pub max_attempts: u64,
    /// RL401: more attempts than this along one call path.
    pub amplification: u64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            max_attempts: 5,
            amplification: 10,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Settings {
    /// Codes or code prefixes to run (`RL2`, `RL203`, `ALL`); empty = all.
    pub select: Vec<String>,
    /// Codes or code prefixes not to run.
    pub ignore: Vec<String>,
    /// Severity per rule code.
    pub severity: BTreeMap<String, Severity>,
    pub thresholds: Thresholds,
    /// Glob patterns of paths not to scan.
    pub exclude: Vec<String>,
    /// Files larger than this many bytes are not read.
    pub max_file_size: u64,
    /// The call-path graph's settings.
    pub graph: GraphSettings,
}

/// `mesh = ...`: whether calls go through a service mesh whose default
/// retries apply where nothing is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mesh {
    /// Istio when the scanned files show it is in use (Istio resources, an
    /// injection label); none otherwise.
    #[default]
    Auto,
    Istio,
    None,
}

/// `[[services]]`: a service, the files that belong to it, and other names
/// that reach it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServiceConfig {
    pub name: String,
    /// Globs of the files that belong to the service.
    #[serde(default)]
    pub paths: Vec<String>,
    /// Hosts and other names that reach it.
    #[serde(default)]
    pub aliases: Vec<String>,
}

/// `[[edges]]`: a call the files do not show.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeConfig {
    pub from: String,
    pub to: String,
    /// What the call goes through, for messages (`nginx`, `sdk`).
    #[serde(default)]
    pub via: Option<String>,
}

/// The graph keys of the configuration.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GraphSettings {
    pub mesh: Mesh,
    pub services: Vec<ServiceConfig>,
    pub edges: Vec<EdgeConfig>,
    /// Services where paths start, besides those nobody calls.
    pub entry_points: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            select: Vec::new(),
            ignore: Vec::new(),
            severity: BTreeMap::new(),
            thresholds: Thresholds::default(),
            exclude: Vec::new(),
            max_file_size: 10 * 1024 * 1024,
            graph: GraphSettings::default(),
        }
    }
}

fn matches(pattern: &str, rule: &Rule) -> bool {
    pattern.eq_ignore_ascii_case("ALL")
        || rule.code.starts_with(&pattern.to_ascii_uppercase())
        || rule.name.eq_ignore_ascii_case(pattern)
}

impl Settings {
    pub fn is_enabled(&self, rule: &Rule) -> bool {
        let selected = self.select.is_empty() || self.select.iter().any(|p| matches(p, rule));
        selected && !self.ignore.iter().any(|p| matches(p, rule))
    }

    /// The severity configured for a rule, if any.
    pub fn configured_severity(&self, rule: &Rule) -> Option<Severity> {
        self.severity
            .get(rule.code)
            .or_else(|| self.severity.get(rule.name))
            .copied()
    }

    pub fn severity_of(&self, rule: &Rule) -> Severity {
        self.configured_severity(rule).unwrap_or(rule.severity)
    }

    /// Check that every code pattern names a rule; the message says which.
    pub fn validate_patterns(&self) -> Result<(), String> {
        for p in self
            .select
            .iter()
            .chain(&self.ignore)
            .chain(self.severity.keys())
        {
            if !crate::rules::RULES.iter().any(|r| matches(p, r)) {
                let hint = crate::rules::did_you_mean(
                    p,
                    crate::rules::RULES.iter().flat_map(|r| [r.code, r.name]),
                )
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
                return Err(format!("`{p}` matches no rule{hint}"));
            }
        }
        Ok(())
    }
}
