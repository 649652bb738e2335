//! Discovery: walk the given paths in parallel with the `ignore` crate
//! (`.gitignore` honoured except for the files git tracks (`tracked`),
//! hidden files included, `.git` skipped, symlinks never followed,
//! `--exclude` globs), and list the files to read.
//!
//! Symbolic links are never followed, not even when given as a root: a
//! link is counted and, when given by name, announced once. Reading opens
//! each file without following a link in its last component either
//! (`crate::read_named`), so a file swapped for a link after the walk is not
//! read through it.

use ignore::WalkBuilder;
use ignore::overrides::OverrideBuilder;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file to read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    pub path: PathBuf,
}

/// Something the walk could not read, said once.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WalkNotice {
    pub path: Option<PathBuf>,
    pub message: String,
}

#[derive(Debug, Default)]
pub struct Walk {
    pub files: Vec<Candidate>,
    pub notices: Vec<WalkNotice>,
    /// Symbolic links seen and not followed.
    pub symlinks: usize,
    /// Every folder entered or left out as vendored, sorted: what the
    /// walk's listing in the cache watches besides the ignore files
    /// (`cache::listing`).
    pub folders: Vec<PathBuf>,
    /// The folders holding a `.git` the walk met below its roots, sorted:
    /// work trees whose tracked files are read even when ignored
    /// (`tracked`).
    pub gits: Vec<PathBuf>,
    /// The vendored folders left out (`vendored`; in `folders` too),
    /// sorted.
    pub vendored: Vec<PathBuf>,
    /// Taken from the cache's listing, not walked (`cache::listing`).
    pub listed: bool,
}

/// The files git tracks that the ignore rules left out of a walk, and
/// the folders entered to find them (`tracked`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tracked {
    pub files: Vec<PathBuf>,
    pub folders: Vec<PathBuf>,
}

/// Walk `roots`: [`walk_by_rules`], with the files git tracks that an
/// ignore rule matches added ([`tracked`]). Paths are returned sorted,
/// so that every later step is deterministic. `exclude` globs are
/// relative to `base` (the working directory) when given.
pub fn walk(roots: &[PathBuf], exclude: &[String], base: Option<&Path>) -> Result<Walk, String> {
    let mut out = walk_by_rules(roots, exclude, base)?;
    let t = tracked(
        roots,
        &out.gits,
        &out.files,
        &out.folders,
        &out.vendored,
        exclude,
        base,
    )?;
    add_tracked(&mut out, t);
    Ok(out)
}

/// The `--exclude` globs as the walker's overrides.
fn overrides(
    exclude: &[String],
    base: Option<&Path>,
) -> Result<Option<ignore::overrides::Override>, String> {
    if exclude.is_empty() {
        return Ok(None);
    }
    let mut ob = OverrideBuilder::new(base.unwrap_or(Path::new(".")));
    for g in exclude {
        ob.add(&format!("!{g}"))
            .map_err(|e| format!("bad --exclude glob `{g}`: {e}"))?;
        // Also match below any directory, as users expect `vendor/**`.
        if !g.starts_with('/') && !g.starts_with("**/") {
            ob.add(&format!("!**/{g}"))
                .map_err(|e| format!("bad --exclude glob `{g}`: {e}"))?;
        }
    }
    ob.build().map(Some).map_err(|e| e.to_string())
}

/// The roots a walk enters: a symbolic link given as a root is not.
fn walked_roots(roots: &[PathBuf]) -> Vec<&PathBuf> {
    roots
        .iter()
        .filter(|r| std::fs::symlink_metadata(r).is_ok_and(|m| !m.file_type().is_symlink()))
        .collect()
}

