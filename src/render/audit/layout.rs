//! A deterministic layered (Sugiyama) layout of the call graph, left to
//! right:
//!
//! 1. **Layering** by longest path from the services nobody calls (edges
//!    that close a cycle are left out, so every layer is finite).
//! 2. **Long edges** are cut into chains of virtual nodes, one per layer
//!    they pass; an edge against the layering (closing a cycle) is chained
//!    the other way round.
//! 3. **Ordering**: sweeps down and up, each layer sorted by the barycentre
//!    of its neighbours in the layer before; the order with the fewest
//!    crossings seen is kept.
//! 4. **Coordinates**: one column per layer; in a column the boxes and the
//!    virtual nodes' slots are stacked in order, then pulled towards their
//!    neighbours' mean height (a few passes, order and spacing kept).
//!
//! An edge is drawn through its virtual nodes: a curve inside the gap
//! between two columns, a horizontal run through a column in its own slot.
//! No box is in a gap or in another's slot, so no edge crosses a box, by
//! construction ([`crossings_of_boxes`] checks it). Edge labels are placed
//! by [`place_labels`] in the gaps, each where it overlaps no box and no
//! label placed before it, or not at all (the tooltip keeps every label).
//!
//! Every step sorts with explicit tie-breaks, so one input gives one
//! picture. Sweeps are bounded ([`SWEEPS`]); crossing counts are
//! O(edges^2) per pair of layers.

/// Width and height of a service box, in SVG user units.
pub const NODE_W: i64 = 196;
pub const NODE_H: i64 = 32;
/// Vertical space between two slots of one column.
pub const ROW_GAP: i64 = 12;
/// Height of a virtual node's slot: one edge passing a column.
pub const LANE_H: i64 = 6;
/// Horizontal space between two layers: room for edge labels.
pub const LAYER_GAP: i64 = 150;
pub const MARGIN: i64 = 24;
/// Space above the grid of unconnected services, for its caption.
pub const GRID_CAPTION: i64 = 36;
/// Horizontal space between two boxes of the grid.
pub const GRID_GAP: i64 = 24;
/// Height of an edge label's box.
pub const LABEL_H: f64 = 16.0;
/// Vertical space between two slots of one column in different clusters:
/// room for a cluster's caption band and padding.
pub const CLUSTER_GAP: i64 = 34;
/// A cluster band's caption height (above its first box) and its padding
/// around the boxes.
pub const BAND_HEAD: i64 = 18;
pub const BAND_PAD: i64 = 6;
const SWEEPS: usize = 8;

/// A service box's top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub x: i64,
    pub y: i64,
}

/// A box: left, top, right, bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    pub fn intersects(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// How one edge is drawn: straight runs through columns and cubic curves
/// across gaps, from the caller's box to the callee's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Route {
    /// `(x, y)` corners: the path goes from each to the next, a curve
    /// (horizontal tangents) where the two are in different columns.
    pub points: Vec<(f64, f64)>,
    /// Drawn against the layering (a call back to an earlier layer).
    pub back: bool,
}

#[derive(Clone, Debug)]
pub struct Layout {
    /// One position per service, by index.
    pub nodes: Vec<Pos>,
    /// Each box's height ([`NODE_H`] unless given otherwise).
    pub heights: Vec<i64>,
    /// The layer of each service; `None` for unconnected services.
    pub layer: Vec<Option<usize>>,
    /// Left and right edge of each layer's column.
    pub layer_x: Vec<(i64, i64)>,
    /// One route per edge given, in order; empty for an edge dropped (a
    /// self-call, an index out of range).
    pub routes: Vec<Route>,
    pub width: i64,
    pub height: i64,
    /// Where the caption of the grid of unconnected services goes, if any.
    pub grid_caption_y: Option<i64>,
    /// Where the boxes of one cluster (a namespace) stand together in a
    /// column: drawn behind them, captioned at the top.
    pub bands: Vec<Band>,
}

/// The boxes of one cluster in one column, with room for its caption.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    pub cluster: usize,
    pub rect: Rect,
}

