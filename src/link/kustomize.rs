//! Kustomize overlays (issue 22, item 2): each kustomization no other one
//! includes is built as kustomize builds it (`extract::kustomize`), its
//! resources written out as one YAML stream and read again; a retry
//! policy or timeout a patch of the overlay changed is a variant, named
//! for the overlay, and belongs to the patch that wrote it: its spans
//! point into the patch file (or, for a patch written inline or in a file
//! the scan did not keep, at the kustomization's entry for it), and the
//! settings it kept from the base name their lines
//! ([`RetryPolicy::settings_from`](crate::model::RetryPolicy)).
//!
//! A patch file read alone is a fragment (a VirtualService with only the
//! patched route): its own reading is replaced by what the patch makes of
//! the resources it patches. Files a kustomization names that the scan
//! did not keep (a base Deployment without retry words, a JSON 6902 op
//! list) are read from disk, bounded in size and number.

use crate::extract::kustomize::{self, Loader, normal, tree::Written};
use crate::model::calls::IdentityKind;
use crate::model::{Facts, ScannedFile, ServiceDecl, SettingPlace};
use crate::source::Span;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest file read from disk for a build.
const MAX_FILE: u64 = 1 << 20;
/// At most this many files read from disk per scan.
const MAX_READ: usize = 512;

struct Files<'a> {
    files: &'a [ScannedFile],
    disk: super::Disk<'a>,
    by_path: HashMap<PathBuf, usize>,
    extra: Vec<(PathBuf, String)>,
    missing: std::collections::HashSet<PathBuf>,
    /// Each loaded file's text with the documents no reader reads blanked
    /// (`None`: it has none), made once per scan, not once per overlay.
    blanked: HashMap<usize, Option<crate::systems::BlankedText>>,
    /// Each resource file's documents, parsed once per scan.
    parsed: HashMap<usize, Vec<kustomize::Resource>>,
    /// Each kustomization another one includes, built once per scan.
    built: HashMap<usize, kustomize::Built>,
    /// Each file read from disk (or not found there), with the hash of
    /// its text, for the kept result (`memo`).
    reads: Vec<(PathBuf, Option<u64>)>,
    /// The scanned files the build loaded (the kept result's inputs
    /// besides the kustomizations: `memo`).
    loaded: std::collections::BTreeSet<usize>,
}

impl Files<'_> {
    fn blank(&mut self, i: usize) {
        if !self.blanked.contains_key(&i) {
            let b = crate::systems::blank_unread_docs(self.text(i));
            self.blanked.insert(i, b);
        }
    }
}

impl Loader for Files<'_> {
    fn load(&mut self, path: &Path) -> Option<usize> {
        let path = normal(path);
        if let Some(&i) = self.by_path.get(&path) {
            if i < self.files.len() {
                self.loaded.insert(i);
            }
            return Some(i);
        }
        if self.missing.contains(&path) || self.extra.len() >= MAX_READ {
            return None;
        }
        let read = self.disk.read(&path, MAX_FILE);
        self.reads.push((
            path.clone(),
            read.as_ref()
                .map(|t| xxhash_rust::xxh3::xxh3_64(t.as_bytes())),
        ));
        let Some(text) = read else {
            self.missing.insert(path);
            return None;
        };
        let i = self.files.len() + self.extra.len();
        self.extra.push((path.clone(), text));
        self.by_path.insert(path, i);
        Some(i)
    }

    fn documents(&mut self, file: usize) -> Vec<kustomize::Resource> {
        if let Some(r) = self.parsed.get(&file) {
            return r.clone();
        }
        // Blanked here, not when loaded: a kustomization, a patch or a
        // generator's file is never read as resources.
        self.blank(file);
        let r = kustomize::documents(file, self);
        self.parsed.insert(file, r.clone());
        r
    }

    fn built(&self, file: usize) -> Option<&kustomize::Built> {
        self.built.get(&file)
    }

    fn keep(&mut self, file: usize, built: kustomize::Built) {
        self.built.insert(file, built);
    }

    fn resource_text(&self, file: usize) -> &str {
        match self.blanked.get(&file) {
            Some(Some(b)) => &b.text,
            _ => self.text(file),
        }
    }

    fn resource_parse(&self, file: usize) -> Arc<crate::yaml::YamlFile> {
        match self.blanked.get(&file) {
            Some(Some(b)) => Arc::new(b.parse()),
            // Nothing blanked: the whole text, as the scan parsed a
            // templated one (its `KeptParse`).
            _ => match self.files.get(file).and_then(|f| f.facts.parse.0.clone()) {
                Some(kept) => kept,
                None => Arc::new(crate::yaml::parse(self.text(file))),
            },
        }
    }

    fn text(&self, file: usize) -> &str {
        match self.files.get(file) {
            Some(f) => &f.source.text,
            None => self
                .extra
                .get(file - self.files.len())
                .map_or("", |(_, t)| t),
        }
    }
}

