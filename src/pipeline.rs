//! One run, stage by stage, for every command: scan (walk, read, extract,
//! link), graph, check, suppress, report. The call graph is built here,
//! once per run, and handed to the rules and to the commands that draw it.
//!
//! Paths are explicit: the working directory is [`Settings::cwd`] (the
//! command line reads it once); nothing here reads the process's.

use crate::config::{self, Settings};
use crate::graph::Graph;
use crate::report::{self, Report};
use crate::source::SourceFile;
use crate::{Notice, Progress, Scan, check, guard};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// What a run produced: the files read, their call graph (`None` when its
/// stage stopped: a notice says so) and what is reported.
#[derive(Debug, Default)]
pub struct Run {
    pub scan: Scan,
    pub graph: Option<Graph>,
    pub report: Report,
}

/// The stages of a run over some roots: with the run's configuration, and
/// (after [`Pipeline::nearest_configs`]) each file with the nearest one.
pub struct Pipeline<'a> {
    settings: &'a Settings,
    progress: &'a dyn Progress,
    /// The paths the user named, when the configuration was discovered
    /// (not named with `--config` nor turned off): each file then takes
    /// the nearest `.retrylint.toml` above it.
    named: Option<&'a [PathBuf]>,
    /// The run's settings with the nested configurations the scan found
    /// ([`Settings::nested`]); unset: none.
    scoped: OnceLock<Settings>,
}

impl<'a> Pipeline<'a> {
    pub fn new(settings: &'a Settings) -> Self {
        Pipeline {
            settings,
            progress: &(),
            named: None,
            scoped: OnceLock::new(),
        }
    }

    /// Tell `progress` how the scan advances.
    pub fn progress(mut self, progress: &'a dyn Progress) -> Self {
        self.progress = progress;
        self
    }

    /// Check each file with the nearest `.retrylint.toml` above it (in or
    /// above `named`, the paths the user named, or below them), as ruff
    /// does; `None`: every file with the run's configuration.
    pub fn nearest_configs(mut self, named: Option<&'a [PathBuf]>) -> Self {
        self.named = named;
        self
    }

    /// The run's settings, with the nested configurations once the scan
    /// has found them.
    pub fn settings(&self) -> &Settings {
        self.scoped.get().unwrap_or(self.settings)
    }

    /// Walk `roots`, read, extract and link every file.
    pub fn scan(&self, roots: &[PathBuf]) -> Result<Scan, String> {
        let start = std::time::Instant::now();
        let mut scan = self.scan_unlinked(roots)?;
        crate::link_read(&mut scan, roots, self.settings());
        scan.notices.sort();
        scan.stats.elapsed = start.elapsed();
        Ok(scan)
    }

    /// Walk `roots`, read and extract every file, not linked
    /// ([`crate::read_unlinked`]): what the language server keeps.
    pub fn scan_unlinked(&self, roots: &[PathBuf]) -> Result<Scan, String> {
        let (mut walk, cache) = crate::walk_and_open(roots, self.settings)?;
        let mut notices = Vec::new();
        if let Some(named) = self.named
            && let Some(scoped) = self.nested_configs(named, &walk, &mut notices)?
        {
            let globs: Vec<_> = scoped
                .scopes()
                .map(Settings::exclude_globs)
                .collect::<Result<_, _>>()?;
            walk.files.retain(|c| match scoped.scope_of(&c.path) {
                0 => true,
                i => !globs[i].is_match(&scoped.nested[i - 1].relative_path(&c.path)),
            });
            // One pipeline scans once; a second scan keeps the first's.
            self.scoped.get_or_init(|| scoped);
        }
        let s = self.settings();
        let mut scan = crate::read_unlinked(walk, cache, roots, s, self.progress);
        scan.stats.config_files = s
            .scopes()
            .filter_map(|c| c.config_file.as_deref())
            .map(|f| crate::source::display_path(&s.shown(f)))
            .collect();
        scan.notices.append(&mut notices);
        scan.notices.sort();
        Ok(scan)
    }

    /// The call graph of a scan, under the stage's time and panic guard.
    pub fn graph(&self, scan: &Scan) -> Result<Graph, Notice> {
        guard::run(guard::budget(guard::STAGE_BUDGET), || {
            guard::inject("graph");
            crate::graph::build(&scan.files, self.settings())
        })
        .map_err(|stop| crate::stage_notice("building the call graph", &stop))
    }

