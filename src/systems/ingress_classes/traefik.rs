//! Traefik's `Retry` middleware (issue 17, stop 46): a Kubernetes
//! `Middleware` (`traefik.io/v1alpha1`, or the older
//! `traefik.containo.us/v1alpha1`) with `spec.retry`, run by the routers
//! that name it: an `IngressRoute` route's `middlewares`, or an Ingress's
//! `traefik.ingress.kubernetes.io/router.middlewares` annotation
//! (`<namespace>-<name>@kubernetescrd`, the provider's id: traefik/traefik
//! `pkg/provider/kubernetes/crd/kubernetes.go`, `makeID`, at fd5a576d).
//! The Middleware may be in any file; `link::ingress_links` joins them.
//!
//! What the middleware does, from traefik/traefik
//! `pkg/middlewares/retry/retry.go` at fd5a576d:
//! - `attempts` is the number of tries, the first included (the last
//!   try, `attempts == r.attempts`, is sent without the retry writer);
//!   `attempts` absent or below 1 fails the middleware (`New`: "incorrect
//!   (or empty) value for attempt"), and with it the routers that use it;
//! - it retries when the request reached the proxy but no byte of it was
//!   sent to the server (a dial failure), for every method, unless
//!   `disableRetryOnNetworkError`; and on the `status` codes, only for
//!   methods other than `POST`, `PATCH` and `LOCK` unless
//!   `retryNonIdempotentMethod`;
//! - without `initialInterval` the next try goes at once
//!   (`backoff.ZeroBackOff`); with it, cenkalti/backoff v4's exponential
//!   back-off from `initialInterval` with the multiplier 2^(1/(attempts-1))
//!   (the last wait about twice the first), randomized by +/-50% and held
//!   at 60 s (cenkalti/backoff v4.3.0, the version traefik's `go.mod`
//!   requires, `exponential.go`: `DefaultRandomizationFactor = 0.5`,
//!   `DefaultMaxInterval = 60 * time.Second`);
//! - `timeout` stops further tries once that long has passed since the
//!   first (it does not cut a try short: `responseWriter.WriteHeader`
//!   passes the answer on once `time.Since(r.start) >= r.timeout`), as a
//!   back-off's elapsed-time limit does: the policy's overall timeout
//!   (`0` or absent: none; `Retry.Timeout` in `pkg/config/dynamic/middlewares.go`
//!   at fd5a576d).
//!
//! Durations are a number of seconds or a Go duration (`ptypes.Duration`,
//! `createRetryMiddleware` in the CRD provider at fd5a576d).

use crate::diag::invalid_setting;
use crate::extract::{DocCtx, Facts};
use crate::model::ingress_links::{MiddlewareDecl, MiddlewareName, MiddlewareRefs};
use crate::model::*;
use crate::source::Span;
use crate::yaml::{Entry, Yaml};
use std::time::Duration;

/// The Traefik CRD API groups.
pub(super) const APIS: &[&str] = &["traefik.io/v1alpha1", "traefik.containo.us/v1alpha1"];

/// The Ingress annotation naming a router's middlewares.
const ROUTER_MIDDLEWARES: &str = "traefik.ingress.kubernetes.io/router.middlewares";

/// At most this many middlewares are read from one reference list.
const MAX_REFS: usize = 64;

/// Whether `root` is a Traefik custom resource of `kind`.
pub(super) fn is_crd(root: Yaml<'_>, kind: &str) -> bool {
    root.get("kind").and_then(|v| v.as_str()) == Some(kind)
        && root
            .get("apiVersion")
            .and_then(|v| v.as_str())
            .is_some_and(|a| APIS.contains(&a.trim()))
}

fn str_at<'f>(root: Yaml<'f>, keys: &[&str]) -> Option<&'f str> {
    root.path(keys)
        .and_then(|v| v.as_str())
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A Traefik duration: a number of seconds, or a Go duration.
fn duration(v: &str) -> Option<Duration> {
    let v = v.trim();
    if let Ok(n) = v.parse::<u64>() {
        return Some(Duration::from_secs(n));
    }
    crate::duration::parse_go(v).ok()
}

/// A `Middleware` with `spec.retry`: its policy, judged where it is
/// written, and its name for the routers of any file.
pub(super) fn middleware(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let name = str_at(root, &["metadata", "name"]).unwrap_or("unnamed");
    let namespace = str_at(root, &["metadata", "namespace"]).map(str::to_string);
    let span = root
        .path(&["metadata", "name"])
        .map(|v| v.span())
        .unwrap_or(root.span());
    if let Some(chain) = root.path(&["spec", "chain", "middlewares"]) {
        // A chain runs its middlewares in order (each `name`, in the
        // chain's namespace unless it says another).
        let members: Vec<MiddlewareName> = chain
            .items()
            .into_iter()
            .take(MAX_REFS)
            .filter_map(|m| crd_ref(m, namespace.as_deref()))
            .collect();
        facts.ingress.middlewares.push(MiddlewareDecl {
            namespace,
            name: name.to_string(),
            crd: true,
            policy: None,
            chain: members,
            span,
        });
        return true;
    }
    let Some(retry) = root.path(&["spec", "retry"]) else {
        return false;
    };
    retry_middleware(retry, name, namespace, true, span, facts);
    true
}

