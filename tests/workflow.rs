//! Running retrylint in a repository: `.retrylint.toml` discovery and
//! errors, `retrylint config`, overrides, suppressions, baselines,
//! `--changed-since`, and explicit files (pre-commit).

mod common;

use assert_cmd::Command;
use std::path::Path;

// Only RL203 fires on BAD, nothing on GOOD (a retry predicate keeps RL102
// quiet).
const BAD: &str = "resilience4j.retry:\n  instances:\n    payments:\n      maxAttempts: 3\n      waitDuration: 100ms\n      retryExceptions: [java.io.IOException]\n";
const GOOD: &str = "resilience4j.retry:\n  instances:\n    payments:\n      maxAttempts: 3\n      waitDuration: 100ms\n      enableExponentialBackoff: true\n      enableRandomizedWait: true\n      retryExceptions: [java.io.IOException]\n";

fn cmd(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("retrylint").unwrap();
    c.current_dir(dir).env_remove("NO_COLOR");
    c
}

fn run(c: &mut Command) -> (i32, String, String) {
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A repository root (a `.git` directory, no git needed).
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    dir
}

fn concise(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut a = vec!["check", "--format", "concise"];
    a.extend_from_slice(args);
    run(cmd(dir).args(&a))
}

#[test]
fn the_config_file_is_found_upward_and_flags_override_it() {
    let dir = repo();
    write(dir.path(), ".retrylint.toml", "ignore = [\"RL203\"]\n");
    write(dir.path(), "svc/app/application.yml", BAD);
    let sub = dir.path().join("svc/app");
    let (code, out, _) = concise(&sub, &["."]);
    assert_eq!(code, 0, "RL203 ignored by the file: {out}");
    let (code, out, _) = concise(&sub, &["--ignore", "RL206", "."]);
    assert_eq!(code, 1, "--ignore replaces the file's ignore: {out}");
    assert!(out.contains("RL203"));
    let (code, _, _) = concise(&sub, &["--no-config", "."]);
    assert_eq!(code, 1);
    // --config names another file.
    write(dir.path(), "other.toml", "select = [\"RL9\"]\n");
    let (code, out, _) = concise(&sub, &["--config", "../../other.toml", "."]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn bad_config_stops_the_run_with_file_line_column_and_a_suggestion() {
    let dir = repo();
    write(
        dir.path(),
        ".retrylint.toml",
        "select = [\"RL2\"]\nselct = [\"RL203\"]\n",
    );
    write(dir.path(), "application.yml", BAD);
    let (code, out, err) = concise(dir.path(), &["."]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains(".retrylint.toml:2:1: unknown key `selct` (did you mean `select`?)"),
        "{err}"
    );
    write(
        dir.path(),
        ".retrylint.toml",
        "[thresholds]\nmax-attempts = -1\n",
    );
    let (code, _, err) = concise(dir.path(), &["."]);
    assert_eq!(code, 2);
    assert!(err.contains(".retrylint.toml:2:16:"), "{err}");
    write(dir.path(), ".retrylint.toml", "mesh = \"consul\"\n");
    let (code, _, err) = run(cmd(dir.path()).arg("config"));
    assert_eq!(code, 2);
    assert!(
        err.contains("`mesh` must be `auto`, `istio`, `linkerd` or `none`"),
        "{err}"
    );
    assert!(err.starts_with("retrylint: .retrylint.toml:1:8:"), "{err}");
    let (code, _, err) = concise(dir.path(), &["--config", "missing.toml", "."]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.toml"), "{err}");
}

#[test]
fn config_prints_the_effective_configuration() {
    let dir = repo();
    write(
        dir.path(),
        ".retrylint.toml",
        "ignore = [\"RL206\"]\nmesh = \"istio\"\n[severity]\nRL203 = \"error\"\n[thresholds]\namplification = 27\n[[services]]\nname = \"orders\"\npaths = [\"services/orders/**\"]\n[[edges]]\nfrom = \"gateway\"\nto = \"orders\"\n",
    );
    let (code, out, err) = run(cmd(dir.path()).args(["config", "--select", "RL2"]));
    assert_eq!(code, 0, "{err}");
    let v: toml::Table = toml::from_str(&out).expect("TOML");
    assert_eq!(v["select"].as_array().unwrap()[0].as_str(), Some("RL2"));
    assert_eq!(v["ignore"].as_array().unwrap()[0].as_str(), Some("RL206"));
    assert_eq!(v["mesh"].as_str(), Some("istio"));
    assert_eq!(v["severity"]["RL203"].as_str(), Some("error"));
    assert_eq!(v["severity"]["RL206"].as_str(), Some("warning"));
    assert_eq!(v["thresholds"]["amplification"].as_integer(), Some(27));
    assert_eq!(v["services"][0]["name"].as_str(), Some("orders"));
    assert_eq!(v["edges"][0]["to"].as_str(), Some("orders"));
    assert!(out.starts_with("# effective configuration: "), "{out}");
}

#[test]
fn overrides_change_selection_and_severity_per_path() {
    let dir = repo();
    write(
        dir.path(),
        ".retrylint.toml",
        "[severity]\nRL203 = \"error\"\n[[overrides]]\npaths = [\"legacy/\"]\nignore = [\"RL203\"]\n[[overrides]]\npaths = [\"batch/**\"]\nseverity = { RL203 = \"info\" }\n",
    );
    write(dir.path(), "legacy/application.yml", BAD);
    write(dir.path(), "batch/application.yml", BAD);
    write(dir.path(), "web/application.yml", BAD);
    let (_, out, _) = concise(dir.path(), &["."]);
    assert!(!out.contains("legacy/"), "{out}");
    assert!(
        out.contains("batch/application.yml:5:7: RL203 [info]"),
        "{out}"
    );
    assert!(
        out.contains("web/application.yml:5:7: RL203 [error]"),
        "{out}"
    );
}

#[test]
fn suppressions_silence_and_are_counted() {
    let dir = repo();
    write(
        dir.path(),
        "a/application.yml",
        "resilience4j.retry:\n  instances:\n    payments:\n      maxAttempts: 3\n      # retrylint: ignore[RL203] the downstream serialises requests\n      waitDuration: 100ms\n      retryExceptions: [java.io.IOException]\n",
    );
    write(
        dir.path(),
        "b/application.yml",
        "# retrylint: ignore-file[RL203,RL206]\nresilience4j.retry:\n  instances:\n    payments:\n      maxAttempts: 3\n      waitDuration: 100ms\n      retryExceptions: [java.io.IOException]\n",
    );
    let (code, out, err) = concise(dir.path(), &["."]);
    assert_eq!(code, 1, "RL206 in b/ silences nothing: {out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.contains("b/application.yml:1:32: RL904 [warning] suppression of `RL206` silences nothing in this file"),
        "{out}"
    );
    assert!(
        err.contains("(2 suppressed, 1 suppression without a reason)"),
        "{err}"
    );
    // Selecting other rules does not make suppressions look unused.
    let (code, out, _) = concise(dir.path(), &["--select", "RL203", "."]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn per_file_ignores_silence_by_path_and_report_unused_entries() {
    let dir = repo();
    write(
        dir.path(),
        ".retrylint.toml",
        "[[per-file-ignores]]\npaths = [\"generated/*.yml\"]\ncodes = [\"RL203\"]\nreason = \"generated\"\n\n[[per-file-ignores]]\npaths = [\"nowhere/**\"]\ncodes = [\"unjittered-backoff\"]\n",
    );
    write(dir.path(), "generated/application.yml", BAD);
    let (code, out, err) = concise(dir.path(), &["."]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        out.trim(),
        ".retrylint.toml:6:1: RL904 [warning] `[[per-file-ignores]]` entry for `unjittered-backoff` silences nothing",
        "{err}"
    );
}

#[test]
fn a_baseline_hides_known_findings_even_after_lines_move() {
    let dir = repo();
    write(dir.path(), "application.yml", BAD);
    let (code, _, err) = concise(dir.path(), &["--write-baseline", "baseline.json", "."]);
    assert_eq!(code, 0, "{err}");
    let b: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("baseline.json")).unwrap())
            .unwrap();
    assert_eq!(b["findings"][0]["code"], "RL203");
    // Insert lines above the finding: it stays in the baseline.
    write(
        dir.path(),
        "application.yml",
        &format!("# owned by payments\n# see runbook\n\n{BAD}"),
    );
    let (code, out, err) = concise(dir.path(), &["--baseline", "baseline.json", "."]);
    assert_eq!(code, 0, "{out}");
    assert!(out.is_empty());
    assert!(err.contains("1 in the baseline"), "{err}");
    // A new finding is reported.
    write(
        dir.path(),
        "application.yml",
        &format!(
            "{BAD}    orders:\n      maxAttempts: 3\n      waitDuration: 2s\n      retryExceptions: [java.io.IOException]\n"
        ),
    );
    let (code, out, _) = concise(dir.path(), &["--baseline", "baseline.json", "."]);
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("`orders`"), "{out}");
    // A broken baseline is a usage error.
    write(dir.path(), "bad.json", "{\"version\": 9}");
    let (code, _, err) = concise(dir.path(), &["--baseline", "bad.json", "."]);
    assert_eq!(code, 2);
    assert!(err.contains("version"), "{err}");
}

fn git(dir: &Path, args: &[&str]) {
    let ok = std::process::Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .output()
        .unwrap();
    assert!(ok.status.success(), "git {args:?}: {ok:?}");
}

#[test]
fn changed_since_reports_only_changed_and_untracked_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(d, "a/application.yml", BAD);
    write(d, "b/application.yml", BAD);
    write(d, "c/application.yml", BAD);
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "base"]);
    write(d, "a/application.yml", &format!("{BAD}      # edited\n"));
    write(d, "new/application.yml", BAD);
    let (code, out, err) = concise(d, &["--changed-since", "HEAD", "."]);
    assert_eq!(code, 1, "{err}");
    let files: Vec<&str> = out.lines().map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(files, ["a/application.yml", "new/application.yml"], "{out}");
    assert!(err.contains("2 in files not reported"), "{err}");
    // From a subdirectory: the whole repository is read, only changed
    // files below the given path are reported, and paths still line up.
    let (_, out, err) = concise(&d.join("a"), &["--changed-since", "HEAD", "."]);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("application.yml:"), "{out}");
    assert!(err.starts_with("4 files scanned"), "{err}");
    // Outside a repository it is a usage error.
    let outside = tempfile::tempdir().unwrap();
    let (code, _, err) = concise(outside.path(), &["--changed-since", "HEAD", "."]);
    assert_eq!(code, 2);
    assert!(err.contains("needs a git repository"), "{err}");
    // Option injection and unknown revisions are usage errors.
    let (code, _, err) = concise(d, &["--changed-since=--output=x", "."]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = concise(d, &["--changed-since", "no-such-ref", "."]);
    assert_eq!(code, 2);
    assert!(err.contains("git diff"), "{err}");
}