impl Files<'_> {
    /// A file's path as messages show it, and the line of an offset.
    fn place(&self, file: usize, at: Span, cwd: Option<&Path>) -> SettingPlace {
        match self.files.get(file) {
            Some(f) => SettingPlace {
                path: f.source.display_path(),
                line: f.source.line_col(at.start).line,
            },
            None => {
                let (p, t) = &self.extra[file - self.files.len()];
                let shown = cwd.and_then(|c| p.strip_prefix(c).ok()).unwrap_or(p);
                SettingPlace {
                    path: crate::source::display_path(shown),
                    line: crate::source::LineIndex::new(t).line_col(t, at.start).line,
                }
            }
        }
    }
}

/// Build the overlays, or take what a previous run with the same inputs
/// kept of their result (`memo`), when the run has a cache.
pub fn kustomize_overlays(files: &mut [ScannedFile], cwd: Option<&Path>, disk: super::Disk<'_>) {
    if !files
        .iter()
        .any(|f| f.facts.extractors.contains(&kustomize::CLAIM))
    {
        return;
    }
    let Some((dir, salt)) = disk.memo() else {
        overlays(files, cwd, disk, None);
        return;
    };
    if let Some(changed) = memo::load(dir, *salt, files, cwd, disk) {
        memo::apply(files, changed);
        return;
    }
    let mut inputs = None;
    let reads = overlays(files, cwd, disk, Some((*salt, &mut inputs)));
    // A step the clock cut short is not kept.
    if !crate::guard::expired()
        && let Some(inputs) = inputs
    {
        memo::save(dir, inputs, files, reads);
    }
}

