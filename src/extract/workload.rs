//! Service identities and call edges from Kubernetes workloads and
//! docker-compose files: a `Deployment`/`StatefulSet`/... or a compose
//! service is a service; a `Service` is a host that reaches one; container
//! env entries named `*_URL`, `*_HOST`, `*_ADDR`, `*_ADDRESS`, `*_URI` or
//! `*_ENDPOINT` whose value names a host are calls from that service.

use super::{DocCtx, Facts, short_host};
use crate::model::{CallEdge, ServiceDecl};
use crate::yaml::Yaml;

const WORKLOADS: &[&str] = &[
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "Job",
    "CronJob",
    "Pod",
    "Rollout",
    "DeploymentConfig",
];
const ENV_SUFFIXES: &[&str] = &[
    "_URL",
    "_HOST",
    "_ADDR",
    "_ADDRESS",
    "_URI",
    "_ENDPOINT",
    "_SERVICE_HOST",
];

/// Sniff strings for the Kubernetes kinds read here.
pub const NEEDLES: &[&str] = &[
    "kind: Deployment",
    "kind: StatefulSet",
    "kind: DaemonSet",
    "kind: ReplicaSet",
    "kind: Job",
    "kind: CronJob",
    "kind: Pod",
    "kind: Rollout",
    "kind: Service",
    "kind: DeploymentConfig",
];

/// Whether a file name is a docker-compose file.
pub fn is_compose(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    (n.starts_with("docker-compose") || n.starts_with("compose"))
        && (n.ends_with(".yml") || n.ends_with(".yaml"))
}

/// The workload reader (no retry system of its own): services, their
/// calls and their environments.
pub const READER: super::DocReader = super::DocReader {
    name: "workload",
    needles: NEEDLES,
    read: extract,
    order: 60,
};

pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let name = ctx
        .path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    if is_compose(&name) {
        return compose(root, facts);
    }
    let kind = root.get("kind").and_then(|k| k.as_str()).unwrap_or("");
    if root.get("apiVersion").is_none() {
        return false;
    }
    if kind == "Service" {
        return service(root, facts);
    }
    if !WORKLOADS.contains(&kind) {
        return false;
    }
    let Some(meta_name) = root.path(&["metadata", "name"]) else {
        return false;
    };
    let Some(id) = app_name(root).or(meta_name.as_str().map(str::to_string)) else {
        return false;
    };
    facts.services.push(ServiceDecl {
        name: id.clone(),
        span: meta_name.span(),
        source: format!("Kubernetes {kind}"),
        hosts: Vec::new(),
    });
    let spec = match kind {
        "CronJob" => root.path(&["spec", "jobTemplate", "spec", "template", "spec"]),
        "Pod" => root.get("spec"),
        _ => root.path(&["spec", "template", "spec"]),
    };
    if let Some(spec) = spec {
        for list in ["containers", "initContainers"] {
            for c in spec.get(list).map(|c| c.items()).unwrap_or_default() {
                for env in c.get("env").map(|e| e.items()).unwrap_or_default() {
                    let (Some(k), Some(v)) =
                        (env.get("name").and_then(|n| n.as_str()), env.get("value"))
                    else {
                        continue;
                    };
                    env_edge(&id, k, v, facts);
                }
            }
        }
    }
    true
}

/// `app.kubernetes.io/name` or `app` label of the pod template or object.
fn app_name(root: Yaml<'_>) -> Option<String> {
    for labels in [
        root.path(&["spec", "template", "metadata", "labels"]),
        root.path(&["metadata", "labels"]),
    ] {
        let Some(labels) = labels else { continue };
        for key in ["app.kubernetes.io/name", "app"] {
            if let Some(v) = labels.get(key).and_then(|v| v.as_str()) {
                return Some(v.to_string());
            }
        }
    }
    None
}

/// A `Service` is a host: its name reaches the pods its selector picks.
fn service(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let Some(meta_name) = root.path(&["metadata", "name"]) else {
        return false;
    };
    let Some(host) = meta_name.as_str() else {
        return false;
    };
    let target = root
        .path(&["spec", "selector"])
        .and_then(|s| s.get("app.kubernetes.io/name").or_else(|| s.get("app")))
        .and_then(|v| v.as_str())
        .unwrap_or(host);
    facts.services.push(ServiceDecl {
        name: target.to_string(),
        span: meta_name.span(),
        source: "Kubernetes Service".into(),
        hosts: vec![host.to_string()],
    });
    true
}

