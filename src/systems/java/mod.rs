//! Java retry libraries without a module of their own: Failsafe,
//! guava-retrying, OpenFeign's `Retryer`, Project Reactor, and hand-written
//! retry loops.

pub mod extract;

use super::{Fixes, OpenCircuit, SystemSpec};
use crate::model::Layer;

/// The AWS SDK for Java 2.x, pre-2026 retry behaviour (`AWS_NEW_RETRIES_2026`
/// unset), from aws-sdk-java-v2 `core/retries/src/main/java/software/amazon/awssdk/retries/DefaultRetryStrategy.java`
/// (commit 25787b3): legacy mode, the default (`RetryMode.Resolver.resolve`
/// `orElse(RetryMode.LEGACY)`, `core/sdk-core/.../retry/RetryMode.java`),
/// `Legacy.MAX_ATTEMPTS = 4`; standard and adaptive `MAX_ATTEMPTS = 3`;
/// every mode `BASE_DELAY = 100 ms`, `MAX_BACKOFF = 20 s`, a token bucket
/// of `TOKEN_BUCKET_SIZE = 500`.
pub const AWS_LEGACY_ATTEMPTS: u64 = 4;
pub const AWS_STANDARD_ATTEMPTS: u64 = 3;
pub const AWS_BASE_DELAY: std::time::Duration = std::time::Duration::from_millis(100);
pub const AWS_MAX_BACKOFF: std::time::Duration = std::time::Duration::from_secs(20);
/// DynamoDB's own default, in every retry mode, when the client is given
/// no retry strategy or policy: `MAX_ERROR_RETRY = 8` retries
/// (`MAX_ATTEMPTS = 9`), `BASE_DELAY = 25 ms`, capped at the SDK's
/// `MAX_BACKOFF` (aws-sdk-java-v2
/// `services/dynamodb/src/main/java/software/amazon/awssdk/services/dynamodb/DynamoDbRetryPolicy.java`,
/// `resolveRetryStrategy`/`retryPolicyFor`; `DynamoDbRetryPolicyTest`:
/// `numRetries() == 8` under `AWS_RETRY_MODE` standard and legacy).
pub const AWS_DYNAMODB_ATTEMPTS: u64 = 9;
pub const AWS_DYNAMODB_BASE_DELAY: std::time::Duration = std::time::Duration::from_millis(25);

/// How to bound a hand-written loop (Java or Rust).
pub(crate) const LOOP_BOUND: &str =
    "count the attempts and give up after 3-5, or stop when a deadline passes";

// system: Failsafe
pub static FAILSAFE: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "add `.withJitter(..)` to the policy",
        bound: "call `withMaxRetries(2..4)`, or bound all attempts with `withMaxDuration(..)`",
        ..Fixes::GENERIC
    },
    // `CircuitBreaker` rejects calls with `CircuitBreakerOpenException` (a
    // `FailsafeException`) while open.
    open_circuit: Some(OpenCircuit {
        error: "CircuitBreakerOpenException",
        supertypes: &[
            "FailsafeException",
            "RuntimeException",
            "Exception",
            "Throwable",
        ],
    }),
    ..SystemSpec::plain("Failsafe", Layer::Application)
};

// system: GuavaRetrying - guava-retrying `RetryerBuilder` (`com.github.rholder.retry`).
pub static GUAVA_RETRYING: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "use `WaitStrategies.randomExponentialWait(..)` (or `randomWait(..)`) instead of an unjittered wait strategy",
        bound: "add `.withStopStrategy(StopStrategies.stopAfterAttempt(3))` (or `stopAfterDelay(..)`)",
        predicate: "replace `retryIfException()` / `retryIfRuntimeException()` with `retryIfExceptionOfType(..)` for each transient exception",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("guava-retrying", Layer::Application)
};

// system: Feign - OpenFeign's client `Retryer` (`feign.Retryer.Default`).
/// Feign's retryer sits in the HTTP client, under the caller's code.
pub static FEIGN: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "implement `feign.Retryer` with a randomised wait (Feign's `Retryer.Default` has no jitter), or retry in one outer layer that jitters",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Feign", Layer::Sdk)
};

// system: Reactor - Project Reactor `retryWhen(Retry.backoff(..))` / `.retry(n)` on a `Mono`/`Flux` (WebClient calls).
pub static REACTOR: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "use `Retry.backoff(n, minBackoff)` (jittered by 0.5 by default) instead of `Retry.fixedDelay`",
        bound: "use `Retry.backoff(3, ..)` or `.retry(3)` instead of retrying indefinitely",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Reactor", Layer::Application)
};

// system: ApacheHttpClient - Apache HttpClient's own retries (4.x `DefaultHttpRequestRetryHandler`, 5.x `DefaultHttpRequestRetryStrategy`) on a client built without `disableAutomaticRetries()`.
/// The client retries under the caller's code, like an SDK; defaults in
/// `extract/apache_retry.rs`, cited from httpcomponents-client.
pub static APACHE_HTTP_CLIENT: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set a retry strategy whose wait is randomised (`setRetryStrategy(..)` with your own `getRetryInterval`), or `disableAutomaticRetries()` and retry in one outer layer that jitters",
        bound: "give the retry handler a small count (`new DefaultHttpRequestRetryHandler(1, false)`, `new DefaultHttpRequestRetryStrategy(1, ..)`)",
        explicit: "call `disableAutomaticRetries()` on the client builder where the code retries already, or write the handler you mean (`setRetryHandler(..)` in 4.x, `setRetryStrategy(..)` in 5.x)",
        overload: "`disableAutomaticRetries()` on the builder, or a retry strategy without 429/503 (`new DefaultHttpRequestRetryStrategy(n, interval, exceptions, codes)`), and one outer retry with a budget",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Apache HttpClient", Layer::Sdk)
};

// system: JavaLoop
pub static JAVA_LOOP: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: LOOP_BOUND,
        predicate: "catch only the transient exceptions (timeouts, connection errors) and rethrow the rest",
        ..Fixes::GENERIC
    },
    loop_body: true,
    ..SystemSpec::plain("Java retry loop", Layer::Application)
};

/// Java is read by syntax (`.java` files), not as documents.
pub const DOC_READERS: &[crate::extract::DocReader] = &[];