    /// Every stage: scan, graph, check, suppress, report. The notices of
    /// the stages after the scan are added to the scan's.
    pub fn run(&self, roots: &[PathBuf]) -> Result<Run, String> {
        self.run_for(roots, |_| true)
    }

    /// [`Pipeline::run`] reporting only the files `keep` accepts; every
    /// rule still runs over every file (a path's findings need the whole
    /// graph).
    pub fn run_for(
        &self,
        roots: &[PathBuf],
        keep: impl Fn(&SourceFile) -> bool,
    ) -> Result<Run, String> {
        let scan = self.scan(roots)?;
        // Test seam (debug builds): a bug after reading, in the rules.
        #[cfg(debug_assertions)]
        if std::env::var_os("RETRYLINT_TEST_PANIC_ON").is_some_and(|v| v == "@check") {
            panic!("injected panic (RETRYLINT_TEST_PANIC_ON=@check)");
        }
        Ok(self.after_scan(scan, keep))
    }

    /// A run over `base` (a scan of [`Pipeline::scan_unlinked`]) with the
    /// files of `texts` (absolute path, as `cwd` joined with the file's
    /// path) read from those texts instead: what the tree would give if
    /// they were written, with nothing written (`check --diff` over
    /// several rounds of fixes). Only those files are extracted again.
    pub fn run_over(
        &self,
        base: &Scan,
        roots: &[PathBuf],
        cwd: &Path,
        texts: &std::collections::BTreeMap<PathBuf, String>,
        keep: impl Fn(&SourceFile) -> bool,
    ) -> Run {
        let settings = self.settings();
        let mut scan = Scan {
            cwd: base.cwd.clone(),
            notices: base.notices.clone(),
            ..Scan::default()
        };
        for f in &base.files {
            let path = config::normalise(&cwd.join(&f.source.path));
            let Some(text) = texts.get(&path) else {
                scan.files.push(f.duplicate());
                continue;
            };
            match crate::read_text(&path, text.clone(), roots, settings) {
                Ok(Some(read)) => scan.files.push(read),
                Ok(None) => {}
                Err(e) => scan.notices.push(Notice {
                    path: Some(f.source.display_path()),
                    message: format!("internal error reading the fixed text: {e}"),
                    internal: true,
                }),
            }
        }
        crate::link_read(&mut scan, roots, settings);
        scan.notices.sort();
        self.after_scan(scan, keep)
    }

    /// The stages after the scan, for a scan read elsewhere.
    pub fn after_scan(&self, mut scan: Scan, keep: impl Fn(&SourceFile) -> bool) -> Run {
        let settings = self.settings();
        let mut allowed: Vec<bool> = scan.files.iter().map(|f| keep(&f.source)).collect();
        // The rules that read one file at a time need no graph: they run
        // on the other core while the graph is built on one.
        let (graph, per_file) = {
            let reported = (!allowed.iter().all(|&a| a)).then_some(&allowed[..]);
            rayon::join(
                || self.graph(&scan),
                || check::per_file(&scan, settings, reported),
            )
        };
        crate::timings::mark("graph");
        // The configuration files join the scan after the graph is built,
        // so that RL904 can point into them.
        let configs = report::attach_configs(&mut scan, settings);
        let known = allowed.len();
        allowed.extend(scan.files[known..].iter().map(|f| keep(&f.source)));
        let reported = (!allowed.iter().all(|&a| a)).then_some(&allowed[..]);
        let mut checked =
            check::with_graph(per_file, &scan, settings, graph.as_ref().ok(), reported);
        crate::timings::mark("rules");
        if let Err(notice) = &graph {
            checked.notices.push(notice.clone());
            checked.notices.sort();
        }
        let allowed = (!allowed.iter().all(|&a| a)).then_some(&allowed[..]);
        let mut report = report::select(&scan, checked, settings, &configs, allowed);
        crate::timings::mark("report");
        scan.notices.append(&mut report.notices);
        // The loops looked at and not taken are told for the files
        // reported only, like their findings.
        if let Some(allowed) = allowed {
            for (f, &reported) in scan.files.iter_mut().zip(allowed) {
                if !reported {
                    f.facts.loops_not_taken.clear();
                }
            }
        }
        Run {
            scan,
            graph: graph.ok(),
            report,
        }
    }

