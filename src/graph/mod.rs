//! The call-path graph (docs/architecture.md, "The call-path graph").
//!
//! Nodes are services, edges are calls, and each edge carries the retry
//! *layers* that apply to that call: the caller's code and SDK policies,
//! the caller's sidecar (the VirtualService for the callee's host, or
//! Istio's default where the mesh is in use and nothing is written), and
//! proxies. Path rules read the worst path from every entry point, found
//! with memoisation in time linear in the edges; cycles are found once and
//! never loop the analysis.

use crate::config::Settings;
use crate::duration::human;
use crate::model::ScannedFile;
use crate::model::calls::{IdentityKind, Protocol, outside_mesh, short_host, whole_map_env};
use crate::model::{
    AttemptCount, ClientScope, Layer as LayerKind, Provenance, RetryPolicy, System, backoff,
};
use crate::source::{FileId, Span};
use crate::systems;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Duration;

pub type ServiceId = usize;

/// A place in a scanned file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc {
    pub file: FileId,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Service {
    pub name: String,
    /// Where the identity comes from (file, span, how).
    pub sources: Vec<(Loc, String)>,
    /// What declares it, as the graph reads it (one per source).
    pub kinds: BTreeSet<IdentityKind>,
}

/// Why a caller's calls go through a mesh's sidecar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MeshEvidence {
    /// `mesh = "istio"` or `"linkerd"` in the configuration.
    Configured,
    /// The workload's pod template asks for injection (or its Gateway's
    /// class is the mesh's).
    Workload,
    /// The workload's namespace injects.
    Namespace,
    /// Nothing says so: the repository holds the mesh's resources, and
    /// the workload is assumed to run in it.
    Assumed,
    /// The workload's namespace runs in Istio's ambient mode: no sidecar,
    /// so no retry on the caller's side; L7 policy applies only at the
    /// callee's waypoint, where one is named.
    Ambient,
}

/// The mesh a caller runs in, for one call, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Membership {
    pub mesh: System,
    pub how: MeshEvidence,
    /// The label, annotation or resource that says it (for `Assumed`, the
    /// mesh resource that caused the assumption; for `Configured`, the
    /// call).
    pub loc: Loc,
    /// The folder of the workload declaration this call was placed in,
    /// where the workload is deployed in more than one variant
    /// (`k8s-istio/` beside `k8s-plain/`).
    pub variant: Option<String>,
}

/// One retry layer on an edge.
#[derive(Clone, Debug)]
pub struct RetryLayer {
    /// The policy, where a file writes it.
    pub policy: Option<(FileId, usize)>,
    pub system: System,
    pub kind: LayerKind,
    pub attempts: AttemptCount,
    /// Per-attempt timeout, where known and finite.
    pub per_try: Option<Duration>,
    /// Overall timeout of the layer, where finite.
    pub overall: Option<Duration>,
    /// Sum of the nominal delays between attempts.
    pub backoff: Duration,
    /// Hedged copies sent this far apart run side by side
    /// ([`RetryPolicy::hedge_delay`]).
    pub hedge_delay: Option<Duration>,
    /// A platform default nobody wrote.
    pub implicit: bool,
    /// Where it is written (or, for an implicit layer, the edge's proof).
    pub loc: Loc,
    /// Where its per-try (or else overall) timeout is written.
    pub timeout_loc: Option<Loc>,
    /// "nginx tries", "Resilience4j `payments`", "Istio default".
    pub label: String,
    /// The setting as written (`attempts: 2`) or the default's description.
    pub setting: String,
}

impl RetryLayer {
    /// Total attempts as a multiplier (unbounded counts as one: RL205
    /// reports it; unknown likewise).
    pub fn factor(&self) -> u64 {
        self.attempts.finite().unwrap_or(1).max(1)
    }
    pub fn retries(&self) -> bool {
        self.factor() > 1
    }
}

#[derive(Clone, Debug)]
pub struct Edge {
    pub from: ServiceId,
    pub to: ServiceId,
    /// The file and line that show the call.
    pub proof: Loc,
    pub via: String,
    /// Outermost first: application, SDK, mesh, proxy.
    pub layers: Vec<RetryLayer>,
    /// Other places that show the same call with no more retries than
    /// this one (the same call in a compose file, an env entry).
    pub also: Vec<Loc>,
    /// What the call speaks: L7 layers (a sidecar) apply to HTTP and gRPC
    /// only.
    pub protocol: Protocol,
    /// The caller's mesh for this call, where it runs in one.
    pub mesh: Option<Membership>,
}

