//! RL902 invalid-setting: a value the system itself rejects or misreads.

use crate::diag::Diagnostic;
use crate::keys::did_you_mean;
use crate::source::Span;

pub const CODE: super::Code = super::Code::RL902;

/// `key: value` is invalid because of `why`.
pub fn value(span: Span, key: &str, value: &str, why: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("invalid `{key}` value `{}`: {why}", value.trim()),
        format!("write a value `{key}` accepts; this one is rejected or silently misread"),
    )
}

/// `key: value` is accepted but means something other than what it was
/// written for (`why`); `fix` names what to write. A warning: nothing
/// fails, the count is off.
pub fn misread(span: Span, key: &str, value: &str, why: &str, fix: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("`{key}` value `{}` is misread: {why}", value.trim()),
        fix.to_string(),
    )
    .with_severity(crate::diag::Severity::Warning)
}

/// `token` is not one of the conditions `key` accepts.
pub fn unknown_token<'c>(
    span: Span,
    key: &str,
    token: &str,
    known: impl IntoIterator<Item = &'c str>,
) -> Diagnostic {
    let help = match did_you_mean(token, known) {
        Some(s) => format!("did you mean `{s}`? an unknown condition never matches"),
        None => format!("remove it: `{key}` does not know it, so it never matches"),
    };
    Diagnostic::new(
        CODE,
        span,
        format!("unknown `{key}` condition `{token}`"),
        help,
    )
}

/// `key: target` refers to a `what` that does not exist.
pub fn missing_reference<'c>(
    span: Span,
    key: &str,
    target: &str,
    what: &str,
    names: impl IntoIterator<Item = &'c str>,
) -> Diagnostic {
    let help = match did_you_mean(target, names) {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!("define the {what} `{target}` or point `{key}` at one that exists"),
    };
    Diagnostic::new(
        CODE,
        span,
        format!("`{key}` names the {what} `{target}`, which is not defined"),
        help,
    )
}

/// `key` and `other` cannot both be set: the system rejects the pair or
/// silently keeps only one (`why`).
pub fn conflicting(span: Span, key: &str, other: &str, why: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("`{key}` and `{other}` are both set: {why}"),
        format!("set only one of `{key}` and `{other}`"),
    )
}
/// `key` holds a `found` (a mapping, a scalar) where the system expects
/// `expected`; the system rejects the whole configuration.
pub fn wrong_shape(span: Span, key: &str, expected: &str, found: &str, fix: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!(
            "`{key}` is a {found} where {expected} is expected, so the configuration is rejected"
        ),
        fix.to_string(),
    )
}

/// A retry block that the system accepts but that enables nothing: it is
/// read as "retry nothing". Reported as a warning: nothing breaks, but the
/// retries the block suggests never happen.
pub fn inert(span: Span, what: &str, why: &str, fix: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("{what} retries nothing: {why}"),
        fix.to_string(),
    )
    .with_severity(crate::diag::Severity::Warning)
}

/// `what` is accepted but read by nothing (`why`): the settings it writes
/// never apply, the defaults do. A warning: nothing fails.
pub fn unread(span: Span, what: &str, why: &str, fix: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("{what} sets options that nothing reads: {why}"),
        fix.to_string(),
    )
    .with_severity(crate::diag::Severity::Warning)
}
