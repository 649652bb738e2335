//! Every rule fixture, one trial each: entries (files, or directories for
//! path rules) under `testdata/rules/RLnnn/err/` must make the rule fire,
//! entries under `ok/` must not; the concise lines of each `err` fixture
//! are a snapshot (`tests/snapshots/rules__RLnnn__err__NAME.snap`).
//!
//! A data-driven harness (libtest-mimic, `harness = false`): each fixture is
//! the trial `RLnnn::err::NAME` or `RLnnn::ok::NAME`, so `cargo test RL203`
//! runs RL203's fixtures and `cargo test nginx` the fixtures whose name says
//! nginx. A new fixture's snapshot is written by
//! `INSTA_UPDATE=always cargo test --test rules RLnnn`. The full pretty
//! rendering is snapshotted for a handful of fixtures in `tests/suite/pretty.rs`.

mod common;

use libtest_mimic::{Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// (code, "err" or "ok", path below the crate root) of every fixture.
fn fixtures() -> Vec<(String, &'static str, PathBuf)> {
    let root = common::root();
    let mut out = Vec::new();
    let mut codes: Vec<_> = std::fs::read_dir(root.join("testdata/rules"))
        .expect("testdata/rules")
        .map(|e| e.unwrap().path())
        .collect();
    codes.sort();
    for code_dir in codes {
        let code = code_dir.file_name().unwrap().to_string_lossy().to_string();
        for kind in ["err", "ok"] {
            let Ok(entries) = std::fs::read_dir(code_dir.join(kind)) else {
                continue;
            };
            let mut entries: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
            entries.sort();
            for e in entries {
                let rel = e.strip_prefix(&root).unwrap().to_path_buf();
                out.push((code.clone(), kind, rel));
            }
        }
    }
    out
}

fn file_name(rel: &Path) -> String {
    rel.file_name().unwrap().to_string_lossy().into_owned()
}

/// The snapshot's name, as insta writes it below `tests/snapshots/`
/// (`rules__` + this + `.snap`).
fn snapshot_name(code: &str, rel: &Path) -> String {
    format!("{code}__err__{}", file_name(rel))
}

fn check(code: &str, kind: &str, rel: &Path) -> Result<(), Failed> {
    let (scan, findings) = common::run(rel, &[code]);
    if !scan.notices.is_empty() {
        return Err(format!("{}: notices {:?}", rel.display(), scan.notices).into());
    }
    let concise = common::concise(&scan, &findings);
    if kind == "ok" {
        if !findings.is_empty() {
            return Err(format!("{} must not make {code} fire:\n{concise}", rel.display()).into());
        }
        return Ok(());
    }
    if findings.is_empty() {
        return Err(format!("{} must make {code} fire", rel.display()).into());
    }
    for f in &findings {
        let m = &f.message;
        if f.rule.code != code
            || m.chars().next().is_some_and(char::is_uppercase)
            || m.ends_with('.')
            || !m.contains('`')
            || m.matches('`').count() % 2 == 1
            || f.help.is_empty()
        {
            return Err(format!(
                "{}: a message must be of {code}, start lowercase, have no trailing period, show the value in balanced backticks and come with a help: {m}",
                rel.display()
            )
            .into());
        }
    }
    let name = snapshot_name(code, rel);
    let compared = std::panic::catch_unwind(|| {
        insta::with_settings!({ input_file => rel, omit_expression => true }, {
            insta::assert_snapshot!(name.as_str(), concise);
        });
    });
    if let Err(panic) = compared {
        old_format(&name)?;
        std::panic::resume_unwind(panic);
    }
    Ok(())
}

/// Snapshots used to hold the concise lines, a blank line, then the whole
/// pretty rendering; when one in that form (say, from a branch made before
/// the change) does not match, the failure says so and how to rewrite it.
fn old_format(name: &str) -> Result<(), Failed> {
    let path = common::root().join(format!("tests/snapshots/rules__{name}.snap"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    let body = text.splitn(3, "---\n").nth(2).unwrap_or("");
    if body.contains("\n\n") && body.contains("╭─[") {
        let code = name.split("__").next().unwrap_or(name);
        return Err(format!(
            "{} holds the old format (concise lines and the pretty rendering); rewrite it to the \
             concise lines with `INSTA_UPDATE=always cargo test --test rules {code}` and check \
             with `git diff` that only the rendering went away",
            path.display()
        )
        .into());
    }
    Ok(())
}

/// Every `rules__*.snap` belongs to an `err` fixture: a renamed or deleted
/// fixture leaves none behind.
fn no_orphan_snapshots(fixtures: &[(String, &'static str, PathBuf)]) -> Result<(), Failed> {
    let wanted: std::collections::BTreeSet<String> = fixtures
        .iter()
        .filter(|(_, kind, _)| *kind == "err")
        .map(|(code, _, rel)| format!("rules__{}.snap", snapshot_name(code, rel)))
        .collect();
    let mut orphans: Vec<String> = std::fs::read_dir(common::root().join("tests/snapshots"))
        .map_err(|e| Failed::from(format!("tests/snapshots: {e}")))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("rules__") && n.ends_with(".snap") && !wanted.contains(n))
        .collect();
    orphans.sort();
    if orphans.is_empty() {
        Ok(())
    } else {
        Err(
            format!("snapshots of no fixture (delete them from tests/snapshots/): {orphans:#?}")
                .into(),
        )
    }
}

fn main() -> ExitCode {
    let fixtures = fixtures();
    let mut trials: Vec<Trial> = fixtures
        .iter()
        .map(|(code, kind, rel)| {
            let (code, kind, rel) = (code.clone(), *kind, rel.clone());
            Trial::test(format!("{code}::{kind}::{}", file_name(&rel)), move || {
                check(&code, kind, &rel)
            })
        })
        .collect();
    trials.push(Trial::test("snapshots::no_orphans", move || {
        no_orphan_snapshots(&fixtures)
    }));
    common::needs::run(include_str!("rules.rs"), trials)
}
