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

/// What a run produced: the files read, their call graph (`None` when its
/// stage stopped: a notice says so) and what is reported.
#[derive(Debug, Default)]
pub struct Run {
    pub scan: Scan,
    pub graph: Option<Graph>,
    pub report: Report,
}

/// The stages of a run over some roots with one configuration.
pub struct Pipeline<'a> {
    settings: &'a Settings,
    progress: &'a dyn Progress,
    /// The paths the user named, when the configuration was discovered
    /// (not named with `--config` nor turned off): the run says which
    /// configuration files in or above them it does not apply.
    named: Option<&'a [PathBuf]>,
}

impl<'a> Pipeline<'a> {
    pub fn new(settings: &'a Settings) -> Self {
        Pipeline {
            settings,
            progress: &(),
            named: None,
        }
    }

    /// Tell `progress` how the scan advances.
    pub fn progress(mut self, progress: &'a dyn Progress) -> Self {
        self.progress = progress;
        self
    }

    /// Add a notice for each configuration file in or above `named` (the
    /// paths the user named) that the run does not apply; `None`: none.
    pub fn config_notices(mut self, named: Option<&'a [PathBuf]>) -> Self {
        self.named = named;
        self
    }

    pub fn settings(&self) -> &Settings {
        self.settings
    }

    /// Walk `roots`, read, extract and link every file.
    pub fn scan(&self, roots: &[PathBuf]) -> Result<Scan, String> {
        let mut scan = crate::scan_with_progress(roots, self.settings, self.progress)?;
        scan.stats.config_files = self
            .settings
            .config_file
            .iter()
            .map(|f| crate::source::display_path(&self.settings.shown(f)))
            .collect();
        if let Some(named) = self.named {
            self.unapplied_configs(&mut scan, named);
        }
        Ok(scan)
    }

    /// The call graph of a scan, under the stage's time and panic guard.
    pub fn graph(&self, scan: &Scan) -> Result<Graph, Notice> {
        guard::run(guard::budget(guard::STAGE_BUDGET), || {
            guard::inject("graph");
            crate::graph::build(&scan.files, self.settings)
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

    /// The stages after the scan, for a scan read elsewhere.
    pub fn after_scan(&self, mut scan: Scan, keep: impl Fn(&SourceFile) -> bool) -> Run {
        let graph = self.graph(&scan);
        // The configuration file joins the scan after the graph is built,
        // so that RL904 can point into it.
        let config = report::attach_config(&mut scan, self.settings);
        let allowed: Vec<bool> = scan.files.iter().map(|f| keep(&f.source)).collect();
        let mut checked = check::run(&scan, self.settings, graph.as_ref().ok());
        if let Err(notice) = &graph {
            checked.notices.push(notice.clone());
            checked.notices.sort();
        }
        let allowed = (!allowed.iter().all(|&a| a)).then_some(&allowed[..]);
        let mut report = report::select(&scan, checked, self.settings, config, allowed);
        scan.notices.append(&mut report.notices);
        Run {
            scan,
            graph: graph.ok(),
            report,
        }
    }

    /// One notice per configuration the run does not apply: the nearest
    /// one of a named path that is not the run's, and each one below a
    /// named folder. One run reads one configuration.
    fn unapplied_configs(&self, scan: &mut Scan, named: &[PathBuf]) {
        let s = self.settings;
        let used = s.config_file.as_deref().map(|f| abs(s, f));
        let applied = match &s.config_file {
            Some(f) => format!("`{}`", crate::source::display_path(&s.shown(f))),
            None => "no configuration file".into(),
        };
        let named: Vec<PathBuf> = named.iter().map(|p| abs(s, p)).collect();
        let mut unapplied: Vec<PathBuf> = Vec::new();
        for path in &named {
            let dir = match path.parent() {
                Some(dir) if path.is_file() => dir,
                _ => path,
            };
            unapplied.extend(config::discover(dir));
        }
        unapplied.extend(
            scan.stats
                .configs_seen
                .iter()
                .map(|f| abs(s, f))
                .filter(|f| named.iter().any(|p| f.starts_with(p))),
        );
        unapplied.retain(|f| Some(f) != used.as_ref());
        unapplied.sort();
        unapplied.dedup();
        for f in unapplied {
            let dir = crate::source::display_path(&s.shown(f.parent().unwrap_or(Path::new("."))));
            scan.notices.push(Notice {
                path: Some(crate::source::display_path(&s.shown(&f))),
                message: format!(
                    "not applied: one run reads one configuration, and this one reads {applied}; check `{}` on its own to apply it",
                    if dir.is_empty() { "." } else { &dir }
                ),
                internal: false,
            });
        }
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
