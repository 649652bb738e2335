//! Building the graph, step by step: identities (`identity.rs`), the
//! policies other files configure for a service (Resilience4j instances,
//! named clients), the mesh's route policies, then the edges of every
//! file's calls with the retry layers that apply to each (the caller's
//! mesh membership from `mesh.rs`, the call's protocol), provider and
//! configured edges, and the shape (parallel calls merged, cycles, entry
//! points).

use super::identity::Builder;
use super::layers::*;
use super::mesh::{
    Decl, MeshFacts, Waypoint, WaypointRun, evidence_note, membership, mesh_default,
    waypoint_notes, waypoints,
};
use super::named_clients::{Named, named_clients};
use super::shape::{find_cycles, merge_parallel};
use super::*;
use edge_protocol::{entry_protocols, protocol};

/// Route policies of each mesh by callee host: (mesh, host) -> the worst
/// route's policy.
type Routes = BTreeMap<(System, String), (FileId, usize)>;
/// Policies of runtimes that carry calls by name (`SystemSpec::invoked_via`,
/// Dapr's `Resiliency`) by system and callee (empty: every callee no
/// policy names).
type Invocations = BTreeMap<(System, String), Vec<(FileId, usize)>>;

/// Build the graph from every file's facts and the configuration.
pub fn build(files: &[ScannedFile], settings: &Settings) -> Graph {
    let mut b = Builder::new(files, settings);
    b.identities();
    let meshes = MeshFacts::gather(
        files,
        b.workloads
            .values()
            .map(|ws| {
                ws.iter()
                    .map(|w| Decl {
                        file: w.loc.file,
                        gateway: w.placement.gateway_class.is_some(),
                    })
                    .collect()
            })
            .collect(),
    );
    b.graph.mesh = meshes.any(&b);
    b.graph.mesh_defaults = meshes.defaults.clone();
    let routes = mesh_routes(&b);
    let written = written_routes(&b);
    let kube_services: BTreeSet<String> = files
        .iter()
        .flat_map(|f| f.facts.services.iter())
        .filter(|s| s.kind == IdentityKind::KubeService)
        .map(|s| s.name.clone())
        .collect();
    let invocations = invocations(&b);
    let configured = instances(&mut b);
    let (clients, client_beans) = named_clients(&b);
    let waypoints = waypoints(&b, &meshes);
    b.graph.notes.extend(waypoint_notes(&waypoints));
    let cx = EdgeCx {
        meshes: &meshes,
        routes: &routes,
        written: &written,
        kube_services: &kube_services,
        waypoints: &waypoints,
        invocations: &invocations,
    };
    let narrowed = file_edges(&mut b, &cx, &configured, &clients, &client_beans);
    super::routes::share_paths(&mut b.graph.edges, &narrowed);
    provider_edges(&mut b);
    configured_edges(&mut b, &cx);
    super::routes::share_routes(&mut b.graph.edges);
    b.graph.file_owners = (0..files.len()).map(|id| b.file_owner(id)).collect();
    finish(b.graph, settings)
}

/// What every edge's mesh layer is decided from.
struct EdgeCx<'a> {
    meshes: &'a MeshFacts<'a>,
    routes: &'a Routes,
    /// The same by the host as written ([`written_routes`]).
    written: &'a Routes,
    /// The names of the scan's Kubernetes Services.
    kube_services: &'a BTreeSet<String>,
    /// Istio ambient waypoints by the service they front (`mesh.rs`).
    waypoints: &'a BTreeMap<String, Waypoint>,
    invocations: &'a Invocations,
}

/// Mesh route policies (an Istio VirtualService, a Linkerd
/// ServiceProfile) by mesh and callee host: the worst route's policy.
fn mesh_routes(b: &Builder<'_>) -> Routes {
    routes_by(b, |b, id, span, host| {
        let written = b.written_host(id, span, host);
        b.canonical(written.as_deref().unwrap_or(host))
    })
}

/// The mesh route policies by mesh and the host as the route writes it
/// (short, not joined to a workload): a call to a Service by a name of
/// its own (`recommendation-candidate`, selecting `recommendation`'s v2
/// pods) is routed by the routes for that host only.
fn written_routes(b: &Builder<'_>) -> Routes {
    routes_by(b, |_, _, _, host| crate::extract::short_host(host))
}

