//! RL903 unparsable-file: a file recognised as a supported format could not
//! be read; the scan goes on.

use crate::diag::Diagnostic;
use crate::source::Span;

pub const CODE: super::Code = super::Code::RL903;

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

/// Part of a file could not be read (`reason`); `help` names the fix.
pub fn at(span: Span, reason: &str, help: &str) -> Diagnostic {
    Diagnostic::new(CODE, span, format!("file not read: {reason}"), help)
}

/// A file that is read whole (an nginx configuration) did not parse;
/// `line` is the text of the line where it failed.
pub fn syntax(span: Span, reason: &str, line: &str, help: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!(
            "file not read: {} at `{}`",
            reason.trim_end_matches('.'),
            excerpt(line)
        ),
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
pub fn excerpt(line: &str) -> String {
    let t = line.trim();
    if t.chars().count() > 60 {
        format!("{}...", t.chars().take(57).collect::<String>())
    } else {
        t.to_string()
    }
}

/// One line of a line-based file (INI) could not be read. The line's text
/// is left out on purpose: such files hold credentials.
pub fn line(span: Span, reason: &str, help: &str) -> Diagnostic {
    Diagnostic::new(CODE, span, format!("line not read: {reason}"), help)
}

/// A configuration embedded in a string literal did not parse.
pub fn literal(span: Span, what: &str, reason: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!(
            "{what} in this string literal not read: {}",
            reason.trim_end_matches('.')
        ),
        "fix the JSON so that its settings can be checked",
    )
}

/// A document that looks like `format` but whose shape retrylint does not
/// recognise: reported instead of guessed at.
pub fn unrecognised(span: Span, format: &str, reason: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("not read as {format}: {reason}"),
        format!(
            "if this is {format} configuration, check its structure against the {format} reference; otherwise exclude the file"
        ),
    )
}

/// A file that did not parse in a folder of test inputs (`folder`,
/// [`crate::extract::test_code::test_inputs_folder`]): most often a test's
/// input, broken on purpose or filled in by the test, so reported at
/// `info` (it never fails CI by default) with a help that says how to
/// leave the folder out. A severity already set is kept.
pub fn in_test_inputs(d: &mut Diagnostic, folder: &str) {
    if d.code.as_str() != CODE || d.severity.is_some() {
        return;
    }
    d.severity = Some(super::Severity::Info);
    d.help = format!(
        "{}; the file is in the test folder `{folder}/`: if it is a test's input, leave the folder out (`exclude`)",
        d.help
    );
}

/// The start of [`templated`]'s message.
const TEMPLATED: &str = "templated file: ";

/// Whether `d` is [`templated`]'s: a file read in part, its template
/// expressions not rendered.
pub fn is_templated(d: &Diagnostic) -> bool {
    d.code.as_str() == CODE && d.message.starts_with(TEMPLATED)
}

/// A templated file (Helm/Go `{{ }}`, `#{...}`, Jinja `{% %}`): the parts
/// that parse were read; the rest is reported once, at `info`: a template
/// is not wrong for being a template, so by default it never fails CI
/// (`--fail-on warning`); it is counted in the summary.
pub fn templated(span: Span, detail: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("{TEMPLATED}{detail}"),
        "render the template (`helm template`, or your templating step) and check the rendered files to cover every setting",
    )
    .with_severity(super::Severity::Info)
}
