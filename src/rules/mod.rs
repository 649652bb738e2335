//! The rule registry and what rules produce.
//!
//! Rules are declared once, by their doc in `rules/RLnnn-name.md`; build.rs
//! generates [`RULES`] from those docs and binds each to the module
//! `rules::<category>::<name>` and its `CHECK`.

pub mod backoff;
pub mod budget;
pub mod conditions;
pub mod idempotency;
pub mod paths;
pub mod settings;
pub mod timeouts;

use crate::config::Settings;
use crate::extract::Facts;
use crate::model::RetryPolicy;
use crate::source::{FileId, SourceFile, Span};
use serde::Serialize;

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Conditions,
    Backoff,
    Timeouts,
    Paths,
    Idempotency,
    Budget,
    Settings,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Conditions => "conditions",
            Category::Backoff => "backoff",
            Category::Timeouts => "timeouts",
            Category::Paths => "paths",
            Category::Idempotency => "idempotency",
            Category::Budget => "budget",
            Category::Settings => "settings",
        }
    }
}

/// What a policy rule sees.
pub struct PolicyCtx<'a> {
    pub policy: &'a RetryPolicy,
    pub file: &'a SourceFile,
    pub facts: &'a Facts,
    pub settings: &'a Settings,
}

/// How a rule runs.
#[derive(Clone, Copy)]
pub enum Check {
    /// Once for every retry policy of every file.
    Policy(fn(&PolicyCtx<'_>, &mut Emitter<'_>)),
    /// Over the call-path graph.
    Graph(fn(&crate::graph::GraphCtx<'_>, &mut Vec<Finding>)),
    /// Reported by extractors while they read a file (settings problems);
    /// the rule module provides the constructors they call.
    Extractor,
    /// Reported by the suppression pass.
    Suppression,
}

pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    pub category: Category,
    pub severity: Severity,
    pub since: &'static str,
    pub summary: &'static str,
    /// The formats the rule has fixtures for, as named in the doc.
    pub formats: &'static [&'static str],
    /// The whole doc, front matter included.
    pub doc: &'static str,
    pub check: Check,
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.code, self.name)
    }
}

impl Rule {
    /// The doc without its front matter.
    pub fn body(&self) -> &'static str {
        self.doc
            .strip_prefix("---\n")
            .and_then(|r| r.find("\n---\n").map(|i| &r[i + 5..]))
            .unwrap_or(self.doc)
            .trim_start()
    }

    /// The text of a `## Heading` section of the doc.
    pub fn section(&self, heading: &str) -> Option<&'static str> {
        let body = self.body();
        let marker = format!("## {heading}\n");
        let start = body.find(&marker)? + marker.len();
        let rest = &body[start..];
        let end = rest.find("\n## ").map_or(rest.len(), |i| i + 1);
        Some(rest[..end].trim())
    }

    pub fn help_uri(&self) -> String {
        format!(
            "https://github.com/retrylint/retrylint/blob/main/rules/{}-{}.md",
            self.code, self.name
        )
    }
}

include!(concat!(env!("OUT_DIR"), "/registry.rs"));

/// The rule with this code (`RL203`) or name (`unjittered-backoff`).
pub fn lookup(code_or_name: &str) -> Option<&'static Rule> {
    let q = code_or_name.trim();
    RULES
        .iter()
        .find(|r| r.code.eq_ignore_ascii_case(q) || r.name.eq_ignore_ascii_case(q))
}

/// The rule with this code; for codes written in the source.
///
/// # Panics
/// When no rule has the code: a programming error caught by the tests.
pub fn rule(code: &str) -> &'static Rule {
    lookup(code).unwrap_or_else(|| panic!("no rule {code}"))
}

/// A location that helps explain a finding (each hop of a path).
#[derive(Clone, Debug, PartialEq)]
pub struct Related {
    pub file: FileId,
    pub span: Span,
    pub message: String,
}

/// One finding of one rule.
#[derive(Clone, Debug)]
pub struct Finding {
    pub rule: &'static Rule,
    pub severity: Severity,
    pub file: FileId,
    pub span: Span,
    pub message: String,
    pub help: String,
    pub related: Vec<Related>,
}

impl Finding {
    pub fn new(
        rule: &'static Rule,
        file: FileId,
        span: Span,
        message: String,
        help: String,
    ) -> Self {
        Finding {
            rule,
            severity: rule.severity,
            file,
            span,
            message,
            help,
            related: Vec::new(),
        }
    }

    pub fn related(mut self, file: FileId, span: Span, message: impl Into<String>) -> Self {
        self.related.push(Related {
            file,
            span,
            message: message.into(),
        });
        self
    }
}

/// A finding an extractor reports while reading a file, before the file has
/// an id.
/// (Deserialised for the facts cache in [`crate::cache`].)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub code: &'static str,
    pub span: Span,
    pub message: String,
    pub help: String,
    /// Spans in the same file that explain it.
    pub related: Vec<(Span, String)>,
    /// A severity other than the rule's default for this one finding (an
    /// RL902 about a setting that is accepted but does nothing is a
    /// warning, not an error); a configured severity still wins.
    pub severity: Option<Severity>,
}

impl Diagnostic {
    pub fn new(
        code: &'static str,
        span: Span,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            span,
            message: message.into(),
            help: help.into(),
            related: Vec::new(),
            severity: None,
        }
    }

    /// This finding at `severity` instead of the rule's default.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = Some(severity);
        self
    }

    pub fn with_related(mut self, span: Span, message: impl Into<String>) -> Self {
        self.related.push((span, message.into()));
        self
    }
}

/// Collects the findings of one rule on one file.
pub struct Emitter<'a> {
    pub rule: &'static Rule,
    pub file: FileId,
    pub out: &'a mut Vec<Finding>,
}

impl Emitter<'_> {
    pub fn emit(
        &mut self,
        span: Span,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> &mut Finding {
        self.out.push(Finding::new(
            self.rule,
            self.file,
            span,
            message.into(),
            help.into(),
        ));
        self.out.last_mut().expect("just pushed")
    }

    /// Add a related location in the same file to the last finding.
    pub fn relate(finding: &mut Finding, span: Span, message: impl Into<String>) {
        let file = finding.file;
        finding.related.push(Related {
            file,
            span,
            message: message.into(),
        });
    }
}

/// The closest of `candidates` to `word`, for "did you mean" help.
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let w = normalise_key(word);
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&w, &normalise_key(c)), c))
        .filter(|(score, _)| *score >= 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// Lower case without `-` and `_`: how relaxed binding compares keys.
pub fn normalise_key(k: &str) -> String {
    k.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}
