//! A program another program references as a project (issue 19, left item
//! 2; duncan-G/ThePlot's gRPC server references its content-generation
//! worker to send through the worker's `ContentGenerationWorkPublisher`):
//! a file of the referenced program that declares a type a source file of
//! the referencing program names runs in that program too, its own unit
//! kept; the referenced program's other files (its start-up, its hosted
//! workers) run in itself only. A library's files are given to the
//! programs that reference it whole (`link::shared_projects`); a program
//! is not a library, so only what is used of it is.

pub(super) use super::source::{code_only, constant, declared_types, declares};
use crate::model::ScannedFile;
use crate::model::csharp_source::CsharpSource;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Source files read per referencing program, at most.
const MAX_SOURCES: usize = 5_000;
/// How deep a program's folder is walked for its sources.
const MAX_DEPTH: usize = 12;
/// A source file larger than this is not searched.
const MAX_SOURCE: u64 = 1 << 20;
/// Entries of one folder listed, at most.
const MAX_ENTRIES: usize = 4_096;

/// The projects found above the C# files, by folder: (unit name, whether
/// a program, the units it references) (`link::shared_projects`).
pub(super) type Dirs = BTreeMap<PathBuf, Option<(String, bool, Vec<String>)>>;

/// Each program's folder: from the `*.csproj` files of the scan and the
/// projects the C# files were found in (`dirs`, by folder).
pub(super) fn project_dirs(
    files: &[ScannedFile],
    cwd: Option<&Path>,
    dirs: &Dirs,
) -> BTreeMap<String, PathBuf> {
    let mut out: BTreeMap<String, PathBuf> = BTreeMap::new();
    for (dir, p) in dirs {
        if let Some((name, _, _)) = p {
            out.entry(name.clone()).or_insert_with(|| dir.clone());
        }
    }
    for f in files {
        let path = &f.source.path;
        let Some(stem) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".csproj"))
        else {
            continue;
        };
        let Some(dir) = path.parent() else { continue };
        let dir = match cwd {
            Some(c) if dir.is_relative() => c.join(dir),
            _ => dir.to_path_buf(),
        };
        out.entry(super::project_name(stem)).or_insert(dir);
    }
    out
}

/// What the link stage sees of the disk: the walk's view of it where the
/// walk covers a path (a file `.gitignore` or `--exclude` left out reads
/// as absent, as it does for the readers), the disk elsewhere
/// (`link::Disk`, which implements it; the C# steps sit below the link
/// stage and name it through this).
pub trait Look {
    /// The names of at most `max` entries of folder `dir`.
    fn list(&self, dir: &Path, max: usize) -> Option<Vec<String>>;
    /// Whether `path` is a folder.
    fn is_dir(&self, path: &Path) -> bool;
    /// Whether `path` is a regular file.
    fn is_file(&self, path: &Path) -> bool;
    /// The text of the regular file `path`, when at most `max` bytes.
    fn read(&self, path: &Path, max: u64) -> Option<String>;
    /// The C# facts of the `.cs` file `path` that the scan read and did
    /// not keep: `Some(None)` when the scan has them and none of `path`
    /// (not walked, or nothing in it), `None` when the scan did not
    /// collect them (the file is then read).
    fn csharp(&self, path: &Path) -> Option<Option<&CsharpSource>>;
}

/// The C# facts of `.cs` file `path` (a kept file's own, by path, in
/// `kept`), from the scan or, where it did not collect them, read
/// through `look`; `None`: not there, or nothing in it.
pub(super) fn source_facts<'a>(
    path: &Path,
    kept: &BTreeMap<PathBuf, &'a ScannedFile>,
    look: &'a dyn Look,
) -> Option<Cow<'a, CsharpSource>> {
    if let Some(f) = kept.get(path) {
        return Some(match &f.facts.csharp {
            Some(c) => Cow::Borrowed(c),
            None => Cow::Owned(super::source::read(&f.source.text)),
        });
    }
    match look.csharp(path) {
        Some(c) => c.map(Cow::Borrowed),
        None => look
            .read(path, MAX_SOURCE)
            .map(|t| Cow::Owned(super::source::read(&t))),
    }
}

