//! Istio `VirtualService` (`networking.istio.io/v1`, `v1beta1`,
//! `v1alpha3`): per HTTP route, the retry policy the sidecar applies,
//! Istio's defaults included.
//!
//! Defaults ([`crate::systems::istio`], from istio/istio
//! `pilot/pkg/networking/core/route/retry/retry.go`):
//! a route with no `retries` block still retries 2 times (3 attempts) on
//! `connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes`
//! with an empty status list (since 1.24), with Envoy's jittered 25 ms
//! back-off; `attempts <= 0` disables retries; `attempts` counts retries;
//! the route `timeout` is off unless set; `perTryTimeout` defaults to the
//! route timeout.

use crate::diag::invalid_setting;
use crate::extract::{DocCtx, Facts, check_yaml_keys, go_duration};
use crate::model::*;
use crate::source::Span;
use crate::systems::istio;
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
pub const RETRY_ON_TOKENS: &[&str] = crate::systems::envoy::extract::RETRY_ON_TOKENS;

/// Read one document; a file with an Istio resource declares the mesh.
pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let ours = read_document(ctx, facts);
    if ours {
        facts.mesh = Some(System::Istio);
    }
    ours
}

fn read_document(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let api = root
        .get("apiVersion")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    if !api.starts_with(API_GROUP) {
        return mesh_config(ctx, root, facts);
    }
    match root.get("kind").and_then(|v| v.as_str()) {
        Some("VirtualService") => {}
        Some("DestinationRule") => {
            destination_rule(root, facts);
            return true;
        }
        Some("ServiceEntry") => return super::service_entry::read(root, facts),
        // Other kinds (Sidecar, Gateway ...): recognised, no retry settings.
        _ => return true,
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
    // A glob (`*`, `*.example.com`) names no one service.
    let named: Vec<&(String, Span)> = hosts.iter().filter(|(h, _)| !h.contains('*')).collect();
    if let Some((first, span)) = named.first() {
        facts.services.push(ServiceDecl::new(
            crate::extract::short_host(first),
            *span,
            crate::model::calls::IdentityKind::MeshRoute,
            "VirtualService hosts",
            named.iter().map(|(h, _)| h.clone()).collect(),
        ));
    }
    // Bound to gateways only (no `mesh` among them): the gateway proxies
    // retry, not the callers' sidecars.
    let gateways: Vec<String> = spec
        .get("gateways")
        .map(|g| g.items())
        .unwrap_or_default()
        .iter()
        .filter_map(|g| g.as_str().map(str::to_string))
        .collect();
    let caller = (!gateways.is_empty() && !gateways.iter().any(|g| g == "mesh")).then(|| {
        let g = &gateways[0];
        g.rsplit_once('/')
            .map_or(g.as_str(), |(_, n)| n)
            .to_string()
    });
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
        let index = route_policy(*route, &label, &hosts, facts).map(|mut policy| {
            policy.scope.caller = caller.clone();
            if let Some(g) = &caller {
                policy.scope.route = Some(format!("{label} (at gateway `{g}`)"));
            }
            facts.policies.push(policy);
            facts.policies.len() - 1
        });
        // A route bound to gateways is a call from the gateway; a mesh
        // route applies to every caller of the host, which the graph finds
        // by the policy's callee.
        let dests = match &caller {
            Some(_) => route.get("route").map(|r| r.items()).unwrap_or_default(),
            None => Vec::new(),
        };
        for dest in dests {
            if let Some(h) = dest.path(&["destination", "host"])
                && let Some(host) = h.as_str()
            {
                facts.edges.push(CallEdge {
                    client: None,
                    caller: caller.clone(),
                    callee: crate::extract::short_host(host),
                    span: h.span(),
                    policies: index.into_iter().collect(),
                    via: format!("Istio VirtualService route `{label}`"),
                    // An `http` route carries HTTP/1.1, HTTP/2 and gRPC
                    // (Istio's `HTTPRoute`: "HTTP/1.1, HTTP2, and gRPC
                    // traffic"); the graph takes gRPC where the callee's
                    // Service says so (`graph::build`).
                    protocol: Some(crate::model::calls::Protocol::Http),
                });
            }
        }
    }
    true
}