/// A `{name, namespace}` reference to a Kubernetes `Middleware` (a route's
/// or a chain's), in `namespace` unless it says another; a name of
/// another provider than the CRD's or the file's (`name@docker`) is none.
fn crd_ref(m: Yaml<'_>, namespace: Option<&str>) -> Option<MiddlewareName> {
    let n = m.get("name")?;
    let text = n.as_str()?.trim();
    let (text, crd) = match text.split_once('@') {
        Some((t, "kubernetescrd")) => (t, true),
        Some((t, "file")) => (t, false),
        Some(_) => return None,
        None => (text, true),
    };
    Some(MiddlewareName {
        namespace: str_at(m, &["namespace"]).or(namespace).map(str::to_string),
        name: text.to_string(),
        qualified: false,
        crd,
        span: n.span(),
    })
}

/// A `retry` middleware's policy (`retry` is its settings block), pushed
/// with its declaration.
fn retry_middleware(
    retry: Yaml<'_>,
    name: &str,
    namespace: Option<String>,
    crd: bool,
    span: Span,
    facts: &mut Facts,
) {
    let attempts = retry.get("attempts");
    let n = attempts.and_then(|a| a.as_i64());
    let Some(n) = n.filter(|n| *n >= 1) else {
        let at = attempts.map(|a| a.span()).unwrap_or(retry.span());
        let written = attempts.and_then(|a| a.as_str()).unwrap_or("");
        facts.diagnostics.push(invalid_setting::value(
            at,
            "retry.attempts",
            if written.is_empty() { "unset" } else { written },
            "Traefik refuses a Retry middleware without a positive `attempts`, and the routers that use it fail",
        ));
        return;
    };
    let attempts_at = attempts.map(|a| a.span()).unwrap_or(span);
    let mut p = RetryPolicy::new(
        System::Traefik,
        span,
        Located::written(
            Attempts {
                count: AttemptCount::Finite(n as u64),
                written_as: format!("retry.attempts: {n}"),
            },
            attempts_at,
        ),
    );
    p.name = Some(format!("Middleware {name}"));
    // A Middleware offers no retry budget.
    p.budget_site = BudgetSite::NotOffered;
    match retry.get("initialInterval") {
        Some(v) => match v.as_str().and_then(duration) {
            Some(d) if d > Duration::ZERO && n >= 2 => {
                p.delay = Located::written(
                    Delay::Exponential {
                        base: d,
                        multiplier: 2f64.powf(1.0 / (n - 1) as f64),
                        cap: Some(Duration::from_secs(60)),
                    },
                    v.span(),
                );
                p.jitter = Located::default_at(Jitter::Proportional { factor: 0.5 }, v.span());
            }
            Some(_) => p.delay = Located::written(Delay::None, v.span()),
            None => {
                facts.diagnostics.push(invalid_setting::value(
                    v.span(),
                    "retry.initialInterval",
                    v.as_str().unwrap_or(""),
                    "Traefik reads a number of seconds or a Go duration (`100ms`)",
                ));
                p.delay = Located::written(Delay::Unknown, v.span());
            }
        },
        None => p.delay = Located::default_at(Delay::None, retry.span()),
    }
    if let Some(v) = retry.get("timeout") {
        match v.as_str().and_then(duration) {
            Some(d) if d > Duration::ZERO => {
                p.overall_timeout = Some(Located::written(Timeout::after(d), v.span()));
            }
            Some(_) => p.overall_timeout = Some(Located::written(Timeout::Disabled, v.span())),
            None => facts.diagnostics.push(invalid_setting::value(
                v.span(),
                "retry.timeout",
                v.as_str().unwrap_or(""),
                "Traefik reads a number of seconds or a Go duration (`2s`)",
            )),
        }
    }
    let network = !retry
        .get("disableRetryOnNetworkError")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let statuses = retry.get("status");
    let mut conditions = Vec::new();
    if network {
        conditions.push(Located::default_at(
            Condition::Transport("connect-failure".into()),
            retry.span(),
        ));
    }
    for s in statuses.map(|s| s.items()).unwrap_or_default() {
        let Some(text) = s.as_str() else { continue };
        let (from, to) = match text.split_once('-') {
            Some((a, b)) => (a.trim().parse::<u16>(), b.trim().parse::<u16>()),
            None => (text.trim().parse::<u16>(), text.trim().parse::<u16>()),
        };
        if let (Ok(from), Ok(to)) = (from, to) {
            conditions.push(Located::written(Condition::Status { from, to }, s.span()));
        }
    }
    let on_span = statuses.map(|s| s.span()).unwrap_or(retry.span());
    p.retry_on = if conditions.is_empty() {
        Located::written(RetryOn::Nothing, on_span)
    } else {
        Located::written(RetryOn::Listed { conditions }, on_span)
    };
    let any_method = retry
        .get("retryNonIdempotentMethod")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    // A dial failure is retried for every method (nothing was sent); the
    // statuses only for the idempotent ones unless told otherwise.
    p.methods = match (any_method, statuses.is_some()) {
        (true, _) | (false, false) => Located::default_at(Methods::All, retry.span()),
        (false, true) => Located::default_at(Methods::IdempotentOnly, retry.span()),
    };
    facts.ingress.middlewares.push(MiddlewareDecl {
        namespace,
        name: name.to_string(),
        crd,
        policy: Some(facts.policies.len()),
        chain: Vec::new(),
        span,
    });
    facts.policies.push(p);
}

