//! The link stage's look at files no reader kept (build manifests, a
//! unit's `application*` files, a kustomization's bases): answered from
//! what the walk saw ([`Tree`]) where it covers the path, from the disk
//! elsewhere. A warm run used to stat and list every folder's build files
//! again (issue 27: a tenth of a warm run of the generated 10,000-file
//! tree); now a file the walk did not list is not looked for, and only
//! files that are there are opened. `RETRYLINT_LINK_DISK=1` asks the disk
//! for everything, as before (to compare the two).

use crate::discover::Tree;
use std::path::Path;

/// Where the link stage looks for files.
#[derive(Clone, Copy, Default)]
pub struct Disk<'a> {
    tree: Option<&'a Tree>,
    /// The C# facts of the files the scan did not keep (`Scan::csharp`).
    csharp: Option<&'a crate::model::csharp_source::Sources>,
    /// The facts cache's folder and build salt (`Scan::cache_place`),
    /// where a link step may keep its result between runs.
    memo: Option<&'a (std::path::PathBuf, u64)>,
}

impl<'a> Disk<'a> {
    /// Ask `tree` where it covers a path, the disk elsewhere.
    pub fn new(tree: Option<&'a Tree>) -> Self {
        let off = std::env::var_os("RETRYLINT_LINK_DISK").is_some_and(|v| v == "1");
        Disk {
            tree: tree.filter(|_| !off),
            csharp: None,
            memo: None,
        }
    }

    /// Answer the C# steps' questions about files the scan did not keep
    /// from `csharp` rather than by reading them.
    pub fn with_csharp(self, csharp: Option<&'a crate::model::csharp_source::Sources>) -> Self {
        Disk { csharp, ..self }
    }

    /// [`Disk::new`] with the C# facts of [`Disk::with_csharp`], letting
    /// link steps keep their results in the facts cache's folder (with
    /// its build salt: `Scan::cache_place`).
    pub fn of(
        tree: Option<&'a Tree>,
        csharp: Option<&'a crate::model::csharp_source::Sources>,
        memo: Option<&'a (std::path::PathBuf, u64)>,
    ) -> Self {
        Disk {
            memo,
            ..Disk::new(tree).with_csharp(csharp)
        }
    }

