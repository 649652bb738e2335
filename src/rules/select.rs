//! Rule selection: which rules run, where, and at what severity, as the
//! settings ([`crate::config`]) say. Kept with the rules, so that the
//! settings do not import the rule registry.

use super::{RULES, Rule, Severity};
use crate::config::Settings;
use crate::keys::did_you_mean;

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
            if !RULES.iter().any(|r| matches(p, r)) {
                let hint = did_you_mean(p, RULES.iter().flat_map(|r| [r.code, r.name]))
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                return Err(format!("`{p}` matches no rule{hint}"));
            }
        }
        Ok(())
    }
}

impl Settings {
    /// Whether `rule` is enabled for a file at `relative` path (see
    /// [`Settings::relative_path`]), with the `[[overrides]]` that match it.
    pub fn is_enabled_at(&self, rule: &Rule, relative: &str) -> bool {
        let mut select: &[String] = &self.select;
        let mut ignored = self.ignore.iter().any(|p| matches(p, rule));
        for o in self.overrides.iter().filter(|o| o.paths.is_match(relative)) {
            if let Some(s) = &o.select {
                select = s;
                // A path's own selection re-enables what the run ignored.
                ignored = false;
            }
            ignored |= o.ignore.iter().any(|p| matches(p, rule));
        }
        let selected = select.is_empty() || select.iter().any(|p| matches(p, rule));
        selected && !ignored
    }

    /// The configured severity of `rule` at a path, overrides included.
    pub fn severity_at(&self, rule: &Rule, relative: &str) -> Option<Severity> {
        let mut sev = self.configured_severity(rule);
        for o in self.overrides.iter().filter(|o| o.paths.is_match(relative)) {
            if let Some(s) = o
                .severity
                .get(rule.code)
                .or_else(|| o.severity.get(rule.name))
            {
                sev = Some(*s);
            }
        }
        sev
    }

    /// Whether a code pattern (`RL2`, `RL203`, a name, `ALL`) names a rule.
    pub fn pattern_matches(pattern: &str, rule: &Rule) -> bool {
        matches(pattern, rule)
    }
}