impl Band {
    /// The caption strip at the top of the band, kept clear of labels.
    pub fn head(&self) -> Rect {
        Rect {
            y1: self.rect.y0 + BAND_HEAD as f64,
            ..self.rect
        }
    }
}

impl Layout {
    pub fn node_rect(&self, i: usize) -> Rect {
        let p = self.nodes[i];
        Rect {
            x0: p.x as f64,
            y0: p.y as f64,
            x1: (p.x + NODE_W) as f64,
            y1: (p.y + self.heights.get(i).copied().unwrap_or(NODE_H)) as f64,
        }
    }
}

/// The point at `t` of the curve from `a` to `b` with horizontal tangents.
pub fn curve_at(a: (f64, f64), b: (f64, f64), t: f64) -> (f64, f64) {
    let mid = (a.0 + b.0) / 2.0;
    let u = 1.0 - t;
    let bez = |p0: f64, p1: f64, p2: f64, p3: f64| {
        u * u * u * p0 + 3.0 * u * u * t * p1 + 3.0 * u * t * t * p2 + t * t * t * p3
    };
    (bez(a.0, mid, mid, b.0), bez(a.1, a.1, b.1, b.1))
}

/// Crossings between the edges of two adjacent layers, given each node's
/// index in its layer.
fn crossings(pairs: &[(usize, usize)]) -> usize {
    let mut n = 0;
    for (i, a) in pairs.iter().enumerate() {
        for b in &pairs[i + 1..] {
            if (a.0 < b.0 && a.1 > b.1) || (a.0 > b.0 && a.1 < b.1) {
                n += 1;
            }
        }
    }
    n
}

/// Lay out `n` services joined by `edges` (`from`, `to`, `back`): `back`
/// marks an edge that closes a cycle, drawn but not used for layering.
/// `names` breaks ties so that the order does not depend on discovery;
/// `first` lists services to put first (top) where the order is free (the
/// worst paths').
pub fn layout(n: usize, edges: &[(usize, usize, bool)], names: &[&str]) -> Layout {
    layout_with(n, edges, names, &[])
}

pub fn layout_with(
    n: usize,
    edges: &[(usize, usize, bool)],
    names: &[&str],
    first: &[usize],
) -> Layout {
    layout_sized(n, edges, names, first, &[], &[])
}