/// The files git tracks below `roots` that a walk by the ignore rules
/// (its `files`, `folders`, `gits` and `vendored`) left out
/// (`tracked`), read from the index alone and the walk's listing: only
/// the folders leading to them are entered.
pub fn tracked(
    roots: &[PathBuf],
    gits: &[PathBuf],
    files: &[Candidate],
    folders: &[PathBuf],
    vendored: &[PathBuf],
    exclude: &[String],
    base: Option<&Path>,
) -> Result<Tracked, String> {
    let o = overrides(exclude, base)?;
    let (files, folders) = tracked::ignored_tracked(
        &walked_roots(roots),
        gits.to_vec(),
        files,
        folders,
        vendored,
        o.as_ref(),
    );
    Ok(Tracked { files, folders })
}

/// The index files [`tracked`]'s answer depends on, for the roots and
/// the `.git` folders a walk met.
pub fn index_files(roots: &[PathBuf], gits: &[PathBuf]) -> Vec<PathBuf> {
    tracked::index_files(&walked_roots(roots), gits.to_vec())
}

/// `walk` with the tracked files `t` added, in order.
pub fn add_tracked(walk: &mut Walk, t: Tracked) {
    if t.files.is_empty() && t.folders.is_empty() {
        return;
    }
    for f in t.files {
        let key = path_key(&f);
        if let Err(at) = walk.files.binary_search_by(|c| path_key(&c.path).cmp(&key)) {
            walk.files.insert(at, Candidate { path: f });
        }
    }
    walk.folders.extend(t.folders);
    walk.folders
        .sort_unstable_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    walk.folders.dedup();
}

/// Walk `roots` by the ignore rules alone (see the module's text); the
/// files git tracks that they leave out are [`tracked`]'s.
pub fn walk_by_rules(
    roots: &[PathBuf],
    exclude: &[String],
    base: Option<&Path>,
) -> Result<Walk, String> {
    let mut out = Walk::default();
    // A root that is a symbolic link is announced and left alone: the
    // walker would follow it (it resolves its roots), and its target may
    // be anywhere.
    let mut walked: Vec<&PathBuf> = Vec::new();
    for r in roots {
        match std::fs::symlink_metadata(r) {
            Err(e) => return Err(format!("cannot read `{}`: {e}", r.display())),
            Ok(m) if m.file_type().is_symlink() => {
                out.symlinks += 1;
                out.notices.push(WalkNotice {
                    path: Some(r.clone()),
                    message: "is a symbolic link: not followed".into(),
                });
            }
            Ok(_) => walked.push(r),
        }
    }
    let Some((first, rest)) = walked.split_first() else {
        return Ok(out);
    };
    let mut builder = WalkBuilder::new(first);
    for r in rest {
        builder.add(r);
    }
    // Vendored folders left out: the listing in the cache watches them
    // too (their `modules.txt` or `pyvenv.cfg` may go).
    let skipped: std::sync::Arc<Mutex<Vec<PathBuf>>> = Default::default();
    let seen = skipped.clone();
    // The folders holding a `.git`: work trees whose tracked files are
    // read even when ignored (`tracked`).
    let gits: std::sync::Arc<Mutex<Vec<PathBuf>>> = Default::default();
    let git_seen = gits.clone();
    builder
        .hidden(false)
        .follow_links(false)
        .git_ignore(true)
        .git_global(false)
        .git_exclude(true)
        .require_git(false)
        .ignore(true)
        .parents(true)
        .filter_entry(move |e| {
            if e.file_name() == ".git" {
                if let Some(p) = e.path().parent() {
                    let mut g = git_seen.lock().unwrap_or_else(|p| p.into_inner());
                    g.push(p.to_path_buf());
                }
                return false;
            }
            if vendored(e) {
                let mut seen = seen.lock().unwrap_or_else(|p| p.into_inner());
                seen.push(e.path().to_path_buf());
                return false;
            }
            true
        });
    if let Some(o) = overrides(exclude, base)? {
        builder.overrides(o);
    }
    let shared = Mutex::new(Walk::default());
    builder.build_parallel().run(|| {
        let shared = &shared;
        Box::new(move |entry| {
            let mut local = Vec::new();
            let mut folder = None;
            let mut notice = None;
            let mut symlink = false;
            match entry {
                Ok(e) => {
                    let ft = e.file_type();
                    if ft.is_some_and(|t| t.is_symlink()) {
                        symlink = e.depth() > 0;
                    } else if ft.is_some_and(|t| t.is_dir()) {
                        folder = Some(e.into_path());
                    } else if ft.is_some_and(|t| t.is_file()) {
                        // No stat here: most files are never opened, and
                        // the size of one that is comes with its open.
                        local.push(Candidate {
                            path: e.into_path(),
                        });
                    }
                }
                Err(err) => notice = Some(walk_notice(&err)),
            }
            let mut w = shared.lock().unwrap_or_else(|p| p.into_inner());
            w.files.extend(local);
            w.folders.extend(folder);
            if let Some(n) = notice {
                w.notices.push(n);
            }
            if symlink {
                w.symlinks += 1;
            }
            ignore::WalkState::Continue
        })
    });
    let w = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    out.files = w.files;
    out.notices.extend(w.notices);
    out.symlinks += w.symlinks;
    out.folders = w.folders;
    let mut gits = std::mem::take(&mut *gits.lock().unwrap_or_else(|p| p.into_inner()));
    gits.sort_unstable_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    out.gits = gits;
    let mut vendored = std::mem::take(&mut *skipped.lock().unwrap_or_else(|p| p.into_inner()));
    vendored.sort_unstable_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    out.folders.extend(vendored.iter().cloned());
    out.vendored = vendored;
    // By their bytes: the order only needs to be fixed.
    out.folders
        .sort_unstable_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    out.folders.dedup();
    // By a key made once per path: `Path`'s own order compares the paths
    // component by component at every comparison (93 M instructions of
    // a one-file run on the generated 10,000-file tree).
    out.files.sort_by_cached_key(|c| path_key(&c.path));
    out.files.dedup_by(|a, b| a.path == b.path);
    out.notices.sort();
    Ok(out)
}

