//! A deterministic layered layout of the call graph, left to right:
//!
//! 1. layers by longest path from the services nobody calls (edges that
//!    close a cycle are left out of the layering, so every layer is
//!    finite and every forward edge points right);
//! 2. within a layer, a few sweeps of barycentric ordering (each service
//!    moves towards the mean position of its neighbours in the layers
//!    already placed) to reduce crossings;
//! 3. coordinates: one column per layer, a tall layer wrapped into
//!    several sub-columns of at most [`MAX_ROWS`] services, each column
//!    centred vertically; services that neither call nor are called are
//!    set out in a grid below the graph.
//!
//! Every step sorts with explicit tie-breaks, so one input always gives
//! one picture; no step is worse than O((services + edges) x sweeps) after
//! the sort.

/// Width and height of a service box, in SVG user units.
pub const NODE_W: i64 = 164;
pub const NODE_H: i64 = 40;
/// Vertical space between two boxes of one column.
pub const ROW_GAP: i64 = 22;
/// Horizontal space between two layers: room for edge labels.
pub const LAYER_GAP: i64 = 150;
/// Horizontal space between the sub-columns of one wrapped layer.
pub const SUBCOLUMN_GAP: i64 = 36;
/// The most services stacked in one column before the layer wraps.
pub const MAX_ROWS: usize = 12;
/// Least distance between an edge's horizontal run through a wrapped
/// layer and the boxes it passes.
pub const LANE_MARGIN: i64 = 7;
pub const MARGIN: i64 = 24;
/// Space above the grid of unconnected services, for its caption.
pub const GRID_CAPTION: i64 = 36;
const SWEEPS: usize = 4;

/// A service box's top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub x: i64,
    pub y: i64,
}

#[derive(Clone, Debug)]
pub struct Layout {
    /// One position per service, by index.
    pub nodes: Vec<Pos>,
    /// The layer of each service; `None` for unconnected services.
    pub layer: Vec<Option<usize>>,
    /// Left and right edge of each layer's column(s).
    pub layer_x: Vec<(i64, i64)>,
    pub width: i64,
    pub height: i64,
    /// Where the caption of the grid of unconnected services goes, if any.
    pub grid_caption_y: Option<i64>,
}