#[test]
fn explicit_files_read_the_repository_and_report_only_them() {
    let dir = repo();
    let d = dir.path();
    write(d, "a/application.yml", BAD);
    write(d, "b/application.yml", BAD);
    write(d, "c/application.yml", GOOD);
    let (code, out, err) = concise(d, &["a/application.yml", "c/application.yml"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("a/application.yml:"), "{out}");
    assert!(
        err.starts_with("3 files scanned"),
        "the whole repository is read: {err}"
    );
    let (code, out, _) = concise(d, &["c/application.yml"]);
    assert_eq!(code, 0, "{out}");
    // Another file's findings and suppressions stay out of the report:
    // counted (before suppression), never shown, never unused.
    write(
        d,
        "b/application.yml",
        &format!(
            "# retrylint: ignore[RL999] no such rule
{BAD}"
        ),
    );
    let (code, out, err) = concise(d, &["a/application.yml"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.lines().all(|l| l.starts_with("a/application.yml:")),
        "{out}"
    );
    assert!(!out.contains("RL904"), "{out}");
    assert!(err.contains("1 in files not reported"), "{err}");
}

#[test]
fn readme_configuration_reference_is_generated_from_the_keys() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let start = readme
        .find("<!-- config:start -->\n")
        .expect("README has <!-- config:start -->")
        + "<!-- config:start -->\n".len();
    let end = readme
        .find("<!-- config:end -->")
        .expect("<!-- config:end -->");
    assert_eq!(
        &readme[start..end],
        retrylint::config_file::reference_markdown(),
        "the README configuration reference is stale: replace it with `retrylint config --reference`"
    );
}

#[test]
fn the_graph_command_reads_the_configuration() {
    let dir = repo();
    write(dir.path(), "orders/application.yml", BAD);
    let (_, without, _) = run(cmd(dir.path()).args(["graph", "--format", "mermaid", "."]));
    assert!(!without.contains("gateway"), "{without}");
    write(
        dir.path(),
        ".retrylint.toml",
        "[[services]]\nname = \"orders\"\npaths = [\"orders/**\"]\n[[edges]]\nfrom = \"gateway\"\nto = \"orders\"\n",
    );
    let (code, with, err) = run(cmd(dir.path()).args(["graph", "--format", "mermaid", "."]));
    assert_eq!(code, 0, "{err}");
    assert!(
        with.contains("gateway") && with.contains("orders"),
        "{with}"
    );
    write(
        dir.path(),
        ".retrylint.toml",
        "[[edges]]\nfrom = \"gateway\"\n",
    );
    let (code, _, err) = run(cmd(dir.path()).args(["graph", "."]));
    assert_eq!(code, 2);
    assert!(err.contains("needs `to`"), "{err}");
}