/// The kept C# files, by their paths as the link stage joins them.
pub(super) fn kept_csharp<'a>(
    files: &'a [ScannedFile],
    cwd: Option<&Path>,
) -> BTreeMap<PathBuf, &'a ScannedFile> {
    files
        .iter()
        .filter(|f| f.source.path.extension().is_some_and(|e| e == "cs"))
        .map(|f| {
            let p = match cwd {
                Some(c) if f.source.path.is_relative() => c.join(&f.source.path),
                _ => f.source.path.clone(),
            };
            (p, f)
        })
        .collect()
}

/// The files of referenced programs (by index) and the referencing
/// programs each also runs in. A referencing program's sources are the
/// `*.cs` files the walk saw under its folder ([`sources`]), each known
/// by the names its reading found ([`source_facts`]: a kept file's own,
/// the scan's for the others, no file read).
pub(super) fn used_by_programs(
    files: &[ScannedFile],
    cwd: Option<&Path>,
    file_unit: &[Option<String>],
    programs: &BTreeSet<String>,
    used_by: &BTreeMap<String, BTreeSet<String>>,
    dirs: &BTreeMap<String, PathBuf>,
    look: &dyn Look,
) -> Vec<(usize, BTreeSet<String>)> {
    // Referencing program -> (file index, the types it declares).
    let mut wanted: BTreeMap<&str, Vec<(usize, Vec<String>)>> = BTreeMap::new();
    for (i, u) in file_unit.iter().enumerate() {
        let Some(u) = u.as_deref().filter(|u| programs.contains(*u)) else {
            continue;
        };
        let f = &files[i];
        if f.facts.edges.is_empty() && f.facts.unresolved.is_empty() && f.facts.policies.is_empty()
        {
            continue;
        }
        let users: Vec<&str> = used_by
            .get(u)
            .into_iter()
            .flatten()
            .filter(|q| programs.contains(*q) && q.as_str() != u && !is_test(q))
            .map(String::as_str)
            .collect();
        if users.is_empty() {
            continue;
        }
        let types = match &f.facts.csharp {
            Some(c) => c.types.clone(),
            None => declared_types(&code_only(&f.source.text)),
        };
        if types.is_empty() {
            continue;
        }
        for q in users {
            wanted.entry(q).or_default().push((i, types.clone()));
        }
    }
    if wanted.is_empty() {
        return Vec::new();
    }
    let kept = kept_csharp(files, cwd);
    let mut out: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for (q, candidates) in wanted {
        let Some(dir) = dirs.get(q) else { continue };
        let mut left = candidates;
        for path in sources(dir, look) {
            let Some(source) = source_facts(&path, &kept, look) else {
                continue;
            };
            left.retain(|(i, types)| {
                if types.iter().any(|t| source.names(t)) {
                    out.entry(*i).or_default().insert(q.to_string());
                    false
                } else {
                    true
                }
            });
            if left.is_empty() {
                break;
            }
        }
    }
    out.into_iter().collect()
}

/// A test project (`Shop.Api.Tests`) runs nothing of what it references.
fn is_test(unit: &str) -> bool {
    let last = unit.rsplit('_').next().unwrap_or(unit);
    last.ends_with("Tests") || last == "Test"
}

/// The `*.cs` files under a program's folder (not `bin`, `obj`, nor a
/// folder holding another project), as `look` lists them, sorted.
pub(super) fn sources(dir: &Path, look: &dyn Look) -> Vec<PathBuf> {
    let mut todo: Vec<(PathBuf, usize)> = vec![(dir.to_path_buf(), 0)];
    let mut files: Vec<PathBuf> = Vec::new();
    while let Some((d, depth)) = todo.pop() {
        if depth > MAX_DEPTH || files.len() >= MAX_SOURCES {
            continue;
        }
        let Some(entries) = look.list(&d, MAX_ENTRIES) else {
            continue;
        };
        // A nested project is its own, not this one's.
        if depth > 0 && entries.iter().any(|e| e.ends_with(".csproj")) {
            continue;
        }
        for name in entries {
            let p = d.join(&name);
            if name.ends_with(".cs") {
                if look.is_file(&p) {
                    files.push(p);
                }
            } else if !matches!(name.as_str(), "bin" | "obj" | ".git" | "node_modules")
                && look.is_dir(&p)
            {
                todo.push((p, depth + 1));
            }
        }
    }
    files.sort();
    files.truncate(MAX_SOURCES);
    files
}
