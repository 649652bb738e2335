//! Leaf stores grouped per caller: the databases, caches and queues one
//! service alone calls are drawn as rows of one box beside it, instead of
//! a box each in the last column. A store is a service that calls nobody
//! and is reached only by calls no L7 layer retries (SQL, Redis, MongoDB,
//! Kafka, AMQP, TCP: [`crate::model::calls::Protocol::is_l7`]); it is grouped when one service
//! alone calls it and that service calls at least [`MIN_GROUP`] such
//! stores. A store several services share keeps its own box, so that every
//! service is drawn once.
//!
//! The layout ([`super::layout`]) places boxes: a service's own, or a
//! group's, taller by its rows. Each call keeps its own route: a call to a
//! grouped store follows the call to its group and ends at the store's
//! row.

use super::Report;
use super::layout::{self, Layout, NODE_H, Rect, Route};
use std::collections::BTreeMap;

/// Fewest stores of one caller drawn as a group.
pub const MIN_GROUP: usize = 2;
/// A group box's caption band, above its rows.
pub const HEAD: i64 = 18;
/// One store's row in a group: its height and the space to the next.
pub const ROW_H: i64 = 22;
pub const ROW_GAP: i64 = 4;
/// Space between a group box's side and its rows.
pub const INSET: i64 = 8;

/// A group of stores one caller alone calls.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The box (layout node) drawn for the group.
    pub layout_box: usize,
    pub caller: usize,
    /// The stores, in row order (by name).
    pub stores: Vec<usize>,
}

/// The call graph as drawn: boxes laid out, and each service and call
/// placed on them.
#[derive(Clone, Debug)]
pub struct Drawing {
    /// The layout of the boxes (not of the services).
    pub layout: Layout,
    /// Each service's box.
    pub box_of: Vec<usize>,
    /// A grouped store's row in its group.
    pub row: Vec<Option<usize>>,
    pub groups: Vec<Group>,
    /// Each call's route, by index into the report's edges.
    pub routes: Vec<Route>,
    /// Each call's edge between boxes (index into the layout's routes).
    pub box_edge: Vec<usize>,
    /// The name of each cluster of the layout's bands: a namespace
    /// (cluster 0, services whose namespace no declaration writes, is
    /// `""` and drawn without a band).
    pub clusters: Vec<String>,
}

impl Drawing {
    /// The rectangle a service is drawn in: its box, or its row in a
    /// group.
    pub fn service_rect(&self, s: usize) -> Rect {
        let b = self.layout.node_rect(self.box_of[s]);
        match self.row[s] {
            None => b,
            Some(row) => {
                let y0 = b.y0 + (HEAD + row as i64 * (ROW_H + ROW_GAP)) as f64;
                Rect {
                    x0: b.x0 + INSET as f64,
                    y0,
                    x1: b.x1 - INSET as f64,
                    y1: y0 + ROW_H as f64,
                }
            }
        }
    }

    /// Whether the service is a row of a group.
    pub fn grouped(&self, s: usize) -> bool {
        self.row[s].is_some()
    }

    /// Pairs (call, service) where the call's drawn route passes through
    /// a box other than those of its own two ends, sampled along each
    /// curve ([`layout::crossings_of_boxes`] over the drawn routes).
    pub fn crossings(&self, edges: &[(usize, usize, bool)]) -> Vec<(usize, usize)> {
        let n = self.layout.nodes.len();
        let mut out = Vec::new();
        for (e, route) in self.routes.iter().enumerate() {
            let Some(&(from, to, _)) = edges.get(e) else {
                continue;
            };
            let ends = [self.box_of[from], self.box_of[to]];
            for p in route.points.windows(2) {
                for k in 1..40 {
                    let (x, y) = layout::curve_at(p[0], p[1], k as f64 / 40.0);
                    for b in (0..n).filter(|b| !ends.contains(b)) {
                        let r = self.layout.node_rect(b);
                        if r.x0 < x && x < r.x1 && r.y0 < y && y < r.y1 && !out.contains(&(e, b)) {
                            out.push((e, b));
                        }
                    }
                }
            }
        }
        out
    }
}

/// The height of a group box of `rows` stores.
pub fn group_height(rows: usize) -> i64 {
    (HEAD + rows as i64 * (ROW_H + ROW_GAP) - ROW_GAP + INSET).max(NODE_H)
}