/// [`layout_with`] for boxes of other heights than [`NODE_H`] and in
/// clusters: `heights` gives a box's height by index (missing ones are
/// [`NODE_H`]); `clusters` a box's cluster (missing ones are cluster 0).
/// With two clusters or more, each column keeps a cluster's boxes
/// together, [`CLUSTER_GAP`] apart from the next cluster's, and the layout
/// has a [`Band`] for each run of a cluster's boxes in each column.
pub fn layout_sized(
    n: usize,
    edges: &[(usize, usize, bool)],
    names: &[&str],
    first: &[usize],
    heights: &[i64],
    clusters: &[usize],
) -> Layout {
    let heights: Vec<i64> = (0..n)
        .map(|i| heights.get(i).copied().unwrap_or(NODE_H).max(NODE_H))
        .collect();
    let valid = |&(a, b, _): &(usize, usize, bool)| a < n && b < n && a != b;
    let mut connected = vec![false; n];
    for &(a, b, _) in edges.iter().filter(|e| valid(e)) {
        connected[a] = true;
        connected[b] = true;
    }
    let name = |i: usize| names.get(i).copied().unwrap_or("");
    let priority = |i: usize| first.iter().position(|&f| f == i).unwrap_or(usize::MAX);
    let key = |i: usize| (priority(i), name(i).to_string(), i);
    let layer_of = layering(n, edges, &valid, &key);
    let layers_n = (0..n)
        .filter(|&i| connected[i])
        .map(|i| layer_of[i] + 1)
        .max()
        .unwrap_or(0);
    // Virtual nodes: index n.. ; `layer_v` holds every node's layer.
    let mut layer_v: Vec<usize> = layer_of.clone();
    let mut adj_up: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut adj_down: Vec<Vec<usize>> = vec![Vec::new(); n];
    // Each edge's chain in layer order (left to right) and whether reversed.
    let mut chains: Vec<Option<(Vec<usize>, bool)>> = Vec::with_capacity(edges.len());
    for e in edges {
        if !valid(e) {
            chains.push(None);
            continue;
        }
        let (a, b, _) = *e;
        let (l, r, back) = if layer_of[a] <= layer_of[b] {
            (a, b, false)
        } else {
            (b, a, true)
        };
        let mut chain = vec![l];
        for li in layer_of[l] + 1..layer_of[r] {
            let v = layer_v.len();
            layer_v.push(li);
            adj_up.push(Vec::new());
            adj_down.push(Vec::new());
            chain.push(v);
        }
        chain.push(r);
        for w in chain.windows(2) {
            if layer_v[w[0]] < layer_v[w[1]] {
                adj_down[w[0]].push(w[1]);
                adj_up[w[1]].push(w[0]);
            }
        }
        chains.push(Some((chain, back)));
    }
    let total = layer_v.len();
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); layers_n];
    let mut real: Vec<usize> = (0..n).filter(|&i| connected[i]).collect();
    real.sort_by_key(|&i| key(i));
    for v in real {
        layers[layer_v[v]].push(v);
    }
    for v in n..total {
        layers[layer_v[v]].push(v);
    }
    // Each node's cluster: a virtual node's is its edge's left end's.
    let mut cluster_v: Vec<usize> = (0..n)
        .map(|i| clusters.get(i).copied().unwrap_or(0))
        .collect();
    cluster_v.resize(total, 0);
    for (chain, _) in chains.iter().flatten() {
        let c = cluster_v[chain[0]];
        for &v in &chain[1..chain.len() - 1] {
            cluster_v[v] = c;
        }
    }
    let clustered = (0..n)
        .filter(|&i| connected[i])
        .map(|i| cluster_v[i])
        .collect::<std::collections::BTreeSet<_>>()
        .len()
        > 1;
    if !clustered {
        cluster_v.iter_mut().for_each(|c| *c = 0);
    }
    for l in &mut layers {
        l.sort_by_key(|&v| cluster_v[v]);
    }
    order_layers(&mut layers, &adj_up, &adj_down, total, &cluster_v);
    // Coordinates.
    let height_of = |v: usize| if v < n { heights[v] } else { LANE_H };
    let mut y = vec![0f64; total];
    for l in &layers {
        let mut at = 0.0;
        for (k, &v) in l.iter().enumerate() {
            if k > 0 && cluster_v[l[k - 1]] != cluster_v[v] {
                at += (CLUSTER_GAP - ROW_GAP) as f64;
            }
            y[v] = at;
            at += (height_of(v) + ROW_GAP) as f64;
        }
    }
    let centre = |v: usize, y: &[f64]| y[v] + height_of(v) as f64 / 2.0;
    for pass in 0..6 {
        let down = pass % 2 == 0;
        let seq: Vec<usize> = if down {
            (0..layers_n).collect()
        } else {
            (0..layers_n).rev().collect()
        };
        for li in seq {
            let adj = if down { &adj_up } else { &adj_down };
            let want: Vec<f64> = layers[li]
                .iter()
                .map(|&v| {
                    let ns = &adj[v];
                    if ns.is_empty() {
                        centre(v, &y)
                    } else {
                        ns.iter().map(|&w| centre(w, &y)).sum::<f64>() / ns.len() as f64
                    }
                })
                .collect();
            place_column(&layers[li], &want, &height_of, &cluster_v, &mut y);
        }
    }
    let top = y.iter().copied().fold(f64::INFINITY, f64::min);
    let top = if top.is_finite() { top } else { 0.0 };
    let mut nodes = vec![Pos { x: 0, y: 0 }; n];
    let mut layer = vec![None; n];
    let col_x = |li: usize| MARGIN + li as i64 * (NODE_W + LAYER_GAP);
    let mut bottom = 0i64;
    // Room above the first boxes for a band's caption.
    let band_room = if clustered { BAND_HEAD + BAND_PAD } else { 0 };
    let mut yv = vec![0i64; total];
    for (v, yy) in yv.iter_mut().enumerate() {
        *yy = MARGIN + band_room + (y[v] - top).round() as i64;
    }
    for l in &layers {
        for &v in l {
            bottom = bottom.max(yv[v] + height_of(v) + band_room.min(BAND_PAD));
            if v < n {
                nodes[v] = Pos {
                    x: col_x(layer_v[v]),
                    y: yv[v],
                };
                layer[v] = Some(layer_v[v]);
            }
        }
    }
    let mut bands = Vec::new();
    if clustered {
        for (li, l) in layers.iter().enumerate() {
            let real: Vec<usize> = l.iter().copied().filter(|&v| v < n).collect();
            for run in real.chunk_by(|&a, &b| cluster_v[a] == cluster_v[b]) {
                let y0 = run.iter().map(|&v| yv[v]).min().unwrap_or(0);
                let y1 = run.iter().map(|&v| yv[v] + height_of(v)).max().unwrap_or(0);
                bands.push(Band {
                    cluster: cluster_v[run[0]],
                    rect: Rect {
                        x0: (col_x(li) - BAND_PAD) as f64,
                        y0: (y0 - BAND_HEAD - BAND_PAD) as f64,
                        x1: (col_x(li) + NODE_W + BAND_PAD) as f64,
                        y1: (y1 + BAND_PAD) as f64,
                    },
                });
            }
        }
    }
    let layer_x: Vec<(i64, i64)> = (0..layers_n)
        .map(|li| (col_x(li), col_x(li) + NODE_W))
        .collect();
    let graph_right = layer_x.last().map_or(MARGIN, |l| l.1);
    // Routes through the chains.
    let routes = chains
        .iter()
        .map(|c| {
            let Some((chain, back)) = c else {
                return Route::default();
            };
            let mut points = Vec::new();
            if chain.len() == 2 && layer_v[chain[0]] == layer_v[chain[1]] {
                // Two services of one column: out of the right side into
                // the gap and back.
                let x = (col_x(layer_v[chain[0]]) + NODE_W) as f64;
                let cy = |v: usize| (yv[v] + height_of(v) / 2) as f64;
                let (a, b) = (cy(chain[0]), cy(chain[1]));
                points = vec![(x, a), (x + LAYER_GAP as f64 / 3.0, (a + b) / 2.0), (x, b)];
                if *back {
                    points.reverse();
                }
                return Route { points, back: true };
            }
            for (k, &v) in chain.iter().enumerate() {
                let x = col_x(layer_v[v]) as f64;
                let cy = (yv[v] + height_of(v) / 2) as f64;
                if k > 0 {
                    points.push((x, cy));
                }
                if k + 1 < chain.len() {
                    points.push((x + NODE_W as f64, cy));
                }
            }
            if *back {
                points.reverse();
            }
            Route {
                points,
                back: *back,
            }
        })
        .collect();
    // The grid of unconnected services.
    let graph_bottom = if layers_n > 0 { bottom } else { 0 };
    let mut lonely: Vec<usize> = (0..n).filter(|&i| !connected[i]).collect();
    let pitch_y = lonely.iter().map(|&i| heights[i]).max().unwrap_or(NODE_H) + ROW_GAP;
    lonely.sort_by_key(|&i| (name(i).to_string(), i));
    let mut grid_caption_y = None;
    let mut height = graph_bottom + MARGIN;
    let mut width = graph_right + MARGIN;
    if !lonely.is_empty() {
        let per_row = (((graph_right - MARGIN + GRID_GAP) / (NODE_W + GRID_GAP)) as usize)
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
                x: MARGIN + (i % per_row) as i64 * (NODE_W + GRID_GAP),
                y: top + (i / per_row) as i64 * pitch_y,
            };
        }
        let rows = lonely.len().div_ceil(per_row) as i64;
        height = top + rows * pitch_y - ROW_GAP + MARGIN;
        width = width.max(MARGIN + per_row as i64 * (NODE_W + GRID_GAP) - GRID_GAP + MARGIN);
    }
    Layout {
        nodes,
        heights,
        layer,
        layer_x,
        routes,
        width: width.max(2 * MARGIN + NODE_W),
        height: height.max(2 * MARGIN + NODE_H),
        grid_caption_y,
        bands,
    }
}

