//! A program another program references as a project (issue 19, left item
//! 2; duncan-G/ThePlot's gRPC server references its content-generation
//! worker to send through the worker's `ContentGenerationWorkPublisher`):
//! a file of the referenced program that declares a type a source file of
//! the referencing program names runs in that program too, its own unit
//! kept; the referenced program's other files (its start-up, its hosted
//! workers) run in itself only. A library's files are given to the
//! programs that reference it whole (`link::shared_projects`); a program
//! is not a library, so only what is used of it is.

use crate::model::ScannedFile;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Source files read per referencing program, at most.
const MAX_SOURCES: usize = 5_000;
/// How deep a program's folder is walked for its sources.
const MAX_DEPTH: usize = 12;
/// A source file larger than this is not searched.
const MAX_SOURCE: u64 = 1 << 20;
/// Types a file may declare before the rest are ignored.
const MAX_TYPES: usize = 64;

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

/// The files of referenced programs (by index) and the referencing
/// programs each also runs in.
pub(super) fn used_by_programs(
    files: &[ScannedFile],
    file_unit: &[Option<String>],
    programs: &BTreeSet<String>,
    used_by: &BTreeMap<String, BTreeSet<String>>,
    dirs: &BTreeMap<String, PathBuf>,
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
        let types = declared_types(&f.source.text);
        if types.is_empty() {
            continue;
        }
        for q in users {
            wanted.entry(q).or_default().push((i, types.clone()));
        }
    }
    let mut out: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for (q, candidates) in wanted {
        let Some(dir) = dirs.get(q) else { continue };
        let mut left = candidates;
        for text in sources(dir) {
            left.retain(|(i, types)| {
                if types.iter().any(|t| names(&text, t)) {
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

/// The types a C# file declares: the name after `class`, `record`,
/// `struct`, `interface` or `enum`.
pub(super) fn declared_types(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut words = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty());
    while let Some(w) = words.next() {
        if !matches!(w, "class" | "record" | "struct" | "interface" | "enum") {
            continue;
        }
        // `record struct X`, `record class X`.
        let mut name = words.next();
        if w == "record" && matches!(name, Some("struct" | "class")) {
            name = words.next();
        }
        if let Some(n) = name.filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase()))
            && n != "Program"
            && !out.iter().any(|x| x == n)
        {
            out.push(n.to_string());
            if out.len() >= MAX_TYPES {
                break;
            }
        }
    }
    out
}

/// Whether `text` names `word` as a whole identifier.
pub(super) fn names(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(ident)
            && !text[at + word.len()..].chars().next().is_some_and(ident)
    })
}

/// The `*.cs` files under a program's folder (not `bin`, `obj`, nor a
/// folder holding another project), read one at a time.
fn sources(dir: &Path) -> impl Iterator<Item = String> {
    let mut todo: Vec<(PathBuf, usize)> = vec![(dir.to_path_buf(), 0)];
    let mut files: Vec<PathBuf> = Vec::new();
    while let Some((d, depth)) = todo.pop() {
        if depth > MAX_DEPTH || files.len() >= MAX_SOURCES {
            continue;
        }
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let entries: Vec<_> = rd.flatten().collect();
        // A nested project is its own, not this one's.
        if depth > 0
            && entries
                .iter()
                .any(|e| e.path().extension().is_some_and(|x| x == "csproj"))
        {
            continue;
        }
        for e in entries {
            let Ok(t) = e.file_type() else { continue };
            let p = e.path();
            let name = e.file_name();
            if t.is_dir() {
                if !matches!(name.to_str(), Some("bin" | "obj" | ".git" | "node_modules")) {
                    todo.push((p, depth + 1));
                }
            } else if t.is_file() && p.extension().is_some_and(|x| x == "cs") {
                files.push(p);
            }
        }
    }
    files.sort();
    files.truncate(MAX_SOURCES);
    files.into_iter().filter_map(|p| {
        let meta = std::fs::metadata(&p).ok()?;
        (meta.len() <= MAX_SOURCE)
            .then(|| std::fs::read_to_string(&p).ok())
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_types_and_whole_names() {
        let t = "public sealed class WorkPublisher(ServiceBusClient c) { }\n\
                 internal record struct Item(string Id);\npartial class Program {}";
        assert_eq!(declared_types(t), ["WorkPublisher", "Item"]);
        assert!(names(
            "app.MapPost(\"/w\", (WorkPublisher p) => 1)",
            "WorkPublisher"
        ));
        assert!(!names("IWorkPublisher p", "WorkPublisher"));
        assert!(!names("WorkPublishers", "WorkPublisher"));
    }
}