/// Lay out `n` services joined by `edges` (`from`, `to`, `back`): `back`
/// marks an edge that closes a cycle, drawn but not used for layering.
/// `names` breaks ties so that the order does not depend on discovery.
pub fn layout(n: usize, edges: &[(usize, usize, bool)], names: &[&str]) -> Layout {
    let edges: Vec<(usize, usize, bool)> = edges
        .iter()
        .copied()
        .filter(|&(a, b, _)| a < n && b < n && a != b)
        .collect();
    let mut connected = vec![false; n];
    for &(a, b, _) in &edges {
        connected[a] = true;
        connected[b] = true;
    }
    let name = |i: usize| names.get(i).copied().unwrap_or("");
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b, back) in &edges {
        if !back {
            succ[a].push(b);
            pred[b].push(a);
        }
    }
    // Topological order (Kahn), ties by name then index; whatever a cycle
    // the caller did not mark leaves behind is appended in that order.
    let by_name = |a: &usize, b: &usize| name(*a).cmp(name(*b)).then(a.cmp(b));
    let mut indeg: Vec<usize> = pred.iter().map(Vec::len).collect();
    let mut ready: std::collections::BTreeSet<(String, usize)> = (0..n)
        .filter(|&i| indeg[i] == 0)
        .map(|i| (name(i).to_string(), i))
        .collect();
    let mut order = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    while let Some(first) = ready.iter().next().cloned() {
        ready.remove(&first);
        let v = first.1;
        order.push(v);
        placed[v] = true;
        for &w in &succ[v] {
            indeg[w] -= 1;
            if indeg[w] == 0 {
                ready.insert((name(w).to_string(), w));
            }
        }
    }
    let mut rest: Vec<usize> = (0..n).filter(|&i| !placed[i]).collect();
    rest.sort_by(by_name);
    order.extend(rest);
    let mut rank = vec![0usize; n];
    for (k, &v) in order.iter().enumerate() {
        rank[v] = k;
    }
    // Longest path layering over edges that go forward in `order`.
    let mut layer_of = vec![0usize; n];
    for &v in &order {
        for &w in &succ[v] {
            if rank[w] > rank[v] {
                layer_of[w] = layer_of[w].max(layer_of[v] + 1);
            }
        }
    }
    let layers_n = (0..n)
        .filter(|&i| connected[i])
        .map(|i| layer_of[i] + 1)
        .max()
        .unwrap_or(0);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); layers_n];
    for &v in &order {
        if connected[v] {
            layers[layer_of[v]].push(v);
        }
    }
    for l in &mut layers {
        l.sort_by(by_name);
    }
    // Barycentric sweeps: down (by predecessors), then up (by successors).
    let mut pos = vec![0f64; n];
    let refresh = |layers: &Vec<Vec<usize>>, pos: &mut Vec<f64>| {
        for l in layers {
            // Normalised to [0, 1] so that layers of different sizes compare.
            let k = l.len().max(2) as f64 - 1.0;
            for (i, &v) in l.iter().enumerate() {
                pos[v] = i as f64 / k;
            }
        }
    };
    refresh(&layers, &mut pos);
    for _ in 0..SWEEPS {
        for li in 1..layers_n {
            reorder(&mut layers[li], &pred, &pos);
            refresh(&layers, &mut pos);
        }
        for li in (0..layers_n.saturating_sub(1)).rev() {
            reorder(&mut layers[li], &succ, &pos);
            refresh(&layers, &mut pos);
        }
    }
    // Entry layer last: place sources next to what they call.
    if layers_n > 1 {
        reorder(&mut layers[0], &succ, &pos);
    }
    // Coordinates. A layer of k services in c sub-columns is staggered:
    // service i goes to sub-column i mod c, each `step` lower than the one
    // before, so the barycentric order still reads top to bottom and the
    // horizontal line through any box's middle passes between the boxes of
    // the other sub-columns (`step` is more than half a box plus a
    // margin): edges leave and enter a wrapped layer without crossing it.
    let columns: Vec<usize> = layers
        .iter()
        .map(|l| l.len().div_ceil(MAX_ROWS).max(1))
        .collect();
    let steps: Vec<i64> = columns
        .iter()
        .map(|&c| {
            if c == 1 {
                NODE_H + ROW_GAP
            } else {
                (NODE_H / 2 + LANE_MARGIN).max((NODE_H + ROW_GAP + c as i64 - 1) / c as i64)
            }
        })
        .collect();
    let heights: Vec<i64> = layers
        .iter()
        .zip(&steps)
        .map(|(l, &step)| (l.len().max(1) as i64 - 1) * step + NODE_H)
        .collect();
    let max_height = heights.iter().copied().max().unwrap_or(0);
    let mut nodes = vec![Pos { x: 0, y: 0 }; n];
    let mut layer = vec![None; n];
    let mut layer_x = Vec::with_capacity(layers_n);
    let mut x = MARGIN;
    let mut graph_right = MARGIN;
    for (li, l) in layers.iter().enumerate() {
        let c = columns[li];
        let offset = (max_height - heights[li]) / 2;
        for (i, &v) in l.iter().enumerate() {
            nodes[v] = Pos {
                x: x + (i % c) as i64 * (NODE_W + SUBCOLUMN_GAP),
                y: MARGIN + offset + i as i64 * steps[li],
            };
            layer[v] = Some(li);
        }
        let width = c as i64 * NODE_W + (c as i64 - 1) * SUBCOLUMN_GAP;
        layer_x.push((x, x + width));
        graph_right = x + width;
        x += width + LAYER_GAP;
    }
    let graph_bottom = if layers_n > 0 { MARGIN + max_height } else { 0 };
    // The grid of unconnected services.
    let pitch_y = NODE_H + ROW_GAP;
    let mut lonely: Vec<usize> = (0..n).filter(|&i| !connected[i]).collect();
    lonely.sort_by(by_name);
    let mut grid_caption_y = None;
    let mut height = graph_bottom + MARGIN;
    let mut width = graph_right + MARGIN;
    if !lonely.is_empty() {
        let per_row = (((graph_right - MARGIN + SUBCOLUMN_GAP) / (NODE_W + SUBCOLUMN_GAP))
            as usize)
            .clamp(4, 8)
            .min(lonely.len());
        let top = if layers_n > 0 {
            graph_bottom + MARGIN + GRID_CAPTION
        } else {
            MARGIN + GRID_CAPTION
        };
        grid_caption_y = Some(top - GRID_CAPTION / 2);
        for (i, &v) in lonely.iter().enumerate() {
            nodes[v] = Pos {
                x: MARGIN + (i % per_row) as i64 * (NODE_W + SUBCOLUMN_GAP),
                y: top + (i / per_row) as i64 * pitch_y,
            };
        }
        let rows = lonely.len().div_ceil(per_row) as i64;
        height = top + rows * pitch_y - ROW_GAP + MARGIN;
        width =
            width.max(MARGIN + per_row as i64 * (NODE_W + SUBCOLUMN_GAP) - SUBCOLUMN_GAP + MARGIN);
    }
    Layout {
        nodes,
        layer,
        layer_x,
        width: width.max(2 * MARGIN + NODE_W),
        height: height.max(2 * MARGIN + NODE_H),
        grid_caption_y,
    }
}

