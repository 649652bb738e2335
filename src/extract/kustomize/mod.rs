//! A Kustomize overlay built without kustomize: a `kustomization.yaml`'s
//! `resources` (and the older `bases`), each folder among them built as
//! its own kustomization, then its `components`, then its own
//! transformations in kustomize's order: `patches`,
//! `patchesStrategicMerge` and `patchesJson6902` applied to the resources
//! they target, `namePrefix`/`nameSuffix`, `namespace`, `commonLabels`
//! and `labels` (`labels.rs`), `images`, with
//! `configMapGenerator` ConfigMaps among the resources. Every key and
//! value keeps the file and span it was written at ([`tree::Origin`]), so
//! that what a patch changed is found in the patch.
//!
//! Files are reached through a [`Loader`] (the link step gives scanned
//! files and reads the others), so the build itself reads nothing.
//! Remote resources (`github.com/...`, URLs) are not followed.
//! Approximations: a target's `name` is matched exactly or as a regular
//! expression anchored at both ends; label selectors match equality
//! terms only; a strategic merge patch merges the lists of Kubernetes'
//! own types by their merge key and replaces any other list, as kustomize
//! does for a custom resource it has no schema for.

mod labels;
mod reuse;
pub mod tree;

pub use reuse::Built;
use reuse::build_included;

use crate::source::Span;
use crate::yaml;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tree::{Node, T};

/// How deep kustomizations may include each other.
const MAX_NESTING: usize = 16;
/// The most resources one build holds.
const MAX_RESOURCES: usize = 2_000;

