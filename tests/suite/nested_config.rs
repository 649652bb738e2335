//! Configuration per file (issue 26): a run over nested projects checks
//! each file with the nearest `.retrylint.toml` above it, as ruff does.
//! `testdata/nested/` is the tree: an outer project, an inner one
//! (`projects/payments`, which ignores RL203, allows 10 attempts and
//! excludes `generated/`), and one inside that (`reports`, which selects
//! RL203 only).

use crate::common;

use assert_cmd::Command;
use serde_json::Value;

const OUTER: &str = "testdata/nested/application.yml:";
const OUTER_GENERATED: &str = "testdata/nested/generated/application.yml:";
const INNER: &str = "testdata/nested/projects/payments/application.yml";
const INNER_GENERATED: &str = "testdata/nested/projects/payments/generated/application.yml";
const INNERMOST: &str = "testdata/nested/projects/payments/reports/application.yml:";
const CONFIGS: &str = "config testdata/nested/.retrylint.toml, testdata/nested/projects/payments/.retrylint.toml, testdata/nested/projects/payments/reports/.retrylint.toml:";

fn check(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("retrylint")
        .unwrap()
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .args(["check", "--no-cache"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Whether `out` has a finding of `code` in `file`.
fn fires(out: &str, file: &str, code: &str) -> bool {
    of(out, file)
        .iter()
        .any(|l| l.contains(&format!(" {code} [")))
}

/// The lines of `out` that name `file`.
fn of<'a>(out: &'a str, file: &str) -> Vec<&'a str> {
    out.lines().filter(|l| l.starts_with(file)).collect()
}

#[test]
fn a_rule_the_inner_configuration_turns_off_fires_outside_it_only() {
    let root = common::root();
    let (code, out, err) = check(&root, &["--format", "concise", "testdata/nested"]);
    assert_eq!(code, 1, "{out}{err}");
    // Outside: the outer configuration (RL203 an error, 5 attempts at most).
    for file in [OUTER, OUTER_GENERATED] {
        let lines = of(&out, file);
        assert!(
            lines.iter().any(|l| l.contains("RL203 [error]"))
                && lines.iter().any(|l| l.contains("RL206 [warning]")),
            "{file}: {out}"
        );
    }
    // Inside: RL203 ignored, 8 attempts within the inner limit of 10 (the
    // file is read: RL102 fires), and the inner `generated/` never read.
    assert!(fires(&out, INNER, "RL102"), "{out}");
    assert!(
        !fires(&out, INNER, "RL203") && !fires(&out, INNER, "RL206"),
        "{out}"
    );
    assert!(!out.contains(INNER_GENERATED), "{out}");
    // Innermost: its own selection (RL203 only, at its default severity),
    // not the inner one merged into it.
    let innermost = of(&out, INNERMOST);
    assert_eq!(innermost.len(), 1, "{out}");
    assert!(innermost[0].contains("RL203 [warning]"), "{out}");
    // Every configuration used is named, and none is said not applied.
    assert!(err.contains(CONFIGS), "{err}");
    assert!(!err.contains("not applied"), "{err}");
    // JSON names them too, and the excluded file was not scanned.
    let (_, out, _) = check(&root, &["--format", "json", "testdata/nested"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["summary"]["config_files"],
        serde_json::json!([
            "testdata/nested/.retrylint.toml",
            "testdata/nested/projects/payments/.retrylint.toml",
            "testdata/nested/projects/payments/reports/.retrylint.toml"
        ])
    );
    assert!(!out.contains("payments/generated"), "{out}");
}

#[test]
fn the_outer_configuration_alone_fires_inside_too() {
    // The control: with one configuration for everything (`--config`),
    // the inner files are judged by the outer rules, so it is the inner
    // configuration that kept them quiet above.
    let root = common::root();
    let (_, out, err) = check(
        &root,
        &[
            "--format",
            "concise",
            "--config",
            "testdata/nested/.retrylint.toml",
            "testdata/nested",
        ],
    );
    let inner = of(&out, INNER);
    assert!(
        inner.iter().any(|l| l.contains("RL203 [error]"))
            && inner.iter().any(|l| l.contains("RL206")),
        "{out}"
    );
    assert!(out.contains(INNER_GENERATED), "{out}");
    assert!(
        err.contains("config testdata/nested/.retrylint.toml:"),
        "{err}"
    );
}

#[test]
fn files_given_one_by_one_take_their_own_configuration() {
    // As pre-commit passes them: the whole repository is read, and each
    // file reported with the configuration nearest it.
    let root = common::root();
    let (_, out, err) = check(
        &root,
        &[
            "--format",
            "concise",
            "testdata/nested/projects/payments/application.yml",
            "testdata/nested/application.yml",
        ],
    );
    assert!(
        of(&out, OUTER).iter().any(|l| l.contains("RL203 [error]")),
        "{out}"
    );
    assert!(fires(&out, INNER, "RL102"), "{out}");
    assert!(
        !fires(&out, INNER, "RL203") && !fires(&out, INNER, "RL206"),
        "{out}"
    );
    assert!(
        err.contains("testdata/nested/projects/payments/.retrylint.toml"),
        "{err}"
    );
    // From inside the inner project, `.` is the inner project alone.
    let (code, out, err) = check(
        &root.join("testdata/nested/projects/payments"),
        &["--format", "concise", "."],
    );
    assert_eq!(
        of(&out, "reports/application.yml:").len(),
        1,
        "{code} {out}{err}"
    );
    assert!(fires(&out, "application.yml:", "RL102"), "{out}");
    assert!(!fires(&out, "application.yml:", "RL203"), "{out}");
    assert!(
        err.contains("config .retrylint.toml, reports/.retrylint.toml:"),
        "{err}"
    );
}

#[test]
fn flags_apply_over_every_configuration() {
    // `--select RL206` replaces each file's selection; each keeps its own
    // `thresholds.max-attempts` (the inner 10 lets 8 attempts pass).
    let root = common::root();
    let (_, out, _) = check(
        &root,
        &[
            "--format",
            "concise",
            "--select",
            "RL206",
            "testdata/nested",
        ],
    );
    assert!(of(&out, OUTER).iter().all(|l| l.contains("RL206")), "{out}");
    assert_eq!(of(&out, OUTER).len(), 1, "{out}");
    assert!(of(&out, INNERMOST).len() == 1, "{out}");
    assert!(!out.contains(INNER), "{out}");
    assert!(!out.contains("RL203") && !out.contains("RL102"), "{out}");
}

fn write(path: &std::path::Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn nested_per_file_ignores_silence_their_folder_and_report_unused_entries_there() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    let yml = std::fs::read_to_string(
        common::root().join("testdata/rules/RL203/err/resilience4j-fixed-delay.yml"),
    )
    .unwrap();
    write(&root.join(".retrylint.toml"), "");
    write(&root.join("application.yml"), &yml);
    write(&root.join("inner/application.yml"), &yml);
    write(
        &root.join("inner/.retrylint.toml"),
        "[[per-file-ignores]]\npaths = [\"application.yml\"]\ncodes = [\"RL203\"]\nreason = \"fixed on purpose\"\n\n[[per-file-ignores]]\npaths = [\"nothing.yml\"]\ncodes = [\"RL206\"]\nreason = \"stale\"\n",
    );
    let (_, out, err) = check(root, &["--format", "concise", "."]);
    // The inner entry's `application.yml` is relative to its own folder: it
    // silences the inner file, not the outer one of the same name.
    assert!(fires(&out, "application.yml:", "RL203"), "{out}");
    assert!(!fires(&out, "inner/application.yml:", "RL203"), "{out}");
    // The entry that silences nothing is RL904 in the inner file.
    assert!(
        out.lines()
            .any(|l| l.starts_with("inner/.retrylint.toml:") && l.contains("RL904")),
        "{out}{err}"
    );
    assert!(err.contains("1 suppressed"), "{err}");
}

#[test]
fn a_nested_configuration_says_which_keys_only_the_run_reads() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    write(&root.join(".retrylint.toml"), "mesh = \"none\"\n");
    write(
        &root.join("inner/.retrylint.toml"),
        "mesh = \"istio\"\nselect = [\"RL2\"]\n[thresholds]\namplification = 30\n",
    );
    write(
        &root.join("inner/application.yml"),
        &std::fs::read_to_string(
            common::root().join("testdata/rules/RL203/err/resilience4j-fixed-delay.yml"),
        )
        .unwrap(),
    );
    let (_, out, err) = check(root, &["--format", "concise", "."]);
    assert!(out.contains("inner/application.yml:"), "{out}");
    assert!(
        err.contains("retrylint: inner/.retrylint.toml: `mesh`, `thresholds.amplification` not applied: they shape the whole run (one call graph, one cache), so only from the run's configuration, `.retrylint.toml`"),
        "{err}"
    );
    // A bad nested configuration stops the run like the run's own.
    write(&root.join("inner/.retrylint.toml"), "selct = []\n");
    let (code, _, err) = check(root, &["."]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("inner/.retrylint.toml:1:1: unknown key `selct`"),
        "{err}"
    );
}
