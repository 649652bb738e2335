//! `retrylint facts` (one repository's facts, for joining) and the join
//! of `retrylint audit --facts` ([`crate::org`]).

use super::{ConfigArgs, settings};
use crate::org::{self, Repository};
use crate::pipeline::{Pipeline, Run};
use crate::render;
use crate::{Scan, config};
use clap::Args;
use std::path::{Path, PathBuf};

pub const EXAMPLES: &str = "Examples:
  retrylint facts . --out orders.facts.json      what this repository says, to join later
  retrylint audit --facts orders.facts.json payments.facts.json --out org-report
                                                 one graph of several repositories";

#[derive(Args, Debug)]
pub struct FactsArgs {
    /// The repository to read (its root: the folder holding `.git`).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Where to write the facts (JSON); `-` for stdout.
    #[arg(long, default_value = "-")]
    pub out: PathBuf,
    /// The name its files are shown under when joined (default: the
    /// repository's folder name).
    #[arg(long)]
    pub name: Option<String>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

/// `retrylint facts`.
pub fn facts(args: &FactsArgs, cwd: &Path) -> i32 {
    match facts_inner(args, cwd) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("retrylint: {}", render::sanitize(&e));
            2
        }
    }
}

fn facts_inner(args: &FactsArgs, cwd: &Path) -> Result<(), String> {
    let path = config::normalise(&cwd.join(&args.path));
    if !path.is_dir() {
        return Err(format!(
            "{}: not a directory (facts are of a repository)",
            crate::source::display_path(&args.path)
        ));
    }
    let root = org::repository_root(&path);
    let roots = vec![args.path.clone()];
    let settings = settings(&args.config, cwd, &roots)?;
    let scan = Pipeline::new(&settings)
        .nearest_configs(super::discovered(&args.config, &roots))
        .scan(&roots)?;
    if scan.notices.iter().any(|n| n.internal) {
        super::print_notices(&scan.notices);
        return Err("internal errors while reading: no facts written".into());
    }
    let name = match &args.name {
        Some(n) => n.clone(),
        None => root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "repository".into()),
    };
    let repository = Repository {
        name,
        commit: org::head_commit(&root),
    };
    let export = org::export(&scan, &root, cwd, repository);
    let json = serde_json::to_string(&export).map_err(|e| e.to_string())?;
    // What is written must read back: a name that is no folder name is
    // refused here, not in the nightly join.
    org::parse(&json)?;
    if args.out.as_os_str() == "-" {
        println!("{json}");
    } else {
        std::fs::write(&args.out, json + "\n").map_err(|e| {
            format!(
                "cannot write {}: {e}",
                crate::source::display_path(&args.out)
            )
        })?;
    }
    super::print_notices(&scan.notices);
    Ok(())
}

/// `audit --facts`: the facts files' repositories and the local `paths`
/// (each scanned and linked as `check` would) in one run: one graph, the
/// rules over it. The roots shown are the repositories' names and the
/// paths.
pub fn joined_run(
    facts: &[PathBuf],
    paths: &[PathBuf],
    config_args: &ConfigArgs,
    cwd: &Path,
) -> Result<(Run, Vec<String>), String> {
    let exports = facts
        .iter()
        .map(|f| org::read(&cwd.join(f)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut roots: Vec<String> = exports
        .iter()
        .map(|e| match &e.repository.commit {
            Some(c) => format!("{} @ {}", e.repository.name, &c[..c.len().min(12)]),
            None => e.repository.name.clone(),
        })
        .collect();
    let settings_paths: Vec<PathBuf> = if paths.is_empty() {
        vec![cwd.to_path_buf()]
    } else {
        paths.to_vec()
    };
    let settings = settings(config_args, cwd, &settings_paths)?;
    let pipeline = Pipeline::new(&settings).nearest_configs(super::discovered(config_args, paths));
    let mut scan = if paths.is_empty() {
        Scan {
            cwd: settings.cwd.clone(),
            ..Scan::default()
        }
    } else {
        roots.extend(paths.iter().map(|p| crate::source::display_path(p)));
        pipeline.scan(paths)?
    };
    let imported = org::files_of(exports);
    scan.stats.files_seen += imported.len();
    scan.stats.files_parsed += imported.len();
    scan.files.extend(imported);
    Ok((pipeline.after_scan(scan, |_| true), roots))
}