/// Build the overlays; the files read from disk for them, with the hash
/// of each one's text. With `memo` (the cache's salt and a place for
/// them), the build's inputs as `memo` keeps them, taken before the
/// build changes any file's facts.
fn overlays(
    files: &mut [ScannedFile],
    cwd: Option<&Path>,
    disk: super::Disk<'_>,
    memo: Option<(u64, &mut Option<memo::Inputs>)>,
) -> Vec<(PathBuf, Option<u64>)> {
    let full = |f: &ScannedFile| -> PathBuf {
        normal(&match cwd {
            Some(c) if f.source.path.is_relative() => c.join(&f.source.path),
            _ => f.source.path.clone(),
        })
    };
    let kfiles: Vec<usize> = (0..files.len())
        .filter(|&i| files[i].facts.extractors.contains(&kustomize::CLAIM))
        .collect();
    if kfiles.is_empty() {
        return Vec::new();
    }
    // The overlays: kustomizations no other one names. A `Component` is
    // no overlay: it is built only inside the kustomization that names
    // it (one no kustomization names is not deployed as it is).
    let mut named = std::collections::HashSet::new();
    for &k in &kfiles {
        let p = full(&files[k]);
        let dir = p.parent().unwrap_or(Path::new("."));
        named.extend(kustomize::references(dir, &files[k].source.text));
    }
    let roots: Vec<usize> = kfiles
        .iter()
        .copied()
        .filter(|&k| {
            let p = full(&files[k]);
            !p.parent().is_some_and(|d| named.contains(d))
                && !named.contains(&p)
                && !kustomize::is_component(&files[k].source.text)
        })
        .collect();
    let mut added: Vec<(usize, Facts)> = Vec::new();
    let mut replaced: std::collections::HashSet<usize> = std::collections::HashSet::new();
    let mut decls: Decls = HashMap::new();
    // The scanned files whose resources an overlay that moves them
    // deploys (each is read through the overlays, not alone).
    let mut deployed: std::collections::HashSet<usize> = Default::default();
    let reads;
    let mut read: Vec<usize>;
    {
        let mut l = Files {
            files,
            disk,
            by_path: (0..files.len()).map(|i| (full(&files[i]), i)).collect(),
            extra: Vec::new(),
            missing: Default::default(),
            blanked: HashMap::new(),
            parsed: HashMap::new(),
            built: HashMap::new(),
            reads: Vec::new(),
            loaded: Default::default(),
        };
        for &root in &roots {
            let p = full(&files[root]);
            let dir = p.parent().unwrap_or(Path::new(".")).to_path_buf();
            // Nothing to write into and no identity moved: the build's
            // output would be dropped below, unread.
            if quiet::quiet(&dir, root, &mut l) {
                continue;
            }
            let b = kustomize::build(&dir, root, &mut l);
            let moves = b
                .kustomizations
                .iter()
                .any(|&k| kustomize::moves_identities(l.text(k)));
            if b.writers.is_empty() && !moves {
                continue;
            }
            let mut w = Written::default();
            let texts = |i: usize| Some(l.text(i));
            let mut ok = true;
            // Where each resource's document starts in the output.
            let mut starts = Vec::with_capacity(b.resources.len());
            for r in &b.resources {
                starts.push(w.text.len());
                if w.document(&r.node, &texts).is_none() {
                    ok = false;
                    break;
                }
            }
            if !ok {
                continue;
            }
            let mut facts = crate::systems::extract_overlay(&files[root].source.path, &w.text);
            if moves {
                let docs = Rendered {
                    starts: &starts,
                    resources: &b.resources,
                    files,
                };
                identities(&w, &docs, std::mem::take(&mut facts.services), &mut decls);
                deployed.extend(
                    b.resources
                        .iter()
                        .map(|r| r.file)
                        .filter(|&f| f < files.len()),
                );
            }
            if b.writers.is_empty() {
                continue;
            }
            let overlay = files[root]
                .source
                .path
                .parent()
                .map(crate::source::display_path)
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| ".".into());
            for wr in &b.writers {
                if wr.file < files.len() && wr.file != wr.kustomization && w.writes(wr.file) {
                    replaced.insert(wr.file);
                }
            }
            variants(&l, &b, &w, facts, &overlay, cwd, &mut added);
        }
        reads = std::mem::take(&mut l.reads);
        // What the build read of the scanned files: every kustomization
        // and every file it loaded. Nothing else is read, or changed
        // below (`memo::save` checks the second in debug builds).
        read = kfiles.clone();
        read.extend(std::mem::take(&mut l.loaded));
        if let Some((salt, inputs)) = memo {
            *inputs = memo::Inputs::take(files, cwd, salt, read.clone());
        }
    }
    // Every file changed below is one the build read.
    debug_assert!(
        decls
            .keys()
            .map(|(f, _)| f)
            .chain(&deployed)
            .chain(&replaced)
            .chain(added.iter().map(|(t, _)| t))
            .all(|f| read.contains(f)),
        "the Kustomize step changes a file it did not read"
    );
    deploy(files, decls, &deployed);
    for &f in &replaced {
        let facts = &mut files[f].facts;
        facts.policies.clear();
        facts.timeouts.clear();
        facts.protections.clear();
    }
    for (t, mut facts) in added {
        let have = &mut files[t].facts;
        for p in facts.policies.drain(..) {
            let same = |q: &crate::model::RetryPolicy| {
                let (mut a, mut b) = (q.clone(), p.clone());
                a.name = None;
                b.name = None;
                a.settings_from.clear();
                b.settings_from.clear();
                a == b
            };
            if !have.policies.iter().any(same) {
                have.policies.push(p);
            }
        }
        for x in facts.timeouts.drain(..) {
            if !have
                .timeouts
                .iter()
                .any(|y| y.timeout == x.timeout && y.what == x.what)
            {
                have.timeouts.push(x);
            }
        }
    }
    reads
}

/// The workloads and Services the overlays render from each scanned
/// file, by the place of the declaration they render (its name's span).
type Decls = HashMap<(usize, Span), Vec<ServiceDecl>>;

