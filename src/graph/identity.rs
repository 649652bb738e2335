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
    /// Names a workload or Kubernetes Service declares in two or more
    /// namespaces (two overlays deploying one service to two namespaces),
    /// with those namespaces: each is a service of its own, `name.ns`.
    pub split: BTreeMap<String, BTreeSet<String>>,
    /// Names declared in one namespace only, with it, kept where some
    /// name is split: a caller there reaches a split name's service in
    /// its own namespace.
    pub single: BTreeMap<String, String>,
    /// Kubernetes Service names joined to a workload of another name that
    /// a compose file also declares as a service of its own: on a compose
    /// network the name is that compose service, not the workload.
    pub kube_only: BTreeSet<String>,
    /// Programs several workloads run (one image, two Deployments), with
    /// those workloads' names: each makes the program's calls
    /// ([`Self::runners`]).
    pub runs: BTreeMap<String, Vec<String>>,
    /// The domains a mesh registers by a glob host (an Istio ServiceEntry's
    /// `*.msn.com`, kept as `.msn.com`): a call to a host under one is to
    /// a host the mesh knows. A glob names no service.
    pub registered: Vec<String>,
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
            split: BTreeMap::new(),
            single: BTreeMap::new(),
            kube_only: BTreeSet::new(),
            runs: BTreeMap::new(),
            registered: Vec::new(),
        }
    }

    pub fn canonical(&self, name: &str) -> String {
        self.canonical_in(name, None)
    }

    /// A host's service as a caller in namespace `ns` reaches it: a name
    /// declared in several namespaces is the one in the namespace the
    /// host names (`orders.shop`), else in the caller's.
    pub fn canonical_in(&self, name: &str, ns: Option<&str>) -> String {
        self.canonical_scoped(name, ns, false)
    }

    /// [`Self::canonical_in`] as a caller on a compose network reaches
    /// the name (`compose`): a Kubernetes Service's alias does not hold
    /// there where a compose service has that name ([`Self::kube_only`]).
    pub fn canonical_scoped(&self, name: &str, ns: Option<&str>, compose: bool) -> String {
        let short = short_host(name);
        if compose && self.kube_only.contains(&short) {
            return self.qualify(&short, ns);
        }
        if let Some(e) = systems::ENDPOINTS
            .iter()
            .find(|e| short.ends_with(e.host_suffix) || short == e.service)
        {
            return e.service.to_string();
        }
        // The namespace the host names, where it is one a split name is
        // declared in (`orders.shop`), else the caller's.
        let named = crate::model::calls::host_namespace(name)
            .filter(|n| self.split.values().any(|s| s.contains(n)));
        let ns = named.as_deref().or(ns);
        let key = self.qualify(&short, ns);
        let to = self.aliases.get(&key).cloned().unwrap_or(key);
        // An alias of a name deployed to several namespaces (a Service
        // that writes none) reaches the one in the caller's.
        if self.split.contains_key(&to) {
            self.qualify(&to, ns)
        } else {
            to
        }
    }

    /// `name.ns` for a name declared in several namespaces, one of them
    /// `ns`; else the name.
    pub fn qualify(&self, short: &str, ns: Option<&str>) -> String {
        match ns {
            Some(n) if self.split.get(short).is_some_and(|s| s.contains(n)) => {
                format!("{short}.{n}")
            }
            _ => short.to_string(),
        }
    }

    /// The name a qualified service (`orders.shop`) was declared with
    /// (`orders`), for what is keyed by name alone (a route's host).
    pub fn base_name<'n>(&self, name: &'n str) -> &'n str {
        match name.rsplit_once('.') {
            Some((base, ns)) if self.split.get(base).is_some_and(|s| s.contains(ns)) => base,
            _ => name,
        }
    }

    /// The namespaces a call of `caller` from `file` is made in: one
    /// (`None`) unless the caller is declared in several namespaces; then
    /// those the file declares it in, else all of them. A file that
    /// declares the caller in no namespace only (a quickstart's manifests
    /// applied as they are, beside overlays that deploy the same program
    /// to `staging` and `production`: bank-of-anthos' `kubernetes-manifests/`)
    /// calls from the caller of no namespace: a base an overlay deploys had
    /// its declarations replaced by the overlay's (`link::kustomize`).
    pub fn caller_namespaces(&self, file: FileId, caller: &str) -> Vec<Option<String>> {
        let base = self.base_name(caller);
        let Some(all) = self.split.get(base) else {
            return vec![self.single.get(base).cloned()];
        };
        if base != caller {
            return vec![caller.rsplit_once('.').map(|(_, n)| n.to_string())];
        }
        let named =
            |s: &&ServiceDecl| self.canonical(&s.name) == base || short_host(&s.name) == base;
        let services = &self.files[file].facts.services;
        let mut workloads = services
            .iter()
            .filter(|s| s.kind == IdentityKind::Workload)
            .filter(named)
            .peekable();
        if workloads.peek().is_some() && workloads.all(|s| s.placement.namespace.is_none()) {
            return vec![None];
        }
        let here: BTreeSet<String> = services
            .iter()
            .filter(named)
            .filter_map(|s| s.placement.namespace.clone())
            .filter(|n| all.contains(n))
            .collect();
        let pick = if here.is_empty() { all } else { &here };
        pick.iter().map(|n| Some(n.clone())).collect()
    }

    /// The host as the file writes it at `span`, where it is `short`
    /// written out (extractors give hosts short; `orders.shop.svc` names
    /// the namespace the short name drops). Only read where a name is
    /// declared in several namespaces.
    pub fn written_host(&self, file: FileId, span: Span, short: &str) -> Option<String> {
        if self.split.is_empty() {
            return None;
        }
        let text = self
            .files
            .get(file)?
            .source
            .text
            .get(span.start..span.end)?;
        let text = text.trim().trim_matches(['"', '\'', '`']).trim();
        (text.len() <= 512 && short_host(text) == short_host(short)).then(|| text.to_string())
    }

    pub fn service(&mut self, name: &str) -> ServiceId {
        self.service_in(name, None)
    }

    pub fn service_in(&mut self, name: &str, ns: Option<&str>) -> ServiceId {
        self.service_scoped(name, ns, false)
    }

    /// [`Self::service_in`] as a caller on a compose network reaches it.
    /// Whether a host names a service some file of the scan declares (a
    /// workload, a Kubernetes or compose Service, a mesh route), without
    /// adding it.
    pub fn declares(&self, name: &str, ns: Option<&str>, compose: bool) -> bool {
        let name = self.canonical_scoped(name, ns, compose);
        self.ids
            .get(&name)
            .is_some_and(|&id| !self.graph.services[id].kinds.is_empty())
    }

    pub fn service_scoped(&mut self, name: &str, ns: Option<&str>, compose: bool) -> ServiceId {
        let name = self.canonical_scoped(name, ns, compose);
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

    /// Whether a mesh registers `host` by a glob ([`Self::registered`]).
    pub fn registered(&self, host: &str) -> bool {
        self.registered.iter().any(|d| host.ends_with(d.as_str()))
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
        (self.split, self.single) = split_names(files);
        // Names that are a compose service and a Kubernetes Service.
        let of_kind = |k: IdentityKind| -> BTreeSet<String> {
            files
                .iter()
                .flat_map(|f| f.facts.services.iter())
                .filter(|s| s.kind == k)
                .map(|s| short_host(&s.name))
                .collect()
        };
        let compose_names = of_kind(IdentityKind::Compose);
        let kube_services = of_kind(IdentityKind::KubeService);
        let joined = joins(files)
            .into_iter()
            .map(|((h, hn), (t, tn))| {
                (
                    self.qualify(&h, hn.as_deref()),
                    self.qualify(&t, tn.as_deref()),
                )
            })
            .collect::<Vec<_>>();
        for (host, target) in joined.into_iter().chain(unit_apps(files)) {
            if host != target && kube_services.contains(&host) && compose_names.contains(&host) {
                self.kube_only.insert(host.clone());
            }
            if host != target {
                self.aliases.entry(host).or_insert(target);
            }
        }
        for f in files {
            for s in &f.facts.services {
                let ns = s.placement.namespace.as_deref();
                let target = self.qualify(&short_host(&s.name), ns);
                for h in &s.hosts {
                    let h = self.qualify(&short_host(h), ns);
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
        // A compose service built from a unit's folder is that unit's
        // program (by the name the unit goes by: its application's, where
        // its configuration names one), its compose name an alias.
        for s in files.iter().flat_map(|f| f.facts.services.iter()) {
            if let (IdentityKind::Compose, Some(unit)) = (s.kind, &s.placement.unit) {
                let host = short_host(&s.name);
                let unit = short_host(unit);
                let to = self.aliases.get(&unit).cloned().unwrap_or(unit);
                if to != host && !self.aliases.contains_key(&host) {
                    self.aliases.insert(host, to);
                }
            }
        }
        self.program_workloads();
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
                if let (IdentityKind::MeshRoute, Some(domain)) = (s.kind, s.name.strip_prefix('*'))
                {
                    self.registered.push(domain.to_string());
                    continue;
                }
                let compose = s.kind == IdentityKind::Compose;
                let sid = self.service_scoped(&s.name, s.placement.namespace.as_deref(), compose);
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

    /// Build units joined to the workloads that run them, Kubernetes or
    /// compose: a workload whose own name or image has the unit's letters
    /// and digits, ignoring case (`Basket_API` for `Basket.API.csproj`,
    /// the Deployment `basket-api`, the image `shop/basket.api`), but not
    /// one that runs the image under another name with a command of its
    /// own or named like another unit of the scan (emojivoto's `vote-bot`
    /// runs `emojivoto-vote-bot` from the `emojivoto-web` image). One workload: the unit
    /// is an alias of it (one node); several (emojivoto's `web-svc` and
    /// `web-svc-2` running `emojivoto-web`): each makes the unit's calls
    /// ([`Self::runs`]). A unit joined already (its image's name, a
    /// compose service built from it, its application's name) keeps that
    /// join, and a name deployed to several namespaces is left as it is.
    fn program_workloads(&mut self) {
        let decls = || self.files.iter().flat_map(|f| f.facts.services.iter());
        let units: BTreeSet<String> = decls()
            .filter(|s| s.kind == IdentityKind::BuildUnit)
            .map(|s| short_host(&s.name))
            .filter(|u| !crate::link::is_generic(u))
            .collect();
        let unit_norms: BTreeSet<String> = units.iter().map(|u| letters(u)).collect();
        let workloads: Vec<&ServiceDecl> = decls()
            .filter(|s| matches!(s.kind, IdentityKind::Workload | IdentityKind::Compose))
            .collect();
        for unit in &units {
            let n = letters(unit);
            if n.is_empty() || self.aliases.contains_key(unit) {
                continue;
            }
            let mut names = BTreeSet::new();
            let mut split = false;
            for w in &workloads {
                // (Not `short_host`: `basket.api` is no host.)
                let own = letters(&w.name);
                let runs = own == n || w.placement.images.iter().any(|i| letters(i) == n);
                // By its image only, with a command of its own: maybe
                // another program of the image.
                if !runs || (own != n && (unit_norms.contains(&own) || w.placement.own_command)) {
                    continue;
                }
                split |= self.split.contains_key(&short_host(&w.name));
                let compose = w.kind == IdentityKind::Compose;
                names.insert(self.canonical_scoped(
                    &w.name,
                    w.placement.namespace.as_deref(),
                    compose,
                ));
            }
            if split || names.is_empty() || names.iter().all(|w| w == unit) {
                continue;
            }
            if names.len() == 1 {
                let w = names.into_iter().next().unwrap_or_default();
                if self.aliases.get(&w) != Some(unit) {
                    self.aliases.insert(unit.clone(), w);
                }
            } else {
                self.runs.insert(unit.clone(), names.into_iter().collect());
            }
        }
    }

    /// Who makes a call of `caller` from `file`, in which namespace: the
    /// workloads that run it where several do ([`Self::runs`]), else the
    /// caller in each of its namespaces ([`Self::caller_namespaces`]).
    pub fn runners(&self, file: FileId, caller: &str) -> Vec<(Option<String>, String)> {
        match self.runs.get(caller) {
            Some(ws) => ws.iter().map(|w| (None, w.clone())).collect(),
            None => self
                .caller_namespaces(file, caller)
                .into_iter()
                .map(|ns| (ns, caller.to_string()))
                .collect(),
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

/// A name as programs and workloads are compared: its letters and
/// digits, lower case.
fn letters(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Kubernetes Services joined to the workloads their selector picks
/// (every selector label among the pod template's labels, the same
/// namespace where both write one), and images joined to the workloads
/// that run them: (alias, workload name), each with the namespace it is
/// declared in. A Service that selects pods of two differently named
/// workloads joins neither, unless one of them has its name: the others
/// join that one (`graph::canary`).
type Named = (String, Option<String>);
fn joins(files: &[ScannedFile]) -> Vec<(Named, Named)> {
    let decls = || files.iter().flat_map(|f| f.facts.services.iter());
    let workloads: Vec<&ServiceDecl> = decls()
        .filter(|s| s.kind == IdentityKind::Workload && !s.placement.labels.is_empty())
        .collect();
    let mut out = Vec::new();
    let services: BTreeSet<String> = decls()
        .filter(|s| s.kind == IdentityKind::KubeService)
        .map(|s| short_host(&s.name))
        .collect();
    for svc in decls().filter(|s| s.kind == IdentityKind::KubeService) {
        let sel = &svc.placement.labels;
        if sel.is_empty() {
            continue;
        }
        let picked: Vec<&&ServiceDecl> = workloads
            .iter()
            .filter(|w| {
                let ns_ok = match (&w.placement.namespace, &svc.placement.namespace) {
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                };
                ns_ok && sel.iter().all(|kv| w.placement.labels.contains(kv))
            })
            .collect();
        let names: BTreeSet<String> = picked.iter().map(|w| short_host(&w.name)).collect();
        if names.len() == 1
            && let Some(target) = names.into_iter().next()
        {
            let host = short_host(&svc.name);
            let ns = svc.placement.namespace.clone();
            // The workload's namespace where the Service writes none and
            // one workload is picked.
            let wns = match (&ns, picked.as_slice()) {
                (None, [w]) => w.placement.namespace.clone(),
                _ => ns.clone(),
            };
            if host != target || ns != wns {
                out.push(((host, ns), (target, wns)));
            }
        } else {
            out.extend(super::canary::joins(svc, &picked, &services));
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
    // workload (`web` in docker-compose.yml, `web-svc` in Kubernetes),
    // unless Kubernetes declares its name too (a Service or workload of
    // its own: traefik's compose `whoami2`, an instance of the `whoami`
    // image, beside the Kubernetes Service `whoami2`).
    let kube_names: BTreeSet<String> = decls()
        .filter(|s| matches!(s.kind, IdentityKind::KubeService | IdentityKind::Workload))
        .map(|s| short_host(&s.name))
        .collect();
    // A compose service is named on its own project's network (the
    // folder of its compose files): the name is joined only where every
    // project declaring it runs that one workload's image (loki's
    // `clients/cmd/docker-driver` service `nginx` runs `grafana/grafana`;
    // `examples/ha-monolithic`'s `nginx` runs nginx).
    let mut by_project: BTreeMap<String, BTreeMap<&std::path::Path, BTreeSet<&String>>> =
        BTreeMap::new();
    for f in files {
        let project = f.source.path.parent().unwrap_or(std::path::Path::new(""));
        for c in f.facts.services.iter() {
            if c.kind != IdentityKind::Compose || kube_names.contains(&short_host(&c.name)) {
                continue;
            }
            let targets = c
                .placement
                .images
                .iter()
                .filter_map(|i| images.get(&short_host(i)))
                .flatten();
            by_project
                .entry(short_host(&c.name))
                .or_default()
                .entry(project)
                .or_default()
                .extend(targets);
        }
    }
    for (name, projects) in by_project {
        let targets: BTreeSet<&String> = projects.values().flatten().copied().collect();
        if projects.values().all(|t| t.len() == 1)
            && targets.len() == 1
            && let Some(target) = targets.into_iter().next()
            && name != *target
        {
            out.push(((name, None), (target.clone(), None)));
        }
    }
    // A workload named like another program of the scan runs that
    // program, whatever image it shares with others (emojivoto's
    // `vote-bot` runs the `emojivoto-web` image with the command of its
    // own `cmd/vote-bot`): it does not make the image's program ambiguous.
    let units: BTreeSet<String> = decls()
        .filter(|s| s.kind == IdentityKind::BuildUnit)
        .map(|s| short_host(&s.name))
        .collect();
    for (image, targets) in images {
        let targets: BTreeSet<String> = if targets.len() > 1 {
            targets
                .into_iter()
                .filter(|t| *t == image || !units.contains(t))
                .collect()
        } else {
            targets
        };
        if targets.len() == 1
            && let Some(target) = targets.into_iter().next()
            && image != target
            && !crate::link::is_generic(&image)
        {
            out.push(((image, None), (target, None)));
        }
    }
    out
}

/// Names a workload or Kubernetes Service declares in two or more
/// namespaces, with the namespaces: in Kubernetes a name is a service per
/// namespace (two overlays of one base deploy two). And, where there are
/// such names, those declared in one namespace only, with it.
#[allow(clippy::type_complexity)]
fn split_names(
    files: &[ScannedFile],
) -> (BTreeMap<String, BTreeSet<String>>, BTreeMap<String, String>) {
    let mut by: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in files.iter().flat_map(|f| f.facts.services.iter()) {
        if matches!(s.kind, IdentityKind::Workload | IdentityKind::KubeService)
            && let Some(ns) = &s.placement.namespace
        {
            by.entry(short_host(&s.name))
                .or_default()
                .insert(ns.clone());
        }
    }
    let (split, single): (BTreeMap<_, _>, BTreeMap<_, _>) =
        by.into_iter().partition(|(_, n)| n.len() > 1);
    if split.is_empty() {
        return (split, BTreeMap::new());
    }
    let single = single
        .into_iter()
        .filter_map(|(name, n)| Some((name, n.into_iter().next()?)))
        .collect();
    (split, single)
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
