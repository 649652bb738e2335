//! The retry policy of Envoy's own remote fetches
//! (`config.core.v3.RetryPolicy`, not a route's): a JWT provider's
//! `remote_jwks`, the OAuth2 filter's token request (`token_endpoint`),
//! ext_authz's `http_service` (`server_uri`), ext_proc's HTTP service and a
//! remote data source (a Wasm module's `code.remote`, `sha256` beside its
//! `http_uri`). Each is one policy on the fetch's cluster, with the
//! defaults of [`crate::systems::envoy::CORE_BASE_INTERVAL`] and
//! [`crate::systems::envoy::CORE_NUM_RETRIES`].

use super::*;
use crate::systems::envoy::{CORE_BASE_INTERVAL, CORE_NUM_RETRIES, CORE_RETRY_ON};

/// The keys of a fetch's HTTP target (`config.core.v3.HttpUri`).
const URI_KEYS: &[&str] = &["http_uri", "server_uri", "token_endpoint"];

const CORE_RETRY_KEYS: &[&str] = &[
    "retry_back_off",
    "num_retries",
    "max_retries",
    "retry_on",
    "retry_priority",
    "retry_host_predicate",
    "host_selection_retry_max_attempts",
];

/// Whether `m` is a fetch with a retry policy of its own.
pub(super) fn is_fetch(m: Yaml<'_>) -> bool {
    field(m, "retry_policy").is_some() && URI_KEYS.iter().any(|k| field(m, k).is_some())
}

/// One fetch `m`, found under `key` (`remote_jwks`, `http_service`,
/// `remote`, or the filter config holding `token_endpoint`).
pub(super) fn fetch(
    key: &str,
    m: Yaml<'_>,
    clusters: &HashMap<String, ClusterInfo>,
    facts: &mut Facts,
) {
    let Some(rp) = field(m, "retry_policy").filter(|e| e.value.is_map()) else {
        return;
    };
    let Some(uri) = URI_KEYS.iter().find_map(|k| field(m, k)) else {
        return;
    };
    check_keys(
        rp.value,
        CORE_RETRY_KEYS,
        "an Envoy core `retry_policy`",
        facts,
    );
    // A remote data source is fetched again after any failure, each try
    // bounded by the URI's timeout; the HTTP fetches go through Envoy's
    // async client, whose timeout spans every try.
    let data_source = field(m, "sha256").is_some();
    let attempts = match field(rp.value, "num_retries").or_else(|| field(rp.value, "max_retries")) {
        Some(n) => match n.value.as_i64().and_then(|k| u64::try_from(k).ok()) {
            Some(k) => Located::written(
                Attempts {
                    count: AttemptCount::Finite(k + 1),
                    written_as: format!("{}: {k}", n.key),
                },
                n.span(),
            ),
            None => {
                facts.diagnostics.push(invalid_setting::value(
                    n.value.span(),
                    n.key,
                    n.value.as_str().unwrap_or(""),
                    "not a non-negative whole number",
                ));
                return;
            }
        },
        // The policy is written; only its count is Envoy's default.
        None => Located::written(
            Attempts {
                count: AttemptCount::Finite(CORE_NUM_RETRIES + 1),
                written_as: "num_retries unset: Envoy's default of 1 retry".into(),
            },
            rp.key_span,
        ),
    };
    let mut p = RetryPolicy::new(System::Envoy, rp.key_span, attempts);
    // Named for what is fetched: the key holding it (`remote_jwks`,
    // `http_service`, `remote`), or the token endpoint's own key.
    let is = |k: &str, snake: &str| k == snake || k == camel(snake);
    let what = if is(uri.key, "token_endpoint") {
        uri.key
    } else {
        key
    };
    let name = format!("{what} fetch");
    p.name = Some(name.clone());
    p.scope.route = Some(name);
    p.delay = match field(rp.value, "retry_back_off") {
        Some(b) => match backoff(b, facts) {
            Some(d) => Located::written(d, b.span()),
            None => Located::written(Delay::Unknown, b.span()),
        },
        None => Located::default_at(
            crate::systems::envoy::backoff(CORE_BASE_INTERVAL, None),
            rp.key_span,
        ),
    };
    p.jitter = Located::default_at(Jitter::Full, p.delay.span);
    p.cap_order = CapOrder::BeforeJitter;
    p.platform_backoff = true;
    p.retry_on = match field(rp.value, "retry_on") {
        Some(ro) => Located::written(retry_on(ro.value, &[], facts).0, ro.span()),
        // Fetched again after any failure (a network error, an answer
        // other than 200, a body whose sha256 differs), with no setting to
        // narrow it: named as what it is, not as a missing predicate.
        None if data_source => Located::default_at(
            RetryOn::Listed {
                conditions: vec![Located::default_at(
                    Condition::Token("any failed fetch".into()),
                    rp.key_span,
                )],
            },
            rp.key_span,
        ),
        None => {
            let mut listed: Vec<Located<Condition>> = Vec::new();
            for c in CORE_RETRY_ON.iter().flat_map(|t| conditions(t)) {
                if !listed.iter().any(|x| x.value == c) {
                    listed.push(Located::default_at(c, rp.key_span));
                }
            }
            let conditions = listed;
            Located::default_at(RetryOn::Listed { conditions }, rp.key_span)
        }
    };
    // JWKS and remote code are fetched with GET, a token with POST; what
    // ext_authz and ext_proc send depends on the request they check.
    let method = if is(key, "remote_jwks") || data_source {
        Some("GET")
    } else if is(uri.key, "token_endpoint") {
        Some("POST")
    } else {
        None
    };
    p.methods = match method {
        Some(m) => Located::default_at(Methods::Set(vec![m.to_string()]), uri.key_span),
        None => Located::default_at(Methods::Unknown, uri.key_span),
    };
    let timeout = uri
        .value
        .entry("timeout")
        .and_then(|t| duration(t.value, "timeout", facts).map(|d| (d, t.span())));
    if data_source {
        p.per_try_timeout = timeout.map(|(d, s)| Located::written(timeout_of(Some(d)), s));
    } else if let Some((d, s)) = timeout {
        p.overall_timeout = Some(Located::written(timeout_of(Some(d)), s));
        // Each try is cut at the back-off's `max_interval`, which matters
        // only below the timeout over all tries.
        if let Delay::Exponential { cap: Some(cap), .. } = p.delay.value
            && cap < d
        {
            p.per_try_timeout = Some(Located::default_at(Timeout::after(cap), p.delay.span));
        }
    }
    let target = uri
        .value
        .get("cluster")
        .and_then(|c| c.as_str().map(|s| (s, c.span())));
    target_cluster(&mut p, target, clusters);
    facts.policies.push(p);
}
