//! Code actions from the fix model, on a real finding of a real workspace
//! (`tests/suite/server.rs` drives the binary end to end).

use super::actions::code_actions;
use super::convert::Encoding;
use super::workspace::Workspace;
use crate::fix::{Edit, Fix};
use crate::pipeline::{ConfigChoice, configure};
use crate::source::Span;
use serde_json::json;

const R4J: &str = "\
resilience4j.retry:
  configs:
    default:
      maxAttempts: 4
      waitDuration: 1s
      enable-exponential-backoff: true
      exponential-backoff-multiplier: 2
";

fn params(uri: &str, line: u32, only: Option<&str>) -> lsp_types::CodeActionParams {
    let mut p = json!({
        "textDocument": {"uri": uri},
        "range": {"start": {"line": line, "character": 6}, "end": {"line": line, "character": 6}},
        "context": {"diagnostics": []},
    });
    if let Some(only) = only {
        p["context"]["only"] = json!([only]);
    }
    serde_json::from_value(p).unwrap()
}

#[test]
fn fixes_become_code_actions_safe_preferred_unsafe_marked() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let path = root.join("application.yml");
    std::fs::write(&path, R4J).unwrap();
    let ws = Workspace::load(&root, &|r: &std::path::Path| {
        Ok((configure(r, &[], ConfigChoice::None)?, false))
    })
    .unwrap();
    let mut a = ws.analyse();
    let id = a.id_of(&path).unwrap();
    let i = a
        .run
        .report
        .findings
        .iter()
        .position(|f| f.rule.code == "RL203")
        .unwrap();
    // As a rule offers them: one safe fix (an insertion), one unsafe.
    let after = R4J.find("  exponential-backoff-multiplier").unwrap() - 4;
    let four = R4J.find("maxAttempts: 4").unwrap() + 13;
    let finding = &mut a.run.report.findings[i];
    // Only the two fixes made here (the rule's own RL203 fix is the
    // session test's, tests/suite/server.rs).
    finding.fixes.clear();
    finding.fix(Fix::safe(
        "set `enable-randomized-wait: true`",
        vec![Edit::insert(
            id,
            after,
            "      enable-randomized-wait: true\n",
        )],
    ));
    finding.fix(Fix::unsafe_(
        "lower `maxAttempts` to `3`",
        vec![Edit::new(id, Span::new(four, four + 1), "3")],
    ));
    let uri = super::convert::path_to_uri(&path).unwrap();
    let uri = uri.as_str();
    let all = |only| {
        let actions = code_actions(
            std::slice::from_ref(&a),
            Encoding::Utf16,
            &params(uri, 5, only),
        );
        serde_json::to_value(actions).unwrap()
    };
    let insert = json!({
        "range": {"start": {"line": 6, "character": 0}, "end": {"line": 6, "character": 0}},
        "newText": "      enable-randomized-wait: true\n",
    });
    let actions = all(None);
    assert_eq!(actions.as_array().unwrap().len(), 3, "{actions:#}");
    assert_eq!(
        actions[0]["title"],
        "RL203: set `enable-randomized-wait: true`"
    );
    assert_eq!(actions[0]["kind"], "quickfix");
    assert_eq!(actions[0]["isPreferred"], true);
    assert_eq!(actions[0]["diagnostics"][0]["code"], "RL203");
    assert_eq!(actions[0]["edit"], json!({"changes": {uri: [insert]}}));
    assert_eq!(
        actions[1]["title"],
        "RL203: lower `maxAttempts` to `3` (unsafe)"
    );
    assert_eq!(actions[1]["isPreferred"], false);
    assert_eq!(
        actions[1]["edit"],
        json!({"changes": {uri: [{
            "range": {"start": {"line": 3, "character": 19}, "end": {"line": 3, "character": 20}},
            "newText": "3",
        }]}})
    );
    // Every safe fix of the file, none of the unsafe ones.
    assert_eq!(actions[2]["title"], "retrylint: apply every safe fix");
    assert_eq!(actions[2]["kind"], "source.fixAll.retrylint");
    assert_eq!(actions[2]["edit"], json!({"changes": {uri: [insert]}}));
    // What the client asks for, only.
    let fix_all = all(Some("source.fixAll"));
    assert_eq!(fix_all.as_array().unwrap().len(), 1);
    assert_eq!(fix_all[0]["kind"], "source.fixAll.retrylint");
    let quick = all(Some("quickfix"));
    assert_eq!(quick.as_array().unwrap().len(), 2);
    // Away from the finding: no quick fix, the file's fix-all still.
    let away = code_actions(
        std::slice::from_ref(&a),
        Encoding::Utf16,
        &params(uri, 0, None),
    );
    assert_eq!(away.len(), 1);
}