/// The worst route policy per mesh and the host `key` gives.
fn routes_by(b: &Builder<'_>, key: impl Fn(&Builder<'_>, FileId, Span, &str) -> String) -> Routes {
    let files = b.files;
    let mut routes: Routes = BTreeMap::new();
    // A fixture folder's routes are a test's (`Facts::test_input`): their
    // own findings stand, but they route no deployed call of their host.
    for (id, f) in files
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.facts.test_input)
    {
        for (i, p) in f.facts.policies.iter().enumerate() {
            if p.system.layer() != LayerKind::Mesh || p.system.spec().invoked_via.is_some() {
                continue;
            }
            let Some(callee) = &p.scope.callee else {
                continue;
            };
            let key = (p.system.clone(), key(b, id, callee.span, &callee.value));
            let n = |q: &RetryPolicy| {
                if q.retries() {
                    q.attempts.value.count.finite().unwrap_or(1)
                } else {
                    1
                }
            };
            let worse = match routes.get(&key) {
                Some(&(of, oi)) => n(p) > n(&files[of].facts.policies[oi]),
                None => true,
            };
            if worse {
                routes.insert(key, (id, i));
            }
        }
    }
    routes
}

/// Resilience4j instances configured per service: (service, instance)
/// -> the policy, from configuration files (YAML, properties); uses in
/// code that name one are recorded in `instance_uses`.
fn instances(b: &mut Builder<'_>) -> Named {
    let files = b.files;
    let mut configured: Named = BTreeMap::new();
    for (id, f) in files.iter().enumerate() {
        if is_source(f)
            || !f
                .facts
                .policies
                .iter()
                .any(|p| p.system.spec().named_instances)
        {
            continue;
        }
        // A shared file a config server serves configures each client.
        for owner in b.file_owners(id) {
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
    }
    for (id, f) in files.iter().enumerate() {
        if !is_source(f) {
            continue;
        }
        let Some(owner) = b.file_owner(id) else {
            continue;
        };
        for (i, p) in f.facts.policies.iter().enumerate() {
            if p.system.spec().named_instances
                && p.attempts.value.count == AttemptCount::Unknown
                && let Some(&at) =
                    configured.get(&(owner.clone(), p.name.clone().unwrap_or_default()))
            {
                b.graph.instance_uses.insert((id, i), at);
            }
        }
    }
    configured
}

/// The policies of runtimes that carry calls by name, by system and callee.
fn invocations(b: &Builder<'_>) -> Invocations {
    let mut out = Invocations::new();
    for (id, f) in b
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.facts.test_input)
    {
        for (i, p) in f.facts.policies.iter().enumerate() {
            if p.system.spec().invoked_via.is_none() {
                continue;
            }
            let callee = p.scope.callee.as_ref().map_or(String::new(), |c| {
                let written = b.written_host(id, c.span, &c.value);
                b.canonical(written.as_deref().unwrap_or(&c.value))
            });
            out.entry((p.system.clone(), callee))
                .or_default()
                .push((id, i));
        }
    }
    out
}

