//! RL903 unparsable-file: a file recognised as a supported format could not
//! be read; the scan goes on.

use crate::rules::{Check, Diagnostic};
use crate::source::Span;

pub const CHECK: Check = Check::Extractor;
const CODE: &str = "RL903";

/// One YAML document of a stream did not parse; `line` is the text of the
/// line where it failed.
pub fn yaml_document(
    span: Span,
    document: usize,
    reason: &str,
    line: &str,
    readable: usize,
) -> Diagnostic {
    let help = if readable > 0 {
        "fix the syntax; the other documents of this file were still checked"
    } else {
        "fix the syntax so that the settings in this file can be checked"
    };
    Diagnostic::new(
        CODE,
        span,
        format!(
            "document {} not read: {} at `{}`",
            document + 1,
            reason.trim_end_matches('.'),
            excerpt(line)
        ),
        help,
    )
}

/// The whole file could not be read.
pub fn file(reason: &str, help: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        Span::new(0, 0),
        format!("file not checked: {reason}"),
        help,
    )
}

/// A Rust file did not parse; `line` is the text of the line where it
/// failed.
pub fn rust_syntax(span: Span, reason: &str, line: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!(
            "file not read as Rust: {} at `{}`",
            reason.trim_end_matches('.'),
            excerpt(line)
        ),
        "fix the syntax so that the retry settings in this file can be checked",
    )
}

/// A Rust file nests deeper than the parser can safely follow.
pub fn nested_too_deep(span: Span, what: &str, limit: usize) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("file not read as Rust: more than `{limit}` {what}"),
        "this looks generated or malicious; exclude it with `--exclude` if it is not hand-written code",
    )
}

/// A line shortened for a message.
fn excerpt(line: &str) -> String {
    let t = line.trim();
    if t.chars().count() > 60 {
        format!("{}...", t.chars().take(57).collect::<String>())
    } else {
        t.to_string()
    }
}