/// File names kustomize looks for in a folder
/// (`konfig.RecognizedKustomizationFileNames`, sigs.k8s.io/kustomize
/// api/konfig/general.go: kustomization.yaml, kustomization.yml,
/// Kustomization).
pub const FILE_NAMES: &[&str] = &["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// The claim a kustomization file gets, so that the scan keeps it though
/// it holds no setting.
pub const CLAIM: &str = "kustomize";

/// Whether a file is a kustomization by its name (lowercased).
pub fn is_kustomization(lower: &str) -> bool {
    FILE_NAMES.iter().any(|n| n.eq_ignore_ascii_case(lower))
}

/// Whether a kustomization is a `kind: Component`.
pub fn is_component(text: &str) -> bool {
    let f = yaml::parse(text);
    f.documents
        .first()
        .and_then(|d| f.root(d).get("kind"))
        .and_then(|k| k.as_str())
        == Some("Component")
}

/// Whether a kustomization changes what the graph reads of its
/// resources (where they run, their names, their labels), so that
/// its identities must be read from the build, not from the files alone.
pub fn moves_identities(text: &str) -> bool {
    const KEYS: &[&str] = &[
        "namespace",
        "namePrefix",
        "nameSuffix",
        "commonLabels",
        "labels",
    ];
    let f = yaml::parse(text);
    f.documents.first().is_some_and(|d| {
        let root = f.root(d);
        KEYS.iter().any(|k| root.get(k).is_some())
    })
}

/// The files a build reads.
pub trait Loader {
    /// The index of the file at `path`, read if needed; `None` when it is
    /// not a regular file that can be read.
    fn load(&mut self, path: &Path) -> Option<usize>;
    /// A loaded file's text.
    fn text(&self, file: usize) -> &str;
    /// The text a resource file's documents are parsed from: its text, or
    /// its text with the documents no reader reads blanked (a
    /// `CustomResourceDefinition`'s schema, megabytes in a kustomization
    /// such as kubeflow/manifests', parsed again for every overlay), every
    /// byte offset kept.
    fn resource_text(&self, file: usize) -> &str {
        self.text(file)
    }
    /// The parse of [`Loader::resource_text`] (a loader that blanked
    /// documents may parse without walking their blanks, or give the
    /// scan's own parse of the same text).
    fn resource_parse(&self, file: usize) -> Arc<yaml::YamlFile> {
        Arc::new(yaml::parse(self.resource_text(file)))
    }
    /// The resources a loaded file's documents declare (a loader may keep
    /// them: overlays of one base read its files again and again).
    fn documents(&mut self, file: usize) -> Vec<Resource> {
        documents(file, self)
    }
    /// A kustomization already built from nothing (a folder among another
    /// one's `resources`), if the loader keeps them: kubeflow/manifests'
    /// overlays include the same bases again and again (65 overlays).
    fn built(&self, _file: usize) -> Option<&Built> {
        None
    }
    /// Keep a kustomization's build for [`Loader::built`].
    fn keep(&mut self, _file: usize, _built: Built) {}
}

/// One resource of the build. Its tree is shared with the loader's
/// copy and every build that includes it, and copied only where a build
/// changes it (`Arc::make_mut`): kubeflow/manifests' 65 overlays include
/// the same bases again and again.
#[derive(Clone, Debug)]
pub struct Resource {
    pub node: Arc<Node>,
    /// The file that declared it (a kustomization for a generated one).
    pub file: usize,
    /// Its name before any prefix or suffix (patches name that one too).
    pub first_name: String,
}

/// What wrote something into the build: a patch (its file, or the
/// kustomization holding it inline) with the kustomization and entry that
/// name it.
#[derive(Clone, Debug, PartialEq)]
pub struct Writer {
    pub file: usize,
    pub kustomization: usize,
    pub entry: Span,
}

#[derive(Debug, Default)]
pub struct Build {
    pub resources: Vec<Resource>,
    pub writers: Vec<Writer>,
    /// The kustomization files read (the root's first).
    pub kustomizations: Vec<usize>,
    /// Whether a cycle or the nesting bound cut an inclusion (the build
    /// then depends on where it was included from: not kept).
    cut: bool,
    /// The deepest stack a kustomization of it was entered with.
    deepest: usize,
}

/// The kustomization file in `dir`, if any.
pub fn find_in(dir: &Path, l: &mut dyn Loader) -> Option<usize> {
    FILE_NAMES.iter().find_map(|n| l.load(&dir.join(n)))
}

/// Build the kustomization `file` in folder `dir`.
pub fn build(dir: &Path, file: usize, l: &mut dyn Loader) -> Build {
    let mut b = Build::default();
    let mut stack = Vec::new();
    let res = build_dir(dir, file, Vec::new(), l, &mut b, &mut stack);
    b.resources = res;
    b
}

/// The folders and files a kustomization names as `resources`, `bases`
/// and `components` (for finding the overlays no other one includes).
pub fn references(dir: &Path, text: &str) -> Vec<PathBuf> {
    let f = yaml::parse(text);
    let Some(doc) = f.documents.first() else {
        return Vec::new();
    };
    let root = f.root(doc);
    ["resources", "bases", "components"]
        .iter()
        .filter_map(|k| root.get(k))
        .flat_map(|s| s.items())
        .filter_map(|i| i.as_str())
        .filter(|s| !remote(s))
        .map(|s| normal(&dir.join(s)))
        .collect()
}

fn remote(s: &str) -> bool {
    s.contains("://") || s.starts_with("github.com/") || s.starts_with("git@")
}

pub use crate::source::fold_dots as normal;

fn build_dir(
    dir: &Path,
    file: usize,
    input: Vec<Resource>,
    l: &mut dyn Loader,
    b: &mut Build,
    stack: &mut Vec<usize>,
) -> Vec<Resource> {
    if stack.len() > MAX_NESTING || stack.contains(&file) {
        b.cut = true;
        return input;
    }
    b.deepest = b.deepest.max(stack.len());
    stack.push(file);
    if !b.kustomizations.contains(&file) {
        b.kustomizations.push(file);
    }
    let text = l.text(file).to_string();
    let parsed = yaml::parse(&text);
    let Some(doc) = parsed.documents.first() else {
        stack.pop();
        return input;
    };
    let k = Node::from_yaml(parsed.root(doc), file);
    let mut res = input;
    for key in ["resources", "bases"] {
        for item in items(&k, key) {
            let Some(s) = item.str() else { continue };
            if remote(s) {
                continue;
            }
            let p = normal(&dir.join(s));
            if let Some(sub) = find_in(&p, l) {
                let more = build_included(&p, sub, l, b, stack);
                res.extend(more);
            } else if let Some(f) = l.load(&p) {
                res.extend(l.documents(f));
            }
            res.truncate(MAX_RESOURCES);
        }
    }
    for (key, kind) in [
        ("configMapGenerator", "ConfigMap"),
        ("secretGenerator", "Secret"),
    ] {
        for g in items(&k, key) {
            if let Some(r) = generated(dir, g, file, kind, l) {
                res.push(r);
            }
        }
    }
    for c in items(&k, "components") {
        let Some(s) = c.str() else { continue };
        let p = normal(&dir.join(s));
        if let Some(sub) = find_in(&p, l) {
            res = build_dir(&p, sub, res, l, b, stack);
        }
    }
    patches(dir, &k, file, &mut res, l, b);
    rename(&k, &mut res);
    labels::labels(&k, &mut res);
    images(&k, &mut res);
    stack.pop();
    res
}

fn items<'n>(k: &'n Node, key: &str) -> &'n [Node] {
    match k.get(key).map(|n| &n.t) {
        Some(T::List(l)) => l,
        _ => &[],
    }
}

