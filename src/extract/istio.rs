//! Istio `VirtualService` (`networking.istio.io/v1`, `v1beta1`,
//! `v1alpha3`): per HTTP route, the retry policy the sidecar applies,
//! Istio's defaults included.
//!
//! Defaults (istio/istio `pilot/pkg/networking/core/route/retry/retry.go`):
//! a route with no `retries` block still retries 2 times (3 attempts) on
//! `connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes`
//! with an empty status list (since 1.24), with Envoy's jittered 25 ms
//! back-off; `attempts <= 0` disables retries; `attempts` counts retries;
//! the route `timeout` is off unless set; `perTryTimeout` defaults to the
//! route timeout.

use super::{DocCtx, Facts, check_yaml_keys, go_duration};
use crate::model::*;
use crate::rules::settings::invalid_setting;
use crate::source::Span;
use crate::yaml::Yaml;
use std::time::Duration;

pub const API_GROUP: &str = "networking.istio.io/";

const HTTP_ROUTE_KEYS: &[&str] = &[
    "name",
    "match",
    "route",
    "redirect",
    "directResponse",
    "delegate",
    "rewrite",
    "timeout",
    "retries",
    "fault",
    "mirror",
    "mirrors",
    "mirrorPercent",
    "mirror_percent",
    "mirrorPercentage",
    "corsPolicy",
    "headers",
];

const RETRY_KEYS: &[&str] = &[
    "attempts",
    "perTryTimeout",
    "retryOn",
    "retryRemoteLocalities",
    "retryIgnorePreviousHosts",
    "backoff",
];

const ROUTE_DESTINATION_KEYS: &[&str] = &["destination", "weight", "headers"];
const DESTINATION_KEYS: &[&str] = &["host", "subset", "port"];

/// The `retryOn` tokens Envoy's router accepts for HTTP and gRPC, which
/// Istio passes through.
pub const RETRY_ON_TOKENS: &[&str] = &[
    "5xx",
    "gateway-error",
    "reset",
    "reset-before-request",
    "connect-failure",
    "envoy-ratelimited",
    "retriable-4xx",
    "refused-stream",
    "retriable-status-codes",
    "retriable-headers",
    "http3-post-connect-failure",
    "cancelled",
    "deadline-exceeded",
    "internal",
    "resource-exhausted",
    "unavailable",
];

/// Istio's retry conditions when a route writes no `retries` block.
pub const DEFAULT_RETRY_ON: &str =
    "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes";

pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let api = root
        .get("apiVersion")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    if !api.starts_with(API_GROUP) {
        return false;
    }
    if root.get("kind").and_then(|v| v.as_str()) != Some("VirtualService") {
        // Other Istio kinds are recognised but carry no retry settings here.
        return true;
    }
    let name = root
        .path(&["metadata", "name"])
        .and_then(|v| v.as_str())
        .unwrap_or("unnamed")
        .to_string();
    let Some(spec) = root.get("spec") else {
        return true;
    };
    let hosts: Vec<(String, Span)> = spec
        .get("hosts")
        .map(|h| h.items())
        .unwrap_or_default()
        .iter()
        .filter_map(|h| h.as_str().map(|s| (s.to_string(), h.span())))
        .collect();
    if !hosts.is_empty() {
        facts.services.push(ServiceDecl {
            name: super::short_host(&hosts[0].0),
            span: hosts[0].1,
            source: "VirtualService hosts".into(),
            hosts: hosts.iter().map(|(h, _)| h.clone()).collect(),
        });
    }
    let routes = spec.get("http").map(|h| h.items()).unwrap_or_default();
    for (i, route) in routes.iter().enumerate() {
        if !route.is_map() {
            continue;
        }
        check_yaml_keys(*route, HTTP_ROUTE_KEYS, "an Istio HTTP route", facts);
        check_destinations(*route, facts);
        let label = match route.get("name").and_then(|n| n.as_str()) {
            Some(n) => format!("{name}/{n}"),
            None => format!("{name}/http[{i}]"),
        };
        if let Some(policy) = route_policy(*route, &label, &hosts, facts) {
            facts.policies.push(policy);
        }
    }
    true
}

