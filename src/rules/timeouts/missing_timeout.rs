//! RL304 missing-timeout: retries with no overall deadline (disabled, 0, or
//! absurdly long).

use crate::duration::human;
use crate::model::{AttemptCount, Layer, Provenance, RetryPolicy, Timeout};
use crate::rules::{Check, Emitter, PolicyCtx};
use std::time::Duration;

pub const CHECK: Check = Check::Policy(check);

/// Longer than this is no deadline at all.
const ABSURD: Duration = Duration::from_secs(86_400);

/// Retries in code with no deadline are reported when their waits alone
/// (or their attempts x per-try timeout and waits) take longer than this:
/// longer than the 60 s most callers wait (nginx `proxy_read_timeout`,
/// ingress-nginx `proxy-read-timeout`), so the caller has given up while
/// the retries go on.
const LONGER_THAN_CALLERS_WAIT: Duration = Duration::from_secs(60);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    // Retries nobody wrote are RL403's business.
    if !p.retries() || p.attempts.provenance == Provenance::Default {
        return;
    }
    // Work in the background (a task queue) has no caller whose wait a
    // deadline protects: how long it keeps trying is RL205's and RL209's.
    if p.system.spec().background {
        return;
    }
    let Some(overall) = &p.overall_timeout else {
        in_code(p, e);
        return;
    };
    let why = match overall.value {
        Timeout::Disabled if overall.is_default() => "no overall timeout".to_string(),
        Timeout::Disabled => "its overall timeout turned off".to_string(),
        Timeout::Finite { after } if after > ABSURD => format!(
            "an overall timeout of `{}`, which bounds nothing",
            human(after)
        ),
        _ => return,
    };
    let per_try = p
        .per_try_timeout
        .as_ref()
        .and_then(|t| t.value.finite())
        .map(|t| match p.attempts.value.count {
            AttemptCount::Finite(n) => format!(": up to {n} attempts x `{}` per try", human(t)),
            _ => format!(": `{}` per try", human(t)),
        })
        .unwrap_or_else(|| match &p.per_try_timeout {
            // A call with no timeout of its own (a client that waits for
            // ever by default): one try alone can hang.
            Some(t) if t.value == Timeout::Disabled && t.is_default() => {
                ": each try can wait for ever (the call has no timeout)".into()
            }
            _ => ": nothing bounds how long the attempts take together".into(),
        });
    let span = if overall.is_written() {
        overall.span
    } else {
        p.attempts.span
    };
    let f = e.emit(
        span,
        format!("{} retries (`{}`) with {why}{per_try}", p.describe(), p.attempts.value.written_as),
        "set an overall timeout that covers every attempt and the backoff between them, and below the caller's own timeout",
    );
    if overall.is_written() {
        Emitter::relate(f, p.attempts.span, "retries are configured here");
    }
}

/// A retry in code (a loop, a library policy built in the program) that
/// shows no overall deadline and no elapsed-time cap: the model has no
/// overall timeout for it. Reported when its attempts and waits add up to
/// longer than a caller waits; an unlimited one is RL205's.
fn in_code(p: &RetryPolicy, e: &mut Emitter<'_>) {
    // Retries nobody waits for (a background queue's) hold no caller.
    if !matches!(p.system.layer(), Layer::Application | Layer::Sdk)
        || p.platform_backoff
        || p.scope.detached
    {
        return;
    }
    let AttemptCount::Finite(n) = p.attempts.value.count else {
        return;
    };
    let waits = p.total_backoff();
    let (time, how) = match (p.worst_case_time(), waits) {
        (Some(t), _) => (t, "attempts x per-try timeout and the waits between them"),
        (None, Some(w)) => (w, "the waits between attempts alone"),
        (None, None) => return,
    };
    if time <= LONGER_THAN_CALLERS_WAIT {
        return;
    }
    let f = e.emit(
        p.attempts.span,
        format!(
            "{} retries (`{}`) with no overall deadline or elapsed-time cap: {how} take up to `{}` over {n} attempts, longer than a caller waits",
            p.describe(),
            p.attempts.value.written_as,
            human(time)
        ),
        "bound the retries by a deadline (stop retrying once the caller's time is spent, e.g. a maximum elapsed time) and give each call its own timeout",
    );
    if p.delay.is_written() && p.delay.span != p.attempts.span {
        Emitter::relate(f, p.delay.span, "the waits between attempts");
    }
}
