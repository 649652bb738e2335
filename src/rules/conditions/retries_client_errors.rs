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
    // A status test in code (a loop's, a predicate's) names several ranges
    // at once: one group each.
    let mut names: Vec<String> = Vec::new();
    let mut groups: Vec<(crate::source::Span, Vec<String>, String)> = Vec::new();
    for (w, sp, here) in &bad {
        // A condition written in another file has no text here.
        let written = if *here { ctx.file.slice(*sp) } else { "" };
        let written = written.trim().trim_matches(['"', '\'', ',', '-', ' ']);
        if written.is_empty() || written == w || written.len() > 60 {
            names.push(format!("`{w}`"));
        } else if is_status_test(written) {
            match groups.iter_mut().find(|(s, ..)| s == sp) {
                Some((_, ws, _)) => ws.push(format!("`{w}`")),
                None => {
                    names.push(String::new());
                    groups.push((*sp, vec![format!("`{w}`")], written.to_string()));
                }
            }
        } else {
            names.push(format!("`{written}` ({w})"));
        }
    }
    // Each group where its first range was.
    let mut g = groups.into_iter();
    for n in names.iter_mut().filter(|n| n.is_empty()) {
        if let Some((_, ws, written)) = g.next() {
            *n = format!("{} (read from the status test `{written}`)", ws.join(", "));
        }
    }
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
        "==",
        "!=",
        ">=",
        "<=",
        " > ",
        " < ",
        "is_success",
        "IsSuccess",
        ".ok",
        " in ",
        "contains(",
        "matches!",
        "raise_for_status",
        "EnsureSuccess",
        "error_for_status",
        "Ok(",
    ]
    .iter()
    .any(|w| written.contains(w))
}
