use super::*;

fn overlaps(l: &Layout) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 0..l.nodes.len() {
        for j in i + 1..l.nodes.len() {
            if l.node_rect(i).intersects(&l.node_rect(j)) {
                out.push((i, j));
            }
        }
    }
    out
}

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("svc{i:02}")).collect()
}

fn run(n: usize, edges: &[(usize, usize, bool)]) -> Layout {
    let names = names(n);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    layout(n, edges, &refs)
}

/// A generated graph of `n` services shaped like a monorepo: a gateway,
/// a front that calls many services, chains between them, calls that skip
/// layers, a cycle, and leaves.
pub fn monorepo(n: usize) -> Vec<(usize, usize, bool)> {
    let mut edges = vec![(0, 1, false)];
    for i in 2..n / 2 {
        edges.push((1, i, false));
    }
    for i in 2..n - 1 {
        // Each service calls one further on, and every third one a leaf.
        edges.push((i, (i * 7 + 3) % (n - 2) + 2, false));
        if i % 3 == 0 {
            edges.push((i, n - 1 - i % 5, false));
        }
    }
    edges.retain(|&(a, b, _)| a != b);
    edges.sort();
    edges.dedup();
    edges
}

#[test]
fn a_chain_goes_left_to_right_in_one_row() {
    let l = run(4, &[(0, 1, false), (1, 2, false), (2, 3, false)]);
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
    let l = run(
        3,
        &[(0, 1, false), (1, 2, false), (0, 2, false), (2, 0, true)],
    );
    assert_eq!(l.layer, vec![Some(0), Some(1), Some(2)]);
    // The edge that skips a layer passes layer 1 beside service 1, not
    // through it; the back edge is drawn against the layering.
    assert!(
        crossings_of_boxes(
            &l,
            &[(0, 1, false), (1, 2, false), (0, 2, false), (2, 0, true)]
        )
        .is_empty()
    );
    assert!(l.routes[3].back);
}

#[test]
fn an_unmarked_cycle_still_terminates_with_every_node_placed() {
    let l = run(3, &[(0, 1, false), (1, 2, false), (2, 0, false)]);
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
fn crossings_are_counted() {
    assert_eq!(crossings(&[(0, 1), (1, 0)]), 1);
    assert_eq!(crossings(&[(0, 0), (1, 1), (2, 2)]), 0);
    assert_eq!(crossings(&[(0, 2), (1, 1), (2, 0)]), 3);
}

#[test]
fn worst_path_services_go_first() {
    let names = ["a", "b", "c", "d"];
    let edges = [(0, 1, false), (0, 2, false), (0, 3, false)];
    let l = layout_with(4, &edges, &names, &[0, 3]);
    assert!(l.nodes[3].y < l.nodes[1].y, "{:?}", l.nodes);
}

#[test]
fn sixty_services_no_overlap_no_edge_through_a_box_no_label_on_another() {
    let n = 60;
    let edges = monorepo(n);
    let l = run(n, &edges);
    assert!(overlaps(&l).is_empty(), "{:?}", overlaps(&l));
    let through = crossings_of_boxes(&l, &edges);
    assert!(through.is_empty(), "edges through boxes: {through:?}");
    for p in &l.nodes {
        assert!(p.x >= 0 && p.y >= 0);
        assert!(p.x + NODE_W <= l.width && p.y + NODE_H <= l.height);
    }
    let sizes: Vec<(usize, f64)> = (0..edges.len()).map(|e| (e, 90.0)).collect();
    let labels = place_labels(&l, &sizes);
    let boxes: Vec<Rect> = labels.iter().filter_map(|(_, r)| *r).collect();
    assert!(
        boxes.len() * 2 > edges.len(),
        "{} of {} labelled",
        boxes.len(),
        edges.len()
    );
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            assert!(!a.intersects(b), "{a:?} {b:?}");
        }
        for s in 0..n {
            assert!(!a.intersects(&l.node_rect(s)), "label {a:?} on service {s}");
        }
    }
}

