//! Envoy's route retry policy.

pub mod extract;
mod fix;

use super::{Fixes, SystemSpec};
use crate::model::{Delay, Layer};
use std::time::Duration;

// system: Envoy
pub static SPEC: SystemSpec = SystemSpec {
    offers_budget: true,
    fixes: Fixes {
        budget: "add `retry_budget` to the cluster's `circuit_breakers.thresholds` (for example `budget_percent: {value: 20}` and `min_retry_concurrency: 3`), so retries stay a fraction of the active requests",
        unbudgeted: "only the `max_retries` circuit breaker (a fixed number of concurrent retries, 3 by default) limits them, however much of the traffic fails",
        edits: super::edit::FixEdits {
            per_try_timeout: Some(per_try_timeout),
            drop_conditions: Some(super::edit::drop_listed_in_config),
            budget: Some(fix::retry_budget),
            budget_title: Some(
                "add a retry budget to the cluster (`retry_budget`, 20% of the active requests)",
            ),
            budget_share: Some(fix::budget_share),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    // envoyproxy/envoy `api/envoy/config/cluster/v3/circuit_breaker.proto`,
    // `Thresholds.max_retries`: "If not specified, the default is 3".
    retries_limited_by_default: true,
    // A server of its own that reads this file.
    own_process: true,
    ..SystemSpec::plain("Envoy", Layer::Proxy)
};

/// The route timeout when none is written (envoy
/// `api/envoy/config/route/v3/route_components.proto`, `RouteAction.timeout`:
/// "If not specified, the default is 15s").
pub const DEFAULT_ROUTE_TIMEOUT: Duration = Duration::from_secs(15);

/// Concurrent retries a cluster allows when its DEFAULT-priority
/// `circuit_breakers` threshold writes no `max_retries` (and no
/// `retry_budget`, which overrides it): envoyproxy/envoy
/// `api/envoy/config/cluster/v3/circuit_breaker.proto`,
/// `Thresholds.max_retries`: "If not specified, the default is 3" (v1.x;
/// `retry_budget`: "If this field is set, the retry budget will override
/// any configured retry circuit breaker").
pub const DEFAULT_MAX_RETRIES: u64 = 3;

/// Concurrent requests a cluster allows when no `max_requests` is written
/// (the same file, `Thresholds.max_requests`: "If not specified, the
/// default is 1024"). A retry circuit breaker at or above it limits retries
/// no more than the requests themselves are limited (RL603).
pub const DEFAULT_MAX_REQUESTS: u64 = 1024;

/// The base retry back-off when a route writes no `retry_back_off` (envoy
/// `source/common/router/retry_state_impl.cc`: the runtime key
/// `upstream.base_retry_backoff_ms`, default 25).
pub const DEFAULT_BASE_INTERVAL: Duration = Duration::from_millis(25);

/// `max_interval` when none is written, in base intervals (the same file:
/// "By default, cap the max interval to 10 times the base interval").
pub const DEFAULT_MAX_INTERVAL_FACTOR: u32 = 10;

/// Each back-off interval doubles the last (envoy
/// `source/common/common/backoff_strategy.cc`,
/// `JitteredExponentialBackOffStrategy::nextBackOffMs`: `next_interval_ *
/// 2u`), and the wait is drawn from `[0, interval)` (full jitter).
pub const BACKOFF_MULTIPLIER: f64 = 2.0;

/// `retry_budget.budget_percent` when the budget is set without it (envoy
/// `api/envoy/config/cluster/v3/circuit_breaker.proto`: "defaults to
/// 20%").
pub const DEFAULT_BUDGET_PERCENT: f64 = 20.0;

/// The back-off from `base`: doubling, capped at `max` (10x `base` when
/// none is written).
pub fn backoff(base: Duration, max: Option<Duration>) -> Delay {
    Delay::Exponential {
        base,
        multiplier: BACKOFF_MULTIPLIER,
        cap: Some(max.unwrap_or(base * DEFAULT_MAX_INTERVAL_FACTOR)),
    }
}

/// Envoy's back-off when a route writes no `retry_back_off` (and Istio's,
/// which never writes one unless the route sets `backoff`): 25 ms doubling
/// up to 250 ms.
pub fn default_backoff() -> Delay {
    backoff(DEFAULT_BASE_INTERVAL, None)
}

/// A remote fetch's retry policy (`config.core.v3.RetryPolicy`: a JWKS
/// `remote_jwks`, the OAuth2 filter's token request, ext_authz's and
/// ext_proc's `http_service`, a Wasm module's `remote` source) when it does
/// not write `num_retries` or `retry_back_off`: envoyproxy/envoy
/// `api/envoy/config/core/v3/base.proto` at d65a4a5, `RetryPolicy`: "the
/// default base interval is 1000 milliseconds. The default maximum interval
/// is 10 times the base interval", `num_retries` "defaults to 1"; and
/// `source/common/http/utility.cc`, `Utility::convertCoreToRouteRetryPolicy`
/// (`default_base_interval_ms = 1000`, `num_retries` default 1, and each
/// try's timeout set to the back-off's `max_interval`).
pub const CORE_BASE_INTERVAL: Duration = Duration::from_millis(1000);
pub const CORE_NUM_RETRIES: u64 = 1;

/// What the HTTP fetches retry: the `retry_on` the jwt_authn, oauth2,
/// gcp_authn and ext_proc filters pass to `convertCoreToRouteRetryPolicy`
/// (envoyproxy/envoy `source/extensions/filters/http/*`:
/// `"5xx,gateway-error,connect-failure,reset"`). A remote data source (a
/// Wasm module's code) is fetched again after any failure.
pub const CORE_RETRY_ON: &[&str] = &["5xx", "gateway-error", "connect-failure", "reset"];

/// Envoy bootstrap and route configuration.
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "envoy",
    needles: &[
        "static_resources",
        "staticResources",
        "dynamic_resources",
        "virtual_hosts",
        "virtualHosts",
        "route_config",
        "circuit_breakers",
        "cluster_manager",
        "EnvoyPatchPolicy",
    ],
    read: extract::extract,
    order: 30,
}];

