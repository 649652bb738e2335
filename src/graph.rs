//! The call-path graph (DESIGN.md, "The call-path graph").
//!
//! Nodes are services, edges are calls, and each edge carries the retry
//! *layers* that apply to that call: the caller's code and SDK policies,
//! the caller's sidecar (the VirtualService for the callee's host, or
//! Istio's default where the mesh is in use and nothing is written), and
//! proxies. Path rules read the worst path from every entry point, found
//! with memoisation in time linear in the edges; cycles are found once and
//! never loop the analysis.

use crate::config::{Mesh, Settings};
use crate::duration::human;
use crate::model::ScannedFile;
use crate::model::calls::{outside_mesh, short_host};
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

/// Directory names whose children are services.
const SERVICE_DIRS: &[&str] = &["services", "service", "apps", "svc", "microservices", "cmd"];

/// Identity sources that say who owns the file (as opposed to hosts that
/// merely reach a service).
fn owns_file(source: &str) -> bool {
    source == "spring.application.name"
        || source == "Cargo package"
        || (source.starts_with("Kubernetes ") && source != "Kubernetes Service")
}

struct Builder<'a> {
    files: &'a [ScannedFile],
    settings: &'a Settings,
    /// The mesh whose sidecars retry calls no route policy covers, with
    /// its default.
    mesh: Option<(System, &'static systems::SidecarDefault)>,
    graph: Graph,
    ids: HashMap<String, ServiceId>,
    aliases: HashMap<String, String>,
    globs: Vec<(globset::GlobMatcher, String)>,
}

impl Builder<'_> {
    fn canonical(&self, name: &str) -> String {
        let short = short_host(name);
        if let Some(e) = systems::ENDPOINTS
            .iter()
            .find(|e| short.ends_with(e.host_suffix) || short == e.service)
        {
            return e.service.to_string();
        }
        self.aliases.get(&short).cloned().unwrap_or(short)
    }

    fn service(&mut self, name: &str) -> ServiceId {
        let name = self.canonical(name);
        if let Some(&id) = self.ids.get(&name) {
            return id;
        }
        let id = self.graph.services.len();
        self.graph.services.push(Service {
            name: name.clone(),
            sources: Vec::new(),
        });
        self.ids.insert(name, id);
        id
    }

    /// Whether the caller's sidecar handles a call: the mesh is in use and
    /// both ends are shown to run in it (a Kubernetes workload calling a
    /// host that a Kubernetes Service, VirtualService or DestinationRule
    /// names), or `mesh = "istio"` says every call goes through it.
    fn sidecar_applies(&self, from: ServiceId, to: ServiceId, via: &str) -> bool {
        if outside_mesh(via) {
            return false;
        }
        match self.settings.graph.mesh {
            Mesh::None => false,
            Mesh::Istio => true,
            Mesh::Auto => {
                let in_cluster = |id: ServiceId| {
                    self.graph.services[id].sources.iter().any(|(_, how)| {
                        how.starts_with("Kubernetes ")
                            || how.starts_with("VirtualService")
                            || how.starts_with("DestinationRule")
                    })
                };
                let workload = self.graph.services[from]
                    .sources
                    .iter()
                    .any(|(_, how)| how.starts_with("Kubernetes ") && how != "Kubernetes Service");
                self.graph.mesh && workload && in_cluster(to)
            }
        }
    }

    /// The service a file belongs to.
    fn file_owner(&self, file: FileId) -> Option<String> {
        let f = &self.files[file];
        let path = f.source.display_path();
        for (g, name) in &self.globs {
            if g.is_match(&path) {
                return Some(name.clone());
            }
        }
        let owners: BTreeSet<&str> = f
            .facts
            .services
            .iter()
            .filter(|s| owns_file(&s.source))
            .map(|s| s.name.as_str())
            .collect();
        if owners.len() == 1 {
            return owners.into_iter().next().map(|s| self.canonical(s));
        }
        let parts: Vec<&str> = path.split('/').collect();
        for (i, p) in parts.iter().enumerate() {
            if SERVICE_DIRS.contains(&p.to_ascii_lowercase().as_str()) && i + 2 < parts.len() {
                return Some(self.canonical(parts[i + 1]));
            }
        }
        // The nearest folder named after a service other files declare
        // (`gateway/nginx.conf` beside a `gateway` Deployment).
        for p in parts.iter().rev().skip(1) {
            let name = self.canonical(p);
            if self.ids.contains_key(&name) {
                return Some(name);
            }
        }
        // A module folder: the one that holds `src/` (Cargo, Maven, Gradle).
        if let Some(i) = parts.iter().rposition(|p| *p == "src")
            && i >= 1
            && parts[i - 1] != ".."
            && parts[i - 1] != "."
        {
            return Some(self.canonical(parts[i - 1]));
        }
        None
    }
}

