//! Gateway API `HTTPRoute` and `GRPCRoute` (`gateway.networking.k8s.io`
//! `v1`, `v1beta1`, `v1alpha2`): per rule, `timeouts` (standard), `retry`
//! (experimental, GEP-1731), method matches and `backendRefs` as call
//! edges; Linkerd's retry annotations on the same route are read by
//! [`crate::systems::linkerd::extract::route_annotations`].
//!
//! Defaults (kubernetes-sigs/gateway-api `apis/v1/httproute_types.go`,
//! GEP-1742, GEP-1731, GEP-2257): none. When `attempts`, `backoff` or a
//! timeout is not written, what happens is implementation-specific, and the
//! model says so (unknown) rather than guess. `retry.attempts` counts
//! retries; `codes` are 400-599; implementations SHOULD also retry
//! connection errors when a `retry` block is present; `backendRequest` must
//! not exceed `request` unless `request` is `0s` (no timeout); durations are
//! GEP-2257 (`1h`, `30s`, `500ms`, up to four parts of up to five digits).

use crate::diag::invalid_setting;
use crate::extract::{DocCtx, Facts, check_yaml_keys, short_host};
use crate::model::*;
use crate::source::Span;
use crate::systems::linkerd::extract::{self as linkerd, Target};
use crate::yaml::{Entry, Yaml};
use std::time::Duration;

pub const API_GROUP: &str = "gateway.networking.k8s.io/";

const HTTP_RULE_KEYS: &[&str] = &[
    "name",
    "matches",
    "filters",
    "backendRefs",
    "timeouts",
    "retry",
    "sessionPersistence",
];
const GRPC_RULE_KEYS: &[&str] = &[
    "name",
    "matches",
    "filters",
    "backendRefs",
    "sessionPersistence",
];
const TIMEOUT_KEYS: &[&str] = &["request", "backendRequest"];
const RETRY_KEYS: &[&str] = &["codes", "attempts", "backoff"];

pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let api = root
        .get("apiVersion")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    // Linkerd's own `policy.linkerd.io` HTTPRoute has the same shape.
    if !api.starts_with(API_GROUP) && !api.starts_with("policy.linkerd.io/") {
        return false;
    }
    let kind = root.get("kind").and_then(|v| v.as_str()).unwrap_or("");
    let grpc = match kind {
        "HTTPRoute" => false,
        "GRPCRoute" => true,
        "Gateway" => {
            gateway(root, facts);
            return true;
        }
        "GatewayClass" => {
            if let (Some(name), Some(controller)) = (
                root.path(&["metadata", "name"]).and_then(|n| n.as_str()),
                root.path(&["spec", "controllerName"]),
            ) && let Some(c) = controller.as_str()
            {
                facts
                    .gateway_classes
                    .push(crate::model::calls::GatewayClassDecl {
                        name: name.to_string(),
                        controller: c.to_string(),
                        span: controller.span(),
                    });
            }
            return true;
        }
        // ReferenceGrants ... carry no retry settings.
        _ => return true,
    };
    let name = root
        .path(&["metadata", "name"])
        .and_then(|n| n.as_str())
        .unwrap_or("unnamed")
        .to_string();
    let Some(spec) = root.get("spec") else {
        return true;
    };
    // A Gateway parent: the gateway calls the backends. A Service parent
    // (GAMMA, mesh): callers of that Service do.
    let parents = spec
        .get("parentRefs")
        .map(|p| p.items())
        .unwrap_or_default();
    let service_parent = parents
        .iter()
        .find(|p| p.get("kind").and_then(|k| k.as_str()) == Some("Service"))
        .and_then(|p| p.get("name"))
        .and_then(|n| {
            n.as_str()
                .map(|s| Located::written(s.to_string(), n.span()))
        });
    let gateway = parents
        .iter()
        .find(|p| {
            p.get("kind")
                .and_then(|k| k.as_str())
                .is_none_or(|k| k == "Gateway")
        })
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .map(str::to_string);
    let rules = spec.get("rules").map(|r| r.items()).unwrap_or_default();
    struct RuleFacts {
        targets: Vec<(String, Span)>,
        gateway_policy: Option<usize>,
    }
    let mut targets = Vec::new();
    let mut per_rule = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        if !rule.is_map() {
            continue;
        }
        let keys = if grpc { GRPC_RULE_KEYS } else { HTTP_RULE_KEYS };
        check_yaml_keys(*rule, keys, &format!("a Gateway API {kind} rule"), facts);
        let label = match rule.get("name").and_then(|n| n.as_str()) {
            Some(n) => format!("{name}/{n}"),
            None => format!("{name}/rules[{i}]"),
        };
        let anchor = rule.entries().first().map_or(rule.span(), |e| e.key_span);
        let methods = methods(*rule, grpc, anchor);
        let backends: Vec<(String, Span)> = rule
            .get("backendRefs")
            .map(|b| b.items())
            .unwrap_or_default()
            .iter()
            .filter(|b| {
                b.get("kind")
                    .and_then(|k| k.as_str())
                    .is_none_or(|k| k == "Service")
            })
            .filter_map(|b| b.get("name"))
            .filter_map(|n| n.as_str().map(|s| (s.to_string(), n.span())))
            .collect();
        let callee = service_parent.clone().or_else(|| {
            backends
                .first()
                .map(|(b, s)| Located::written(short_host(b), *s))
        });
        let (request, backend_request) = match rule.entry("timeouts") {
            Some(t) => timeouts(t, facts),
            None => (None, None),
        };
        if let Some(r) = &request {
            facts.timeouts.push(TimeoutSetting {
                system: System::GatewayApi,
                name: Some(label.clone()),
                what: "timeouts.request".into(),
                timeout: r.clone(),
            });
        }
        let gateway_policy = rule.entry("retry").and_then(|r| {
            let mut p = retry(r, facts)?;
            p.name = Some(label.clone());
            p.scope.route = Some(label.clone());
            p.scope.caller = gateway.clone().filter(|_| service_parent.is_none());
            p.scope.callee = callee.clone();
            p.methods = methods.clone();
            p.overall_timeout = Some(
                request
                    .clone()
                    .unwrap_or_else(|| Located::default_at(Timeout::Unknown, r.key_span)),
            );
            p.per_try_timeout = Some(
                backend_request
                    .clone()
                    .unwrap_or_else(|| Located::default_at(Timeout::Unknown, r.key_span)),
            );
            facts.policies.push(p);
            Some(facts.policies.len() - 1)
        });
        targets.push(Target {
            label: label.clone(),
            methods,
            callee,
            request_timeout: request,
        });
        per_rule.push(RuleFacts {
            targets: backends,
            gateway_policy,
        });
    }
    let linkerd = linkerd::route_annotations(root, kind, &targets, facts);
    // A Gateway parent calls the backends. A Service parent (GAMMA) routes
    // every caller of that Service, which the graph finds by the policies'
    // callee, so there is no edge to draw here.
    let caller = gateway.clone().filter(|_| service_parent.is_none());
    if caller.is_none() {
        return true;
    }
    // `hostnames`: a call by one of these names reaches the gateway, and
    // through it this route's backends only (as an Ingress rule's host).
    // A wildcard (`*.example.com`) names no one host.
    let hostnames: Vec<String> = spec
        .get("hostnames")
        .map(|h| h.items())
        .unwrap_or_default()
        .iter()
        .filter_map(|h| h.as_str())
        .filter(|h| !h.contains('*'))
        .map(str::to_string)
        .take(64)
        .collect();
    for (rule, l) in per_rule.iter().zip(linkerd) {
        let policies: Vec<usize> = rule.gateway_policy.into_iter().chain(l).collect();
        for (b, span) in &rule.targets {
            if !hostnames.is_empty() {
                facts.route_paths.push(crate::model::facts::RoutePaths {
                    span: *span,
                    paths: Vec::new(),
                    hosts: hostnames.clone(),
                });
            }
            facts.edges.push(CallEdge {
                client: None,
                caller: caller.clone(),
                callee: short_host(b),
                span: *span,
                policies: policies.clone(),
                via: format!("Gateway API {kind} `{name}`"),
                protocol: None,
            });
        }
    }
    true
}

