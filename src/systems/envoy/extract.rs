//! Envoy: v3 (and v2) bootstrap files and xDS resources in YAML or JSON
//! (`RouteConfiguration`, `Listener` with an `http_connection_manager`
//! `route_config`, `Cluster`, lists of them, discovery responses and config
//! dumps), in snake_case or proto-JSON camelCase, plus the legacy v1 JSON
//! format on a best-effort basis (`timeout_ms`, route-level `cluster`).
//!
//! Per route: the retry policy (a virtual host's `retry_policy` is inherited
//! by routes without one, as a whole), the route timeout, `hedge_policy`,
//! `:method` header matches, and the call to the route's cluster, whose
//! endpoints name the callee and whose `circuit_breakers` hold the retry
//! budget.
//!
//! Defaults (envoyproxy/envoy `api/envoy/config/route/v3/route_components.proto`,
//! `api/envoy/config/cluster/v3/circuit_breaker.proto` and the router
//! filter docs `docs/root/configuration/http/http_filters/router_filter.rst`):
//! - `num_retries` counts retries and defaults to 1;
//! - without `retry_on` nothing is retried unless a request carries
//!   `x-envoy-retry-on` / `x-envoy-retry-grpc-on`; `retriable-4xx` is 409
//!   only, other statuses need `retriable-status-codes` with
//!   `retriable_status_codes`;
//! - the route `timeout` defaults to 15s, spans every retry, `0s` disables
//!   it; without `per_try_timeout` each try is bounded only by the route
//!   timeout;
//! - back-off is exponential with full jitter, base 25 ms, cap 10x base;
//! - `retry_budget` defaults to 20% of active requests with a minimum of 3
//!   concurrent retries, and only applies when set; otherwise the
//!   `max_retries` circuit breaker (default 3 concurrent) is all there is;
//! - a duration is a string of seconds with one `s` suffix (`0.25s`), as
//!   protobuf's JSON mapping reads it: `250ms` is rejected.

use crate::diag::{invalid_setting, unparsable_file};
use crate::extract::{DocCtx, Facts, short_host};
use crate::model::*;
use crate::source::Span;
use crate::yaml::{Entry, Yaml};
use std::collections::HashMap;
use std::time::Duration;

use crate::systems::envoy::{DEFAULT_BUDGET_PERCENT, DEFAULT_MAX_RETRIES, DEFAULT_ROUTE_TIMEOUT};

mod cluster;
mod embedded;
mod fetch;
mod retry_policy;

use cluster::*;
use embedded::*;
use fetch::*;
use retry_policy::*;

const MAX_DEPTH: usize = 64;
const MAX_NODES: usize = 500_000;

/// The `retry_on` / `x-envoy-retry-on` / `x-envoy-retry-grpc-on` conditions
/// of Envoy's router.
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

const RETRY_POLICY_KEYS: &[&str] = &[
    "retry_on",
    "num_retries",
    "per_try_timeout",
    "per_try_idle_timeout",
    "retry_priority",
    "retry_host_predicate",
    "retry_options_predicates",
    "host_selection_retry_max_attempts",
    "retriable_status_codes",
    "retry_back_off",
    "rate_limited_retry_back_off",
    "retriable_headers",
    "retriable_request_headers",
    // v1 JSON
    "per_try_timeout_ms",
];
const BACKOFF_KEYS: &[&str] = &["base_interval", "max_interval"];
const RATE_LIMITED_BACKOFF_KEYS: &[&str] = &["reset_headers", "max_interval"];
const HEDGE_KEYS: &[&str] = &[
    "initial_requests",
    "additional_request_chance",
    "hedge_on_per_try_timeout",
];
const THRESHOLD_KEYS: &[&str] = &[
    "priority",
    "max_connections",
    "max_pending_requests",
    "max_requests",
    "max_retries",
    "retry_budget",
    "track_remaining",
    "max_connection_pools",
];
const RETRY_BUDGET_KEYS: &[&str] = &["budget_percent", "min_retry_concurrency"];