/// Every document of a resource file.
/// The resources file `f`'s documents declare, parsed from its resource text.
pub fn documents<L: Loader + ?Sized>(f: usize, l: &L) -> Vec<Resource> {
    let parsed = l.resource_parse(f);
    parsed
        .documents
        .iter()
        .map(|d| Node::from_yaml(parsed.root(d), f))
        .filter(|n| n.get("kind").is_some())
        .map(|node| Resource {
            first_name: name_of(&node).to_string(),
            node: Arc::new(node),
            file: f,
        })
        .collect()
}

fn name_of(n: &Node) -> &str {
    n.path(&["metadata", "name"])
        .and_then(Node::str)
        .unwrap_or("")
}

/// A `configMapGenerator` entry's ConfigMap, or a `secretGenerator`
/// entry's Secret (its values as `stringData`, as readers take a Secret's
/// text; kustomize writes them base64-encoded in `data`): `literals`
/// (`KEY=value`), `envs` (and the older `env`: files of `KEY=value` lines)
/// and `files` (`key=path` or `path`, keyed by the file name). Kustomize
/// adds a hash of the content to the name; references are rewritten to
/// match, so the name is kept here.
fn generated(dir: &Path, g: &Node, k: usize, kind: &str, l: &mut dyn Loader) -> Option<Resource> {
    let name = g.get("name").and_then(Node::str)?;
    let mut data: Vec<(tree::Key, Node)> = Vec::new();
    for lit in items(g, "literals") {
        let Some(s) = lit.str() else { continue };
        let Some((key, value)) = s.split_once('=') else {
            continue;
        };
        data.push((
            tree::Key {
                name: key.trim().to_string(),
                at: lit.at,
            },
            Node::new(T::Scalar(value.to_string(), true), lit.at),
        ));
    }
    let env_files: Vec<&Node> = items(g, "envs").iter().chain(g.get("env")).collect();
    for f in env_files {
        let Some(s) = f.str() else { continue };
        let Some(fi) = l.load(&normal(&dir.join(s))) else {
            continue;
        };
        let text = l.text(fi);
        let mut start = 0usize;
        for line in text.split_inclusive('\n') {
            let here = start;
            start += line.len();
            let body = line.trim_end_matches(['\n', '\r']);
            let trimmed = body.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let Some(eq) = body.find('=') else { continue };
            let key = body[..eq].trim();
            let value = &body[eq + 1..];
            let value_at = Span::new(here + eq + 1, here + body.len());
            data.push((
                tree::Key {
                    name: key.to_string(),
                    at: Some((fi, Span::new(here, here + eq))),
                },
                Node::new(T::Scalar(value.to_string(), true), Some((fi, value_at))),
            ));
            if data.len() >= MAX_RESOURCES {
                break;
            }
        }
    }
    for f in items(g, "files") {
        let Some(s) = f.str() else { continue };
        let (key, path) = match s.split_once('=') {
            Some((k, p)) => (k.to_string(), p),
            None => (
                Path::new(s)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                s,
            ),
        };
        let Some(fi) = l.load(&normal(&dir.join(path))) else {
            continue;
        };
        let text = l.text(fi);
        let at = Some((fi, Span::new(0, text.len())));
        data.push((
            tree::Key {
                name: key,
                at: f.at,
            },
            Node::new(T::Scalar(text.to_string(), true), at),
        ));
    }
    let at = g.at;
    let mut meta = Node::new(T::Map(Vec::new()), at);
    meta.set("name", Node::scalar(name, g.get("name").and_then(|n| n.at)));
    let mut node = Node::new(T::Map(Vec::new()), at);
    node.set("apiVersion", Node::scalar("v1", at));
    node.set("kind", Node::scalar(kind, at));
    node.set("metadata", meta);
    let field = if kind == "Secret" {
        "stringData"
    } else {
        "data"
    };
    node.set(field, Node::new(T::Map(data), at));
    Some(Resource {
        node: Arc::new(node),
        file: k,
        first_name: name.to_string(),
    })
}

