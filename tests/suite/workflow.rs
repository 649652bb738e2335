//! Running retrylint in a repository: `.retrylint.toml` discovery and
//! errors, `retrylint config`, overrides, suppressions, baselines,
//! `--changed-since`, and explicit files (pre-commit).

use crate::common;

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

/// A Java loop the reader looks at and does not take (a walk along a
/// chain), listed under `loops_not_taken` in `--format json`.
const NOT_TAKEN: &str = "class W {\n    void walk(Node n) throws InterruptedException {\n        while (n != null) {\n            try {\n                n.retryVisit();\n                return;\n            } catch (RuntimeException e) {\n                Thread.sleep(100);\n                n = n.parent;\n            }\n        }\n    }\n}\n";

#[test]
fn explicit_files_list_only_their_own_loops_not_taken() {
    let dir = repo();
    let d = dir.path();
    write(d, "a/A.java", NOT_TAKEN);
    write(d, "b/B.java", NOT_TAKEN);
    let (_, whole, _) = run(cmd(d).args(["check", "--format", "json", "."]));
    let v: serde_json::Value = serde_json::from_str(&whole).unwrap();
    let listed = |v: &serde_json::Value| -> Vec<String> {
        v["loops_not_taken"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|l| l["file"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(listed(&v).len(), 2, "{whole}");
    let (_, one, err) = run(cmd(d).args(["check", "--format", "json", "a/A.java"]));
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert!(err.starts_with("2 files scanned"), "{err}");
    assert_eq!(listed(&v), vec!["a/A.java".to_string()], "{one}");
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

/// `cargo binstall` reads `[package.metadata.binstall]`: its `pkg-url`
/// must name the archive scripts/package-release.sh writes (the one the
/// release workflow publishes and the Action installs), and its `bin-dir`
/// the binary's path inside it, or `cargo binstall` falls back to a build.
#[test]
fn binstall_metadata_names_the_release_archives() {
    let root = common::root();
    let manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let binstall = &manifest["package"]["metadata"]["binstall"];
    let version = manifest["package"]["version"].as_str().unwrap();
    let (target, bin) = ("x86_64-unknown-linux-musl", "retrylint");
    let fill = |s: &str| {
        s.replace("{ version }", version)
            .replace("{ target }", target)
            .replace("{ bin }", bin)
            .replace("{ binary-ext }", "")
    };
    let url = fill(binstall["pkg-url"].as_str().unwrap());
    assert_eq!(binstall["pkg-fmt"].as_str(), Some("tgz"));
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new("bash")
        .arg(root.join("scripts/package-release.sh"))
        .args([target, root.join("Cargo.toml").to_str().unwrap()])
        .arg(dir.path().join(format!("v{version}")))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let archive = String::from_utf8(out.stdout).unwrap();
    let archive = Path::new(archive.trim());
    // The tag folder and file name, as the release and the Action have them.
    let tail: Vec<&str> = url.rsplit('/').take(2).collect();
    assert_eq!(
        [tail[1], tail[0]],
        [
            format!("v{version}").as_str(),
            archive.file_name().unwrap().to_str().unwrap()
        ],
        "{url}"
    );
    assert!(url.starts_with("{ repo }/releases/download/"), "{url}");
    let listing = std::process::Command::new("tar")
        .arg("-tzf")
        .arg(archive)
        .output()
        .unwrap();
    let listing = String::from_utf8(listing.stdout).unwrap();
    let bin_dir = fill(binstall["bin-dir"].as_str().unwrap());
    assert!(
        listing.lines().any(|l| l == bin_dir),
        "{bin_dir} not in:\n{listing}"
    );
    let sums = std::fs::read_to_string(archive.with_file_name("SHA256SUMS")).unwrap();
    assert!(sums.contains(&format!(
        "  {}",
        archive.file_name().unwrap().to_str().unwrap()
    )));
}

/// `.ci/run` under `CI=true` without the shared folder stops before the
/// build with a message that says where to put it (issue 26). Stand-ins
/// for `cargo`, `rustc`, `rustup`, `apt-get` and `sudo` fail at once, so a
/// run that went on could neither build nor install anything.
#[test]
fn ci_run_without_the_shared_folder_fails_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let shims = dir.path().join("bin");
    std::fs::create_dir(&shims).unwrap();
    for tool in ["cargo", "rustc", "rustup", "apt-get", "sudo"] {
        let p = shims.join(tool);
        std::fs::write(&p, "#!/bin/sh\necho \"stand-in $0 called\" >&2\nexit 97\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let nowhere = dir.path().join("no-shared");
    let path = format!(
        "{}:{}",
        shims.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("bash")
        .arg(common::root().join(".ci/run"))
        .env("CI", "true")
        .env("RETRYLINT_SHARED", &nowhere)
        .env("PATH", path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("MISSING: {}/corpus", nowhere.display()))
            && err.contains("RETRYLINT_SHARED")
            && err.contains("FAIL: the tests need what is listed above"),
        "{err}"
    );
    assert!(!err.contains("stand-in"), "it went on: {err}");
}

/// `.ci/run` and the scripts honour CARGO_TARGET_DIR (issue 26): they ask
/// scripts/target-dir.sh, which answers as cargo does, and none names a
/// `target/debug` or `target/release` of its own.
#[test]
fn the_scripts_honour_cargo_target_dir() {
    let root = common::root();
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new("bash")
        .arg(root.join("scripts/target-dir.sh"))
        .env("CARGO_TARGET_DIR", dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        dir.path().to_str().unwrap()
    );
    let mut scripts = vec![root.join(".ci/run"), root.join("action.yml")];
    for e in std::fs::read_dir(root.join("scripts")).unwrap() {
        scripts.push(e.unwrap().path());
    }
    for s in scripts {
        let text = std::fs::read_to_string(&s).unwrap();
        for bad in ["target/debug", "target/release"] {
            assert!(!text.contains(bad), "{} names `{bad}`", s.display());
        }
    }
}

/// The `--flags` a command's help lists.
fn flags_of(command: &str) -> std::collections::BTreeSet<String> {
    let (_, help, _) = run(cmd(&common::root()).args([command, "--help"]));
    help.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| {
            w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric())
                .to_string()
        })
        .collect()
}

/// `graph` and `audit` take the scan flags of `check` (issue 26), and
/// keep the facts cache where `check` does.
#[test]
fn graph_and_audit_take_the_scan_flags_of_check() {
    let scan = [
        "--config",
        "--no-config",
        "--select",
        "--ignore",
        "--exclude",
        "--max-file-size",
        "--no-cache",
        "--cache-dir",
        "--quiet",
    ];
    let check = flags_of("check");
    for command in ["graph", "audit"] {
        let flags = flags_of(command);
        for f in scan {
            assert!(check.contains(f), "check lacks {f}");
            assert!(flags.contains(f), "{command} lacks {f}: {flags:?}");
        }
    }
    let dir = repo();
    write(dir.path(), "svc/application.yml", BAD);
    let cache = dir.path().join(".retrylint-cache");
    let (code, _, err) = run(cmd(dir.path()).args(["graph", "--no-cache", "-q", "."]));
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(!cache.exists(), "--no-cache wrote a cache");
    run(cmd(dir.path()).args(["graph", "."]));
    assert!(cache.is_dir(), "graph keeps no cache where check does");
}

/// The README's first screen (issue 26): what it finds (with the example
/// tests/suite/cli.rs runs), then how to install it: a release binary, `cargo
/// install --git`, and from source with rustup, in that order; then the
/// rest.
#[test]
fn the_readme_opens_with_what_it_finds_then_how_to_install_it() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let headings: Vec<&str> = readme.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings[..2],
        ["## What it finds", "## Install"],
        "{headings:?}"
    );
    let install = readme.split("## Install").nth(1).unwrap();
    let install = install.split("\n## ").next().unwrap();
    let at = |s: &str| {
        install
            .find(s)
            .unwrap_or_else(|| panic!("Install lacks {s}"))
    };
    assert!(at("**A release binary**") < at("cargo install --locked --git"));
    assert!(at("cargo install --locked --git") < at("rustup"));
    let finds = readme.split("## What it finds").nth(1).unwrap();
    assert!(
        finds
            .split("## Install")
            .next()
            .unwrap()
            .contains("<!-- example:start -->")
    );
}

/// Every test that needs a real checkout (an ignored test reading
/// `real_checkout`, named `*_real`) is one `.ci/run` leaves out by name
/// when its variable is unset: a new one not listed there fails every CI
/// run (`go_keep_words_real` did), and a listed one that no longer exists
/// skips nothing.
#[test]
fn ci_run_skips_exactly_the_real_checkout_tests() {
    let root = common::root();
    let mut found = std::collections::BTreeSet::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                for line in text.lines() {
                    let Some(rest) = line.trim_start().strip_prefix("fn ") else {
                        continue;
                    };
                    let name = rest.split('(').next().unwrap_or("");
                    if name.ends_with("_real") && text.contains("real_checkout(") {
                        found.insert(name.to_string());
                    }
                }
            }
        }
    }
    let run = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    // `VAR:path::to::name` entries of its skip loop.
    let listed: std::collections::BTreeSet<String> = run
        .split_whitespace()
        .filter(|w| w.starts_with("RETRYLINT_") && w.contains("::"))
        .filter_map(|w| w.trim_end_matches(';').rsplit("::").next())
        .map(str::to_string)
        .collect();
    assert!(found.len() >= 6, "{found:?}");
    assert_eq!(found, listed);
}
