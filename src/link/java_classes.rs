//! Java retry loops held open on project types declared in other files
//! (`JavaFacts::open_loops`, issue 18): each type is found by its package
//! and simple name (`org/acme/Pool.java` below a source root, among the
//! walked files; two such files: not resolved), read once
//! (`loops::classes::read_class`), and each loop decided:
//! - a call of the loop (in the try or before it) to a method that picks its
//!   target round-robin: failover, each pass asks another target;
//! - every call its try block makes on project types reaches only local
//!   work or values there (and some work is local): no remote call is
//!   retried;
//!
//! either way the loop's policy moves to `loops_not_taken` with the reason
//! and the class. A type found in no file or in two, a method not
//! declared there (nor in its superclass, one step up), an abstract one or
//! one that calls further project types keeps the loop as it was read
//! (unknown counts as remote). One level: the reading of a type never
//! follows another.
//!
//! Files other facts of which refer to policies by index (retry
//! annotations, client interfaces, AWS clients, versioned settings, Go
//! dials) keep their loops: only edges and unresolved calls are renumbered.

use super::Disk;
use crate::model::ScannedFile;
use crate::model::java_annotations::OpenCall;
use crate::systems::java::extract::loops::NO_REMOTE;
use crate::systems::java::extract::loops::classes::{
    ClassReading, MethodReach, MethodReading, read_class,
};
use std::collections::HashMap;
use std::path::PathBuf;

/// At most this many type files read per run, each at most this large.
const MAX_READS: usize = 256;
const MAX_BYTES: u64 = 1 << 20;
/// Without a walk, at most this many entries listed below the roots.
const MAX_LISTED: usize = 50_000;

/// What one open call resolves to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Found {
    Picks,
    Local,
    Neutral,
    Unknown,
}

pub fn java_classes(files: &mut [ScannedFile], roots: &[PathBuf], disk: Disk<'_>) {
    if files.iter().all(|f| f.facts.java.open_loops.is_empty()) {
        return;
    }
    let mut read: HashMap<(String, String), Option<ClassReading>> = HashMap::new();
    let mut listed: Option<Vec<PathBuf>> = None;
    for i in 0..files.len() {
        if files[i].facts.java.open_loops.is_empty() {
            continue;
        }
        let loops = std::mem::take(&mut files[i].facts.java.open_loops);
        let mut drop: Vec<(usize, String)> = Vec::new();
        let mut proven: Vec<(usize, String)> = Vec::new();
        for ol in &loops {
            // Nothing in the loop's file shows a remote attempt: one of
            // the project types it calls must, in its own file.
            if ol.unproven {
                let proof = ol.calls.iter().find_map(|c| {
                    let q = format!("{}.{}", c.package, c.class);
                    proves_remote(files, &disk, roots, &mut listed, c, &mut read).map(|e| {
                        format!(
                            "what goes round reaches something remote: `{}.{}` (`{q}`, read in its own file): {e}",
                            c.class, c.method
                        )
                    })
                });
                match proof {
                    Some(why) => proven.push((ol.policy, why)),
                    None => {
                        drop.push((
                            ol.policy,
                            format!(
                                "{NO_REMOTE} (the project's types it calls, read in their own files, show none either)"
                            ),
                        ));
                        continue;
                    }
                }
            }
            let mut find = |c: &OpenCall| -> (Found, String) {
                let qualified = format!("{}.{}", c.package, c.class);
                let found = resolve(files, &disk, roots, &mut listed, c, &mut read);
                (found, qualified)
            };
            let mut reason = None;
            for c in ol.around.iter().chain(&ol.calls) {
                let (found, q) = find(c);
                if found == Found::Picks {
                    reason = Some(format!(
                        "failover: each pass asks `{}.{}` (`{q}`, read in its own file), which steps an index over a list of targets and returns the next one: another target each time, so no wait is needed",
                        c.class, c.method
                    ));
                    break;
                }
            }
            if reason.is_none() && !ol.unproven && !ol.remote && !ol.calls.is_empty() {
                let mut local = ol.local;
                let mut all = true;
                let mut names = Vec::new();
                for c in &ol.calls {
                    let (found, q) = find(c);
                    match found {
                        Found::Local => local = true,
                        Found::Neutral | Found::Picks => {}
                        Found::Unknown => {
                            all = false;
                            break;
                        }
                    }
                    let n = format!("`{}.{}` (`{q}`)", c.class, c.method);
                    if !names.contains(&n) && names.len() < 3 {
                        names.push(n);
                    }
                }
                if all && local {
                    reason = Some(format!(
                        "local work: every call the try makes stays in the process, {} too, read in its own file (the local disk, a local process, reflection, in-memory values); no remote call is retried",
                        names.join(", ")
                    ));
                }
            }
            if let Some(r) = reason {
                drop.push((ol.policy, r));
            }
        }
        files[i].facts.java.open_loops = loops;
        for (p, why) in proven {
            if let Some(p) = files[i].facts.policies.get_mut(p) {
                p.why.push(why);
            }
        }
        if !drop.is_empty() && renumbers_safely(&files[i].facts) {
            settle(&mut files[i].facts, drop);
        }
    }
}

