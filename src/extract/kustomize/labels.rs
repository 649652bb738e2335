//! `commonLabels` and `labels`: labels added to every resource, and,
//! where they select (`commonLabels`, or `labels` with
//! `includeSelectors`), to the selectors and pod templates too, so that a
//! Service and the workload it picks change together; `labels` with
//! `includeTemplates` adds them to pod templates without the selectors.
//!
//! The places are kustomize's field specs
//! (kubernetes-sigs/kustomize api/internal/konfig/builtinpluginconsts/
//! commonlabels.go at d4a6a27 for the selectors, metadatalabels.go for the
//! templates; site/content/en/docs/Reference/API/labels.md for the
//! flags, both `false` by default). Affinity, topology spread, network
//! policy and disruption budget selectors are not written: the graph
//! reads none of them.

use super::Resource;
use super::tree::{Node, T};

/// One set of labels and where it goes.
struct Set<'k> {
    pairs: Vec<(&'k str, &'k Node)>,
    selectors: bool,
    templates: bool,
}

fn pairs(n: Option<&Node>) -> Vec<(&str, &Node)> {
    match n.map(|n| &n.t) {
        Some(T::Map(m)) => m
            .iter()
            .filter(|(_, v)| v.str().is_some())
            .map(|(k, v)| (k.name.as_str(), v))
            .collect(),
        _ => Vec::new(),
    }
}

fn flag(n: &Node, key: &str) -> bool {
    n.get(key).and_then(Node::str) == Some("true")
}

/// The kustomization's label sets.
fn sets(k: &Node) -> Vec<Set<'_>> {
    let mut out = vec![Set {
        pairs: pairs(k.get("commonLabels")),
        selectors: true,
        templates: true,
    }];
    if let Some(T::List(l)) = k.get("labels").map(|n| &n.t) {
        for item in l {
            let selectors = flag(item, "includeSelectors");
            out.push(Set {
                pairs: pairs(item.get("pairs")),
                selectors,
                templates: selectors || flag(item, "includeTemplates"),
            });
        }
    }
    out.retain(|s| !s.pairs.is_empty());
    out
}

/// The map at `path` below `n`, made where absent if `create`.
fn map_at<'n>(n: &'n mut Node, path: &[&str], create: bool) -> Option<&'n mut Node> {
    let mut cur = n;
    for key in path {
        if !matches!(cur.t, T::Map(_)) {
            return None;
        }
        if cur.get(key).is_none() {
            if !create {
                return None;
            }
            cur.set(key, Node::new(T::Map(Vec::new()), cur.at));
        }
        cur = cur.get_mut(key)?;
    }
    matches!(cur.t, T::Map(_)).then_some(cur)
}

fn add(n: Option<&mut Node>, pairs: &[(&str, &Node)]) {
    if let Some(m) = n {
        for (k, v) in pairs {
            m.set(k, (*v).clone());
        }
    }
}

/// A path of keys from a resource's root.
type Path = &'static [&'static str];

/// The pod template of a workload kind, and the selector (its path, and
/// whether kustomize creates it where absent).
fn places(kind: &str) -> (Option<Path>, Option<(Path, bool)>) {
    const TEMPLATE: &[&str] = &["spec", "template", "metadata", "labels"];
    const MATCH: &[&str] = &["spec", "selector", "matchLabels"];
    match kind {
        "Service" => (None, Some((&["spec", "selector"], true))),
        "ReplicationController" => (Some(TEMPLATE), Some((&["spec", "selector"], true))),
        "Deployment" | "ReplicaSet" | "DaemonSet" | "StatefulSet" => {
            (Some(TEMPLATE), Some((MATCH, true)))
        }
        "Job" => (Some(TEMPLATE), Some((MATCH, false))),
        "CronJob" => (
            Some(&[
                "spec",
                "jobTemplate",
                "spec",
                "template",
                "metadata",
                "labels",
            ]),
            Some((
                &["spec", "jobTemplate", "spec", "selector", "matchLabels"],
                false,
            )),
        ),
        _ => (None, None),
    }
}

/// `commonLabels` and `labels` on every resource.
pub(super) fn labels(k: &Node, res: &mut [Resource]) {
    let sets = sets(k);
    if sets.is_empty() {
        return;
    }
    for r in res.iter_mut() {
        let kind = r
            .node
            .get("kind")
            .and_then(Node::str)
            .unwrap_or("")
            .to_string();
        let (template, selector) = places(&kind);
        let node = std::sync::Arc::make_mut(&mut r.node);
        for s in &sets {
            add(map_at(node, &["metadata", "labels"], true), &s.pairs);
            if s.templates
                && let Some(p) = template
            {
                add(map_at(node, p, true), &s.pairs);
            }
            if s.selectors
                && let Some((p, create)) = selector
            {
                add(map_at(node, p, create), &s.pairs);
            }
        }
    }
}