/// Sort one layer by the mean position of each service's neighbours in
/// `adj`; a service without such neighbours keeps its place. Stable.
fn reorder(layer: &mut [usize], adj: &[Vec<usize>], pos: &[f64]) {
    let k = layer.len().max(2) as f64 - 1.0;
    let mut keyed: Vec<(f64, usize, usize)> = layer
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let ns = &adj[v];
            let key = if ns.is_empty() {
                i as f64 / k
            } else {
                ns.iter().map(|&w| pos[w]).sum::<f64>() / ns.len() as f64
            };
            (key, i, v)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for (slot, (_, _, v)) in layer.iter_mut().zip(keyed) {
        *slot = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlaps(l: &Layout) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for i in 0..l.nodes.len() {
            for j in i + 1..l.nodes.len() {
                let (a, b) = (l.nodes[i], l.nodes[j]);
                if a.x < b.x + NODE_W
                    && b.x < a.x + NODE_W
                    && a.y < b.y + NODE_H
                    && b.y < a.y + NODE_H
                {
                    out.push((i, j));
                }
            }
        }
        out
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("svc{i:02}")).collect()
    }

    #[test]
    fn a_chain_goes_left_to_right_in_one_row() {
        let names = names(4);
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let l = layout(4, &[(0, 1, false), (1, 2, false), (2, 3, false)], &refs);
        assert_eq!(l.layer, vec![Some(0), Some(1), Some(2), Some(3)]);
        assert!(
            l.nodes
                .windows(2)
                .all(|w| w[0].x < w[1].x && w[0].y == w[1].y)
        );
    }

    #[test]
    fn longest_path_layering_and_back_edges_ignored() {
        // 0 -> 1 -> 2, 0 -> 2, and 2 -> 0 closes a cycle.
        let names = names(3);
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let l = layout(
            3,
            &[(0, 1, false), (1, 2, false), (0, 2, false), (2, 0, true)],
            &refs,
        );
        assert_eq!(l.layer, vec![Some(0), Some(1), Some(2)]);
    }

    #[test]
    fn an_unmarked_cycle_still_terminates_with_every_node_placed() {
        let names = names(3);
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let l = layout(3, &[(0, 1, false), (1, 2, false), (2, 0, false)], &refs);
        assert!(l.layer.iter().all(Option::is_some));
        assert!(overlaps(&l).is_empty());
    }

    #[test]
    fn barycentric_ordering_uncrosses_two_pairs() {
        // a0 -> b1, a1 -> b0: sorted by name they cross; the sweep
        // straightens them.
        let names = ["a0", "a1", "b0", "b1"];
        let l = layout(4, &[(0, 3, false), (1, 2, false)], &names);
        let (a0, a1, b0, b1) = (l.nodes[0], l.nodes[1], l.nodes[2], l.nodes[3]);
        assert_eq!(a0.y < a1.y, b1.y < b0.y, "{:?}", l.nodes);
    }

    #[test]
    fn sixty_services_do_not_overlap_and_tall_layers_wrap() {
        // A gateway calling 30 services, each calling one of 29 leaves in
        // turn, and three services with no calls at all.
        let n = 63;
        let mut edges = Vec::new();
        for i in 1..=30 {
            edges.push((0, i, false));
            edges.push((i, 31 + (i % 29), false));
        }
        let names = names(n);
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let l = layout(n, &edges, &refs);
        assert!(overlaps(&l).is_empty(), "{:?}", overlaps(&l));
        // Nothing is drawn outside the canvas.
        for p in &l.nodes {
            assert!(p.x >= 0 && p.y >= 0);
            assert!(p.x + NODE_W <= l.width && p.y + NODE_H <= l.height);
        }
        // The 30-service layer wraps into columns of at most MAX_ROWS.
        let xs: std::collections::BTreeSet<i64> = (1..=30).map(|i| l.nodes[i].x).collect();
        assert_eq!(xs.len(), 30usize.div_ceil(MAX_ROWS));
        assert!(l.height < 40 * (NODE_H + ROW_GAP), "height {}", l.height);
        assert!(l.grid_caption_y.is_some());
        assert_eq!(l.layer[62], None);
    }

    #[test]
    fn edges_leave_and_enter_wrapped_layers_between_boxes() {
        // One service calling 40, each calling a 42nd: both ends of every
        // edge cross a wrapped layer horizontally from the box to the
        // layer's boundary; that run must not touch another box.
        let n = 42;
        let mut edges = Vec::new();
        for i in 1..=40 {
            edges.push((0, i, false));
            edges.push((i, 41, false));
        }
        let names = names(n);
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let l = layout(n, &edges, &refs);
        assert!(overlaps(&l).is_empty());
        let (left, right) = l.layer_x[1];
        assert!(right - left > NODE_W, "the layer of 40 wraps");
        for i in 1..=40 {
            let y = l.nodes[i].y + NODE_H / 2;
            let runs = [(left, l.nodes[i].x), (l.nodes[i].x + NODE_W, right)];
            for j in 1..=40 {
                if i == j {
                    continue;
                }
                let b = l.nodes[j];
                for (x0, x1) in runs {
                    let crosses_x = b.x < x1 && x0 < b.x + NODE_W;
                    let crosses_y = b.y - LANE_MARGIN < y && y < b.y + NODE_H + LANE_MARGIN;
                    assert!(
                        !(crosses_x && crosses_y),
                        "the run of {i} at y={y} crosses box {j} at {b:?}"
                    );
                }
            }
        }
        // Order is kept top to bottom.
        let ys: Vec<i64> = (1..=40).map(|i| l.nodes[i].y).collect();
        let mut sorted = ys.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 40);
    }

    #[test]
    fn deterministic() {
        let n = 20;
        let edges: Vec<(usize, usize, bool)> = (0..n - 1).map(|i| (i / 3, i + 1, false)).collect();
        let names = names(n);
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let a = layout(n, &edges, &refs);
        let b = layout(n, &edges, &refs);
        assert_eq!(a.nodes, b.nodes);
    }

    #[test]
    fn empty_graph() {
        let l = layout(0, &[], &[]);
        assert!(l.nodes.is_empty());
        assert!(l.width > 0 && l.height > 0);
    }
}