/// snake_case and camelCase spellings of each key, as protobuf's JSON
/// parser accepts both.
fn with_camel(keys: &[&str]) -> Vec<String> {
    let mut out = Vec::with_capacity(keys.len() * 2);
    for k in keys {
        out.push(k.to_string());
        let c = camel(k);
        if c != *k {
            out.push(c);
        }
    }
    out
}

fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut up = false;
    for ch in snake.chars() {
        if ch == '_' {
            up = true;
        } else if up {
            out.extend(ch.to_uppercase());
            up = false;
        } else {
            out.push(ch);
        }
    }
    out
}

/// The entry for a field in either spelling.
fn field<'a>(m: Yaml<'a>, snake: &str) -> Option<Entry<'a>> {
    m.entry(snake).or_else(|| m.entry(&camel(snake)))
}

/// RL901 for unknown keys, suggesting the spelling in the key's own style
/// (snake_case or camelCase).
fn check_keys(m: Yaml<'_>, keys: &[&str], what: &str, facts: &mut Facts) {
    let known = with_camel(keys);
    let camels: Vec<String> = keys.iter().map(|k| camel(k)).collect();
    for e in m.entries() {
        if known.iter().any(|k| k == e.key) {
            continue;
        }
        let snake_style = e.key.contains('_') || !e.key.chars().any(|c| c.is_ascii_uppercase());
        let candidates: Vec<&str> = if snake_style {
            keys.to_vec()
        } else {
            camels.iter().map(|s| s.as_str()).collect()
        };
        facts
            .diagnostics
            .push(crate::diag::unknown_setting::unknown_key(
                e.key_span, e.key, what, candidates,
            ));
    }
}

/// What one `retry_on` token retries.
pub fn conditions(token: &str) -> Vec<Condition> {
    let t = |s: &str| Condition::Transport(s.to_string());
    match token {
        // "responds with any 5xx response code, or does not respond at all
        // (disconnect/reset/read timeout)", connect-failure and
        // refused-stream included.
        "5xx" => vec![
            Condition::Status { from: 500, to: 599 },
            t("reset"),
            t("connect-failure"),
            t("refused-stream"),
        ],
        "gateway-error" => vec![
            Condition::Status { from: 502, to: 504 },
            t("reset"),
            t("connect-failure"),
        ],
        "retriable-4xx" => vec![Condition::status(409)],
        "reset"
        | "reset-before-request"
        | "connect-failure"
        | "refused-stream"
        | "http3-post-connect-failure" => vec![t(token)],
        "cancelled" | "deadline-exceeded" | "internal" | "resource-exhausted" | "unavailable" => {
            vec![Condition::Grpc(
                token.replace('-', "_").to_ascii_uppercase(),
            )]
        }
        "retriable-headers" => vec![Condition::Predicate],
        other => match other.parse::<u16>() {
            Ok(code) => vec![Condition::status(code)],
            Err(_) => vec![Condition::Token(other.to_string())],
        },
    }
}

/// Parse an Envoy (protobuf JSON) duration: `1.5s`, `0s`, or a
/// `{seconds, nanos}` map. Reports RL902 for anything else, `250ms`
/// included, which Envoy rejects.
pub fn duration(v: Yaml<'_>, key: &str, facts: &mut Facts) -> Option<Duration> {
    if v.is_map() {
        let secs = v.get("seconds").map_or(Some(0), |s| s.as_i64());
        let nanos = v.get("nanos").map_or(Some(0), |s| s.as_i64());
        return match (secs, nanos) {
            (Some(s), Some(n)) if s >= 0 && (0..1_000_000_000).contains(&n) => {
                Some(Duration::new(s as u64, n as u32))
            }
            _ => {
                facts.diagnostics.push(invalid_setting::value(
                    v.span(),
                    key,
                    "",
                    "`seconds` and `nanos` must be whole numbers, not negative",
                ));
                None
            }
        };
    }
    let text = v.as_str().unwrap_or("").trim();
    use crate::duration::ProtobufDurationError as E;
    let why = match crate::duration::parse_protobuf(text) {
        Ok(d) => return Some(d),
        Err(E::Negative) => "a negative duration is rejected".to_string(),
        Err(E::OutOfRange) => format!(
            "a protobuf duration is at most `{}s` (10,000 years)",
            crate::duration::PROTOBUF_MAX_SECONDS
        ),
        Err(E::Malformed) => match crate::duration::parse_go(text) {
            Ok(d) => format!(
                "Envoy reads a duration as seconds with one `s` suffix (write `{}`)",
                as_seconds(d)
            ),
            Err(_) => {
                "Envoy reads a duration as seconds with one `s` suffix, such as `0.25s`".to_string()
            }
        },
    };
    facts
        .diagnostics
        .push(invalid_setting::value(v.span(), key, text, &why));
    None
}