/// Which resources a patch entry's `target` selects (kind, name,
/// namespace, group, version, labelSelector).
fn selects(target: &Node, r: &Resource) -> bool {
    let want = |k: &str| target.get(k).and_then(Node::str);
    let n = &r.node;
    let (group, version) = match n.get("apiVersion").and_then(Node::str) {
        Some(a) => a.rsplit_once('/').unwrap_or(("", a)),
        None => ("", ""),
    };
    let name_ok = |w: &str| {
        [name_of(n), r.first_name.as_str()]
            .iter()
            .any(|have| *have == w || name_matches(w, have))
    };
    let labels_ok = |sel: &str| {
        sel.split(',').all(|term| match term.split_once('=') {
            Some((k, v)) => {
                n.path(&["metadata", "labels", k.trim()])
                    .and_then(Node::str)
                    == Some(v.trim_start_matches('=').trim())
            }
            None => true,
        })
    };
    want("kind").is_none_or(|k| n.get("kind").and_then(Node::str) == Some(k))
        && want("name").is_none_or(name_ok)
        && want("namespace")
            .is_none_or(|ns| n.path(&["metadata", "namespace"]).and_then(Node::str) == Some(ns))
        && want("group").is_none_or(|g| g == group)
        && want("version").is_none_or(|v| v == version)
        && want("labelSelector").is_none_or(labels_ok)
}

/// A target's `name` as kustomize reads it, a regular expression matched
/// whole: alternatives (`a|b`), `.`, and `*`, `+`, `?` after a literal or
/// `.`; a pattern with other syntax (classes, groups) matches only
/// itself.
fn name_matches(pattern: &str, name: &str) -> bool {
    if pattern.len() > 256 || pattern.contains(['[', '(', '{', '^', '$']) {
        return false;
    }
    pattern.split('|').any(|alt| {
        let mut atoms: Vec<(Option<char>, char)> = Vec::new();
        let mut chars = alt.chars().peekable();
        while let Some(c) = chars.next() {
            let atom = match c {
                '\\' => chars.next().map(Some),
                '.' => Some(None),
                _ => Some(Some(c)),
            };
            let Some(atom) = atom else { return false };
            let rep = match chars.peek() {
                Some(&q @ ('*' | '+' | '?')) => {
                    chars.next();
                    q
                }
                _ => '1',
            };
            atoms.push((atom, rep));
        }
        let name: Vec<char> = name.chars().collect();
        matches_from(&atoms, &name, &mut 10_000)
    })
}

fn matches_from(atoms: &[(Option<char>, char)], s: &[char], budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let Some((&(atom, rep), rest)) = atoms.split_first() else {
        return s.is_empty();
    };
    let one = |c: &char| atom.is_none_or(|a| a == *c);
    let (min, max) = match rep {
        '*' => (0, s.len()),
        '+' => (1, s.len()),
        '?' => (0, 1),
        _ => (1, 1),
    };
    let run = s.iter().take(max).take_while(|c| one(c)).count();
    (min..=run)
        .rev()
        .any(|k| matches_from(rest, &s[k..], budget))
}

/// Whether a resource's type is one of Kubernetes' own (its group is
/// empty, one word as `apps`, or under `k8s.io`).
fn builtin(n: &Node) -> bool {
    let api = n.get("apiVersion").and_then(Node::str).unwrap_or("");
    match api.rsplit_once('/') {
        None => true,
        Some((g, _)) => !g.contains('.') || g.ends_with(".k8s.io"),
    }
}

/// A patch's text: inline (`patch: |`) or in a file (`path:`), and the
/// file that wrote it.
fn patch_source(
    dir: &Path,
    e: &Node,
    k: usize,
    l: &mut dyn Loader,
) -> Option<(usize, String, Span)> {
    if let Some(p) = e.get("path").and_then(Node::str) {
        let f = l.load(&normal(&dir.join(p)))?;
        return Some((f, l.text(f).to_string(), Span::new(0, 0)));
    }
    let inline = e.get("patch")?;
    let s = inline.str()?;
    let at = inline.at?.1;
    Some((k, s.to_string(), at))
}