/// Whether only edges, unresolved calls and open loops refer to this
/// file's policies by index.
fn renumbers_safely(f: &crate::model::Facts) -> bool {
    f.java.retry_annotations.is_empty()
        && f.java.client_interfaces.is_empty()
        && f.java.interval_refs.is_empty()
        && f.aws_shared.is_empty()
        && f.versioned.is_empty()
        && f.go_dials_through.is_empty()
}

/// Move the policies `drop` (index, reason) to `loops_not_taken`, and
/// renumber what refers to the rest.
fn settle(f: &mut crate::model::Facts, drop: Vec<(usize, String)>) {
    let gone: Vec<usize> = drop.iter().map(|(i, _)| *i).collect();
    for (i, why) in drop {
        if let Some(p) = f.policies.get(i) {
            f.loops_not_taken.push(crate::model::LoopNote {
                span: p.span,
                reasons: vec![why],
            });
        }
    }
    let mut new_index = Vec::with_capacity(f.policies.len());
    let mut next = 0usize;
    for i in 0..f.policies.len() {
        let keep = !gone.contains(&i);
        new_index.push(keep.then_some(next));
        next += usize::from(keep);
    }
    let mut k = new_index.iter();
    f.policies.retain(|_| k.next().is_some_and(Option::is_some));
    let remap = |v: &mut Vec<usize>| {
        *v = v
            .iter()
            .filter_map(|i| new_index.get(*i).copied().flatten())
            .collect();
    };
    for e in &mut f.edges {
        remap(&mut e.policies);
    }
    for u in &mut f.unresolved {
        remap(&mut u.policies);
    }
    f.java
        .open_loops
        .retain_mut(|ol| match new_index.get(ol.policy).copied().flatten() {
            Some(n) => {
                ol.policy = n;
                true
            }
            None => false,
        });
}

/// The method `c` calls (or, past it, its superclass's), read in its own
/// file, shows a remote call: what shows it. Matched by name (an
/// overload with another arity may be the one that reaches out).
fn proves_remote(
    files: &[ScannedFile],
    disk: &Disk<'_>,
    roots: &[PathBuf],
    listed: &mut Option<Vec<PathBuf>>,
    c: &OpenCall,
    read: &mut HashMap<(String, String), Option<ClassReading>>,
) -> Option<String> {
    let by_name = |m: &MethodReading| m.name == c.method;
    let class = defining_class(files, disk, roots, listed, c, read, &by_name)?;
    let reading = read.get(&class)?.as_ref()?;
    if let Some(e) = reading
        .methods
        .iter()
        .filter(|m| by_name(m))
        .find_map(|m| m.remote.clone())
    {
        return Some(e);
    }
    // A project interface (`DocumentStore store; store.find(..)`): what
    // its implementations in the scan do (`MongoDocumentStore`), one of
    // which reaching out is enough (oak, sixteenth pass).
    if !reading.interface {
        return None;
    }
    implementation_evidence(files, disk, roots, listed, &class, &c.method, read)
}