/// Longest-path layers over the edges that go forward in a topological
/// order (Kahn, ties by `key`); what an unmarked cycle leaves is appended.
fn layering<K: Ord>(
    n: usize,
    edges: &[(usize, usize, bool)],
    valid: &dyn Fn(&(usize, usize, bool)) -> bool,
    key: &dyn Fn(usize) -> K,
) -> Vec<usize> {
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indeg = vec![0usize; n];
    for e in edges.iter().filter(|e| valid(e) && !e.2) {
        succ[e.0].push(e.1);
        indeg[e.1] += 1;
    }
    let mut ready: std::collections::BTreeSet<(K, usize)> = (0..n)
        .filter(|&i| indeg[i] == 0)
        .map(|i| (key(i), i))
        .collect();
    let mut order = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    while let Some(first) = ready.pop_first() {
        let v = first.1;
        order.push(v);
        placed[v] = true;
        for &w in &succ[v] {
            indeg[w] -= 1;
            if indeg[w] == 0 {
                ready.insert((key(w), w));
            }
        }
    }
    let mut rest: Vec<usize> = (0..n).filter(|&i| !placed[i]).collect();
    rest.sort_by_key(|&i| key(i));
    order.extend(rest);
    let mut rank = vec![0usize; n];
    for (k, &v) in order.iter().enumerate() {
        rank[v] = k;
    }
    let mut layer = vec![0usize; n];
    for &v in &order {
        for &w in &succ[v] {
            if rank[w] > rank[v] {
                layer[w] = layer[w].max(layer[v] + 1);
            }
        }
    }
    layer
}