/// The middlewares an Ingress's `router.middlewares` annotation names,
/// as the CRD provider's ids (`<namespace>-<name>`); ids of other
/// providers (`name@file`) are not Middlewares of a manifest.
pub(super) fn annotation_refs(entries: &[Entry<'_>]) -> Vec<MiddlewareName> {
    let Some(e) = entries.iter().find(|e| e.key == ROUTER_MIDDLEWARES) else {
        return Vec::new();
    };
    let Some(v) = e.value.as_str() else {
        return Vec::new();
    };
    v.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .filter_map(|s| match s.split_once('@') {
            Some((n, "kubernetescrd")) => Some(n),
            Some(_) => None,
            None => Some(s),
        })
        .take(MAX_REFS)
        .map(|n| MiddlewareName {
            namespace: None,
            name: n.to_string(),
            qualified: true,
            crd: true,
            span: e.value.span(),
        })
        .collect()
}

/// An `IngressRoute`: Traefik's hop to each Kubernetes Service its routes
/// name, each edge with its route's middlewares.
pub(super) fn ingress_route(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let name = str_at(root, &["metadata", "name"]).unwrap_or("unnamed");
    let namespace = str_at(root, &["metadata", "namespace"]);
    let mut drew = false;
    for route in root
        .path(&["spec", "routes"])
        .map(|r| r.items())
        .unwrap_or_default()
    {
        let refs: Vec<MiddlewareName> = route
            .get("middlewares")
            .map(|m| m.items())
            .unwrap_or_default()
            .into_iter()
            .take(MAX_REFS)
            .filter_map(|m| crd_ref(m, namespace))
            .collect();
        for s in route.get("services").map(|s| s.items()).unwrap_or_default() {
            // A `TraefikService` (weighted, mirroring) is not a Kubernetes
            // Service: not followed.
            if str_at(s, &["kind"]).is_some_and(|k| k != "Service") {
                continue;
            }
            let Some(n) = s.get("name") else { continue };
            let Some(service) = n.as_str().map(str::trim).filter(|t| !t.is_empty()) else {
                continue;
            };
            if !refs.is_empty() {
                facts.ingress.middleware_refs.push(MiddlewareRefs {
                    edge: facts.edges.len(),
                    refs: refs.clone(),
                });
            }
            facts.edges.push(CallEdge {
                client: None,
                caller: Some(super::extract::TRAEFIK_NODE.to_string()),
                callee: service.to_string(),
                span: n.span(),
                policies: Vec::new(),
                via: format!("Traefik IngressRoute `{name}`"),
                protocol: None,
            });
            drew = true;
        }
    }
    drew
}

/// At most this many routers, services or middlewares are read from one
/// dynamic configuration.
const MAX_ENTRIES: usize = 512;

/// Traefik's file provider (its dynamic configuration, a YAML document
/// with `http:` and no `kind`): each `http.middlewares.<name>.retry`, and
/// each router's hop to the servers of its service
/// (`http.routers.<r>.service` -> `http.services.<s>.loadBalancer.servers[].url`),
/// with the router's `middlewares` (traefik/traefik
/// `pkg/config/dynamic/http_config.go`, `Router`, `Service`,
/// `ServersLoadBalancer`, at fd5a576d). A router's service or middleware
/// of another provider (`name@docker`) is not followed.
pub(super) fn dynamic_config(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    if root.get("kind").is_some() {
        return false;
    }
    let Some(http) = root.get("http").filter(|h| h.is_map()) else {
        return false;
    };
    let entries = |key: &str| -> Vec<Entry<'_>> {
        http.get(key)
            .filter(|m| m.is_map())
            .map(|m| m.entries())
            .unwrap_or_default()
            .into_iter()
            .take(MAX_ENTRIES)
            .collect()
    };
    let mut read = false;
    for e in entries("middlewares") {
        if let Some(retry) = e.value.get("retry") {
            retry_middleware(retry, e.key, None, false, e.key_span, facts);
            read = true;
        } else if let Some(chain) = e.value.path(&["chain", "middlewares"]) {
            let members = provider_refs(Some(chain));
            facts.ingress.middlewares.push(MiddlewareDecl {
                namespace: None,
                name: e.key.to_string(),
                crd: false,
                policy: None,
                chain: members,
                span: e.key_span,
            });
            read = true;
        }
    }
    let services = entries("services");
    fn local(name: &str) -> Option<&str> {
        match name.split_once('@') {
            Some((n, "file")) => Some(n),
            Some(_) => None,
            None => Some(name),
        }
    }
    for r in entries("routers") {
        let Some(service) = r
            .value
            .get("service")
            .and_then(|v| v.as_str())
            .and_then(|n| local(n.trim()))
        else {
            continue;
        };
        let Some(svc) = services.iter().find(|s| s.key == service) else {
            continue;
        };
        let refs = provider_refs(r.value.get("middlewares"));
        for server in svc
            .value
            .path(&["loadBalancer", "servers"])
            .map(|s| s.items())
            .unwrap_or_default()
            .into_iter()
            .take(MAX_ENTRIES)
        {
            let Some(url) = server.get("url") else {
                continue;
            };
            let Some(host) = url.as_str().and_then(crate::extract::workload::host_of) else {
                continue;
            };
            refs_for_edge(facts, facts.edges.len(), &refs);
            facts.edges.push(CallEdge {
                client: None,
                caller: Some(super::extract::TRAEFIK_NODE.to_string()),
                callee: host,
                span: url.span(),
                policies: Vec::new(),
                via: format!("Traefik router `{}`", r.key),
                protocol: url
                    .as_str()
                    .and_then(crate::model::calls::Protocol::of_target),
            });
            read = true;
        }
    }
    read
}

