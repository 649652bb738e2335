//! What Ingress-like manifests say that only other files complete (issue
//! 17, stop 46): the `IngressClass` that names an Ingress's controller,
//! the Kubernetes Service whose `konghq.com/retries` Kong reads, the
//! Traefik `Middleware` a router runs. Written by
//! `systems::ingress_classes`, joined by `link::ingress_links`.

use super::{CallEdge, facts::RoutePaths};
use crate::source::Span;
use serde::{Deserialize, Serialize};

/// One file's share of the joins.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IngressLinks {
    /// `IngressClass` objects: their name and `spec.controller`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub classes: Vec<IngressClassDecl>,
    /// Ingresses whose class is neither a controller's own name nor an
    /// `IngressClass` of their file: drawn where another file's
    /// `IngressClass` names the controller, else nothing.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub pending: Vec<PendingIngress>,
    /// Kubernetes Services that write `konghq.com/retries`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub kong_retries: Vec<KongRetries>,
    /// Traefik `Middleware`s with a `retry`, each with its policy (an
    /// index into the file's policies), and `chain` middlewares, each with
    /// the middlewares it runs.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub middlewares: Vec<MiddlewareDecl>,
    /// The middlewares a Traefik router runs, by the edge it draws (an
    /// index into the file's edges).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub middleware_refs: Vec<MiddlewareRefs>,
    /// Kong hops of an Ingress that writes its namespace: (the hop's
    /// policy, an index into the file's policies; the namespace). Kong
    /// reads `konghq.com/retries` from the Service of that namespace.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub kong_namespaces: Vec<(usize, String)>,
}

impl IngressLinks {
    pub fn is_empty(&self) -> bool {
        *self == IngressLinks::default()
    }

    /// Every span, for `extract::remap_facts`.
    pub fn spans_mut(&mut self) -> Vec<&mut Span> {
        let IngressLinks {
            classes,
            pending,
            kong_retries,
            middlewares,
            middleware_refs,
            kong_namespaces: _,
        } = self;
        let mut out: Vec<&mut Span> = Vec::new();
        out.extend(classes.iter_mut().map(|c| &mut c.span));
        for p in pending {
            out.push(&mut p.class_span);
            out.push(&mut p.name_span);
            out.extend(p.edges.iter_mut().map(|e| &mut e.span));
            out.extend(p.routes.iter_mut().map(|r| &mut r.span));
            out.extend(p.middlewares.iter_mut().map(|m| &mut m.span));
        }
        out.extend(kong_retries.iter_mut().map(|k| &mut k.span));
        for m in middlewares {
            out.push(&mut m.span);
            out.extend(m.chain.iter_mut().map(|c| &mut c.span));
        }
        for r in middleware_refs {
            out.extend(r.refs.iter_mut().map(|m| &mut m.span));
        }
        out
    }
}

/// An `IngressClass`: its name and `spec.controller`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IngressClassDecl {
    pub name: String,
    pub controller: String,
    pub span: Span,
}

/// An Ingress of a class this file does not resolve, with what its
/// controller's hop needs: its edges (no caller yet), their routes, and
/// the Traefik middlewares it names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingIngress {
    pub class: String,
    pub class_span: Span,
    pub name: String,
    pub name_span: Span,
    pub namespace: Option<String>,
    pub edges: Vec<CallEdge>,
    pub routes: Vec<RoutePaths>,
    pub middlewares: Vec<MiddlewareName>,
    /// The Ingress's `projectcontour.io/` retries, read as Contour reads
    /// them, for a class that turns out to be Contour's.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub contour: Option<Box<super::RetryPolicy>>,
}

/// A Kubernetes Service's `konghq.com/retries`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KongRetries {
    pub namespace: Option<String>,
    pub service: String,
    pub retries: u64,
    /// The value as written.
    pub written: String,
    pub span: Span,
}

/// A Traefik `Middleware` with a `retry` (its policy) or a `chain` (the
/// middlewares it runs, in order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MiddlewareDecl {
    pub namespace: Option<String>,
    pub name: String,
    /// A Kubernetes `Middleware` (Traefik's `kubernetescrd` provider), not
    /// one of the file provider's `http.middlewares`.
    pub crd: bool,
    pub policy: Option<usize>,
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub chain: Vec<MiddlewareName>,
    pub span: Span,
}

/// The middlewares of the router that draws one edge, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MiddlewareRefs {
    pub edge: usize,
    pub refs: Vec<MiddlewareName>,
}

/// A middleware as a router names it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MiddlewareName {
    /// The namespace it is looked for in, where the reference says
    /// (an `IngressRoute`'s own, or its `namespace`).
    pub namespace: Option<String>,
    /// The name: for an Ingress annotation, the provider's id
    /// `<namespace>-<name>` (the `@kubernetescrd` suffix taken off).
    pub name: String,
    /// Whether `name` is `<namespace>-<name>`.
    pub qualified: bool,
    /// Whether it names a Kubernetes `Middleware` (`@kubernetescrd`), not
    /// one of the file provider's (`@file`).
    pub crd: bool,
    pub span: Span,
}

impl MiddlewareName {
    /// Whether `decl` is the middleware this names. A side that says no
    /// namespace (a manifest applied with `-n`) matches any.
    pub fn names(&self, decl: &MiddlewareDecl) -> bool {
        if self.crd != decl.crd {
            return false;
        }
        if self.qualified {
            return match &decl.namespace {
                Some(ns) => self.name == format!("{ns}-{}", decl.name),
                None => {
                    self.name == decl.name
                        || self
                            .name
                            .strip_suffix(decl.name.as_str())
                            .is_some_and(|p| p.len() > 1 && p.ends_with('-'))
                }
            };
        }
        self.name == decl.name
            && match (&self.namespace, &decl.namespace) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }
}
