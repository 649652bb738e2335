//! The Knative Serving reader: one YAML document in, facts out. A
//! `Service` or `Configuration` declares the service (its name and the
//! cluster hosts that reach it) and its revision's request timeout
//! (`spec.template.spec.timeoutSeconds`, 300 s when not written); a
//! `Route` declares its name as a service. The ingress's own retry layer
//! (one attempt, [`super::INGRESS_ATTEMPTS`]) is a policy scoped to the
//! service, bounded by that timeout.
//!
//! Pure and bounded: reads only the document it is given.

use crate::diag::invalid_setting;
use crate::model::*;
use crate::source::Span;
use crate::yaml::Yaml;
use std::time::Duration;

/// The API group of Knative Serving resources.
pub const API_GROUP: &str = "serving.knative.dev/";

/// Words that make a file worth parsing for this reader.
pub const NEEDLES: &[&str] = &["serving.knative.dev"];

/// Read one document; `false` when it is not a Knative Serving resource.
pub fn extract(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let api = root
        .get("apiVersion")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    if !api.starts_with(API_GROUP) {
        return false;
    }
    let kind = root.get("kind").and_then(|v| v.as_str()).unwrap_or("");
    let Some(name_node) = root.path(&["metadata", "name"]) else {
        return true;
    };
    let Some(name) = name_node.as_str() else {
        return true;
    };
    let namespace = root
        .path(&["metadata", "namespace"])
        .and_then(|v| v.as_str())
        .unwrap_or("default");
    // A Knative Service runs its container and answers at its own host:
    // a workload, by the graph's reading.
    let mut decl = ServiceDecl::new(
        name,
        name_node.span(),
        crate::model::calls::IdentityKind::Workload,
        format!("Knative {kind}"),
        vec![
            name.to_string(),
            format!("{name}.{namespace}"),
            format!("{name}.{namespace}.svc"),
            format!("{name}.{namespace}.svc.cluster.local"),
        ],
    );
    decl.placement.namespace = Some(namespace.to_string());
    // A revision named in the template answers to that name in a Route's
    // `revisionName`.
    if let Some(rev) = root
        .path(&["spec", "template", "metadata", "name"])
        .and_then(|v| v.as_str())
        && !decl.hosts.iter().any(|h| h == rev)
    {
        decl.hosts.push(rev.to_string());
    }
    let serves = matches!(kind, "Service" | "Configuration");
    let anchor = root.get("spec").map_or(name_node.span(), |s| s.span());
    let timeout = serves.then(|| revision_timeout(root, anchor, facts));
    decl.request_timeout = timeout
        .as_ref()
        .map(|t| work_bound(root, name, t.clone(), facts));
    facts.services.push(decl);
    if matches!(kind, "Route" | "Service") {
        traffic(root, name, facts);
    }
    let Some(timeout) = timeout else {
        return true;
    };
    facts.timeouts.push(TimeoutSetting {
        system: System::Knative,
        name: Some(name.to_string()),
        what: "timeoutSeconds".into(),
        timeout: timeout.clone(),
    });
    let mut p = RetryPolicy::new(System::Knative, anchor, ingress_attempts(anchor));
    p.name = Some(format!("ingress route to {name}"));
    p.scope.callee = Some(Located::default_at(name.to_string(), name_node.span()));
    p.per_try_timeout = Some(timeout.clone());
    p.overall_timeout = Some(timeout);
    p.retry_on = Located::default_at(RetryOn::Nothing, anchor);
    p.methods = Located::default_at(Methods::All, anchor);
    p.platform_backoff = true;
    p.budget_site = BudgetSite::NotOffered;
    facts.policies.push(p);
    true
}

/// The most traffic targets read from one resource.
const MAX_TARGETS: usize = 64;

/// A Route's (or a Service's) `spec.traffic`: a call edge from the route
/// to each Configuration or Revision it sends traffic to, other than its
/// own. A revision named `<configuration>-00001` (Knative's generated
/// names: five digits after the configuration's name) is its
/// configuration's; one named in a template is declared by it.
fn traffic(root: Yaml<'_>, name: &str, facts: &mut Facts) {
    let items = root
        .path(&["spec", "traffic"])
        .map(|t| t.items())
        .unwrap_or_default();
    for t in items.into_iter().take(MAX_TARGETS) {
        let (node, target) = if let Some(c) = t.get("configurationName") {
            (c, c.as_str().unwrap_or("").to_string())
        } else if let Some(r) = t.get("revisionName") {
            (r, generated_revision_of(r.as_str().unwrap_or("")))
        } else {
            continue;
        };
        if target.is_empty() || target == name {
            continue;
        }
        let percent = t
            .get("percent")
            .and_then(|p| p.as_i64())
            .map_or(String::new(), |p| format!(", {p}%"));
        facts.edges.push(CallEdge {
            client: None,
            caller: Some(name.to_string()),
            callee: target,
            span: node.span(),
            policies: Vec::new(),
            via: format!("Knative Route `{name}` traffic{percent}"),
            protocol: None,
        });
    }
}

