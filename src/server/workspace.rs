//! The language server's model of one workspace folder: every file's own
//! facts (extracted once, as a scan reads them, from the facts cache when
//! it has them), the editor's buffers over the files on disk, and the last
//! analysis. An edit re-extracts the edited file only; the analysis then
//! links a copy of every file's facts, builds the call graph and runs the
//! rules as `retrylint check` does ([`Pipeline::after_scan`]), so that a
//! finding about a path shows in the file that causes it.

use crate::config::{self, Settings};
use crate::pipeline::{Pipeline, Run};
use crate::rules::Finding;
use crate::{Notice, Scan, ScannedFile};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Settings for a workspace folder: the nearest configuration above it
/// and the server's flags, and whether each file then takes the nearest
/// `.retrylint.toml` above it (false when the flags name one file or none).
pub type Configure<'a> = dyn Fn(&Path) -> Result<(Settings, bool), String> + 'a;

pub struct Workspace {
    root: PathBuf,
    roots: Vec<PathBuf>,
    /// The run's settings with the nested configurations found.
    settings: Settings,
    /// Every file read, not linked, in the walk's order.
    files: Vec<ScannedFile>,
    /// Absolute path to index in `files`.
    index: HashMap<PathBuf, usize>,
    /// Problems of the last load, for the log.
    pub notices: Vec<Notice>,
}

/// One analysis: the linked scan and what it reports, by absolute path.
pub struct Analysis {
    pub run: Run,
    /// The absolute path of each file of `run.scan`.
    pub paths: Vec<PathBuf>,
    /// Absolute path to the ids of its findings in `run.report.findings`.
    pub by_path: HashMap<PathBuf, Vec<usize>>,
}

impl super::convert::Files for Analysis {
    fn file(&self, id: crate::source::FileId) -> Option<(&Path, &str, &crate::source::LineIndex)> {
        let f = self.run.scan.files.get(id)?;
        Some((self.paths.get(id)?, &f.source.text, f.source.lines()))
    }
}

impl Analysis {
    /// The file of the scan at `path`.
    pub fn id_of(&self, path: &Path) -> Option<crate::source::FileId> {
        self.paths.iter().position(|p| p == path)
    }

    /// The findings in `path`.
    pub fn findings_in(&self, path: &Path) -> impl Iterator<Item = &Finding> {
        self.by_path
            .get(path)
            .into_iter()
            .flatten()
            .map(|&i| &self.run.report.findings[i])
    }
}

impl Workspace {
    /// Read every file under `root` (absolute) as `retrylint check` would.
    pub fn load(root: &Path, configure: &Configure<'_>) -> Result<Workspace, String> {
        let root = config::normalise(root);
        let (settings, nearest) = configure(&root)?;
        let roots = vec![root.clone()];
        let (scan, settings) = {
            let pipeline = Pipeline::new(&settings).nearest_configs(nearest.then_some(&roots[..]));
            let scan = pipeline.scan_unlinked(&roots)?;
            (scan, pipeline.settings().clone())
        };
        let mut ws = Workspace {
            root,
            roots,
            settings,
            files: Vec::new(),
            index: HashMap::new(),
            notices: scan.notices,
        };
        for f in scan.files {
            ws.insert(f);
        }
        Ok(ws)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn abs(&self, shown: &Path) -> PathBuf {
        config::normalise(&self.root.join(shown))
    }

    fn insert(&mut self, f: ScannedFile) {
        let abs = self.abs(&f.source.path);
        match self.index.get(&abs) {
            Some(&i) => self.files[i] = f,
            None => {
                self.index.insert(abs, self.files.len());
                self.files.push(f);
            }
        }
    }

    /// Drop `path`; whether it was there.
    fn remove(&mut self, path: &Path) -> bool {
        let Some(i) = self.index.remove(path) else {
            return false;
        };
        self.files.remove(i);
        for v in self.index.values_mut() {
            if *v > i {
                *v -= 1;
            }
        }
        true
    }

    /// Whether `path` is a file of this workspace that a scan would read:
    /// below the root, and neither ignored (the walk's ignore files, from
    /// the root down to the file's folder: files the walk saw were judged
    /// by them already) nor excluded by the configuration.
    pub fn covers(&self, path: &Path) -> bool {
        if self.index.contains_key(path) {
            return true;
        }
        let Ok(rel) = path.strip_prefix(&self.root) else {
            return false;
        };
        if rel
            .components()
            .any(|c| c.as_os_str() == ".git" || c.as_os_str() == crate::cache::DIR_NAME)
        {
            return false;
        }
        if ignored(&self.root, rel) {
            return false;
        }
        let s = self.settings.for_path(path);
        match s.exclude_globs() {
            Ok(globs) => !globs.is_match(&s.relative_path(path)),
            Err(_) => true,
        }
    }

    /// Read `path` from `text` (an editor's buffer, or the file on disk
    /// again): re-extract that file only. `Ok(false)`: nothing the checks
    /// see changed (the same text, or a file that says nothing before and
    /// after), so the last analysis stands. `Err`: the message of a reader
    /// that failed (a bug), for the log.
    pub fn update(&mut self, path: &Path, text: String) -> Result<bool, String> {
        if !self.covers(path) {
            return Ok(false);
        }
        if let Some(&i) = self.index.get(path)
            && self.files[i].source.text == text
        {
            return Ok(false);
        }
        match crate::read_text(path, text, &self.roots, &self.settings) {
            Ok(Some(f)) if !f.facts.is_empty() => {
                self.insert(f);
                Ok(true)
            }
            Ok(_) => Ok(self.remove(path)),
            Err(e) => {
                self.remove(path);
                Err(format!("internal error reading `{}`: {e}", path.display()))
            }
        }
    }

    /// Read `path` again from disk (a buffer closed, a file changed or
    /// deleted outside the editor).
    pub fn reread(&mut self, path: &Path) -> Result<bool, String> {
        match std::fs::read(path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => self.update(path, text),
                // Not UTF-8: as the scan read it at the start, or not at all.
                Err(_) => Ok(false),
            },
            Err(_) => Ok(self.remove(path)),
        }
    }

