//! Envoy Gateway (`gateway.envoyproxy.io`) `BackendTrafficPolicy`: the
//! `retry` and `timeout` it puts on the routes of the Gateway or route it
//! targets (Envoy Gateway translates them into Envoy route retry policies);
//! `SecurityPolicy`: the retries of its remote JWKS and OIDC token fetches.

pub mod extract;
mod security;

use super::{Fixes, SystemSpec};
use crate::model::Layer;

// system: EnvoyGateway - Envoy Gateway `BackendTrafficPolicy`
pub static SPEC: SystemSpec = SystemSpec {
    // Envoy Gateway offers a retry budget (`circuitBreaker.retryBudget`,
    // Envoy's cluster `retry_budget`) and writes none by default: its
    // `buildXdsClusterCircuitBreaker` (`internal/xds/translator/cluster.go`
    // at d32f282) sets `RetryBudget` only from a written `retryBudget`
    // (`buildCircuitBreakerRetryBudget` returns nil otherwise) and always
    // `MaxRetries: 1024`, a fixed count of retries in flight that does not
    // shrink with the traffic (RL601 reports retries under it, as Envoy's).
    offers_budget: true,
    fixes: Fixes {
        budget: "set `circuitBreaker.retryBudget` beside the retry (the BackendTrafficPolicy's `spec`, or the fetch's `backendSettings`), for example `percent: {numerator: 20}` with `minRetryConcurrency: 3`, so retries stay a fraction of the active requests",
        unbudgeted: "only Envoy Gateway's retry circuit breaker (`maxParallelRetries`, 1024 concurrent retries by default) limits them, however much of the traffic fails",
        overload: "set `circuitBreaker.maxParallelRetries` in the BackendTrafficPolicy (Envoy's retry circuit breaker), or leave 503 out of `retryOn`",
        edits: super::edit::FixEdits {
            drop_conditions: Some(super::edit::drop_listed_in_config),
            budget: Some(retry_budget),
            budget_title: Some(
                "add a retry budget (`circuitBreaker.retryBudget`, 20% of the active requests)",
            ),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    // No `retries_limited_by_default`: Envoy's own default of 3 concurrent
    // retries does not apply, Envoy Gateway writes
    // [`DEFAULT_MAX_PARALLEL_RETRIES`] on every cluster.
    ..SystemSpec::plain("Envoy Gateway", Layer::Proxy)
};

/// `retry.numRetries` when a `retry` block does not write it
/// (envoyproxy/gateway `api/v1alpha1/retry_types.go` at d32f282, `Retry.NumRetries`:
/// `+kubebuilder:default=2`).
pub const DEFAULT_NUM_RETRIES: u64 = 2;

/// `retry.retryOn` when none is written (the same file, `Retry.RetryOn`:
/// "If not specified, the default is to retry on
/// connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes(503)").
pub const DEFAULT_RETRY_ON: &[&str] = &[
    "connect-failure",
    "refused-stream",
    "unavailable",
    "cancelled",
    "503",
];

/// The retry circuit breaker (Envoy's cluster `max_retries`) Envoy Gateway
/// writes on every cluster when `circuitBreaker.maxParallelRetries` is not
/// written: envoyproxy/gateway `internal/xds/translator/cluster.go` at
/// d32f282, `buildXdsClusterCircuitBreaker` ("Always allow the same amount
/// of retries as regular requests": `MaxRetries: 1024`, called for every
/// cluster), and `api/v1alpha1/circuitbreaker_types.go`,
/// `MaxParallelRetries` `+kubebuilder:default=1024`. Not Envoy's own
/// default of 3.
pub const DEFAULT_MAX_PARALLEL_RETRIES: u64 = 1024;

/// What a remote fetch's `backendSettings.retry` retries when it writes no
/// `retryOn`: Envoy Gateway writes `retry_on` as
/// `retryDefaultRetryOn` (`internal/xds/translator/route.go` at d32f282:
/// "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes")
/// in `buildNonRouteRetryPolicy` (`oidc.go`), but an Envoy core retry
/// policy lists no status codes (a route's gets 503 from
/// `retryDefaultRetriableStatusCode`), so `retriable-status-codes` retries
/// none. The count when `numRetries` is not written is
/// [`DEFAULT_NUM_RETRIES`]: the `Retry` type's CRD default, applied by the
/// API server inside `backendSettings` as on a BackendTrafficPolicy.
pub const DEFAULT_FETCH_RETRY_ON: &[&str] = &[
    "connect-failure",
    "refused-stream",
    "unavailable",
    "cancelled",
];

/// The timeout over every try of a remote JWKS or OIDC token fetch when
/// `backendSettings.timeout.http.requestTimeout` is not written:
/// `defaultExtServiceRequestTimeout` (`internal/xds/translator/utils.go` at
/// d32f282, 10 s), used by `jwt.go` and `oidc.go` for the fetch's `HttpUri`
/// timeout.
pub const DEFAULT_FETCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "envoygateway",
    needles: &["BackendTrafficPolicy", "SecurityPolicy"],
    read: extract::extract,
    order: 45,
}];

/// The share of active requests a retry budget added by RL601's fix lets
/// retry: Envoy's own `budget_percent` default
/// ([`crate::systems::envoy::DEFAULT_BUDGET_PERCENT`], 20%); Envoy Gateway's
/// `RetryBudget.percent` has no default (envoyproxy/gateway
/// `api/v1alpha1/circuitbreaker_types.go` at d32f282: `Percent
/// gwapiv1.Fraction` required, `MinRetryConcurrency` "Defaults to 3", so it
/// is not written).
const FIX_BUDGET_NUMERATOR: u64 = crate::systems::envoy::DEFAULT_BUDGET_PERCENT as u64;

/// `circuitBreaker.retryBudget.percent.numerator` beside a
/// BackendTrafficPolicy's `retry` (under its `circuitBreaker` where one is
/// written); only where the policy is read from a written `retry` key.
fn retry_budget(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    use super::edit::{Value, add_beside, add_under, sibling_key};
    let at = site.policy.span;
    if site.text.get(at.start..at.end)? != "retry" {
        return None;
    }
    let value = Value::Str(FIX_BUDGET_NUMERATOR.to_string());
    let edit = match sibling_key(site.text, at, "circuitBreaker") {
        Some(cb) => add_under(
            site.file,
            site.path,
            site.text,
            cb,
            &["retryBudget", "percent", "numerator"],
            &value,
        )?,
        None => add_beside(
            site.file,
            site.path,
            site.text,
            at,
            &["circuitBreaker", "retryBudget", "percent", "numerator"],
            &value,
        )?,
    };
    Some(vec![edit])
}
