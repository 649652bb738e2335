//! Kubernetes environment variables whose value a ConfigMap key holds
//! (`valueFrom.configMapKeyRef`): the ConfigMap is looked for among the
//! YAML files of the workload's own folder, where manifests keep their
//! shared configuration (`common-config.yml` beside the Deployments). One
//! ConfigMap of that name must be found there; none, or two that differ,
//! leave the call unresolved. A workload's `envFrom: - configMapRef:`
//! takes every key of the ConfigMap (after its `prefix`): each key whose
//! name says it holds an address is an edge marked [`WHOLE_MAP_VIA`],
//! which the graph keeps only where the workload's code or configuration
//! reads the variable (a ConfigMap handed whole to several workloads holds
//! addresses most of them never use).
//!
//! A ConfigMap of that name not in the workload's folder is looked for in
//! the whole scan (a service's own manifests naming the configuration of
//! the manifest sets beside them, GoogleCloudPlatform/bank-of-anthos'
//! `src/frontend/k8s/base/` and `iac/acm-multienv-cicd-anthos-autopilot/
//! base/config.yaml`): a key is taken where every declaration of that name
//! whose value is an address gives the same address (a placeholder such
//! as `host.c.[PROJECT_ID].internal` is no address; `127.0.0.1`, a proxy
//! beside the container, is one that differs). One found nowhere is
//! dropped, since which keys it holds is unknown.

use super::*;
use crate::extract::workload::{configmap_all_ref, configmap_ref, host_of, push_edge};
use crate::model::calls::WHOLE_MAP_VIA;
use std::collections::{BTreeSet, HashMap};

/// At most this many entries of a folder are looked at.
const MAX_ENTRIES: usize = 256;
/// The largest manifest read.
const MAX_MANIFEST: u64 = 1 << 20;
/// YAML files of the scan read for a ConfigMap not in a workload's
/// folder, at most.
const MAX_SCAN_FILES: usize = 4096;

/// ConfigMap name -> each declaration's `data`.
type Maps = HashMap<String, Vec<HashMap<String, String>>>;