/// A duration as Envoy writes it: `0.25s`.
pub fn as_seconds(d: Duration) -> String {
    let s = format!("{:.9}", d.as_secs_f64());
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}s")
}

fn timeout_of(d: Option<Duration>) -> Timeout {
    match d {
        Some(d) if d.is_zero() => Timeout::Disabled,
        Some(d) => Timeout::after(d),
        None => Timeout::Unknown,
    }
}

/// Milliseconds as v1 JSON writes them (`timeout_ms`).
fn millis(v: Yaml<'_>, key: &str, facts: &mut Facts) -> Option<Duration> {
    match v.as_i64() {
        Some(n) if n >= 0 => Some(Duration::from_millis(n as u64)),
        _ => {
            facts.diagnostics.push(invalid_setting::value(
                v.span(),
                key,
                v.as_str().unwrap_or(""),
                "not a whole number of milliseconds",
            ));
            None
        }
    }
}

/// The roots of what one document holds.
#[derive(Default)]
struct Found<'a> {
    route_configs: Vec<Yaml<'a>>,
    clusters: Vec<Yaml<'a>>,
    /// Remote fetches with a retry policy, with the key they are under.
    fetches: Vec<(&'a str, Yaml<'a>)>,
}

fn is_cluster(m: Yaml<'_>) -> bool {
    if m.get("name").is_none() || m.get_any(&["virtual_hosts", "virtualHosts"]).is_some() {
        return false;
    }
    let typed = m
        .get("@type")
        .and_then(|t| t.as_str())
        .is_some_and(|t| t.ends_with(".Cluster"));
    typed
        || [
            "connect_timeout",
            "load_assignment",
            "circuit_breakers",
            "lb_policy",
            "dns_lookup_family",
            "connect_timeout_ms",
        ]
        .iter()
        .any(|k| field(m, k).is_some())
}

/// Find route configurations and clusters anywhere in the document, with
/// an explicit stack and bounded depth.
fn walk<'a>(root: Yaml<'a>, found: &mut Found<'a>) {
    let mut stack = vec![(root, 0usize, "")];
    let mut seen = 0usize;
    while let Some((node, depth, key)) = stack.pop() {
        seen += 1;
        if seen > MAX_NODES {
            break;
        }
        if depth > MAX_DEPTH {
            continue;
        }
        if node.is_seq() {
            for item in node.items().into_iter().rev() {
                stack.push((item, depth + 1, key));
            }
            continue;
        }
        if !node.is_map() {
            continue;
        }
        if node.get_any(&["virtual_hosts", "virtualHosts"]).is_some() {
            found.route_configs.push(node);
            continue;
        }
        if is_cluster(node) {
            found.clusters.push(node);
            continue;
        }
        if is_fetch(node) {
            found.fetches.push((key, node));
            continue;
        }
        for e in node.entries().into_iter().rev() {
            if e.key == "clusters" && e.value.is_seq() {
                for c in e.value.items() {
                    if c.is_map() && c.get("name").is_some() {
                        found.clusters.push(c);
                    }
                }
                continue;
            }
            stack.push((e.value, depth + 1, e.key));
        }
    }
}

