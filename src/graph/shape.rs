//! The graph's shape once built: parallel calls merged into one edge,
//! and cycles found once.

use super::*;

/// One edge per caller and callee: the call site with the most attempts
/// (then the most layers, then the first) stands for the others, which are
/// kept as `also`.
///
/// Calls into a service whose routes select by path stay apart where
/// their paths differ, and so do a gateway's routes with different
/// patterns (`routes.rs`): each is a path of its own.
pub(super) fn merge_parallel(g: &mut Graph) {
    let routing: BTreeSet<ServiceId> = g
        .edges
        .iter()
        .filter(|e| !e.route.is_empty())
        .map(|e| e.from)
        .collect();
    let key_of = |e: &Edge| {
        let path = if routing.contains(&e.to) {
            e.path.clone()
        } else {
            None
        };
        (e.from, e.to, path, e.route.clone())
    };
    type Key = (ServiceId, ServiceId, Option<String>, Vec<String>);
    let mut best: BTreeMap<Key, usize> = BTreeMap::new();
    for (i, e) in g.edges.iter().enumerate() {
        let key = key_of(e);
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
    let mut also: BTreeMap<Key, Vec<Loc>> = BTreeMap::new();
    for (i, e) in g.edges.iter().enumerate() {
        if !keep.contains(&i) {
            also.entry(key_of(e)).or_default().push(e.proof);
        }
    }
    let edges = std::mem::take(&mut g.edges);
    for (i, mut e) in edges.into_iter().enumerate() {
        if keep.contains(&i) {
            e.also = also.remove(&key_of(&e)).unwrap_or_default();
            g.edges.push(e);
        }
    }
}

/// Depth-first search over the steps paths take, edge to edge
/// ([`Graph::all_next`]: a gateway's routes are taken only by the paths
/// they match), with an explicit stack: a step to an edge already on the
/// stack closes a cycle. That step is cut (`back_moves`), so the edge
/// that returns is still on every path that reaches it, counted once;
/// it is the cycle's back edge (drawn backwards).
pub(super) fn find_cycles(g: &mut Graph) {
    let n = g.services.len();
    // 0 = unvisited, 1 = on the stack, 2 = done; per edge
    let mut state = vec![0u8; g.edges.len()];
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
    let mut seen: BTreeSet<Vec<ServiceId>> = BTreeSet::new();
    for start in order {
        for root in g.out[start].clone() {
            if state[root] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, Vec<usize>, usize)> =
                vec![(root, g.all_next(root).collect(), 0)];
            state[root] = 1;
            while let Some((e, nexts, i)) = stack.last_mut() {
                crate::guard::checkpoint();
                let e = *e;
                if let Some(&to) = nexts.get(*i) {
                    *i += 1;
                    match state[to] {
                        0 => {
                            state[to] = 1;
                            let more = g.all_next(to).collect();
                            stack.push((to, more, 0));
                        }
                        1 => {
                            g.back_moves.insert((e, to));
                            g.back_edges.insert(e);
                            // The cycle: the services the edges from `to`
                            // to `e` leave, once per set of services.
                            let pos = stack.iter().position(|(s, ..)| *s == to).unwrap_or(0);
                            let cycle: Vec<ServiceId> =
                                stack[pos..].iter().map(|(s, ..)| g.edges[*s].from).collect();
                            let mut key = cycle.clone();
                            key.sort_unstable();
                            if seen.insert(key) {
                                g.cycles.push(cycle);
                            }
                        }
                        _ => {}
                    }
                } else {
                    state[e] = 2;
                    stack.pop();
                }
            }
        }
    }
}