/// The layer of a runtime carrying a call by name (a Dapr invocation of
/// an app id): its policy for the callee where one names it, else its
/// policy for every other callee, among those whose `scope.caller` is
/// none or the caller.
fn invocation_layer(
    b: &Builder<'_>,
    cx: &EdgeCx<'_>,
    via: &str,
    caller: &str,
    to: ServiceId,
) -> Option<RetryLayer> {
    if cx.invocations.is_empty() {
        return None;
    }
    let name = &b.graph.services[to].name;
    let base = b.base_name(name).to_string();
    let mine = |&&(f, i): &&(FileId, usize)| {
        let p: &RetryPolicy = &b.files[f].facts.policies[i];
        p.scope
            .caller
            .as_ref()
            .is_none_or(|c| b.canonical(c) == caller)
    };
    cx.invocations
        .iter()
        .filter(|((s, _), _)| s.spec().invoked_via.is_some_and(|v| via.starts_with(v)))
        .map(|((s, _), _)| s.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .find_map(|s| {
            [name.clone(), base.clone(), String::new()]
                .into_iter()
                .find_map(|h| {
                    cx.invocations
                        .get(&(s.clone(), h))?
                        .iter()
                        .find(mine)
                        .copied()
                })
        })
        .map(|(f, i)| layer_of(f, i, &b.files[f].facts.policies[i]))
}

/// The caller's sidecar layer on a call, where the caller runs in a mesh,
/// the call is one its sidecar handles (L7, not on a compose network) and
/// the callee is in the cluster (or the configuration puts every call in
/// the mesh): the mesh's route policy for the callee, else its default.
#[allow(clippy::too_many_arguments)]
fn mesh_layer(
    b: &Builder<'_>,
    cx: &EdgeCx<'_>,
    from: ServiceId,
    to: ServiceId,
    (via, written): (&str, Option<&str>),
    protocol: Protocol,
    proof: Loc,
) -> (Option<Membership>, Option<RetryLayer>) {
    if outside_mesh(via) {
        return (None, None);
    }
    let Some(m) = membership(b, cx.meshes, from, proof) else {
        return (None, None);
    };
    // An assumed sidecar is put only on calls to a host the cluster
    // shows; a sidecar that is written (or configured) handles every
    // call its workload makes.
    // A host an Istio ServiceEntry registers by a glob is known to it too.
    let callee_in_cluster = b.graph.services[to].kinds.iter().any(|k| k.in_cluster())
        || b.registered(&b.graph.services[to].name);
    if !protocol.is_l7() || (m.how == MeshEvidence::Assumed && !callee_in_cluster) {
        return (Some(m), None);
    }
    // A route's host names a service without its namespace (`orders` in
    // a base two overlays deploy): it applies to the service of that
    // name in each namespace, unless a route names the namespace.
    let host = b.graph.services[to].name.clone();
    let host = if cx.routes.keys().any(|(_, h)| *h == host) || cx.waypoints.contains_key(&host) {
        host
    } else {
        b.base_name(&host).to_string()
    };
    // Ambient mode: no sidecar; the callee's waypoint, where it has one,
    // applies the routes' policy (or Istio's default) as a sidecar would.
    let waypoint = match m.how {
        MeshEvidence::Ambient => match cx.waypoints.get(&host) {
            Some(w) if !matches!(w.runs, WaypointRun::Other { .. }) => Some(w),
            // No waypoint, or another implementation's (a graph note).
            _ => return (Some(m), None),
        },
        _ => None,
    };
    // The mesh's route to the host (looked up, not a map of the mesh's
    // routes built per call).
    let own = match written.map(crate::extract::short_host) {
        // Called by a Kubernetes Service of a name of its own, joined to
        // the callee: only the routes for that host apply (a route's
        // `hosts` match the request's host).
        Some(w)
            if w != host
                && w != b.graph.services[to].name
                && !b.split.contains_key(&w)
                && cx.kube_services.contains(&w) =>
        {
            cx.written.get(&(m.mesh.clone(), w)).copied()
        }
        _ => cx.routes.get(&(m.mesh.clone(), host.clone())).copied(),
    };
    let layer = match &m.mesh.spec().sidecar_default {
        Some(d) => Some(sidecar_layer(
            b.files,
            own,
            &(m.mesh.clone(), d),
            mesh_default(b, cx.meshes, &m.mesh, from, proof),
            proof,
            &host,
        )),
        None => own.map(|(pf, pi)| layer_of(pf, pi, &b.files[pf].facts.policies[pi])),
    };
    let layer = layer.map(|mut l| {
        match waypoint {
            Some(w) => {
                l.label = format!("{} (waypoint `{}`)", l.label, w.name);
                l.setting.push_str(&format!(
                    "; through the waypoint `{}` (`istio.io/use-waypoint` in `{}`), the caller in ambient mode",
                    w.name,
                    b.files
                        .get(w.loc.file)
                        .map(|f| f.source.display_path())
                        .unwrap_or_default()
                ));
                if matches!(w.runs, WaypointRun::Unseen) {
                    l.setting.push_str(&format!(
                        "; its Gateway is not in the scan: taken as Istio's own waypoint (class `{}`)",
                        super::mesh::ISTIO_WAYPOINT_CLASS
                    ));
                }
            }
            None => l.setting.push_str(&evidence_note(b, &m)),
        }
        l
    });
    (Some(m), layer)
}

/// The edges every file's calls show, with their layers.
fn file_edges(
    b: &mut Builder<'_>,
    cx: &EdgeCx<'_>,
    configured: &Named,
    clients: &Named,
    client_beans: &BTreeMap<String, (FileId, usize)>,
) -> super::routes::Narrowed {
    let files = b.files;
    let mut narrowed = super::routes::Narrowed::new();
    let mut seen: BTreeSet<(ServiceId, ServiceId, String)> = BTreeSet::new();
    let env_reads = whole_map_reads(b);
    // The paths environment entries name, for the edges joined to them.
    let entry_paths = super::routes::entry_paths(files);
    let entry_protocols = entry_protocols(files);
    let ingress_hosts = super::routes::ingress_hosts(files);
    for (id, f) in files.iter().enumerate() {
        // Resolved once per file, and only for files with a call whose
        // caller the extractor did not name.
        // A shared file a config server serves is each client's.
        let owners = if f.facts.edges.iter().any(|e| e.caller.is_none()) {
            b.file_owners(id)
        } else {
            Vec::new()
        };
        // A compose file's calls are made on its network, where a name is
        // its compose service's (`Builder::kube_only`).
        let compose = f
            .facts
            .services
            .iter()
            .any(|s| s.kind == IdentityKind::Compose);
        for e in &f.facts.edges {
            let loc = Loc {
                file: id,
                span: e.span,
            };
            let callers = match &e.caller {
                Some(c) => vec![b.canonical_scoped(c, None, compose)],
                None => owners.clone(),
            };
            if callers.is_empty() {
                b.graph.notes.push(GraphNote {
                    loc,
                    message: format!(
                        "a call to `{}` whose caller is unknown: name the service of this file in `[[services]]` paths",
                        e.callee
                    ),
                });
                continue;
            }
            for caller in callers {
                // An IP address names a service only where a manifest gives
                // it to one.
                if (crate::model::calls::ip_literal(&e.callee).is_some()
                    && !b.aliases.contains_key(&short_host(&e.callee)))
                    || crate::model::calls::this_machine(&e.callee)
                {
                    continue;
                }
                let mut via = e.via.clone();
                if let Some((key, how)) = whole_map_env(&e.via) {
                    match env_reads.get(&caller) {
                        Some(r) if r.read.contains(key) => {}
                        Some(r) if r.has_code => {
                            b.graph.notes.push(GraphNote {
                            loc,
                            message: format!(
                                "`{caller}` is handed `{key}` with every other variable (`{how}`), but none of its code in the scan reads it: no call to `{}`",
                                e.callee
                            ),
                        });
                            continue;
                        }
                        // No program source of the caller was read: whether
                        // it reads the variable is not known, and said.
                        _ => via.push_str(&format!(
                            ": read assumed, no code of `{caller}` in the scan"
                        )),
                    }
                }
                // A caller deployed to several namespaces calls from each.
                // A program several workloads run calls from each.
                for (ns, runner) in b.runners(id, &caller) {
                    let from = b.service_scoped(&runner, ns.as_deref(), compose);
                    let written = b.written_host(id, e.span, &e.callee);
                    let target = written.as_deref().unwrap_or(&e.callee);
                    if crate::model::calls::url_value_only(&e.via)
                        && !b.declares(target, ns.as_deref(), compose)
                    {
                        continue;
                    }
                    // An Ingress host is served by its controller, whose
                    // rules for that host go on (`routes.rs`).
                    let host = ingress_hosts.get(&short_host(target));
                    let to = b.service_scoped(
                        host.map_or(target, |(_, controller)| controller.as_str()),
                        ns.as_deref(),
                        compose,
                    );
                    if from == to {
                        continue;
                    }
                    let via = match host {
                        Some((h, _)) => format!("{via} (Ingress host `{h}`)"),
                        None => via.clone(),
                    };
                    let host = host.map(|(h, _)| h.clone());
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
                    let protocol =
                        protocol(b, &entry_protocols, (id, e.span, &e.via), to, e.protocol);
                    // A call through a named client takes that client's
                    // configuration in the caller's files, else their
                    // `default` (an HTTP client's: not an AMQP or SQL call's),
                    // also inside a retry written around the call (a
                    // pipeline or `@Retry` runs the client, whose handler
                    // retries each of its attempts), unless the call
                    // already carries a client's policy.
                    let client_layer = layers.iter().all(|l| {
                        l.policy.is_none_or(|(lf, li)| {
                            files[lf]
                                .facts
                                .policies
                                .get(li)
                                .is_none_or(|p| p.scope.client.is_none())
                        })
                    });
                    if client_layer
                        && let Some(client) = &e.client
                        && let Some(&(cf, ci)) = clients
                            .get(&(caller.clone(), client.clone()))
                            .or_else(|| {
                                protocol
                                    .is_l7()
                                    .then(|| clients.get(&(caller.clone(), "default".to_string())))
                                    .flatten()
                            })
                            .or_else(|| client_beans.get(&caller))
                        && !layers.iter().any(|l| l.policy == Some((cf, ci)))
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
                    let (mesh, sidecar) =
                        mesh_layer(b, cx, from, to, (&e.via, Some(&e.callee)), protocol, loc);
                    if !layers.iter().any(|l| l.kind == LayerKind::Mesh)
                        && let Some(l) = sidecar
                    {
                        layers.push(l);
                    }
                    layers.extend(invocation_layer(b, cx, &e.via, &caller, to));
                    layers.sort_by_key(|l| l.kind);
                    let base = super::routes::path_of_edge(files, &entry_paths, id, e.span, &e.via);
                    // A client sending several paths (an HTTP interface's
                    // methods) makes a call of each.
                    let sent = super::routes::sent_paths(f, e.span);
                    if !sent.is_empty()
                        && let Some((_, var)) = super::routes::joined_entry(&e.via)
                    {
                        narrowed
                            .entry((from, to, var.to_string()))
                            .or_default()
                            .extend(sent.iter().map(|p| super::routes::join(base.as_deref(), p)));
                    }
                    let paths: Vec<Option<String>> = if sent.is_empty() {
                        vec![base]
                    } else {
                        sent.iter()
                            .map(|p| Some(super::routes::join(base.as_deref(), p)))
                            .collect()
                    };
                    for path in paths {
                        let key = (from, to, format!("{id}:{}:{path:?}", e.span.start));
                        if seen.insert(key) {
                            b.graph.edges.push(Edge {
                                from,
                                to,
                                proof: loc,
                                via: via.clone(),
                                layers: layers.clone(),
                                also: Vec::new(),
                                protocol,
                                mesh: mesh.clone(),
                                path,
                                route: super::routes::route_of(f, e.span),
                                host: host.clone(),
                                route_hosts: super::routes::hosts_of(f, e.span),
                            });
                        }
                    }
                }
            }
        }
    }
    narrowed
}

/// The variables handed to each service with a whole ConfigMap or
/// `env_file`, and which
/// of them its files read (`env_reads.rs`).
fn whole_map_reads(b: &Builder<'_>) -> HashMap<String, super::env_reads::Reads> {
    let mut wanted: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in b.files {
        for e in &f.facts.edges {
            if let (Some((key, _)), Some(caller)) = (whole_map_env(&e.via), &e.caller) {
                wanted
                    .entry(b.canonical(caller))
                    .or_default()
                    .insert(key.to_string());
            }
        }
    }
    super::env_reads::reads(b, &wanted)
}

/// A client of a provider's service (an AWS SDK client) calls it, whether
/// or not a file names the host.
fn provider_edges(b: &mut Builder<'_>) {
    let files = b.files;
    for (id, f) in files.iter().enumerate() {
        // Only policies in code build a client; a profile in a shared
        // config file applies to whichever program reads it.
        if !is_source(f) {
            continue;
        }
        for (i, p) in f.facts.policies.iter().enumerate() {
            let Some(endpoint) = p.system.spec().endpoint else {
                continue;
            };
            if f.facts.edges.iter().any(|e| e.policies.contains(&i)) {
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
                protocol: Protocol::Http,
                mesh: None,
                path: None,
                route: Vec::new(),
                host: None,
                route_hosts: Vec::new(),
            });
        }
    }
}