/// Barycentre sweeps; keeps the order with the fewest crossings.
fn order_layers(
    layers: &mut [Vec<usize>],
    adj_up: &[Vec<usize>],
    adj_down: &[Vec<usize>],
    total: usize,
    cluster: &[usize],
) {
    let mut pos = vec![0f64; total];
    let refresh = |layers: &[Vec<usize>], pos: &mut Vec<f64>| {
        for l in layers {
            for (i, &v) in l.iter().enumerate() {
                pos[v] = i as f64;
            }
        }
    };
    let count = |layers: &[Vec<usize>], pos: &[f64]| -> usize {
        let mut c = 0;
        for l in layers {
            let pairs: Vec<(usize, usize)> = l
                .iter()
                .flat_map(|&v| adj_down[v].iter().map(move |&w| (v, w)))
                .map(|(v, w)| (pos[v] as usize, pos[w] as usize))
                .collect();
            c += crossings(&pairs);
        }
        c
    };
    refresh(layers, &mut pos);
    let mut best = (count(layers, &pos), layers.to_vec());
    for _ in 0..SWEEPS {
        for li in 1..layers.len() {
            reorder(&mut layers[li], adj_up, &pos, cluster);
            refresh(layers, &mut pos);
        }
        for li in (0..layers.len().saturating_sub(1)).rev() {
            reorder(&mut layers[li], adj_down, &pos, cluster);
            refresh(layers, &mut pos);
        }
        let c = count(layers, &pos);
        if c < best.0 {
            best = (c, layers.to_vec());
        }
        if c == 0 {
            break;
        }
    }
    layers.clone_from_slice(&best.1);
}

/// Sort one layer by the mean position of each node's neighbours in `adj`
/// within its cluster (clusters stay together, in their order); a node
/// without such neighbours keeps its place. Stable.
fn reorder(layer: &mut [usize], adj: &[Vec<usize>], pos: &[f64], cluster: &[usize]) {
    let mut keyed: Vec<(f64, usize, usize)> = layer
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let ns = &adj[v];
            let key = if ns.is_empty() {
                i as f64
            } else {
                ns.iter().map(|&w| pos[w]).sum::<f64>() / ns.len() as f64
            };
            (key, i, v)
        })
        .collect();
    keyed.sort_by(|a, b| {
        cluster[a.2]
            .cmp(&cluster[b.2])
            .then(a.0.total_cmp(&b.0))
            .then(a.1.cmp(&b.1))
    });
    for (slot, (_, _, v)) in layer.iter_mut().zip(keyed) {
        *slot = v;
    }
}

