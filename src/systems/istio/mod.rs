//! Istio's sidecar retries (`VirtualService` `retries`, meshConfig
//! `defaultHttpRetryPolicy`).

pub mod compat;
pub mod extract;
mod service_entry;

use super::{Fixes, SidecarDefault, SystemSpec};
use crate::model::{AttemptCount, Attempts, Layer, Located, RetryPolicy, System};
use crate::source::Span;

// system: Istio
pub static SPEC: SystemSpec = SystemSpec {
    sidecar_default: Some(SidecarDefault {
        policy: default_policy,
        retries: DEFAULT_RETRIES,
        uncovered: "no VirtualService for",
    }),
    fixes: Fixes {
        overload: "limit the sidecars' retries to the host with a DestinationRule: `connectionPool.http.maxRetries` (concurrent retries) and `outlierDetection`, or stop retrying `503`/`5xx` where the service sheds load",
        edits: super::edit::FixEdits {
            per_try_timeout: Some(per_try_timeout),
            retries_off: Some(retries_off),
            drop_conditions: Some(super::edit::drop_listed_in_config),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Istio", Layer::Mesh)
};

/// The sidecar's policy on a call that no VirtualService covers: the
/// default attempts, conditions and Envoy's jittered back-off, as on a
/// route that writes no `retries`.
fn default_policy(anchor: Span) -> RetryPolicy {
    let mut p = RetryPolicy::new(System::Istio, anchor, default_attempts(anchor));
    extract::envoy_backoff(&mut p, anchor);
    p.retry_on = Located::default_at(extract::default_retry_on(anchor), anchor);
    p
}

// Istio's default policy, for a route that writes no `retries` (istio
// `pilot/pkg/networking/core/route/retry/retry.go` at 86c9f01fd735,
// `cachedDefaultPolicy`: `NumRetries: 2`, `RetryOn: "connect-failure,
// refused-stream,unavailable,cancelled,retriable-status-codes"`, and no
// `RetriableStatusCodes` since 1.24; before, 503: see [`compat`]),
// with Envoy's back-off ([`crate::systems::envoy::default_backoff`]): the
// route sets no `retry_back_off`.

/// Retries when a route writes no `retries`.
pub const DEFAULT_RETRIES: u64 = 2;

/// Attempts when a route writes no `retries`, the first call included.
pub const DEFAULT_ATTEMPTS: u64 = DEFAULT_RETRIES + 1;

/// Retry conditions when a route writes no `retries`.
pub const DEFAULT_RETRY_ON: &str =
    "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes";

/// The default attempts of a route that writes no `retries`, at `anchor`.
pub fn default_attempts(anchor: Span) -> Located<Attempts> {
    Located::default_at(
        Attempts {
            count: AttemptCount::Finite(DEFAULT_ATTEMPTS),
            written_as: format!("no retries block: Istio default of {DEFAULT_RETRIES} retries"),
        },
        anchor,
    )
}

/// The Istio reader's documents: networking resources and the mesh
/// config's `defaultHttpRetryPolicy`.
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "istio",
    needles: &[
        "networking.istio.io",
        "defaultHttpRetryPolicy",
        compat::FLAG,
        "compatibilityVersion",
        "IstioOperator",
    ],
    read: extract::extract,
    order: 10,
}];

/// The retry circuit breaker (Envoy `max_retries`, concurrent retries to a
/// cluster) Istio writes on every cluster whose DestinationRule sets no
/// `connectionPool.http.maxRetries`: `math.MaxUint32`, no limit (istio/istio
/// `pilot/pkg/networking/core/cluster_builder.go`,
/// `getDefaultCircuitBreakerThresholds`, `MaxRetries: math.MaxUint32`,
/// replacing Envoy's own default of 3, envoyproxy/envoy
/// `api/envoy/config/cluster/v3/circuit_breaker.proto`, `max_retries`).
/// A written value this high limits nothing either.
pub const UNLIMITED_MAX_RETRIES: u64 = u32::MAX as u64;

/// Add `perTryTimeout` beside the route's `attempts`, or set the one the
/// route writes (istio/api
/// `networking/v1alpha3/virtual_service.proto`, `HTTPRetry.per_try_timeout`:
/// "Format: 1h/1m/1s/1ms. MUST be >=1ms").
fn per_try_timeout(
    site: &super::edit::Site<'_>,
    each: std::time::Duration,
) -> Option<Vec<crate::fix::Edit>> {
    use super::edit::{Value, add_sibling, go_duration};
    // A per-try timeout written on this route is set to the new length.
    if let Some(t) = &site.policy.per_try_timeout
        && t.provenance == crate::model::Provenance::Written
    {
        let to = go_duration(each);
        return Some(vec![super::edit::set_value(
            site.file, site.text, t.span, &to,
        )?]);
    }
    let at = site.policy.attempts.span;
    // Only beside a written count (not a block whose count is defaulted).
    super::edit::integer_in(site.text, at)?;
    let value = Value::Str(go_duration(each));
    Some(vec![add_sibling(
        site.file,
        site.path,
        site.text,
        at,
        "perTryTimeout",
        &value,
    )?])
}

/// `attempts: 0`: the route's sidecars do not retry (istio/api
/// `networking/v1alpha3/virtual_service.proto`, `HTTPRetry.attempts`:
/// "Number of retries to be allowed for a given request", and `retries:
/// {attempts: 0}` turns retries off).
fn retries_off(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    let at = site.policy.attempts.span;
    Some(vec![super::edit::set_integer(site.file, site.text, at, 0)?])
}