fn layer_of(file: FileId, index: usize, p: &RetryPolicy) -> RetryLayer {
    let per_try = p.per_try_timeout.as_ref().and_then(|t| t.value.finite());
    let overall = p.overall_timeout.as_ref().and_then(|t| t.value.finite());
    let n = p.attempts.value.count.finite().unwrap_or(1);
    let backoff = p
        .delay
        .value
        .total_backoff(n.saturating_sub(1))
        .unwrap_or_default();
    RetryLayer {
        policy: Some((file, index)),
        system: p.system.clone(),
        kind: p.system.layer(),
        attempts: if p.retries() {
            p.attempts.value.count
        } else {
            AttemptCount::Finite(1)
        },
        per_try,
        overall,
        backoff,
        hedge_delay: p.hedge_delay(),
        implicit: p.attempts.provenance == Provenance::Default
            && p.system.layer() != LayerKind::Application,
        loc: Loc {
            file,
            span: p.attempts.span,
        },
        timeout_loc: p
            .per_try_timeout
            .iter()
            .chain(p.overall_timeout.iter())
            .find(|t| t.value.finite().is_some() && t.provenance != Provenance::Default)
            .map(|t| Loc { file, span: t.span }),
        label: p.describe(),
        setting: p.attempts.value.written_as.clone(),
    }
}

/// The mesh's retries when no route policy is written for a host (Istio:
/// no VirtualService), as its registry entry gives them.
fn sidecar_default(
    (system, default): &(System, &systems::SidecarDefault),
    proof: Loc,
    host: &str,
) -> RetryLayer {
    let p = (default.policy)(proof.span);
    let mut l = layer_of(proof.file, 0, &p);
    l.policy = None;
    l.label = format!("{} default", system.label());
    l.setting = format!(
        "{} `{host}`: {} retries",
        default.uncovered, default.retries
    );
    l
}

/// Whether the file is program source, not configuration.
fn is_source(f: &ScannedFile) -> bool {
    f.syntax.is_some_and(crate::model::Syntax::is_source)
}

/// The policies a file's own calls carry.
fn used_by_calls(f: &ScannedFile) -> BTreeSet<usize> {
    f.facts
        .edges
        .iter()
        .flat_map(|e| e.policies.iter().copied())
        .collect()
}

