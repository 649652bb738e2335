//! Ingress controllers' settings written in another file than the
//! Ingress or route they apply to (issue 17, stop 46):
//! - an Ingress whose class only an `IngressClass` of another file
//!   resolves is drawn through the controller its `spec.controller` names
//!   (two declarations of the class that disagree: none);
//! - a Kong hop whose Kubernetes Service is declared in another file takes
//!   that Service's `konghq.com/retries` (Kong/kubernetes-ingress-controller
//!   `internal/dataplane/kongstate/service.go`, `override` and
//!   `overrideRetries`, at 073bba42: read from the Kubernetes Service's
//!   annotations only), in the Ingress's namespace where both write one;
//! - a Traefik router's `Retry` middleware, declared in any file, is a
//!   layer of the edges the router draws: its own policy where it is in
//!   the same file, else a use of it ([`RetryPolicy::use_of`]: its
//!   settings are judged where they are written).
//!
//! Where two files declare what a name refers to, the nearest one (the
//! longest common folder) is taken; two equally near: none. A declaration
//! in a fixture folder (`Facts::test_input`, a test's input) is seen by
//! fixture files only, never by a deployed Ingress or route.

use super::{nearest, place};
use crate::model::ScannedFile;
use crate::model::ingress_links::{MiddlewareDecl, MiddlewareName};
use crate::model::*;
use std::collections::BTreeMap;

pub fn ingress_links(files: &mut [ScannedFile]) {
    if files.iter().all(|f| f.facts.ingress.is_empty()) {
        return;
    }
    classes(files);
    kong_services(files);
    middlewares(files);
}

/// Pending Ingresses drawn through the controller another file's
/// `IngressClass` names.
fn classes(files: &mut [ScannedFile]) {
    // Every file's classes, and the deployed files' only.
    let mut classes: [BTreeMap<String, Vec<String>>; 2] = Default::default();
    for f in files.iter() {
        for c in &f.facts.ingress.classes {
            for (k, map) in classes.iter_mut().enumerate() {
                if k == 1 && f.facts.test_input {
                    continue;
                }
                let v = map.entry(c.name.clone()).or_default();
                if !v.contains(&c.controller) {
                    v.push(c.controller.clone());
                }
            }
        }
    }
    for f in files.iter_mut() {
        if f.facts.ingress.pending.is_empty() {
            continue;
        }
        let seen = &classes[usize::from(!f.facts.test_input)];
        for p in std::mem::take(&mut f.facts.ingress.pending) {
            if let Some([controller]) = seen.get(&p.class).map(Vec::as_slice) {
                crate::systems::ingress_classes::extract::draw_pending(controller, p, &mut f.facts);
            }
        }
    }
}

/// Kong hops at Kong's default `retries` whose Kubernetes Service another
/// file (or another document) declares with `konghq.com/retries`.
fn kong_services(files: &mut [ScannedFile]) {
    // Service name -> (file, index into its `kong_retries`).
    let mut by_name: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
    for (id, f) in files.iter().enumerate() {
        for (i, k) in f.facts.ingress.kong_retries.iter().enumerate() {
            by_name.entry(k.service.clone()).or_default().push((id, i));
        }
    }
    if by_name.is_empty() {
        return;
    }
    for id in 0..files.len() {
        for j in 0..files[id].facts.policies.len() {
            let p = &files[id].facts.policies[j];
            if p.system != System::Kong || !p.attempts.is_default() {
                continue;
            }
            let Some(candidates) = p.scope.callee.as_ref().and_then(|c| by_name.get(&c.value))
            else {
                continue;
            };
            // Only a Service of the Ingress's namespace, where both write
            // one (a manifest with none is applied to any).
            let ns = files[id]
                .facts
                .ingress
                .kong_namespaces
                .iter()
                .find(|(k, _)| *k == j)
                .map(|(_, n)| n.as_str());
            let candidates: Vec<(usize, usize)> = candidates
                .iter()
                .copied()
                .filter(|&(kf, _)| !files[kf].facts.test_input || files[id].facts.test_input)
                .filter(|&(kf, ki)| {
                    match (
                        ns,
                        files[kf].facts.ingress.kong_retries[ki]
                            .namespace
                            .as_deref(),
                    ) {
                        (Some(a), Some(b)) => a == b.trim(),
                        _ => true,
                    }
                })
                .collect();
            if candidates.is_empty() {
                continue;
            }
            let here = files[id].source.path.clone();
            let Some((kf, ki)) = nearest(&here, &candidates, files) else {
                continue;
            };
            let k = files[kf].facts.ingress.kong_retries[ki].clone();
            let from = place(&files[kf], k.span);
            let p = &mut files[id].facts.policies[j];
            p.attempts = Located::inherited(
                Attempts {
                    count: AttemptCount::Finite(k.retries.saturating_add(1)),
                    written_as: format!("konghq.com/retries: {}", k.written),
                },
                p.span,
            );
            if !p.settings_from.contains(&from) {
                p.settings_from.push(from);
            }
        }
    }
}

