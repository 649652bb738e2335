//! Rules of the `paths` category (RL4xx): what retries add up to along a
//! call path. They run over the call-path graph.

pub mod implicit_retries;
pub mod layered_retries;
pub mod retry_amplification;

use crate::graph::{Graph, Loc, WorstPath};
use crate::rules::{Emitter, Related};

/// A finding at `at` with every retrying layer of `path` as a related
/// location.
pub fn path_finding(
    e: &mut Emitter<'_>,
    graph: &Graph,
    path: &WorstPath,
    at: Loc,
    message: String,
    help: String,
) {
    let f = e.emit_at(at.file, at.span, message, help);
    for &e in &path.edges {
        for l in graph.edges[e].layers.iter().filter(|l| l.retries()) {
            if l.loc == at && f.related.iter().all(|r| r.span != at.span) {
                continue;
            }
            f.related.push(Related {
                file: l.loc.file,
                span: l.loc.span,
                message: graph.layer_note(e, l),
            });
        }
    }
}

/// The first retrying layer on a path: where a finding about it points.
pub fn first_layer(graph: &Graph, path: &WorstPath) -> Option<Loc> {
    path.edges
        .iter()
        .flat_map(|&e| graph.edges[e].layers.iter())
        .find(|l| l.retries())
        .map(|l| l.loc)
}

/// How many retrying layers a path has.
pub fn retrying_layers(graph: &Graph, path: &WorstPath) -> usize {
    path.edges
        .iter()
        .map(|&e| graph.edges[e].layers.iter().filter(|l| l.retries()).count())
        .sum()
}
