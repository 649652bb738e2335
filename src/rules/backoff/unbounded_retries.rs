//! RL205 unbounded-retries: no attempt limit, or an effectively infinite
//! one, and no elapsed-time cap.

use crate::model::{AttemptCount, Budget, Provenance, RetryPolicy, System, Timeout};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

/// More attempts than this is no limit in practice (`Integer.MAX_VALUE`).
pub const EFFECTIVELY_INFINITE: u64 = 10_000;

/// How to bound the retries, in the system's own words.
fn fix(system: &System) -> &'static str {
    match system {
        System::Resilience4j => "set `maxAttempts` to 3-5 (it counts the first call)",
        System::Failsafe => {
            "call `withMaxRetries(2..4)`, or bound all attempts with `withMaxDuration(..)`"
        }
        System::GuavaRetrying => {
            "add `.withStopStrategy(StopStrategies.stopAfterAttempt(3))` (or `stopAfterDelay(..)`)"
        }
        System::Reactor => {
            "use `Retry.backoff(3, ..)` or `.retry(3)` instead of retrying indefinitely"
        }
        System::JavaLoop | System::RustLoop => {
            "count the attempts and give up after 3-5, or stop when a deadline passes"
        }
        System::Nginx => {
            "set `proxy_next_upstream_tries` (or the `grpc_`/`fastcgi_`.. form) to 2-3, or `proxy_next_upstream_timeout`"
        }
        System::IngressNginx => {
            "set the `nginx.ingress.kubernetes.io/proxy-next-upstream-tries` annotation (or the ConfigMap key) to 2-3"
        }
        System::Polly | System::DotnetStandard => "set `MaxRetryAttempts` to 3-5",
        System::SpringCloudGateway => "set the Retry filter's `retries` to 2-3",
        System::SpringAmqp | System::SpringCloudStream => {
            "set `max-attempts` (Spring Boot 4: `max-retries`) to 3-5 and send what still fails to a dead-letter queue"
        }
        System::RustCrate(c) if c == "backon" => {
            "call `.with_max_times(3)` on the builder (or `with_total_delay(Some(..))`)"
        }
        System::RustCrate(c) if c == "tokio-retry" => "add `.take(3)` to the strategy iterator",
        System::RustCrate(c) if c == "backoff" => {
            "set `max_elapsed_time: Some(..)` (its default is 15 minutes; `None` never stops)"
        }
        _ => {
            "set a small attempt limit (3 to 5 in total) or a maximum elapsed time, and let the caller or a circuit breaker handle longer outages"
        }
    }
}

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if p.attempts.provenance == Provenance::Inherited {
        return;
    }
    if !unbounded(p) {
        return;
    }
    e.emit(
        p.attempts.span,
        format!(
            "{} retries without a limit (`{}`) and nothing caps the time it keeps trying",
            p.describe(),
            p.attempts.value.written_as
        ),
        fix(&p.system),
    );
}

/// Whether the policy retries without a limit: no attempt limit (or an
/// effectively infinite one), no retry budget and no deadline that ends
/// the retries. Such a policy is this rule's alone: RL206 says nothing of
/// its attempt count.
pub fn unbounded(p: &RetryPolicy) -> bool {
    let unbounded = match p.attempts.value.count {
        AttemptCount::Unbounded => true,
        AttemptCount::Finite(n) => n > EFFECTIVELY_INFINITE,
        AttemptCount::Unknown => false,
    };
    if !unbounded {
        return false;
    }
    // A retry budget (Linkerd's `retryBudget`, a token bucket) is the
    // designed limit of a mechanism that counts no attempts per request:
    // the retries stop when the budget is spent.
    if matches!(
        p.budget.as_ref().map(|b| &b.value),
        Some(Budget::Ratio { .. } | Budget::TokenBucket { .. })
    ) {
        return false;
    }
    // A finite overall deadline still ends the retries.
    !matches!(
        p.overall_timeout.as_ref().map(|t| &t.value),
        Some(Timeout::Finite { after }) if after.as_secs() <= 86_400
    )
}
