//! RL401 retry-amplification: worst-case attempts along a call path exceed
//! the threshold. Also reports call cycles that retry, once each.

use super::{distinct_chains, first_layer, path_finding};
use crate::graph::GraphCtx;
use crate::rules::{Check, Emitter, Related};

pub const CHECK: Check = Check::Graph(check);

fn check(ctx: &GraphCtx<'_>, out: &mut Emitter<'_>) {
    let g = ctx.graph;
    let limit = ctx.settings.thresholds.amplification;
    let over: Vec<_> = g
        .worst_paths()
        .into_iter()
        .filter(|p| p.attempts > limit)
        .collect();
    // Calls on no entry's worst path (a second call of the same service,
    // to another host) whose own layers pass the threshold.
    let on_worst: std::collections::BTreeSet<usize> =
        g.worst_paths().into_iter().flat_map(|p| p.edges).collect();
    for (i, e) in g.edges.iter().enumerate() {
        if on_worst.contains(&i) || e.factor() <= limit {
            continue;
        }
        let path = crate::graph::WorstPath {
            entry: e.from,
            edges: vec![i],
            attempts: e.factor(),
        };
        let Some(at) = first_layer(g, &path) else {
            continue;
        };
        path_finding(
            out,
            g,
            &path,
            at,
            format!(
                "one call from `{}` to `{}` can become `{}` attempts: {}",
                g.service_name(e.from),
                g.service_name(e.to),
                path.attempts,
                g.arithmetic(&path)
            ),
            format!(
                "retry at one layer only and make the others fail fast, so that the product stays at or below {limit}"
            ),
        );
    }
    for (path, also) in distinct_chains(g, over) {
        let Some(at) = first_layer(g, &path) else {
            continue;
        };
        let last = path.edges.last().map_or(path.entry, |&e| g.edges[e].to);
        let also = if also.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = also
                .iter()
                .map(|&s| format!("`{}`", g.service_name(s)))
                .collect();
            format!(" (the same chain is reached from {})", names.join(", "))
        };
        let message = format!(
            "one call to `{}` can become `{}` attempts at `{}`: {}{also}",
            g.service_name(path.entry),
            path.attempts,
            g.service_name(last),
            g.arithmetic(&path)
        );
        path_finding(
            out,
            g,
            &path,
            at,
            message,
            format!(
                "retry at one layer only (usually the one closest to the user, or the callee's own client) and make the others fail fast, so that the product stays at or below {limit}; add a retry budget where the layer offers one"
            ),
        );
    }
    // A cycle that retries multiplies without bound: said once per cycle.
    for cycle in &g.cycles {
        let edges: Vec<usize> = g
            .edges
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                let i = cycle.iter().position(|s| *s == e.from);
                i.is_some_and(|i| cycle[(i + 1) % cycle.len()] == e.to)
            })
            .map(|(i, _)| i)
            .collect();
        let retrying: Vec<usize> = edges
            .iter()
            .copied()
            .filter(|&e| g.edges[e].factor() > 1)
            .collect();
        let Some(&first) = retrying.first() else {
            continue;
        };
        let names: Vec<&str> = cycle
            .iter()
            .chain(cycle.first())
            .map(|s| g.service_name(*s))
            .collect();
        let edge = &g.edges[first];
        let at = edge
            .layers
            .iter()
            .find(|l| l.retries())
            .map_or(edge.proof, |l| l.loc);
        let f = out.emit_at(
            at.file,
            at.span,
            format!(
                "call cycle `{}` retries: each trip round the cycle multiplies the attempts again, without bound",
                names.join(" -> ")
            ),
            "break the cycle, or make every call on it fail fast (no retries) and bound it with a deadline that shrinks at each hop",
        );
        for &e in &edges {
            let p = g.edges[e].proof;
            f.related.push(Related {
                file: p.file,
                span: p.span,
                message: format!(
                    "{} -> {}",
                    g.service_name(g.edges[e].from),
                    g.service_name(g.edges[e].to)
                ),
            });
        }
    }
}
