//! Services: their names and aliases, Kubernetes Services joined to the
//! workloads their selectors pick, images joined to build units, and the
//! service each file belongs to (docs/architecture.md, "The call-path
//! graph"; issue 17, item 2).

use super::*;
use crate::model::calls::Placement;

/// A workload declaration of a service, as the mesh step reads it.
#[derive(Clone, Debug)]
pub(super) struct WorkloadDecl {
    pub loc: Loc,
    pub placement: Placement,
}

pub(super) struct Builder<'a> {
    pub files: &'a [ScannedFile],
    pub settings: &'a Settings,
    pub graph: Graph,
    pub ids: HashMap<String, ServiceId>,
    pub aliases: HashMap<String, String>,
    pub globs: Vec<(globset::GlobMatcher, String)>,
    /// Workload declarations per service.
    pub workloads: BTreeMap<ServiceId, Vec<WorkloadDecl>>,
    /// The protocol a service's Kubernetes Services say, where one.
    pub protocols: BTreeMap<ServiceId, Option<Protocol>>,
}

impl<'a> Builder<'a> {
    pub fn new(files: &'a [ScannedFile], settings: &'a Settings) -> Self {
        Builder {
            files,
            settings,
            graph: Graph::default(),
            ids: HashMap::new(),
            aliases: HashMap::new(),
            globs: Vec::new(),
            workloads: BTreeMap::new(),
            protocols: BTreeMap::new(),
        }
    }

    pub fn canonical(&self, name: &str) -> String {
        let short = short_host(name);
        if let Some(e) = systems::ENDPOINTS
            .iter()
            .find(|e| short.ends_with(e.host_suffix) || short == e.service)
        {
            return e.service.to_string();
        }
        self.aliases.get(&short).cloned().unwrap_or(short)
    }

    pub fn service(&mut self, name: &str) -> ServiceId {
        let name = self.canonical(name);
        if let Some(&id) = self.ids.get(&name) {
            return id;
        }
        let id = self.graph.services.len();
        self.graph.services.push(Service {
            name: name.clone(),
            sources: Vec::new(),
            kinds: BTreeSet::new(),
        });
        self.ids.insert(name, id);
        id
    }

    /// Aliases (configuration first, then hosts files declare, Services
    /// joined to workloads, images), then one service per declaration.
    pub fn identities(&mut self) {
        let files = self.files;
        for s in &self.settings.graph.services {
            for a in &s.aliases {
                self.aliases.insert(short_host(a), short_host(&s.name));
            }
            for p in &s.paths {
                if let Ok(g) = globset::Glob::new(p) {
                    self.globs.push((g.compile_matcher(), short_host(&s.name)));
                }
            }
        }
        for (host, target) in joins(files).into_iter().chain(unit_apps(files)) {
            self.aliases.entry(host).or_insert(target);
        }
        for f in files {
            for s in &f.facts.services {
                let target = short_host(&s.name);
                for h in &s.hosts {
                    let h = short_host(h);
                    if h != target {
                        // A Service's `clusterIP` reaches the workload the
                        // Service is joined to, as its name does.
                        let to = match crate::model::calls::ip_literal(&h) {
                            Some(_) => self.aliases.get(&target).unwrap_or(&target).clone(),
                            None => target.clone(),
                        };
                        self.aliases.entry(h).or_insert(to);
                    }
                }
            }
        }
        for s in &self.settings.graph.services {
            self.service(&s.name);
        }
        for (id, f) in files.iter().enumerate() {
            for s in &f.facts.services {
                // A build unit (a config client) names who owns a file;
                // it becomes a node when a call names it.
                if matches!(s.kind, IdentityKind::BuildUnit | IdentityKind::ConfigClient) {
                    continue;
                }
                let sid = self.service(&s.name);
                let loc = Loc {
                    file: id,
                    span: s.span,
                };
                let svc = &mut self.graph.services[sid];
                svc.sources.push((loc, s.source.clone()));
                svc.kinds.insert(s.kind);
                match s.kind {
                    IdentityKind::Workload => {
                        self.workloads.entry(sid).or_default().push(WorkloadDecl {
                            loc,
                            placement: s.placement.clone(),
                        });
                    }
                    IdentityKind::KubeService | IdentityKind::AppHost => {
                        let p = s.placement.protocol;
                        self.protocols
                            .entry(sid)
                            .and_modify(|old| {
                                if *old != p {
                                    *old = None;
                                }
                            })
                            .or_insert(p);
                    }
                    _ => {}
                }
            }
        }
    }

    /// The service a file belongs to: a configured glob, else the one
    /// program the file itself declares (a workload, an application
    /// name), else its build unit (the link stage's, relative to the scan
    /// root).
    pub fn file_owner(&self, file: FileId) -> Option<String> {
        let f = &self.files[file];
        let path = f.source.display_path();
        for (g, name) in &self.globs {
            if g.is_match(&path) {
                return Some(name.clone());
            }
        }
        let tier = |kinds: &[IdentityKind]| -> Option<String> {
            let names: BTreeSet<String> = f
                .facts
                .services
                .iter()
                .filter(|s| kinds.contains(&s.kind))
                .map(|s| self.canonical(&s.name))
                .collect();
            (names.len() == 1)
                .then(|| names.into_iter().next())
                .flatten()
        };
        // Served by a config server to its clients: one client owns it,
        // several share it ([`Self::file_owners`]).
        if f.facts
            .services
            .iter()
            .any(|s| s.kind == IdentityKind::ConfigClient)
        {
            return tier(&[IdentityKind::ConfigClient]);
        }
        tier(&[IdentityKind::Workload, IdentityKind::AppName])
            .or_else(|| tier(&[IdentityKind::BuildUnit]))
    }

