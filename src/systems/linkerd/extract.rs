//! Linkerd: `ServiceProfile` (`linkerd.io/v1alpha1`, `v1alpha2`) routes and
//! retry budgets, and the 2.16+ retry and timeout annotations on `Service`,
//! `HTTPRoute` and `GRPCRoute` resources (the Gateway API extractor calls
//! [`route_annotations`] for routes).
//!
//! ServiceProfile (linkerd/website `linkerd.io/content/2.16/reference/service-profiles.md`,
//! linkerd/linkerd2-proxy's profile `RetryPolicy`):
//! - `isRetryable: true` retries a failed response "whenever possible": the
//!   proxy keeps no per-request count, only the service's retry budget
//!   (`budget.withdraw()`) stops it, and it retries at once (no back-off);
//! - a response is a failure when a `responseClasses` entry with
//!   `isFailure: true` matches it, 5xx when none is written;
//! - `retryBudget` defaults to `retryRatio: 0.2`, `minRetriesPerSecond: 10`,
//!   `ttl: 10s`;
//! - there is no default route `timeout` since stable-2.9.0 (linkerd2
//!   CHANGES edge-20.9.2 "Removed the default timeout for ServiceProfiles",
//!   linkerd/website#1733).
//!
//! Annotations (linkerd/website `linkerd.io/content/2.16/reference/retries.md`
//! and `timeouts.md`; linkerd2-proxy `http/logical/policy/route/retry.rs`):
//! `retry.linkerd.io/http` (statuses, ranges, `gateway-error`, `5xx`; unset =
//! no status retried), `retry.linkerd.io/grpc` (codes), `retry.linkerd.io/limit`
//! (retries, default 1), `retry.linkerd.io/timeout` (per try, none by
//! default), `timeout.linkerd.io/request|response|idle`. Back-off is
//! jittered, 25-250 ms. There is no budget for these retries. They are
//! ignored for a Service that has a ServiceProfile.

use crate::diag::{invalid_setting, unknown_setting};
use crate::extract::{DocCtx, Facts, go_duration, short_host};
use crate::model::*;
use crate::source::Span;
use crate::yaml::{Entry, Yaml};
use std::time::Duration;

pub const API_GROUP: &str = "linkerd.io/";

/// The default ServiceProfile retry budget.
pub const DEFAULT_RETRY_RATIO: f64 = 0.2;
pub const DEFAULT_MIN_RETRIES_PER_SECOND: f64 = 10.0;

const SPEC_KEYS: &[&str] = &["routes", "retryBudget", "opaquePorts", "dstOverrides"];
const ROUTE_KEYS: &[&str] = &[
    "name",
    "condition",
    "responseClasses",
    "isRetryable",
    "timeout",
];
const BUDGET_KEYS: &[&str] = &["retryRatio", "minRetriesPerSecond", "ttl"];

const RETRY_ANNOTATIONS: &[&str] = &[
    "retry.linkerd.io/http",
    "retry.linkerd.io/grpc",
    "retry.linkerd.io/limit",
    "retry.linkerd.io/timeout",
];
const TIMEOUT_ANNOTATIONS: &[&str] = &[
    "timeout.linkerd.io/request",
    "timeout.linkerd.io/response",
    "timeout.linkerd.io/idle",
];
const GRPC_CODES: &[&str] = &[
    "cancelled",
    "deadline-exceeded",
    "internal",
    "resource-exhausted",
    "unavailable",
];

/// Marks a policy as coming from Linkerd's annotations (the ServiceProfile
/// pass looks for it).
const ANNOTATION_SOURCE: &str = "annotations";

pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let api = root
        .get("apiVersion")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    let kind = root.get("kind").and_then(|v| v.as_str()).unwrap_or("");
    if api.starts_with(split::API_GROUP) {
        return split::traffic_split(ctx, facts);
    }
    if api.starts_with(API_GROUP) && kind == "ServiceProfile" {
        service_profile(root, facts);
        // A ServiceProfile is read by Linkerd's proxies only.
        facts.mesh = Some(System::Linkerd);
        return true;
    }
    // Routes are read by the Gateway API extractor, which calls
    // `route_annotations`.
    if kind == "Service" && api == "v1" && has_annotations(root) {
        let name = root
            .path(&["metadata", "name"])
            .and_then(|n| n.as_str())
            .unwrap_or("unnamed");
        let callee = root
            .path(&["metadata", "name"])
            .map(|n| Located::written(name.to_string(), n.span()));
        let target = Target {
            label: format!("Service `{name}`"),
            methods: Located::default_at(Methods::All, root.span()),
            callee,
            request_timeout: None,
        };
        annotations(root, "Service", &[target], facts);
        return true;
    }
    false
}

fn has_annotations(root: Yaml<'_>) -> bool {
    root.path(&["metadata", "annotations"])
        .map(|a| a.entries())
        .unwrap_or_default()
        .iter()
        .any(|e| e.key.starts_with("retry.linkerd.io/") || e.key.starts_with("timeout.linkerd.io/"))
}

fn service_profile(root: Yaml<'_>, facts: &mut Facts) {
    let Some(spec) = root.get("spec") else {
        return;
    };
    let name = root
        .path(&["metadata", "name"])
        .and_then(|n| n.as_str())
        .unwrap_or("unnamed")
        .to_string();
    let name_span = root
        .path(&["metadata", "name"])
        .map_or(root.span(), |n| n.span());
    let service = short_host(&name);
    facts.services.push(ServiceDecl::new(
        service.clone(),
        name_span,
        crate::model::calls::IdentityKind::MeshRoute,
        "Linkerd ServiceProfile",
        vec![name.clone()],
    ));
    crate::extract::check_yaml_keys(spec, SPEC_KEYS, "a Linkerd ServiceProfile `spec`", facts);
    let budget = budget(spec, facts);
    for (i, route) in spec
        .get("routes")
        .map(|r| r.items())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        if !route.is_map() {
            continue;
        }
        crate::extract::check_yaml_keys(
            *route,
            ROUTE_KEYS,
            "a Linkerd ServiceProfile route",
            facts,
        );
        let label = route.get("name").and_then(|n| n.as_str()).map_or_else(
            || format!("{service}/routes[{i}]"),
            |n| format!("{service} {n}"),
        );
        let anchor = route.entries().first().map_or(route.span(), |e| e.key_span);
        let timeout = match route.entry("timeout") {
            Some(t) => {
                let v = match go_duration(t.value, "timeout", facts) {
                    Some(d) if d.is_zero() => Timeout::Disabled,
                    Some(d) => Timeout::after(d),
                    None => Timeout::Unknown,
                };
                Located::written(v, t.span())
            }
            // No default since stable-2.9.0.
            None => Located::default_at(Timeout::Disabled, anchor),
        };
        facts.timeouts.push(TimeoutSetting {
            system: System::Linkerd,
            name: Some(label.clone()),
            what: "ServiceProfile route timeout".into(),
            timeout: timeout.clone(),
        });
        let retryable = route.entry("isRetryable");
        let on = match &retryable {
            Some(r) => match r.value.as_bool() {
                Some(b) => b,
                None => {
                    facts.diagnostics.push(invalid_setting::value(
                        r.value.span(),
                        "isRetryable",
                        r.value.as_str().unwrap_or(""),
                        "not `true` or `false`",
                    ));
                    false
                }
            },
            None => false,
        };
        let Some(r) = retryable.filter(|_| on) else {
            continue;
        };
        let mut p = RetryPolicy::new(
            System::Linkerd,
            r.key_span,
            Located::written(
                Attempts {
                    count: AttemptCount::Unbounded,
                    written_as: "isRetryable: true".into(),
                },
                r.span(),
            ),
        );
        p.name = Some(label.clone());
        p.scope.route = Some(label.clone());
        p.scope.callee = Some(Located::written(service.clone(), name_span));
        p.retry_on = response_classes(*route, r.span(), facts);
        p.methods = condition_methods(route.entry("condition"), anchor);
        p.overall_timeout = Some(timeout);
        // Failed responses are retried at once, to another endpoint, paced
        // only by the budget: there is no back-off to tune.
        p.delay = Located::default_at(Delay::None, r.key_span);
        p.jitter = Located::default_at(Jitter::None, r.key_span);
        p.platform_backoff = true;
        p.budget = Some(budget.clone());
        p.budget_site = BudgetSite::Policy;
        facts.policies.push(p);
    }
}