impl Edge {
    /// Attempts that reach the callee per call on this edge.
    pub fn factor(&self) -> u64 {
        self.layers
            .iter()
            .fold(1u64, |acc, l| acc.saturating_mul(l.factor()))
    }
}

/// Something the graph could not place, said once.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GraphNote {
    pub loc: Loc,
    pub message: String,
}

#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub services: Vec<Service>,
    pub edges: Vec<Edge>,
    /// Each cycle once, as the services on it.
    pub cycles: Vec<Vec<ServiceId>>,
    pub notes: Vec<GraphNote>,
    pub mesh: bool,
    /// Entry points: services nobody calls, and those named in config.
    pub entries: Vec<ServiceId>,
    /// Edges per service, by index into `edges`.
    out: Vec<Vec<usize>>,
    /// Edges that close a cycle; paths do not follow them.
    back_edges: BTreeSet<usize>,
    /// The service each scanned file belongs to (by index into the scan's
    /// files), where its path, config globs or identity declarations say.
    pub file_owners: Vec<Option<String>>,
    /// Retries in code that name an instance configured elsewhere
    /// (`@Retry(name = "payments")` and `resilience4j.retry.instances.
    /// payments` of the same service): the use, by (file, policy), to the
    /// configured policy. One policy, however many sites use it.
    pub instance_uses: BTreeMap<(FileId, usize), (FileId, usize)>,
}

/// The worst path from one entry point.
#[derive(Clone, Debug)]
pub struct WorstPath {
    pub entry: ServiceId,
    pub edges: Vec<usize>,
    pub attempts: u64,
}

mod build;
mod env_reads;
mod identity;
mod layers;
mod mesh;
mod shape;

pub use build::build;
pub use layers::mesh_default;

impl Graph {
    pub fn service_name(&self, id: ServiceId) -> &str {
        &self.services[id].name
    }

    /// Whether edge `e` closes a cycle (path analysis does not follow it).
    pub fn is_back_edge(&self, e: usize) -> bool {
        self.back_edges.contains(&e)
    }