    /// Every program whose settings and calls a file holds: its owner, or
    /// each config client a config server serves it to (a shared
    /// `application*` file: each client reads its own copy).
    pub fn file_owners(&self, file: FileId) -> Vec<String> {
        let clients: BTreeSet<String> = self.files[file]
            .facts
            .services
            .iter()
            .filter(|s| s.kind == IdentityKind::ConfigClient)
            .map(|s| self.canonical(&s.name))
            .collect();
        if clients.is_empty() {
            self.file_owner(file).into_iter().collect()
        } else {
            clients.into_iter().collect()
        }
    }
}

/// Kubernetes Services joined to the workloads their selector picks
/// (every selector label among the pod template's labels, the same
/// namespace where both write one), and images joined to the workloads
/// that run them: (alias, workload name). A Service that selects pods of
/// two differently named workloads joins neither.
fn joins(files: &[ScannedFile]) -> Vec<(String, String)> {
    let decls = || files.iter().flat_map(|f| f.facts.services.iter());
    let workloads: Vec<&ServiceDecl> = decls()
        .filter(|s| s.kind == IdentityKind::Workload && !s.placement.labels.is_empty())
        .collect();
    let mut out = Vec::new();
    for svc in decls().filter(|s| s.kind == IdentityKind::KubeService) {
        let sel = &svc.placement.labels;
        if sel.is_empty() {
            continue;
        }
        let picked: BTreeSet<String> = workloads
            .iter()
            .filter(|w| {
                let ns_ok = match (&w.placement.namespace, &svc.placement.namespace) {
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                };
                ns_ok && sel.iter().all(|kv| w.placement.labels.contains(kv))
            })
            .map(|w| short_host(&w.name))
            .collect();
        if picked.len() == 1
            && let Some(target) = picked.into_iter().next()
        {
            let host = short_host(&svc.name);
            if host != target {
                out.push((host, target));
            }
        }
    }
    // An image run by one workload only (not `redis` run by two).
    let mut images: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for w in decls().filter(|s| s.kind == IdentityKind::Workload) {
        for image in &w.placement.images {
            images
                .entry(short_host(image))
                .or_default()
                .insert(short_host(&w.name));
        }
    }
    // A compose service running the image of one workload is that
    // workload (`web` in docker-compose.yml, `web-svc` in Kubernetes).
    for c in decls().filter(|s| s.kind == IdentityKind::Compose) {
        let targets: BTreeSet<&String> = c
            .placement
            .images
            .iter()
            .filter_map(|i| images.get(&short_host(i)))
            .flatten()
            .collect();
        if targets.len() == 1
            && let Some(target) = targets.into_iter().next()
            && short_host(&c.name) != *target
        {
            out.push((short_host(&c.name), target.clone()));
        }
    }
    for (image, targets) in images {
        if targets.len() == 1
            && let Some(target) = targets.into_iter().next()
            && image != target
            && !crate::link::is_generic(&image)
        {
            out.push((image, target));
        }
    }
    out
}

/// Build units joined to the application their files name: a unit one of
/// whose files declares one application name, and no unit file another
/// (`spring-petclinic-api-gateway`, the pom's artifactId, is
/// `api-gateway`, its `spring.application.name`; the Java files name
/// only the unit): (unit, application name). A unit deployed under its
/// own name (a compose service, a workload, a Kubernetes Service) keeps
/// it: ftgo-application's delivery service says
/// `spring.application.name=ftgo-order-service` (copied), and is deployed
/// as `ftgo-delivery-service`.
fn unit_apps(files: &[ScannedFile]) -> Vec<(String, String)> {
    let deployed: BTreeSet<String> = files
        .iter()
        .flat_map(|f| f.facts.services.iter())
        .filter(|s| {
            matches!(
                s.kind,
                IdentityKind::Compose
                    | IdentityKind::Workload
                    | IdentityKind::KubeService
                    | IdentityKind::AppHost
            )
        })
        .map(|s| short_host(&s.name))
        .collect();
    let mut apps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let of = |kind: IdentityKind| -> BTreeSet<String> {
            f.facts
                .services
                .iter()
                .filter(|s| s.kind == kind)
                .map(|s| short_host(&s.name))
                .collect()
        };
        let (units, names) = (of(IdentityKind::BuildUnit), of(IdentityKind::AppName));
        if let (Some(unit), Some(name)) = (units.first(), names.first())
            && units.len() == 1
            && names.len() == 1
            && unit != name
            && !deployed.contains(unit)
        {
            apps.entry(unit.clone()).or_default().insert(name.clone());
        }
    }
    apps.into_iter()
        .filter(|(_, names)| names.len() == 1)
        .filter_map(|(unit, names)| names.into_iter().next().map(|n| (unit, n)))
        .collect()
}

use crate::model::ServiceDecl;
