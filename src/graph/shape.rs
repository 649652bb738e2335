//! The graph's shape once built: parallel calls merged into one edge,
//! and cycles found once.

use super::*;

/// One edge per caller and callee: the call site with the most attempts
/// (then the most layers, then the first) stands for the others, which are
/// kept as `also`.
pub(super) fn merge_parallel(g: &mut Graph) {
    let mut best: BTreeMap<(ServiceId, ServiceId), usize> = BTreeMap::new();
    for (i, e) in g.edges.iter().enumerate() {
        let key = (e.from, e.to);
        match best.get(&key) {
            Some(&j) => {
                let cur = &g.edges[j];
                if (e.factor(), e.layers.len()) > (cur.factor(), cur.layers.len()) {
                    best.insert(key, i);
                }
            }
            None => {
                best.insert(key, i);
            }
        }
    }
    let keep: BTreeSet<usize> = best.values().copied().collect();
    let mut also: BTreeMap<(ServiceId, ServiceId), Vec<Loc>> = BTreeMap::new();
    for (i, e) in g.edges.iter().enumerate() {
        if !keep.contains(&i) {
            also.entry((e.from, e.to)).or_default().push(e.proof);
        }
    }
    let edges = std::mem::take(&mut g.edges);
    for (i, mut e) in edges.into_iter().enumerate() {
        if keep.contains(&i) {
            e.also = also.remove(&(e.from, e.to)).unwrap_or_default();
            g.edges.push(e);
        }
    }
}

/// Depth-first search with an explicit stack: back edges close cycles.
pub(super) fn find_cycles(g: &mut Graph) {
    let n = g.services.len();
    // 0 = unvisited, 1 = on the stack, 2 = done
    let mut state = vec![0u8; n];
    let mut parent_edge: Vec<Option<usize>> = vec![None; n];
    // Start from services nobody calls, so that a cycle's back edge is the
    // one that returns towards the entry, then from the rest.
    let mut called = vec![false; n];
    for e in &g.edges {
        called[e.to] = true;
    }
    let mut order: Vec<ServiceId> = (0..n).collect();
    order.sort_by(|a, b| {
        called[*a]
            .cmp(&called[*b])
            .then_with(|| g.services[*a].name.cmp(&g.services[*b].name))
    });
    for start in order {
        if state[start] != 0 {
            continue;
        }
        let mut stack: Vec<(ServiceId, usize)> = vec![(start, 0)];
        state[start] = 1;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            crate::guard::checkpoint();
            if let Some(&ei) = g.out[node].get(*next) {
                *next += 1;
                let to = g.edges[ei].to;
                match state[to] {
                    0 => {
                        state[to] = 1;
                        parent_edge[to] = Some(ei);
                        stack.push((to, 0));
                    }
                    1 => {
                        g.back_edges.insert(ei);
                        // The cycle: from `to` down the stack to `node`.
                        let pos = stack.iter().position(|(s, _)| *s == to).unwrap_or(0);
                        let cycle: Vec<ServiceId> = stack[pos..].iter().map(|(s, _)| *s).collect();
                        g.cycles.push(cycle);
                    }
                    _ => {}
                }
            } else {
                state[node] = 2;
                stack.pop();
            }
        }
    }
}
