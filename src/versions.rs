//! The link half: which version of a library a file's build unit uses,
//! from the build files scanned with it, and the reading of that version
//! applied to the file's [`Versioned`] facts.
//!
//! A file's build unit is found from its folder upwards: the nearest
//! `pom.xml` decides for Maven (with its parent chain and the BOMs it
//! imports, when they are scanned too: found by coordinates, or the
//! parent by `<relativePath>`, default `../pom.xml`); Gradle scripts and
//! version catalogs (which serve the build rooted above their `gradle`
//! folder) are searched upwards until one tells the version, with
//! `$variables` resolved from the script and those above it; `Cargo.lock`
//! and `*.csproj` tell exact versions. Nothing outside the scanned files
//! is read: a parent or BOM from a repository leaves the version unknown.

use crate::model::ScannedFile;
pub use crate::model::versions::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// How deep parent chains, BOM imports and property references are
/// followed (a cycle or a chain this long tells nothing more).
const MAX_DEPTH: usize = 16;

/// How many poms one lookup may visit: poms that import each other in
/// a web would otherwise be walked once per path (exponential in the
/// depth); past this the version is unknown.
const MAX_VISITS: usize = 2_000;

/// The version found for each [`Versioned`] of a file, in order.
type Found = Vec<Option<Resolved>>;

/// Apply the version readings of every file with [`Versioned`] facts.
pub fn apply(files: &mut [ScannedFile]) {
    if files.iter().all(|f| f.facts.versioned.is_empty()) {
        return;
    }
    // (file, the version of each of its `versioned` libraries)
    let mut todo: Vec<(usize, Found)> = Vec::new();
    {
        let index = Index::new(files);
        for (id, f) in files.iter().enumerate() {
            if f.facts.versioned.is_empty() {
                continue;
            }
            let found = f
                .facts
                .versioned
                .iter()
                .map(|v| index.lookup(&f.source.path, v.library))
                .collect();
            todo.push((id, found));
        }
    }
    for (id, found) in todo {
        let facts = &mut files[id].facts;
        let versioned = std::mem::take(&mut facts.versioned);
        for (v, resolved) in versioned.iter().zip(found) {
            if let Some(r) = resolved {
                apply_one(facts, v, &r);
            }
        }
        facts.versioned = versioned;
    }
}

/// A file read without knowing which side of `since` its build's version
/// of `library` is on: its facts keep the reading for an unknown version
/// (what the audit's summary lists as a version guess).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Guess {
    pub file: usize,
    pub library: Library,
    pub since: Version,
    /// The build file that names the library without a version that
    /// decides, where one does (a `${property}` or a range).
    pub from: Option<String>,
}

