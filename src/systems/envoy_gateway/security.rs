//! Envoy Gateway `SecurityPolicy`: the retries of the remote fetches Envoy
//! Gateway configures for it, a JWT provider's `remoteJWKS` and the OIDC
//! provider's token request, each set by `backendSettings.retry` (a
//! `BackendCluster`'s settings, `api/v1alpha1/jwt_types.go` and
//! `oidc_types.go`). Envoy Gateway writes them as Envoy core retry
//! policies (`internal/xds/translator/oidc.go`, `buildNonRouteRetryPolicy`,
//! used by `jwt.go` for `remote_jwks.retry_policy` and by `oidc.go` for the
//! OAuth2 filter's), with the defaults below; a fetch with no `retry` has no
//! retry policy and is not retried.

use super::extract::{budget, duration, retry};
use super::{DEFAULT_FETCH_RETRY_ON, DEFAULT_FETCH_TIMEOUT};
use crate::extract::{Facts, short_host};
use crate::model::*;
use crate::systems::envoy::{self, CORE_BASE_INTERVAL};
use crate::yaml::Yaml;

pub(super) fn extract(root: Yaml<'_>, facts: &mut Facts) {
    let Some(spec) = root.get("spec") else {
        return;
    };
    let policy = root
        .path(&["metadata", "name"])
        .and_then(|n| n.as_str())
        .unwrap_or("");
    for provider in spec
        .path(&["jwt", "providers"])
        .map(|p| p.items())
        .unwrap_or_default()
    {
        let Some(jwks) = provider.get("remoteJWKS").filter(|j| j.is_map()) else {
            continue;
        };
        let name = provider.get("name").and_then(|n| n.as_str()).unwrap_or("");
        let what = format!("{policy}/{name} remoteJWKS fetch");
        fetch(jwks, "uri", what, "GET", facts);
    }
    if let Some(oidc) = spec.path(&["oidc", "provider"]).filter(|p| p.is_map()) {
        // The OAuth2 filter's token request, a POST.
        fetch(
            oidc,
            "tokenEndpoint",
            format!("{policy} OIDC token request"),
            "POST",
            facts,
        );
    }
}

/// One fetch: `cluster` is the `BackendCluster` holding `backendSettings`,
/// `uri_key` the key of the URI it fetches.
fn fetch(cluster: Yaml<'_>, uri_key: &str, what: String, method: &str, facts: &mut Facts) {
    let Some(settings) = cluster.get("backendSettings").filter(|s| s.is_map()) else {
        return;
    };
    let Some(r) = settings.entry("retry").filter(|e| e.value.is_map()) else {
        return;
    };
    let Some(mut p) = retry(r, DEFAULT_FETCH_RETRY_ON, facts) else {
        return;
    };
    p.name = Some(what.clone());
    p.scope.route = Some(what);
    // A core retry policy with no `retry_back_off` waits as Envoy's core
    // default (1 s doubling up to 10 s), not as a route's 25 ms.
    if !p.delay.is_written() {
        p.delay = Located::default_at(envoy::backoff(CORE_BASE_INTERVAL, None), r.key_span);
    }
    p.jitter = Located::default_at(Jitter::Full, p.delay.span);
    p.methods = Located::default_at(Methods::Set(vec![method.to_string()]), r.key_span);
    p.budget = Some(budget(settings, r.key_span, facts));
    // The timeout covers every try (Envoy's async client); each try is cut
    // at the back-off's maximum interval
    // (`Utility::convertCoreToRouteRetryPolicy` sets `per_try_timeout` to
    // `max_interval`), which matters only below it.
    let timeout = settings
        .path(&["timeout", "http"])
        .and_then(|h| h.entry("requestTimeout"))
        .and_then(|t| duration(t.value, "requestTimeout", facts).map(|d| (d, t.span())));
    let overall = match timeout {
        Some((d, s)) => Located::written(Timeout::after(d), s),
        None => Located::default_at(Timeout::after(DEFAULT_FETCH_TIMEOUT), r.key_span),
    };
    if let Delay::Exponential { cap: Some(cap), .. } = p.delay.value
        && overall.value.finite().is_some_and(|d| cap < d)
    {
        p.per_try_timeout = Some(Located::default_at(Timeout::after(cap), p.delay.span));
    }
    p.overall_timeout = Some(overall);
    let host = cluster
        .entry(uri_key)
        .and_then(|u| u.value.as_str().map(|s| (s, u.value.span())))
        .filter(|(u, _)| u.starts_with("https://") || u.starts_with("http://"));
    let backend = cluster
        .get("backendRefs")
        .and_then(|b| b.items().into_iter().next())
        .and_then(|b| b.get("name"))
        .and_then(|n| n.as_str().map(|s| (s, n.span())));
    if let Some((h, span)) = backend.or(host) {
        p.scope.callee = Some(Located::written(short_host(h), span));
    }
    facts.policies.push(p);
}
