//! Mesh membership per workload, with its evidence (issue 17, item 4), and
//! the sidecar layer a member's calls get.
//!
//! With `mesh = "auto"`, a caller's calls go through a sidecar when its
//! workload declaration (the one nearest the call, so that each deployment
//! variant answers for itself) says so: its pod template's injection
//! annotation or label, a Gateway of the mesh's class, or its namespace's
//! injection label. A workload in a system namespace never does. Where
//! nothing says either way and the repository holds a mesh's resources,
//! the workload is *assumed* in that mesh, and every layer resting on the
//! assumption names the file that caused it. A workload deployed in
//! several folders (`k8s-istio/` beside `k8s-plain/`) is assumed in the
//! mesh only in the folders that hold the mesh's resources, when one does.

use super::identity::{Builder, WorkloadDecl};
use super::*;
use crate::model::calls::{NamespaceDecl, SYSTEM_NAMESPACES};
use std::collections::HashSet;

mod nearest;
mod projects;

pub(super) use projects::Decl;

/// What the mesh step needs from every file, gathered once.
pub(super) struct MeshFacts<'a> {
    /// Namespaces with their injection settings: (file, declaration).
    namespaces: Vec<(FileId, &'a NamespaceDecl)>,
    /// Files that declare a mesh's resources.
    mesh_files: Vec<(FileId, System)>,
    /// Each file's folder (`k8s/prod/`), computed once: the nearest
    /// declaration is looked up per call.
    folders: Vec<String>,
    /// [`membership`]'s answers under `mesh = "auto"`, by caller and the
    /// file the call is shown in (all it depends on once the workloads
    /// are known): each call looked through every mesh file again, a
    /// tenth of a one-file run on the generated 10,000-file tree.
    answers: std::cell::RefCell<HashMap<(ServiceId, FileId), Option<Membership>>>,
    /// [`of_workload`]'s answers by caller and the declaration's index
    /// among the caller's: each looks through every mesh file.
    workloads: std::cell::RefCell<HashMap<(ServiceId, usize), Option<Membership>>>,
    /// The mesh files by their folders, for the one nearest a workload.
    nearest: nearest::Nearest,
    /// Per mesh file (as `mesh_files`), the folder whose workloads it can
    /// be evidence for: the deepest folder above it (or its own) that
    /// holds a workload declaration. A repository of independent samples
    /// (apache/dubbo-samples fcda525: one sample's VirtualService in
    /// `3-extensions/registry/dubbo-samples-mesh-k8s/deploy/traffic/`)
    /// does not put every other sample's workloads in the mesh; Istio's
    /// `istio-manifests/` beside `kubernetes-manifests/` still covers the
    /// repository's workloads.
    scopes: Vec<String>,
    /// The mesh-wide retry defaults (a `defaultHttpRetryPolicy`, an
    /// install's old default): (file, index into its `mesh_defaults`), each
    /// with its project's folder, found as for `scopes`. A default applies
    /// to the workloads of its project only: istio/istio 86c9f01's test
    /// install `tests/integration/base.yaml` (retries off) is not the
    /// samples' mesh. Handed to [`Graph::mesh_defaults`].
    pub defaults: Vec<((FileId, usize), String)>,
    /// The deployments each mesh file can be evidence for, and the plain
    /// variants of meshed ones ([`projects::Projects`]).
    projects: projects::Projects,
}

