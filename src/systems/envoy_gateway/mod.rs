//! Envoy Gateway (`gateway.envoyproxy.io`) `BackendTrafficPolicy`: the
//! `retry` and `timeout` it puts on the routes of the Gateway or route it
//! targets (Envoy Gateway translates them into Envoy route retry policies).

pub mod extract;

use super::{Fixes, SystemSpec};
use crate::model::Layer;

// system: EnvoyGateway - Envoy Gateway `BackendTrafficPolicy`
pub static SPEC: SystemSpec = SystemSpec {
    fixes: Fixes {
        overload: "set `circuitBreaker.maxParallelRetries` in the BackendTrafficPolicy (Envoy's retry circuit breaker), or leave 503 out of `retryOn`",
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

pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "envoygateway",
    needles: &["BackendTrafficPolicy"],
    read: extract::extract,
    order: 45,
}];
