//! The Ingress reader for controllers other than ingress-nginx: one
//! document in, the controller's edges to the Ingress's backends out
//! (see the module's doc for the controllers and their defaults).
//!
//! Pure and bounded: reads the document and, for its class, the
//! `IngressClass`es of the same file.

use crate::diag::unknown_setting;
use crate::extract::{DocCtx, Facts};
use crate::model::calls::{IdentityKind, MeshHint};
use crate::model::ingress_links::{IngressClassDecl, KongRetries, PendingIngress};
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
        node: TRAEFIK_NODE,
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

/// Traefik's node on the graph.
pub(super) const TRAEFIK_NODE: &str = "traefik";

/// Read one document; `false` when it is none of: an Ingress of a class
/// other than ingress-nginx's, an `IngressClass`, a Kubernetes Service
/// writing `konghq.com/retries`, a Traefik `Middleware` with a `retry`
/// or an `IngressRoute`.
pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    match root.get("kind").and_then(|v| v.as_str()) {
        Some("IngressClass") => return ingress_class(root, facts),
        Some("Service") => return kong_service(root, facts),
        Some("Middleware") if super::traefik::is_crd(root, "Middleware") => {
            return super::traefik::middleware(ctx, facts);
        }
        Some("IngressRoute") if super::traefik::is_crd(root, "IngressRoute") => {
            return super::traefik::ingress_route(ctx, facts);
        }
        Some("Ingress") => {}
        None => return super::traefik::dynamic_config(ctx, facts),
        _ => return false,
    }
    if !root
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
    let name = root
        .path(&["metadata", "name"])
        .and_then(|v| v.as_str())
        .unwrap_or("unnamed");
    let name_span = root
        .path(&["metadata", "name"])
        .map(|v| v.span())
        .unwrap_or(root.span());
    let backends = backends(root);
    let mut edges = Vec::new();
    let mut routes = Vec::new();
    for (b, r) in services(&backends) {
        routes.extend(r);
        edges.push(CallEdge {
            client: None,
            caller: None,
            callee: b.service.clone(),
            span: b.span,
            policies: Vec::new(),
            via: String::new(),
            protocol: None,
        });
    }
    let ingress = PendingIngress {
        class: class.to_string(),
        class_span,
        name: name.to_string(),
        name_span,
        namespace: root
            .path(&["metadata", "namespace"])
            .and_then(|v| v.as_str())
            .map(|s| s.trim().to_string()),
        edges,
        routes,
        middlewares: super::traefik::annotation_refs(&entries),
        contour: super::contour::policy(&entries, name, name_span).map(Box::new),
    };
    match controller_of(ctx, class) {
        Some(_) if ingress.edges.is_empty() => {}
        Some(c) => {
            if matches!(c.retries, Retries::Kong)
                && let Some(e) = entries.iter().find(|e| e.key == KONG_RETRIES)
            {
                facts.diagnostics.push(unknown_setting::wrong_place(
                    e.value.span(),
                    KONG_RETRIES,
                    "read on an Ingress",
                    "read from the Kubernetes Service each backend names (the Kong Service's `retries`)",
                    "move `konghq.com/retries` to the annotations of the Kubernetes Services this Ingress sends to",
                ));
            }
            draw(c, ingress, Some(ctx), facts);
        }
        // Another file's `IngressClass` may name the controller.
        None if !ingress.edges.is_empty() => facts.ingress.pending.push(ingress),
        None => {}
    }
    true
}

/// The Kong annotation that sets a Kong Service's `retries`.
const KONG_RETRIES: &str = "konghq.com/retries";

/// An `IngressClass`: its name and controller, for the Ingresses of
/// other files.
fn ingress_class(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let (Some(name), Some(controller)) = (
        root.path(&["metadata", "name"]),
        root.path(&["spec", "controller"]).and_then(|v| v.as_str()),
    ) else {
        return false;
    };
    let Some(n) = name.as_str() else { return false };
    facts.ingress.classes.push(IngressClassDecl {
        name: n.trim().to_string(),
        controller: controller.trim().to_string(),
        span: name.span(),
    });
    true
}