const OUTLIER_KEYS: &[&str] = &[
    "consecutiveErrors",
    "splitExternalLocalOriginErrors",
    "consecutiveLocalOriginFailures",
    "consecutiveGatewayErrors",
    "consecutive5xxErrors",
    "interval",
    "baseEjectionTime",
    "maxEjectionPercent",
    "minHealthPercent",
];

/// A `DestinationRule`: the host it names is a service identity; its
/// traffic policies (top level, per subset, per port) hold outlier
/// detection and connection-pool timeouts.
fn destination_rule(root: Yaml<'_>, facts: &mut Facts) {
    let Some(spec) = root.get("spec") else {
        return;
    };
    let host = spec
        .get("host")
        .and_then(|h| h.as_str())
        .map(crate::extract::short_host);
    if let Some(h) = spec.get("host")
        && let Some(host) = h.as_str()
    {
        facts.services.push(ServiceDecl::new(
            crate::extract::short_host(host),
            h.span(),
            crate::model::calls::IdentityKind::MeshRoute,
            "DestinationRule host",
            vec![host.to_string()],
        ));
    }
    let name = root
        .path(&["metadata", "name"])
        .and_then(|v| v.as_str())
        .unwrap_or("unnamed")
        .to_string();
    let mut policies: Vec<Yaml<'_>> = Vec::new();
    policies.extend(spec.get("trafficPolicy"));
    for subset in spec.get("subsets").map(|s| s.items()).unwrap_or_default() {
        policies.extend(subset.get("trafficPolicy"));
    }
    let mut ports = Vec::new();
    for tp in &policies {
        ports.extend(
            tp.get("portLevelSettings")
                .map(|p| p.items())
                .unwrap_or_default(),
        );
    }
    for tp in policies.iter().chain(ports.iter()) {
        if !tp.is_map() {
            continue;
        }
        if let Some(host) = &host {
            protections(*tp, host, facts);
        }
        if let Some(od) = tp.get("outlierDetection")
            && od.is_map()
        {
            for e in od.entries() {
                if e.key == "consecutiveErrors" {
                    facts
                        .diagnostics
                        .push(crate::diag::unknown_setting::deprecated(
                            e.key_span,
                            e.key,
                            "`consecutive5xxErrors` (every 5xx) or `consecutiveGatewayErrors` (502-504 only)",
                        ));
                } else if !OUTLIER_KEYS.contains(&e.key) {
                    facts
                        .diagnostics
                        .push(crate::diag::unknown_setting::unknown_key(
                            e.key_span,
                            e.key,
                            "an Istio `outlierDetection` block",
                            OUTLIER_KEYS.iter().copied(),
                        ));
                }
                if matches!(e.key, "interval" | "baseEjectionTime") {
                    go_duration(e.value, e.key, facts);
                }
            }
        }
        if let Some(ct) = tp.path(&["connectionPool", "tcp", "connectTimeout"])
            && let Some(d) = go_duration(ct, "connectTimeout", facts)
        {
            facts.timeouts.push(TimeoutSetting {
                system: System::Istio,
                name: Some(name.clone()),
                what: "connectTimeout".into(),
                timeout: Located::written(Timeout::after(d), ct.span()),
            });
        }
    }
}

/// What in a traffic policy limits the sidecars' retries to the host
/// (RL603): a retry circuit breaker (`connectionPool.http.maxRetries`,
/// carried with its number: one at [`istio::UNLIMITED_MAX_RETRIES`], or as
/// high as the requests themselves, limits nothing, which RL603 judges) or
/// outlier ejection.
fn protections(tp: Yaml<'_>, host: &str, facts: &mut Facts) {
    let mut add = |what: String, span: Span, max_retries: Option<u64>| {
        facts.protections.push(Protection {
            system: System::Istio,
            host: host.to_string(),
            what,
            span,
            max_retries,
        });
    };
    if let Some(m) = tp.path(&["connectionPool", "http", "maxRetries"])
        && let Some(n) = m.as_i64().and_then(|v| u64::try_from(v).ok())
    {
        // Istio writes only a value above 0 to Envoy: `maxRetries: 0` is
        // taken as not set, and the cluster keeps Istio's unlimited default
        // (istio/istio `pilot/pkg/networking/core/cluster_traffic_policy.go`,
        // `applyConnectionPool`: `if settings.Http.MaxRetries > 0`, with
        // "FIXME: zero is a valid value if explicitly set", 1.2x-1.30).
        let (n, note) = if n == 0 {
            (istio::UNLIMITED_MAX_RETRIES, " (not set, for Istio)")
        } else {
            (n, "")
        };
        add(
            format!(
                "connectionPool.http.maxRetries: {}{note}",
                m.as_i64().unwrap_or(0)
            ),
            m.span(),
            Some(n),
        );
    }
    if let Some(od) = tp.get("outlierDetection")
        && od.is_map()
    {
        add("outlierDetection".into(), od.span(), None);
    }
}

