//! RL101 retries-client-errors: a policy retries 4xx responses (other than
//! 408/429), non-transient gRPC codes or client-error exception types.

use super::{client_error, listed};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() {
        return;
    }
    let bad: Vec<(String, crate::source::Span, bool)> = listed(&p.retry_on.value)
        .iter()
        .filter_map(|c| client_error(&c.value).map(|what| (what, c.span, c.is_written())))
        .collect();
    let Some((first, span, _)) = bad.first().cloned() else {
        return;
    };
    let names: Vec<String> = bad
        .iter()
        .map(|(w, s, here)| {
            // A condition written in another file has no text here.
            let written = if *here { ctx.file.slice(*s) } else { "" };
            let written = written.trim().trim_matches(['"', '\'', ',', '-', ' ']);
            if written.is_empty() || written == w || written.len() > 60 {
                format!("`{w}`")
            } else if is_status_test(written) {
                // A hand-written loop's test: the statuses come from what
                // it sends round (or does not let leave).
                format!("`{w}` (read from the loop's status test `{written}`)")
            } else {
                format!("`{written}` ({w})")
            }
        })
        .collect();
    let f = e.emit(
        span,
        format!(
            "{} retries client errors {}: the same request fails the same way every time",
            p.describe(),
            names.join(", ")
        ),
        format!(
            "stop retrying `{first}`: retry only transient failures (5xx such as 502/503/504, 408, 429, connect failures, UNAVAILABLE); a client error needs a different request, not the same one again"
        ),
    );
    for (what, s, _) in bad.iter().skip(1) {
        if *s != span {
            Emitter::relate(f, *s, format!("`{what}` is retried too"));
        }
    }
}

/// Whether written text is a test in code of a response's status (a hand-
/// written loop's `if`), not a status list of a configuration.
fn is_status_test(written: &str) -> bool {
    [
        "==", "!=", ">=", "<=", " > ", " < ", "is_success", "IsSuccess", ".ok", " in ",
        "contains(", "matches!", "raise_for_status", "EnsureSuccess", "error_for_status", "Ok(",
    ]
    .iter()
    .any(|w| written.contains(w))
}