/// `host`/`subset` written beside a null `destination` is an indentation
/// mistake that leaves the destination empty.
fn check_destinations(route: Yaml<'_>, facts: &mut Facts) {
    for dest in route.get("route").map(|r| r.items()).unwrap_or_default() {
        if !dest.is_map() {
            continue;
        }
        let null_destination = dest.get("destination").is_some_and(|d| d.is_null());
        for e in dest.entries() {
            if ROUTE_DESTINATION_KEYS.contains(&e.key) {
                continue;
            }
            if null_destination && DESTINATION_KEYS.contains(&e.key) {
                facts
                    .diagnostics
                    .push(crate::rules::settings::unknown_setting::misplaced(
                        e.key_span,
                        e.key,
                        "an Istio route destination",
                        "destination",
                    ));
            } else {
                facts
                    .diagnostics
                    .push(crate::rules::settings::unknown_setting::unknown_key(
                        e.key_span,
                        e.key,
                        "an Istio route destination",
                        ROUTE_DESTINATION_KEYS.iter().copied(),
                    ));
            }
        }
    }
}

fn route_policy(
    route: Yaml<'_>,
    label: &str,
    hosts: &[(String, Span)],
    facts: &mut Facts,
) -> Option<RetryPolicy> {
    // The route's anchor: its first key.
    let anchor = route.entries().first().map_or(route.span(), |e| e.key_span);
    let timeout = route.entry("timeout").map(|e| {
        let t = match go_duration(e.value, "timeout", facts) {
            Some(d) if d.is_zero() => Timeout::Disabled,
            Some(d) => Timeout::after(d),
            None => Timeout::Unknown,
        };
        Located::written(t, e.span())
    });
    let retries = route.entry("retries");
    let policy = match retries {
        None => default_policy(anchor),
        Some(r) if r.value.is_null() => default_policy(anchor),
        Some(r) => {
            check_yaml_keys(r.value, RETRY_KEYS, "an Istio `retries` block", facts);
            let attempts = r.value.entry("attempts");
            let n = match &attempts {
                None => 0,
                Some(a) => match a.value.as_i64() {
                    Some(n) if n < 0 => {
                        facts.diagnostics.push(invalid_setting::value(
                            a.value.span(),
                            "attempts",
                            a.value.as_str().unwrap_or(""),
                            "attempts cannot be negative",
                        ));
                        return None;
                    }
                    Some(n) => n,
                    None => {
                        facts.diagnostics.push(invalid_setting::value(
                            a.value.span(),
                            "attempts",
                            a.value.as_str().unwrap_or(""),
                            "not a whole number",
                        ));
                        return None;
                    }
                },
            };
            // `attempts: 0` (or none) turns retries off: the route still
            // has a policy, of one attempt, so the graph knows that nothing
            // (not even Istio's default) retries at this hop.
            let attempts = match &attempts {
                Some(a) => Located::written(
                    Attempts {
                        count: AttemptCount::Finite(n as u64 + 1),
                        written_as: format!("attempts: {n}"),
                    },
                    a.span(),
                ),
                None => Located::written(
                    Attempts {
                        count: AttemptCount::Finite(1),
                        written_as: "no `attempts`: retries off".into(),
                    },
                    r.key_span,
                ),
            };
            let mut p = RetryPolicy::new(System::Istio, r.key_span, attempts);
            p.retry_on = match r.value.entry("retryOn") {
                Some(e) => Located::written(retry_on(e.value, facts), e.span()),
                None => Located::default_at(default_retry_on(r.key_span), r.key_span),
            };
            if let Some(e) = r.value.entry("perTryTimeout") {
                let t = match go_duration(e.value, "perTryTimeout", facts) {
                    Some(d) if d < Duration::from_millis(1) => {
                        facts.diagnostics.push(invalid_setting::value(
                            e.value.span(),
                            "perTryTimeout",
                            e.value.as_str().unwrap_or(""),
                            "must be at least 1ms",
                        ));
                        Timeout::Unknown
                    }
                    Some(d) => Timeout::after(d),
                    None => Timeout::Unknown,
                };
                p.per_try_timeout = Some(Located::written(t, e.span()));
            }
            if let Some(e) = r.value.entry("backoff")
                && let Some(d) = go_duration(e.value, "backoff", facts)
            {
                p.delay = Located::written(
                    Delay::Exponential {
                        base: d,
                        multiplier: 2.0,
                        cap: Some(d * 10),
                    },
                    e.span(),
                );
            }
            p
        }
    };
    let mut policy = policy;
    policy.name = Some(label.to_string());
    policy.scope.route = Some(label.to_string());
    policy.scope.callee = hosts
        .first()
        .map(|(h, s)| Located::written(super::short_host(h), *s));
    policy.overall_timeout = Some(
        timeout
            .clone()
            .unwrap_or_else(|| Located::default_at(Timeout::Disabled, anchor)),
    );
    if policy.per_try_timeout.is_none()
        && let Some(t) = timeout.filter(|t| matches!(t.value, Timeout::Finite { .. }))
    {
        policy.per_try_timeout = Some(Located::default_at(t.value, t.span));
    }
    policy.methods = methods(route);
    // Envoy jitters every back-off, written or not.
    if policy.delay.is_written() {
        policy.jitter = Located::default_at(Jitter::Full, policy.delay.span);
        policy.platform_backoff = true;
    } else {
        envoy_backoff(&mut policy, anchor);
    }
    Some(policy)
}