/// Istio's mesh config (`defaultHttpRetryPolicy`) in an `istio` ConfigMap's
/// `mesh` text, an IstioOperator's `spec.meshConfig`, Helm values'
/// `meshConfig`, or a bare mesh config file. Claims the document when it
/// finds the setting.
fn mesh_config(ctx: &DocCtx<'_>, root: Yaml<'_>, facts: &mut Facts) -> bool {
    let kind = root.get("kind").and_then(|k| k.as_str());
    if kind == Some("ConfigMap") {
        let Some(mesh) = root.path(&["data", "mesh"]) else {
            return false;
        };
        let Some(text) = mesh.as_str() else {
            return false;
        };
        if !text.contains("defaultHttpRetryPolicy") {
            return false;
        }
        let inner = crate::yaml::parse(text);
        let Some(doc) = inner.documents.first() else {
            return false;
        };
        let Some(e) = inner.root(doc).entry("defaultHttpRetryPolicy") else {
            return false;
        };
        let mut local = Facts::default();
        let policy = mesh_default(e, &mut local);
        let map = |s: Span| crate::extract::embedded_span(ctx.text, mesh.span(), text, s);
        crate::extract::remap_facts(&mut local, &map);
        facts.diagnostics.append(&mut local.diagnostics);
        if let Some(mut p) = policy {
            crate::extract::remap_policy(&mut p, &map);
            push_mesh_default(p, facts);
        }
        return true;
    }
    let e = if kind == Some("IstioOperator") {
        root.get("spec")
            .and_then(|s| s.get("meshConfig"))
            .and_then(|m| m.entry("defaultHttpRetryPolicy"))
    } else if root.get("kind").is_none() {
        root.get("meshConfig")
            .and_then(|m| m.entry("defaultHttpRetryPolicy"))
            .or_else(|| root.entry("defaultHttpRetryPolicy"))
    } else {
        None
    };
    let Some(e) = e else {
        // Istio's default before 1.24 (503 retried), where the install says so.
        return super::compat::read(root, facts);
    };
    if let Some(p) = mesh_default(e, facts) {
        push_mesh_default(p, facts);
    }
    true
}

/// Record a mesh-wide default, and check it once as a policy of its own
/// (with no callee, so that no call path counts it), where it is written.
fn push_mesh_default(p: RetryPolicy, facts: &mut Facts) {
    facts.policies.push(p.clone());
    facts.mesh_defaults.push(p);
}

/// The mesh-wide default: an `HTTPRetry` without `perTryTimeout` (Istio
/// ignores it there); `attempts: 0` turns the default retries off.
fn mesh_default(e: crate::yaml::Entry<'_>, facts: &mut Facts) -> Option<RetryPolicy> {
    if !e.value.is_map() {
        return None;
    }
    let Ok(mut p) = retries_block(e, facts) else {
        return None;
    };
    if let Some(t) = e.value.entry("perTryTimeout") {
        facts.diagnostics.push(crate::diag::invalid_setting::value(
            t.span(),
            "perTryTimeout",
            t.value.as_str().unwrap_or(""),
            "Istio ignores `perTryTimeout` in `defaultHttpRetryPolicy`; set it on each VirtualService route",
        ));
        p.per_try_timeout = None;
    }
    p.name = Some("meshConfig.defaultHttpRetryPolicy".into());
    if !p.delay.is_written() {
        envoy_backoff(&mut p, e.key_span);
    } else {
        p.jitter = Located::default_at(Jitter::Full, p.delay.span);
        p.platform_backoff = true;
    }
    Some(p)
}

