//! Spring Cloud Gateway `Retry` filters in Spring configuration
//! (`spring.cloud.gateway[.server.webflux].routes[i].filters[j]` and
//! `default-filters[j]`, and the Server MVC variants), in the shortcut form
//! `Retry=3,INTERNAL_SERVER_ERROR,GET,10ms,50ms,2,false` and the full form
//! `name: Retry` + `args`.
//!
//! Defaults (`RetryGatewayFilterFactory.RetryConfig` and `BackoffConfig`,
//! spring-cloud-gateway-server; reference "Retry GatewayFilter Factory"):
//! `retries` 3 (retries, so 4 attempts; must be > 0), `series`
//! `SERVER_ERROR`, no `statuses`, `methods` `GET`, `exceptions`
//! `IOException` and `TimeoutException`, no backoff; a `backoff` block
//! (even empty) is exponential from `firstBackoff` 5 ms by `factor` 2,
//! capped at `maxBackoff` (none by default); no jitter unless a `jitter`
//! block sets `randomFactor` (newer releases); `timeout` (newer releases)
//! bounds all retries. The shortcut order is `retries, statuses, methods,
//! backoff.firstBackoff, backoff.maxBackoff, backoff.factor,
//! backoff.basedOnPreviousValue` (`shortcutFieldOrder`). Server MVC's
//! filter reads other fields, in another shortcut order
//! ([`crate::systems::spring::cloud_gateway_mvc`]).
//!
//! Each attempt is bounded by the route's `metadata.response-timeout`
//! (milliseconds) or the global `spring.cloud.gateway.httpclient.response-timeout`;
//! neither is set by default.

use crate::diag::{invalid_setting, unknown_setting};
use crate::duration::parse_spring;
use crate::extract::Facts;
use crate::keys::normalise_key;
use crate::model::*;
use crate::source::Span;
use crate::systems::spring::cloud_gateway_mvc as mvc;
use crate::systems::spring::extract::Prop;
use std::collections::BTreeMap;
use std::time::Duration;

mod retry_filter;

use retry_filter::*;
pub(crate) use retry_filter::{Site, policy_of_args};

const ARG_KEYS: &[&str] = &[
    "retries",
    "statuses",
    "methods",
    "series",
    "exceptions",
    "backoff",
    "jitter",
    "timeout",
    "cacheBody",
    "routeId",
];
const BACKOFF_KEYS: &[&str] = &[
    "firstBackoff",
    "maxBackoff",
    "factor",
    "basedOnPreviousValue",
];
const JITTER_KEYS: &[&str] = &["randomFactor"];

const SERIES: &[(&str, u16, u16)] = &[
    ("INFORMATIONAL", 100, 199),
    ("SUCCESSFUL", 200, 299),
    ("REDIRECTION", 300, 399),
    ("CLIENT_ERROR", 400, 499),
    ("SERVER_ERROR", 500, 599),
];

const METHODS: &[&str] = &[
    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE",
];