fn load(root: &std::path::Path, settings: impl Fn(&mut crate::config::Settings)) -> Workspace {
    Workspace::load(root, &|r: &std::path::Path| {
        let mut s = configure(r, &[], ConfigChoice::None)?;
        settings(&mut s);
        Ok((s, false))
    })
    .unwrap()
}

fn codes(ws: &Workspace, path: &std::path::Path) -> Vec<&'static str> {
    let a = ws.analyse();
    let mut out: Vec<&str> = a.findings_in(path).map(|f| f.rule.code).collect();
    out.sort();
    out
}

const TOKIO_RETRY: &str = "\
use tokio_retry::Retry;
use tokio_retry::strategy::ExponentialBackoff;

async fn connect() -> Result<Conn, Error> {
    let strategy = ExponentialBackoff::from_millis(10).take(3);
    Retry::spawn(strategy, open_connection).await
}
";

#[test]
fn a_rust_test_module_stays_test_code_when_edited() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.join("src")).unwrap();
    let lib = root.join("src/lib.rs");
    let tests = root.join("src/checks.rs");
    std::fs::write(&lib, format!("{TOKIO_RETRY}\n#[cfg(test)]\nmod checks;\n")).unwrap();
    std::fs::write(&tests, TOKIO_RETRY).unwrap();
    let mut ws = load(&root, |_| {});
    assert_eq!(codes(&ws, &lib), ["RL102", "RL203"]);
    assert!(codes(&ws, &tests).is_empty());
    // Edited in the editor: still the test module lib.rs declares.
    ws.update(&tests, format!("{TOKIO_RETRY}\n")).unwrap();
    assert!(codes(&ws, &tests).is_empty());
    // Not declared any more: it is code like any other.
    ws.update(&lib, TOKIO_RETRY.to_string()).unwrap();
    assert_eq!(codes(&ws, &tests), ["RL102", "RL203"]);
}

#[test]
fn a_buffer_over_the_size_limit_is_rl903_as_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let path = root.join("application.yml");
    std::fs::write(&path, R4J).unwrap();
    let mut ws = load(&root, |s| s.max_file_size = 1000);
    assert_eq!(codes(&ws, &path), ["RL102", "RL203"]);
    ws.update(&path, format!("{R4J}{}", "# padding\n".repeat(100)))
        .unwrap();
    assert_eq!(codes(&ws, &path), ["RL903"]);
    assert!(ws.update(&path, R4J.to_string()).unwrap());
    assert_eq!(codes(&ws, &path), ["RL102", "RL203"]);
    // The same text again, or a file that says nothing before and after:
    // nothing to check again.
    assert!(!ws.update(&path, R4J.to_string()).unwrap());
    let other = root.join("notes.yml");
    assert!(!ws.update(&other, "a: 1\n".into()).unwrap());
    assert!(!ws.update(&other, "a: 2\n".into()).unwrap());
    assert!(ws.update(&other, R4J.to_string()).unwrap());
}

/// A file the walk never saw (a new buffer) is judged by the ignore files
/// of every folder from the root down to it, the deepest deciding, as the
/// walk judged the files it listed.
#[test]
fn a_new_file_is_judged_by_nested_ignore_files() {
    use super::workspace::ignored;
    use std::path::Path;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(".gitignore", "generated/\n*.tmp.yaml\n");
    write("deploy/.gitignore", "rendered/\n!keep.tmp.yaml\n");
    write("deploy/staging/.ignore", "local.yaml\n");
    write(".git/info/exclude", "scratch.yaml\n");
    let is = |rel: &str| ignored(root, Path::new(rel));
    // The root's own rules, and a folder it ignores.
    assert!(is("a.tmp.yaml"));
    assert!(is("generated/x.yaml"));
    assert!(!is("deploy/app.yaml"));
    // A nested .gitignore ignores below it only.
    assert!(is("deploy/rendered/app.yaml"));
    assert!(!is("rendered/app.yaml"));
    // ... and keeps what the root's ignores.
    assert!(is("deploy/other.tmp.yaml"));
    assert!(!is("deploy/keep.tmp.yaml"));
    // A nested .ignore, and the repository's exclude.
    assert!(is("deploy/staging/local.yaml"));
    assert!(!is("deploy/local.yaml"));
    assert!(is("scratch.yaml"));
    assert!(is("deploy/scratch.yaml"));
}