/// A folder of third-party code installed by a tool, below a root: Go's
/// module vendor folder (`vendor/` holding the `modules.txt` that `go mod
/// vendor` writes) and Python's installed packages (`site-packages`, a
/// `.venv`/`venv` holding `pyvenv.cfg`). Their code is not the project's:
/// its retries are the libraries' own (a packet reader's receive loop,
/// cloudflare/cloudflared d1df7985's vendored gopacket and quic-go), and
/// the project cannot fix it there. `go vet ./...` and golangci-lint
/// (`exclude-dirs-use-default`) skip `vendor/` the same way, ruff skips
/// `site-packages` and `.venv`. Given as a root, such a folder is read.
/// One `stat` only for a folder with one of these names.
fn vendored(e: &ignore::DirEntry) -> bool {
    if e.depth() == 0 || !e.file_type().is_some_and(|t| t.is_dir()) {
        return false;
    }
    match e.file_name().to_str() {
        Some("vendor") => e.path().join("modules.txt").is_file(),
        Some("site-packages") => true,
        Some(".venv" | "venv") => e.path().join("pyvenv.cfg").is_file(),
        _ => false,
    }
}

fn walk_notice(err: &ignore::Error) -> WalkNotice {
    let path = error_path(err).map(Path::to_path_buf);
    let message = match err {
        ignore::Error::WithPath { err, .. } => err.to_string(),
        ignore::Error::WithDepth { err, .. } => return walk_notice(err),
        ignore::Error::Loop { .. } => "symbolic link loop: not followed".into(),
        other => other.to_string(),
    };
    WalkNotice { path, message }
}

fn error_path(err: &ignore::Error) -> Option<&Path> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } => error_path(err),
        ignore::Error::Loop { child, .. } => Some(child),
        _ => None,
    }
}

