//! RL207 backoff-cap-too-small: unbounded or long-lived retries whose
//! delay stops growing at a few seconds (below `[thresholds]
//! min-backoff-cap`), so they keep calling at that pace for the whole
//! outage. Registered by rules/RL207-backoff-cap-too-small.md.

use super::unbounded_retries::EFFECTIVELY_INFINITE;
use crate::duration::human;
use crate::model::{AttemptCount, Delay, RetryPolicy};
use crate::rules::{Check, Emitter, PolicyCtx};
use std::time::Duration;

pub const CHECK: Check = Check::Policy(check);

/// Retries at the cap from which a finite policy counts as long-lived.
pub const LONG_LIVED_AT_CAP: u64 = 10;

/// The most retries counted one by one (the count is bounded whatever the
/// attempts).
const COUNT_LIMIT: u64 = 10_000;

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    // A proxy's own back-off is not the file's; a budget ends the retries.
    if !p.retries()
        || p.platform_backoff
        || crate::rules::budget::proportional(&p.budget)
        || p.use_of.is_some()
    {
        return;
    }
    let Some(cap) = growing_cap(&p.delay.value) else {
        return;
    };
    let threshold = Duration::from_secs(ctx.settings.thresholds.min_backoff_cap);
    if cap >= threshold || cap.is_zero() {
        return;
    }
    // A deadline ends the retries: when it leaves room for fewer waits of
    // the full cap than a long-lived policy makes, the pace is not kept up.
    if let Some(t) = p.overall_timeout.as_ref().and_then(|t| t.value.finite())
        && ((t.as_secs_f64() / cap.as_secs_f64()) as u64) < LONG_LIVED_AT_CAP
    {
        return;
    }
    let how = match p.attempts.value.count {
        AttemptCount::Unbounded => "retries with no attempt limit".to_string(),
        AttemptCount::Finite(n) if n > EFFECTIVELY_INFINITE => {
            format!("makes `{n}` attempts, no limit in practice,")
        }
        AttemptCount::Finite(n) => {
            let at_cap = retries_at_cap(p, cap, n.saturating_sub(1));
            if at_cap < LONG_LIVED_AT_CAP {
                return;
            }
            format!("makes `{n}` attempts, `{at_cap}` of them after a wait of the full cap,")
        }
        AttemptCount::Unknown => return,
    };
    let f = e.emit(
        p.delay.span,
        format!(
            "{} {how} but its backoff stops growing at `{}` (`{}`): through a long outage it keeps calling every `{}` and the failing service never gets a rest",
            p.describe(),
            human(cap),
            p.attempts.value.written_as,
            human(cap),
        ),
        format!(
            "raise the backoff cap to at least `{}` (tens of seconds or minutes for retries that can last as long as an outage), keep the jitter, or bound the retries with a deadline",
            human(threshold)
        ),
    );
    if p.attempts.span != p.delay.span {
        Emitter::relate(f, p.attempts.span, "the retries it bounds");
    }
}

/// The cap of a delay that grows: exponential, linear, decorrelated.
fn growing_cap(d: &Delay) -> Option<Duration> {
    match d {
        Delay::Exponential {
            cap: Some(c),
            multiplier,
            ..
        } if *multiplier > 1.0 => Some(*c),
        Delay::Linear { cap: Some(c), .. }
        | Delay::Decorrelated { cap: Some(c), .. }
        | Delay::Fibonacci { cap: Some(c), .. }
        | Delay::Quadratic { cap: Some(c), .. } => Some(*c),
        _ => None,
    }
}

/// How many of `retries` wait the full cap (their uncapped delay reaches
/// it), counting at most [`COUNT_LIMIT`].
fn retries_at_cap(p: &RetryPolicy, cap: Duration, retries: u64) -> u64 {
    let cap = cap.as_secs_f64();
    let counted = retries.min(COUNT_LIMIT);
    let first = (1..=counted).find(|k| {
        let k = u32::try_from(*k).unwrap_or(u32::MAX);
        p.delay.value.uncapped(k).is_some_and(|d| d >= cap)
    });
    match first {
        Some(k) => retries - k + 1,
        None => 0,
    }
}