/// `org.springframework.http.HttpStatus` constants.
const STATUSES: &[(&str, u16)] = &[
    ("CONTINUE", 100),
    ("SWITCHING_PROTOCOLS", 101),
    ("PROCESSING", 102),
    ("EARLY_HINTS", 103),
    ("OK", 200),
    ("CREATED", 201),
    ("ACCEPTED", 202),
    ("NON_AUTHORITATIVE_INFORMATION", 203),
    ("NO_CONTENT", 204),
    ("RESET_CONTENT", 205),
    ("PARTIAL_CONTENT", 206),
    ("MULTI_STATUS", 207),
    ("ALREADY_REPORTED", 208),
    ("IM_USED", 226),
    ("MULTIPLE_CHOICES", 300),
    ("MOVED_PERMANENTLY", 301),
    ("FOUND", 302),
    ("SEE_OTHER", 303),
    ("NOT_MODIFIED", 304),
    ("TEMPORARY_REDIRECT", 307),
    ("PERMANENT_REDIRECT", 308),
    ("BAD_REQUEST", 400),
    ("UNAUTHORIZED", 401),
    ("PAYMENT_REQUIRED", 402),
    ("FORBIDDEN", 403),
    ("NOT_FOUND", 404),
    ("METHOD_NOT_ALLOWED", 405),
    ("NOT_ACCEPTABLE", 406),
    ("PROXY_AUTHENTICATION_REQUIRED", 407),
    ("REQUEST_TIMEOUT", 408),
    ("CONFLICT", 409),
    ("GONE", 410),
    ("LENGTH_REQUIRED", 411),
    ("PRECONDITION_FAILED", 412),
    ("PAYLOAD_TOO_LARGE", 413),
    ("CONTENT_TOO_LARGE", 413),
    ("URI_TOO_LONG", 414),
    ("UNSUPPORTED_MEDIA_TYPE", 415),
    ("REQUESTED_RANGE_NOT_SATISFIABLE", 416),
    ("EXPECTATION_FAILED", 417),
    ("I_AM_A_TEAPOT", 418),
    ("UNPROCESSABLE_ENTITY", 422),
    ("UNPROCESSABLE_CONTENT", 422),
    ("LOCKED", 423),
    ("FAILED_DEPENDENCY", 424),
    ("TOO_EARLY", 425),
    ("UPGRADE_REQUIRED", 426),
    ("PRECONDITION_REQUIRED", 428),
    ("TOO_MANY_REQUESTS", 429),
    ("REQUEST_HEADER_FIELDS_TOO_LARGE", 431),
    ("UNAVAILABLE_FOR_LEGAL_REASONS", 451),
    ("INTERNAL_SERVER_ERROR", 500),
    ("NOT_IMPLEMENTED", 501),
    ("BAD_GATEWAY", 502),
    ("SERVICE_UNAVAILABLE", 503),
    ("GATEWAY_TIMEOUT", 504),
    ("HTTP_VERSION_NOT_SUPPORTED", 505),
    ("VARIANT_ALSO_NEGOTIATES", 506),
    ("INSUFFICIENT_STORAGE", 507),
    ("LOOP_DETECTED", 508),
    ("BANDWIDTH_LIMIT_EXCEEDED", 509),
    ("NOT_EXTENDED", 510),
    ("NETWORK_AUTHENTICATION_REQUIRED", 511),
];

/// One argument value with the span of each comma-separated item.
#[derive(Clone, Debug)]
pub(crate) struct Arg {
    key: String,
    key_span: Span,
    /// The span of the first segment (`backoff` of `backoff.factor`).
    head_span: Span,
    items: Vec<(String, Span)>,
    span: Span,
}

impl Arg {
    fn one(&self) -> Option<&(String, Span)> {
        self.items.first()
    }

    /// An argument written at `span` with these values (the Java DSL's
    /// setter call and its arguments).
    pub(crate) fn written(key: &str, span: Span, items: Vec<(String, Span)>) -> Arg {
        Arg {
            key: key.to_string(),
            key_span: span,
            head_span: span,
            items,
            span,
        }
    }
}

/// A filter entry `filters[j]` / `default-filters[j]` and where it is.
#[derive(Default)]
struct Filter<'p> {
    span: Span,
    /// The shortcut form's one prop.
    shortcut: Option<&'p Prop>,
    /// The full form's `name`.
    name: Option<&'p Prop>,
    /// The full form's `args.*` props, segments after `args`.
    args: Vec<(&'p Prop, usize)>,
    /// The route index for `routes[i]`, `None` for default filters.
    route: Option<String>,
    /// Whether it is a Server MVC route.
    mvc: bool,
}

/// A route's id, uri and `Method` predicate.
#[derive(Default)]
pub(crate) struct Route {
    id: Option<String>,
    uri: Option<(String, Span)>,
    methods: Option<Vec<String>>,
    /// The `Path` predicate's patterns (`Path=/catalog/**`).
    paths: Vec<String>,
    response_timeout: Option<(Timeout, Span)>,
    span: Option<Span>,
    /// The `uri` was written as a placeholder, resolved here.
    from_placeholder: bool,
}

/// Position of the gateway part of a prop: returns (index after
/// `spring.cloud.gateway[.server.webflux|.mvc|.server.webmvc]`, mvc).
fn gateway_base(p: &Prop) -> Option<(usize, bool)> {
    if p.segments.len() < 4
        || !p.normalised_is(0, "spring")
        || !p.normalised_is(1, "cloud")
        || !p.normalised_is(2, "gateway")
    {
        return None;
    }
    match (p.normalised(3).as_str(), p.normalised(4).as_str()) {
        ("server", "webflux") => Some((5, false)),
        ("server", "webmvc") => Some((5, true)),
        ("mvc", _) => Some((4, true)),
        _ => Some((3, false)),
    }
}

