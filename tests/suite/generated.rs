//! Generated code (testdata/graph/generated-code/README.md): skipped and
//! counted by default, read when the configuration says so or the file is
//! named, the same with a warm cache.

use crate::common;

use assert_cmd::Command;
use retrylint::config::Settings;
use std::path::PathBuf;

const FIXTURE: &str = "testdata/graph/generated-code";

fn findings_in(settings: &Settings) -> (Vec<String>, usize) {
    let run = retrylint::pipeline::Pipeline::new(settings)
        .run(&[PathBuf::from(FIXTURE)])
        .unwrap();
    let mut at: Vec<String> = run
        .report
        .findings
        .iter()
        .map(|f| format!("{} {}", run.scan.file(f.file).display_path(), f.rule.code))
        .collect();
    at.sort();
    (at, run.scan.stats.generated_files)
}

#[test]
fn generated_code_is_skipped_and_counted_unless_read() {
    let (at, generated) = findings_in(&Settings::default());
    assert_eq!(
        at,
        [
            "testdata/graph/generated-code/storage/membership.go RL201",
            "testdata/graph/generated-code/storage/membership.go RL205",
        ]
    );
    assert_eq!(generated, 1);
    let read = Settings {
        read_generated_code: true,
        ..Settings::default()
    };
    let (at, generated) = findings_in(&read);
    assert_eq!(at.len(), 4, "{at:?}");
    assert!(
        at.iter().any(|f| f.contains("zz_generated.membership.go")),
        "{at:?}"
    );
    assert_eq!(generated, 0);
}

/// The command line's summary and JSON, cold and warm, and a run with the
/// other setting over the same cache.
#[test]
fn a_warm_run_and_the_other_setting_tell_the_same_as_a_cold_one() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("tree");
    for rel in ["storage/membership.go", "api/zz_generated.membership.go"] {
        let to = dir.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(common::root().join(FIXTURE).join(rel), to).unwrap();
    }
    let cache = t.path().join("cache");
    let run = |extra: &[&str]| {
        let out = Command::cargo_bin("retrylint")
            .unwrap()
            .current_dir(&dir)
            .args(["check", "--format", "json", "--cache-dir"])
            .arg(&cache)
            .args(extra)
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let files: Vec<String> = json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["file"].as_str().unwrap().to_string())
            .collect();
        (files, json["summary"]["generated_files"].as_u64().unwrap())
    };
    let cold = run(&["."]);
    assert_eq!(cold.1, 1);
    assert!(
        cold.0.iter().all(|f| f == "storage/membership.go"),
        "{cold:?}"
    );
    assert_eq!(run(&["."]), cold, "warm");
    // Named, the file is read; what that gave is not kept for a run that
    // skips it.
    let named = run(&["api/zz_generated.membership.go"]);
    assert!(
        named
            .0
            .iter()
            .any(|f| f == "api/zz_generated.membership.go"),
        "{named:?}"
    );
    assert_eq!(run(&["."]), cold, "warm after a named run");
    std::fs::write(dir.join(".retrylint.toml"), "generated-code = \"read\"\n").unwrap();
    let read = run(&["."]);
    assert_eq!(read.1, 0);
    assert!(
        read.0.iter().any(|f| f == "api/zz_generated.membership.go"),
        "{read:?}"
    );
    std::fs::remove_file(dir.join(".retrylint.toml")).unwrap();
    assert_eq!(run(&["."]), cold, "back to skipping, warm");
}

/// A file named on the command line is read whatever wrote it.
#[test]
fn a_named_generated_file_is_read() {
    let t = tempfile::tempdir().unwrap();
    let file = t.path().join("zz_generated.membership.go");
    std::fs::copy(
        common::root()
            .join(FIXTURE)
            .join("api/zz_generated.membership.go"),
        &file,
    )
    .unwrap();
    let out = Command::cargo_bin("retrylint")
        .unwrap()
        .current_dir(t.path())
        .args(["check", "--no-cache", "--format", "concise"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("zz_generated.membership.go"), "{stdout}");
    assert!(stdout.contains("RL201"), "{stdout}");
}
