//! Rules of the `backoff` category (RL2xx): how often and how fast a policy
//! retries.

pub mod excessive_attempts;
pub mod fixed_delay;
pub mod jitter_clipped_by_cap;
pub mod missing_backoff;
pub mod unbounded_retries;
pub mod unjittered_backoff;

use crate::model::System;

/// How to add jitter in this system's own words.
pub fn jitter_fix(system: &System) -> &'static str {
    match system {
        System::Resilience4j => {
            "set `enableRandomizedWait: true` (with `randomizedWaitFactor`, default 0.5) and `enableExponentialBackoff: true`"
        }
        System::SpringRetry => "use `@Backoff(delay = .., multiplier = 2, random = true)`",
        System::SpringFramework => {
            "set `jitter` on `@Retryable`, or call `.jitter(..)` on `RetryPolicy.builder()`"
        }
        System::Polly | System::DotnetStandard => {
            "set `UseJitter: true` and `BackoffType: Exponential`"
        }
        System::Grpc => "gRPC jitters its back-off already",
        System::RustCrate(c) if c == "backon" => "call `.with_jitter()` on the builder",
        System::RustCrate(c) if c == "tokio-retry" => "add `.map(jitter)` to the strategy",
        System::RustCrate(c) if c == "reqwest-retry" => {
            "use `.jitter(Jitter::Full)` or `Jitter::Bounded`"
        }
        System::Failsafe => "add `.withJitter(..)` to the policy",
        System::Feign => {
            "implement `feign.Retryer` with a randomised wait (Feign's `Retryer.Default` has no jitter), or retry in one outer layer that jitters"
        }
        System::GuavaRetrying => {
            "use `WaitStrategies.randomExponentialWait(..)` (or `randomWait(..)`) instead of an unjittered wait strategy"
        }
        System::Reactor => {
            "use `Retry.backoff(n, minBackoff)` (jittered by 0.5 by default) instead of `Retry.fixedDelay`"
        }
        System::SpringCloudGateway => {
            "give the Retry filter a `backoff` (`firstBackoff`, `factor` 2, `maxBackoff`) and `jitter: {randomFactor: 0.5}` (newer Spring Cloud Gateway releases)"
        }
        System::SpringCloudConfig => "set `spring.cloud.config.retry.use-random-policy: true`",
        System::SpringKafka => {
            "set `spring.kafka.retry.topic.random-back-off: true` with a `multiplier` above 1"
        }
        System::SpringAmqp | System::SpringCloudStream => {
            "supply a retry interceptor or `RetryTemplate` bean with an `ExponentialRandomBackOffPolicy` (Spring Boot has no jitter property for it)"
        }
        _ => {
            "randomise each delay (full jitter: a uniform delay between 0 and the backoff) and grow it exponentially"
        }
    }
}