pub fn extract_props(props: &[Prop], caller: Option<&str>, facts: &mut Facts) -> bool {
    let mut filters: BTreeMap<Vec<String>, Filter<'_>> = BTreeMap::new();
    let mut routes: BTreeMap<(bool, String), Route> = BTreeMap::new();
    let mut global_timeout: Option<(Timeout, Span)> = None;
    for p in props {
        let Some((base, mvc)) = gateway_base(p) else {
            continue;
        };
        let head = p.normalised(base);
        // spring.cloud.gateway.httpclient.response-timeout
        if head == "httpclient"
            && p.segments.len() == base + 2
            && p.normalised_is(base + 1, "responsetimeout")
        {
            global_timeout = spring_duration(p, "response-timeout", facts).map(|t| (t, p.span()));
            continue;
        }
        let (route, at) = match head.as_str() {
            "routes" if p.is_index(base + 1) => (Some(p.segments[base + 1].clone()), base + 2),
            "defaultfilters" => (None, base + 1),
            _ => continue,
        };
        if let Some(r) = &route {
            let entry = routes.entry((mvc, r.clone())).or_default();
            entry.span = Some(entry.span.map_or(p.span(), |s| s.cover(p.span())));
            read_route_field(p, at, entry, facts);
        }
        let (fi, idx) = if route.is_some() {
            if !p.normalised_is(at, "filters") || !p.is_index(at + 1) {
                continue;
            }
            (at + 1, at + 2)
        } else {
            if !p.is_index(at) {
                continue;
            }
            (at, at + 1)
        };
        let key: Vec<String> = p.segments[..=fi].iter().map(|s| normalise_key(s)).collect();
        let f = filters.entry(key).or_insert_with(|| Filter {
            span: p.span(),
            route: route.clone(),
            mvc,
            ..Filter::default()
        });
        f.span = f.span.cover(p.span());
        match p.segments.get(idx).map(|s| normalise_key(s)) {
            None => f.shortcut = Some(p),
            Some(k) if k == "name" => f.name = Some(p),
            Some(k) if k == "args" => f.args.push((p, idx + 1)),
            Some(_) => {}
        }
    }
    let mut found = false;
    let mut defaults: Vec<usize> = Vec::new();
    let mut per_route: Vec<(bool, String, usize)> = Vec::new();
    for f in filters.values() {
        let is_retry = match (f.shortcut, f.name) {
            (Some(p), _) => filter_name(&p.value) == "Retry",
            (None, Some(n)) => n.value.trim() == "Retry",
            _ => false,
        };
        if !is_retry {
            continue;
        }
        found = true;
        let route = f
            .route
            .as_ref()
            .and_then(|r| routes.get(&(f.mvc, r.clone())));
        let policy = retry_policy(f, route, global_timeout, caller, facts);
        if let Some(policy) = policy {
            facts.policies.push(policy);
            let idx = facts.policies.len() - 1;
            match &f.route {
                Some(r) => per_route.push((f.mvc, r.clone(), idx)),
                None => defaults.push(idx),
            }
        }
    }
    // Every route's call carries its own Retry filters and the default
    // ones; a route without any is a call all the same (one attempt).
    for ((mvc, r), route) in &routes {
        let Some((uri, span)) = &route.uri else {
            continue;
        };
        // The route's call is only for the paths it matches
        // (`graph::routes`), however its target resolves.
        if !route.paths.is_empty() {
            facts.route_paths.push(crate::model::facts::RoutePaths {
                hosts: Vec::new(),
                span: *span,
                paths: route.paths.clone(),
            });
        }
        let mut policies: Vec<usize> = per_route
            .iter()
            .filter(|(m, rr, _)| m == mvc && rr == r)
            .map(|(.., i)| *i)
            .collect();
        policies.extend(defaults.iter().copied());
        // `uri: ${orders.url}`: what the placeholder holds is not known
        // here; listed, never guessed.
        // Only the port a placeholder (`http://localhost:${server.port}`):
        // the host is written.
        let written_host = uri.split_once("${").and_then(|(before, _)| {
            before.strip_suffix(':').filter(|h| {
                h.split_once("://")
                    .is_some_and(|(_, host)| !host.is_empty())
            })
        });
        let target = match written_host {
            Some(h) => h,
            None if uri.contains("${") => {
                let mut u = UnresolvedCall::new(*span, uri.trim());
                u.caller = caller.map(str::to_string);
                u.policies = policies;
                facts.unresolved.push(u);
                continue;
            }
            None => uri.as_str(),
        };
        let Some(callee) = callee_of(target) else {
            // `uri: ${CATALOG_SERVICE_URL:http://localhost:9001}/books`,
            // resolved to its default here: the deployed value may come
            // from the workload's environment (`link::spring_calls` reads
            // the placeholder at the span again and joins it).
            if route.from_placeholder {
                let mut u = UnresolvedCall::new(*span, uri.trim());
                u.caller = caller.map(str::to_string);
                u.policies = policies;
                facts.unresolved.push(u);
            }
            continue;
        };
        for i in &policies {
            if let Some(p) = facts.policies.get_mut(*i)
                && p.scope.callee.is_none()
            {
                p.scope.callee = Some(Located::written(callee.clone(), *span));
            }
        }
        facts.edges.push(CallEdge {
            client: None,
            caller: caller.map(str::to_string),
            callee,
            span: *span,
            policies,
            via: format!(
                "Spring Cloud Gateway route `{}`",
                route.id.clone().unwrap_or_else(|| format!("routes{r}"))
            ),
            protocol: None,
        });
        found = true;
    }
    found
}