/// Apply this file's mesh-wide default to its routes that write no
/// `retries`: the default replaces Istio's built-in 2 retries wholesale.
pub fn apply_mesh_defaults(facts: &mut Facts) {
    let Some(mesh) = facts
        .mesh_defaults
        .iter()
        .find(|p| p.system == System::Istio)
        .cloned()
    else {
        return;
    };
    for p in &mut facts.policies {
        if p.system != System::Istio || !p.attempts.is_default() {
            continue;
        }
        p.attempts = Located::inherited(mesh.attempts.value.clone(), mesh.attempts.span);
        p.retry_on = Located::inherited(mesh.retry_on.value.clone(), mesh.retry_on.span);
        p.delay = Located::inherited(mesh.delay.value.clone(), mesh.delay.span);
        p.jitter = Located::inherited(mesh.jitter.value.clone(), mesh.jitter.span);
        p.span = mesh.span;
    }
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
                    .push(crate::diag::unknown_setting::misplaced(
                        e.key_span,
                        e.key,
                        "an Istio route destination",
                        "destination",
                    ));
            } else {
                facts
                    .diagnostics
                    .push(crate::diag::unknown_setting::unknown_key(
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
        Some(r) => match retries_block(r, facts) {
            Ok(p) => p,
            // An invalid block is rejected by Istio's validation.
            Err(()) => return None,
        },
    };
    let mut policy = policy;
    policy.name = Some(label.to_string());
    policy.scope.route = Some(label.to_string());
    policy.scope.callee = hosts
        .first()
        .map(|(h, s)| Located::written(crate::extract::short_host(h), *s));
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

/// An Istio `retries` block (`HTTPRetry`), `Err` when Istio's validation
/// rejects it. `attempts: 0` (or none) turns retries off: the route still
/// has a policy, of one attempt, so the graph knows that nothing (not even
/// Istio's default) retries at this hop.
fn retries_block(r: crate::yaml::Entry<'_>, facts: &mut Facts) -> Result<RetryPolicy, ()> {
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
                return Err(());
            }
            Some(n) => n,
            None => {
                facts.diagnostics.push(invalid_setting::value(
                    a.value.span(),
                    "attempts",
                    a.value.as_str().unwrap_or(""),
                    "not a whole number",
                ));
                return Err(());
            }
        },
    };
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
                written_as: "no attempts: retries off".into(),
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
    Ok(p)
}

fn default_policy(anchor: Span) -> RetryPolicy {
    let mut p = RetryPolicy::new(System::Istio, anchor, istio::default_attempts(anchor));
    p.retry_on = Located::default_at(default_retry_on(anchor), anchor);
    p
}

/// Envoy's back-off, which Istio uses: 25 ms base, fully jittered, capped
/// at 10x the base.
pub(super) fn envoy_backoff(p: &mut RetryPolicy, span: Span) {
    p.delay = Located::default_at(crate::systems::envoy::default_backoff(), span);
    p.jitter = Located::default_at(Jitter::Full, span);
    p.platform_backoff = true;
}

pub(super) fn default_retry_on(span: Span) -> RetryOn {
    RetryOn::Listed {
        conditions: istio::DEFAULT_RETRY_ON
            .split(',')
            .flat_map(crate::systems::envoy::extract::conditions)
            .map(|c| Located::default_at(c, span))
            .collect(),
    }
}