/// A `Gateway` is the proxy that calls its routes' backends: a workload.
/// Of the class `istio`, Istio runs it and applies its default retry
/// policy to every route that writes none (Istio translates each HTTPRoute
/// rule into a route with its mesh default,
/// istio.io/latest/docs/tasks/traffic-management/ingress/gateway-api/).
fn gateway(root: Yaml<'_>, facts: &mut Facts) {
    use crate::model::calls::{IdentityKind, MeshHint};
    let Some(meta_name) = root.path(&["metadata", "name"]) else {
        return;
    };
    let Some(name) = meta_name.as_str() else {
        return;
    };
    let mut decl = ServiceDecl::new(
        name,
        meta_name.span(),
        IdentityKind::Workload,
        "Gateway API Gateway",
        Vec::new(),
    );
    if let Some(class) = root.path(&["spec", "gatewayClassName"])
        && let Some(c) = class.as_str()
    {
        // The class Istio installs itself; a class of another name is
        // joined to its `GatewayClass` by the link step.
        if c == "istio" {
            decl.placement.mesh.push(MeshHint {
                mesh: System::Istio,
                on: true,
                span: class.span(),
            });
        } else {
            decl.placement.gateway_class = Some((c.to_string(), class.span()));
        }
    }
    decl.placement.namespace = root
        .path(&["metadata", "namespace"])
        .and_then(|n| n.as_str())
        .map(str::to_string);
    facts.services.push(decl);
}

/// GEP-2257 durations: up to four `<1-5 digits><h|m|s|ms>` parts.
pub fn gep_duration(v: Yaml<'_>, key: &str, facts: &mut Facts) -> Option<Duration> {
    let text = v.as_str().unwrap_or("").trim();
    if !is_gep_duration(text) {
        let why = match crate::duration::parse_go(text) {
            Ok(_) => {
                "Gateway API durations are whole numbers with `h`, `m`, `s` or `ms` (GEP-2257), such as `1m30s` or `500ms`"
            }
            Err(_) => "not a Gateway API duration such as `10s` or `500ms` (GEP-2257)",
        };
        facts
            .diagnostics
            .push(invalid_setting::value(v.span(), key, text, why));
        return None;
    }
    crate::duration::parse_go(text).ok()
}

use crate::duration::is_gep2257 as is_gep_duration;

fn timeout_of(d: Option<Duration>) -> Timeout {
    match d {
        Some(d) if d.is_zero() => Timeout::Disabled,
        Some(d) => Timeout::after(d),
        None => Timeout::Unknown,
    }
}

type Timeouts = (Option<Located<Timeout>>, Option<Located<Timeout>>);

fn timeouts(t: Entry<'_>, facts: &mut Facts) -> Timeouts {
    if !t.value.is_map() {
        return (None, None);
    }
    check_yaml_keys(
        t.value,
        TIMEOUT_KEYS,
        "a Gateway API `timeouts` block",
        facts,
    );
    let request = t.value.entry("request").map(|e| {
        Located::written(
            timeout_of(gep_duration(e.value, "request", facts)),
            e.span(),
        )
    });
    let backend = t.value.entry("backendRequest").map(|e| {
        Located::written(
            timeout_of(gep_duration(e.value, "backendRequest", facts)),
            e.span(),
        )
    });
    if let (Some(r), Some(b)) = (&request, &backend)
        && let (Timeout::Finite { after: r_after }, Timeout::Finite { after: b_after }) =
            (r.value, b.value)
        && b_after > r_after
    {
        facts.diagnostics.push(
            invalid_setting::value(
                b.span,
                "backendRequest",
                &crate::duration::human(b_after),
                &format!(
                    "longer than `request` (`{}`), which covers it; the API server rejects the route",
                    crate::duration::human(r_after)
                ),
            )
            .with_related(r.span, "the request timeout"),
        );
    }
    (request, backend)
}