/// How deep chains of middlewares are followed.
const MAX_CHAIN_DEPTH: usize = 4;

/// Traefik routers' `Retry` middlewares, as layers of their edges (those
/// a `chain` middleware they name runs too).
fn middlewares(files: &mut [ScannedFile]) {
    let mut decls: Vec<(usize, MiddlewareDecl)> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        decls.extend(f.facts.ingress.middlewares.iter().map(|m| (id, m.clone())));
    }
    if decls.is_empty() {
        return;
    }
    // A deployed router sees deployed middlewares only.
    let deployed: Vec<(usize, MiddlewareDecl)> = decls
        .iter()
        .filter(|(f, _)| !files[*f].facts.test_input)
        .cloned()
        .collect();
    for id in 0..files.len() {
        let refs = files[id].facts.ingress.middleware_refs.clone();
        for r in refs {
            if r.edge >= files[id].facts.edges.len() {
                continue;
            }
            let here = files[id].source.path.clone();
            let mut found: Vec<(usize, usize, &MiddlewareName)> = Vec::new();
            let decls = if files[id].facts.test_input {
                &decls
            } else {
                &deployed
            };
            for name in &r.refs {
                retries_of(name, &here, decls, files, 0, &mut found);
            }
            for (mf, mi, name) in found {
                let index = if mf == id {
                    mi
                } else {
                    let decl = &files[mf].facts.policies[mi];
                    let from = place(&files[mf], decl.span);
                    let mut p = decl.rebased(name.span);
                    p.settings_from.push(from);
                    p.use_of = Some(format!("Middleware {}", name.name));
                    let f = &mut files[id].facts;
                    if let Some(k) = f.policies.iter().position(|q| *q == p) {
                        k
                    } else {
                        f.policies.push(p);
                        f.policies.len() - 1
                    }
                };
                let e = &mut files[id].facts.edges[r.edge];
                if !e.policies.contains(&index) {
                    e.policies.push(index);
                }
            }
        }
    }
}

/// The retry policies (file, index) the middleware `name` runs: its own,
/// or those of the middlewares it chains, with the name the router
/// wrote.
fn retries_of<'n>(
    name: &'n MiddlewareName,
    here: &std::path::Path,
    decls: &[(usize, MiddlewareDecl)],
    files: &[ScannedFile],
    depth: usize,
    out: &mut Vec<(usize, usize, &'n MiddlewareName)>,
) {
    let candidates: Vec<(usize, usize)> = decls
        .iter()
        .enumerate()
        .filter(|(_, (_, d))| name.names(d))
        .map(|(k, (f, _))| (*f, k))
        .collect();
    let Some((_, k)) = nearest(here, &candidates, files) else {
        return;
    };
    let (f, d) = &decls[k];
    match d.policy {
        Some(p) => out.push((*f, p, name)),
        None if depth < MAX_CHAIN_DEPTH => {
            for member in &d.chain {
                let mut found = Vec::new();
                retries_of(member, here, decls, files, depth + 1, &mut found);
                // The chain's retries, named as the router names the chain.
                out.extend(found.into_iter().map(|(f, p, _)| (f, p, name)));
            }
        }
        None => {}
    }
}
