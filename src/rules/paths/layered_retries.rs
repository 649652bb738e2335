//! RL402 layered-retries: more than one layer on one call path retries,
//! even below the amplification threshold.

use super::{first_layer, path_finding, retrying_layers};
use crate::graph::{GraphCtx, WorstPath};
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
    }
    // Layers stacked on one call that no entry's worst path covers.
    for (i, e) in g.edges.iter().enumerate() {
        if covered.contains(&i) || e.layers.iter().filter(|l| l.retries()).count() < 2 {
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
    }
}