    /// The facts cache's folder and build salt, if the run has a cache.
    pub fn memo(&self) -> Option<&'a (std::path::PathBuf, u64)> {
        self.memo
    }

    /// The C# facts of every file the scan did not keep, with its path.
    pub fn csharp_sources(
        &self,
    ) -> impl Iterator<Item = (&'a Path, &'a crate::model::csharp_source::CsharpSource)> {
        self.csharp
            .into_iter()
            .flat_map(|c| c.iter().map(|(p, s)| (p.as_path(), s)))
    }

    /// The disk only.
    pub fn direct() -> Self {
        Disk {
            tree: None,
            csharp: None,
            memo: None,
        }
    }

    fn kind(&self, path: &Path) -> Option<Option<bool>> {
        self.tree.and_then(|t| t.kind(path))
    }

    /// A regular file (a symbolic link is none).
    pub fn is_file(&self, path: &Path) -> bool {
        match self.kind(path) {
            Some(k) => k == Some(false),
            None => std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()),
        }
    }

    /// A folder (a symbolic link is none).
    pub fn is_dir(&self, path: &Path) -> bool {
        match self.kind(path) {
            Some(k) => k == Some(true),
            None => std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()),
        }
    }

    /// A folder, a link to one followed ([`Path::is_dir`]) where the
    /// walk does not cover it.
    pub fn is_dir_followed(&self, path: &Path) -> bool {
        match self.kind(path) {
            Some(k) => k == Some(true),
            None => path.is_dir(),
        }
    }

    /// A regular file, a link to one followed ([`Path::is_file`]) where
    /// the walk does not cover it.
    pub fn is_file_followed(&self, path: &Path) -> bool {
        match self.kind(path) {
            Some(k) => k == Some(false),
            None => path.is_file(),
        }
    }

    /// A regular file or a folder.
    pub fn exists(&self, path: &Path) -> bool {
        match self.kind(path) {
            Some(k) => k.is_some(),
            None => std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() || m.is_dir()),
        }
    }

    /// Whether the scan read `path` and found no `ConfigMap` in its text
    /// ([`Tree::lacks_configmap`]): a look for one declared there need
    /// not open it. `false` where that is not known.
    pub fn lacks_configmap(&self, path: &Path) -> bool {
        self.tree.is_some_and(|t| t.lacks_configmap(path))
    }

    /// The text of the regular file `path` when it is at most `max` bytes
    /// and UTF-8.
    pub fn read(&self, path: &Path, max: u64) -> Option<String> {
        if self.kind(path).is_some_and(|k| k != Some(false)) {
            return None;
        }
        let meta = std::fs::symlink_metadata(path).ok()?;
        if !meta.is_file() || meta.len() > max {
            return None;
        }
        std::fs::read_to_string(path).ok()
    }

    /// The walk's entries of folder `dir` (name, is a folder), sorted,
    /// where it covers `dir` (a name not among them is absent there);
    /// `None` where the disk is asked.
    pub fn walked(&self, dir: &Path) -> Option<&'a [(String, bool)]> {
        self.tree.and_then(|t| t.entries(dir))
    }

    /// The walked files whose path ends with `suffix` (after a `/`), at
    /// most `max`; `None` without a walk (the disk is not searched).
    pub fn files_ending(&self, suffix: &str, max: usize) -> Option<Vec<std::path::PathBuf>> {
        self.tree.map(|t| t.files_ending(suffix, max))
    }

    /// The walked files whose name ends with `suffix` (no `/` needed
    /// before it), at most `max`; `None` without a walk.
    pub fn files_named_ending(&self, suffix: &str, max: usize) -> Option<Vec<std::path::PathBuf>> {
        self.tree.map(|t| t.files_named_ending(suffix, max))
    }

    /// The names of at most `max` entries of folder `dir` (sorted where
    /// the walk covers it, in the disk's order elsewhere); `None` when it
    /// cannot be listed.
    pub fn list(&self, dir: &Path, max: usize) -> Option<Vec<String>> {
        if let Some(t) = self.tree
            && let Some(entries) = t.entries(dir)
        {
            if entries.is_empty() && !self.is_dir(dir) {
                return None;
            }
            return Some(entries.iter().take(max).map(|(n, _)| n.clone()).collect());
        }
        let entries = std::fs::read_dir(dir).ok()?;
        Some(
            entries
                .flatten()
                .take(max)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect(),
        )
    }
}

/// The C# project steps look through the walk's view too.
impl crate::systems::csharp::link::Look for Disk<'_> {
    fn list(&self, dir: &Path, max: usize) -> Option<Vec<String>> {
        Disk::list(self, dir, max)
    }
    fn is_dir(&self, path: &Path) -> bool {
        Disk::is_dir(self, path)
    }
    fn is_file(&self, path: &Path) -> bool {
        Disk::is_file(self, path)
    }
    fn read(&self, path: &Path, max: u64) -> Option<String> {
        Disk::read(self, path, max)
    }
    fn csharp(&self, path: &Path) -> Option<Option<&crate::model::csharp_source::CsharpSource>> {
        // Keyed without `.`/`..` (a referenced project's folder is
        // `Shop.Orders/../Shop.Contracts`).
        self.csharp.map(|c| c.get(&crate::config::normalise(path)))
    }
}

/// Keep the C# facts of a `.cs` file the scan does not keep (`path` as
/// walked), by the path the link stage joins a kept file's shown path
/// to (`cwd` joined to it, relative to `cwd`), without `.` or `..`.
pub fn keep_csharp(
    into: &mut crate::model::csharp_source::Sources,
    path: &Path,
    facts: &crate::model::Facts,
    cwd: Option<&Path>,
) {
    if let Some(c) = &facts.csharp {
        let path = match cwd {
            Some(d) => d.join(path.strip_prefix(d).unwrap_or(path)),
            None => path.to_path_buf(),
        };
        into.insert(crate::config::normalise(&path), c.clone());
    }
}
