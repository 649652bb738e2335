//! The scaffolding scripts (`scripts/new-rule.sh`, `scripts/new-system.sh`)
//! write what docs/architecture.md's worked examples say, on a copy of the
//! tree: the files and registry lines at once (fast), and, with cargo, that
//! the result compiles and the new fixtures pass (`--include-ignored`).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the scaffolded tree needs to build and run `tests/rules.rs`.
const TREE: &[&str] = &[
    "Cargo.toml",
    "Cargo.lock",
    "build.rs",
    "src",
    "rules",
    "testdata",
    "tests",
    "scripts",
    "examples",
];

const SYSTEM: &str = "scaffold_probe";
const SYSTEM_PREFIX: &str = "scaffoldprobe";
const RULE_NAME: &str = "scaffolded-example";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if e.file_type().unwrap().is_dir() {
            copy_dir(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// A fresh copy of the tree at `dir`.
fn copy_tree(dir: &Path) {
    if dir.exists() {
        std::fs::remove_dir_all(dir).unwrap();
    }
    std::fs::create_dir_all(dir).unwrap();
    let root = common::root();
    for entry in TREE {
        let from = root.join(entry);
        if from.is_dir() {
            copy_dir(&from, &dir.join(entry));
        } else {
            std::fs::copy(&from, dir.join(entry)).unwrap();
        }
    }
    // Another version, so that the copy's build, in the same target
    // directory, does not overwrite this crate's artifacts: cargo names a
    // path package's artifacts by name and version, not by its path.
    let manifest = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let version = text
        .lines()
        .find(|l| l.starts_with("version = \""))
        .expect("Cargo.toml has a version");
    let scaffold = format!("{}-scaffold\"", version.trim_end_matches('"'));
    // And another binary name: the binary is copied to the target
    // directory's `debug/<name>` whatever the version, where it would
    // replace the one this crate's other tests run (with the copy's new
    // rule in it). tests/rules.rs runs the library, not the binary: a
    // feature nobody turns on keeps cargo from building (and linking) it.
    assert!(
        !text.contains("\n[features]"),
        "Cargo.toml has a [features] table: add `scaffold-bin = []` to it here"
    );
    let text = format!(
        "{}\n[lib]\nname = \"retrylint\"\npath = \"src/lib.rs\"\n\n[[bin]]\nname = \"retrylint-scaffold\"\npath = \"src/main.rs\"\nrequired-features = [\"scaffold-bin\"]\n\n[features]\nscaffold-bin = []\n",
        text.replacen(version, &scaffold, 1)
    );
    std::fs::write(&manifest, text).unwrap();
}

/// The first backoff code (RL2nn) no doc has.
fn free_code(dir: &Path) -> String {
    let taken: Vec<String> = std::fs::read_dir(dir.join("rules"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy()[..5].to_string())
        .collect();
    (201..300)
        .map(|n| format!("RL{n}"))
        .find(|c| !taken.contains(c))
        .expect("a free RL2nn code")
}

fn script(dir: &Path, args: &[&str]) {
    let out = Command::new("bash")
        .args(args)
        .env("RETRYLINT_ROOT", dir)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Run both scripts on a copy at `dir`; check the files and lines they
/// write; return the rule's code.
fn scaffold(dir: &Path) -> String {
    copy_tree(dir);
    let code = free_code(dir);
    let scripts = common::root().join("scripts");
    script(
        dir,
        &[
            scripts.join("new-rule.sh").to_str().unwrap(),
            &code,
            RULE_NAME,
            "backoff",
        ],
    );
    script(
        dir,
        &[scripts.join("new-system.sh").to_str().unwrap(), SYSTEM],
    );

    // The rule: its doc, its module and `pub mod` line, its fixtures.
    let doc = read(dir, &format!("rules/{code}-{RULE_NAME}.md"));
    assert!(doc.starts_with(&format!(
        "---\ncode: {code}\nname: {RULE_NAME}\ncategory: backoff\n"
    )));
    for section in [
        "What it does",
        "Why is this bad?",
        "Example",
        "Use instead",
        "Options",
        "References",
    ] {
        assert!(doc.contains(&format!("\n## {section}\n")), "{section}");
    }
    let module = RULE_NAME.replace('-', "_");
    assert!(read(dir, &format!("src/rules/backoff/{module}.rs")).contains("pub const CHECK"));
    assert!(read(dir, "src/rules/backoff/mod.rs").contains(&format!("\npub mod {module};\n")));
    for kind in ["err", "ok"] {
        read(
            dir,
            &format!("testdata/rules/{code}/{kind}/resilience4j-example.yml"),
        );
    }

    // The system: one folder, one registry line (`pub mod` of the folder;
    // build.rs makes the registry from the declared folders).
    let variant = "ScaffoldProbe";
    let sys = read(dir, &format!("src/systems/{SYSTEM}/mod.rs"));
    assert!(sys.contains(&format!("\n// system: {variant} - ")));
    assert!(sys.contains("pub static SPEC"));
    assert!(sys.contains("pub const DOC_READERS"));
    assert!(read(dir, &format!("src/systems/{SYSTEM}/extract.rs")).contains("pub fn extract"));
    let systems = read(dir, "src/systems/mod.rs");
    assert!(systems.contains(&format!("\npub mod {SYSTEM};\n")));
    let mut before = std::fs::read_to_string(common::root().join("src/systems/mod.rs")).unwrap();
    before.retain(|c| c != '\n');
    let mut after = systems.clone();
    after.retain(|c| c != '\n');
    assert_eq!(
        after.replacen(&format!("pub mod {SYSTEM};"), "", 1),
        before,
        "src/systems/mod.rs gains its one line only"
    );
    for (file, before) in [
        ("src/model.rs", "src/model.rs"),
        ("src/model/registry.rs", "src/model/registry.rs"),
        ("src/extract/mod.rs", "src/extract/mod.rs"),
    ] {
        assert_eq!(
            read(dir, file),
            std::fs::read_to_string(common::root().join(before)).unwrap(),
            "{file} is not touched"
        );
    }
    for kind in ["err", "ok"] {
        read(
            dir,
            &format!("testdata/rules/RL206/{kind}/{SYSTEM_PREFIX}-attempts.yml"),
        );
    }
    let rl206 = std::fs::read_dir(dir.join("rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("RL206-")
        })
        .unwrap();
    let rl206 = std::fs::read_to_string(rl206).unwrap();
    assert!(rl206.contains(&format!(", {SYSTEM_PREFIX}]\n")));
    code
}

/// Refuses what it cannot scaffold, and changes nothing then.
#[test]
fn scripts_refuse_bad_and_taken_names() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(dir.path());
    let scripts = common::root().join("scripts");
    let rule = scripts.join("new-rule.sh");
    let system = scripts.join("new-system.sh");
    for args in [
        vec![rule.to_str().unwrap(), "RL203", "another-name", "backoff"],
        vec![
            rule.to_str().unwrap(),
            "RL299",
            "unjittered-backoff",
            "backoff",
        ],
        vec![rule.to_str().unwrap(), "RL399", "fine-name", "backoff"],
        vec![rule.to_str().unwrap(), "RL299", "Not_Kebab", "backoff"],
        vec![rule.to_str().unwrap(), "RL299", "fine-name", "nowhere"],
        vec![system.to_str().unwrap(), "istio"],
        vec![system.to_str().unwrap(), "Not-Snake"],
    ] {
        let out = Command::new("bash")
            .args(&args)
            .env("RETRYLINT_ROOT", dir.path())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?} succeeded");
    }
    assert!(!dir.path().join("rules/RL299-fine-name.md").exists());
    assert!(!dir.path().join("testdata/rules/RL299").exists());
}

#[test]
fn scripts_write_the_files_and_lines_the_walkthroughs_show() {
    let dir = tempfile::tempdir().unwrap();
    scaffold(dir.path());
}

/// The target directory the test's own build uses, so that the copy's
/// build reuses its dependencies.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::root().join("target"))
}

fn cargo_test_rules(dir: &Path, filter: &str) -> String {
    let out = Command::new(env!("CARGO"))
        .args(["test", "--offline", "--test", "rules", "--", filter])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .env("INSTA_UPDATE", "always")
        .output()
        .expect("cargo runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "cargo test {filter} failed:\n{text}");
    text
}

/// Whether the test output has `test <trial> ... ok` (libtest-mimic pads
/// the names to one width).
fn passed(out: &str, trial: &str) -> bool {
    out.lines().any(|l| {
        l.strip_prefix("test ")
            .and_then(|l| l.strip_suffix(" ok"))
            .is_some_and(|l| l.trim_end().trim_end_matches("...").trim_end() == trial)
    })
}

#[test]
#[ignore = "needs cargo: run with --include-ignored"]
fn scaffolded_rule_and_system_compile_and_pass_their_fixtures() {
    // Always the same path, so that a second run rebuilds incrementally.
    let dir = target_dir().join("scaffold-tree");
    let code = scaffold(&dir);
    let out = cargo_test_rules(&dir, &code);
    for trial in [
        format!("{code}::err::resilience4j-example.yml"),
        format!("{code}::ok::resilience4j-example.yml"),
    ] {
        assert!(passed(&out, &trial), "{trial} did not pass:\n{out}");
    }
    let out = cargo_test_rules(&dir, SYSTEM_PREFIX);
    for trial in [
        format!("RL206::err::{SYSTEM_PREFIX}-attempts.yml"),
        format!("RL206::ok::{SYSTEM_PREFIX}-attempts.yml"),
    ] {
        assert!(passed(&out, &trial), "{trial} did not pass:\n{out}");
    }
    for snap in [
        format!("rules__{code}__err__resilience4j-example.yml.snap"),
        format!("rules__RL206__err__{SYSTEM_PREFIX}-attempts.yml.snap"),
    ] {
        let text = read(&dir, &format!("tests/snapshots/{snap}"));
        assert!(text.contains("[warning]"), "{snap}:\n{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
