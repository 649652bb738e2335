//! The Ingress reader for controllers other than ingress-nginx: one
//! document in, the controller's edges to the Ingress's backends out
//! (see the module's doc for the controllers and their defaults).
//!
//! Pure and bounded: reads the document and, for its class, the
//! `IngressClass`es of the same file.

use crate::extract::{DocCtx, Facts};
use crate::model::calls::{IdentityKind, MeshHint};
use crate::model::*;
use crate::source::Span;
use crate::systems::nginx::ingress::{INGRESS_APIS, PREFIX, backends, services};
use crate::yaml::Yaml;

/// A controller this reader knows: the names its `IngressClass` is
/// installed with, its `spec.controller` values, the node it is on the
/// graph, and its retries.
struct Controller {
    classes: &'static [&'static str],
    controllers: &'static [&'static str],
    node: &'static str,
    label: &'static str,
    retries: Retries,
}

#[derive(Clone, Copy)]
enum Retries {
    /// None read: one try.
    None,
    /// Kong's Service `retries` default.
    Kong,
    /// The Istio mesh's default, through the hop's sidecar.
    IstioMesh,
    /// Contour's Ingress annotations (`contour.rs`).
    Contour,
}

/// The controllers' class names (their charts' and docs' defaults) and
/// `IngressClass` `spec.controller` values.
const CONTROLLERS: &[Controller] = &[
    Controller {
        classes: &["traefik"],
        controllers: &["traefik.io/ingress-controller"],
        node: "traefik",
        label: "Traefik",
        retries: Retries::None,
    },
    Controller {
        classes: &["haproxy"],
        controllers: &[
            "haproxy.org/ingress-controller",
            "haproxy-ingress.github.io/controller",
        ],
        node: "haproxy-ingress",
        label: "HAProxy",
        retries: Retries::None,
    },
    Controller {
        classes: &["kong"],
        controllers: &["ingress-controllers.konghq.com/kong"],
        node: "kong",
        label: "Kong",
        retries: Retries::Kong,
    },
    Controller {
        classes: &["alb"],
        controllers: &["ingress.k8s.aws/alb"],
        node: "aws-alb",
        label: "AWS Load Balancer Controller",
        retries: Retries::None,
    },
    Controller {
        classes: &["gce", "gce-internal"],
        controllers: &["k8s.io/ingress-gce"],
        node: "gce-load-balancer",
        label: "GCE",
        retries: Retries::None,
    },
    Controller {
        classes: &["contour"],
        controllers: &[
            "projectcontour.io/contour",
            "projectcontour.io/ingress-controller",
        ],
        node: "contour",
        label: "Contour",
        retries: Retries::Contour,
    },
    Controller {
        classes: &["istio"],
        controllers: &["istio.io/ingress-controller"],
        node: "istio-ingressgateway",
        label: "Istio",
        retries: Retries::IstioMesh,
    },
];

/// Read one document; `false` when it is not an Ingress of a known
/// controller other than ingress-nginx.
pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    if root.get("kind").and_then(|v| v.as_str()) != Some("Ingress")
        || !root
            .get("apiVersion")
            .and_then(|v| v.as_str())
            .is_some_and(|a| INGRESS_APIS.contains(&a))
    {
        return false;
    }
    let entries = root
        .path(&["metadata", "annotations"])
        .filter(|a| a.is_map())
        .map(|a| a.entries())
        .unwrap_or_default();
    // ingress-nginx's own (its reader takes it).
    if entries.iter().any(|e| e.key.starts_with(PREFIX)) {
        return false;
    }
    let class = entries
        .iter()
        .find(|e| e.key == "kubernetes.io/ingress.class")
        .map(|e| e.value)
        .or_else(|| root.path(&["spec", "ingressClassName"]));
    let Some((class, class_span)) = class.and_then(|c| c.as_str().map(|s| (s.trim(), c.span())))
    else {
        return false;
    };
    if class.contains("nginx") {
        return false;
    }
    let Some(c) = controller_of(ctx, class) else {
        return false;
    };
    let name = root
        .path(&["metadata", "name"])
        .and_then(|v| v.as_str())
        .unwrap_or("unnamed");
    let name_span = root
        .path(&["metadata", "name"])
        .map(|v| v.span())
        .unwrap_or(root.span());
    let backends = backends(root);
    if backends.is_empty() {
        return true;
    }
    let mut policies = Vec::new();
    match c.retries {
        Retries::None => {}
        Retries::Kong => {}
        Retries::Contour => {
            if let Some(p) = super::contour::policy(&entries, name, name_span) {
                policies.push(facts.policies.len());
                facts.policies.push(p);
            }
        }
        Retries::IstioMesh => {
            let mut decl = ServiceDecl::new(
                c.node,
                class_span,
                IdentityKind::Workload,
                format!("{} Ingress controller", c.label),
                Vec::new(),
            );
            decl.placement.mesh.push(MeshHint {
                mesh: System::Istio,
                on: true,
                span: class_span,
            });
            facts.services.push(decl);
        }
    }
    for (b, routes) in services(&backends) {
        // Kong: one Kong Service, and so one retry policy, per Kubernetes
        // Service the Ingress names.
        let mut policies = policies.clone();
        if let Retries::Kong = c.retries {
            policies.push(facts.policies.len());
            facts.policies.push(kong_policy(ctx, name, name_span, b));
        }
        facts.route_paths.extend(routes);
        facts.edges.push(CallEdge {
            client: None,
            caller: Some(c.node.to_string()),
            callee: b.service.clone(),
            span: b.span,
            policies,
            via: format!("{} Ingress `{name}` (class `{class}`)", c.label),
            protocol: None,
        });
    }
    true
}

