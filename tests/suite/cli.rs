//! The command line: exit codes, formats, `rules`, `explain`, `--help`.

use crate::common;

use assert_cmd::Command;

fn cmd() -> Command {
    let mut c = Command::cargo_bin("retrylint").unwrap();
    c.current_dir(common::root()).env_remove("NO_COLOR");
    c
}

fn stdout(c: &mut Command) -> (i32, String, String) {
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn clean_files_exit_zero() {
    let (code, out, err) = stdout(cmd().args(["check", "testdata/clean"]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.is_empty());
    assert!(err.contains("files scanned"), "summary line: {err}");
    assert!(
        err.contains("resilience4j 1") && err.contains("istio 1"),
        "per-extractor counts: {err}"
    );
}

#[test]
fn findings_exit_one_and_fail_on_sets_the_bar() {
    let (code, out, _) = stdout(cmd().args(["check", "testdata/rules/RL203/err"]));
    assert_eq!(code, 1);
    assert!(out.contains("RL203 unjittered-backoff"), "{out}");
    // Warnings do not fail with --fail-on error (one file: the folder also
    // holds an unbounded loop, an RL205 error, besides its RL203).
    let only_warnings = "testdata/rules/RL203/err/properties-fixed-delay.properties";
    let (code, _, _) = stdout(cmd().args(["check", "--fail-on", "error", only_warnings]));
    assert_eq!(code, 0);
    let (code, _, _) =
        stdout(cmd().args(["check", "--fail-on", "error", "testdata/rules/RL301/err"]));
    assert_eq!(code, 1);
    // Info findings fail only with --fail-on info (RL403 is an info; its
    // fixtures may hold warnings of other rules).
    let (code, _, _) =
        stdout(cmd().args(["check", "--select", "RL403", "testdata/rules/RL403/err"]));
    assert_eq!(code, 0);
    let (code, _, _) = stdout(cmd().args([
        "check",
        "--select",
        "RL403",
        "--fail-on",
        "info",
        "testdata/rules/RL403/err",
    ]));
    assert_eq!(code, 1);
}

#[test]
fn usage_errors_exit_two() {
    let (code, _, err) = stdout(cmd().args(["check", "--select", "RL999", "testdata"]));
    assert_eq!(code, 2);
    assert!(err.contains("matches no rule"), "{err}");
    let (code, _, err) = stdout(cmd().args(["check", "no/such/path"]));
    assert_eq!(code, 2);
    assert!(err.contains("no/such/path"), "{err}");
    let (code, _, _) = stdout(cmd().args(["check", "--format", "xml"]));
    assert_eq!(code, 2);
    let (code, _, err) = stdout(cmd().args(["explain", "RL999"]));
    assert_eq!(code, 2);
    assert!(err.contains("no rule"), "{err}");
}

#[test]
fn a_broken_file_is_a_finding_not_an_error() {
    let (code, out, _) =
        stdout(cmd().args(["check", "--format", "concise", "testdata/rules/RL903/err"]));
    assert_eq!(code, 1);
    assert!(out.contains("RL903"), "{out}");
}

#[test]
fn select_and_ignore_filter_rules() {
    let (_, out, _) = stdout(cmd().args([
        "check",
        "--format",
        "concise",
        "--ignore",
        "RL203",
        "testdata/rules/RL203/err",
    ]));
    assert!(!out.contains(" RL203 "), "{out}");
    let (_, out, _) = stdout(cmd().args([
        "check",
        "--format",
        "concise",
        "--select",
        "RL9",
        "testdata/rules/RL902/err",
    ]));
    assert!(out.lines().all(|l| l.contains(" RL9")), "{out}");
    let (_, out, _) = stdout(cmd().args([
        "check",
        "--format",
        "concise",
        "--select",
        "unjittered-backoff",
        "testdata/rules/RL203/err",
    ]));
    assert!(
        out.lines().count() >= 3 && out.lines().all(|l| l.contains(" RL203 ")),
        "{out}"
    );
}

#[test]
fn exclude_skips_paths() {
    // Every fixture of the folder matches the glob, whatever its format.
    let (code, out, err) = stdout(cmd().args([
        "check",
        "--format",
        "concise",
        "--exclude",
        "err/*",
        "testdata/rules/RL203/err",
    ]));
    assert_eq!(code, 0, "{out}");
    assert!(err.contains("0 files scanned"), "{err}");
    let (code, _, _) =
        stdout(cmd().args(["check", "--exclude", "*.toml", "testdata/rules/RL203/err"]));
    assert_eq!(code, 1, "a glob that matches nothing excludes nothing");
}

#[test]
fn json_output_matches_its_schema() {
    let (code, out, _) = stdout(cmd().args(["check", "--format", "json", "testdata/rules"]));
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(common::root().join("docs/json-output.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let findings = doc["findings"].as_array().unwrap();
    assert!(findings.len() > 20);
    let f = &findings[0];
    assert!(f["range"]["start"]["line"].as_u64().unwrap() >= 1);
    // Related locations are carried through.
    assert!(
        findings
            .iter()
            .any(|f| !f["related"].as_array().unwrap().is_empty())
    );
    // Fingerprints are unique.
    let mut prints: Vec<&str> = findings
        .iter()
        .map(|f| f["fingerprint"].as_str().unwrap())
        .collect();
    prints.sort();
    prints.dedup();
    assert_eq!(prints.len(), findings.len());
}

#[test]
fn pretty_output_has_no_colour_off_a_terminal_or_under_no_color() {
    let (_, out, _) = stdout(cmd().args(["check", "testdata/rules/RL203/err"]));
    assert!(
        !out.contains('\u{1b}'),
        "no escape codes when stdout is not a terminal"
    );
    let (_, out, _) = stdout(
        cmd()
            .env("NO_COLOR", "1")
            .args(["check", "testdata/rules/RL203/err"]),
    );
    assert!(!out.contains('\u{1b}'));
    assert!(out.contains("retrylint explain RL203"));
}

#[test]
fn rules_and_explain_print_the_registry() {
    let (code, out, _) = stdout(cmd().args(["rules"]));
    assert_eq!(code, 0);
    for r in retrylint::rules::RULES {
        assert!(out.contains(r.code) && out.contains(r.name), "{}", r.code);
    }
    let (code, out, _) = stdout(cmd().args(["explain", "RL203"]));
    assert_eq!(code, 0);
    assert!(out.starts_with("# RL203 unjittered-backoff"));
    assert!(out.contains("## Why is this bad?"));
    let (_, by_name, _) = stdout(cmd().args(["explain", "unjittered-backoff"]));
    assert_eq!(out, by_name);
    let (_, json, _) = stdout(cmd().args(["rules", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().unwrap().len(), retrylint::rules::RULES.len());
}

#[test]
fn help_and_version() {
    let (code, out, _) = stdout(cmd().args(["--help"]));
    assert_eq!(code, 0);
    assert!(out.contains("Examples:") && out.contains("retrylint explain RL203"));
    let (code, out, _) = stdout(cmd().args(["check", "--help"]));
    assert_eq!(code, 0);
    assert!(out.contains("--fail-on") && out.contains("Examples:"));
    let (code, out, _) = stdout(cmd().args(["--version"]));
    assert_eq!(code, 0);
    assert!(out.starts_with("retrylint "));
}

#[test]
fn output_is_deterministic() {
    let (_, a, _) = stdout(cmd().args(["check", "--format", "json", "testdata"]));
    let (_, b, _) = stdout(cmd().args(["check", "--format", "json", "testdata"]));
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("elapsed"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn fingerprints_do_not_depend_on_the_working_directory() {
    let prints = |dir: &std::path::Path, path: &str| -> Vec<String> {
        let out = Command::cargo_bin("retrylint")
            .unwrap()
            .current_dir(dir)
            .args(["check", "--no-config", "--format", "json", path])
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["fingerprint"].as_str().unwrap().to_string())
            .collect()
    };
    let root = common::root();
    let a = prints(&root, "testdata/rules/RL203/err");
    let b = prints(&root.join("testdata"), "rules/RL203/err");
    assert!(!a.is_empty());
    assert_eq!(a, b);
}

#[test]
fn rules_listing_columns_line_up() {
    let (code, out, _) = stdout(cmd().args(["rules"]));
    assert_eq!(code, 0);
    // Each column starts at the same offset on every line: the offset of
    // the n-th run of two or more spaces.
    let starts = |line: &str| -> Vec<usize> {
        let b = line.as_bytes();
        (1..b.len())
            .filter(|&i| b[i] != b' ' && b[i - 1] == b' ' && i >= 2 && b[i - 2] == b' ')
            .take(3)
            .collect()
    };
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() > 20, "{out}");
    let first = starts(lines[0]);
    assert_eq!(first.len(), 3, "{}", lines[0]);
    for l in &lines {
        assert_eq!(starts(l), first, "misaligned: {l}");
    }
}

#[test]
fn the_summary_counts_in_the_singular_for_one() {
    // A folder outside any repository, holding one file with one finding.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        common::root().join("testdata/rules/RL203/err/resilience4j-fixed-delay.yml"),
        dir.path().join("application.yml"),
    )
    .unwrap();
    let (_, _, err) =
        stdout(
            cmd()
                .current_dir(dir.path())
                .args(["check", "--no-cache", "--no-config", "."]),
        );
    assert!(err.starts_with("1 file scanned, 1 read"), "{err}");
    assert!(
        !err.contains("1 files") && !err.contains("1 warnings"),
        "{err}"
    );
}

#[test]
fn colour_can_be_forced_for_ci_logs_and_turned_off() {
    let esc = |out: &str| out.contains('\u{1b}');
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut c = cmd();
        c.env_remove("FORCE_COLOR").env_remove("CLICOLOR_FORCE");
        for (k, v) in env {
            c.env(k, v);
        }
        c.args(["check"]).args(args).arg("testdata/rules/RL203/err");
        stdout(&mut c).1
    };
    assert!(esc(&run(&["--color", "always"], &[])));
    assert!(esc(&run(&["--color", "always"], &[("NO_COLOR", "1")])));
    assert!(!esc(&run(&["--color", "never"], &[("FORCE_COLOR", "1")])));
    assert!(esc(&run(&[], &[("FORCE_COLOR", "1")])));
    assert!(esc(&run(&[], &[("CLICOLOR_FORCE", "1")])));
    assert!(!esc(&run(&[], &[("CLICOLOR_FORCE", "0")])));
    // NO_COLOR wins over FORCE_COLOR unless the flag says otherwise.
    assert!(!esc(&run(&[], &[("FORCE_COLOR", "1"), ("NO_COLOR", "1")])));
    assert!(!esc(&run(&[], &[])));
}

#[test]
fn two_formats_to_one_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json");
    let (code, _, err) = stdout(cmd().args([
        "check",
        "--format",
        &format!("json={}", a.display()),
        "--format",
        &format!("sarif={}", a.display()),
        "testdata/clean",
    ]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`json` and `sarif` would both write"), "{err}");
    assert!(!a.exists(), "nothing is written before the refusal");
    // --output and a format's own file naming the same file, likewise.
    let (code, _, _) = stdout(cmd().args([
        "check",
        "--format",
        "concise",
        "--format",
        &format!("json={}", a.display()),
        "-o",
        &a.display().to_string(),
        "testdata/clean",
    ]));
    assert_eq!(code, 2);
}

#[test]
fn writing_a_baseline_says_what_it_wrote_instead_of_printing_the_report() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        common::root().join("testdata/rules/RL203/err/resilience4j-fixed-delay.yml"),
        dir.path().join("application.yml"),
    )
    .unwrap();
    let base = dir.path().join("base.json");
    let (code, out, err) = stdout(cmd().current_dir(dir.path()).args([
        "check",
        "--no-cache",
        "--no-config",
        "--write-baseline",
        "base.json",
        ".",
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "the report is not printed: {out}");
    assert!(
        err.contains("retrylint: wrote 2 findings to base.json"),
        "{err}"
    );
    assert!(base.exists());
}

#[test]
fn help_help_and_per_command_examples() {
    let (code, out, err) = stdout(cmd().args(["help", "--help"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Usage: retrylint"), "{out}");
    let (code, out, _) = stdout(cmd().args(["help", "check", "--help"]));
    assert_eq!(code, 0);
    assert!(out.contains("--fail-on"));
    // Each command's examples are its own.
    let (_, check, _) = stdout(cmd().args(["check", "--help"]));
    assert!(
        !check.contains("retrylint graph") && !check.contains("retrylint audit"),
        "{check}"
    );
    let (_, graph, _) = stdout(cmd().args(["graph", "--help"]));
    assert!(graph.contains("retrylint graph --format dot"), "{graph}");
    assert!(!graph.contains("retrylint check --"), "{graph}");
    // graph takes the scan flags of check.
    for flag in [
        "--config",
        "--no-config",
        "--no-cache",
        "--exclude",
        "--quiet",
    ] {
        assert!(graph.contains(flag), "graph lacks {flag}");
    }
}

/// A folder holding `.git`, a `.retrylint.toml` (when `config` is given)
/// and one file with one RL203 finding (a warning by default).
fn repo_with(dir: &std::path::Path, config: Option<&str>) {
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    if let Some(c) = config {
        std::fs::write(dir.join(".retrylint.toml"), c).unwrap();
    }
    std::fs::copy(
        common::root().join("testdata/rules/RL203/err/resilience4j-fixed-delay.yml"),
        dir.join("application.yml"),
    )
    .unwrap();
}

#[test]
fn the_configuration_comes_from_the_scanned_tree_not_the_working_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    // A reports only RL301; B raises RL203 to an error.
    repo_with(&a, Some("select = [\"RL301\"]\n"));
    repo_with(
        &b,
        Some("mesh = \"istio\"\n[severity]\nRL203 = \"error\"\n"),
    );
    let (code, out, err) =
        stdout(
            cmd()
                .current_dir(&a)
                .args(["check", "--no-cache", "--format", "concise", "../b"]),
        );
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("../b/application.yml:") && out.contains("RL203 [error]"),
        "B's selection and severity: {out}"
    );
    assert!(err.contains("config ../b/.retrylint.toml:"), "{err}");
    assert!(!err.contains("not applied"), "{err}");
    // JSON names the file too.
    let (_, out, _) =
        stdout(
            cmd()
                .current_dir(&a)
                .args(["check", "--no-cache", "--format", "json", "../b"]),
        );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["summary"]["config_files"],
        serde_json::json!(["../b/.retrylint.toml"])
    );
    // The graph takes B's mesh, not A's default (`auto`: none here).
    let (_, out, _) = stdout(
        cmd()
            .current_dir(&a)
            .args(["graph", "--format", "json", "../b"]),
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["mesh"], true, "{out}");
    let (_, here, _) = stdout(
        cmd()
            .current_dir(&a)
            .args(["graph", "--format", "json", "."]),
    );
    let here: serde_json::Value = serde_json::from_str(&here).unwrap();
    assert_eq!(here["mesh"], false, "{here}");
    // From A on A: A's selection.
    let (code, out, err) = stdout(cmd().current_dir(&a).args(["check", "--no-cache", "."]));
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(err.contains("config .retrylint.toml:"), "{err}");
    // Both: each file with its own (their common folder has none), and
    // the summary names both.
    let (_, out, err) = stdout(cmd().current_dir(dir.path()).args([
        "check",
        "--no-cache",
        "--format",
        "concise",
        "a",
        "b",
    ]));
    assert!(
        !out.contains("a/application.yml") && out.contains("b/application.yml:"),
        "A selects RL301 only: {out}"
    );
    assert_eq!(out.matches("RL203 [error]").count(), 1, "{out}");
    assert!(
        err.contains("config a/.retrylint.toml, b/.retrylint.toml:"),
        "{err}"
    );
    // B's `mesh` is read for the whole run only, and the run's is none.
    assert!(
        err.contains("b/.retrylint.toml: `mesh` not applied"),
        "{err}"
    );
}

#[test]
fn the_nearest_configuration_to_the_scanned_files_applies() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    repo_with(root, Some("[severity]\nRL203 = \"error\"\n"));
    std::fs::create_dir(root.join("sub")).unwrap();
    std::fs::write(
        root.join("sub/.retrylint.toml"),
        "[severity]\nRL203 = \"info\"\n",
    )
    .unwrap();
    std::fs::copy(
        root.join("application.yml"),
        root.join("sub/application.yml"),
    )
    .unwrap();
    let concise = |args: &[&str]| {
        let mut c = cmd();
        c.current_dir(root)
            .args(["check", "--no-cache", "--format", "concise"])
            .args(args);
        stdout(&mut c)
    };
    // The folder, and a file in it (as pre-commit passes it): its own. A
    // file named makes the whole repository read for the graph, so the
    // root's applies too (to the files not reported), and is named.
    for (given, configs) in [
        ("sub", "config sub/.retrylint.toml:"),
        (
            "sub/application.yml",
            "config sub/.retrylint.toml, .retrylint.toml:",
        ),
    ] {
        let (_, out, err) = concise(&[given]);
        assert!(
            out.contains("sub/application.yml:") && out.contains("RL203 [info]"),
            "{given}: {out}"
        );
        assert!(!out.contains("[error]"), "{given}: {out}");
        assert!(err.contains(configs), "{given}: {err}");
        assert!(!err.contains("not applied"), "{given}: {err}");
    }
    // The whole tree: each file with the nearest configuration above it.
    let (_, out, err) = concise(&["."]);
    assert_eq!(out.matches("RL203 [error]").count(), 1, "{out}");
    assert!(out.contains("sub/application.yml:") && out.contains("RL203 [info]"));
    assert!(
        err.contains("config .retrylint.toml, sub/.retrylint.toml:"),
        "{err}"
    );
    assert!(!err.contains("not applied"), "{err}");
    // --config names the file: no discovery, no notice.
    let (_, out, err) = concise(&["--config", "sub/.retrylint.toml", "."]);
    assert_eq!(out.matches("RL203 [info]").count(), 2, "{out}");
    assert!(!err.contains("not applied"), "{err}");
}

#[test]
fn no_config_reads_no_configuration_file() {
    let dir = tempfile::tempdir().unwrap();
    repo_with(dir.path(), Some("[severity]\nRL203 = \"error\"\n"));
    let (code, out, err) = stdout(cmd().current_dir(dir.path()).args([
        "check",
        "--no-cache",
        "--no-config",
        "--format",
        "concise",
        ".",
    ]));
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("RL203 [warning]"), "{out}");
    assert!(err.contains("no config file:"), "{err}");
    assert!(!err.contains("not applied"), "{err}");
}

fn fixture(rel: &str) -> String {
    std::fs::read_to_string(common::root().join(rel)).unwrap()
}

/// `check -` with the text on stdin.
fn stdin_check(dir: &std::path::Path, input: &str, args: &[&str]) -> (i32, String, String) {
    let mut c = Command::cargo_bin("retrylint").unwrap();
    c.current_dir(dir).env_remove("NO_COLOR");
    c.arg("check").args(args).arg("-").write_stdin(input);
    stdout(&mut c)
}

#[test]
fn stdin_is_read_as_the_file_its_name_says() {
    let text = fixture("testdata/rules/RL203/err/resilience4j-fixed-delay.yml");
    let root = common::root();
    let named = |name: &str| {
        stdin_check(
            &root,
            &text,
            &[
                "--no-config",
                "--format",
                "concise",
                "--stdin-filename",
                name,
            ],
        )
    };
    // Shown under its name; read as Spring YAML because of it.
    let (code, out, err) = named("services/orders/application.yml");
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("services/orders/application.yml:") && l.contains(" RL203 ")),
        "{out}"
    );
    assert!(!out.contains("retrylint-stdin"), "{out}");
    assert!(err.contains("1 file scanned, 1 read"), "{err}");
    // The same text under a name no reader takes: not read, and said so.
    let (code, out, err) = named("docs/notes.md");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("docs/notes.md: not a format retrylint reads"),
        "{err}"
    );
    // The directory decides too: nginx reads any file in sites-enabled.
    let nginx = fixture("testdata/rules/RL103/err/nginx-error-non-idempotent.conf");
    let (_, out, err) = stdin_check(
        &root,
        &nginx,
        &[
            "--no-config",
            "--format",
            "concise",
            "--stdin-filename",
            "etc/nginx/sites-enabled/default",
        ],
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("etc/nginx/sites-enabled/default:")),
        "{out}{err}"
    );
    let (_, out, err) = stdin_check(
        &root,
        &nginx,
        &[
            "--no-config",
            "--format",
            "concise",
            "--stdin-filename",
            "etc/default",
        ],
    );
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("etc/default: not a format retrylint reads"),
        "{err}"
    );
}