fn budget(spec: Yaml<'_>, facts: &mut Facts) -> Located<Budget> {
    let Some(b) = spec.entry("retryBudget") else {
        return Located::default_at(
            Budget::Ratio {
                ratio: DEFAULT_RETRY_RATIO,
                min_per_second: Some(DEFAULT_MIN_RETRIES_PER_SECOND),
            },
            spec.get("routes").map_or(spec.span(), |r| r.span()),
        );
    };
    crate::extract::check_yaml_keys(b.value, BUDGET_KEYS, "a Linkerd `retryBudget`", facts);
    let mut ratio = DEFAULT_RETRY_RATIO;
    let mut span = b.span();
    if let Some(r) = b.value.entry("retryRatio") {
        match r.value.as_f64() {
            Some(x) if x >= 0.0 => {
                ratio = x;
                span = r.span();
            }
            _ => facts.diagnostics.push(invalid_setting::value(
                r.value.span(),
                "retryRatio",
                r.value.as_str().unwrap_or(""),
                "a non-negative number is expected",
            )),
        }
    }
    let mut min = DEFAULT_MIN_RETRIES_PER_SECOND;
    if let Some(m) = b.value.entry("minRetriesPerSecond") {
        match m.value.as_i64() {
            Some(x) if x >= 0 => min = x as f64,
            _ => facts.diagnostics.push(invalid_setting::value(
                m.value.span(),
                "minRetriesPerSecond",
                m.value.as_str().unwrap_or(""),
                "a non-negative whole number is expected",
            )),
        }
    }
    if let Some(t) = b.value.entry("ttl") {
        go_duration(t.value, "ttl", facts);
    }
    Located::written(
        Budget::Ratio {
            ratio,
            min_per_second: Some(min),
        },
        span,
    )
}

/// The statuses a route's `responseClasses` mark as failures; 5xx when it
/// writes none.
fn response_classes(route: Yaml<'_>, anchor: Span, facts: &mut Facts) -> Located<RetryOn> {
    let Some(rc) = route.entry("responseClasses") else {
        return Located::default_at(
            RetryOn::Listed {
                conditions: vec![Located::default_at(
                    Condition::Status { from: 500, to: 599 },
                    anchor,
                )],
            },
            anchor,
        );
    };
    let mut conditions = Vec::new();
    for class in rc.value.items() {
        if class.get("isFailure").and_then(|f| f.as_bool()) != Some(true) {
            continue;
        }
        let Some(cond) = class.get("condition") else {
            continue;
        };
        response_match(cond, &mut conditions, facts, 0);
    }
    if conditions.is_empty() {
        // Every class says success: nothing is a failure, nothing retried.
        return Located::written(RetryOn::Nothing, rc.span());
    }
    Located::written(RetryOn::Listed { conditions }, rc.span())
}

fn response_match(m: Yaml<'_>, out: &mut Vec<Located<Condition>>, facts: &mut Facts, depth: usize) {
    if depth > 16 {
        return;
    }
    if let Some(s) = m.get("status") {
        let min = s.get("min").and_then(|v| v.as_i64());
        let max = s.get("max").and_then(|v| v.as_i64());
        let (from, to) = match (min, max) {
            (Some(a), Some(b)) => (a, b),
            (Some(a), None) => (a, a),
            (None, Some(b)) => (b, b),
            (None, None) => {
                facts.diagnostics.push(invalid_setting::value(
                    s.span(),
                    "status",
                    "",
                    "a status range needs `min` or `max`",
                ));
                return;
            }
        };
        if !(100..=599).contains(&from) || !(100..=599).contains(&to) || from > to {
            facts.diagnostics.push(invalid_setting::value(
                s.span(),
                "status",
                &format!("{from}-{to}"),
                "not a range of HTTP statuses (100-599, `min` <= `max`)",
            ));
            return;
        }
        out.push(Located::written(
            Condition::Status {
                from: from as u16,
                to: to as u16,
            },
            s.span(),
        ));
        return;
    }
    if let Some(any) = m.get("any") {
        for x in any.items() {
            response_match(x, out, facts, depth + 1);
        }
        return;
    }
    // `all` and `not` need more than ranges: a predicate.
    out.push(Located::written(Condition::Predicate, m.span()));
}

