//! The rule registry and what rules produce.
//!
//! Rules are declared once, by their doc in `rules/RLnnn-name.md`; build.rs
//! generates [`RULES`] and the enum [`Code`] from those docs and binds each
//! to the module `rules::<category>::<name>` and its `CHECK`
//! (docs/architecture.md, "Where a rule lives"). A rule module never
//! spells its own code: the [`Emitter`] it is handed carries its rule.

pub mod backoff;
pub mod budget;
pub mod conditions;
pub mod idempotency;
pub mod paths;
mod select;
pub mod settings;
pub mod timeouts;

use crate::config::Settings;
pub use crate::diag::{Code, Diagnostic, Severity};
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
    /// Whether the run reports this file's findings: a run that reports
    /// some files only (pre-commit, `--changed-since`) only counts the
    /// others' findings, so their fixes are not made (an Envoy file's
    /// YAML parsed again per fix was 71 M instructions of a one-file run
    /// of the generated 10k tree).
    pub reported: bool,
}

impl PolicyCtx<'_> {
    /// Where a fix of this policy is made, for the system's
    /// [`crate::systems::edit::FixEdits`]; `None` when the file is not
    /// reported (no fix is made).
    pub fn site(&self, file: FileId) -> Option<crate::systems::edit::Site<'_>> {
        self.reported.then_some(crate::systems::edit::Site {
            file,
            path: &self.file.path,
            text: &self.file.text,
            policy: self.policy,
        })
    }
}

/// How a rule runs.
#[derive(Clone, Copy)]
pub enum Check {
    /// Once for every retry policy of every file.
    Policy(fn(&PolicyCtx<'_>, &mut Emitter<'_>)),
    /// Over the call-path graph, reporting through a scan-wide
    /// [`Emitter`] (each finding names its file: [`Emitter::emit_at`]).
    Graph(fn(&crate::graph::GraphCtx<'_>, &mut Emitter<'_>)),
    /// Reported by extractors while they read a file (settings problems);
    /// the rule module provides the constructors they call.
    Extractor,
    /// Reported by the suppression pass.
    Suppression,
}

pub struct Rule {
    /// The code as written (`"RL203"`), for output.
    pub code: &'static str,
    /// The code as a value (`Code::RL203`).
    pub id: Code,
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

impl Code {
    /// This code's rule.
    pub fn rule(self) -> &'static Rule {
        &RULES[self as usize]
    }
}

/// The rule with this code (`RL203`) or name (`unjittered-backoff`).
pub fn lookup(code_or_name: &str) -> Option<&'static Rule> {
    if let Some(code) = Code::parse(code_or_name) {
        return Some(code.rule());
    }
    let q = code_or_name.trim();
    RULES.iter().find(|r| r.name.eq_ignore_ascii_case(q))
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
    /// The changes this finding offers (safe first); empty when no edit
    /// can express the fix.
    pub fixes: Vec<crate::fix::Fix>,
}

/// What findings of one rule share when they have one cause: the message
/// with its quoted values left out, and the fix. Two routes of one
/// VirtualService that both retry on `5xx` are one cause; two paths that
/// multiply differently are two (their arithmetic is not quoted).
pub fn cause(message: &str, help: &str) -> String {
    let mut out = String::with_capacity(message.len() + help.len() + 1);
    for (i, part) in message.split('`').enumerate() {
        out.push_str(if i % 2 == 1 { "`…`" } else { part });
    }
    out.push('\n');
    out.push_str(help);
    out
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
            fixes: Vec::new(),
        }
    }

    /// Offer `fix` with this finding.
    pub fn fix(&mut self, fix: crate::fix::Fix) -> &mut Self {
        self.fixes.push(fix);
        self
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

/// Collects the findings of one rule: the one way a rule reports, so that
/// every finding is formed alike (the rule, its default severity, the
/// message and help). Policy rules get one per file (`file`); graph rules
/// one over the whole scan ([`Emitter::scan_wide`]), and name each
/// finding's file ([`Emitter::emit_at`]).
pub struct Emitter<'a> {
    pub rule: &'static Rule,
    /// The file findings are in; [`NO_FILE`] for a graph rule's emitter.
    pub file: FileId,
    pub out: &'a mut Vec<Finding>,
}

/// The `file` of an emitter whose findings each name their own.
pub const NO_FILE: FileId = FileId::MAX;

impl<'a> Emitter<'a> {
    /// An emitter over the whole scan (a graph rule's).
    pub fn scan_wide(rule: &'static Rule, out: &'a mut Vec<Finding>) -> Self {
        Emitter {
            rule,
            file: NO_FILE,
            out,
        }
    }

    /// A finding in this emitter's file.
    ///
    /// # Panics
    /// On a scan-wide emitter, which has no file: use [`Emitter::emit_at`].
    pub fn emit(
        &mut self,
        span: Span,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> &mut Finding {
        assert_ne!(self.file, NO_FILE, "a scan-wide emitter names the file");
        self.emit_at(self.file, span, message, help)
    }

    /// A finding in `file`.
    pub fn emit_at(
        &mut self,
        file: FileId,
        span: Span,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> &mut Finding {
        self.out.push(Finding::new(
            self.rule,
            file,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_maps_to_its_rule_and_back() {
        assert_eq!(Code::ALL.len(), RULES.len());
        for c in Code::ALL {
            let r = c.rule();
            assert_eq!((r.id, r.code), (c, c.as_str()));
            assert!(std::ptr::eq(lookup(r.code).unwrap(), r));
            assert!(std::ptr::eq(lookup(r.name).unwrap(), r));
        }
        assert!(lookup("rl2o3").is_none());
    }
}