/// The configuration's `[[edges]]` that no file shows.
fn configured_edges(b: &mut Builder<'_>, cx: &EdgeCx<'_>) {
    for e in &b.settings.graph.edges {
        let from = b.service(&e.from);
        let to = b.service(&e.to);
        if from == to || b.graph.edges.iter().any(|x| x.from == from && x.to == to) {
            continue;
        }
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
        let via = e.via.clone().unwrap_or_else(|| "configured edge".into());
        let protocol = b.protocols.get(&to).copied().flatten().unwrap_or_default();
        let (mesh, sidecar) = mesh_layer(b, cx, from, to, (&via, None), protocol, loc);
        b.graph.edges.push(Edge {
            from,
            to,
            proof: loc,
            via,
            layers: sidecar.into_iter().collect(),
            also: Vec::new(),
            protocol,
            mesh,
            path: None,
            route: Vec::new(),
            host: None,
            route_hosts: Vec::new(),
        });
    }
}

/// Parallel calls merged, cycles found, entry points: services nobody
/// calls, and those the configuration names.
fn finish(mut g: Graph, settings: &Settings) -> Graph {
    merge_parallel(&mut g);
    g.out = vec![Vec::new(); g.services.len()];
    for (i, e) in g.edges.iter().enumerate() {
        g.out[e.from].push(i);
    }
    find_cycles(&mut g);
    let mut called = vec![false; g.services.len()];
    // A call by an Ingress host goes through the edge proxy outside
    // clients reach too: the controller stays an entry.
    for e in g.edges.iter().filter(|e| e.host.is_none()) {
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

#[path = "edge_protocol.rs"]
mod edge_protocol;
