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
    /// The request path the call's target names (`/catalog` of
    /// `http://api-gateway:8989/catalog`), where it names one: it selects
    /// the callee's routes (`routes.rs`).
    pub path: Option<String>,
    /// The `Path` patterns of the gateway route this edge forwards
    /// (`/catalog/**`); empty: every request the caller gets may take it.
    pub route: Vec<String>,
    /// The Ingress host the call names (`http://keycloak.local`), drawn to
    /// the ingress controller: it selects the controller's rules for that
    /// host (`routes.rs`).
    pub host: Option<String>,
    /// The hosts of the Ingress rule this edge forwards; empty: any host.
    pub route_hosts: Vec<String>,
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
    /// Edges that close a cycle (they return to a service a path has
    /// been through); paths do not follow them there.
    back_edges: BTreeSet<usize>,
    /// The steps (edge, next edge) that would return to a service the
    /// path has been through: paths stop there (`routes.rs`).
    back_moves: BTreeSet<(usize, usize)>,
    /// The service each scanned file belongs to (by index into the scan's
    /// files), where its path, config globs or identity declarations say.
    pub file_owners: Vec<Option<String>>,
    /// Retries in code that name an instance configured elsewhere
    /// (`@Retry(name = "payments")` and `resilience4j.retry.instances.
    /// payments` of the same service): the use, by (file, policy), to the
    /// configured policy. One policy, however many sites use it.
    pub instance_uses: BTreeMap<(FileId, usize), (FileId, usize)>,
    /// The mesh-wide retry defaults of the scan (file, index into its
    /// `mesh_defaults`), each with the folder of the project it covers
    /// (`mesh.rs`): see [`Graph::mesh_default_in`].
    pub mesh_defaults: Vec<((FileId, usize), String)>,
}

/// The worst path from one entry point.
#[derive(Clone, Debug)]
pub struct WorstPath {
    pub entry: ServiceId,
    pub edges: Vec<usize>,
    pub attempts: u64,
}

mod build;
mod canary;
mod env_reads;
mod identity;
mod layers;
mod mesh;
mod named_clients;
mod routes;
mod shape;

pub use build::build;

impl Graph {
    /// The mesh-wide default of `system` (file, index into its
    /// `mesh_defaults`) for what `folders` hold (`a/b/`: a call's file,
    /// its caller's workload declarations, a route's file). Of the
    /// defaults whose project holds one of the folders: the one of the
    /// deepest project, then the nearest to the folder, then the first.
    /// None where no default's project holds them: the mesh's built-in
    /// default applies.
    pub fn mesh_default_in(
        &self,
        files: &[ScannedFile],
        system: &System,
        folders: &[&str],
    ) -> Option<(FileId, usize)> {
        let shared = |a: &str, b: &str| {
            a.split_inclusive('/')
                .zip(b.split_inclusive('/'))
                .take_while(|(x, y)| x == y)
                .count()
        };
        self.mesh_defaults
            .iter()
            .filter(|((f, i), _)| {
                files
                    .get(*f)
                    .and_then(|x| x.facts.mesh_defaults.get(*i))
                    .is_some_and(|p| p.system == *system)
            })
            .filter_map(|(d, scope)| {
                let path = files[d.0].source.display_path();
                let own = path
                    .rsplit_once('/')
                    .map_or(String::new(), |(dir, _)| format!("{dir}/"));
                let nearest = folders
                    .iter()
                    .filter(|dir| dir.starts_with(scope.as_str()))
                    .map(|dir| shared(&own, dir))
                    .max()?;
                Some((scope.len(), nearest, std::cmp::Reverse(d.0), *d))
            })
            .max()
            .map(|(.., d)| d)
    }

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
    /// each edge is solved once (a path goes on from an edge only where
    /// its path lets it: [`Graph::next`]).
    pub fn worst_paths(&self) -> Vec<WorstPath> {
        let memo = self.solve();
        let mut out = Vec::new();
        for &entry in &self.entries {
            let mut best: (u64, Option<usize>) = (1, None);
            for &e in &self.out[entry] {
                let total = memo[e].0;
                if total > best.0 {
                    best = (total, Some(e));
                }
            }
            let mut edges = Vec::new();
            let mut cur = best.1;
            while let Some(e) = cur {
                edges.push(e);
                cur = memo[e].1;
                if edges.len() > self.edges.len() {
                    break;
                }
            }
            out.push(WorstPath {
                entry,
                edges,
                attempts: best.0,
            });
        }
        out
    }

    /// For each edge, the most attempts a call on it can become with what
    /// follows, and the next edge of that path (only where it adds
    /// attempts).
    fn solve(&self) -> Vec<(u64, Option<usize>)> {
        self.per_edge(|e, memo| {
            let mut best = (1u64, None);
            for n in self.next(e) {
                let below = memo[n].map_or(1, |(a, _)| a);
                if below > best.0 {
                    best = (below, Some(n));
                }
            }
            (self.edges[e].factor().saturating_mul(best.0), best.1)
        })
        .into_iter()
        .map(|m| m.unwrap_or((1, None)))
        .collect()
    }

    /// The longest time a service can take to answer because of its own
    /// downstream retries: for its worst outgoing call, each layer from the
    /// innermost out takes attempts x min(per-try, what is inside) +
    /// backoff, capped by its overall timeout. `None` when unknown.
    pub fn worst_time(&self) -> Vec<Option<Duration>> {
        let below = self.edge_times();
        (0..self.services.len())
            .map(|s| self.out[s].iter().filter_map(|&e| below[e]).max())
            .collect()
    }

    /// How long a call on each edge can take with what follows it (the
    /// worst of the next edges its path allows), solved once per edge.
    fn edge_times(&self) -> Vec<Option<Duration>> {
        self.per_edge(|e, memo| {
            let inner = self.next(e).filter_map(|n| memo[n].flatten()).max();
            self.edge_time(e, inner)
        })
        .into_iter()
        .map(Option::flatten)
        .collect()
    }

    /// `solve(e, memo)` for every edge, each after the edges that may
    /// follow it (post-order with an explicit stack, so that long chains
    /// cannot overflow the call stack); an edge still being solved on a
    /// cycle reads as `None` in `memo`.
    fn per_edge<T: Clone>(&self, solve: impl Fn(usize, &[Option<T>]) -> T) -> Vec<Option<T>> {
        let mut memo: Vec<Option<T>> = vec![None; self.edges.len()];
        for root in 0..self.edges.len() {
            let mut stack = vec![(root, false)];
            while let Some((e, expanded)) = stack.pop() {
                crate::guard::checkpoint();
                if memo[e].is_some() {
                    continue;
                }
                if !expanded {
                    stack.push((e, true));
                    for n in self.next(e) {
                        if memo[n].is_none() {
                            stack.push((n, false));
                        }
                    }
                    continue;
                }
                memo[e] = Some(solve(e, &memo));
            }
        }
        memo
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