/// An overlay's workloads and Services (its namespace, name prefix and
/// suffix and labels applied), each kept for the declaration
/// of the scanned file it is rendered from.
fn identities(w: &Written, docs: &Rendered<'_>, services: Vec<ServiceDecl>, out: &mut Decls) {
    let n = docs.files.len();
    for mut s in services {
        if !matches!(s.kind, IdentityKind::Workload | IdentityKind::KubeService) {
            continue;
        }
        let written = w.origins(s.span).into_iter().find(|&(f, _)| f < n);
        // The declaration it renders is the resource's own, also where a
        // patch wrote its name (the name's text is then the patch's).
        let Some((f, at)) = docs.declaration(s.span.start, s.kind).or(written) else {
            continue;
        };
        s.span = at;
        // A span inside it maps to the same file where it was written
        // there, else (a label the overlay added) to the declaration.
        let map = |x: Span| match w.origin(x) {
            Some((g, y)) if g == f => y,
            _ => at,
        };
        for h in &mut s.placement.mesh {
            h.span = map(h.span);
        }
        for (_, x) in [&mut s.placement.gateway_class, &mut s.placement.waypoint]
            .into_iter()
            .flatten()
        {
            *x = map(*x);
        }
        if let Some(t) = &mut s.request_timeout {
            t.span = map(t.span);
        }
        // One object per kind, name and namespace (overlays that differ
        // only in what the graph does not read deploy the same one).
        let have = out.entry((f, at)).or_default();
        if !have.iter().any(|x| {
            (x.kind, &x.name, &x.placement.namespace) == (s.kind, &s.name, &s.placement.namespace)
        }) {
            have.push(s);
        }
    }
}

/// One overlay's output: where each resource's document starts, the
/// resources in output order, and the scanned files they come from.
struct Rendered<'a> {
    starts: &'a [usize],
    resources: &'a [kustomize::Resource],
    files: &'a [ScannedFile],
}

impl Rendered<'_> {
    /// The declaration (file, name span) of the scanned resource whose
    /// document holds output offset `at`: the workload or Service of that
    /// kind its file declares under the name it had before the build.
    fn declaration(&self, at: usize, kind: IdentityKind) -> Option<(usize, Span)> {
        let i = self.starts.partition_point(|&s| s <= at).checked_sub(1)?;
        let r = self.resources.get(i)?;
        let decl = self
            .files
            .get(r.file)?
            .facts
            .services
            .iter()
            .find(|d| d.kind == kind && d.name == r.first_name)?;
        Some((r.file, decl.span))
    }
}

/// A scanned file's workloads and Services that overlays deploy are
/// what the overlays make of them (two overlays deploying one base to two
/// namespaces: two declarations); a call its workload makes is the call
/// of each name the overlays give it (a name prefix). A workload or
/// Service of a file overlays deploy that no overlay renders from it (a
/// patch renamed it, or wrote its name) is not deployed on its own.
fn deploy(files: &mut [ScannedFile], decls: Decls, deployed: &std::collections::HashSet<usize>) {
    let mut by_file: HashMap<usize, Vec<(Span, Vec<ServiceDecl>)>> = HashMap::new();
    for ((f, at), d) in decls {
        by_file.entry(f).or_default().push((at, d));
    }
    for &f in deployed {
        by_file.entry(f).or_default();
    }
    for (f, mut found) in by_file {
        found.sort_by_key(|(at, _)| at.start);
        let facts = &mut files[f].facts;
        let mut renamed: Vec<(String, Vec<String>)> = Vec::new();
        let mut kept: Vec<ServiceDecl> = Vec::new();
        for s in facts.services.drain(..) {
            let rendered = found.iter().find(|(at, _)| {
                *at == s.span || (at.start <= s.span.start && s.span.end <= at.end)
            });
            match rendered {
                Some((_, r)) => {
                    let names: Vec<String> = r.iter().map(|x| x.name.clone()).collect();
                    if s.kind == IdentityKind::Workload && names.iter().any(|x| *x != s.name) {
                        renamed.push((s.name.clone(), names));
                    }
                    for x in r {
                        if !kept.contains(x) {
                            kept.push(x.clone());
                        }
                    }
                }
                None if deployed.contains(&f)
                    && matches!(s.kind, IdentityKind::Workload | IdentityKind::KubeService) => {}
                None => kept.push(s),
            }
        }
        facts.services = kept;
        if renamed.is_empty() {
            continue;
        }
        let mut edges = Vec::new();
        for e in facts.edges.drain(..) {
            match renamed
                .iter()
                .find(|(old, _)| e.caller.as_ref() == Some(old))
            {
                Some((_, names)) => {
                    let mut uniq: Vec<&String> = names.iter().collect();
                    uniq.dedup();
                    for name in uniq {
                        let mut c = e.clone();
                        c.caller = Some(name.clone());
                        if !edges.contains(&c) {
                            edges.push(c);
                        }
                    }
                }
                None => edges.push(e),
            }
        }
        facts.edges = edges;
    }
}