/// A middleware name as the file provider's routers and chains write it:
/// its own (`name`, `name@file`) or a Kubernetes one
/// (`<namespace>-<name>@kubernetescrd`), with whether it is the latter;
/// another provider's is none.
/// The middlewares a file-provider list names (a router's
/// `middlewares`, a chain's), at most [`MAX_REFS`].
fn provider_refs(list: Option<Yaml<'_>>) -> Vec<MiddlewareName> {
    list.map(|m| m.items())
        .unwrap_or_default()
        .into_iter()
        .take(MAX_REFS)
        .filter_map(|m| {
            let (name, crd) = provider_name(m.as_str()?.trim())?;
            Some(MiddlewareName {
                namespace: None,
                name: name.to_string(),
                qualified: crd,
                crd,
                span: m.span(),
            })
        })
        .collect()
}

fn provider_name(text: &str) -> Option<(&str, bool)> {
    match text.split_once('@') {
        Some((n, "file")) => Some((n, false)),
        Some((n, "kubernetescrd")) => Some((n, true)),
        Some(_) => None,
        None => Some((text, false)),
    }
}

/// Where an edge's Traefik middlewares are read from, for an Ingress:
/// recorded against the edge just drawn.
pub(super) fn refs_for_edge(facts: &mut Facts, edge: usize, refs: &[MiddlewareName]) {
    if !refs.is_empty() {
        facts.ingress.middleware_refs.push(MiddlewareRefs {
            edge,
            refs: refs.to_vec(),
        });
    }
}

/// The span of nothing, for tests.
#[cfg(test)]
fn nowhere() -> Span {
    Span { start: 0, end: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traefik_durations_are_seconds_or_go_durations() {
        assert_eq!(duration("2"), Some(Duration::from_secs(2)));
        assert_eq!(duration("100ms"), Some(Duration::from_millis(100)));
        assert_eq!(duration("soon"), None);
    }

    #[test]
    fn an_annotation_names_middlewares_by_namespace_and_name() {
        let r = MiddlewareName {
            namespace: None,
            name: "shop-retry-twice".into(),
            qualified: true,
            crd: true,
            span: nowhere(),
        };
        let decl = |ns: Option<&str>, name: &str| MiddlewareDecl {
            namespace: ns.map(str::to_string),
            name: name.into(),
            crd: true,
            policy: Some(0),
            chain: Vec::new(),
            span: nowhere(),
        };
        assert!(r.names(&decl(Some("shop"), "retry-twice")));
        assert!(!r.names(&decl(Some("web"), "retry-twice")));
        assert!(r.names(&decl(None, "retry-twice")));
        assert!(!r.names(&decl(None, "twice-more")));
    }
}