/// Every version-dependent reading [`apply`] could not decide, by file
/// (index into `files`), in file order.
pub fn guesses(files: &[ScannedFile]) -> Vec<Guess> {
    if files.iter().all(|f| f.facts.versioned.is_empty()) {
        return Vec::new();
    }
    let index = Index::new(files);
    let mut out = Vec::new();
    for (id, f) in files.iter().enumerate() {
        for v in &f.facts.versioned {
            let found = index.lookup(&f.source.path, v.library);
            let decided = found
                .as_ref()
                .and_then(|r| r.range.is_at_least(v.since))
                .is_some();
            if !decided {
                out.push(Guess {
                    file: id,
                    library: v.library,
                    since: v.since,
                    from: found.map(|r| r.from),
                });
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

fn apply_one(facts: &mut crate::model::Facts, v: &Versioned, r: &Resolved) {
    let Some(newer) = r.range.is_at_least(v.since) else {
        return;
    };
    let changes = if newer { &v.newer } else { &v.older };
    let told = r.describe(v.library);
    for c in changes {
        match c {
            Change::Attempts {
                policy,
                span,
                attempts,
            } => {
                if let Some(p) = facts.policies.get_mut(*policy)
                    && p.span == *span
                {
                    p.attempts = attempts.clone();
                }
            }
            Change::Delay {
                policy,
                span,
                delay,
            } => {
                if let Some(p) = facts.policies.get_mut(*policy)
                    && p.span == *span
                {
                    p.delay = delay.clone();
                }
            }
            Change::Drop { code, span } => facts
                .diagnostics
                .retain(|d| !(d.code.as_str() == code.as_str() && d.span == *span)),
            Change::Add { diagnostic } => {
                let mut d = diagnostic.clone();
                d.message = d.message.replace("{version}", &told);
                d.help = d.help.replace("{version}", &told);
                facts.diagnostics.push(d);
            }
        }
    }
}

/// One scanned build file.
struct Build<'a> {
    path: PathBuf,
    facts: &'a BuildFacts,
}

impl Build<'_> {
    /// The folder of the build unit the file serves: a version catalog in
    /// `<root>/gradle/` serves `<root>`.
    fn unit_dir(&self) -> PathBuf {
        let dir = self.path.parent().unwrap_or(Path::new("")).to_path_buf();
        if self.facts.kind == BuildKind::GradleCatalog
            && dir.file_name().is_some_and(|n| n == "gradle")
        {
            return dir.parent().unwrap_or(Path::new("")).to_path_buf();
        }
        dir
    }

    fn shown(&self, line: u32) -> String {
        format!("{}:{line}", crate::source::display_path(&self.path))
    }
}

/// The build files of a scan, to ask which version of a library a file
/// builds with ([`Index::version`]).
pub struct Index<'a> {
    builds: Vec<Build<'a>>,
    /// Unit folder -> builds serving it.
    by_dir: HashMap<PathBuf, Vec<usize>>,
    /// Maven `groupId:artifactId` -> pom (only when one pom has them).
    by_coords: HashMap<(String, String), Option<usize>>,
    /// pom path (normalised) -> pom.
    by_path: HashMap<PathBuf, usize>,
    /// Poms visited by the current lookup ([`MAX_VISITS`]).
    visits: std::cell::Cell<usize>,
}

use crate::source::fold_dots as normal;

impl<'a> Index<'a> {
    pub fn new(files: &'a [ScannedFile]) -> Index<'a> {
        let mut ix = Index {
            builds: Vec::new(),
            by_dir: HashMap::new(),
            by_coords: HashMap::new(),
            by_path: HashMap::new(),
            visits: std::cell::Cell::new(0),
        };
        for f in files {
            let Some(b) = &f.facts.build else { continue };
            let i = ix.builds.len();
            let build = Build {
                path: normal(&f.source.path),
                facts: b,
            };
            ix.by_dir.entry(build.unit_dir()).or_default().push(i);
            if let Some(m) = &b.maven {
                ix.by_path.insert(build.path.clone(), i);
                ix.by_coords
                    .entry((m.coords.group.clone(), m.coords.artifact.clone()))
                    .and_modify(|e| *e = None)
                    .or_insert(Some(i));
            }
            ix.builds.push(build);
        }
        // Maven first in a folder (it decides alone), then the rest in
        // scan order.
        for list in ix.by_dir.values_mut() {
            list.sort_by_key(|&i| ix.builds[i].facts.kind != BuildKind::Maven);
        }
        ix
    }

    /// The version of `library` the build unit of the file at `path`
    /// (its shown path) uses, and the build file that tells it; `None`
    /// when no scanned build file names the library. The range may be
    /// unknown (a version from a BOM outside the tree).
    pub fn version(&self, path: &Path, library: Library) -> Option<Resolved> {
        self.lookup(path, library)
    }

    fn lookup(&self, path: &Path, library: Library) -> Option<Resolved> {
        self.visits.set(0);
        let path = normal(path);
        let mut unknown: Option<Resolved> = None;
        for dir in path.ancestors().skip(1) {
            let Some(list) = self.by_dir.get(dir) else {
                continue;
            };
            for &i in list {
                let b = &self.builds[i];
                let found = match b.facts.kind {
                    BuildKind::Maven => {
                        let props = self.properties(i, 0);
                        return self.maven(i, library, &props, 0).or(unknown);
                    }
                    BuildKind::Gradle => self.gradle(i, library),
                    _ => self.exact(i, library),
                };
                match found {
                    Some(r) if r.range.is_known() => return Some(r),
                    Some(r) => unknown = unknown.or(Some(r)),
                    None => {}
                }
            }
        }
        unknown
    }

    /// A version written as is (catalog, `Cargo.lock`, MSBuild).
    fn exact(&self, i: usize, library: Library) -> Option<Resolved> {
        let b = &self.builds[i];
        let mut out: Option<Resolved> = None;
        for d in b.facts.deps.iter().filter(|d| d.library == library) {
            let r = Resolved {
                range: VersionRange::parse(&d.version),
                from: b.shown(d.line),
            };
            out = merge(out, r, &d.artifact, library);
        }
        out
    }

    /// A Gradle script's version, `$variables` resolved from it and the
    /// scripts in the folders above it.
    fn gradle(&self, i: usize, library: Library) -> Option<Resolved> {
        let b = &self.builds[i];
        let mut vars: Vec<&(String, String)> = b.facts.variables.iter().collect();
        for dir in b.path.ancestors().skip(2) {
            for &j in self.by_dir.get(dir).into_iter().flatten() {
                if self.builds[j].facts.kind == BuildKind::Gradle {
                    vars.extend(self.builds[j].facts.variables.iter());
                }
            }
        }
        let lookup = |name: &str| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        let mut out: Option<Resolved> = None;
        for d in b.facts.deps.iter().filter(|d| d.library == library) {
            let version = substitute(&d.version, &lookup);
            let r = Resolved {
                range: VersionRange::parse(&version),
                from: b.shown(d.line),
            };
            out = merge(out, r, &d.artifact, library);
        }
        out
    }

    /// A pom's effective properties: its parent's (when scanned), then
    /// its own, with `project.version` and `project.parent.version`.
    fn properties(&self, i: usize, depth: usize) -> HashMap<String, String> {
        let Some(m) = self.builds[i].facts.maven.as_ref().filter(|_| self.visit()) else {
            return HashMap::new();
        };
        let mut props = match self.parent(i).filter(|_| depth < MAX_DEPTH) {
            Some(p) => self.properties(p, depth + 1),
            None => HashMap::new(),
        };
        for (k, v) in &m.properties {
            props.insert(k.clone(), v.clone());
        }
        for k in ["project.version", "pom.version", "version"] {
            props.insert(k.into(), m.coords.version.clone());
        }
        props.insert("project.groupId".into(), m.coords.group.clone());
        if let Some(p) = &m.parent {
            props.insert("project.parent.version".into(), p.version.clone());
        }
        props
    }

    /// Count one pom visited; false past [`MAX_VISITS`].
    fn visit(&self) -> bool {
        let n = self.visits.get() + 1;
        self.visits.set(n);
        n <= MAX_VISITS
    }

    /// The scanned parent of a pom: by its coordinates, or at its
    /// `<relativePath>` (default `../pom.xml`).
    fn parent(&self, i: usize) -> Option<usize> {
        let m = self.builds[i].facts.maven.as_ref()?;
        let p = m.parent.as_ref()?;
        if let Some(Some(j)) = self.by_coords.get(&(p.group.clone(), p.artifact.clone())) {
            return (*j != i).then_some(*j);
        }
        let rel = m.parent_path.as_deref().unwrap_or("../pom.xml");
        if rel.is_empty() {
            return None;
        }
        let dir = self.builds[i].path.parent()?;
        let mut target = normal(&dir.join(rel));
        if !target.to_string_lossy().ends_with(".xml") {
            target.push("pom.xml");
        }
        self.by_path.get(&target).copied().filter(|j| *j != i)
    }

    /// The version of `library` a pom uses: its own dependencies and
    /// managed dependencies, the BOMs it imports, then its parent's; all
    /// read with the properties of the pom the question is about.
    fn maven(
        &self,
        i: usize,
        library: Library,
        props: &HashMap<String, String>,
        depth: usize,
    ) -> Option<Resolved> {
        if depth > MAX_DEPTH || !self.visit() {
            return None;
        }
        let b = &self.builds[i];
        let m = b.facts.maven.as_ref()?;
        let lookup = |name: &str| props.get(name).cloned();
        let mut out: Option<Resolved> = None;
        for d in b.facts.deps.iter().filter(|d| d.library == library) {
            let r = Resolved {
                range: VersionRange::parse(&substitute(&d.version, &lookup)),
                from: b.shown(d.line),
            };
            out = merge(out, r, &d.artifact, library);
        }
        if out.as_ref().is_some_and(|r| r.range.is_known()) {
            return out;
        }
        for imp in &m.imports {
            let group = substitute(&imp.group, &lookup);
            let artifact = substitute(&imp.artifact, &lookup);
            let found = match self.by_coords.get(&(group.clone(), artifact.clone())) {
                Some(Some(j)) if *j != i => {
                    let bom_props = self.properties(*j, depth + 1);
                    self.maven(*j, library, &bom_props, depth + 1)
                }
                _ => (Library::of_maven(&group, &artifact) == Some(library)).then(|| Resolved {
                    range: VersionRange::parse(&substitute(&imp.version, &lookup)),
                    from: crate::source::display_path(&b.path),
                }),
            };
            if let Some(r) = found {
                out = Some(match out {
                    Some(o) => Resolved {
                        range: r.range.intersect(&o.range),
                        from: r.from,
                    },
                    None => r,
                });
                if out.as_ref().is_some_and(|r| r.range.is_known()) {
                    return out;
                }
            }
        }
        if let Some(p) = self.parent(i)
            && let Some(r) = self.maven(p, library, props, depth + 1)
        {
            return Some(match out {
                Some(o) => Resolved {
                    range: r.range.intersect(&o.range),
                    from: r.from,
                },
                None => r,
            });
        }
        out
    }
}

/// Add one dependency's version to what is known of `library`: the first
/// known version wins; what an artifact's name implies narrows it.
fn merge(out: Option<Resolved>, r: Resolved, artifact: &str, library: Library) -> Option<Resolved> {
    let implied = Library::implied_by_artifact(artifact)
        .filter(|(l, _)| *l == library)
        .map(|(_, range)| range)
        .unwrap_or_else(|| VersionRange::unknown(""));
    let r = Resolved {
        range: r.range.intersect(&implied),
        from: r.from,
    };
    Some(match out {
        None => r,
        Some(o) if o.range.is_known() => Resolved {
            range: o.range.intersect(&implied),
            from: o.from,
        },
        Some(o) if r.range.is_known() => Resolved {
            range: r.range.intersect(&o.range),
            from: r.from,
        },
        Some(o) => o,
    })
}

/// Replace `${name}` (Maven, Gradle) and `$name` (Gradle) references,
/// a few rounds deep; an unknown one stays as written.
fn substitute(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut s = text.trim().to_string();
    for _ in 0..MAX_DEPTH {
        if !s.contains('$') {
            break;
        }
        let next = replace_once(&s, lookup);
        if next == s {
            break;
        }
        s = next;
    }
    s
}

fn replace_once(s: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, len) = if let Some(inner) = after.strip_prefix('{') {
            match inner.find('}') {
                Some(end) => (&inner[..end], end + 2),
                None => ("", 0),
            }
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(after.len());
            (
                after[..end].trim_end_matches('.'),
                after[..end].trim_end_matches('.').len(),
            )
        };
        match (len, lookup(name.trim())) {
            (l, Some(v)) if l > 0 => {
                out.push_str(&v);
                rest = &after[l..];
            }
            _ => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
