//! RL901 unknown-setting: an unknown, misspelled, misplaced or removed key
//! inside a retry or timeout section.

use crate::diag::Diagnostic;
use crate::keys::did_you_mean;
use crate::source::Span;

pub const CODE: super::Code = super::Code::RL901;

/// `key` is not a key of `what`.
pub fn unknown_key<'c>(
    span: Span,
    key: &str,
    what: &str,
    known: impl IntoIterator<Item = &'c str>,
) -> Diagnostic {
    let known: Vec<&str> = known.into_iter().collect();
    let help = match did_you_mean(key, known.iter().copied()) {
        Some(s) => format!(
            "did you mean `{s}`? an unknown key is ignored, so the setting it was meant to make does not apply"
        ),
        None => format!("remove it, or use one of {}", list(&known)),
    };
    Diagnostic::new(CODE, span, format!("unknown key `{key}` in {what}"), help)
}

/// `name` is not a directive the configured system knows (an nginx
/// directive with a typo); `system` names it for the message.
pub fn unknown_directive<'c>(
    span: Span,
    name: &str,
    system: &str,
    known: impl IntoIterator<Item = &'c str>,
) -> Diagnostic {
    let known: Vec<&str> = known.into_iter().collect();
    let help = match did_you_mean(name, known.iter().copied()) {
        Some(s) => format!(
            "did you mean `{s}`? {system} refuses to start with an unknown directive, or ignores it where a third-party module takes it"
        ),
        None => format!("remove it, or use one of {}", list(&known)),
    };
    Diagnostic::new(
        CODE,
        span,
        format!("unknown {system} directive `{name}`"),
        help,
    )
}

/// `key` was removed (`why`); `new` replaces it.
pub fn removed(span: Span, key: &str, new: &str, why: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("`{key}` was {why} and is ignored by current versions"),
        format!("rename it to `{new}`"),
    )
}

/// `key` is deprecated; `instead` says what replaces it.
pub fn deprecated(span: Span, key: &str, instead: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("`{key}` is deprecated and hidden from the reference"),
        format!("use {instead}"),
    )
}

/// `key` belongs under `parent`, which is empty: an indentation mistake.
pub fn misplaced(span: Span, key: &str, what: &str, parent: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("`{key}` is not a key of {what}: it belongs under `{parent}`, which is empty here"),
        format!("indent `{key}` under `{parent}`"),
    )
}

/// Settings that are accepted but have no effect where they are written
/// (`message` names them and says why; `help` names the fix).
pub fn ignored(span: Span, message: &str, help: &str) -> Diagnostic {
    Diagnostic::new(CODE, span, message, help)
}

/// `key` is read by the system, but not where it is written (`belongs`
/// says where it is read), so it is ignored here.
pub fn wrong_place(span: Span, key: &str, what: &str, belongs: &str, fix: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("`{key}` is not {what}: it is {belongs}, so it is ignored here"),
        fix.to_string(),
    )
}

/// `key` is valid but cannot take effect, because of `why`.
pub fn no_effect(span: Span, key: &str, why: &str, fix: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("`{key}` has no effect: {why}"),
        fix.to_string(),
    )
}

fn list(known: &[&str]) -> String {
    let mut v: Vec<String> = known.iter().take(8).map(|k| format!("`{k}`")).collect();
    if known.len() > 8 {
        v.push("...".into());
    }
    v.join(", ")
}

/// `key` matches `expected` only when case is ignored: some readers bind
/// it and others silently skip it (`note` says which).
pub fn wrong_case(span: Span, key: &str, expected: &str, what: &str, note: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("key `{key}` in {what} is spelled `{expected}`: {note}"),
        format!("write `{expected}` so that every reader binds it"),
    )
}

/// A retry key written where the system does not read it (`where_`), so it
/// has no effect.
pub fn ignored_here(span: Span, key: &str, where_: &str, fix: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        span,
        format!("`{key}` has no effect {where_}"),
        fix.to_string(),
    )
}
