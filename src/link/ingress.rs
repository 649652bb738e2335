//! ingress-nginx: an Ingress takes the controller ConfigMap nearest to it.

use super::*;

/// The ingress-nginx controller ConfigMap applies to every Ingress the
/// controller serves, and usually sits in another file (the controller's
/// manifests, a Helm values render) than the Ingresses. Each Ingress of a
/// file without a controller ConfigMap of its own takes the settings it
/// leaves at the default from the nearest ConfigMap file (the longest
/// common folder); when two are equally near, which one serves it is not
/// known and none is applied.
pub fn ingress_configmaps(files: &mut [ScannedFile]) {
    use crate::model::System;
    use crate::systems::nginx::ingress::{apply_configmap, is_configmap_policy};
    let mut maps: Vec<(usize, usize)> = Vec::new();
    for (id, f) in files.iter().enumerate() {
        for (k, p) in f.facts.policies.iter().enumerate() {
            if is_configmap_policy(p) {
                maps.push((id, k));
            }
        }
    }
    if maps.is_empty() {
        return;
    }
    for id in 0..files.len() {
        let policies = &files[id].facts.policies;
        if !policies
            .iter()
            .any(|p| p.system == System::IngressNginx && !is_configmap_policy(p))
            || policies.iter().any(is_configmap_policy)
        {
            continue;
        }
        let here = files[id].source.path.clone();
        let Some((m, k)) = nearest(&here, &maps, files) else {
            continue;
        };
        let cm = files[m].facts.policies[k].clone();
        let from = place(&files[m], cm.span);
        for p in files[id].facts.policies.iter_mut() {
            if p.system == System::IngressNginx {
                apply_configmap(p, &cm, &from);
            }
        }
    }
}
