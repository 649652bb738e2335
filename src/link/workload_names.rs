//! Workloads named by a label other workloads share (issue 17). The
//! workload reader names a Deployment by its `app.kubernetes.io/name` or
//! `app` label, so that versions of one service are one (bookinfo's
//! `reviews-v1`, `-v2`, `-v3`, all `app: reviews`, which the Service
//! `reviews` selects together). Where workloads of other names share the
//! value, Kubernetes Services select some of them, and none selects them
//! all, the label names the application, not a service
//! (dotnet-architecture/eShopOnDapr ad9a07b4 `deploy/k8s/helm/templates/*.yaml`:
//! every Deployment `app: eshop`, each selected by its own Service through
//! `service: basket`, `service: seq`, ...): each workload is then its own
//! service, by its object's name, and the Services selecting it join it
//! as they join any workload (`graph::identity`).

use crate::model::ScannedFile;
use crate::model::ServiceDecl;
use crate::model::calls::IdentityKind;
use crate::source::Span;
use std::collections::{BTreeMap, BTreeSet};

/// The most workloads of one label weighed (each against every Service).
const MAX_GROUP: usize = 1024;

/// Rename the workloads of a shared label that no Service selects
/// together, in their declarations and in the calls, stand-ins and
/// unresolved calls of their documents.
pub fn workload_names(files: &mut [ScannedFile]) {
    // The label's name -> its workloads (file, declaration).
    let mut groups: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
    for (fi, f) in files.iter().enumerate() {
        for (si, s) in f.facts.services.iter().enumerate() {
            if s.kind == IdentityKind::Workload && s.placement.object.is_some() {
                groups.entry(s.name.clone()).or_default().push((fi, si));
            }
        }
    }
    if groups.is_empty() {
        return;
    }
    let services: Vec<&ServiceDecl> = files
        .iter()
        .flat_map(|f| f.facts.services.iter())
        .filter(|s| s.kind == IdentityKind::KubeService && !s.placement.labels.is_empty())
        .collect();
    let mut renames: Vec<(usize, usize)> = Vec::new();
    for members in groups.values() {
        let decl = |&(fi, si): &(usize, usize)| &files[fi].facts.services[si];
        let object = |m: &(usize, usize)| decl(m).placement.object.clone();
        let objects: BTreeSet<String> = members.iter().filter_map(object).collect();
        if objects.len() < 2 || members.len() > MAX_GROUP {
            continue;
        }
        // Each object, by the Services that select one of its declarations.
        let selected_by = |o: &String| -> BTreeSet<usize> {
            members
                .iter()
                .filter(|m| object(m).as_ref() == Some(o))
                .flat_map(|m| {
                    services
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| selects(s, decl(m)))
                        .map(|(i, _)| i)
                })
                .collect()
        };
        let by: Vec<BTreeSet<usize>> = objects.iter().map(selected_by).collect();
        let any = by.iter().any(|s| !s.is_empty());
        let together = by
            .first()
            .is_some_and(|first| first.iter().any(|i| by.iter().all(|s| s.contains(i))));
        // No Service at all: nothing tells them apart but their names.
        if any && !together {
            renames.extend(members.iter().copied());
        }
    }
    let mut by_file: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for (fi, si) in renames {
        by_file.entry(fi).or_default().insert(si);
    }
    for (fi, renamed) in by_file {
        rename(&mut files[fi], &renamed);
    }
}

/// Whether Service `svc`'s selector picks workload `w`'s pods (the same
/// namespace where both write one), as `graph::identity` joins them.
fn selects(svc: &ServiceDecl, w: &ServiceDecl) -> bool {
    let ns_ok = match (&w.placement.namespace, &svc.placement.namespace) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    ns_ok
        && svc
            .placement
            .labels
            .iter()
            .all(|kv| w.placement.labels.contains(kv))
}

/// A name fit to stand for a service: no template left in it.
fn plain(name: &str) -> bool {
    !name.is_empty() && name.len() <= 253 && !name.contains(['{', '}', '$', ' '])
}

/// The declarations of `f` to rename, by index: the calls, stand-ins
/// and unresolved calls a workload's document makes carry its name as
/// their caller, and each is the document's of the nearest declaration
/// of that name before it (its `metadata.name`; the first one where none
/// is before it). Spans, not documents: a Helm template's facts are
/// mapped back to the template's text, places kept in order.
fn rename(f: &mut ScannedFile, renamed: &BTreeSet<usize>) {
    let facts = &mut f.facts;
    // Every label-named workload (a caller's name may be another's too),
    // with its new name where it takes one.
    let decls: Vec<(String, Span, Option<String>)> = facts
        .services
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == IdentityKind::Workload)
        .filter_map(|(i, s)| {
            let object = s.placement.object.as_ref()?;
            let new = (renamed.contains(&i) && *object != s.name && plain(object))
                .then(|| object.clone());
            Some((s.name.clone(), s.span, new))
        })
        .collect();
    // The new name of the caller `name` at `at`, where it takes one.
    let owner = |name: &str, at: Span| -> Option<String> {
        let of: Vec<&(String, Span, Option<String>)> =
            decls.iter().filter(|d| d.0 == name).collect();
        of.iter()
            .rev()
            .find(|d| d.1.start <= at.start)
            .or_else(|| of.first())
            .and_then(|d| d.2.clone())
    };
    let stand_in = |name: &str| format!("{}{name}\t", crate::extract::config_env::CLIENT);
    for e in facts.edges.iter_mut() {
        if let Some(old) = e.caller.clone()
            && let Some(new) = owner(&old, e.span)
        {
            e.caller = Some(new);
        }
        let stood = e
            .client
            .as_deref()
            .and_then(crate::extract::config_env::parts)
            .map(|(w, v)| (w.to_string(), v.to_string()));
        if let Some((old, var)) = stood
            && let Some(new) = owner(&old, e.span)
        {
            e.client = Some(format!("{}{var}", stand_in(&new)));
        }
    }
    for u in facts.unresolved.iter_mut() {
        if let Some(old) = u.caller.clone()
            && let Some(new) = owner(&old, u.span)
        {
            u.caller = Some(new);
        }
    }
    for (i, s) in facts.services.iter_mut().enumerate() {
        if renamed.contains(&i)
            && let Some(object) = &s.placement.object
            && plain(object)
        {
            s.name = object.clone();
        }
    }
}