    /// The run's settings with the configuration files that apply to some
    /// of its files besides the run's own: the nearest one above each named
    /// path, and each one the walk passed. Each is read over the defaults
    /// with the command line's flags on top; a key that only the run's
    /// configuration can set ([`config::PER_RUN_KEYS`]) gets a notice.
    /// `None`: there are none.
    fn nested_configs(
        &self,
        named: &[PathBuf],
        walk: &crate::discover::Walk,
        notices: &mut Vec<Notice>,
    ) -> Result<Option<Settings>, String> {
        let s = self.settings;
        let used = s.config_file.as_deref().map(|f| abs(s, f));
        let mut found: Vec<PathBuf> = Vec::new();
        for path in named {
            let path = abs(s, path);
            let dir = match path.parent() {
                Some(dir) if path.is_file() => dir,
                _ => &path,
            };
            found.extend(config::discover(dir));
        }
        found.extend(
            walk.files
                .iter()
                .filter(|c| c.path.file_name().is_some_and(|n| n == config::FILE_NAME))
                .map(|c| abs(s, &c.path)),
        );
        found.retain(|f| Some(f) != used.as_ref());
        found.sort();
        found.dedup();
        if found.is_empty() {
            return Ok(None);
        }
        let run = match &used {
            Some(f) => format!(
                "the run's configuration, `{}`",
                crate::source::display_path(&s.shown(f))
            ),
            None => "a configuration file above every scanned path (the run has none)".into(),
        };
        let mut nested = Vec::with_capacity(found.len());
        for f in found {
            let mut n = Settings {
                cwd: s.cwd.clone(),
                ..Settings::default()
            };
            crate::config_file::load(&f, &mut n).map_err(|e| e.to_string())?;
            s.flags.apply(&mut n);
            let keys = n.per_run_keys_differing(s);
            if !keys.is_empty() {
                let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
                notices.push(Notice {
                    path: Some(crate::source::display_path(&s.shown(&f))),
                    message: format!(
                        "{} not applied: {} the whole run (one call graph, one cache), so only from {run}; set {} there, or check this folder on its own",
                        keys.join(", "),
                        if keys.len() == 1 { "it shapes" } else { "they shape" },
                        if keys.len() == 1 { "it" } else { "them" },
                    ),
                    internal: false,
                });
            }
            n.cache_dir = None;
            nested.push(n);
        }
        Ok(Some(Settings {
            nested,
            ..s.clone()
        }))
    }
}

/// Which configuration file a run reads.
#[derive(Clone, Copy, Debug)]
pub enum ConfigChoice<'a> {
    /// The nearest `.retrylint.toml` above the scanned paths.
    Discover,
    /// This file (`--config`).
    File(&'a Path),
    /// None (`--no-config`).
    None,
}

/// The settings of a run from `cwd` over `paths` (relative to `cwd`;
/// none: `cwd` itself): the defaults, then the configuration file. The
/// file discovered is the nearest `.retrylint.toml` above the scanned
/// paths, not above the working directory ([`config::discover_for`]).
pub fn configure(cwd: &Path, paths: &[PathBuf], choice: ConfigChoice) -> Result<Settings, String> {
    let mut settings = Settings {
        cwd: Some(cwd.to_path_buf()),
        ..Settings::default()
    };
    let dirs: Vec<PathBuf> = if paths.is_empty() {
        vec![cwd.to_path_buf()]
    } else {
        paths
            .iter()
            .map(|p| {
                let abs = config::normalise(&cwd.join(p));
                match abs.parent() {
                    Some(dir) if abs.is_file() => dir.to_path_buf(),
                    _ => abs,
                }
            })
            .collect()
    };
    let found = config::discover_for(&dirs);
    let file = match choice {
        ConfigChoice::None => None,
        ConfigChoice::File(f) if !cwd.join(f).is_file() => {
            return Err(format!("configuration file `{}` not found", f.display()));
        }
        ConfigChoice::File(f) => Some(f.to_path_buf()),
        ConfigChoice::Discover => found.file,
    };
    if let Some(f) = &file {
        crate::config_file::load(f, &mut settings).map_err(|e| e.to_string())?;
    }
    if settings.root.is_none() {
        settings.root = Some(config::repo_root(&found.start).unwrap_or(found.start));
    }
    Ok(settings)
}

/// `path` absolute (against the run's working directory) and normalised.
fn abs(settings: &Settings, path: &Path) -> PathBuf {
    config::normalise(&settings.resolve(path))
}
