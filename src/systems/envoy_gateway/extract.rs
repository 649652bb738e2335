//! `BackendTrafficPolicy` `spec.retry` (`numRetries`, `retryOn.triggers`,
//! `retryOn.httpStatusCodes`, `perRetry.timeout`, `perRetry.backOff`) and
//! `spec.timeout.http.requestTimeout`, as one retry policy on the targets,
//! limited by `spec.circuitBreaker` (`retryBudget`, `maxParallelRetries`).
//! The policy names no methods: every method of the targeted routes is
//! retried.

use super::{DEFAULT_MAX_PARALLEL_RETRIES, DEFAULT_NUM_RETRIES, DEFAULT_RETRY_ON};
use crate::diag::invalid_setting;
use crate::extract::{DocCtx, Facts, check_yaml_keys};
use crate::model::*;
use crate::source::Span;
use crate::systems::envoy;
use crate::systems::envoy::extract::conditions;
use crate::yaml::{Entry, Yaml};

const RETRY_KEYS: &[&str] = &[
    "numRetries",
    "numAttemptsPerPriority",
    "retryOn",
    "perRetry",
];
const PER_RETRY_KEYS: &[&str] = &["timeout", "backOff"];
const CIRCUIT_BREAKER_KEYS: &[&str] = &[
    "maxConnections",
    "maxPendingRequests",
    "maxParallelRequests",
    "maxParallelRetries",
    "maxRequestsPerConnection",
    "perEndpoint",
    "retryBudget",
];

pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let api = root
        .get("apiVersion")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    let kind = root.get("kind").and_then(|v| v.as_str()).unwrap_or("");
    if !api.starts_with("gateway.envoyproxy.io/") {
        return false;
    }
    match kind {
        "BackendTrafficPolicy" => {}
        "SecurityPolicy" => {
            super::security::extract(root, facts);
            return true;
        }
        _ => return false,
    }
    let Some(spec) = root.get("spec") else {
        return true;
    };
    let Some(r) = spec.entry("retry") else {
        return true;
    };
    if !r.value.is_map() {
        return true;
    }
    let Some(mut p) = retry(r, DEFAULT_RETRY_ON, facts) else {
        return true;
    };
    p.name = root
        .path(&["metadata", "name"])
        .and_then(|n| n.as_str())
        .map(str::to_string);
    p.methods = Located::default_at(Methods::All, r.key_span);
    p.budget = Some(budget(spec, r.key_span, facts));
    if let Some(t) = spec
        .path(&["timeout", "http"])
        .and_then(|h| h.entry("requestTimeout"))
        && let Some(d) = duration(t.value, "requestTimeout", facts)
    {
        let v = if d.is_zero() {
            Timeout::Disabled
        } else {
            Timeout::after(d)
        };
        p.overall_timeout = Some(Located::written(v, t.span()));
    }
    facts.policies.push(p);
    true
}

/// An Envoy Gateway `retry` block (`Retry` in `api/v1alpha1/retry_types.go`):
/// `numRetries` (2 when not written), `retryOn` (`default_on` when not
/// written), `perRetry.timeout` and `perRetry.backOff`; `None` when
/// `numRetries` is no count (reported).
pub(super) fn retry(r: Entry<'_>, default_on: &[&str], facts: &mut Facts) -> Option<RetryPolicy> {
    check_yaml_keys(r.value, RETRY_KEYS, "an Envoy Gateway `retry` block", facts);
    let attempts = match r.value.entry("numRetries") {
        Some(n) => match n.value.as_i64() {
            Some(k) if k >= 0 => Located::written(
                Attempts {
                    count: AttemptCount::Finite(k as u64 + 1),
                    written_as: format!("numRetries: {k}"),
                },
                n.span(),
            ),
            _ => {
                facts.diagnostics.push(invalid_setting::value(
                    n.value.span(),
                    "numRetries",
                    n.value.as_str().unwrap_or(""),
                    "not a non-negative whole number",
                ));
                return None;
            }
        },
        // The `retry` block is written (it asks for retries); only its
        // count is Envoy Gateway's default.
        None => Located::written(
            Attempts {
                count: AttemptCount::Finite(DEFAULT_NUM_RETRIES + 1),
                written_as: format!(
                    "numRetries unset: Envoy Gateway's default of {DEFAULT_NUM_RETRIES} retries"
                ),
            },
            r.key_span,
        ),
    };
    let mut p = RetryPolicy::new(System::EnvoyGateway, r.key_span, attempts);
    p.retry_on = retry_on(r.value, r.key_span, default_on);
    // Envoy jitters its own back-off.
    p.platform_backoff = true;
    p.delay = Located::default_at(envoy::default_backoff(), r.key_span);
    if let Some(per) = r.value.entry("perRetry").filter(|e| e.value.is_map()) {
        check_yaml_keys(
            per.value,
            PER_RETRY_KEYS,
            "an Envoy Gateway `perRetry` block",
            facts,
        );
        if let Some(t) = per.value.entry("timeout")
            && let Some(d) = duration(t.value, "timeout", facts)
        {
            p.per_try_timeout = Some(Located::written(Timeout::after(d), t.span()));
        }
        if let Some(b) = per.value.entry("backOff").filter(|e| e.value.is_map()) {
            let base = b
                .value
                .get("baseInterval")
                .and_then(|v| duration(v, "baseInterval", facts));
            let max = b
                .value
                .get("maxInterval")
                .and_then(|v| duration(v, "maxInterval", facts));
            if let Some(base) = base {
                p.delay = Located::written(envoy::backoff(base, max), b.span());
            }
        }
    }
    Some(p)
}

