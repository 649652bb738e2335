//! RL305 retry-delay-past-redelivery: a retry that waits out its delay
//! while the broker still counts the work as taken (a task queue's worker
//! holds a retried task, unacknowledged, until its countdown is due), and
//! whose longest delay is longer than the broker's redelivery timeout: the
//! broker hands the same work to another consumer while the first still
//! holds it, and each copy that fails retries in turn (issue 28,
//! mozmeao/basket #474). The timeout is the policy's `redelivery`, set by
//! its system's link step. Registered by
//! rules/RL305-retry-delay-past-redelivery.md.

use crate::duration::human;
use crate::model::{AttemptCount, Delay};
use crate::rules::{Check, Emitter, PolicyCtx};
use std::time::Duration;

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    let Some(r) = &p.redelivery else {
        return;
    };
    if !p.retries() || p.use_of.is_some() {
        return;
    }
    let Some(longest) = longest_delay(&p.delay.value, &p.attempts.value.count) else {
        return;
    };
    if longest <= r.after {
        return;
    }
    let setting_at = r
        .place
        .as_ref()
        .map_or(String::new(), |pl| format!(" at {}:{}", pl.path, pl.line));
    e.emit(
        p.delay.span,
        format!(
            "{} waits up to `{}` before a retry, longer than the broker's redelivery timeout `{}` ({}{setting_at}): the broker hands the waiting work to another consumer, so it runs more than once and every copy that fails retries again",
            p.describe(),
            human(longest),
            human(r.after),
            r.written_as,
        ),
        format!(
            "keep every retry's delay below the redelivery timeout, or raise {} above the longest delay (`{}`)",
            r.setting,
            human(longest),
        ),
    );
}

/// The longest delay before any retry of the policy: before its last retry
/// for a finite count, the cap (or the delay that never stops growing)
/// for an unbounded one; `None` when the delay cannot be read.
fn longest_delay(delay: &Delay, count: &AttemptCount) -> Option<Duration> {
    let retries = match count {
        AttemptCount::Finite(n) if *n >= 2 => (n - 1).min(u64::from(u32::MAX)) as u32,
        AttemptCount::Finite(_) => return None,
        AttemptCount::Unbounded => 64,
        _ => return None,
    };
    // Delays never shrink with the retry number for the shapes read
    // (exponential, linear, Fibonacci grow to their cap; the others are
    // fixed), so the last is the longest.
    delay.nominal(retries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_retry_waits_longest() {
        let d = Delay::Exponential {
            base: Duration::from_secs(64),
            multiplier: 2.0,
            cap: None,
        };
        // 13 attempts: 12 retries, the last after 64 s x 2^11.
        assert_eq!(
            longest_delay(&d, &AttemptCount::Finite(13)),
            Some(Duration::from_secs(64 << 11))
        );
        assert_eq!(longest_delay(&d, &AttemptCount::Finite(1)), None);
        let capped = Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(600)),
        };
        assert_eq!(
            longest_delay(&capped, &AttemptCount::Unbounded),
            Some(Duration::from_secs(600))
        );
    }
}