/// A Kubernetes Service writing `konghq.com/retries`, for the Kong
/// Ingresses of other files (an unparsable value is ignored, as the
/// controller ignores it).
fn kong_service(root: Yaml<'_>, facts: &mut Facts) -> bool {
    if root.get("apiVersion").and_then(|v| v.as_str()) != Some("v1") {
        return false;
    }
    let Some(v) = root.path(&["metadata", "annotations", KONG_RETRIES]) else {
        return false;
    };
    let (Some(text), Some(service)) = (
        v.as_str().map(str::trim),
        root.path(&["metadata", "name"]).and_then(|n| n.as_str()),
    ) else {
        return false;
    };
    let Ok(retries) = text.parse::<u64>() else {
        return false;
    };
    facts.ingress.kong_retries.push(KongRetries {
        namespace: root
            .path(&["metadata", "namespace"])
            .and_then(|n| n.as_str())
            .map(|s| s.trim().to_string()),
        service: service.trim().to_string(),
        retries,
        written: text.to_string(),
        span: v.span(),
    });
    true
}

/// Draw an Ingress of a class whose controller another file's
/// `IngressClass` names (`link::ingress_links`); `false` when no
/// controller known here has that `spec.controller`.
pub fn draw_pending(controller: &str, ingress: PendingIngress, facts: &mut Facts) -> bool {
    match by_controller(controller) {
        Some(c) => {
            draw(c, ingress, None, facts);
            true
        }
        None => false,
    }
}

/// The controller's hop to each backend of the Ingress, with its retries.
/// `ctx` is the Ingress's own document where it is read (its file's
/// Services give Kong's `retries`); the link step draws without it.
fn draw(c: &Controller, ingress: PendingIngress, ctx: Option<&DocCtx<'_>>, facts: &mut Facts) {
    let PendingIngress {
        class,
        class_span,
        name,
        name_span,
        edges,
        routes,
        middlewares,
        contour,
        namespace,
        ..
    } = ingress;
    let mut policies = Vec::new();
    match c.retries {
        Retries::None | Retries::Kong => {}
        Retries::Contour => {
            if let Some(p) = contour {
                policies.push(facts.policies.len());
                facts.policies.push(*p);
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
    facts.route_paths.extend(routes);
    for mut e in edges {
        // Kong: one Kong Service, and so one retry policy, per Kubernetes
        // Service the Ingress names.
        let mut policies = policies.clone();
        if let Retries::Kong = c.retries {
            let k = facts.policies.len();
            policies.push(k);
            let ns = namespace.as_deref();
            facts
                .policies
                .push(kong_policy(ctx, &name, ns, name_span, &e.callee, e.span));
            if let Some(ns) = ns {
                facts.ingress.kong_namespaces.push((k, ns.to_string()));
            }
        }
        if c.node == TRAEFIK_NODE {
            super::traefik::refs_for_edge(facts, facts.edges.len(), &middlewares);
        }
        e.caller = Some(c.node.to_string());
        e.policies = policies;
        e.via = format!("{} Ingress `{name}` (class `{class}`)", c.label);
        facts.edges.push(e);
    }
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
    by_controller(controller)
}

/// The controller whose `IngressClass` `spec.controller` this is.
fn by_controller(controller: &str) -> Option<&'static Controller> {
    CONTROLLERS
        .iter()
        .find(|c| c.controllers.iter().any(|k| controller.starts_with(k)))
}

/// Kong's retries for one Kubernetes Service an Ingress names: the
/// Service's `konghq.com/retries` annotation where a Service of that name in
/// the same file (and the Ingress's namespace, where both write one)
/// writes one (Kong/kubernetes-ingress-controller
/// `internal/dataplane/kongstate/service.go`, `overrideRetries`, at 783d8df3:
/// read from the Kubernetes Service's annotations, an unparsable value
/// ignored), else Kong's default.
fn kong_policy(
    ctx: Option<&DocCtx<'_>>,
    name: &str,
    namespace: Option<&str>,
    at: Span,
    service: &str,
    service_span: Span,
) -> RetryPolicy {
    let docs = ctx.map(|c| c.file.documents.as_slice()).unwrap_or_default();
    let written = docs.iter().find_map(|doc| {
        let ctx = ctx?;
        let root: Yaml<'_> = ctx.file.root(doc);
        let ns = root
            .path(&["metadata", "namespace"])
            .and_then(|v| v.as_str());
        if root.get("kind").and_then(|v| v.as_str()) != Some("Service")
            || root.path(&["metadata", "name"]).and_then(|v| v.as_str()) != Some(service)
            || matches!((ns, namespace), (Some(a), Some(b)) if a.trim() != b)
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
    p.scope.callee = Some(Located::written(service.to_string(), service_span));
    p.platform_backoff = true;
    p.budget_site = BudgetSite::NotOffered;
    p
}