impl<'a> MeshFacts<'a> {
    /// `workloads`: the files declaring each service's workloads.
    pub fn gather(files: &'a [ScannedFile], workloads: Vec<Vec<Decl>>) -> Self {
        let mut m = MeshFacts {
            namespaces: files
                .iter()
                .enumerate()
                .flat_map(|(id, f)| f.facts.namespaces.iter().map(move |n| (id, n)))
                .collect(),
            mesh_files: files
                .iter()
                .enumerate()
                .filter_map(|(id, f)| f.facts.mesh.clone().map(|m| (id, m)))
                .collect(),
            folders: files
                .iter()
                .map(|f| {
                    let p = f.source.display_path();
                    p.rsplit_once('/')
                        .map_or(String::new(), |(d, _)| format!("{d}/"))
                })
                .collect(),
            answers: Default::default(),
            workloads: Default::default(),
            nearest: Default::default(),
            scopes: Vec::new(),
            defaults: Vec::new(),
            projects: Default::default(),
        };
        m.nearest = nearest::Nearest::new(m.mesh_files.iter().map(|(f, _)| (*f, m.folder(*f))));
        // The folders that hold every workload declaration of some service
        // (the deepest folder holding all of a service's, and the folders
        // above it), not counting the mesh files' own (an Istio Gateway is
        // a workload). A folder whose workloads are all declared elsewhere
        // too is a variant or a patch of a larger project (robot-shop's
        // `K8s/Istio/` patches `payment`, deployed by the chart and the
        // compose file as well), not a project of its own.
        let meshed: HashSet<FileId> = m.mesh_files.iter().map(|(f, _)| *f).collect();
        let mut holding: HashSet<&str> = HashSet::new();
        holding.insert("");
        for decls in &workloads {
            let mut dirs = decls
                .iter()
                .map(|d| d.file)
                .filter(|w| !meshed.contains(w))
                .map(|w| m.folder(w));
            let Some(first) = dirs.next() else {
                continue;
            };
            // The folder holding all of them: their common leading parts
            // (`a/b/` of `a/b/c/` and `a/b/d/`).
            let mut common = first;
            for d in dirs {
                let end = common
                    .split_inclusive('/')
                    .zip(d.split_inclusive('/'))
                    .take_while(|(x, y)| x == y)
                    .map(|(x, _)| x.len())
                    .sum::<usize>();
                common = &common[..end];
            }
            for (i, _) in common.match_indices('/') {
                holding.insert(&common[..=i]);
            }
        }
        // The deepest of those folders above `file` (or its own).
        let scope = |file: FileId| {
            let dir = m.folder(file);
            let mut ends: Vec<usize> = dir.match_indices('/').map(|(i, _)| i + 1).collect();
            ends.insert(0, 0);
            ends.iter()
                .rev()
                .map(|&e| &dir[..e])
                .find(|d| holding.contains(d))
                .unwrap_or("")
                .to_string()
        };
        let scopes = m.mesh_files.iter().map(|(f, _)| scope(*f)).collect();
        // A fixture folder's default is off the graph already (its
        // `mesh_defaults` emptied by `link::test_inputs`).
        let defaults = files
            .iter()
            .enumerate()
            .flat_map(|(id, f)| {
                f.facts
                    .mesh_defaults
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.system.spec().sidecar_default.is_some())
                    .map(move |(i, _)| (id, i))
            })
            .map(|(id, i)| ((id, i), scope(id)))
            .collect();
        m.scopes = scopes;
        m.defaults = defaults;
        let mesh: Vec<(&str, &str)> = m
            .mesh_files
            .iter()
            .zip(&m.scopes)
            .map(|((f, _), s)| (m.folder(*f), s.as_str()))
            .collect();
        let projects = projects::Projects::new(&workloads, &mesh, &|f| m.folder(f));
        m.projects = projects;
        m
    }

    /// Whether any mesh is in view (configured, or its resources or an
    /// injection setting scanned).
    pub fn any(&self, b: &Builder<'_>) -> bool {
        b.settings.graph.mesh.system().is_some()
            || !self.mesh_files.is_empty()
            || self
                .namespaces
                .iter()
                .any(|(_, n)| n.mesh.iter().any(|h| h.on))
            || b.workloads
                .values()
                .flatten()
                .any(|w| w.placement.mesh.iter().any(|h| h.on))
    }
}