/// Add `per_try_timeout` (or `perTryTimeout` beside a camelCase
/// `numRetries`) to the retry policy, or set the one it writes (envoyproxy/envoy
/// `api/envoy/config/route/v3/route_components.proto`,
/// `RetryPolicy.per_try_timeout`, a `google.protobuf.Duration`, which JSON
/// and YAML write in seconds: `0.250s`).
fn per_try_timeout(site: &super::edit::Site<'_>, each: Duration) -> Option<Vec<crate::fix::Edit>> {
    use super::edit::{Value, add_sibling, proto_duration};
    // A `per_try_timeout` written in this retry policy is set to the new
    // length (not one inherited from the virtual host, which other routes
    // share, nor `per_try_timeout_ms`, whose unit differs).
    if let Some(t) = &site.policy.per_try_timeout
        && t.provenance == crate::model::Provenance::Written
    {
        let written = site.text.get(t.span.start..t.span.end)?;
        if written.contains("_ms") || written.contains("TimeoutMs") {
            return None;
        }
        let to = proto_duration(each);
        return Some(vec![super::edit::set_value(
            site.file, site.text, t.span, &to,
        )?]);
    }
    let at = site.policy.attempts.span;
    // Only beside a written count (not a block whose count is defaulted).
    super::edit::integer_in(site.text, at)?;
    let written = site.text.get(at.start..at.end)?;
    let key = if written.contains("numRetries") {
        "perTryTimeout"
    } else {
        "per_try_timeout"
    };
    let value = Value::Str(proto_duration(each));
    Some(vec![add_sibling(
        site.file, site.path, site.text, at, key, &value,
    )?])
}