fn default_policy(anchor: Span) -> RetryPolicy {
    let mut p = RetryPolicy::new(
        System::Istio,
        anchor,
        Located::default_at(
            Attempts {
                count: AttemptCount::Finite(3),
                written_as: "no `retries` block: Istio's default of 2 retries".into(),
            },
            anchor,
        ),
    );
    p.retry_on = Located::default_at(default_retry_on(anchor), anchor);
    p
}

/// Envoy's back-off, which Istio uses: 25 ms base, fully jittered, capped
/// at 10x the base.
fn envoy_backoff(p: &mut RetryPolicy, span: Span) {
    p.delay = Located::default_at(
        Delay::Exponential {
            base: Duration::from_millis(25),
            multiplier: 2.0,
            cap: Some(Duration::from_millis(250)),
        },
        span,
    );
    p.jitter = Located::default_at(Jitter::Full, span);
    p.platform_backoff = true;
}

fn default_retry_on(span: Span) -> RetryOn {
    RetryOn::Listed {
        conditions: DEFAULT_RETRY_ON
            .split(',')
            .map(|t| Located::default_at(condition(t), span))
            .collect(),
    }
}

/// Map one `retryOn` token to a condition.
pub fn condition(token: &str) -> Condition {
    match token {
        "5xx" => Condition::Status { from: 500, to: 599 },
        "gateway-error" => Condition::Status { from: 502, to: 504 },
        "retriable-4xx" => Condition::status(409),
        "reset"
        | "reset-before-request"
        | "connect-failure"
        | "refused-stream"
        | "http3-post-connect-failure" => Condition::Transport(token.to_string()),
        "cancelled" | "deadline-exceeded" | "internal" | "resource-exhausted" | "unavailable" => {
            Condition::Grpc(token.replace('-', "_").to_ascii_uppercase())
        }
        t => match t.parse::<u16>() {
            Ok(code) => Condition::status(code),
            Err(_) => Condition::Token(t.to_string()),
        },
    }
}

fn retry_on(v: Yaml<'_>, facts: &mut Facts) -> RetryOn {
    let Some(text) = v.as_str() else {
        return RetryOn::Unknown;
    };
    let base = v.span().start + if v.is_quoted() { 1 } else { 0 };
    let exact = v.span().len() == text.len() + if v.is_quoted() { 2 } else { 0 };
    let mut conditions = Vec::new();
    let mut offset = 0;
    for part in text.split(',') {
        let token = part.trim();
        let lead = part.len() - part.trim_start().len();
        let span = if exact {
            Span::new(base + offset + lead, base + offset + lead + token.len())
        } else {
            v.span()
        };
        offset += part.len() + 1;
        if token.is_empty() {
            continue;
        }
        let known = RETRY_ON_TOKENS.contains(&token)
            || token.parse::<u16>().is_ok_and(|c| (100..600).contains(&c));
        if !known {
            facts.diagnostics.push(invalid_setting::unknown_token(
                span,
                "retryOn",
                token,
                RETRY_ON_TOKENS.iter().copied(),
            ));
            continue;
        }
        conditions.push(Located::written(condition(token), span));
    }
    if conditions.is_empty() {
        RetryOn::Nothing
    } else {
        RetryOn::Listed { conditions }
    }
}

/// Methods a route matches: the `exact` methods of its `match` blocks, or
/// every method when any block does not restrict it.
fn methods(route: Yaml<'_>) -> Located<Methods> {
    let Some(m) = route.entry("match") else {
        return Located::default_at(Methods::All, route.span());
    };
    let mut set = Vec::new();
    let mut span: Option<Span> = None;
    for block in m.value.items() {
        match block.get("method") {
            Some(method) => match method.get("exact").filter(|e| e.as_str().is_some()) {
                Some(x) => {
                    set.push(x.as_str().unwrap_or_default().to_ascii_uppercase());
                    span = Some(span.map_or(x.span(), |s| s.cover(x.span())));
                }
                None => return Located::written(Methods::Unknown, m.span()),
            },
            None => return Located::written(Methods::All, m.span()),
        }
    }
    match span {
        Some(span) => Located::written(Methods::Set(set), span),
        None => Located::written(Methods::All, m.span()),
    }
}
