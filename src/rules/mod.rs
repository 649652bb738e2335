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
mod select;
pub mod settings;
pub mod timeouts;

use crate::config::Settings;
pub use crate::diag::{Diagnostic, Severity};
pub use crate::keys::{did_you_mean, normalise_key};
use crate::model::Facts;
use crate::model::RetryPolicy;
use crate::source::{FileId, SourceFile, Span};
use serde::Serialize;

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
