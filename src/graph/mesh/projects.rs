//! Which deployments a mesh file can be evidence for, where membership is
//! assumed (issue 17, item 4): the deployment folders connected to its own
//! by a workload they both declare, less the plain variants of a meshed
//! one.
//!
//! kiali/demos 7ee39129 has `federated-travels/east/` (Istio resources
//! beside its Deployments) and `travels/` (the same Deployments and a load
//! tester, no Istio file), and independent demos (`error-rates/`,
//! `fraud-detection/`, `runtimes-demo/`) with none: the folder above them
//! all is the root, so the federated demo's files were taken as evidence
//! for every one of them.

use crate::source::FileId;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// A workload declaration as this step reads it: its file, and whether it
/// is a gateway (an Istio `Gateway` declares one; it deploys nothing of
/// the application's).
pub(crate) struct Decl {
    pub file: FileId,
    pub gateway: bool,
}

/// The answer, computed once per graph.
#[derive(Default)]
pub(super) struct Projects {
    /// Per mesh file (as `MeshFacts::mesh_files`): the deployment folders
    /// (their components) it can be evidence for, when it sits in a
    /// deployment folder of its own below its scope; `None`: its scope
    /// bounds it alone (`istio-manifests/` beside `kubernetes-manifests/`).
    reach: Vec<Option<HashSet<usize>>>,
    /// Per mesh file, its folder.
    folders: Vec<String>,
    /// Each declaration folder's component: folders joined by a workload
    /// they both declare.
    component: HashMap<String, usize>,
    /// Declaration folders that are plain variants: no mesh file in their
    /// variant folder, while a sibling variant folder holding one declares
    /// at least half of their workloads.
    plain: HashSet<String>,
}

/// The folder of `file` as `MeshFacts::folder` gives it.
type FolderOf<'a> = &'a dyn Fn(FileId) -> &'a str;

impl Projects {
    /// `services`: each service's workload declarations; `mesh`: the mesh
    /// files' folders with their scopes (the folder whose workloads they
    /// can be evidence for, `MeshFacts::scopes`).
    pub fn new(services: &[Vec<Decl>], mesh: &[(&str, &str)], folder: FolderOf<'_>) -> Self {
        // Folder -> the services declared in it (gateways not counted).
        let mut dirs: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
        for (s, decls) in services.iter().enumerate() {
            for d in decls.iter().filter(|d| !d.gateway) {
                dirs.entry(folder(d.file)).or_default().insert(s);
            }
        }
        if dirs.is_empty() || mesh.is_empty() {
            return Projects::default();
        }
        let names: Vec<&str> = dirs.keys().copied().collect();
        // Components by union-find over the folders a service is declared in.
        let mut parent: Vec<usize> = (0..names.len()).collect();
        fn root(p: &mut [usize], mut i: usize) -> usize {
            while p[i] != i {
                p[i] = p[p[i]];
                i = p[i];
            }
            i
        }
        let mut by_service: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); services.len()];
        for (d, ss) in dirs.values().enumerate() {
            for &s in ss {
                by_service[s].insert(d);
            }
        }
        for folders in &by_service {
            let mut it = folders.iter();
            if let Some(&first) = it.next() {
                for &other in it {
                    let (a, b) = (root(&mut parent, first), root(&mut parent, other));
                    parent[a] = b;
                }
            }
        }
        let component: HashMap<String, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), root(&mut parent, i)))
            .collect();
        // A mesh file's own deployment folder: the deepest folder above it
        // (or its own), below its scope, holding declarations.
        let reach = mesh
            .iter()
            .map(|(dir, scope)| {
                let mut ends: Vec<usize> = dir.match_indices('/').map(|(i, _)| i + 1).collect();
                ends.retain(|&e| e > scope.len());
                ends.iter().rev().map(|&e| &dir[..e]).find_map(|own| {
                    let comps: HashSet<usize> = names
                        .iter()
                        .filter(|n| n.starts_with(own))
                        .map(|n| component[*n])
                        .collect();
                    (!comps.is_empty()).then_some(comps)
                })
            })
            .collect();
        // Plain variants: for two folders declaring one service, the
        // children of their common folder are the variants' folders.
        // The services declared in the folders under `root`.
        let under = |root: &str| -> BTreeSet<usize> {
            dirs.iter()
                .filter(|(n, _)| n.starts_with(root))
                .flat_map(|(_, ss)| ss.iter().copied())
                .collect()
        };
        let mut meshed: HashMap<String, bool> = HashMap::new();
        let mut holds = |root: &str| {
            *meshed
                .entry(root.to_string())
                .or_insert_with(|| mesh.iter().any(|(d, _)| d.starts_with(root)))
        };
        let mut plain = HashSet::new();
        for folders in &by_service {
            for &d in folders {
                for &v in folders {
                    let (dn, vn) = (names[d], names[v]);
                    if d == v || plain.contains(dn) {
                        continue;
                    }
                    let common: usize = dn
                        .split_inclusive('/')
                        .zip(vn.split_inclusive('/'))
                        .take_while(|(x, y)| x == y)
                        .map(|(x, _)| x.len())
                        .sum();
                    let child = |n: &str| -> Option<usize> {
                        n[common..].find('/').map(|i| common + i + 1)
                    };
                    let (Some(de), Some(ve)) = (child(dn), child(vn)) else {
                        continue;
                    };
                    let (rd, rv) = (&dn[..de], &vn[..ve]);
                    if holds(rd) || !holds(rv) {
                        continue;
                    }
                    let (mine, theirs) = (under(rd), under(rv));
                    if 2 * mine.intersection(&theirs).count() >= mine.len() {
                        plain.insert(dn.to_string());
                    }
                }
            }
        }
        Projects {
            reach,
            folders: mesh.iter().map(|(d, _)| d.to_string()).collect(),
            component,
            plain,
        }
    }

    /// Whether the declaration folder `here` is a plain variant of a
    /// meshed one.
    pub fn plain(&self, here: &str) -> bool {
        self.plain.contains(here)
    }

    /// Whether the mesh file at `k` (in `MeshFacts::mesh_files`) can be
    /// evidence for a declaration in `here` (its scope aside): a folder
    /// holding the mesh file's folder holds its deployment too
    /// (instana/robot-shop 55292e2's `K8s/load-deployment.yaml` above
    /// `K8s/Istio/`).
    pub fn reaches(&self, k: usize, here: &str) -> bool {
        match self.reach.get(k) {
            Some(Some(comps)) => {
                self.folders[k].starts_with(here)
                    || self.component.get(here).is_some_and(|c| comps.contains(c))
            }
            _ => true,
        }
    }
}
