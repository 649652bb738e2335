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
    /// The files' own `.gitignore` at the root and the configured
    /// excludes, for a file the walk did not see (created later).
    ignore: Option<ignore::gitignore::Gitignore>,
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
            ignore: gitignore(&root),
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
    /// below the root, and neither ignored by the root's `.gitignore`
    /// (files the walk saw were judged by every `.gitignore`) nor
    /// excluded by the configuration.
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
        if let Some(ig) = &self.ignore
            && ig.matched_path_or_any_parents(path, false).is_ignore()
        {
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

fn gitignore(root: &Path) -> Option<ignore::gitignore::Gitignore> {
    let file = root.join(".gitignore");
    if !file.is_file() {
        return None;
    }
    let (ig, _) = ignore::gitignore::Gitignore::new(file);
    Some(ig)
}