/// The configuration of a revision with a generated name
/// (`<configuration>-00001`), else the revision's name itself.
fn generated_revision_of(revision: &str) -> String {
    match revision.rsplit_once('-') {
        Some((config, n)) if n.len() == 5 && n.bytes().all(|b| b.is_ascii_digit()) => {
            config.to_string()
        }
        _ => revision.to_string(),
    }
}

/// How long the revision may work on a request before it begins to
/// answer: `timeoutSeconds`, or `responseStartTimeoutSeconds` or
/// `idleTimeoutSeconds` when written below it. The queue-proxy answers 504
/// and cancels the request when either fires before the first byte
/// (knative/serving `pkg/http/handler/timeout.go`: the response-start
/// timer while nothing was written, the idle timer from the request's
/// start). Neither has a default of its own
/// ([`super::DEFAULT_RESPONSE_START_TIMEOUT_SECONDS`],
/// [`super::DEFAULT_IDLE_TIMEOUT_SECONDS`]); 0 turns the timer off.
fn work_bound(
    root: Yaml<'_>,
    name: &str,
    timeout: Located<Timeout>,
    facts: &mut Facts,
) -> Located<Timeout> {
    let mut bound = timeout;
    for key in ["responseStartTimeoutSeconds", "idleTimeoutSeconds"] {
        let Some(t) = root.path(&["spec", "template", "spec", key]) else {
            continue;
        };
        let secs = match t.as_i64() {
            Some(0) => continue,
            Some(n) if n > 0 => n as u64,
            _ => {
                facts.diagnostics.push(invalid_setting::value(
                    t.span(),
                    key,
                    t.as_str().unwrap_or("").trim(),
                    "not a whole number of seconds from 0: the webhook rejects the revision",
                ));
                continue;
            }
        };
        let written = Located::written(Timeout::after(Duration::from_secs(secs)), t.span());
        facts.timeouts.push(TimeoutSetting {
            system: System::Knative,
            name: Some(name.to_string()),
            what: key.into(),
            timeout: written.clone(),
        });
        if bound.value.finite().is_some_and(|b| secs < b.as_secs()) {
            bound = written;
        }
    }
    bound
}

/// The ingress's attempts: one, the platform's (net-istio's) choice.
fn ingress_attempts(anchor: Span) -> Located<Attempts> {
    Located::default_at(
        Attempts {
            count: AttemptCount::Finite(super::INGRESS_ATTEMPTS),
            written_as: "the Knative ingress: no retries (`retries: {}` on its routes)".into(),
        },
        anchor,
    )
}