/// The host a route's `uri` calls: `lb://orders` and `http://orders:8080`
/// are `orders`; `forward:` and `no://op` call nothing.
fn callee_of(uri: &str) -> Option<String> {
    let u = uri.trim();
    // `lb://orders`, and a scheme after `lb:` (`lb:ws://orders`,
    // `lb:http://ORDER-SERVICE`: the gateway's scheme prefix).
    let rest = u.strip_prefix("lb://").or_else(|| {
        u.strip_prefix("lb:")
            .and_then(|r| r.split_once("://"))
            .map(|(_, h)| h)
    });
    if let Some(r) = rest {
        // A service id is looked up without regard to case (Eureka keys
        // its registry by the upper-cased name: Netflix eureka-client
        // `Applications#getInstancesByVirtualHostName` and
        // `Application#getName`), so `ORDER-SERVICE` is the program named
        // `order-service`.
        return Some(crate::extract::short_host(r).to_ascii_lowercase()).filter(|h| !h.is_empty());
    }
    if u.starts_with("forward:") || u.starts_with("no://") || !u.contains("://") {
        return None;
    }
    // `http://localhost:${server.port}`: the gateway itself (springdoc's
    // route to its own docs), not a service it calls.
    Some(crate::extract::short_host(u))
        .filter(|h| !h.is_empty() && crate::extract::calls::names_service(h))
}

fn read_route_field(p: &Prop, at: usize, route: &mut Route, facts: &mut Facts) {
    match p.normalised(at).as_str() {
        "id" if p.segments.len() == at + 1 => route.id = Some(p.value.trim().to_string()),
        "uri" if p.segments.len() == at + 1 => {
            route.uri = Some((p.value.trim().to_string(), p.value_span));
            // A placeholder stood here (each of its bytes maps to the whole
            // `${..}`, at least four bytes).
            route.from_placeholder = p.value_map.iter().any(|s| s.end - s.start >= 4);
        }
        "predicates" if p.is_index(at + 1) => {
            // `Method=GET,POST` (shortcut) or `name: Method` + `args.methods`.
            let v = p.value.trim();
            let list = if p.segments.len() == at + 2 {
                v.strip_prefix("Method=").map(str::to_string)
            } else if p.normalised_is(at + 2, "args") && p.segments.len() > at + 3 {
                let arg = p.normalised(at + 3);
                (arg == "methods" || arg == "method").then(|| v.to_string())
            } else {
                None
            };
            // `Path=/red/**,/blue/{s}` (shortcut) or `name: Path` +
            // `args.patterns[i]`/`args.pattern`/`args._genkey_i`
            // (spring-cloud-gateway `PathRoutePredicateFactory`'s
            // `patterns` list).
            let paths = if p.segments.len() == at + 2 {
                v.strip_prefix("Path=").map(str::to_string)
            } else if p.normalised_is(at + 2, "args") && p.segments.len() > at + 3 {
                let arg = p.normalised(at + 3);
                (arg == "patterns" || arg == "pattern" || arg.starts_with("genkey"))
                    .then(|| v.to_string())
            } else {
                None
            };
            if let Some(paths) = paths {
                route.paths.extend(
                    paths
                        .split(',')
                        .map(|s| s.trim().to_string())
                        .filter(|s| s.starts_with('/')),
                );
            }
            if let Some(list) = list {
                let ms = route.methods.get_or_insert_with(Vec::new);
                ms.extend(
                    list.split(',')
                        .map(|m| m.trim().to_ascii_uppercase())
                        .filter(|m| !m.is_empty()),
                );
            }
        }
        "metadata" if p.segments.len() == at + 2 && p.normalised_is(at + 1, "responsetimeout") => {
            // Milliseconds; a negative value turns the global one off.
            route.response_timeout = match p.value.trim().parse::<i64>() {
                Ok(n) if n < 0 => Some((Timeout::Disabled, p.span())),
                Ok(n) => Some((Timeout::after(Duration::from_millis(n as u64)), p.span())),
                // A placeholder nothing resolved: unknown, not invalid.
                Err(_) if p.value.contains("${") => Some((Timeout::Unknown, p.span())),
                Err(_) => {
                    facts.diagnostics.push(invalid_setting::value(
                        p.value_span,
                        "response-timeout",
                        &p.value,
                        "route metadata `response-timeout` is a whole number of milliseconds",
                    ));
                    Some((Timeout::Unknown, p.span()))
                }
            };
        }
        _ => {}
    }
}