/// The `retry` block: `None` when it is not a mapping.
fn retry(r: Entry<'_>, facts: &mut Facts) -> Option<RetryPolicy> {
    if !r.value.is_map() {
        return None;
    }
    check_yaml_keys(r.value, RETRY_KEYS, "a Gateway API `retry` block", facts);
    let attempts = match r.value.entry("attempts") {
        Some(a) => match a.value.as_i64() {
            Some(n) if n >= 0 => Located::written(
                Attempts {
                    count: AttemptCount::Finite(n as u64 + 1),
                    written_as: format!("attempts: {n}"),
                },
                a.span(),
            ),
            _ => {
                facts.diagnostics.push(invalid_setting::value(
                    a.value.span(),
                    "attempts",
                    a.value.as_str().unwrap_or(""),
                    "not a non-negative whole number",
                ));
                return None;
            }
        },
        None => Located::written(
            Attempts {
                count: AttemptCount::Unknown,
                written_as: "attempts unset: the number of retries is implementation-specific"
                    .into(),
            },
            r.key_span,
        ),
    };
    let mut p = RetryPolicy::new(System::GatewayApi, r.key_span, attempts);
    // Implementations SHOULD retry connection errors whenever a retry
    // block is present.
    let mut conditions: Vec<Located<Condition>> = ["connect-failure", "reset", "timeout"]
        .iter()
        .map(|t| Located::default_at(Condition::Transport(t.to_string()), r.key_span))
        .collect();
    if let Some(codes) = r.value.entry("codes") {
        for c in codes.value.items() {
            match c.as_i64() {
                Some(n) if (400..=599).contains(&n) => {
                    conditions.push(Located::written(Condition::status(n as u16), c.span()))
                }
                _ => facts.diagnostics.push(invalid_setting::value(
                    c.span(),
                    "codes",
                    c.as_str().unwrap_or(""),
                    "retry codes must be HTTP statuses from 400 to 599",
                )),
            }
        }
    }
    p.retry_on = Located::written(RetryOn::Listed { conditions }, r.span());
    p.delay = match r.value.entry("backoff") {
        Some(b) => match gep_duration(b.value, "backoff", facts) {
            // The minimum wait; implementations may grow it.
            Some(d) => Located::written(Delay::Fixed { delay: d }, b.span()),
            None => Located::written(Delay::Unknown, b.span()),
        },
        None => Located::default_at(Delay::Unknown, r.key_span),
    };
    // Whether the wait is randomised is the implementation's choice.
    p.jitter = Located::default_at(Jitter::Unknown, r.key_span);
    p.budget_site = BudgetSite::NotOffered;
    Some(p)
}