    /// Link a copy of every file, build the graph, run the rules and
    /// report, as `retrylint check` does over the whole folder.
    pub fn analyse(&self) -> Analysis {
        let mut scan = Scan {
            files: self.files.iter().map(ScannedFile::duplicate).collect(),
            cwd: self.settings.cwd.clone(),
            ..Scan::default()
        };
        crate::link_read(&mut scan, &self.roots, &self.settings);
        let run = Pipeline::new(&self.settings).after_scan(scan, |_| true);
        let paths: Vec<PathBuf> = run
            .scan
            .files
            .iter()
            .map(|f| self.abs(&f.source.path))
            .collect();
        let mut by_path: HashMap<PathBuf, Vec<usize>> = HashMap::new();
        for (i, f) in run.report.findings.iter().enumerate() {
            if let Some(path) = paths.get(f.file) {
                by_path.entry(path.clone()).or_default().push(i);
            }
        }
        Analysis {
            run,
            paths,
            by_path,
        }
    }
}

/// Whether the ignore files the walk honours (`crate::discover`:
/// `.gitignore` and `.ignore` in every folder, `.git/info/exclude` at the
/// root) ignore `rel`, a file below `root` that the walk has not seen (a
/// new buffer, a file created since). Read anew each time, so an edited
/// `.gitignore` counts. The deepest folder whose files say anything about
/// the file decides, as git decides: a nested `.gitignore` can ignore what
/// the root's keeps, and `!name` in it can keep what the root's ignores.
pub(super) fn ignored(root: &Path, rel: &Path) -> bool {
    let path = root.join(rel);
    let mut dirs = vec![root.to_path_buf()];
    for c in rel.parent().into_iter().flat_map(Path::components) {
        let next = dirs[dirs.len() - 1].join(c);
        dirs.push(next);
    }
    for (depth, dir) in dirs.iter().enumerate().rev() {
        let mut b = ignore::gitignore::GitignoreBuilder::new(dir);
        let mut any = false;
        let exclude = root.join(".git/info/exclude");
        // Later files win within a folder: `.ignore` over `.gitignore`
        // over the repository's exclude (the ignore crate's order).
        let files = [
            (depth == 0).then_some(exclude),
            Some(dir.join(".gitignore")),
            Some(dir.join(".ignore")),
        ];
        for f in files.into_iter().flatten() {
            if f.is_file() && b.add(&f).is_none() {
                any = true;
            }
        }
        if !any {
            continue;
        }
        let Ok(ig) = b.build() else { continue };
        let m = ig.matched_path_or_any_parents(&path, false);
        if m.is_ignore() {
            return true;
        }
        if m.is_whitelist() {
            return false;
        }
    }
    false
}