    /// Edges out of a service, cycle-closing edges excluded.
    pub fn forward(&self, id: ServiceId) -> impl Iterator<Item = usize> + '_ {
        self.out[id]
            .iter()
            .copied()
            .filter(|e| !self.back_edges.contains(e))
    }

    /// The worst (most attempts) path from every entry point, memoised:
    /// each service is solved once.
    pub fn worst_paths(&self) -> Vec<WorstPath> {
        let mut memo: Vec<Option<(u64, Option<usize>)>> = vec![None; self.services.len()];
        let mut out = Vec::new();
        for &entry in &self.entries {
            self.solve(entry, &mut memo);
            let mut edges = Vec::new();
            let mut cur = entry;
            while let Some((_, Some(e))) = memo[cur] {
                edges.push(e);
                cur = self.edges[e].to;
                if edges.len() > self.services.len() {
                    break;
                }
            }
            let attempts = memo[entry].map_or(1, |(a, _)| a);
            out.push(WorstPath {
                entry,
                edges,
                attempts,
            });
        }
        out
    }

    /// Post-order with an explicit stack so that long chains cannot
    /// overflow the call stack.
    fn solve(&self, start: ServiceId, memo: &mut [Option<(u64, Option<usize>)>]) {
        let mut stack = vec![(start, false)];
        while let Some((node, expanded)) = stack.pop() {
            crate::guard::checkpoint();
            if memo[node].is_some() {
                continue;
            }
            if !expanded {
                stack.push((node, true));
                for e in self.forward(node) {
                    let to = self.edges[e].to;
                    if memo[to].is_none() {
                        stack.push((to, false));
                    }
                }
                continue;
            }
            let mut best = (1u64, None);
            for e in self.forward(node) {
                let below = memo[self.edges[e].to].map_or(1, |(a, _)| a);
                let total = self.edges[e].factor().saturating_mul(below);
                // Ties go to the path with more retrying layers, then the
                // first edge, for a stable answer.
                if total > best.0 || (total == best.0 && best.1.is_none() && total > 1) {
                    best = (total, Some(e));
                }
            }
            memo[node] = Some(best);
        }
    }

    /// The longest time a service can take to answer because of its own
    /// downstream retries: for its worst outgoing call, each layer from the
    /// innermost out takes attempts x min(per-try, what is inside) +
    /// backoff, capped by its overall timeout. `None` when unknown.
    pub fn worst_time(&self) -> Vec<Option<Duration>> {
        let n = self.services.len();
        let mut memo: Vec<Option<Option<Duration>>> = vec![None; n];
        let order = self.topological();
        for &node in order.iter().rev() {
            let mut worst: Option<Duration> = None;
            for e in self.forward(node) {
                let inner = memo[self.edges[e].to].flatten();
                if let Some(t) = self.edge_time(e, inner) {
                    worst = Some(worst.map_or(t, |w| w.max(t)));
                }
            }
            memo[node] = Some(worst);
        }
        memo.into_iter().map(Option::flatten).collect()
    }

    /// How long one call over edge `e` can take, given how long the callee
    /// can take (`inner`).
    pub fn edge_time(&self, e: usize, inner: Option<Duration>) -> Option<Duration> {
        let mut t = inner;
        for l in self.edges[e].layers.iter().rev() {
            let per = match (l.per_try, t) {
                (Some(p), Some(i)) => Some(p.min(i)),
                (Some(p), None) => Some(p),
                (None, i) => i,
            };
            let per = per?;
            let copies = l.factor();
            let mut total = match l.hedge_delay {
                // Side by side: the last copy starts (copies - 1) delays in.
                Some(d) => backoff::worst_case(copies.saturating_sub(1), d.min(per), per),
                None => backoff::worst_case(copies, per, l.backoff),
            };
            if let Some(o) = l.overall {
                total = total.min(o);
            }
            t = Some(total);
        }
        t
    }

    /// Services in an order where every forward edge goes left to right.
    fn topological(&self) -> Vec<ServiceId> {
        let n = self.services.len();
        let mut indeg = vec![0usize; n];
        for (i, e) in self.edges.iter().enumerate() {
            if !self.back_edges.contains(&i) {
                indeg[e.to] += 1;
            }
        }
        let mut queue: std::collections::VecDeque<ServiceId> =
            (0..n).filter(|&s| indeg[s] == 0).collect();
        let mut out = Vec::with_capacity(n);
        while let Some(s) = queue.pop_front() {
            out.push(s);
            for e in self.forward(s) {
                let to = self.edges[e].to;
                indeg[to] -= 1;
                if indeg[to] == 0 {
                    queue.push_back(to);
                }
            }
        }
        out
    }

    /// "`3` (gateway -> orders, nginx tries) x `3` (...) = `27`".
    pub fn arithmetic(&self, path: &WorstPath) -> String {
        let mut parts = Vec::new();
        for &e in &path.edges {
            let edge = &self.edges[e];
            for l in edge.layers.iter().filter(|l| l.retries()) {
                parts.push(format!(
                    "`{}` ({} -> {}, {})",
                    l.factor(),
                    self.service_name(edge.from),
                    self.service_name(edge.to),
                    l.label
                ));
            }
        }
        format!("{} = `{}`", parts.join(" x "), path.attempts)
    }

    /// A layer's description for related locations.
    pub fn layer_note(&self, e: usize, l: &RetryLayer) -> String {
        let edge = &self.edges[e];
        let timeout = match (l.per_try, l.overall) {
            (Some(p), Some(o)) => format!(", `{}` per try, `{}` overall", human(p), human(o)),
            (Some(p), None) => format!(", `{}` per try", human(p)),
            (None, Some(o)) => format!(", `{}` overall", human(o)),
            _ => String::new(),
        };
        format!(
            "{} -> {}: `{}` attempts, {} ({}){timeout}",
            self.service_name(edge.from),
            self.service_name(edge.to),
            l.factor(),
            l.label,
            l.setting
        )
    }
}

/// What a graph rule sees.
pub struct GraphCtx<'a> {
    pub files: &'a [ScannedFile],
    pub settings: &'a Settings,
    pub graph: &'a Graph,
}

#[cfg(test)]
mod tests;