/// The methods a rule matches: HTTP `matches[].method`; for a GRPCRoute the
/// RPCs (`service/method`) when every match names one exactly, as RPC names
/// say more about idempotency than gRPC's single HTTP method.
fn methods(rule: Yaml<'_>, grpc: bool, anchor: Span) -> Located<Methods> {
    let Some(m) = rule.entry("matches") else {
        return Located::default_at(Methods::All, anchor);
    };
    let mut set = Vec::new();
    for x in m.value.items() {
        let name = if grpc {
            x.get("method").and_then(|g| {
                let exact = g
                    .get("type")
                    .and_then(|t| t.as_str())
                    .is_none_or(|t| t == "Exact");
                let service = g.get("service").and_then(|v| v.as_str());
                let method = g.get("method").and_then(|v| v.as_str());
                match (exact, service, method) {
                    (true, Some(s), Some(m)) => Some(format!("{s}/{m}")),
                    _ => None,
                }
            })
        } else {
            x.get("method")
                .and_then(|v| v.as_str())
                .map(|v| v.to_ascii_uppercase())
        };
        match name {
            Some(n) => set.push(n),
            None => return Located::written(Methods::All, m.span()),
        }
    }
    if set.is_empty() {
        Located::written(Methods::All, m.span())
    } else {
        Located::written(Methods::Set(set), m.span())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Syntax;
    use crate::systems::extract as run;
    use std::path::Path;

    fn facts(text: &str) -> Facts {
        run(Path::new("route.yaml"), text, Syntax::Yaml)
    }

    const ROUTE: &str = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: store}\nspec:\n  parentRefs: [{name: public}]\n  rules:\n  - matches:\n    - method: POST\n      path: {value: /orders}\n    backendRefs:\n    - {name: orders, port: 8080}\n    timeouts:\n      request: 10s\n      backendRequest: 3s\n    retry:\n      codes: [500, 502, 503]\n      attempts: 3\n      backoff: 100ms\n";

    #[test]
    fn rules_become_policies_and_edges() {
        let f = facts(ROUTE);
        assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
        let p = &f.policies[0];
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
        assert_eq!(p.methods.value, Methods::Set(vec!["POST".into()]));
        assert_eq!(
            p.per_try_timeout.as_ref().unwrap().value,
            Timeout::after(Duration::from_secs(3))
        );
        assert_eq!(
            p.overall_timeout.as_ref().unwrap().value,
            Timeout::after(Duration::from_secs(10))
        );
        assert_eq!(p.scope.caller.as_deref(), Some("public"));
        assert_eq!(f.edges.len(), 1);
        assert_eq!(f.edges[0].callee, "orders");
        assert_eq!(f.edges[0].policies, vec![0]);
    }

    #[test]
    fn defaults_are_implementation_specific() {
        let f = facts(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: s}\nspec:\n  rules:\n  - retry: {codes: [503]}\n    backendRefs: [{name: a}]\n",
        );
        let p = &f.policies[0];
        assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
        assert!(
            p.attempts
                .value
                .written_as
                .contains("implementation-specific")
        );
        assert_eq!(p.delay.value, Delay::Unknown);
        assert_eq!(p.overall_timeout.as_ref().unwrap().value, Timeout::Unknown);
    }

    #[test]
    fn invalid_values() {
        let f = facts(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: s}\nspec:\n  rules:\n  - timeouts: {request: 2s, backendRequest: 5s}\n    retry: {codes: [302, 503], attempts: 2, backoff: 1.5s}\n    retries: {}\n",
        );
        let mut codes: Vec<&str> = f.diagnostics.iter().map(|d| d.code.as_str()).collect();
        codes.sort();
        assert_eq!(
            codes,
            ["RL901", "RL902", "RL902", "RL902"],
            "{:?}",
            f.diagnostics
        );
        // `request: 0s` means no timeout: any backendRequest is fine.
        let f = facts(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: s}\nspec:\n  rules:\n  - timeouts: {request: 0s, backendRequest: 5s}\n",
        );
        assert!(f.diagnostics.is_empty());
    }

    #[test]
    fn grpc_routes_name_their_rpcs() {
        let f = facts(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: GRPCRoute\nmetadata: {name: g}\nspec:\n  parentRefs: [{name: gw}]\n  rules:\n  - matches:\n    - method: {service: a.B, method: Get}\n    backendRefs: [{name: b, port: 9000}]\n",
        );
        assert!(f.policies.is_empty());
        assert_eq!(f.edges[0].callee, "b");
        let f = facts(
            "apiVersion: gateway.networking.k8s.io/v1\nkind: GRPCRoute\nmetadata:\n  name: g\n  annotations: {retry.linkerd.io/grpc: unavailable}\nspec:\n  parentRefs: [{name: b, kind: Service, group: core}]\n  rules:\n  - matches:\n    - method: {service: shop.Orders, method: PlaceOrder}\n    backendRefs: [{name: b, port: 9000}]\n",
        );
        assert_eq!(
            f.policies[0].methods.value,
            Methods::Set(vec!["shop.Orders/PlaceOrder".into()])
        );
    }

    #[test]
    fn linkerd_policy_httproute_is_read_with_its_annotations() {
        let f = facts(
            "apiVersion: policy.linkerd.io/v1beta3\nkind: HTTPRoute\nmetadata:\n  name: books\n  annotations:\n    retry.linkerd.io/http: 5xx\nspec:\n  parentRefs: [{name: books, kind: Service, group: core}]\n  rules:\n  - timeouts: {request: 3s}\n    backendRefs: [{name: books, port: 7002}]\n",
        );
        assert_eq!(f.policies.len(), 1);
        assert_eq!(f.policies[0].system, System::Linkerd);
        assert_eq!(
            f.policies[0].overall_timeout.as_ref().unwrap().value,
            Timeout::after(Duration::from_secs(3))
        );
    }

    #[test]
    fn gep_durations() {
        assert!(is_gep_duration("1h30m"));
        assert!(is_gep_duration("500ms"));
        assert!(!is_gep_duration("1.5s"));
        assert!(!is_gep_duration("123456s"));
        assert!(!is_gep_duration(""));
        assert!(!is_gep_duration("1s1s1s1s1s"));
    }
}