impl MeshFacts<'_> {
    /// The folder of `file` (empty at the root or for an unknown file).
    fn folder(&self, file: FileId) -> &str {
        self.folders.get(file).map_or("", String::as_str)
    }
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.split('/')
        .zip(b.split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

/// The mesh-wide default of `mesh` for a call of `caller` shown at
/// `proof` ([`Graph::mesh_default_in`]): by the call's file and the
/// caller's workload declarations nearest it.
pub(super) fn mesh_default(
    b: &Builder<'_>,
    m: &MeshFacts<'_>,
    mesh: &System,
    caller: ServiceId,
    proof: Loc,
) -> Option<(FileId, usize)> {
    if b.graph.mesh_defaults.is_empty() {
        return None;
    }
    let here = m.folder(proof.file);
    let mut folders = vec![here];
    if let Some(decls) = b.workloads.get(&caller) {
        let near = |w: &WorkloadDecl| common_prefix(m.folder(w.loc.file), here);
        let best = decls.iter().map(near).max().unwrap_or(0);
        folders.extend(
            decls
                .iter()
                .filter(|w| near(w) == best)
                .map(|w| m.folder(w.loc.file)),
        );
    }
    b.graph.mesh_default_in(b.files, mesh, &folders)
}

/// The caller's mesh for a call shown at `proof`, if it runs in one.
pub(super) fn membership(
    b: &Builder<'_>,
    m: &MeshFacts<'_>,
    caller: ServiceId,
    proof: Loc,
) -> Option<Membership> {
    use crate::config::Mesh;
    match b.settings.graph.mesh {
        Mesh::None => return None,
        Mesh::Istio | Mesh::Linkerd => {
            return Some(Membership {
                mesh: b.settings.graph.mesh.system()?,
                how: MeshEvidence::Configured,
                loc: proof,
                variant: None,
            });
        }
        Mesh::Auto => {}
    }
    let key = (caller, proof.file);
    if let Some(known) = m.answers.borrow().get(&key) {
        return known.clone();
    }
    let answer = auto_membership(b, m, caller, proof);
    m.answers.borrow_mut().insert(key, answer.clone());
    answer
}

/// [`membership`] under `mesh = "auto"`: from the caller's workload
/// declarations nearest the file the call is shown in.
fn auto_membership(
    b: &Builder<'_>,
    m: &MeshFacts<'_>,
    caller: ServiceId,
    proof: Loc,
) -> Option<Membership> {
    let decls = b.workloads.get(&caller)?;
    let here = if proof.file < b.files.len() {
        b.files[proof.file].source.display_path()
    } else {
        String::new()
    };
    // The declarations nearest the call; of equally near ones, one that is
    // in a mesh (the worst case), first written first.
    let near: Vec<usize> = decls
        .iter()
        .map(|w| common_prefix(m.folder(w.loc.file), &here))
        .collect();
    let best = *near.iter().max()?;
    let variants: BTreeSet<String> = decls
        .iter()
        .map(|w| m.folder(w.loc.file).to_string())
        .collect();
    let (w, answer) = decls
        .iter()
        .enumerate()
        .zip(&near)
        .filter(|(_, n)| **n == best)
        .map(|((i, w), _)| {
            let known = m.workloads.borrow().get(&(caller, i)).cloned();
            let answer = known.unwrap_or_else(|| {
                let answer = of_workload(m, w, decls);
                m.workloads.borrow_mut().insert((caller, i), answer.clone());
                answer
            });
            (w, answer)
        })
        .reduce(|a, c| if a.1.is_none() && c.1.is_some() { c } else { a })?;
    answer.map(|mut a| {
        if variants.len() > 1 {
            a.variant = Some(m.folder(w.loc.file).to_string());
        }
        a
    })
}

/// The mesh one workload declaration runs in, if any.
fn of_workload(m: &MeshFacts<'_>, w: &WorkloadDecl, all: &[WorkloadDecl]) -> Option<Membership> {
    let ns = w.placement.namespace.as_deref();
    if ns.is_some_and(|n| SYSTEM_NAMESPACES.contains(&n)) {
        return None;
    }
    let at = |span| Loc {
        file: w.loc.file,
        span,
    };
    if let Some(h) = w.placement.mesh.first() {
        return h.on.then(|| Membership {
            mesh: h.mesh.clone(),
            how: MeshEvidence::Workload,
            loc: at(h.span),
            variant: None,
        });
    }
    if let Some(ns) = ns {
        let here = m.folder(w.loc.file);
        // Ambient mode: in the mesh, with no sidecar (and never assumed to
        // have one).
        let ambient = m
            .namespaces
            .iter()
            .filter(|(_, n)| n.name == ns && n.ambient.is_some())
            .max_by_key(|(f, _)| common_prefix(m.folder(*f), here));
        if let Some((f, n)) = ambient {
            return Some(Membership {
                mesh: System::Istio,
                how: MeshEvidence::Ambient,
                loc: Loc {
                    file: *f,
                    span: n.ambient.unwrap_or_default(),
                },
                variant: None,
            });
        }
        let decl = m
            .namespaces
            .iter()
            .filter(|(_, n)| n.name == ns && !n.mesh.is_empty())
            .max_by_key(|(f, _)| common_prefix(m.folder(*f), here));
        if let Some((f, n)) = decl {
            let h = &n.mesh[0];
            return h.on.then(|| Membership {
                mesh: h.mesh.clone(),
                how: MeshEvidence::Namespace,
                loc: Loc {
                    file: *f,
                    span: h.span,
                },
                variant: None,
            });
        }
    }
    // The assumption: a mesh's resources are in the repository. Where the
    // workload is deployed in several folders and some of them hold mesh
    // resources, only those are in the mesh.
    let here = m.folder(w.loc.file);
    let within = |f: FileId, dir: &str| m.folder(f).starts_with(dir);
    let variants: BTreeSet<String> = all
        .iter()
        .map(|x| m.folder(x.loc.file).to_string())
        .collect();
    let scoped = variants.len() > 1
        && variants
            .iter()
            .any(|v| m.mesh_files.iter().any(|(f, _)| within(*f, v)));
    // A plain variant of a meshed deployment (`travels/` beside
    // `federated-travels/east/`) is not assumed in the mesh.
    if !scoped && m.projects.plain(here) {
        return None;
    }
    // The mesh file sharing the most folders with the declaration, the
    // first of equally near ones (under it when scoped: rare, so looked
    // through). One in a deployment folder of its own is evidence for the
    // deployments connected to it only.
    let (file, mesh) = if scoped {
        m.mesh_files
            .iter()
            .filter(|(f, _)| within(*f, here))
            .max_by_key(|(f, _)| (common_prefix(m.folder(*f), here), std::cmp::Reverse(*f)))?
    } else {
        let near = m.nearest.nearest(here)?;
        if here.starts_with(m.scopes[near].as_str()) && m.projects.reaches(near, here) {
            &m.mesh_files[near]
        } else {
            // The nearest mesh file belongs to another project of the
            // repository: the nearest one whose project holds this folder.
            m.mesh_files
                .iter()
                .zip(&m.scopes)
                .enumerate()
                .filter(|(k, (_, scope))| {
                    here.starts_with(scope.as_str()) && m.projects.reaches(*k, here)
                })
                .map(|(_, (x, _))| x)
                .max_by_key(|(f, _)| (common_prefix(m.folder(*f), here), std::cmp::Reverse(*f)))?
        }
    };
    Some(Membership {
        mesh: mesh.clone(),
        how: MeshEvidence::Assumed,
        loc: Loc {
            file: *file,
            span: Span::default(),
        },
        variant: None,
    })
}

/// What a layer's setting says about the membership it rests on, where
/// that is not plain: an assumption names its file, a variant its folder.
pub(super) fn evidence_note(b: &Builder<'_>, m: &Membership) -> String {
    let file = |l: Loc| {
        if l.file < b.files.len() {
            b.files[l.file].source.display_path()
        } else {
            String::new()
        }
    };
    let mut out = match m.how {
        MeshEvidence::Assumed => format!(
            "; sidecar assumed: `{}` declares {} resources, no injection setting does",
            file(m.loc),
            m.mesh.label(),
        ),
        MeshEvidence::Configured => format!(
            "; `mesh = \"{}\"` in the configuration",
            b.settings.graph.mesh.as_str()
        ),
        _ => String::new(),
    };
    if let Some(v) = &m.variant {
        out.push_str(&format!("; in the deployment variant `{v}`"));
    }
    out
}

/// The class of Istio's own waypoints (istio/istio
/// `pkg/config/constants/constants.go` `WaypointGatewayClassName`), and
/// the controller of a `GatewayClass` that makes any class one
/// (`ManagedGatewayMeshController`), at 86c9f01.
pub(super) const ISTIO_WAYPOINT_CLASS: &str = "istio-waypoint";
const ISTIO_MESH_CONTROLLER: &str = "istio.io/mesh-controller";

/// The waypoint a service's callers go through.
pub(super) struct Waypoint {
    /// As labelled: `name`, or `namespace/name`.
    pub name: String,
    /// The `istio.io/use-waypoint` label.
    pub loc: Loc,
    pub runs: WaypointRun,
}

/// Who runs a waypoint, from its Gateway's class.
pub(super) enum WaypointRun {
    /// Istio's own waypoint (Envoy programmed by istiod): the routes'
    /// policy, else Istio's default.
    Istio,
    /// Its Gateway is not in the scan: taken as Istio's own, and said so.
    Unseen,
    /// Another implementation (`kgateway-waypoint`, Istio's agentgateway
    /// waypoint `istio-agentgateway-waypoint`): neither a VirtualService
    /// nor Istio's default retry applies there. istiod's agentgateway
    /// translation adds a retry only where an HTTPRoute rule writes one
    /// (`pilot/pkg/config/kube/agentgateway/routes.go` `ApplyRetries`);
    /// other implementations' policies are not read. No retry is counted
    /// there, and a graph note says so.
    Other { class: String, at: Loc },
}

/// The Istio ambient waypoint each service's callers go through, by
/// service: the `istio.io/use-waypoint` label of a Kubernetes Service
/// joined to it (`none` opts out of its namespace's), else of its
/// namespace (the namespace its Service or workload declares), in the
/// namespace `istio.io/use-waypoint-namespace` names, else the labelled
/// object's. A waypoint of Istio's class applies the routes' policy for
/// the service as a sidecar would, else Istio's default (istio/istio
/// pilot/pkg/networking/core/listener_waypoint.go
/// `buildWaypointInboundHTTPRouteConfig`, and httproute.go
/// `buildSidecarInboundHTTPRouteConfig`, which gives a waypoint
/// `BuildDefaultHTTPOutboundRoute` with the default retry policy, at
/// 86c9f01); one of another class is that implementation's
/// ([`WaypointRun::Other`]).
pub(super) fn waypoints(b: &Builder<'_>, m: &MeshFacts<'_>) -> BTreeMap<String, Waypoint> {
    use crate::model::calls::IdentityKind;
    let mut labelled: BTreeMap<String, (String, Loc, Option<String>)> = BTreeMap::new();
    if !m.namespaces.iter().any(|(_, n)| n.waypoint.is_some())
        && !b
            .files
            .iter()
            .flat_map(|f| f.facts.services.iter())
            .any(|s| s.placement.waypoint.is_some())
    {
        return BTreeMap::new();
    }
    let mut opted_out: BTreeSet<String> = BTreeSet::new();
    let mut namespaces: BTreeMap<String, String> = BTreeMap::new();
    // Gateways with their class: (name, namespace, class, where).
    let mut gateways: Vec<(&str, Option<&str>, &str, Loc)> = Vec::new();
    let mut classes: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (id, f) in b.files.iter().enumerate() {
        for c in &f.facts.gateway_classes {
            classes
                .entry(c.name.as_str())
                .or_default()
                .insert(c.controller.as_str());
        }
        for s in &f.facts.services {
            if s.kind == IdentityKind::Workload
                && let Some((class, span)) = &s.placement.gateway_class
            {
                gateways.push((
                    s.name.as_str(),
                    s.placement.namespace.as_deref(),
                    class.as_str(),
                    Loc {
                        file: id,
                        span: *span,
                    },
                ));
            }
            // A waypoint (any Gateway) has no waypoint of its own (istio/istio
            // `waypoints.go` `fetchWaypointForService`).
            if !matches!(s.kind, IdentityKind::KubeService | IdentityKind::Workload)
                || s.placement.gateway_class.is_some()
            {
                continue;
            }
            let name = b.canonical(&s.name);
            if let Some(ns) = &s.placement.namespace {
                namespaces.entry(name.clone()).or_insert_with(|| ns.clone());
            }
            if let Some((w, span)) = &s.placement.waypoint {
                if w.eq_ignore_ascii_case("none") {
                    opted_out.insert(name);
                } else {
                    let ns = s.placement.namespace.clone();
                    labelled.entry(name).or_insert((
                        w.clone(),
                        Loc {
                            file: id,
                            span: *span,
                        },
                        ns,
                    ));
                }
            }
        }
    }
    for (name, ns) in namespaces {
        if labelled.contains_key(&name) || opted_out.contains(&name) {
            continue;
        }
        if let Some((f, n)) = m
            .namespaces
            .iter()
            .find(|(_, n)| n.name == ns && n.waypoint.is_some())
            && let Some((w, span)) = &n.waypoint
            && !w.eq_ignore_ascii_case("none")
        {
            labelled.insert(
                name,
                (
                    w.clone(),
                    Loc {
                        file: *f,
                        span: *span,
                    },
                    Some(ns),
                ),
            );
        }
    }
    labelled
        .into_iter()
        .map(|(service, (w, loc, own_ns))| {
            let (ns, gw) = match w.split_once('/') {
                Some((ns, gw)) => (Some(ns.to_string()), gw.to_string()),
                None => (own_ns, w.clone()),
            };
            // The Gateway of that name in that namespace (one that says
            // no namespace is applied to any).
            let found = gateways.iter().find(|(n, gns, _, _)| {
                *n == gw && (gns.is_none() || ns.is_none() || *gns == ns.as_deref())
            });
            let runs = match found {
                None => WaypointRun::Unseen,
                Some((_, _, class, at)) => {
                    let istio = *class == ISTIO_WAYPOINT_CLASS
                        || classes
                            .get(class)
                            .is_some_and(|c| c.len() == 1 && c.contains(ISTIO_MESH_CONTROLLER));
                    if istio {
                        WaypointRun::Istio
                    } else {
                        WaypointRun::Other {
                            class: class.to_string(),
                            at: *at,
                        }
                    }
                }
            };
            (service, Waypoint { name: w, loc, runs })
        })
        .collect()
}

/// One note per waypoint of another implementation than Istio's, naming
/// the services behind it: their calls through it count no retry.
pub(super) fn waypoint_notes(waypoints: &BTreeMap<String, Waypoint>) -> Vec<GraphNote> {
    let mut by: BTreeMap<(Loc, &str, &str), Vec<&str>> = BTreeMap::new();
    for (service, w) in waypoints {
        if let WaypointRun::Other { class, at } = &w.runs {
            by.entry((*at, w.name.as_str(), class.as_str()))
                .or_default()
                .push(service.as_str());
        }
    }
    by.into_iter()
        .map(|((at, name, class), services)| GraphNote {
            loc: at,
            message: format!(
                "the waypoint `{name}` of `{}` is a Gateway of class `{class}`, not Istio's `{ISTIO_WAYPOINT_CLASS}`: neither a VirtualService nor Istio's default retry applies there and its own retry policies are not read, so no retry is counted on calls through it",
                services.join("`, `")
            ),
        })
        .collect()
}