/// What limits the retries to the targets' clusters as a whole:
/// `circuitBreaker.retryBudget` (a share of the active requests; it
/// overrides `maxParallelRetries`), else `circuitBreaker.maxParallelRetries`
/// (Envoy's cluster `max_retries`), else the [`DEFAULT_MAX_PARALLEL_RETRIES`]
/// Envoy Gateway writes on every cluster.
pub(super) fn budget(spec: Yaml<'_>, anchor: Span, facts: &mut Facts) -> Located<Budget> {
    let default = Located::default_at(
        Budget::Concurrency {
            max: DEFAULT_MAX_PARALLEL_RETRIES,
        },
        anchor,
    );
    let Some(cb) = spec.get("circuitBreaker").filter(|c| c.is_map()) else {
        return default;
    };
    check_yaml_keys(
        cb,
        CIRCUIT_BREAKER_KEYS,
        "an Envoy Gateway `circuitBreaker`",
        facts,
    );
    if let Some(rb) = cb.entry("retryBudget").filter(|e| e.value.is_map())
        && let Some(pc) = rb.value.entry("percent")
    {
        // A Gateway API `Fraction`: `numerator` over `denominator` (100
        // when not written).
        let num = pc.value.get("numerator").and_then(|n| n.as_f64());
        let den = pc
            .value
            .get("denominator")
            .map_or(Some(100.0), |d| d.as_f64());
        match (num, den) {
            (Some(n), Some(d)) if n >= 0.0 && d > 0.0 && n <= d => {
                return Located::written(
                    Budget::Ratio {
                        ratio: n / d,
                        min_per_second: None,
                    },
                    pc.span(),
                );
            }
            _ => facts.diagnostics.push(invalid_setting::value(
                pc.value.span(),
                "percent",
                pc.value.as_str().unwrap_or(""),
                "a fraction with `numerator` no larger than its `denominator` (100 when not written) is expected",
            )),
        }
    }
    match cb.entry("maxParallelRetries") {
        Some(m) => match m.value.as_i64().and_then(|n| u64::try_from(n).ok()) {
            Some(max) => Located::written(Budget::Concurrency { max }, m.span()),
            None => {
                facts.diagnostics.push(invalid_setting::value(
                    m.value.span(),
                    "maxParallelRetries",
                    m.value.as_str().unwrap_or(""),
                    "not a non-negative whole number",
                ));
                default
            }
        },
        None => default,
    }
}

/// `retryOn`: the triggers (Envoy's `retry_on` words) and the status codes
/// `retriable-status-codes` retries; `default_on` when absent.
fn retry_on(retry: Yaml<'_>, anchor: Span, default_on: &[&str]) -> Located<RetryOn> {
    let Some(on) = retry.entry("retryOn") else {
        let conditions = default_on
            .iter()
            .flat_map(|t| conditions(t))
            .map(|c| Located::default_at(c, anchor))
            .collect();
        return Located::default_at(RetryOn::Listed { conditions }, anchor);
    };
    let mut out = Vec::new();
    let codes: Vec<Yaml<'_>> = on
        .value
        .get("httpStatusCodes")
        .map(|c| c.items())
        .unwrap_or_default();
    for t in on
        .value
        .get("triggers")
        .map(|t| t.items())
        .unwrap_or_default()
    {
        let word = t.as_str().unwrap_or("");
        if word == "retriable-status-codes" {
            continue;
        }
        out.extend(
            conditions(word)
                .into_iter()
                .map(|c| Located::written(c, t.span())),
        );
    }
    // Envoy Gateway adds `retriable-status-codes` itself when codes are
    // listed.
    for c in codes {
        if let Some(n) = c.as_i64().and_then(|n| u16::try_from(n).ok()) {
            out.push(Located::written(Condition::status(n), c.span()));
        }
    }
    Located::written(RetryOn::Listed { conditions: out }, on.span())
}

/// A Gateway API duration (GEP-2257), as Envoy Gateway's fields are.
pub(super) fn duration(v: Yaml<'_>, key: &str, facts: &mut Facts) -> Option<std::time::Duration> {
    crate::systems::gateway_api::extract::gep_duration(v, key, facts)
}