/// Keys that say a document's root is an Envoy bootstrap or resource.
fn looks_like_envoy(root: Yaml<'_>) -> bool {
    let keys = [
        "static_resources",
        "staticResources",
        "dynamic_resources",
        "dynamicResources",
        "cluster_manager",
        "virtual_hosts",
        "virtualHosts",
    ];
    let typed = |m: Yaml<'_>| {
        m.get("@type")
            .and_then(|t| t.as_str())
            .is_some_and(|t| t.contains("envoy"))
    };
    if root.is_seq() {
        return root
            .items()
            .iter()
            .any(|i| typed(*i) || keys.iter().any(|k| i.get(k).is_some()));
    }
    typed(root) || keys.iter().any(|k| root.get(k).is_some())
}

/// The callee and retry budget of a policy whose requests go to cluster
/// `target` (its first endpoint's host, else the cluster's name; the
/// cluster's circuit breakers as the budget), or no budget seen.
fn target_cluster(
    p: &mut RetryPolicy,
    target: Option<(&str, Span)>,
    clusters: &HashMap<String, ClusterInfo>,
) {
    let Some((c, span)) = target else {
        p.budget_site = BudgetSite::Unseen;
        return;
    };
    let info = clusters.get(c);
    let callee = info
        .and_then(|info| info.endpoints.first())
        .map_or_else(|| c.to_string(), |(h, _)| short_host(h));
    p.scope.callee = Some(Located::written(callee, span));
    match info {
        Some(info) => {
            p.budget = info.budget.clone();
            p.budget_site = BudgetSite::Block {
                span: info.name_span,
                what: format!("cluster `{c}`"),
            };
        }
        None => p.budget_site = BudgetSite::Unseen,
    }
}

/// What a cluster contributes: its endpoints and its retry budget.
struct ClusterInfo {
    name_span: Span,
    endpoints: Vec<(String, Span)>,
    budget: Option<Located<Budget>>,
}

pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let kind = root.get("kind").and_then(|k| k.as_str());
    if kind == Some("ConfigMap") {
        return config_map(ctx, root, facts);
    }
    if kind == Some("EnvoyPatchPolicy")
        && root
            .get("apiVersion")
            .and_then(|a| a.as_str())
            .is_some_and(|a| a.starts_with("gateway.envoyproxy.io/"))
    {
        return patch_policy(root, facts);
    }
    // Kubernetes objects (Contour, Istio, Kuma ...) are not Envoy resources.
    if root.get("apiVersion").is_some() && root.get("kind").is_some() {
        return false;
    }
    let read = extract_root(root, facts);
    // An Envoy configuration held as a string (a block scalar in a Helm
    // chart's values, `envoyConfig: |`).
    read | embedded_strings(ctx, root, facts)
}

fn extract_root(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let looks = looks_like_envoy(root);
    if let Some(sr) = root.get_any(&["static_resources", "staticResources"])
        && !sr.is_map()
        && !sr.is_null()
    {
        facts.diagnostics.push(unparsable_file::unrecognised(
            sr.span(),
            "Envoy",
            "`static_resources` is not a mapping of `listeners` and `clusters`",
        ));
        return true;
    }
    let mut found = Found::default();
    walk(root, &mut found);
    // A `virtualHosts` mapping by name in a document that does not
    // otherwise look like Envoy is another format's (Gloo's `Proxy`
    // resource, solo-io/gloo 8d57572 `translator/testutils/outputs/`), not
    // a broken Envoy route configuration.
    if !looks {
        found.route_configs.retain(|rc| {
            rc.get_any(&["virtual_hosts", "virtualHosts"])
                .is_some_and(|v| v.is_seq())
        });
    }
    if found.route_configs.is_empty() && found.clusters.is_empty() && found.fetches.is_empty() {
        return looks;
    }
    let mut clusters: HashMap<String, ClusterInfo> = HashMap::new();
    for c in &found.clusters {
        if let Some((name, info)) = cluster(*c, facts) {
            clusters.entry(name).or_insert(info);
        }
    }
    for rc in &found.route_configs {
        route_config(*rc, &clusters, facts);
    }
    for (key, m) in &found.fetches {
        fetch(key, *m, &clusters, facts);
    }
    true
}

