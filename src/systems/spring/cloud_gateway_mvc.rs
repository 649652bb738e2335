//! What Spring Cloud Gateway Server Web MVC's `Retry` filter reads, where
//! it differs from the WebFlux filter (`RetryFilterFunctions.RetryConfig`
//! and `BackoffConfig`, spring-cloud-gateway-server-webmvc, 5.0):
//!
//! - the shortcut order is `retries, series, methods`
//!   (`@Shortcut({ "retries", "series", "methods" })` on
//!   `RetryFilterFunctions.retry(RetryConfig)`), so `Retry=3,SERVER_ERROR`
//!   is 3 retries of the 5xx series;
//! - `RetryConfig` has `retries` (3), `series` (`SERVER_ERROR`),
//!   `exceptions` (`IOException`, `java.util.concurrent.TimeoutException`,
//!   `RetryFilterFunctions.RetryException`), `methods` (`GET`),
//!   `cacheBody` (false) and `backoff` (none): no `statuses`, `jitter` or
//!   `timeout`;
//! - `BackoffConfig` has `firstBackoff` (5 ms), `maxBackoff` (none) and
//!   `factor` (2), and `validate()` rejects at startup a `firstBackoff`
//!   under 1 ms, a `factor` of 1 or less and a `maxBackoff` not above
//!   `firstBackoff`. Without `maxBackoff` both retry implementations cap
//!   the exponential delay at 30 s (`GatewayRetryFilterFunctions` passes
//!   Spring Retry's `ExponentialBackOffPolicy.DEFAULT_MAX_INTERVAL`, 30000
//!   ms; `FrameworkRetryFilterFunctions` leaves Spring Framework's
//!   `ExponentialBackOff` at its `DEFAULT_MAX_INTERVAL`, 30000 ms).
//!
//! Without a `backoff` the Spring Retry implementation (used while
//! spring-retry is on the classpath) does not wait between attempts; that
//! is what is modelled.

use std::time::Duration;

/// `@Shortcut({ "retries", "series", "methods" })`.
pub const SHORTCUT_ORDER: &[&str] = &["retries", "series", "methods"];

/// `RetryFilterFunctions.RetryConfig`'s properties.
pub const ARG_KEYS: &[&str] = &[
    "retries",
    "series",
    "methods",
    "exceptions",
    "cacheBody",
    "backoff",
];

/// `RetryFilterFunctions.BackoffConfig`'s properties.
pub const BACKOFF_KEYS: &[&str] = &["firstBackoff", "maxBackoff", "factor"];

/// The exceptions retried by default (`RetryConfig.exceptions`).
pub const DEFAULT_EXCEPTIONS: &[&str] = &[
    "java.io.IOException",
    "java.util.concurrent.TimeoutException",
    "org.springframework.cloud.gateway.server.mvc.filter.RetryFilterFunctions.RetryException",
];

/// The cap on the delay when `maxBackoff` is not set (30 s in both retry
/// implementations, see the module docs).
pub const DEFAULT_MAX_BACKOFF: Duration = Duration::from_millis(30_000);

/// Why `BackoffConfig.validate()` rejects these settings, if it does
/// (the filter then fails at startup).
pub fn rejected(
    first: Duration,
    max: Option<Duration>,
    factor: i32,
) -> Option<(&'static str, String)> {
    if first < Duration::from_millis(1) {
        return Some((
            "firstBackoff",
            "`firstBackoff must be >= 1ms`: the MVC Retry filter fails at startup".into(),
        ));
    }
    if factor <= 1 {
        return Some((
            "factor",
            "`factor must be greater than 1`: the MVC Retry filter fails at startup".into(),
        ));
    }
    if let Some(m) = max
        && m <= first
    {
        return Some((
            "maxBackoff",
            "`maxBackoff must be greater than firstBackoff`: the MVC Retry filter fails at startup"
                .into(),
        ));
    }
    None
}
