//! RL304 missing-timeout: retries with no overall deadline (disabled, 0, or
//! absurdly long).

use crate::duration::human;
use crate::model::{AttemptCount, Provenance, Timeout};
use crate::rules::{Check, Emitter, PolicyCtx};
use std::time::Duration;

pub const CHECK: Check = Check::Policy(check);

/// Longer than this is no deadline at all.
const ABSURD: Duration = Duration::from_secs(86_400);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    // Retries nobody wrote are RL403's business.
    if !p.retries() || p.attempts.provenance == Provenance::Default {
        return;
    }
    let Some(overall) = &p.overall_timeout else {
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
        .unwrap_or_else(|| ": nothing bounds how long the attempts take together".into());
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