fn route_config(rc: Yaml<'_>, clusters: &HashMap<String, ClusterInfo>, facts: &mut Facts) {
    let Some(vhs) = rc.get_any(&["virtual_hosts", "virtualHosts"]) else {
        return;
    };
    if !vhs.is_seq() {
        if !vhs.is_null() {
            facts.diagnostics.push(unparsable_file::unrecognised(
                vhs.span(),
                "Envoy",
                "`virtual_hosts` is not a list of virtual hosts",
            ));
        }
        return;
    }
    for (i, vh) in vhs.items().into_iter().enumerate() {
        virtual_host(vh, i, clusters, facts);
    }
}

/// One virtual host: its own retry policy (inherited by routes without
/// one) and its routes.
fn virtual_host(
    vh: Yaml<'_>,
    i: usize,
    clusters: &HashMap<String, ClusterInfo>,
    facts: &mut Facts,
) {
    if !vh.is_map() {
        return;
    }
    let vh_name = vh
        .get("name")
        .and_then(|n| n.as_str())
        .map(str::to_string)
        .unwrap_or_else(|| format!("virtual_hosts[{i}]"));
    let vh_retry = field(vh, "retry_policy").and_then(|e| parse_retry(e, facts));
    let vh_hedge = field(vh, "hedge_policy").map(|h| hedges(h, facts));
    if let Some(p) = &vh_retry {
        // The virtual host's own policy, so that what it writes is
        // reported once, where it is written.
        let mut own = p.policy.clone();
        own.name = Some(format!("{vh_name} (virtual host)"));
        own.scope.route = own.name.clone();
        own.methods = match &p.request_methods {
            Some(m) => m.clone(),
            None => Located::default_at(Methods::All, own.span),
        };
        own.budget_site = BudgetSite::Unseen;
        if vh_hedge.unwrap_or(false) {
            own.kind = PolicyKind::Hedge;
        }
        facts.policies.push(own);
    }
    let Some(routes) = vh.get("routes") else {
        return;
    };
    if !routes.is_seq() {
        if !routes.is_null() {
            facts.diagnostics.push(unparsable_file::unrecognised(
                routes.span(),
                "Envoy",
                "`routes` is not a list of routes",
            ));
        }
        return;
    }
    let inherited = vh_retry.as_ref().map(inherited);
    for (j, r) in routes.items().into_iter().enumerate() {
        if r.is_map() {
            let label = format!("{vh_name}/routes[{j}]");
            route(r, &label, inherited.as_ref(), vh_hedge, clusters, facts);
        }
    }
}

fn hedges(h: Entry<'_>, facts: &mut Facts) -> bool {
    if !h.value.is_map() {
        return false;
    }
    check_keys(h.value, HEDGE_KEYS, "an Envoy `hedge_policy`", facts);
    field(h.value, "hedge_on_per_try_timeout")
        .and_then(|e| e.value.as_bool())
        .unwrap_or(false)
}

