//! Issue 16: no setting may stall a scan. Each file of `testdata/stall/`
//! sets one format's attempt field to the largest value its type allows
//! (Envoy's uint32 `num_retries: 4294967295`, Resilience4j's
//! `maxAttempts: 2147483647` with an exponential backoff from 1 ms, ...)
//! next to a per-try timeout and a backoff, so that every quantity derived
//! from the attempts is computed. Each scan, rules and graph included,
//! must finish quickly (by hand with the release binary: well under
//! 100 ms each, see SECURITY.md; the bound here is loose for slow CI
//! machines and debug builds) without an internal error.

use crate::common;

use retrylint::config::Settings;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Scan one file the way `retrylint check` does (read, link, every rule,
/// the graph) and return the policies it found and how long it took.
fn scan(path: &Path) -> (usize, Duration) {
    let settings = Settings::default();
    let start = Instant::now();
    let retrylint::pipeline::Run { scan, report, .. } =
        retrylint::pipeline::Pipeline::new(&settings)
            .run(&[path.to_path_buf()])
            .expect("scan");
    let _ = retrylint::render::concise(&scan, &report.findings);
    let took = start.elapsed();
    let internal: Vec<_> = scan
        .notices
        .iter()
        .chain(&report.notices)
        .filter(|n| n.internal)
        .collect();
    assert!(internal.is_empty(), "{}: {internal:?}", path.display());
    let policies = scan.files.iter().map(|f| f.facts.policies.len()).sum();
    (policies, took)
}

#[test]
fn the_largest_attempt_count_of_every_format_scans_quickly() {
    let dir = common::root().join("testdata/stall");
    let mut all = Vec::new();
    files(&dir, &mut all);
    assert!(all.len() >= 18, "{all:?}");
    let mut slow = Vec::new();
    for path in &all {
        let (policies, took) = scan(path);
        // A fixture nothing reads would prove nothing.
        assert!(policies > 0, "{}: no policy read", path.display());
        if took > Duration::from_secs(2) {
            slow.push(format!("{}: {took:?}", path.display()));
        }
    }
    assert!(slow.is_empty(), "scans that stalled: {slow:#?}");
}