/// Evidence in an implementation that rests on a type, not on a name: a
/// type of a network package, a client made, a remote failure caught, a
/// URL, or a class named for a remote store (`MongoDocumentStore`). A
/// receiver named like a handle (`session.checkLive()` in oak's
/// `MutableRoot implements Root`, a content session) is not enough to
/// prove an interface remote: its many implementations are often local.
fn by_type(e: &str) -> bool {
    [
        "of a network package",
        "a remote client or request is made",
        "a remote failure is caught",
        "a URL is named",
        "a remote endpoint or store",
    ]
    .iter()
    .any(|w| e.contains(w))
}

/// At most this many implementations of an interface read for one call.
const MAX_IMPLEMENTATIONS: usize = 8;

/// Evidence in an implementation of the interface `iface` (package,
/// simple name) among the scanned files: a class named for it
/// (`MongoDocumentStore.java`, `RDBDocumentStore.java` for
/// `DocumentStore`) that declares `implements DocumentStore` and whose
/// method `method` shows a remote call. Named, `implementation of ..`.
fn implementation_evidence(
    files: &[ScannedFile],
    disk: &Disk<'_>,
    roots: &[PathBuf],
    listed: &mut Option<Vec<PathBuf>>,
    iface: &(String, String),
    method: &str,
    read: &mut HashMap<(String, String), Option<ClassReading>>,
) -> Option<String> {
    let name = &iface.1;
    // Named with a prefix (`MongoDocumentStore.java`), or with `Impl` after
    // the interface's name (`DocumentStoreImpl.java`, `FooDocumentStoreImpl.java`).
    let mut candidates: Vec<(PathBuf, String)> = Vec::new();
    for (suffix, prefixed) in [
        (format!("{name}.java"), true),
        (format!("{name}Impl.java"), false),
    ] {
        let named = |p: &PathBuf| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| (n.len() > suffix.len() || !prefixed) && n.ends_with(&suffix))
        };
        let found: Vec<PathBuf> = match disk.files_named_ending(&suffix, 4 * MAX_IMPLEMENTATIONS) {
            Some(v) if !v.is_empty() => v,
            _ => listed
                .get_or_insert_with(|| java_files_below(roots))
                .iter()
                .filter(|p| named(p))
                .take(4 * MAX_IMPLEMENTATIONS)
                .cloned()
                .collect(),
        };
        let room = MAX_IMPLEMENTATIONS.saturating_sub(candidates.len());
        candidates.extend(
            found
                .into_iter()
                .filter(named)
                .filter_map(|p| {
                    let stem = p.file_stem()?.to_str()?.to_string();
                    Some((p, stem))
                })
                .take(room),
        );
    }
    for (path, stem) in candidates {
        let key = (format!("{}#{}", path.display(), stem), stem.clone());
        if !read.contains_key(&key) {
            let r = if read.len() >= MAX_READS {
                None
            } else {
                // A scanned file's text is in memory.
                files
                    .iter()
                    .find(|f| f.source.path == path || path.ends_with(&f.source.path))
                    .map(|f| f.source.text.to_string())
                    .or_else(|| disk.read(&path, MAX_BYTES))
                    .and_then(|text| read_class(&text, &stem))
            };
            read.insert(key.clone(), r);
        }
        let Some(Some(r)) = read.get(&key) else {
            continue;
        };
        if !r.implements.iter().any(|i| i == name) {
            continue;
        }
        if let Some(e) = r
            .methods
            .iter()
            .filter(|m| m.name == method)
            .filter_map(|m| m.remote.clone())
            .find(|e| by_type(e))
        {
            return Some(format!("its implementation `{stem}` ({e})"));
        }
    }
    None
}