pub fn configmap_env(
    files: &mut [ScannedFile],
    roots: &[PathBuf],
    cwd: Option<&Path>,
    disk: Disk<'_>,
) {
    let refs = |f: &ScannedFile| {
        f.facts
            .unresolved
            .iter()
            .any(|u| configmap_ref(&u.written).is_some() || configmap_all_ref(&u.written).is_some())
    };
    let dir_of = |f: &ScannedFile| {
        let path = match cwd {
            Some(c) if f.source.path.is_relative() => c.join(&f.source.path),
            _ => f.source.path.clone(),
        };
        path.parent().unwrap_or(Path::new(".")).to_path_buf()
    };
    let named = |u: &crate::model::UnresolvedCall| {
        configmap_all_ref(&u.written)
            .map(|(m, _)| m.to_string())
            .or_else(|| configmap_ref(&u.written).map(|(_, m, _)| m.to_string()))
    };
    // Only the ConfigMaps some workload names are read: a folder's file
    // that names none of them is not parsed (envoyproxy/gateway's test
    // folders hold hundreds of ConfigMaps no workload of theirs asks for).
    let asked: BTreeSet<String> = files
        .iter()
        .filter(|f| refs(f))
        .flat_map(|f| f.facts.unresolved.iter().filter_map(named))
        .collect();
    let asked = Names::new(&asked);
    // Folder -> (ConfigMap name -> its data), read once per folder; the
    // names no workload's folder declares, looked for in the scan once.
    let mut folders: HashMap<PathBuf, Maps> = HashMap::new();
    let mut wanted: BTreeSet<String> = BTreeSet::new();
    for f in files.iter().filter(|f| refs(f)) {
        let dir = dir_of(f);
        let maps = folders
            .entry(dir.clone())
            .or_insert_with(|| read_maps(&dir, &asked, disk));
        wanted.extend(
            f.facts
                .unresolved
                .iter()
                .filter_map(named)
                .filter(|m| !maps.contains_key(m)),
        );
    }
    let scan = if wanted.is_empty() {
        Maps::new()
    } else {
        scan_maps(roots, cwd, disk, &wanted)
    };
    for f in files.iter_mut() {
        if !refs(f) {
            continue;
        }
        let Some(maps) = folders.get(&dir_of(f)) else {
            continue;
        };
        let mut kept = Vec::new();
        for u in std::mem::take(&mut f.facts.unresolved) {
            let named = configmap_all_ref(&u.written)
                .map(|(m, _)| m)
                .or_else(|| configmap_ref(&u.written).map(|(_, m, _)| m));
            // Not in the folder: the scan's declarations that give an
            // address.
            let elsewhere = named
                .filter(|m| !maps.contains_key(*m))
                .map(|m| scan.get(m).map(|ds| addresses(ds)));
            let decls = match &elsewhere {
                Some(found) => found.as_ref(),
                None => named.and_then(|m| maps.get(m)),
            };
            if let (Some(caller), Some((map, prefix))) = (&u.caller, configmap_all_ref(&u.written))
            {
                all_keys(caller, decls, map, prefix, u.span, &mut f.facts);
                continue;
            }
            let (Some(caller), Some((env, map, key))) = (&u.caller, configmap_ref(&u.written))
            else {
                kept.push(u);
                continue;
            };
            let mut values: Vec<&String> = decls
                .map(|ds| ds.iter().filter_map(|d| d.get(key)).collect())
                .unwrap_or_default();
            values.sort();
            values.dedup();
            match values.as_slice() {
                [v] if host_of(v).is_some() || v.contains("${") => {
                    let before = f.facts.edges.len();
                    push_edge(caller, env, v, u.span, &mut f.facts);
                    if let Some(e) = f.facts.edges.get_mut(before) {
                        e.via = format!("env `{env}` from ConfigMap `{map}`");
                    }
                }
                _ => kept.push(u),
            }
        }
        // `push_edge` lists a value it cannot read as unresolved itself.
        f.facts.unresolved.extend(kept);
    }
}

/// The edges of an `envFrom` of the ConfigMap `map`: each key set to one
/// value by every declaration of that name, as the env var `prefix` + key.
fn all_keys(
    caller: &str,
    decls: Option<&Vec<HashMap<String, String>>>,
    map: &str,
    prefix: &str,
    span: crate::source::Span,
    facts: &mut crate::model::Facts,
) {
    let Some(decls) = decls else { return };
    let mut keys: Vec<&String> = decls.iter().flat_map(|d| d.keys()).collect();
    keys.sort();
    keys.dedup();
    // The map's entries, for a host's port beside it
    // (`ORDER_QUEUE_PORT: "5672"` beside `ORDER_QUEUE_HOSTNAME`).
    let first = facts.edges.len();
    let mut pairs: Vec<(String, String)> = Vec::new();
    for key in keys {
        let mut values: Vec<&String> = decls.iter().filter_map(|d| d.get(key)).collect();
        values.sort();
        values.dedup();
        let [v] = values.as_slice() else { continue };
        let env = format!("{prefix}{key}");
        pairs.push((env.clone(), (*v).clone()));
        let before = facts.edges.len();
        push_edge(caller, &env, v, span, facts);
        if let Some(e) = facts.edges.get_mut(before) {
            let mark = if crate::model::calls::url_value_only(&e.via) {
                crate::model::calls::URL_VALUE_VIA
            } else {
                ""
            };
            e.via = format!("env `{env}` from ConfigMap `{map}`{mark}{WHOLE_MAP_VIA}");
        }
    }
    crate::extract::env_protocol::from_ports(facts, first, &pairs);
}