/// The methods a route `condition` matches: `method`, or `all`/`any` of
/// conditions with methods; anything else matches every method.
fn condition_methods(c: Option<Entry<'_>>, anchor: Span) -> Located<Methods> {
    let Some(c) = c else {
        return Located::default_at(Methods::All, anchor);
    };
    fn walk(m: Yaml<'_>, depth: usize) -> Methods {
        if depth > 16 {
            return Methods::Unknown;
        }
        if let Some(x) = m.get("method").and_then(|v| v.as_str()) {
            return Methods::Set(vec![x.to_ascii_uppercase()]);
        }
        if let Some(all) = m.get("all") {
            // Any one `method` inside `all` restricts the whole.
            for x in all.items() {
                if let Methods::Set(s) = walk(x, depth + 1) {
                    return Methods::Set(s);
                }
            }
            return Methods::All;
        }
        if let Some(any) = m.get("any") {
            let mut set = Vec::new();
            for x in any.items() {
                match walk(x, depth + 1) {
                    Methods::Set(s) => set.extend(s),
                    other => return other,
                }
            }
            return Methods::Set(set);
        }
        if m.get("not").is_some() {
            return Methods::Unknown;
        }
        Methods::All
    }
    Located::written(walk(c.value, 0), c.span())
}

/// What a set of annotations applies to: a Service, or one rule of a route.
pub struct Target {
    pub label: String,
    pub methods: Located<Methods>,
    pub callee: Option<Located<String>>,
    /// The route rule's own `timeouts.request`, which Linkerd uses when no
    /// `timeout.linkerd.io/request` annotation is set.
    pub request_timeout: Option<Located<Timeout>>,
}

/// Retry and timeout annotations of an `HTTPRoute`/`GRPCRoute`: one policy
/// per target (rule), returned as indices into `facts.policies`.
pub fn route_annotations(
    root: Yaml<'_>,
    kind: &str,
    targets: &[Target],
    facts: &mut Facts,
) -> Vec<Option<usize>> {
    if !has_annotations(root) {
        return targets.iter().map(|_| None).collect();
    }
    annotations(root, kind, targets, facts)
        .unwrap_or_else(|| targets.iter().map(|_| None).collect())
}