/// Resolve one call: the type's file, then the method (by name and
/// arity; the superclass's, one step up, when the type has none).
fn resolve(
    files: &[ScannedFile],
    disk: &Disk<'_>,
    roots: &[PathBuf],
    listed: &mut Option<Vec<PathBuf>>,
    c: &OpenCall,
    read: &mut HashMap<(String, String), Option<ClassReading>>,
) -> Found {
    let called = |m: &MethodReading| m.name == c.method && m.arity == c.arity;
    let Some(defs) = defining_class(files, disk, roots, listed, c, read, &called)
        .and_then(|class| read.get(&class)?.as_ref())
        .map(|r| r.methods.iter().filter(|m| called(m)).collect::<Vec<_>>())
    else {
        return Found::Unknown;
    };
    if defs.iter().any(|m| m.picks) {
        Found::Picks
    } else if defs.iter().any(|m| m.reach == MethodReach::Other) {
        Found::Unknown
    } else if defs.iter().any(|m| m.reach == MethodReach::Local) {
        Found::Local
    } else {
        Found::Neutral
    }
}

/// The type that defines the method `c` calls (`matches` tells its
/// definitions): `c`'s type, else its superclass, one step up; `None`
/// when neither is read or defines it.
fn defining_class(
    files: &[ScannedFile],
    disk: &Disk<'_>,
    roots: &[PathBuf],
    listed: &mut Option<Vec<PathBuf>>,
    c: &OpenCall,
    read: &mut HashMap<(String, String), Option<ClassReading>>,
    matches: &dyn Fn(&MethodReading) -> bool,
) -> Option<(String, String)> {
    let mut class = (c.package.clone(), c.class.clone());
    for _ in 0..2 {
        let reading = reading(files, disk, roots, listed, &class, read)?;
        if reading.methods.iter().any(matches) {
            return Some(class);
        }
        class = reading.superclass.clone()?;
    }
    None
}

/// The reading of the type (package, simple name), read once per run.
fn reading<'r>(
    files: &[ScannedFile],
    disk: &Disk<'_>,
    roots: &[PathBuf],
    listed: &mut Option<Vec<PathBuf>>,
    class: &(String, String),
    read: &'r mut HashMap<(String, String), Option<ClassReading>>,
) -> Option<&'r ClassReading> {
    if !read.contains_key(class) {
        let r = if read.len() >= MAX_READS {
            None
        } else {
            locate(files, disk, roots, listed, class).and_then(|text| read_class(&text, &class.1))
        };
        read.insert(class.clone(), r);
    }
    read.get(class).and_then(Option::as_ref)
}

/// The text of the one file declaring (package, simple name): among the
/// walked files (two or more: ambiguous, none), else among the `.java`
/// files below the roots, listed once.
fn locate(
    files: &[ScannedFile],
    disk: &Disk<'_>,
    roots: &[PathBuf],
    listed: &mut Option<Vec<PathBuf>>,
    (package, name): &(String, String),
) -> Option<String> {
    let suffix = format!("{}/{name}.java", package.replace('.', "/"));
    let found: Vec<PathBuf> = match disk.files_ending(&suffix, 2) {
        Some(v) if !v.is_empty() => v,
        // No walk, or one that did not cover the roots (relative roots
        // without a working directory): the roots' Java files, listed once.
        _ => {
            let tail = format!("/{suffix}");
            listed
                .get_or_insert_with(|| java_files_below(roots))
                .iter()
                .filter(|p| p.to_string_lossy().replace('\\', "/").ends_with(&tail))
                .take(2)
                .cloned()
                .collect()
        }
    };
    let [path] = found.as_slice() else {
        return None;
    };
    // A scanned file's text is in memory.
    if let Some(f) = files
        .iter()
        .find(|f| f.source.path == *path || path.ends_with(&f.source.path))
        && f.source.path.ends_with(&suffix)
    {
        return Some(f.source.text.to_string());
    }
    disk.read(path, MAX_BYTES)
}

/// The `.java` files below `roots` (hidden folders left out), at most
/// [`MAX_LISTED`] entries looked at.
fn java_files_below(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo: Vec<PathBuf> = roots.to_vec();
    let mut seen = 0usize;
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            seen += 1;
            if seen > MAX_LISTED {
                return out;
            }
            let name = e.file_name();
            let name = name.to_string_lossy();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() && !name.starts_with('.') {
                todo.push(e.path());
            } else if kind.is_file() && name.ends_with(".java") {
                out.push(e.path());
            }
        }
    }
    out
}