/// Place one column's slots as near their wanted centres as their order
/// and spacing allow: top down pushing apart, then the whole block moved
/// by the mean residual so it is not all pushed to one side.
fn place_column(
    col: &[usize],
    want: &[f64],
    height_of: &dyn Fn(usize) -> i64,
    cluster: &[usize],
    y: &mut [f64],
) {
    if col.is_empty() {
        return;
    }
    let mut at = f64::NEG_INFINITY;
    let mut placed = Vec::with_capacity(col.len());
    for (k, &v) in col.iter().enumerate() {
        let h = height_of(v) as f64;
        if k > 0 && cluster[col[k - 1]] != cluster[v] {
            at += (CLUSTER_GAP - ROW_GAP) as f64;
        }
        let top = (want[k] - h / 2.0).max(at);
        placed.push(top);
        at = top + h + ROW_GAP as f64;
    }
    let shift = col
        .iter()
        .zip(&placed)
        .zip(want)
        .map(|((&v, &p), &w)| w - (p + height_of(v) as f64 / 2.0))
        .sum::<f64>()
        / col.len() as f64;
    for (&v, p) in col.iter().zip(placed) {
        y[v] = p + shift;
    }
}

/// Where each label goes: `sizes[i]` is `(edge, width)`, in the order of
/// priority (worst paths first). A label sits on its edge in a gap
/// between columns, at the first of a few spots where its box meets no
/// box of a service and no label placed before; `None` where there is no
/// such spot.
pub fn place_labels(l: &Layout, sizes: &[(usize, f64)]) -> Vec<(usize, Option<Rect>)> {
    let boxes: Vec<Rect> = (0..l.nodes.len())
        .map(|i| l.node_rect(i))
        .chain(l.bands.iter().map(Band::head))
        .collect();
    let mut placed: Vec<Rect> = Vec::new();
    let mut out = Vec::with_capacity(sizes.len());
    for &(e, w) in sizes {
        let Some(route) = l.routes.get(e) else {
            out.push((e, None));
            continue;
        };
        // Gap segments: from a column's right side to the next's left.
        let segments: Vec<((f64, f64), (f64, f64))> = route
            .points
            .windows(2)
            .filter(|p| (p[0].0 - p[1].0).abs() > NODE_W as f64 / 2.0 + 1.0)
            .map(|p| (p[0], p[1]))
            .collect();
        let mut spot = None;
        'find: for &(a, b) in segments.iter().chain(segments.iter().rev()).take(2) {
            for t in [0.5, 0.3, 0.7, 0.15, 0.85, 0.4, 0.6] {
                let (x, y) = curve_at(a, b, t);
                let r = Rect {
                    x0: x - w / 2.0,
                    y0: y - LABEL_H / 2.0,
                    x1: x + w / 2.0,
                    y1: y + LABEL_H / 2.0,
                };
                if boxes.iter().chain(&placed).all(|o| !o.intersects(&r)) {
                    spot = Some(r);
                    break 'find;
                }
            }
        }
        if let Some(r) = spot {
            placed.push(r);
        }
        out.push((e, spot));
    }
    out
}

/// Pairs (edge, service) where the edge's drawn route passes through the
/// service's box (other than its own ends), sampled along each curve.
pub fn crossings_of_boxes(l: &Layout, edges: &[(usize, usize, bool)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (e, route) in l.routes.iter().enumerate() {
        let Some(&(from, to, _)) = edges.get(e) else {
            continue;
        };
        for p in route.points.windows(2) {
            for k in 1..40 {
                let (x, y) = curve_at(p[0], p[1], k as f64 / 40.0);
                for s in 0..l.nodes.len() {
                    if s == from || s == to {
                        continue;
                    }
                    let r = l.node_rect(s);
                    if r.x0 < x && x < r.x1 && r.y0 < y && y < r.y1 && !out.contains(&(e, s)) {
                        out.push((e, s));
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