/// The policies and timeouts of one overlay's reading that a patch wrote,
/// each moved into the file that holds the patch.
fn variants(
    l: &Files<'_>,
    b: &kustomize::Build,
    w: &Written,
    facts: Facts,
    overlay: &str,
    cwd: Option<&Path>,
    out: &mut Vec<(usize, Facts)>,
) {
    let n = l.files.len();
    let writer_of = |f: usize| b.writers.iter().find(|x| x.file == f);
    // Each item: its spans (the first is where it is), the facts holding
    // only it.
    let mut items: Vec<(Vec<Span>, Facts)> = Vec::new();
    for p in facts.policies {
        let spans = [
            Some(p.attempts.span),
            Some(p.delay.span),
            Some(p.jitter.span),
            Some(p.retry_on.span),
            p.per_try_timeout.as_ref().map(|t| t.span),
            p.overall_timeout.as_ref().map(|t| t.span),
            Some(p.span),
        ];
        let one = Facts {
            policies: vec![p],
            ..Facts::default()
        };
        items.push((spans.into_iter().flatten().collect(), one));
    }
    for t in facts.timeouts {
        let s = t.timeout.span;
        let one = Facts {
            timeouts: vec![t],
            ..Facts::default()
        };
        items.push((vec![s], one));
    }
    for (spans, mut one) in items {
        let origins: Vec<(usize, Span)> = spans.iter().flat_map(|&s| w.origins(s)).collect();
        // The patch that wrote a setting of it, if any.
        let Some(wr) = origins.iter().find_map(|&(f, _)| writer_of(f)) else {
            continue;
        };
        let (target, fallback) = if wr.file < n {
            let first = origins
                .iter()
                .filter(|(f, _)| *f == wr.file)
                .map(|(_, s)| *s)
                .min_by_key(|s| s.start)
                .unwrap_or(wr.entry);
            (wr.file, first)
        } else if wr.kustomization < n {
            (wr.kustomization, wr.entry)
        } else {
            continue;
        };
        // A span written in the target maps there (one to one inside
        // a copied scalar); one partly written there, to that part.
        let map = |s: Span| match w.origin(s) {
            Some((f, at)) if f == target => at,
            _ => w
                .origins(s)
                .into_iter()
                .find(|(f, _)| *f == target)
                .map_or(fallback, |(_, at)| at),
        };
        crate::extract::remap_facts(&mut one, &map);
        let mut from: Vec<SettingPlace> = Vec::new();
        for &(f, at) in &origins {
            if f != target {
                let place = l.place(f, at, cwd);
                if !from.contains(&place) {
                    from.push(place);
                }
            }
        }
        let named = |n: &Option<String>| {
            Some(match n {
                Some(n) => format!("{n}` with overlay `{overlay}"),
                None => format!("overlay `{overlay}"),
            })
        };
        for p in &mut one.policies {
            p.name = named(&p.name);
            for place in &from {
                if !p.settings_from.contains(place) {
                    p.settings_from.push(place.clone());
                }
            }
        }
        for t in &mut one.timeouts {
            t.name = named(&t.name);
        }
        match out.iter_mut().find(|(f, _)| *f == target) {
            Some((_, facts)) => {
                facts.policies.append(&mut one.policies);
                facts.timeouts.append(&mut one.timeouts);
            }
            None => out.push((target, one)),
        }
    }
}

mod memo;
mod quiet;

#[cfg(test)]
mod tests;
