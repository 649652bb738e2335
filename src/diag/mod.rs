//! What an extractor reports while it reads a file: [`Diagnostic`], its
//! [`Severity`], and the constructors of the extractor-kind rules
//! (RL901 [`unknown_setting`], RL902 [`invalid_setting`], RL903
//! [`unparsable_file`]).
//!
//! This layer sits below the extractors and the model, so that neither
//! imports the rules. The rules keep their docs and their registration
//! (`rules::settings::<name>::CHECK`, generated from `rules/*.md`), and
//! re-export these constructors.

mod code;
pub mod invalid_setting;
pub mod unknown_setting;
pub mod unparsable_file;

pub use code::Code;

use crate::source::Span;
use serde::Serialize;

/// The codes of the rules whose findings extractors report: every
/// [`Diagnostic::code`] is one of them.
pub const CODES: &[Code] = &[
    unknown_setting::CODE,
    invalid_setting::CODE,
    unparsable_file::CODE,
];

/// The code spelled `code`, when it is one of [`CODES`] (for a
/// diagnostic read back from the facts cache).
pub fn code(code: &str) -> Option<Code> {
    CODES.iter().copied().find(|c| *c == code)
}

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

/// A finding an extractor reports while reading a file, before the file has
/// an id.
/// (Deserialised for the facts cache in [`crate::cache`].)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    /// The rule's code (one of [`CODES`]: checked by [`code`] when read
    /// back from the cache).
    pub code: Code,
    pub span: Span,
    pub message: String,
    pub help: String,
    /// Spans in the same file that explain it.
    pub related: Vec<(Span, String)>,
    /// A severity other than the rule's default for this one finding (an
    /// RL902 about a setting that is accepted but does nothing is a
    /// warning, not an error); a configured severity still wins.
    pub severity: Option<Severity>,
    /// The changes it offers, their edits in [`crate::fix::THIS_FILE`].
    pub fixes: Vec<crate::fix::Fix>,
}

impl Diagnostic {
    pub fn new(
        code: Code,
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
            fixes: Vec::new(),
        }
    }

    /// Offer `fix` (its edits in [`crate::fix::THIS_FILE`]).
    pub fn with_fix(mut self, fix: crate::fix::Fix) -> Self {
        self.fixes.push(fix);
        self
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