fn patches(
    dir: &Path,
    k: &Node,
    file: usize,
    res: &mut [Resource],
    l: &mut dyn Loader,
    b: &mut Build,
) {
    let writer = |b: &mut Build, f: usize, entry: Span| {
        let w = Writer {
            file: f,
            kustomization: file,
            entry,
        };
        if !b.writers.contains(&w) {
            b.writers.push(w);
        }
    };
    // `patchesStrategicMerge`: file paths or inline documents.
    for e in items(k, "patchesStrategicMerge") {
        let Some(s) = e.str() else { continue };
        let entry = e.at.map(|a| a.1).unwrap_or_default();
        let (f, text, inner) = if s.contains('\n') || s.contains(": ") {
            (file, s.to_string(), entry)
        } else {
            let Some(f) = l.load(&normal(&dir.join(s))) else {
                continue;
            };
            (f, l.text(f).to_string(), Span::new(0, 0))
        };
        writer(b, f, entry);
        apply(&text, f, inner, l, None, res);
    }
    // `patches`: strategic merge or JSON 6902, by the patch's shape.
    for e in items(k, "patches") {
        let entry = e.at.map(|a| a.1).unwrap_or_default();
        let Some((f, text, inner)) = patch_source(dir, e, file, l) else {
            continue;
        };
        writer(b, f, entry);
        apply(&text, f, inner, l, e.get("target"), res);
    }
    for e in items(k, "patchesJson6902") {
        let entry = e.at.map(|a| a.1).unwrap_or_default();
        let Some((f, text, inner)) = patch_source(dir, e, file, l) else {
            continue;
        };
        let Some(target) = e.get("target") else {
            continue;
        };
        writer(b, f, entry);
        apply(&text, f, inner, l, Some(target), res);
    }
}