fn compose(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let Some(services) = root.get("services") else {
        return false;
    };
    for s in services.entries() {
        facts.services.push(ServiceDecl {
            name: s.key.to_string(),
            span: s.key_span,
            source: "docker-compose service".into(),
            hosts: vec![s.key.to_string()],
        });
        let Some(env) = s.value.get("environment") else {
            continue;
        };
        if env.is_map() {
            for e in env.entries() {
                if let Some(v) = e.value.as_str() {
                    push_edge(s.key, e.key, v, e.value.span(), facts);
                    mark_compose(facts);
                }
            }
        } else {
            for item in env.items() {
                let Some(text) = item.as_str() else { continue };
                let Some((k, v)) = text.split_once('=') else {
                    // `- CART_ADDR`: the value comes from the shell or `.env`.
                    let k = text.trim();
                    if super::calls::url_key(k) {
                        facts.unresolved.push(crate::model::UnresolvedCall {
                            span: item.span(),
                            written: format!("env {k}"),
                        });
                    }
                    continue;
                };
                let offset = item.span().start + if item.is_quoted() { 1 } else { 0 } + k.len() + 1;
                let span = crate::source::Span::new(offset, offset + v.len());
                push_edge(s.key, k, v, span, facts);
                mark_compose(facts);
            }
        }
    }
    true
}

/// docker-compose calls do not run in a mesh: say so in `via`.
fn mark_compose(facts: &mut Facts) {
    if let Some(e) = facts.edges.last_mut()
        && !e.via.starts_with(COMPOSE_VIA)
    {
        e.via = format!("{COMPOSE_VIA} {}", e.via);
    }
}

pub use crate::model::calls::COMPOSE_VIA;

fn env_edge(caller: &str, key: &str, value: Yaml<'_>, facts: &mut Facts) {
    let Some(v) = value.as_str() else { return };
    let span = value.span();
    push_edge(caller, key, v, span, facts);
}

fn push_edge(caller: &str, key: &str, value: &str, span: crate::source::Span, facts: &mut Facts) {
    let upper = key.to_ascii_uppercase();
    if !ENV_SUFFIXES.iter().any(|s| upper.ends_with(s)) || upper.starts_with("AWS_") {
        return;
    }
    let Some(host) = host_of(value) else {
        // `${CART_ADDR}`: set where the file is used (`.env`, the shell).
        if value.contains("${") {
            facts.unresolved.push(crate::model::UnresolvedCall {
                span,
                written: value.trim().to_string(),
            });
        }
        return;
    };
    facts.edges.push(CallEdge {
        client: None,
        caller: Some(caller.to_string()),
        callee: host,
        span,
        policies: Vec::new(),
        via: format!("env `{key}`"),
    });
}

/// The service a URL or `host:port` names, if it names one.
pub fn host_of(value: &str) -> Option<String> {
    let v = value.trim();
    if v.is_empty() || v.contains("${") || v.contains("{{") || v.contains(' ') {
        return None;
    }
    let has_scheme = v.contains("://");
    let host = short_host(v);
    let plain = host
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_');
    if !plain || host.is_empty() || host == "localhost" || host.parse::<std::net::IpAddr>().is_ok()
    {
        return None;
    }
    // A bare word is a host only in a `*_HOST`/`*_ADDR` style entry, which
    // the caller checked; a value with a scheme or port is clearly one.
    if !has_scheme
        && !v.contains(':')
        && !v.contains('.')
        && v.chars().any(|c| c.is_ascii_uppercase())
    {
        return None;
    }
    Some(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_from_env_values() {
        assert_eq!(
            host_of("http://payments:8080/api").as_deref(),
            Some("payments")
        );
        assert_eq!(
            host_of("payments.shop.svc.cluster.local:9090").as_deref(),
            Some("payments")
        );
        assert_eq!(host_of("ledger").as_deref(), Some("ledger"));
        assert_eq!(host_of("http://localhost:8080"), None);
        assert_eq!(host_of("10.0.0.1:80"), None);
        assert_eq!(host_of("${PAYMENTS}"), None);
        assert_eq!(
            host_of("https://api.stripe.com/v1").as_deref(),
            Some("api.stripe.com")
        );
    }
}
