//! RL209 retry-window-too-short: a bounded retry that drops the work when
//! its last attempt fails (a task queue deletes the task) and whose whole
//! window, the waits between its attempts or its written age limit, is
//! shorter than `[thresholds] min-retry-window`: it gives up long before a
//! dependency that failed comes back. Only systems whose descriptor says
//! the work is dropped (`SystemSpec::background`) are
//! judged: an in-request retry hands its error to a caller that is still
//! there. Registered by rules/RL209-retry-window-too-short.md.

use crate::duration::human;
use crate::model::{AttemptCount, Timeout};
use crate::rules::{Check, Emitter, PolicyCtx};
use std::time::Duration;

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    // No retries at all (`task_retry_limit: 0`) is a choice, not a window.
    // Background work: the system's (a task queue deletes the task), or
    // this policy's (its retries run after the caller handed the work
    // over and returned, `scope.detached`: what fails at the end is handed
    // back where no caller waits, an asynchronous producer's error
    // channel).
    let background = p.system.spec().background || p.scope.detached;
    if !background || !p.retries() || p.use_of.is_some() {
        return;
    }
    let AttemptCount::Finite(n) = p.attempts.value.count else {
        return;
    };
    let Some(waits) = p.total_backoff() else {
        return;
    };
    // Where the system keeps retrying until an age limit as well as the
    // count (Cloud Tasks stops only when both are reached), the window is
    // at least that age.
    let age = match p.overall_timeout.as_ref().map(|t| &t.value) {
        Some(Timeout::Finite { after }) => *after,
        _ => Duration::ZERO,
    };
    let window = waits.max(age);
    let threshold = Duration::from_secs(ctx.settings.thresholds.min_retry_window);
    if window >= threshold {
        return;
    }
    let f = e.emit(
        p.attempts.span,
        format!(
            "{} gives up after `{n}` attempts (`{}`) that span only `{}` of waits, then drops the work: a dependency that fails for longer than that (a deploy, a failover, an outage) loses every item that reaches it",
            p.describe(),
            p.attempts.value.written_as,
            human(window),
        ),
        format!(
            "let the retries span at least `{}` (a longer, growing backoff, or an age limit that keeps the work until the dependency is back), or send what is left to a place someone looks at and replays",
            human(threshold),
        ),
    );
    if p.delay.span != p.attempts.span {
        Emitter::relate(f, p.delay.span, "the waits between the attempts");
    }
}