/// Read the annotations once and build one policy per target. `None` when
/// no retry annotation is set.
fn annotations(
    root: Yaml<'_>,
    kind: &str,
    targets: &[Target],
    facts: &mut Facts,
) -> Option<Vec<Option<usize>>> {
    let anns = root.path(&["metadata", "annotations"])?;
    let mut http = None;
    let mut grpc = None;
    let mut limit = None;
    let mut retry_timeout = None;
    let mut request = None;
    let mut first_retry: Option<Entry<'_>> = None;
    for e in anns.entries() {
        let known_retry = RETRY_ANNOTATIONS.contains(&e.key);
        let known_timeout = TIMEOUT_ANNOTATIONS.contains(&e.key);
        if (e.key.starts_with("retry.linkerd.io/") && !known_retry)
            || (e.key.starts_with("timeout.linkerd.io/") && !known_timeout)
        {
            facts.diagnostics.push(unknown_setting::unknown_key(
                e.key_span,
                e.key,
                "Linkerd's retry and timeout annotations",
                RETRY_ANNOTATIONS.iter().chain(TIMEOUT_ANNOTATIONS).copied(),
            ));
            continue;
        }
        if known_retry && first_retry.is_none() {
            first_retry = Some(e);
        }
        match e.key {
            "retry.linkerd.io/http" => {
                if kind == "GRPCRoute" {
                    facts.diagnostics.push(invalid_setting::value(
                        e.span(),
                        e.key,
                        e.value.as_str().unwrap_or(""),
                        "not valid on a GRPCRoute: use `retry.linkerd.io/grpc`",
                    ));
                } else {
                    http = Some(e);
                }
            }
            "retry.linkerd.io/grpc" => {
                if kind == "HTTPRoute" {
                    facts.diagnostics.push(invalid_setting::value(
                        e.span(),
                        e.key,
                        e.value.as_str().unwrap_or(""),
                        "not valid on an HTTPRoute: use `retry.linkerd.io/http`",
                    ));
                } else {
                    grpc = Some(e);
                }
            }
            "retry.linkerd.io/limit" => limit = Some(e),
            "retry.linkerd.io/timeout" => retry_timeout = Some(e),
            "timeout.linkerd.io/request" => request = Some(e),
            "timeout.linkerd.io/response" | "timeout.linkerd.io/idle" => {
                if let Some(d) = go_duration(e.value, e.key, facts) {
                    facts.timeouts.push(TimeoutSetting {
                        system: System::Linkerd,
                        name: targets.first().map(|t| t.label.clone()),
                        what: e.key.to_string(),
                        timeout: Located::written(timeout_of(d), e.span()),
                    });
                }
            }
            _ => {}
        }
    }
    let request = request.map(|e| {
        let t = go_duration(e.value, e.key, facts).map_or(Timeout::Unknown, timeout_of);
        Located::written(t, e.span())
    });
    let first = first_retry?;
    let attempts = match limit {
        Some(l) => {
            let count = match l.value.as_i64() {
                Some(n) if n >= 0 => AttemptCount::Finite(n as u64 + 1),
                _ => {
                    facts.diagnostics.push(invalid_setting::value(
                        l.value.span(),
                        l.key,
                        l.value.as_str().unwrap_or(""),
                        "not a non-negative whole number",
                    ));
                    AttemptCount::Unknown
                }
            };
            Located::written(
                Attempts {
                    count,
                    written_as: format!(
                        "retry.linkerd.io/limit: {}",
                        l.value.as_str().unwrap_or("")
                    ),
                },
                l.span(),
            )
        }
        // The retry annotations are written; only the count is a default.
        None => Located::written(
            Attempts {
                count: AttemptCount::Finite(2),
                written_as: "retry.linkerd.io/limit unset: Linkerd's default of 1 retry".into(),
            },
            first.key_span,
        ),
    };
    let per_try = match retry_timeout {
        Some(t) => {
            let v = go_duration(t.value, t.key, facts).map_or(Timeout::Unknown, timeout_of);
            Located::written(v, t.span())
        }
        None => Located::default_at(Timeout::Disabled, first.key_span),
    };
    let mut conditions = Vec::new();
    if let Some(h) = http {
        http_statuses(h, &mut conditions, facts);
    }
    if let Some(g) = grpc {
        grpc_codes(g, &mut conditions, facts);
    }
    // Refused streams and fail-fast errors are always retried; a response
    // that misses the retry timeout too.
    conditions.push(Located::default_at(
        Condition::Transport("refused-stream".into()),
        first.key_span,
    ));
    if let Some(t) = retry_timeout {
        conditions.push(Located::written(
            Condition::Transport("timeout".into()),
            t.span(),
        ));
    }
    let mut out = Vec::new();
    for t in targets {
        let mut p = RetryPolicy::new(System::Linkerd, first.key_span, attempts.clone());
        p.name = Some(format!("{} ({ANNOTATION_SOURCE})", t.label));
        p.scope.route = Some(t.label.clone());
        p.scope.callee = t.callee.clone();
        p.methods = t.methods.clone();
        p.retry_on = Located::written(
            RetryOn::Listed {
                conditions: conditions.clone(),
            },
            http.or(grpc).map_or(first.span(), |e| e.span()),
        );
        p.per_try_timeout = Some(per_try.clone());
        p.overall_timeout = Some(match (&request, &t.request_timeout) {
            (Some(r), _) => r.clone(),
            (None, Some(r)) => r.clone(),
            (None, None) => Located::default_at(Timeout::Disabled, first.key_span),
        });
        p.delay = Located::default_at(
            Delay::Exponential {
                base: Duration::from_millis(25),
                multiplier: 2.0,
                cap: Some(Duration::from_millis(250)),
            },
            first.key_span,
        );
        p.jitter = Located::default_at(Jitter::Full, first.key_span);
        p.platform_backoff = true;
        p.budget_site = BudgetSite::NotOffered;
        facts.policies.push(p);
        out.push(Some(facts.policies.len() - 1));
    }
    Some(out)
}