#[test]
fn every_route_starts_and_ends_at_its_boxes() {
    let n = 30;
    let edges = monorepo(n);
    let l = run(n, &edges);
    for (e, &(a, b, _)) in edges.iter().enumerate() {
        let pts = &l.routes[e].points;
        let (first, last) = (pts[0], pts[pts.len() - 1]);
        let (ra, rb) = (l.node_rect(a), l.node_rect(b));
        let on =
            |r: &Rect, p: (f64, f64)| (p.0 == r.x0 || p.0 == r.x1) && r.y0 <= p.1 && p.1 <= r.y1;
        assert!(on(&ra, first) && on(&rb, last), "edge {e}: {pts:?}");
    }
}

#[test]
fn deterministic() {
    let edges = monorepo(40);
    let a = run(40, &edges);
    let b = run(40, &edges);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.routes, b.routes);
}

#[test]
fn empty_graph() {
    let l = layout(0, &[], &[]);
    assert!(l.nodes.is_empty());
    assert!(l.width > 0 && l.height > 0);
}

#[test]
fn the_box_check_sees_a_route_through_a_box() {
    // Three services in one row and a straight route from the first to
    // the third: it passes through the second.
    let mut l = run(3, &[(0, 1, false), (1, 2, false)]);
    let y = (l.nodes[0].y + NODE_H / 2) as f64;
    l.routes = vec![Route {
        points: vec![
            ((l.nodes[0].x + NODE_W) as f64, y),
            (l.nodes[2].x as f64, y),
        ],
        back: false,
    }];
    assert_eq!(crossings_of_boxes(&l, &[(0, 2, false)]), [(0, 1)]);
}

/// Clusters (namespaces): in each column a cluster's boxes stand together,
/// each run in a band that holds its boxes and no other's; bands do not
/// meet; boxes of varied heights do not overlap; no edge passes a box.
#[test]
fn clusters_keep_together_in_bands_of_their_own() {
    let n = 40;
    let edges = monorepo(n);
    let names = names(n);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let clusters: Vec<usize> = (0..n).map(|i| 1 + i % 3).collect();
    let heights: Vec<i64> = (0..n)
        .map(|i| if i % 7 == 0 { 70 } else { NODE_H })
        .collect();
    let l = layout_sized(n, &edges, &refs, &[], &heights, &clusters);
    assert!(overlaps(&l).is_empty(), "{:?}", overlaps(&l));
    assert!(crossings_of_boxes(&l, &edges).is_empty());
    assert!(!l.bands.is_empty());
    for (li, _) in l.layer_x.iter().enumerate() {
        let mut col: Vec<usize> = (0..n).filter(|&i| l.layer[i] == Some(li)).collect();
        col.sort_by_key(|&i| l.nodes[i].y);
        let runs = col.chunk_by(|&a, &b| clusters[a] == clusters[b]).count();
        let distinct = col
            .iter()
            .map(|&i| clusters[i])
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        assert_eq!(runs, distinct, "column {li}: a cluster split");
    }
    for (k, b) in l.bands.iter().enumerate() {
        for (i, &cluster) in clusters.iter().enumerate() {
            let r = l.node_rect(i);
            let inside =
                r.x0 >= b.rect.x0 && r.x1 <= b.rect.x1 && r.y0 >= b.rect.y0 && r.y1 <= b.rect.y1;
            if r.intersects(&b.rect) {
                assert!(inside && cluster == b.cluster, "box {i} in band {k}");
            }
        }
        for c in &l.bands[k + 1..] {
            assert!(!b.rect.intersects(&c.rect), "bands {b:?} and {c:?} meet");
        }
        assert!(b.rect.y0 >= 0.0 && b.rect.y1 <= l.height as f64, "{b:?}");
    }
    // One cluster: no bands, and the same picture as without clusters.
    let one = layout_sized(n, &edges, &refs, &[], &[], &vec![4; n]);
    assert!(one.bands.is_empty());
    assert_eq!(one.nodes, layout(n, &edges, &refs).nodes);
}
