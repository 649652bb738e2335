//! RL402 layered-retries: more than one layer on one call path retries,
//! even below the amplification threshold.

use super::{first_layer, path_finding, retrying_layers};
use crate::fix::Fix;
use crate::graph::{GraphCtx, WorstPath};
use crate::model::Layer;
use crate::rules::{Check, Emitter};
use std::collections::BTreeSet;

pub const CHECK: Check = Check::Graph(check);

fn check(ctx: &GraphCtx<'_>, out: &mut Emitter<'_>) {
    let g = ctx.graph;
    let limit = ctx.settings.thresholds.amplification;
    let mut covered: BTreeSet<usize> = BTreeSet::new();
    let mut reported = BTreeSet::new();
    for path in g.worst_paths() {
        // Above the threshold it is RL401's.
        if path.attempts > limit {
            covered.extend(path.edges.iter().copied());
            continue;
        }
        let layers = retrying_layers(g, &path);
        if layers < 2 {
            continue;
        }
        let Some(at) = first_layer(g, &path) else {
            continue;
        };
        covered.extend(path.edges.iter().copied());
        if !reported.insert(at) {
            continue;
        }
        path_finding(
            out,
            g,
            &path,
            at,
            format!(
                "{layers} layers retry on the path from `{}`: {} attempts per call",
                g.service_name(path.entry),
                g.arithmetic(&path)
            ),
            "keep retries in one layer and make the others fail fast: each layer multiplies the attempts of the layers below it".into(),
        );
        offer_mesh_off(ctx, &path, out);
    }
    // Layers stacked on one call that no entry's worst path covers.
    for (i, e) in g.edges.iter().enumerate() {
        // Above the threshold it is RL401's (its stacked-call check).
        if covered.contains(&i)
            || e.layers.iter().filter(|l| l.retries()).count() < 2
            || e.factor() > limit
        {
            continue;
        }
        let path = WorstPath {
            entry: e.from,
            edges: vec![i],
            attempts: e.factor(),
        };
        let Some(at) = first_layer(g, &path) else {
            continue;
        };
        if !reported.insert(at) {
            continue;
        }
        path_finding(
            out,
            g,
            &path,
            at,
            format!(
                "{} retry layers are stacked on the call from `{}` to `{}`: {} attempts per call",
                e.layers.iter().filter(|l| l.retries()).count(),
                g.service_name(e.from),
                g.service_name(e.to),
                g.arithmetic(&path)
            ),
            "keep one retry layer on this call and remove the others".into(),
        );
        offer_mesh_off(ctx, &path, out);
    }
}

/// Unsafe: turn off the retries of the first mesh layer on the path that
/// has a layer retrying inside it (later on the path), where its policy is
/// written and its system can write the edit. Fewer attempts in all.
fn offer_mesh_off(ctx: &GraphCtx<'_>, path: &WorstPath, out: &mut Emitter<'_>) {
    let g = ctx.graph;
    let layers: Vec<_> = path
        .edges
        .iter()
        .flat_map(|&e| g.edges[e].layers.iter())
        .filter(|l| l.retries())
        .collect();
    let Some((i, mesh)) = layers
        .iter()
        .enumerate()
        .find(|(_, l)| l.system.spec().layer == Layer::Mesh && !l.implicit && l.policy.is_some())
    else {
        return;
    };
    if i + 1 >= layers.len() {
        return;
    }
    let Some((file, index)) = mesh.policy else {
        return;
    };
    let Some(make) = mesh.system.spec().fixes.edits.retries_off else {
        return;
    };
    let Some(scanned) = ctx.files.get(file) else {
        return;
    };
    let Some(policy) = scanned.facts.policies.get(index) else {
        return;
    };
    let site = crate::systems::edit::Site {
        file,
        path: &scanned.source.path,
        text: &scanned.source.text,
        policy,
    };
    let (Some(edits), Some(f)) = (make(&site), out.out.last_mut()) else {
        return;
    };
    f.fix(Fix::unsafe_(
        format!(
            "turn off the {} retries of `{}`: a layer inside it retries",
            mesh.system.spec().label,
            policy.name.as_deref().unwrap_or("this route")
        ),
        edits,
    ));
}