#[test]
fn stdin_takes_the_configuration_of_its_path() {
    let text = fixture("testdata/rules/RL203/err/resilience4j-fixed-delay.yml");
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(repo.join("svc")).unwrap();
    std::fs::write(repo.join(".retrylint.toml"), "select = [\"RL102\"]\n").unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let name = repo.join("svc/application.yml");
    let (code, out, err) = stdin_check(
        &elsewhere,
        &text,
        &[
            "--format",
            "concise",
            "--stdin-filename",
            name.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.lines().all(|l| l.contains(" RL102 ")), "{out}");
    assert!(out.contains(name.to_str().unwrap()), "{out}");
    // From the working directory's side: no configuration there.
    let (_, out, _) = stdin_check(
        &repo,
        &text,
        &[
            "--format",
            "concise",
            "--stdin-filename",
            "svc/application.yml",
        ],
    );
    assert!(
        out.lines().all(|l| l.starts_with("svc/application.yml:")),
        "{out}"
    );
}

#[test]
fn stdin_without_a_name_is_a_usage_error() {
    let root = common::root();
    let (code, _, err) = stdin_check(&root, "a: 1\n", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("needs `--stdin-filename PATH`"), "{err}");
    let (code, _, err) =
        stdout(cmd().args(["check", "--stdin-filename", "a.yml", "testdata/clean"]));
    assert_eq!(code, 2);
    assert!(err.contains("give `-` as the path"), "{err}");
    let (code, _, _) = stdin_check(&root, "", &["--stdin-filename", "a.yml", "testdata/clean"]);
    assert_eq!(code, 2, "`-` with other paths");
}

#[test]
fn files_no_reader_takes_are_named() {
    let (code, _, err) = stdout(cmd().args(["check", "README.md", "Cargo.toml"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("README.md: not a format retrylint reads"),
        "{err}"
    );
    assert!(
        err.contains("Cargo.toml: not a format retrylint reads"),
        "{err}"
    );
    // A file that is read is not named, nor one of a format retrylint
    // reads that holds nothing for it (pre-commit passes many).
    let f = "testdata/rules/RL203/err/resilience4j-fixed-delay.yml";
    let (_, _, err) = stdout(cmd().args(["check", f, ".github/workflows/release.yml"]));
    assert!(!err.contains("retrylint reads"), "{err}");
}

#[test]
fn the_baseline_file_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let text = fixture("testdata/rules/RL203/err/resilience4j-fixed-delay.yml");
    std::fs::write(dir.path().join("application.yml"), text).unwrap();
    let run = |args: &[&str]| {
        let mut c = Command::cargo_bin("retrylint").unwrap();
        c.current_dir(dir.path())
            .args(["check", "--no-config", "--no-cache"])
            .args(args);
        stdout(&mut c)
    };
    let (_, _, before) = run(&["."]);
    let (code, _, err) = run(&["--write-baseline", "base.json", "."]);
    assert_eq!(code, 0, "{err}");
    assert!(dir.path().join("base.json").is_file());
    let counts = |s: &str| {
        s.lines()
            .last()
            .unwrap()
            .split(" in ")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(counts(&err), counts(&before), "{err}");
    let (code, _, err) = run(&["--baseline", "base.json", "."]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(counts(&err), counts(&before), "{err}");
}

/// The README's first example (between `<!-- example:start -->` and
/// `<!-- example:end -->`): the command after `$ ` is run, and its output
/// must be the lines below it.
#[test]
fn the_readme_example_prints_what_the_readme_shows() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let start = readme
        .find("<!-- example:start -->")
        .expect("an example block");
    let end = readme.find("<!-- example:end -->").unwrap();
    let block: Vec<&str> = readme[start..end]
        .lines()
        .filter(|l| !l.starts_with("<!--") && !l.starts_with("```"))
        .collect();
    let command = block[0]
        .strip_prefix("$ retrylint ")
        .expect("`$ retrylint ...`");
    let shown = block[1..].join("\n");
    let (code, out, err) = stdout(cmd().args(command.split_whitespace()));
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        out.trim_end(),
        shown.trim_end(),
        "README.md's example no longer prints what it shows: paste the output of `retrylint {command}`"
    );
    // The first screen still starts with the two commands.
    let head: Vec<&str> = readme.lines().take(16).collect();
    assert!(
        head.contains(&"cargo run --release -- check path/to/repo"),
        "{head:?}"
    );
    assert!(head.contains(&"cargo test --locked"), "{head:?}");
}