/// What the walk saw, for the link stage to ask instead of the disk
/// (issue 27: a warm run stat-ed and listed the build files of every
/// folder again): the files it listed and the folders that hold them,
/// below the roots it walked as folders. A path below such a root is
/// answered from here, so a file the walk left out (`.gitignore`,
/// `--exclude`, a nested configuration's `exclude`) or a folder with no
/// walked file in it reads as absent, as it does for the readers; a path
/// elsewhere (above a root, beside a root given as a file, or with a
/// `..` in it) is not covered and is looked up on disk.
#[derive(Debug, Default)]
pub struct Tree {
    /// The roots walked as folders, absolute and without `.` components
    /// (their bytes, as every key here: a `Path` hashes and compares by
    /// components, which cost a third of a one-file run's link stage).
    roots: Vec<Vec<u8>>,
    files: std::collections::HashSet<Vec<u8>>,
    /// Each folder holding a walked file (the roots included), with its
    /// entries' names, sorted, and whether each is a folder.
    dirs: std::collections::HashMap<Vec<u8>, Vec<(String, bool)>>,
    /// The YAML files whose text the scan read and found without the word
    /// `ConfigMap` ([`Tree::lacking_configmap`]).
    without_configmap: std::collections::HashSet<Vec<u8>>,
}

