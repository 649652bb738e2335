//! RL101 retries-client-errors: a policy retries 4xx responses (other than
//! 408/423/429), non-transient gRPC codes or client-error exception types.

use super::{client_error, listed};
use crate::fix::Fix;
use crate::model::{Condition, Located};
use crate::rules::{Check, Emitter, PolicyCtx};
use crate::source::Span;

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
    if let Some(fix) = drop_fix(ctx, f.file) {
        f.fix(fix);
    }
}

/// The client errors taken out of the lists they are written in, by the
/// system's edit: safe when each retries client errors alone (408, 423 and
/// 429 not among them), unsafe when one also covers one of them (a series such
/// as `CLIENT_ERROR`). None when one is written elsewhere or in code, when
/// a written place also names a condition that is no client error, or when
/// no condition would be left.
fn drop_fix(ctx: &PolicyCtx<'_>, file: crate::source::FileId) -> Option<Fix> {
    let p = ctx.policy;
    let make = p.system.spec().fixes.edits.drop_conditions?;
    let all = listed(&p.retry_on.value);
    let bad: Vec<&Located<Condition>> = all
        .iter()
        .filter(|c| client_error(&c.value).is_some())
        .collect();
    if bad.iter().any(|c| !c.is_written()) {
        return None;
    }
    let spans: Vec<Span> = bad.iter().map(|c| c.span).collect();
    // A place that also names a condition kept: taking it out would stop
    // that retry too.
    let kept: Vec<&Located<Condition>> = all
        .iter()
        .filter(|c| client_error(&c.value).is_none())
        .collect();
    if kept.iter().any(|c| spans.contains(&c.span)) || !kept.iter().any(|c| c.is_written()) {
        return None;
    }
    let mut written: Vec<String> = Vec::new();
    for s in &spans {
        let w = format!("`{}`", ctx.file.slice(*s).trim_matches(['"', '\'']));
        if !written.contains(&w) {
            written.push(w);
        }
    }
    let edits = make(&ctx.site(file)?, &spans)?;
    let covers = |c: &Condition, code: u16| matches!(c, Condition::Status { from, to } if (*from..=*to).contains(&code));
    let also_transient = bad.iter().any(|c| {
        super::TRANSIENT_CLIENT_STATUSES
            .iter()
            .any(|s| covers(&c.value, *s))
    });
    Some(if also_transient {
        Fix::unsafe_(
            format!(
                "stop retrying {} (408 and 429 with them)",
                written.join(", ")
            ),
            edits,
        )
    } else {
        Fix::safe(format!("stop retrying {}", written.join(", ")), edits)
    })
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
