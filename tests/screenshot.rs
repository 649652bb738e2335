//! docs/audit-report.png: the audit report of `testdata/monorepo`, rendered
//! by `scripts/screenshot-report.sh` with headless Chromium. This test
//! renders it from a fresh `retrylint audit` and checks the picture;
//! `UPDATE_SCREENSHOT=1 cargo test --test screenshot` also writes it to
//! docs/audit-report.png, so the picture in the README is always the
//! output of the current code. Without Chromium the trial is reported as
//! ignored, and fails under `CI=true` (tests/common/needs.rs).

mod common;

use common::needs::Need;
use std::process::{Command, ExitCode};

const WIDTH: u32 = 1400;
const HEIGHT: u32 = 2100;
const DOC: &str = "docs/audit-report.png";

fn main() -> ExitCode {
    let trials = vec![trial!(&[Need::Chromium], the_audit_screenshot_renders)];
    common::needs::run(include_str!("screenshot.rs"), trials)
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert_eq!(&bytes[12..16], b"IHDR");
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

fn the_audit_screenshot_renders() {
    let root = common::root();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("audit");
    let status = Command::new(assert_cmd::cargo::cargo_bin("retrylint"))
        .current_dir(&root)
        .args(["audit", "-q", "--no-cache", "testdata/monorepo", "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success(), "retrylint audit failed: {status}");
    let png = dir.path().join("audit-report.png");
    let run = Command::new("bash")
        .arg(root.join("scripts/screenshot-report.sh"))
        .arg(out.join("report.html"))
        .arg(&png)
        .arg(format!("{WIDTH},{HEIGHT}"))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let bytes = std::fs::read(&png).expect("the script wrote the picture");
    assert_eq!(png_size(&bytes), (WIDTH, HEIGHT));
    // A page that failed to load is one colour and compresses to little.
    assert!(bytes.len() > 50_000, "{} bytes: a blank page?", bytes.len());
    if std::env::var_os("UPDATE_SCREENSHOT").is_some() {
        std::fs::write(root.join(DOC), &bytes).unwrap();
        eprintln!("wrote {DOC}");
    }
}
