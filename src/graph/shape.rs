//! The graph's shape once built: parallel calls merged into one edge,
//! and cycles found once.

use super::*;

/// One edge per caller and callee: the call site with the most attempts
/// (then the most layers, then the first) stands for the others, which are
/// kept as `also`. Where the one that stands says nothing of its protocol
/// and the others all state one HTTP or gRPC protocol (a compose entry
/// without a scheme beside the code's `http://` URL), the edge takes it:
/// an unknown protocol is treated as HTTP when layers are found, so the
/// layers stay right.
///
/// Calls into a service whose routes select by path stay apart where
/// their paths differ (`routes.rs`): each is a path of its own. A
/// gateway's routes to one callee are one edge that takes the paths of
/// each (every path, if one of them is not a route).
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
        (e.from, e.to, path, e.host.clone())
    };
    type Key = (ServiceId, ServiceId, Option<String>, Option<String>);
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
    // The routes' patterns of each group; `None`: one is not a route.
    let mut routes: BTreeMap<Key, Option<Vec<String>>> = BTreeMap::new();
    for (i, e) in g.edges.iter().enumerate() {
        let r = routes.entry(key_of(e)).or_insert_with(|| Some(Vec::new()));
        match r {
            Some(ps) if !e.route.is_empty() => ps.extend(e.route.iter().cloned()),
            _ => *r = None,
        }
        if !keep.contains(&i) {
            also.entry(key_of(e)).or_default().push(e.proof);
        }
    }
    // The protocols the group's calls state: `None` once two differ.
    let mut stated: BTreeMap<Key, Option<Protocol>> = BTreeMap::new();
    for e in g.edges.iter().filter(|e| e.protocol != Protocol::Unknown) {
        stated
            .entry(key_of(e))
            .and_modify(|p| {
                if *p != Some(e.protocol) {
                    *p = None;
                }
            })
            .or_insert(Some(e.protocol));
    }
    let edges = std::mem::take(&mut g.edges);
    for (i, mut e) in edges.into_iter().enumerate() {
        if keep.contains(&i) {
            let key = key_of(&e);
            if e.protocol == Protocol::Unknown
                && let Some(&Some(p)) = stated.get(&key)
                && p.is_l7()
            {
                e.protocol = p;
            }
            e.also = also.remove(&key).unwrap_or_default();
            let mut r = routes.remove(&key).flatten().unwrap_or_default();
            r.sort();
            r.dedup();
            e.route = r;
            g.edges.push(e);
        }
    }
}

/// Depth-first search over the steps paths take, edge to edge
/// ([`Graph::all_next`]: a gateway's routes are taken only by the paths
/// they match), with an explicit stack. A path visits a service once (a
/// gateway once per path it is called with: each selects other routes):
/// a step to an edge that returns to a service on the stack closes a
/// cycle, and that step is cut (`back_moves`; the edge is the cycle's
/// back edge, drawn backwards). Each cycle is said once (RL401 reports
/// those that retry).
pub(super) fn find_cycles(g: &mut Graph) {
    let n = g.services.len();
    // 0 = unvisited, 1 = on the stack, 2 = done; per edge
    let mut state = vec![0u8; g.edges.len()];
    // Services whose edges are routes selected by the caller's path.
    let routing: BTreeSet<ServiceId> = g
        .edges
        .iter()
        .filter(|e| !e.route.is_empty())
        .map(|e| e.from)
        .collect();
    // Where an edge arrives: its callee, and the path a routing callee
    // is called with.
    // A service, the path a routing one is called with, the Ingress host.
    type Arrival = (ServiceId, Option<String>, Option<String>);
    let arrival = |e: &Edge| -> Arrival {
        (
            e.to,
            e.path.clone().filter(|_| routing.contains(&e.to)),
            e.host.clone(),
        )
    };
    // How many times each arrival is on the stack's path.
    let mut on_path: HashMap<Arrival, u32> = HashMap::new();
    // Start from services nobody calls, so that a cycle's back edge is the
    // one that returns towards the entry, then from the rest.
    let mut called = vec![false; n];
    for e in g.edges.iter().filter(|e| e.host.is_none()) {
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
            *on_path.entry((start, None, None)).or_default() += 1;
            *on_path.entry(arrival(&g.edges[root])).or_default() += 1;
            let mut stack: Vec<(usize, Vec<usize>, usize)> =
                vec![(root, g.all_next(root).collect(), 0)];
            state[root] = 1;
            while let Some((e, nexts, i)) = stack.last_mut() {
                crate::guard::checkpoint();
                let e = *e;
                if let Some(&next) = nexts.get(*i) {
                    *i += 1;
                    let at = arrival(&g.edges[next]);
                    if on_path.get(&at).is_some_and(|&c| c > 0) {
                        g.back_moves.insert((e, next));
                        g.back_edges.insert(next);
                        // The cycle: the services from `to` on along the
                        // stack's path, once per set of services.
                        let path: Vec<Arrival> = std::iter::once((start, None, None))
                            .chain(stack.iter().map(|(s, ..)| arrival(&g.edges[*s])))
                            .collect();
                        let pos = path.iter().position(|s| *s == at).unwrap_or(0);
                        let cycle: Vec<ServiceId> = path[pos..].iter().map(|(s, ..)| *s).collect();
                        let mut key = cycle.clone();
                        key.sort_unstable();
                        if seen.insert(key) {
                            g.cycles.push(cycle);
                        }
                    } else if state[next] == 0 {
                        state[next] = 1;
                        *on_path.entry(at).or_default() += 1;
                        let more = g.all_next(next).collect();
                        stack.push((next, more, 0));
                    }
                } else {
                    state[e] = 2;
                    if let Some(c) = on_path.get_mut(&arrival(&g.edges[e])) {
                        *c -= 1;
                    }
                    stack.pop();
                }
            }
            if let Some(c) = on_path.get_mut(&(start, None, None)) {
                *c -= 1;
            }
        }
    }
}
