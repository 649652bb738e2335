//! Building the graph: services and their aliases, the edges of every
//! file's calls with the retry layers that apply to each, then the
//! entry points.

use super::layers::*;
use super::shape::{find_cycles, merge_parallel};
use super::*;

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
            // A service named as the endpoint (a crate named `aws` that
            // wraps the SDK) is the same node: no call to itself.
            if from == to {
                continue;
            }
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
