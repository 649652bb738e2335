//! Helpers shared by the integration tests.
#![allow(dead_code)]

use retrylint::config::Settings;
use retrylint::rules::Finding;
use retrylint::{Scan, render};
use std::path::{Path, PathBuf};

pub mod graph;
pub mod needs;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Scan `path` (relative to the crate root) with only `select` enabled.
pub fn run(path: &Path, select: &[&str]) -> (Scan, Vec<Finding>) {
    let settings = Settings {
        select: select.iter().map(|s| s.to_string()).collect(),
        ..Settings::default()
    };
    // The whole pipeline: every rule, the suppression pass, then `select`.
    let run = retrylint::pipeline::Pipeline::new(&settings)
        .run(&[path.to_path_buf()])
        .expect("scan");
    (run.scan, run.report.findings)
}

pub fn concise(scan: &Scan, findings: &[Finding]) -> String {
    render::concise(scan, findings)
}

pub fn pretty(scan: &Scan, findings: &[Finding]) -> String {
    render::pretty::render(scan, findings, false, 100)
}

/// `$RETRYLINT_SHARED` or `../shared`, which must hold `corpus/`: a test
/// that calls this is a trial with [`needs::Need::Shared`], so it is only
/// run when the folder is there (or under `CI=true`, where it then fails).
pub fn shared_dir() -> PathBuf {
    if let Some(why) = needs::Need::Shared.missing() {
        panic!("{why}");
    }
    needs::shared_path()
}