impl Tree {
    /// The tree of a walk of `roots`, the relative ones (and the walk's
    /// relative paths) taken from `cwd`.
    pub fn new<'a>(
        roots: &[PathBuf],
        files: impl Iterator<Item = &'a Path>,
        cwd: Option<&Path>,
    ) -> Tree {
        let mut tree = Tree::default();
        for r in roots {
            let Some(r) = absolute(r, cwd) else { continue };
            // A root given as a file: its folder was not walked.
            if std::fs::symlink_metadata(&r).is_ok_and(|m| m.is_dir()) {
                let r = r.into_os_string().into_encoded_bytes();
                tree.dirs.entry(r.clone()).or_default();
                tree.roots.push(r);
            }
        }
        // Each folder is added to its parent's entries once, when it is
        // first met (the roots are added to their parents too when a root
        // lies in another); a file once per time the walk lists it, the
        // lists deduplicated below (one allocation per folder, not per
        // file and level: a tenth of a warm run went here).
        let mut met: std::collections::HashSet<Vec<u8>> = Default::default();
        // Sized once (not grown by doubling, each step hashing every key
        // again), and a folder's key copied only when it is new.
        tree.files.reserve(files.size_hint().0);
        for f in files {
            let Some(f) = absolute_key(f, cwd) else {
                continue;
            };
            if !tree.covers(&f) {
                continue;
            }
            if let Some((parent, name)) = split_last(&f)
                && tree.covers(parent)
            {
                let entry = (String::from_utf8_lossy(name).into_owned(), false);
                match tree.dirs.get_mut(parent) {
                    Some(list) => list.push(entry),
                    None => {
                        tree.dirs.insert(parent.to_vec(), vec![entry]);
                    }
                }
                let mut child = parent;
                while !met.contains(child)
                    && let Some((up, name)) = split_last(child)
                    && tree.covers(up)
                {
                    met.insert(child.to_vec());
                    tree.dirs
                        .entry(up.to_vec())
                        .or_default()
                        .push((String::from_utf8_lossy(name).into_owned(), true));
                    child = up;
                }
            }
            tree.files.insert(f);
        }
        for list in tree.dirs.values_mut() {
            list.sort();
            list.dedup();
        }
        tree
    }

    /// Note `files` (walked files, as the walk gave them) as YAML texts
    /// the scan read whole and found without the word `ConfigMap`: the
    /// link stage's search for a ConfigMap another folder declares
    /// (`link::configmap_env`) need not open them again (on istio/istio,
    /// 3,000 files and most of its link stage).
    pub fn lacking_configmap<'a>(
        &mut self,
        files: impl Iterator<Item = &'a Path>,
        cwd: Option<&Path>,
    ) {
        self.without_configmap
            .extend(files.filter_map(|f| absolute_key(f, cwd)));
    }

    /// Whether the scan read `path` and found no `ConfigMap` in it
    /// ([`Tree::lacking_configmap`]); `false` where it does not know.
    pub fn lacks_configmap(&self, path: &Path) -> bool {
        !self.without_configmap.is_empty()
            && key(path).is_some_and(|k| self.without_configmap.contains(&*k))
    }

    /// Whether the clean path `key` (see [`key`]) lies in a walked root.
    fn covers(&self, key: &[u8]) -> bool {
        self.roots.iter().any(|r| below(key, r))
    }

    /// What the walk says of `path`, when it covers it: `Some(None)` for
    /// absent, `Some(Some(true))` for a folder, `Some(Some(false))` for a
    /// file. `None`: not covered, ask the disk.
    pub fn kind(&self, path: &Path) -> Option<Option<bool>> {
        let key = key(path)?;
        if !self.covers(&key) {
            return None;
        }
        Some(if self.dirs.contains_key(&*key) {
            Some(true)
        } else if self.files.contains(&*key) {
            Some(false)
        } else {
            None
        })
    }

    /// The walked files whose path ends with `/` and `suffix`
    /// (`org/acme/Pool.java`), sorted, the first `max`.
    pub fn files_ending(&self, suffix: &str, max: usize) -> Vec<std::path::PathBuf> {
        let tail = format!("/{suffix}");
        self.first_sorted(|f| f.ends_with(tail.as_bytes()), max)
    }

    /// The walked files whose name ends with `suffix` (`DocumentStore.java`
    /// finds `mongo/MongoDocumentStore.java` too), sorted, the first `max`.
    pub fn files_named_ending(&self, suffix: &str, max: usize) -> Vec<std::path::PathBuf> {
        self.first_sorted(|f| f.ends_with(suffix.as_bytes()), max)
    }

    /// The first `max` walked files in path order that `keep` takes. All
    /// of them are sorted before the cut: `files` is a hash set, whose
    /// order changes from process to process, so taking `max` as met
    /// would make a run's answer (which ConfigMap files are read, which
    /// implementations of an interface) differ from the next run's.
    fn first_sorted(&self, keep: impl Fn(&[u8]) -> bool, max: usize) -> Vec<std::path::PathBuf> {
        let mut out: Vec<&[u8]> = self
            .files
            .iter()
            .map(Vec::as_slice)
            .filter(|f| keep(f))
            .collect();
        out.sort_unstable();
        out.into_iter()
            .filter_map(|f| std::str::from_utf8(f).ok().map(std::path::PathBuf::from))
            .take(max)
            .collect()
    }

    /// The entries of folder `dir` (name, is a folder), sorted, when the
    /// walk covers it; an empty list for a folder it did not see.
    pub fn entries(&self, dir: &Path) -> Option<&[(String, bool)]> {
        let key = key(dir)?;
        if !self.covers(&key) {
            return None;
        }
        Some(self.dirs.get(&*key).map_or(&[], Vec::as_slice))
    }
}

fn is_sep(b: u8) -> bool {
    b < 128 && std::path::is_separator(b as char)
}

/// Whether the clean path `key` is `root` or below it (by components).
fn below(key: &[u8], root: &[u8]) -> bool {
    key.starts_with(root)
        && (key.len() == root.len()
            || root.last().is_some_and(|&b| is_sep(b))
            || is_sep(key[root.len()]))
}

/// The clean path `key`'s parent and last component (`None` at the root).
fn split_last(key: &[u8]) -> Option<(&[u8], &[u8])> {
    let i = key.iter().rposition(|&b| is_sep(b))?;
    let name = &key[i + 1..];
    if name.is_empty() {
        return None;
    }
    // The parent of `/a` is `/`.
    let parent = if key[..i].iter().any(|&b| is_sep(b)) {
        &key[..i]
    } else {
        &key[..=i]
    };
    Some((parent, name))
}

