//! Overlays that cannot change what the scan read, told without building
//! them. A build whose kustomizations (the overlay and every one it
//! includes) hold no patch and move no identity gives no writer and no
//! workload or Service to deploy, so [`super::kustomize_overlays`] drops
//! its output unread: the generated 10k tree's 200 kustomizations list
//! their resources and nothing else, and building them was an eighth of
//! a one-file run (issue 27).

use super::Files;
use crate::extract::kustomize::tree::{Node, T};
use crate::extract::kustomize::{self, Loader, normal};
use std::path::Path;

/// Keys that make a build needed: a patch writes into the resources, and
/// a generator reads files of its own (the build reads them, so the
/// loader's bound on files read counts them).
const BUILD_KEYS: &[&str] = &[
    "patches",
    "patchesStrategicMerge",
    "patchesJson6902",
    "configMapGenerator",
    "secretGenerator",
];

/// Nesting past which the overlay is built (at most the build's own
/// bound, `extract::kustomize`'s `MAX_NESTING` of 16).
const MAX_NESTING: usize = 16;

/// Whether building the kustomization `file` in `dir` would give no
/// writer and no kustomization that moves identities. It loads the files
/// the build would load, in the build's order (each folder's
/// kustomization looked for, then each resource file), so that the
/// loader's bound on files read from disk is reached as the build would
/// reach it; any doubt (a patch, a generator, deep nesting) is `false`.
pub(super) fn quiet(dir: &Path, file: usize, l: &mut Files<'_>) -> bool {
    walk(dir, file, l, &mut Vec::new())
}

fn walk(dir: &Path, file: usize, l: &mut Files<'_>, stack: &mut Vec<usize>) -> bool {
    // A cycle: the build stops there, reading nothing more.
    if stack.contains(&file) {
        return true;
    }
    if stack.len() >= MAX_NESTING {
        return false;
    }
    let text = l.text(file);
    if kustomize::moves_identities(text) {
        return false;
    }
    let parsed = crate::yaml::parse(text);
    let Some(doc) = parsed.documents.first() else {
        return true;
    };
    let k = Node::from_yaml(parsed.root(doc), file);
    if BUILD_KEYS.iter().any(|key| k.get(key).is_some()) {
        return false;
    }
    let list = |key: &str| -> Vec<String> {
        match k.get(key).map(|n| &n.t) {
            Some(T::List(items)) => items
                .iter()
                .filter_map(Node::str)
                .map(String::from)
                .collect(),
            _ => Vec::new(),
        }
    };
    let mut resources = list("resources");
    resources.extend(list("bases"));
    let components = list("components");
    stack.push(file);
    let mut quiet = true;
    for s in resources.iter().filter(|s| !remote(s)) {
        let p = normal(&dir.join(s));
        match kustomize::find_in(&p, l) {
            Some(sub) => quiet = walk(&p, sub, l, stack),
            None => {
                l.load(&p);
            }
        }
        if !quiet {
            break;
        }
    }
    // Components are built in the kustomization's own build (remote ones
    // too, as a folder that holds none).
    for s in &components {
        if !quiet {
            break;
        }
        let p = normal(&dir.join(s));
        if let Some(sub) = kustomize::find_in(&p, l) {
            quiet = walk(&p, sub, l, stack);
        }
    }
    stack.pop();
    quiet
}

/// A resource the build does not follow (`extract::kustomize`'s own test).
fn remote(s: &str) -> bool {
    s.contains("://") || s.starts_with("github.com/") || s.starts_with("git@")
}
