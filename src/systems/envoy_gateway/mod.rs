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
    // Envoy's `max_retries` breaker applies (3 concurrent retries per
    // cluster by default: envoyproxy/envoy
    // `api/envoy/config/cluster/v3/circuit_breaker.proto`).
    retries_limited_by_default: true,
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

pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "envoygateway",
    needles: &["BackendTrafficPolicy"],
    read: extract::extract,
    order: 45,
}];