fn retry_on(v: Yaml<'_>, facts: &mut Facts) -> RetryOn {
    if v.as_str().is_none() {
        return RetryOn::Unknown;
    }
    let mut conditions = Vec::new();
    for (token, span) in v.tokens(',') {
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
        for c in crate::systems::envoy::extract::conditions(token) {
            conditions.push(Located::written(c, span));
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Syntax;
    use crate::systems::extract as run;
    use std::path::Path;

    fn facts(text: &str) -> Facts {
        run(Path::new("mesh.yaml"), text, Syntax::Yaml)
    }

    const VS: &str = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: r}\nspec:\n  hosts: [ratings]\n  http:\n  - route:\n    - destination: {host: ratings}\n";

    #[test]
    fn a_route_without_retries_gets_istios_default_policy() {
        let f = facts(VS);
        let p = &f.policies[0];
        // No `retries`: Istio's default policy with Envoy's back-off.
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
        assert_eq!(
            p.attempts.value.written_as,
            "no retries block: Istio default of 2 retries"
        );
        assert_eq!(
            p.delay.value,
            Delay::Exponential {
                base: Duration::from_millis(25),
                multiplier: 2.0,
                cap: Some(Duration::from_millis(250)),
            }
        );
    }

    #[test]
    fn a_file_with_an_istio_resource_declares_the_mesh() {
        assert_eq!(facts(VS).mesh, Some(System::Istio));
        let dr = "apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: r}\nspec: {host: ratings}\n";
        assert_eq!(facts(dr).mesh, Some(System::Istio));
        let other = facts("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n");
        assert_eq!(other.mesh, None);
    }

    #[test]
    fn mesh_default_in_a_configmap_replaces_the_builtin_default() {
        let text = format!(
            "{VS}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: istio, namespace: istio-system}}\ndata:\n  mesh: |-\n    accessLogFile: /dev/stdout\n    defaultHttpRetryPolicy:\n      attempts: 5\n      retryOn: 5xx\n"
        );
        let f = facts(&text);
        assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
        assert_eq!(f.mesh_defaults.len(), 1);
        let p = &f.policies[0];
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(6));
        assert_eq!(p.attempts.provenance, Provenance::Inherited);
        // The span points into the ConfigMap's text, at `attempts: 5`.
        let at = &text[p.attempts.span.start..p.attempts.span.end];
        assert_eq!(at, "attempts: 5");
        assert!(f.edges.is_empty());
    }

    #[test]
    fn mesh_default_with_zero_attempts_turns_default_retries_off() {
        let text = format!(
            "{VS}---\napiVersion: install.istio.io/v1alpha1\nkind: IstioOperator\nspec:\n  meshConfig:\n    defaultHttpRetryPolicy:\n      attempts: 0\n"
        );
        let f = facts(&text);
        assert!(!f.policies[0].retries());
    }

    #[test]
    fn mesh_default_per_try_timeout_is_ignored() {
        let f = facts(
            "meshConfig:\n  defaultHttpRetryPolicy:\n    attempts: 2\n    perTryTimeout: 1s\n",
        );
        assert_eq!(f.mesh_defaults.len(), 1);
        assert_eq!(f.diagnostics.len(), 1);
        assert!(f.mesh_defaults[0].per_try_timeout.is_none());
    }

    #[test]
    fn destination_rule_host_and_deprecated_outlier_key() {
        let f = facts(
            "apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: d}\nspec:\n  host: reviews.prod.svc.cluster.local\n  trafficPolicy:\n    connectionPool:\n      tcp: {connectTimeout: 250ms}\n    outlierDetection:\n      consecutiveErrors: 3\n      consecutive5xxErors: 2\n      interval: 5x\n",
        );
        assert_eq!(f.services[0].name, "reviews");
        let codes: Vec<&str> = f.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["RL901", "RL901", "RL902"], "{:?}", f.diagnostics);
        assert_eq!(f.timeouts[0].what, "connectTimeout");
    }

    #[test]
    fn gateway_bound_routes_name_the_gateway_as_caller() {
        let f = facts(
            "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: r}\nspec:\n  hosts: [ratings]\n  gateways: [istio-system/public]\n  http:\n  - route:\n    - destination: {host: ratings}\n    retries: {attempts: 2}\n",
        );
        assert_eq!(f.policies[0].scope.caller.as_deref(), Some("public"));
        assert_eq!(f.edges[0].callee, "ratings");
        assert_eq!(f.edges[0].caller.as_deref(), Some("public"));
        let f = facts(
            "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: r}\nspec:\n  hosts: [ratings]\n  gateways: [public, mesh]\n  http:\n  - route:\n    - destination: {host: ratings}\n",
        );
        assert_eq!(f.policies[0].scope.caller, None);
    }

    #[test]
    fn retry_on_5xx_includes_resets() {
        let f = facts(
            "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: r}\nspec:\n  http:\n  - retries: {attempts: 2, retryOn: 5xx}\n",
        );
        let RetryOn::Listed { conditions } = &f.policies[0].retry_on.value else {
            panic!()
        };
        assert!(
            conditions
                .iter()
                .any(|c| c.value == Condition::Transport("reset".into()))
        );
    }
}