/// `spec.template.spec.timeoutSeconds`, or the platform default; a value
/// the webhook rejects (negative, not a number, above the default
/// maximum) is reported and read as the default.
fn revision_timeout(root: Yaml<'_>, anchor: Span, facts: &mut Facts) -> Located<Timeout> {
    let default = Located::default_at(
        Timeout::after(Duration::from_secs(super::DEFAULT_TIMEOUT_SECONDS)),
        anchor,
    );
    let Some(t) = root.path(&["spec", "template", "spec", "timeoutSeconds"]) else {
        return default;
    };
    let text = t.as_str().unwrap_or("").trim();
    match t.as_i64() {
        Some(n) if n >= 0 && (n as u64) <= super::DEFAULT_MAX_TIMEOUT_SECONDS => {
            // `timeoutSeconds: 0` is the default (`revision-timeout-seconds`):
            // knative/serving `pkg/apis/serving/v1/revision_defaults.go`,
            // `if rs.TimeoutSeconds == nil || *rs.TimeoutSeconds == 0` (v1.0
            // to v1.23).
            if n == 0 {
                return Located::default_at(
                    Timeout::after(Duration::from_secs(super::DEFAULT_TIMEOUT_SECONDS)),
                    t.span(),
                );
            }
            Located::written(Timeout::after(Duration::from_secs(n as u64)), t.span())
        }
        Some(n) if n > 0 => {
            facts.diagnostics.push(invalid_setting::value(
                t.span(),
                "timeoutSeconds",
                text,
                &format!(
                    "above the default `max-revision-timeout-seconds` of {}: the webhook rejects the revision unless the cluster's `config-defaults` raises it",
                    super::DEFAULT_MAX_TIMEOUT_SECONDS
                ),
            ));
            Located::written(Timeout::after(Duration::from_secs(n as u64)), t.span())
        }
        _ => {
            facts.diagnostics.push(invalid_setting::value(
                t.span(),
                "timeoutSeconds",
                text,
                "not a whole number of seconds from 0: the webhook rejects the revision",
            ));
            default
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Facts {
        let file = crate::yaml::parse(text);
        let mut facts = Facts::default();
        for doc in &file.documents {
            extract(file.root(doc), &mut facts);
        }
        facts
    }

    #[test]
    fn a_service_declares_its_hosts_and_revision_timeout() {
        let f = read(
            "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: render, namespace: media}\nspec:\n  template:\n    spec:\n      timeoutSeconds: 60\n      containers: [{image: x}]\n",
        );
        assert_eq!(f.services[0].name, "render");
        assert!(
            f.services[0]
                .hosts
                .contains(&"render.media.svc.cluster.local".to_string())
        );
        assert_eq!(
            f.timeouts[0].timeout.value,
            Timeout::after(Duration::from_secs(60))
        );
        let p = &f.policies[0];
        assert!(!p.retries());
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(1));
        assert!(f.diagnostics.is_empty());
    }

    #[test]
    fn defaults_and_rejected_values() {
        let f = read(
            "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: a}\nspec: {template: {spec: {containers: []}}}\n",
        );
        assert!(f.timeouts[0].timeout.is_default());
        assert_eq!(
            f.timeouts[0].timeout.value,
            Timeout::after(Duration::from_secs(300))
        );
        let f = read(
            "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: a}\nspec: {template: {spec: {timeoutSeconds: 3600}}}\n",
        );
        assert_eq!(f.diagnostics.len(), 1);
        let f = read(
            "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: a}\nspec: {template: {spec: {timeoutSeconds: soon}}}\n",
        );
        assert_eq!(f.diagnostics.len(), 1);
        assert!(read("apiVersion: v1\nkind: Service\nmetadata: {name: a}\n").is_empty());
    }

    #[test]
    fn route_traffic_is_a_call_to_each_configuration() {
        let f = read(
            "apiVersion: serving.knative.dev/v1\nkind: Route\nmetadata: {name: shop}\nspec:\n  traffic:\n  - revisionName: cart-00007\n    percent: 90\n  - revisionName: cart-canary\n    percent: 10\n  - configurationName: search\n    tag: next\n    percent: 0\n",
        );
        let callees: Vec<_> = f.edges.iter().map(|e| e.callee.as_str()).collect();
        assert_eq!(callees, ["cart", "cart-canary", "search"]);
        assert!(f.edges.iter().all(|e| e.caller.as_deref() == Some("shop")));
        assert!(f.edges[0].via.contains("90%"));
        // A Service's own revisions are no call; a named template
        // revision is one of its hosts.
        let f = read(
            "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: cart}\nspec:\n  template:\n    metadata: {name: cart-canary}\n    spec: {containers: []}\n  traffic:\n  - latestRevision: true\n    percent: 50\n  - revisionName: cart-00001\n    percent: 50\n",
        );
        assert!(f.edges.is_empty());
        assert!(f.services[0].hosts.contains(&"cart-canary".to_string()));
    }

    #[test]
    fn response_start_and_idle_timeouts_bound_the_work() {
        let f = read(
            "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: a}\nspec: {template: {spec: {timeoutSeconds: 300, responseStartTimeoutSeconds: 20, idleTimeoutSeconds: 45}}}\n",
        );
        let t = f.services[0].request_timeout.as_ref().unwrap();
        assert_eq!(t.value, Timeout::after(Duration::from_secs(20)));
        assert!(t.is_written());
        assert_eq!(f.timeouts.len(), 3);
        // The ingress still waits for the whole request timeout.
        assert_eq!(
            f.policies[0].per_try_timeout.as_ref().unwrap().value,
            Timeout::after(Duration::from_secs(300))
        );
        // 0 turns a timer off; one above timeoutSeconds never fires first.
        let f = read(
            "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: a}\nspec: {template: {spec: {timeoutSeconds: 60, responseStartTimeoutSeconds: 0, idleTimeoutSeconds: 90}}}\n",
        );
        let t = f.services[0].request_timeout.as_ref().unwrap();
        assert_eq!(t.value, Timeout::after(Duration::from_secs(60)));
        let f = read(
            "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: a}\nspec: {template: {spec: {idleTimeoutSeconds: -1}}}\n",
        );
        assert_eq!(f.diagnostics.len(), 1);
    }

    #[test]
    fn zero_timeout_seconds_is_the_default_not_the_maximum() {
        let f = read(
            "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: a}\nspec: {template: {spec: {timeoutSeconds: 0}}}\n",
        );
        let t = &f.timeouts[0].timeout;
        assert_eq!(t.value, Timeout::after(Duration::from_secs(300)));
        assert!(t.is_default());
    }
}