/// The controller of a class: by the name its controller installs, or
/// by an `IngressClass` of the same file naming its `spec.controller`.
fn controller_of(ctx: &DocCtx<'_>, class: &str) -> Option<&'static Controller> {
    if let Some(c) = CONTROLLERS.iter().find(|c| c.classes.contains(&class)) {
        return Some(c);
    }
    let controller = ctx.file.documents.iter().find_map(|doc| {
        let root: Yaml<'_> = ctx.file.root(doc);
        (root.get("kind").and_then(|v| v.as_str()) == Some("IngressClass")
            && root.path(&["metadata", "name"]).and_then(|v| v.as_str()) == Some(class))
        .then(|| root.path(&["spec", "controller"]).and_then(|v| v.as_str()))
        .flatten()
    })?;
    CONTROLLERS
        .iter()
        .find(|c| c.controllers.iter().any(|k| controller.starts_with(k)))
}

/// Kong's retries for one Kubernetes Service an Ingress names: the
/// Service's `konghq.com/retries` annotation where a Service of that name in
/// the same file writes one (Kong/kubernetes-ingress-controller
/// `internal/dataplane/kongstate/service.go`, `overrideRetries`, at 783d8df3:
/// read from the Kubernetes Service's annotations, an unparsable value
/// ignored), else Kong's default.
fn kong_policy(
    ctx: &DocCtx<'_>,
    name: &str,
    at: Span,
    backend: &crate::systems::nginx::ingress::Backend,
) -> RetryPolicy {
    let written = ctx.file.documents.iter().find_map(|doc| {
        let root: Yaml<'_> = ctx.file.root(doc);
        if root.get("kind").and_then(|v| v.as_str()) != Some("Service")
            || root.path(&["metadata", "name"]).and_then(|v| v.as_str())
                != Some(backend.service.as_str())
        {
            return None;
        }
        let v = root.path(&["metadata", "annotations", "konghq.com/retries"])?;
        let n = v.as_str()?.trim().parse::<u64>().ok()?;
        Some((
            n,
            v.span(),
            v.as_str().unwrap_or_default().trim().to_string(),
        ))
    });
    let attempts = match written {
        Some((retries, span, text)) => Located::written(
            Attempts {
                count: AttemptCount::Finite(retries + 1),
                written_as: format!("konghq.com/retries: {text}"),
            },
            span,
        ),
        None => {
            let retries = super::KONG_DEFAULT_RETRIES;
            Located::default_at(
                Attempts {
                    count: AttemptCount::Finite(retries + 1),
                    written_as: format!(
                        "konghq.com/retries unset: Kong's default of {retries} retries"
                    ),
                },
                at,
            )
        }
    };
    let mut p = RetryPolicy::new(System::Kong, at, attempts);
    p.name = Some(name.to_string());
    p.scope.callee = Some(Located::written(backend.service.clone(), backend.span));
    p.platform_backoff = true;
    p.budget_site = BudgetSite::NotOffered;
    p
}
