//! RL305 retry-delay-past-redelivery: work waits out a delay while the
//! broker still counts it as taken (a task queue's worker holds a retried
//! task, or one sent to run later, unacknowledged until it is due), and
//! the delay is longer than the broker's redelivery timeout: the broker
//! hands the same work to another consumer while the first still holds
//! it, and each copy that fails retries in turn (issue 28,
//! mozmeao/basket #474, LCOGT/banzai #239). The timeout is the policy's
//! (or the send's) `redelivery`, set by its system's link step. Also a
//! consumer that holds a message longer than the queue's visibility
//! timeout while it runs (an SQS queue's Lambda function whose `Timeout`
//! is longer, or longer than the share of it its platform advises:
//! issue 28). A scan-wide
//! check, as a send is no policy. Registered by
//! rules/RL305-retry-delay-past-redelivery.md.

use crate::duration::human;
use crate::graph::GraphCtx;
use crate::model::{AttemptCount, Redelivery, RetryPolicy};
use crate::rules::{Check, Emitter};
use std::time::Duration;

pub const CHECK: Check = Check::Graph(check);

fn check(ctx: &GraphCtx<'_>, e: &mut Emitter<'_>) {
    for (id, f) in ctx.files.iter().enumerate() {
        for p in &f.facts.policies {
            let Some(r) = &p.redelivery else {
                continue;
            };
            if !p.retries() || p.use_of.is_some() {
                continue;
            }
            let Some(longest) = longest_delay(p) else {
                continue;
            };
            if longest > r.after {
                e.emit_at(
                    id,
                    p.delay.span,
                    message(&p.describe(), "before a retry", longest, r, RETRIED),
                    help(longest, r),
                );
            }
        }
        for d in &f.facts.delayed_sends {
            let Some(r) = &d.redelivery else {
                continue;
            };
            if d.delay > r.after && d.while_running {
                e.emit_at(
                    id,
                    d.span,
                    format!(
                        "`{}` can run for up to `{}` (`{}`) on a message it holds, longer than the redelivery timeout `{}` ({}): the broker hands the message to another consumer while the first still works on it, so it runs more than once",
                        d.name,
                        human(d.delay),
                        d.written_as,
                        human(r.after),
                        r.written_as,
                    ),
                    format!(
                        "raise {} above the consumer's time limit (`{}`), or lower that limit",
                        r.setting,
                        human(d.delay),
                    ),
                );
            } else if let Some(a) = d.advised.as_ref().filter(|_| d.while_running)
                && d.delay.saturating_mul(a.factor) > r.after
            {
                let advised = d.delay.saturating_mul(a.factor);
                e.emit_at(
                    id,
                    d.span,
                    format!(
                        "`{}` can run for up to `{}` (`{}`), and the redelivery timeout `{}` ({}) is less than the {} times that (`{}`) {}: {}",
                        d.name,
                        human(d.delay),
                        d.written_as,
                        human(r.after),
                        r.written_as,
                        a.factor,
                        human(advised),
                        a.by,
                        a.why,
                    ),
                    format!(
                        "raise {} to at least `{}` ({} times the consumer's time limit)",
                        r.setting,
                        human(advised),
                        a.factor,
                    ),
                );
            } else if d.delay > r.after {
                e.emit_at(
                    id,
                    d.span,
                    message(
                        &format!("`{}`", d.name),
                        &format!("before it runs (`{}`)", d.written_as),
                        d.delay,
                        r,
                        "so it runs more than once",
                    ),
                    help(d.delay, r),
                );
            }
        }
    }
}

const RETRIED: &str = "so it runs more than once and every copy that fails retries again";

fn message(what: &str, when: &str, longest: Duration, r: &Redelivery, then: &str) -> String {
    let setting_at = r
        .place
        .as_ref()
        .map_or(String::new(), |pl| format!(" at {}:{}", pl.path, pl.line));
    format!(
        "{what} waits up to `{}` {when}, longer than the broker's redelivery timeout `{}` ({}{setting_at}): the broker hands the waiting work to another consumer, {then}",
        human(longest),
        human(r.after),
        r.written_as,
    )
}

fn help(longest: Duration, r: &Redelivery) -> String {
    format!(
        "keep every delay below the redelivery timeout, or raise {} above the longest delay (`{}`)",
        r.setting,
        human(longest),
    )
}

/// The longest delay before any retry of the policy: before its last retry
/// for a finite count, the cap (or the delay that never stops growing)
/// for an unbounded one; `None` when the delay cannot be read. A policy
/// whose first retry goes at once (`first_at_once`) waits one term fewer:
/// its last retry waits the term before the last.
fn longest_delay(p: &RetryPolicy) -> Option<Duration> {
    let retries = match p.attempts.value.count {
        AttemptCount::Finite(n) if n >= 2 => (n - 1).min(u64::from(u32::MAX)) as u32,
        AttemptCount::Finite(_) => return None,
        AttemptCount::Unbounded => 64,
        _ => return None,
    };
    // Delays never shrink with the retry number for the shapes read
    // (exponential, linear, Fibonacci grow to their cap; the others are
    // fixed), so the last is the longest.
    p.wait_before(retries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Delay;

    fn policy(delay: Delay, count: AttemptCount) -> RetryPolicy {
        let at = crate::source::Span::new(0, 0);
        let attempts = crate::model::Located::written(
            crate::model::Attempts {
                count,
                written_as: String::new(),
            },
            at,
        );
        let mut p = RetryPolicy::new(crate::model::System::CSharpLoop, at, attempts);
        p.delay = crate::model::Located::written(delay, at);
        p
    }

    #[test]
    fn the_last_retry_waits_longest() {
        let d = Delay::Exponential {
            base: Duration::from_secs(64),
            multiplier: 2.0,
            cap: None,
        };
        // 13 attempts: 12 retries, the last after 64 s x 2^11.
        assert_eq!(
            longest_delay(&policy(d.clone(), AttemptCount::Finite(13))),
            Some(Duration::from_secs(64 << 11))
        );
        assert_eq!(longest_delay(&policy(d, AttemptCount::Finite(1))), None);
        let capped = Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(600)),
        };
        assert_eq!(
            longest_delay(&policy(capped, AttemptCount::Unbounded)),
            Some(Duration::from_secs(600))
        );
    }

    /// Polly.Contrib.WaitAndRetry's `fastFirst: true`: the first retry goes
    /// at once and the others wait the series' terms from the first, so
    /// 5 retries of 10 s doubling wait 0, 10, 20, 40 and 80 s, not 160 s
    /// last (main read the last term of five).
    #[test]
    fn a_first_retry_at_once_shortens_the_longest_wait() {
        let d = Delay::Exponential {
            base: Duration::from_secs(10),
            multiplier: 2.0,
            cap: None,
        };
        let mut p = policy(d, AttemptCount::Finite(6));
        assert_eq!(longest_delay(&p), Some(Duration::from_secs(160)));
        p.first_at_once = true;
        assert_eq!(longest_delay(&p), Some(Duration::from_secs(80)));
    }
}