/// Which services are grouped stores, by caller (callers in index order).
pub fn groups_of(r: &Report) -> BTreeMap<usize, Vec<usize>> {
    let n = r.graph.services.len();
    let mut calls_out = vec![false; n];
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut only_stores = vec![true; n];
    for e in &r.graph.edges {
        if e.from >= n || e.to >= n || e.from == e.to {
            continue;
        }
        calls_out[e.from] = true;
        if !callers[e.to].contains(&e.from) {
            callers[e.to].push(e.from);
        }
        if e.protocol.is_l7() {
            only_stores[e.to] = false;
        }
    }
    let mut by_caller: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for s in 0..n {
        if !calls_out[s] && only_stores[s] && callers[s].len() == 1 && !r.graph.services[s].entry {
            by_caller.entry(callers[s][0]).or_default().push(s);
        }
    }
    by_caller.retain(|_, v| v.len() >= MIN_GROUP);
    for v in by_caller.values_mut() {
        v.sort_by(|&a, &b| r.graph.services[a].name.cmp(&r.graph.services[b].name));
    }
    by_caller
}

/// Lay out the report's graph: services and groups as boxes, the worst
/// paths' services first, then each call's route.
pub fn draw(r: &Report) -> Drawing {
    let n = r.graph.services.len();
    let by_caller = groups_of(r);
    let mut box_of: Vec<usize> = (0..n).collect();
    let mut row = vec![None; n];
    let mut groups = Vec::new();
    // Boxes: every service that is not grouped keeps its index's order;
    // groups follow.
    let grouped: std::collections::BTreeSet<usize> =
        by_caller.values().flatten().copied().collect();
    let mut next = 0usize;
    let mut names: Vec<String> = Vec::new();
    for (s, b) in box_of.iter_mut().enumerate() {
        if !grouped.contains(&s) {
            *b = next;
            next += 1;
            names.push(r.graph.services[s].name.clone());
        }
    }
    let mut heights = vec![NODE_H; next];
    for (&caller, stores) in &by_caller {
        let b = next;
        next += 1;
        names.push(format!("{} stores", r.graph.services[caller].name));
        heights.push(group_height(stores.len()));
        for (k, &s) in stores.iter().enumerate() {
            box_of[s] = b;
            row[s] = Some(k);
        }
        groups.push(Group {
            layout_box: b,
            caller,
            stores: stores.clone(),
        });
    }
    // Edges between boxes, one per pair (a group's calls share one).
    let mut box_edges: Vec<(usize, usize, bool)> = Vec::new();
    let mut box_edge = Vec::with_capacity(r.graph.edges.len());
    for e in &r.graph.edges {
        let pair = (
            box_of.get(e.from).copied().unwrap_or(usize::MAX),
            box_of.get(e.to).copied().unwrap_or(usize::MAX),
            e.back_edge,
        );
        let grouped = e.to < n && row[e.to].is_some();
        let at = if grouped {
            box_edges.iter().position(|x| *x == pair)
        } else {
            None
        };
        box_edge.push(at.unwrap_or_else(|| {
            box_edges.push(pair);
            box_edges.len() - 1
        }));
    }
    // The worst paths' services first (top), the worst path first.
    let mut paths: Vec<&super::PathData> =
        r.worst_paths.iter().filter(|p| p.attempts > 1).collect();
    paths.sort_by_key(|p| std::cmp::Reverse(p.attempts));
    let mut first: Vec<usize> = Vec::new();
    for p in paths {
        for s in &p.services {
            if let Some(i) = r.graph.services.iter().position(|x| &x.name == s)
                && !first.contains(&box_of[i])
            {
                first.push(box_of[i]);
            }
        }
    }
    // Namespaces as clusters: 0 for none written, then by name.
    let mut namespaces: Vec<String> = vec![String::new()];
    let mut ns: Vec<String> = r
        .graph
        .services
        .iter()
        .filter_map(|s| s.namespace.clone())
        .collect();
    ns.sort();
    ns.dedup();
    namespaces.extend(ns);
    let mut clusters = vec![0usize; next];
    for (s, svc) in r.graph.services.iter().enumerate() {
        if let Some(n) = &svc.namespace {
            let c = namespaces.iter().position(|x| x == n).unwrap_or(0);
            let b = box_of[s];
            if clusters[b] == 0 {
                clusters[b] = c;
            }
        }
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let l = layout::layout_sized(next, &box_edges, &refs, &first, &heights, &clusters);
    let mut d = Drawing {
        layout: l,
        box_of,
        row,
        groups,
        routes: Vec::new(),
        box_edge,
        clusters: namespaces,
    };
    d.routes = r
        .graph
        .edges
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut route = d.layout.routes[d.box_edge[i]].clone();
            if e.to < n && d.grouped(e.to) && route.points.len() >= 2 {
                let rect = d.service_rect(e.to);
                let y = (rect.y0 + rect.y1) / 2.0;
                let end = if route.back {
                    0
                } else {
                    route.points.len() - 1
                };
                route.points[end].1 = y;
            }
            route
        })
        .collect();
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_box_holds_its_rows() {
        for rows in 1..8 {
            let h = group_height(rows);
            let last = HEAD + (rows as i64 - 1) * (ROW_H + ROW_GAP) + ROW_H;
            assert!(last + INSET <= h, "{rows}: {last} in {h}");
        }
    }
}