/// The bytes of `path` as [`clean`] would give them, without building a
/// path when it is clean already (the link stage asks this for every
/// build file of every folder); `None` when it is relative or holds a
/// `..` (never covered).
/// Whether `path` names a YAML file (`.yaml` or `.yml`).
pub fn is_yaml_name(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "yaml" || x == "yml")
}

fn key(path: &Path) -> Option<std::borrow::Cow<'_, [u8]>> {
    let bytes = path.as_os_str().as_encoded_bytes();
    if cfg!(unix) && bytes.first() == Some(&b'/') && is_clean(bytes) {
        return Some(std::borrow::Cow::Borrowed(bytes));
    }
    clean(path).map(|p| std::borrow::Cow::Owned(p.into_os_string().into_encoded_bytes()))
}

/// An absolute path with no empty, `.` or `..` component and no trailing
/// separator (Unix).
fn is_clean(bytes: &[u8]) -> bool {
    if bytes.len() > 1 && bytes.ends_with(b"/") {
        return false;
    }
    bytes[1..]
        .split(|&b| b == b'/')
        .all(|c| !c.is_empty() && c != b"." && c != b"..")
        || bytes == b"/"
}

/// [`absolute`]'s bytes.
fn absolute_key(path: &Path, cwd: Option<&Path>) -> Option<Vec<u8>> {
    let joined;
    let path = match cwd {
        Some(c) if path.is_relative() => {
            joined = c.join(path);
            joined.as_path()
        }
        _ => path,
    };
    key(path).map(std::borrow::Cow::into_owned)
}

/// A key whose byte order is `Path`'s order, and which is equal for two
/// paths exactly when they are: each component as a tag in the order of
/// [`std::path::Component`]'s variants, a normal component's (or a
/// prefix's) bytes, and a 0 that ends it (no component holds a 0 byte, so
/// a component sorts before every longer one it starts). A Windows prefix
/// compares by its text, not by its parsed kind as `Path` does.
pub fn path_key(path: &Path) -> Vec<u8> {
    use std::path::Component;
    let mut key = Vec::with_capacity(path.as_os_str().len() + 8);
    for c in path.components() {
        match c {
            Component::Prefix(p) => {
                key.push(1);
                key.extend_from_slice(p.as_os_str().as_encoded_bytes());
            }
            Component::RootDir => key.push(2),
            Component::CurDir => key.push(3),
            Component::ParentDir => key.push(4),
            Component::Normal(n) => {
                key.push(5);
                key.extend_from_slice(n.as_encoded_bytes());
            }
        }
        key.push(0);
    }
    key
}

/// `path` joined to `cwd` when relative, without `.` components; `None`
/// when it is still relative or holds a `..` (never covered).
fn absolute(path: &Path, cwd: Option<&Path>) -> Option<PathBuf> {
    let joined;
    let path = match cwd {
        Some(c) if path.is_relative() => {
            joined = c.join(path);
            joined.as_path()
        }
        _ => path,
    };
    clean(path)
}

fn clean(path: &Path) -> Option<PathBuf> {
    use std::path::Component;
    if !path.is_absolute() {
        return None;
    }
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => return None,
            other => out.push(other),
        }
    }
    Some(out)
}

/// The Helm chart a file belongs to as a template: the folder holding
/// `Chart.yaml` whose `templates/` holds the file, nearest first. A
/// template named alone is read with its chart (its values), not raw.
pub fn chart_of(file: &Path) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .take(32)
        .filter(|d| d.file_name().is_some_and(|n| n == "templates"))
        .filter_map(Path::parent)
        .find(|chart| chart.join("Chart.yaml").is_file())
        .map(Path::to_path_buf)
}

#[path = "discover/tracked.rs"]
mod tracked;
#[cfg(test)]
pub(crate) use tracked::index_bytes;

#[cfg(test)]
#[path = "discover/tracked_tests.rs"]
mod tracked_tests;

#[cfg(test)]
#[path = "discover/tree_tests.rs"]
mod tree_tests;

#[cfg(test)]
#[path = "discover/key_tests.rs"]
mod key_tests;