/// Apply one patch text (written in file `f`; `inner`: its span there
/// when inline in a kustomization, whose text is then re-read with its
/// spans moved into the file).
fn apply(
    text: &str,
    f: usize,
    inner: Span,
    l: &dyn Loader,
    target: Option<&Node>,
    res: &mut [Resource],
) {
    let parsed = yaml::parse(text);
    let whole = l.text(f);
    for d in &parsed.documents {
        let mut p = Node::from_yaml(parsed.root(d), f);
        if inner.end > inner.start {
            shift(&mut p, whole, inner, text);
        }
        match &p.t {
            T::List(ops) => {
                let Some(target) = target else { continue };
                for r in res.iter_mut().filter(|r| selects(target, r)) {
                    for op in ops {
                        let s = |k: &str| op.get(k).and_then(Node::str);
                        let (Some(o), Some(path)) = (s("op"), s("path")) else {
                            continue;
                        };
                        let node = Arc::make_mut(&mut r.node);
                        tree::json6902(node, o, path, s("from"), op.get("value"));
                    }
                }
            }
            T::Map(_) => {
                for r in res.iter_mut() {
                    let hit = match target {
                        Some(t) => selects(t, r),
                        None => {
                            p.get("kind").and_then(Node::str)
                                == r.node.get("kind").and_then(Node::str)
                                && [name_of(&r.node), r.first_name.as_str()].contains(&name_of(&p))
                        }
                    };
                    if hit {
                        let b = builtin(&r.node);
                        // A targeted patch does not rename its target.
                        let mut patch = p.clone();
                        if target.is_some()
                            && let Some(m) = patch.get_mut("metadata")
                            && let T::Map(m) = &mut m.t
                        {
                            m.retain(|(k, _)| k.name != "name" && k.name != "namespace");
                        }
                        tree::strategic_merge(Arc::make_mut(&mut r.node), &patch, b, 0);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Move the spans of a tree read from an inline block scalar's value
/// into the kustomization's text.
fn shift(n: &mut Node, file: &str, value: Span, inner: &str) {
    let mv = |at: &mut tree::Origin| {
        if let Some((f, s)) = at {
            *at = Some((*f, crate::extract::embedded_span(file, value, inner, *s)));
        }
    };
    mv(&mut n.at);
    match &mut n.t {
        T::Map(m) => {
            for (k, v) in m {
                mv(&mut k.at);
                shift(v, file, value, inner);
            }
        }
        T::List(l) => {
            for v in l {
                shift(v, file, value, inner);
            }
        }
        _ => {}
    }
}

/// `namePrefix`, `nameSuffix` and `namespace` on every resource (a
/// Namespace keeps its name).
fn rename(k: &Node, res: &mut [Resource]) {
    let prefix = k.get("namePrefix").and_then(Node::str).unwrap_or("");
    let suffix = k.get("nameSuffix").and_then(Node::str).unwrap_or("");
    let ns = k.get("namespace");
    let renames = !prefix.is_empty() || !suffix.is_empty() || ns.is_some_and(|n| n.str().is_some());
    for r in res.iter_mut() {
        let kind = r.node.get("kind").and_then(Node::str).unwrap_or("");
        if kind == "Namespace" || kind.starts_with("Cluster") || kind == "CustomResourceDefinition"
        {
            continue;
        }
        // Nothing to write (a shared tree is not copied).
        if !renames && r.node.get("metadata").is_some() {
            continue;
        }
        let node = Arc::make_mut(&mut r.node);
        let at = k.get("namePrefix").and_then(|n| n.at);
        if node.get("metadata").is_none() {
            node.set("metadata", Node::new(T::Map(Vec::new()), at));
        }
        let Some(meta) = node.get_mut("metadata") else {
            continue;
        };
        if !prefix.is_empty() || !suffix.is_empty() {
            let old = meta.get("name").cloned();
            let name = old.as_ref().and_then(Node::str).unwrap_or("");
            let at = old.as_ref().and_then(|o| o.at).or(at);
            meta.set("name", Node::scalar(&format!("{prefix}{name}{suffix}"), at));
        }
        if let Some(ns) = ns
            && ns.str().is_some()
        {
            meta.set("namespace", ns.clone());
        }
    }
}

/// `images`: a container image named `name` gets `newName`, `newTag` or
/// `digest`.
fn images(k: &Node, res: &mut [Resource]) {
    let rules = items(k, "images");
    if rules.is_empty() {
        return;
    }
    for r in res.iter_mut() {
        // A shared tree is copied only when an image of it is renamed.
        if retagged(&r.node, rules, 0) {
            retag(Arc::make_mut(&mut r.node), rules, 0);
        }
    }
}

/// Whether [`retag`] changes some `image` of `n`.
fn retagged(n: &Node, rules: &[Node], depth: usize) -> bool {
    if depth > 32 {
        return false;
    }
    match &n.t {
        T::Map(m) => m.iter().any(|(k, v)| match v.str() {
            Some(img) if k.name == "image" => {
                let (repo, _) = split_image(img);
                rules
                    .iter()
                    .any(|r| r.get("name").and_then(Node::str) == Some(repo))
            }
            _ => retagged(v, rules, depth + 1),
        }),
        T::List(l) => l.iter().any(|v| retagged(v, rules, depth + 1)),
        _ => false,
    }
}

fn retag(n: &mut Node, rules: &[Node], depth: usize) {
    if depth > 32 {
        return;
    }
    match &mut n.t {
        T::Map(m) => {
            for (k, v) in m.iter_mut() {
                if k.name == "image"
                    && let Some(img) = v.str()
                {
                    let (repo, _) = split_image(img);
                    let rule = rules
                        .iter()
                        .find(|r| r.get("name").and_then(Node::str) == Some(repo));
                    if let Some(rule) = rule {
                        let s = |key: &str| rule.get(key).and_then(Node::str);
                        let (_, tag) = split_image(img);
                        let name = s("newName").unwrap_or(repo);
                        let out = match (s("digest"), s("newTag")) {
                            (Some(d), _) => format!("{name}@{d}"),
                            (None, Some(t)) => format!("{name}:{t}"),
                            (None, None) => format!("{name}{tag}"),
                        };
                        *v = Node::scalar(&out, rule.at);
                    }
                } else {
                    retag(v, rules, depth + 1);
                }
            }
        }
        T::List(l) => {
            for v in l {
                retag(v, rules, depth + 1);
            }
        }
        _ => {}
    }
}

/// An image reference's repository and its `:tag`/`@digest` (with the
/// separator), a registry's port not taken for a tag.
fn split_image(s: &str) -> (&str, &str) {
    if let Some(i) = s.find('@') {
        return (&s[..i], &s[i..]);
    }
    match s.rfind(':') {
        Some(i) if !s[i..].contains('/') => (&s[..i], &s[i..]),
        _ => (s, ""),
    }
}

#[cfg(test)]
mod tests;