/// Each declaration's keys whose value is an address, or this machine
/// (`127.0.0.1`: a proxy beside the container, which another address
/// of the same key contradicts); a placeholder is neither.
fn addresses(decls: &[HashMap<String, String>]) -> Vec<HashMap<String, String>> {
    let here = |v: &str| {
        let h = crate::model::calls::short_host(v);
        h == "localhost" || h == "::1" || h == "[::1]" || h == "0.0.0.0" || h.starts_with("127.")
    };
    decls
        .iter()
        .map(|d| {
            d.iter()
                .filter(|(_, v)| host_of(v).is_some() || here(v))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .collect()
}

/// The ConfigMaps named in `wanted` that the YAML files of the scan
/// declare (at most [`MAX_SCAN_FILES`] files read): the files the walk
/// listed, or a walk of `roots` without one; only a file that says
/// `ConfigMap` and one of the names is parsed (on istio/istio every YAML
/// file was parsed again: an eighth of a cold scan's instructions).
fn scan_maps(
    roots: &[PathBuf],
    cwd: Option<&Path>,
    disk: Disk<'_>,
    wanted: &BTreeSet<String>,
) -> Maps {
    let mut out = Maps::new();
    let listed = disk
        .files_named_ending(".yaml", MAX_SCAN_FILES)
        .map(|mut v| {
            v.extend(
                disk.files_named_ending(".yml", MAX_SCAN_FILES)
                    .unwrap_or_default(),
            );
            v
        });
    // A walk whose roots it could not make absolute (no working folder
    // given) lists nothing: the scan is walked again then.
    let paths: Vec<PathBuf> = match listed.filter(|v| !v.is_empty()) {
        Some(v) => v,
        None => {
            let roots: Vec<PathBuf> = super::joined_roots(roots, cwd);
            let Ok(walk) = crate::discover::walk(&roots, &[], cwd) else {
                return out;
            };
            walk.files
                .iter()
                .map(|c| c.path.clone())
                .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
                .collect()
        }
    };
    let names = Names::new(wanted);
    // The first files in path order, as before; those the scan read and
    // found without `ConfigMap` declare none (`file_maps` would pass over
    // their text).
    for p in paths.iter().take(MAX_SCAN_FILES) {
        if disk.lacks_configmap(p) {
            continue;
        }
        let Some(text) = small_text(p) else { continue };
        file_maps(&text, &names, &mut out);
    }
    out
}

/// The ConfigMap names looked for, with a search for each.
struct Names<'a> {
    names: &'a BTreeSet<String>,
    finders: Vec<memchr::memmem::Finder<'a>>,
}

impl<'a> Names<'a> {
    fn new(names: &'a BTreeSet<String>) -> Self {
        let finders = names
            .iter()
            .map(|n| memchr::memmem::Finder::new(n.as_bytes()))
            .collect();
        Names { names, finders }
    }

    /// Whether `text` may declare one of the names: a ConfigMap's
    /// `metadata.name` is written as it reads (a name is a DNS label:
    /// no escape or folding writes it otherwise), so a text holding none
    /// of them declares none.
    fn in_text(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        self.finders.iter().any(|f| f.find(bytes).is_some())
    }
}

/// A regular file's text, when it is no larger than [`MAX_MANIFEST`].
fn small_text(p: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(p).ok()?;
    if !meta.is_file() || meta.len() > MAX_MANIFEST {
        return None;
    }
    std::fs::read_to_string(p).ok()
}

/// The ConfigMaps the YAML files of `dir` declare: name -> each
/// declaration's `data`.
fn read_maps(dir: &Path, names: &Names<'_>, disk: Disk<'_>) -> Maps {
    let mut out = Maps::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten().take(MAX_ENTRIES) {
        let p = e.path();
        if !p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            continue;
        }
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let kustomization = crate::extract::kustomize::is_kustomization(&name);
        // A kustomization generates ConfigMaps without the word; any other
        // file declares one only where it says `ConfigMap`.
        if !kustomization && disk.lacks_configmap(&p) {
            continue;
        }
        let Some(text) = small_text(&p) else {
            continue;
        };
        if kustomization {
            generated(dir, &text, &mut out);
            continue;
        }
        file_maps(&text, names, &mut out);
    }
    out
}