/// `Retry=3,...` -> `Retry`; `Retry` -> `Retry`.
fn filter_name(shortcut: &str) -> &str {
    shortcut.split_once('=').map_or(shortcut, |(n, _)| n).trim()
}

fn spring_duration(p: &Prop, key: &str, facts: &mut Facts) -> Option<Timeout> {
    match parse_spring(&p.value, Duration::from_millis(1)) {
        Ok(d) => Some(Timeout::after(d)),
        Err(e) => {
            if !p.value.contains("${") {
                facts
                    .diagnostics
                    .push(invalid_setting::value(p.value_span, key, &p.value, &e));
            }
            None
        }
    }
}

/// Comma-separated items of a prop's value (or of `value[from..]`).
fn items(p: &Prop, from: usize) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let Some(v) = p.value.get(from..) else {
        return out;
    };
    let mut offset = from;
    for part in v.split(',') {
        let t = part.trim();
        let lead = part.len() - part.trim_start().len();
        if !t.is_empty() {
            out.push((
                t.to_string(),
                p.sub_span(offset + lead..offset + lead + t.len()),
            ));
        }
        offset += part.len() + 1;
    }
    out
}

/// The filter's arguments by normalised name (`backoff.factor` for nested).
fn collect_args(f: &Filter<'_>) -> BTreeMap<String, Arg> {
    let mut out: BTreeMap<String, Arg> = BTreeMap::new();
    if let Some(p) = f.shortcut {
        // Shortcut: positional, one value each.
        const ORDER: &[&str] = &[
            "retries",
            "statuses",
            "methods",
            "backoff.firstBackoff",
            "backoff.maxBackoff",
            "backoff.factor",
            "backoff.basedOnPreviousValue",
        ];
        let Some(eq) = p.value.find('=') else {
            return out;
        };
        let order = if f.mvc { mvc::SHORTCUT_ORDER } else { ORDER };
        let values = items(p, eq + 1);
        for (i, (v, span)) in values.into_iter().enumerate() {
            let Some(name) = order.get(i) else { break };
            out.insert(
                normalise_key(name),
                Arg {
                    key: name.to_string(),
                    key_span: span,
                    head_span: span,
                    items: vec![(v, span)],
                    span,
                },
            );
        }
        return out;
    }
    for (p, at) in &f.args {
        let Some(first) = p.segments.get(*at) else {
            // `args:` with nothing under it.
            continue;
        };
        // Nested: backoff.x, jitter.x; list items: statuses[0].
        let mut name = first.clone();
        let head_span = p.seg_spans[*at];
        let mut key_span = head_span;
        if let Some(second) = p.segments.get(at + 1)
            && !p.is_index(at + 1)
        {
            name = format!("{first}.{second}");
            key_span = p.seg_spans[at + 1];
        }
        let norm = normalise_key(&name);
        let entry = out.entry(norm).or_insert_with(|| Arg {
            key: name.clone(),
            key_span,
            head_span,
            items: Vec::new(),
            span: p.span(),
        });
        entry.span = entry.span.cover(p.span());
        entry.items.extend(items(p, 0));
    }
    out
}

#[cfg(test)]
mod tests;