/// The one application or SDK retry policy a source file builds that no
/// call of the file already carries, if there is exactly one.
fn sole_client_policy(f: &ScannedFile) -> Option<usize> {
    if !is_source(f) {
        return None;
    }
    let used = used_by_calls(f);
    let mut candidates = f.facts.policies.iter().enumerate().filter(|(i, p)| {
        !used.contains(i) && matches!(p.system.layer(), LayerKind::Application | LayerKind::Sdk)
    });
    match (candidates.next(), candidates.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// The mesh-wide Istio retry default (`defaultHttpRetryPolicy` in
/// meshConfig), where a scanned file sets one: (file, index into that
/// file's `mesh_defaults`).
pub fn mesh_default(files: &[ScannedFile]) -> Option<(FileId, usize)> {
    files.iter().enumerate().find_map(|(id, f)| {
        f.facts
            .mesh_defaults
            .iter()
            .position(|p| p.system.spec().sidecar_default.is_some())
            .map(|i| (id, i))
    })
}

/// The caller's sidecar layer for a call to `host`: the VirtualService's
/// route policy, unless it only has Istio's built-in default, in which case
/// (as when there is no VirtualService) the mesh-wide default applies, or
/// else Istio's built-in one.
fn sidecar_layer(
    files: &[ScannedFile],
    sidecar: &BTreeMap<String, (FileId, usize)>,
    mesh: &(System, &systems::SidecarDefault),
    mesh_default: Option<(FileId, usize)>,
    proof: Loc,
    host: &str,
) -> RetryLayer {
    if let Some(&(pf, pi)) = sidecar.get(host) {
        let p = &files[pf].facts.policies[pi];
        if !(p.attempts.is_default() && p.system == mesh.0 && mesh_default.is_some()) {
            return layer_of(pf, pi, p);
        }
    }
    match mesh_default {
        Some((mf, mi)) => {
            let d = &files[mf].facts.mesh_defaults[mi];
            let mut l = layer_of(mf, mi, d);
            l.policy = None;
            l.implicit = true;
            l.label = format!("{} mesh default", d.system.label());
            l.setting = format!("no retries for `{host}`: meshConfig `defaultHttpRetryPolicy`");
            l
        }
        None => sidecar_default(mesh, proof, host),
    }
}

/// Build the graph from every file's facts and the configuration.
pub fn build(files: &[ScannedFile], settings: &Settings) -> Graph {
    let mut b = Builder {
        files,
        settings,
        mesh: None,
        graph: Graph::default(),
        ids: HashMap::new(),
        aliases: HashMap::new(),
        globs: Vec::new(),
    };
    // Aliases: config first, then hosts that files declare.
    for s in &settings.graph.services {
        for a in &s.aliases {
            b.aliases.insert(short_host(a), short_host(&s.name));
        }
        for p in &s.paths {
            if let Ok(g) = globset::Glob::new(p) {
                b.globs.push((g.compile_matcher(), short_host(&s.name)));
            }
        }
    }
    for f in files {
        for s in &f.facts.services {
            let target = short_host(&s.name);
            for h in &s.hosts {
                let h = short_host(h);
                if h != target {
                    b.aliases.entry(h).or_insert_with(|| target.clone());
                }
            }
        }
    }
    for s in &settings.graph.services {
        b.service(&s.name);
    }
    for (id, f) in files.iter().enumerate() {
        for s in &f.facts.services {
            let sid = b.service(&s.name);
            b.graph.services[sid].sources.push((
                Loc {
                    file: id,
                    span: s.span,
                },
                s.source.clone(),
            ));
        }
    }
    // The mesh in use: the one the configuration names, else (`auto`) the
    // one whose resources a scanned file declares.
    let mesh = match b.settings.graph.mesh {
        Mesh::Auto => files.iter().find_map(|f| f.facts.mesh.clone()),
        named => named.system(),
    };
    b.mesh = mesh.and_then(|m| m.spec().sidecar_default.as_ref().map(|d| (m, d)));
    b.graph.mesh = b.mesh.is_some();
    let mesh_default = mesh_default(files);
    // Sidecar policies by callee host: the worst route's policy.
    let mut sidecar: BTreeMap<String, (FileId, usize)> = BTreeMap::new();
    for (id, f) in files.iter().enumerate() {
        for (i, p) in f.facts.policies.iter().enumerate() {
            if p.system.layer() != LayerKind::Mesh {
                continue;
            }
            let Some(callee) = &p.scope.callee else {
                continue;
            };
            let host = b.canonical(&callee.value);
            let worse = match sidecar.get(&host) {
                Some(&(of, oi)) => {
                    let old = &files[of].facts.policies[oi];
                    let n = |q: &RetryPolicy| {
                        if q.retries() {
                            q.attempts.value.count.finite().unwrap_or(1)
                        } else {
                            1
                        }
                    };
                    n(p) > n(old)
                }
                None => true,
            };
            if worse {
                sidecar.insert(host, (id, i));
            }
        }
    }
    // Resilience4j instances configured per service: (service, instance)
    // -> the policy, from configuration files (YAML, properties).
    let mut configured: BTreeMap<(String, String), (FileId, usize)> = BTreeMap::new();
    for (id, f) in files.iter().enumerate() {
        if is_source(f) {
            continue;
        }
        let has_r4j = f
            .facts
            .policies
            .iter()
            .any(|p| p.system.spec().named_instances);
        if !has_r4j {
            continue;
        }
        let Some(owner) = b.file_owner(id) else {
            continue;
        };
        for (i, p) in f.facts.policies.iter().enumerate() {
            if p.system.spec().named_instances
                && let Some(name) = &p.name
            {
                configured
                    .entry((owner.clone(), name.clone()))
                    .or_insert((id, i));
            }
        }
    }
    for (id, f) in files.iter().enumerate() {
        let Some(owner) = b.file_owner(id) else {
            continue;
        };
        for (i, p) in f.facts.policies.iter().enumerate() {
            if p.system.spec().named_instances
                && p.attempts.value.count == AttemptCount::Unknown
                && is_source(f)
                && let Some(&at) =
                    configured.get(&(owner.clone(), p.name.clone().unwrap_or_default()))
            {
                b.graph.instance_uses.insert((id, i), at);
            }
        }
    }
    // Named HTTP clients configured per service (Spring Cloud OpenFeign
    // `client.config.<client>.retryer`): (service, client) -> the policy;
    // the client `default` applies to every client without its own.
    let mut clients: BTreeMap<(String, String), (FileId, usize)> = BTreeMap::new();
    // A `Retryer` bean in a service's code (built in a `@Bean` method, used
    // by no call of its own file) is every named client's retryer there, unless the
    // client's or the `default` configuration sets one (Spring Cloud
    // OpenFeign applies properties over configuration beans).
    let mut client_beans: BTreeMap<String, (FileId, usize)> = BTreeMap::new();
    for (id, f) in files.iter().enumerate() {
        if !f.facts.policies.iter().any(|p| p.scope.client.is_some()) {
            continue;
        }
        if is_source(f) {
            let used = used_by_calls(f);
            if let Some(owner) = b.file_owner(id)
                && let Some(i) = f.facts.policies.iter().enumerate().position(|(i, p)| {
                    p.scope.client == Some(ClientScope::Bean) && !used.contains(&i)
                })
            {
                client_beans.entry(owner).or_insert((id, i));
            }
            continue;
        }
        let Some(owner) = b.file_owner(id) else {
            continue;
        };
        for (i, p) in f.facts.policies.iter().enumerate() {
            if let Some(ClientScope::Named(client)) = &p.scope.client {
                clients
                    .entry((owner.clone(), client.clone()))
                    .or_insert((id, i));
            }
        }
    }
    // Edges from files.
    let mut seen: BTreeSet<(ServiceId, ServiceId, String)> = BTreeSet::new();
    for (id, f) in files.iter().enumerate() {
        // Resolved once per file, and only for files with a call whose
        // caller the extractor did not name.
        let owner = if f.facts.edges.iter().any(|e| e.caller.is_none()) {
            b.file_owner(id)
        } else {
            None
        };
        for e in &f.facts.edges {
            let loc = Loc {
                file: id,
                span: e.span,
            };
            let caller = e
                .caller
                .clone()
                .map(|c| b.canonical(&c))
                .or_else(|| owner.clone());
            let Some(caller) = caller else {
                b.graph.notes.push(GraphNote {
                    loc,
                    message: format!(
                        "a call to `{}` whose caller is unknown: name the service of this file in `[[services]]` paths",
                        e.callee
                    ),
                });
                continue;
            };
            let from = b.service(&caller);
            let to = b.service(&e.callee);
            if from == to {
                continue;
            }
            // `@Retry(name = "payments")` takes its values from
            // `resilience4j.retry.instances.payments` in the service's
            // configuration.
            let resolve = |i: usize, p: &RetryPolicy| -> RetryLayer {
                let key = (caller.clone(), p.name.clone().unwrap_or_default());
                match configured.get(&key) {
                    Some(&(cf, ci))
                        if p.system.spec().named_instances
                            && p.attempts.value.count == AttemptCount::Unknown =>
                    {
                        layer_of(cf, ci, &files[cf].facts.policies[ci])
                    }
                    _ => layer_of(id, i, p),
                }
            };
            let mut layers: Vec<RetryLayer> = e
                .policies
                .iter()
                .filter_map(|&i| f.facts.policies.get(i).map(|p| resolve(i, p)))
                .collect();
            // A call through a named client takes that client's
            // configuration in the caller's files, else their `default`.
            if layers.is_empty()
                && let Some(client) = &e.client
                && let Some(&(cf, ci)) = clients
                    .get(&(caller.clone(), client.clone()))
                    .or_else(|| clients.get(&(caller.clone(), "default".to_string())))
                    .or_else(|| client_beans.get(&caller))
            {
                layers.push(layer_of(cf, ci, &files[cf].facts.policies[ci]));
            }
            // A URL in source code whose file builds exactly one client
            // retry policy is called through it.
            if layers.is_empty()
                && let Some(i) = sole_client_policy(f)
            {
                layers.push(resolve(i, &f.facts.policies[i]));
            }
            let callee_name = b.graph.services[to].name.clone();
            let has_mesh_layer = layers.iter().any(|l| l.kind == LayerKind::Mesh);
            if !has_mesh_layer
                && b.sidecar_applies(from, to, &e.via)
                && let Some(mesh) = &b.mesh
            {
                layers.push(sidecar_layer(
                    files,
                    &sidecar,
                    mesh,
                    mesh_default,
                    loc,
                    &callee_name,
                ));
            }
            layers.sort_by_key(|l| l.kind);
            let key = (from, to, format!("{id}:{}", e.span.start));
            if seen.insert(key) {
                b.graph.edges.push(Edge {
                    from,
                    to,
                    proof: loc,
                    via: e.via.clone(),
                    layers,
                    also: Vec::new(),
                });
            }
        }
    }
    // A client of a provider's service (an AWS SDK client) calls it,
    // whether or not a file names the host.
    for (id, f) in files.iter().enumerate() {
        for (i, p) in f.facts.policies.iter().enumerate() {
            let Some(endpoint) = p.system.spec().endpoint else {
                continue;
            };
            if f.facts.edges.iter().any(|e| e.policies.contains(&i)) {
                continue;
            }
            // Only policies in code build a client; a profile in a shared
            // config file applies to whichever program reads it.
            if !is_source(f) {
                continue;
            }
            let Some(owner) = b.file_owner(id) else {
                continue;
            };
            let from = b.service(&owner);
            let to = b.service(endpoint.service);
            b.graph.edges.push(Edge {
                from,
                to,
                proof: Loc {
                    file: id,
                    span: p.attempts.span,
                },
                via: endpoint.via.into(),
                layers: vec![layer_of(id, i, p)],
                also: Vec::new(),
            });
        }
    }
    // Edges from config.
    for e in &settings.graph.edges {
        let from = b.service(&e.from);
        let to = b.service(&e.to);
        if from == to {
            continue;
        }
        let exists = b.graph.edges.iter().any(|x| x.from == from && x.to == to);
        if !exists {
            // A configured edge has no location in a scanned file; it is
            // placed at the callee's first identity source, if any.
            let loc = b.graph.services[to]
                .sources
                .first()
                .or_else(|| b.graph.services[from].sources.first())
                .map(|(l, _)| *l);
            let Some(loc) = loc else {
                b.graph.notes.push(GraphNote {
                    loc: Loc {
                        file: usize::MAX,
                        span: Span::default(),
                    },
                    message: format!(
                        "configured edge `{}` -> `{}` names services no scanned file shows",
                        e.from, e.to
                    ),
                });
                continue;
            };
            let callee_name = b.graph.services[to].name.clone();
            let mut layers = Vec::new();
            if b.sidecar_applies(from, to, e.via.as_deref().unwrap_or(""))
                && let Some(mesh) = &b.mesh
            {
                layers.push(sidecar_layer(
                    files,
                    &sidecar,
                    mesh,
                    mesh_default,
                    loc,
                    &callee_name,
                ));
            }
            b.graph.edges.push(Edge {
                from,
                to,
                proof: loc,
                via: e.via.clone().unwrap_or_else(|| "configured edge".into()),
                layers,
                also: Vec::new(),
            });
        }
    }
    b.graph.file_owners = (0..files.len()).map(|id| b.file_owner(id)).collect();
    let mut g = b.graph;
    merge_parallel(&mut g);
    g.out = vec![Vec::new(); g.services.len()];
    for (i, e) in g.edges.iter().enumerate() {
        g.out[e.from].push(i);
    }
    find_cycles(&mut g);
    let mut called = vec![false; g.services.len()];
    for e in &g.edges {
        called[e.to] = true;
    }
    let mut entries: Vec<ServiceId> = (0..g.services.len())
        .filter(|&s| !called[s] && !g.out[s].is_empty())
        .collect();
    for name in &settings.graph.entry_points {
        if let Some(id) = g.services.iter().position(|s| s.name == short_host(name))
            && !entries.contains(&id)
        {
            entries.push(id);
        }
    }
    entries.sort_by(|a, b| g.services[*a].name.cmp(&g.services[*b].name));
    g.entries = entries;
    g
}

/// One edge per caller and callee: the call site with the most attempts
/// (then the most layers, then the first) stands for the others, which are
/// kept as `also`.
fn merge_parallel(g: &mut Graph) {
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
fn find_cycles(g: &mut Graph) {
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
mod tests {
    use super::*;

    fn layer(attempts: u64, per_try: u64, hedge_delay: Option<u64>) -> RetryLayer {
        RetryLayer {
            policy: None,
            system: System::DotnetStandard,
            kind: LayerKind::Application,
            attempts: AttemptCount::Finite(attempts),
            per_try: Some(Duration::from_secs(per_try)),
            overall: None,
            backoff: Duration::from_secs(1),
            hedge_delay: hedge_delay.map(Duration::from_secs),
            implicit: false,
            loc: Loc::default(),
            timeout_loc: None,
            label: String::new(),
            setting: String::new(),
        }
    }

    fn one_edge(l: RetryLayer) -> Graph {
        Graph {
            edges: vec![Edge {
                from: 0,
                to: 1,
                proof: Loc::default(),
                via: String::new(),
                layers: vec![l],
                also: Vec::new(),
            }],
            ..Graph::default()
        }
    }

    #[test]
    fn hedged_copies_take_time_side_by_side_retries_one_after_the_other() {
        // 4 retries of 5s with 1s of back-off in all: 21s.
        assert_eq!(
            one_edge(layer(4, 5, None)).edge_time(0, None),
            Some(Duration::from_secs(21))
        );
        // 4 copies 2s apart, 5s each: the last starts at 6s, answers by 11s.
        assert_eq!(
            one_edge(layer(4, 5, Some(2))).edge_time(0, None),
            Some(Duration::from_secs(11))
        );
        // A delay longer than a copy's timeout: the next goes out when the
        // previous times out.
        assert_eq!(
            one_edge(layer(3, 2, Some(10))).edge_time(0, Some(Duration::from_secs(1))),
            Some(Duration::from_secs(3))
        );
    }
}