fn timeout_of(d: Duration) -> Timeout {
    if d.is_zero() {
        Timeout::Disabled
    } else {
        Timeout::after(d)
    }
}

/// `504`, `500-504`, `gateway-error`, `5xx`, comma separated.
fn http_statuses(e: Entry<'_>, out: &mut Vec<Located<Condition>>, facts: &mut Facts) {
    let text = e.value.as_str().unwrap_or("");
    for part in text.split(',') {
        let t = part.trim();
        if t.is_empty() {
            continue;
        }
        let cond = match t {
            "5xx" => Some(Condition::Status { from: 500, to: 599 }),
            "gateway-error" => Some(Condition::Status { from: 502, to: 504 }),
            _ => {
                let (a, b) = t.split_once('-').unwrap_or((t, t));
                match (a.trim().parse::<u16>(), b.trim().parse::<u16>()) {
                    (Ok(a), Ok(b))
                        if (100..=599).contains(&a) && (100..=599).contains(&b) && a <= b =>
                    {
                        Some(Condition::Status { from: a, to: b })
                    }
                    _ => None,
                }
            }
        };
        match cond {
            Some(c) => out.push(Located::written(c, e.value.span())),
            None => facts.diagnostics.push(invalid_setting::unknown_token(
                e.value.span(),
                e.key,
                t,
                ["5xx", "gateway-error"],
            )),
        }
    }
}

fn grpc_codes(e: Entry<'_>, out: &mut Vec<Located<Condition>>, facts: &mut Facts) {
    let text = e.value.as_str().unwrap_or("");
    for part in text.split(',') {
        let t = part.trim();
        if t.is_empty() {
            continue;
        }
        if GRPC_CODES.contains(&t) {
            out.push(Located::written(
                Condition::Grpc(t.replace('-', "_").to_ascii_uppercase()),
                e.value.span(),
            ));
        } else {
            facts.diagnostics.push(invalid_setting::unknown_token(
                e.value.span(),
                e.key,
                t,
                GRPC_CODES.iter().copied(),
            ));
        }
    }
}

/// Linkerd ignores retry annotations for a Service that has a
/// ServiceProfile: when both are in this file, the annotation policies
/// retry nothing, and that is reported.
pub fn apply_service_profiles(facts: &mut Facts) {
    let profiled: Vec<String> = facts
        .services
        .iter()
        .filter(|s| s.source == "Linkerd ServiceProfile")
        .map(|s| s.name.clone())
        .collect();
    if profiled.is_empty() {
        return;
    }
    let mut reported: Vec<Span> = Vec::new();
    for p in &mut facts.policies {
        let annotated = p.system == System::Linkerd
            && p.name
                .as_deref()
                .is_some_and(|n| n.ends_with(&format!("({ANNOTATION_SOURCE})")));
        let Some(callee) = p.scope.callee.as_ref().map(|c| short_host(&c.value)) else {
            continue;
        };
        if !annotated || !profiled.contains(&callee) {
            continue;
        }
        if !reported.contains(&p.span) {
            reported.push(p.span);
            facts.diagnostics.push(invalid_setting::inert(
                p.span,
                "these `retry.linkerd.io` annotations",
                &format!("a ServiceProfile for `{callee}` exists, and Linkerd then uses its retry settings and ignores the annotations"),
                "configure retries in one place: the ServiceProfile's `isRetryable` routes, or delete the ServiceProfile and keep the annotations",
            ));
        }
        p.retry_on = Located::written(RetryOn::Nothing, p.span);
    }
}

mod split;

#[cfg(test)]
mod tests;