/// The ConfigMaps of `names` one YAML text declares.
fn file_maps(text: &str, names: &Names<'_>, out: &mut Maps) {
    if !text.contains("ConfigMap") || !names.in_text(text) {
        return;
    }
    // Only ConfigMaps are read: the other documents are not parsed.
    let file = match crate::systems::blank_other_kinds(text, &["ConfigMap"]) {
        Some(b) => b.parse(),
        None => crate::yaml::parse(text),
    };
    for d in &file.documents {
        let root = file.root(d);
        if root.get("kind").and_then(|k| k.as_str()) != Some("ConfigMap") {
            continue;
        }
        let Some(name) = root.path(&["metadata", "name"]).and_then(|n| n.as_str()) else {
            continue;
        };
        if !names.names.contains(name) {
            continue;
        }
        let data: HashMap<String, String> = root
            .get("data")
            .map(|m| {
                m.entries()
                    .into_iter()
                    .filter_map(|x| x.value.as_str().map(|v| (x.key.to_string(), v.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        out.entry(name.to_string()).or_default().push(data);
    }
}

/// The ConfigMaps a kustomization of the folder generates
/// (`configMapGenerator`): `literals` (`KEY=value`) and `envs`/`env`
/// files of `KEY=value` lines beside it (its name is the generator's
/// `name`; kustomize's hash suffix is rewritten into every reference).
fn generated(dir: &Path, text: &str, out: &mut Maps) {
    let file = crate::yaml::parse(text);
    let Some(d) = file.documents.first() else {
        return;
    };
    let root = file.root(d);
    let pair = |line: &str, data: &mut HashMap<String, String>| {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return;
        }
        if let Some((k, v)) = line.split_once('=') {
            data.insert(k.trim().to_string(), v.to_string());
        }
    };
    for g in root
        .get("configMapGenerator")
        .map(|g| g.items())
        .unwrap_or_default()
    {
        let Some(name) = g.get("name").and_then(|n| n.as_str()) else {
            continue;
        };
        let mut data = HashMap::new();
        for l in g.get("literals").map(|l| l.items()).unwrap_or_default() {
            if let Some(l) = l.as_str() {
                pair(l, &mut data);
            }
        }
        let envs = g.get("envs").map(|e| e.items()).unwrap_or_default();
        for e in envs.into_iter().chain(g.get("env")) {
            let Some(rel) = e.as_str() else { continue };
            let p = dir.join(rel);
            let small =
                std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_file() && m.len() <= MAX_MANIFEST);
            if !small || rel.contains("..") {
                continue;
            }
            if let Ok(env) = std::fs::read_to_string(&p) {
                for line in env.lines().take(MAX_ENTRIES) {
                    pair(line, &mut data);
                }
            }
        }
        out.entry(name.to_string()).or_default().push(data);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_MAPS: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: orders\ndata:\n  URL: http://orders:8080\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: billing\ndata:\n  URL: http://billing:8080\n";

    #[test]
    fn only_the_configmaps_a_workload_names_are_read() {
        let asked: BTreeSet<String> = ["orders".to_string()].into();
        let mut out = Maps::new();
        file_maps(TWO_MAPS, &Names::new(&asked), &mut out);
        assert_eq!(out.keys().collect::<Vec<_>>(), ["orders"]);
        assert_eq!(out["orders"][0]["URL"], "http://orders:8080");
        // A text naming none of them is not parsed.
        let asked: BTreeSet<String> = ["shipping".to_string()].into();
        let mut out = Maps::new();
        file_maps(TWO_MAPS, &Names::new(&asked), &mut out);
        assert!(out.is_empty());
    }
}