fn route(
    r: Yaml<'_>,
    label: &str,
    vh_retry: Option<&Parsed>,
    vh_hedge: Option<bool>,
    clusters: &HashMap<String, ClusterInfo>,
    facts: &mut Facts,
) {
    let anchor = r.entries().first().map_or(r.span(), |e| e.key_span);
    let action = match r.get("route") {
        Some(a) if a.is_map() => a,
        Some(a) => {
            facts.diagnostics.push(unparsable_file::unrecognised(
                a.span(),
                "Envoy",
                "a route's `route` action is not a mapping",
            ));
            return;
        }
        None => {
            let other = [
                "redirect",
                "direct_response",
                "filter_action",
                "non_forwarding_action",
            ];
            if other.iter().any(|k| field(r, k).is_some()) {
                return;
            }
            // v1: the action's fields sit on the route itself.
            if r.get("cluster").is_some() || field(r, "weighted_clusters").is_some() {
                r
            } else {
                facts.diagnostics.push(unparsable_file::unrecognised(
                    anchor,
                    "Envoy",
                    "a route with no `route`, `redirect` or `direct_response` action",
                ));
                return;
            }
        }
    };
    let name = r
        .get("name")
        .and_then(|n| n.as_str())
        .map(str::to_string)
        .unwrap_or_else(|| label.to_string());
    let mut targets: Vec<(String, Span)> = Vec::new();
    if let Some(c) = action.get("cluster")
        && let Some(s) = c.as_str()
    {
        targets.push((s.to_string(), c.span()));
    }
    if let Some(w) = field(action, "weighted_clusters") {
        for c in w
            .value
            .get("clusters")
            .map(|c| c.items())
            .unwrap_or_default()
        {
            if let Some(n) = c.get("name")
                && let Some(s) = n.as_str()
            {
                targets.push((s.to_string(), n.span()));
            }
        }
    }
    let timeout = match action.entry("timeout") {
        Some(t) => Located::written(timeout_of(duration(t.value, "timeout", facts)), t.span()),
        None => match action.entry("timeout_ms") {
            Some(t) => Located::written(timeout_of(millis(t.value, t.key, facts)), t.span()),
            None => Located::default_at(Timeout::after(DEFAULT_ROUTE_TIMEOUT), anchor),
        },
    };
    facts.timeouts.push(TimeoutSetting {
        system: System::Envoy,
        name: Some(name.clone()),
        what: "route timeout".into(),
        timeout: timeout.clone(),
    });
    let methods = route_methods(r, anchor);
    let hedge = match field(action, "hedge_policy") {
        Some(h) => hedges(h, facts),
        None => vh_hedge.unwrap_or(false),
    };
    let parsed = match field(action, "retry_policy") {
        Some(e) => parse_retry(e, facts),
        None => vh_retry.cloned(),
    };
    let index = parsed.map(|parsed| {
        let mut p = parsed.policy;
        p.name = Some(name.clone());
        p.scope.route = Some(name.clone());
        p.overall_timeout = Some(timeout.clone());
        p.methods = match parsed.request_methods {
            Some(rm) => restrict(&methods, rm),
            None => methods.clone(),
        };
        if hedge {
            p.kind = PolicyKind::Hedge;
        }
        target_cluster(
            &mut p,
            targets.first().map(|(c, s)| (c.as_str(), *s)),
            clusters,
        );
        facts.policies.push(p);
        facts.policies.len() - 1
    });
    for (c, span) in targets {
        let callee = clusters
            .get(&c)
            .and_then(|info| info.endpoints.first())
            .map_or_else(|| c.clone(), |(h, _)| short_host(h));
        facts.edges.push(CallEdge {
            client: None,
            caller: None,
            callee,
            span,
            policies: index.into_iter().collect(),
            via: format!("Envoy route `{name}` to cluster `{c}`"),
            protocol: None,
        });
    }
}

/// The methods a route matches: its `:method` header matcher, or all.
fn route_methods(r: Yaml<'_>, anchor: Span) -> Located<Methods> {
    // v3: `match.headers`; v1: `headers` on the route.
    let m = r.get("match");
    let headers = m
        .and_then(|m| m.get("headers"))
        .or_else(|| r.get("headers"));
    if let Some(h) = headers
        && let Some(methods) = header_methods(h)
    {
        return Located::written(methods, h.span());
    }
    match r.entry("match") {
        Some(e) => Located::written(Methods::All, e.span()),
        None => Located::default_at(Methods::All, anchor),
    }
}

/// Narrow a route's methods by the `:method` its retry policy requires.
fn restrict(route: &Located<Methods>, retry: Located<Methods>) -> Located<Methods> {
    match (&route.value, &retry.value) {
        (Methods::All, _) => retry,
        (_, Methods::All) => route.clone(),
        (Methods::Set(a), Methods::Set(b)) => Located {
            value: Methods::Set(a.iter().filter(|m| b.contains(m)).cloned().collect()),
            span: retry.span,
            provenance: retry.provenance,
        },
        _ => Located {
            value: Methods::Unknown,
            span: retry.span,
            provenance: retry.provenance,
        },
    }
}

#[cfg(test)]
mod tests;
