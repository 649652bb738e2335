//! Rules of the `paths` category (RL4xx): what retries add up to along a
//! call path. They run over the call-path graph.

pub mod implicit_retries;
pub mod layered_retries;
pub mod retry_amplification;

use crate::graph::{Graph, Loc, ServiceId, WorstPath};
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
/// A layer no file of the path writes (a mesh-wide default, applied to
/// every route that writes none) is placed at its call: the finding is
/// about this path, the default is among its related places.
pub fn first_layer(graph: &Graph, path: &WorstPath) -> Option<Loc> {
    path.edges.iter().find_map(|&e| {
        let edge = &graph.edges[e];
        let l = edge.layers.iter().find(|l| l.retries())?;
        let of_path = l.policy.is_some()
            || path
                .edges
                .iter()
                .any(|&o| graph.edges[o].proof.file == l.loc.file);
        Some(if of_path { l.loc } else { edge.proof })
    })
}

/// How many retrying layers a path has.
pub fn retrying_layers(graph: &Graph, path: &WorstPath) -> usize {
    path.edges
        .iter()
        .map(|&e| graph.edges[e].layers.iter().filter(|l| l.retries()).count())
        .sum()
}

/// The worst paths, one per chain of retrying calls (issue 17, item 6):
/// paths whose retrying part (leading and trailing calls with no retries
/// left out), after its first hop, is the same are one finding, named by
/// the path with the most attempts with the other entries kept; a path
/// whose chain lies inside a longer one's is that one's finding too.
pub fn distinct_chains(graph: &Graph, paths: Vec<WorstPath>) -> Vec<(WorstPath, Vec<ServiceId>)> {
    let core = |p: &WorstPath| -> Vec<usize> {
        let retrying = |e: &usize| graph.edges[*e].factor() > 1;
        let start = p.edges.iter().position(retrying).unwrap_or(p.edges.len());
        let end = p.edges.iter().rposition(retrying).map_or(start, |i| i + 1);
        p.edges[start..end.max(start)].to_vec()
    };
    // Entries that reach the same chain through their own first hop (two
    // gateways and a load generator in front of one frontend) share it:
    // the chain is what follows the first retrying hop.
    let cores: Vec<Vec<usize>> = paths
        .iter()
        .map(|p| {
            let c = core(p);
            if c.len() >= 2 { c[1..].to_vec() } else { c }
        })
        .collect();
    let inside = |a: &[usize], b: &[usize]| {
        a.len() < b.len() && !a.is_empty() && b.windows(a.len()).any(|w| w == a)
    };
    let mut out: Vec<(WorstPath, Vec<ServiceId>)> = Vec::new();
    let mut kept: Vec<Vec<usize>> = Vec::new();
    // Longest chains first, so that a sub-chain finds its chain kept.
    let mut order: Vec<usize> = (0..paths.len()).collect();
    order.sort_by_key(|&i| {
        (
            std::cmp::Reverse(cores[i].len()),
            std::cmp::Reverse(paths[i].attempts),
            i,
        )
    });
    let mut slots: Vec<Option<WorstPath>> = paths.into_iter().map(Some).collect();
    for i in order {
        let Some(path) = slots[i].take() else {
            continue;
        };
        let c = &cores[i];
        if let Some(k) = kept
            .iter()
            .position(|k| !c.is_empty() && (k == c || inside(c, k)))
        {
            out[k].1.push(path.entry);
            continue;
        }
        kept.push(c.clone());
        out.push((path, Vec::new()));
    }
    out.sort_by_key(|(p, _)| graph.service_name(p.entry).to_string());
    out
}
