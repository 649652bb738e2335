//! The pre-commit hook's `files:` pattern (.pre-commit-hooks.yaml) is
//! generated here from the file names retrylint reads
//! (`retrylint::systems::wanted_by_name`, which every reader's claim passes
//! through first) and tested against them: every file of the fixtures and
//! the shared corpus that a reader takes matches it, and it matches no
//! file the readers never look at. `UPDATE_PRECOMMIT=1 cargo test --test
//! precommit` rewrites the line after a reader learns a new name; the
//! rules below are the names `wanted_by_name` accepts, one by one.

use crate::common;

use regex::Regex;
use retrylint::systems::{classify, wanted_by_name};
use std::path::{Path, PathBuf};

/// File-name endings retrylint reads (case-insensitive).
const ENDINGS: &[&str] = &[
    ".dockerfile",
    ".yml",
    ".yaml",
    ".json",
    ".properties",
    ".rs",
    ".java",
    ".py",
    ".cs",
    ".go",
    ".conf",
    ".nginx",
    // Terraform (Cloud Tasks queues, `cloud_tasks`).
    ".tf",
    // Varnish VCL.
    ".vcl",
    // Templates, read as what they render to (`extract::template_text`).
    ".j2",
    ".jinja",
    ".jinja2",
    ".tmpl",
    ".gotmpl",
    ".tpl",
    ".template",
    // Build files, read for library versions.
    ".versions.toml",
    ".csproj",
];
/// Whole file names (build files).
const NAMES: &[&str] = &[
    "dockerfile",
    ".env",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "cargo.lock",
    "directory.packages.props",
    // A kustomization without an extension (`link::kustomize`).
    "kustomization",
];
/// File-name beginnings (the AWS SDKs' test files).
const PREFIXES: &[&str] = &["dockerfile.", "shared_config", "shared_credentials"];

/// The `files:` pattern, a Python `re` (pre-commit applies it with
/// `re.search` to each staged path, `/`-separated) that the `regex` crate
/// reads the same way.
fn pattern() -> String {
    let esc = |s: &&str| regex::escape(s);
    let endings: Vec<String> = ENDINGS.iter().map(esc).collect();
    let names: Vec<String> = NAMES.iter().map(esc).collect();
    let prefixes: Vec<String> = PREFIXES.iter().map(esc).collect();
    let alternatives = [
        format!("({})$", endings.join("|")),
        format!("(^|/)({})$", names.join("|")),
        format!("(^|/)({})[^/]*$", prefixes.join("|")),
        // An `aws` and a `config`/`credentials` in the name (aws_config).
        "(^|/)[^/]*(aws[^/]*(config|credentials)|(config|credentials)[^/]*aws)[^/]*$".into(),
        // App Engine's queue.xml: an `.xml` with `queue` in its name
        // (`cloud_tasks::xml::claims`).
        "(^|/)[^/]*queue[^/]*\\.xml$".into(),
        // The AWS shared config and credentials files in `.aws/`.
        r"(^|/)\.aws/(config|credentials)$".into(),
        // nginx reads any file in these folders (`sites-available/default`,
        // `snippets/proxy_params`).
        "(^|/)(sites-(available|enabled)|snippets)/".into(),
    ]
    .map(|p| format!("({p})"));
    // Case-insensitive, as `wanted_by_name` compares names.
    format!("(?i){}", alternatives.join("|"))
}

const HOOKS: &str = ".pre-commit-hooks.yaml";

/// The `files:` line of the hook, and the whole file.
fn hook_pattern() -> (String, String) {
    let text = std::fs::read_to_string(common::root().join(HOOKS)).unwrap();
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("files: "))
        .expect("a files: line");
    let unquoted = line
        .strip_prefix('\'')
        .and_then(|l| l.strip_suffix('\''))
        .expect("the pattern in single quotes");
    (unquoted.replace("''", "'"), text)
}

/// `retrylint-fix` takes the files `retrylint` does (the update below
/// rewrites both lines).
#[test]
fn both_hooks_take_the_same_files() {
    let text = std::fs::read_to_string(common::root().join(HOOKS)).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.trim().starts_with("files: "))
        .collect();
    assert_eq!(lines.len(), 2, "{HOOKS}: retrylint and retrylint-fix");
    assert_eq!(lines[0], lines[1]);
    assert!(text.contains("- id: retrylint-fix\n"));
    assert!(text.contains("entry: retrylint check --fix\n"));
}

#[test]
fn the_hook_pattern_is_the_generated_one() {
    let want = pattern();
    let (have, text) = hook_pattern();
    if have != want {
        if std::env::var_os("UPDATE_PRECOMMIT").is_some() {
            let new = text.replace(
                &format!("files: '{}'", have.replace('\'', "''")),
                &format!("files: '{}'", want.replace('\'', "''")),
            );
            std::fs::write(common::root().join(HOOKS), new).unwrap();
        } else {
            panic!(
                "{HOOKS}'s files: pattern is not the generated one; run \
                 `UPDATE_PRECOMMIT=1 cargo test --test suite precommit::`\nhave: {have}\nwant: {want}"
            );
        }
    }
}

/// Every file under `dir`, with its path relative to `dir`.
fn files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let t = e.file_type().unwrap();
            if t.is_dir() {
                stack.push(p);
            } else if t.is_file() {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((p, rel));
            }
        }
    }
    out
}

/// The pattern matches every file a reader takes and every name
/// `wanted_by_name` accepts, and nothing else.
fn check_tree(dir: &Path, min_claimed: usize) {
    let re = Regex::new(&pattern()).unwrap();
    let mut claimed = 0;
    let mut errors = Vec::new();
    for (path, rel) in files(dir) {
        let rel_path = Path::new(&rel);
        let wanted = wanted_by_name(rel_path);
        if re.is_match(&rel) != wanted {
            errors.push(format!(
                "{rel}: wanted_by_name {wanted}, pattern {}",
                !wanted
            ));
        }
        if let Ok(bytes) = std::fs::read(&path)
            && classify(rel_path, &bytes).is_some()
        {
            claimed += 1;
            if !re.is_match(&rel) {
                errors.push(format!("{rel}: read by retrylint, not given to the hook"));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(claimed >= min_claimed, "{claimed}");
}

#[test]
fn the_hook_receives_every_fixture_retrylint_reads() {
    check_tree(&common::root().join("testdata"), 100);
}

#[test]
#[ignore = "needs ../shared/corpus (or RETRYLINT_SHARED); CI runs it with --include-ignored"]
fn the_hook_receives_every_corpus_file_retrylint_reads() {
    check_tree(&common::shared_dir().join("corpus"), 20);
}

#[test]
fn the_names_of_the_issue_reach_the_hook() {
    let re = Regex::new(&pattern()).unwrap();
    for p in [
        "etc/nginx/sites-available/default",
        "sites-enabled/api",
        "shared_config",
        "config/aws_config",
        "home/.aws/config",
        ".aws/credentials",
        "ci/aws-credentials.ini",
        "deploy/nginx.conf",
        "nginx/templates/default.conf.template",
        "svc/src/main/resources/application.properties",
        "svc/pom.xml",
        "gradle/libs.versions.toml",
        "App/App.csproj",
        "Cargo.lock",
        "a/Application.YML",
    ] {
        assert!(re.is_match(p), "{p}");
        assert!(wanted_by_name(Path::new(p)), "{p}");
    }
    for p in [
        "README.md",
        "Cargo.toml",
        "src/Main.kt",
        "config",
        "docs/aws.md",
    ] {
        assert!(!re.is_match(p), "{p}");
        assert!(!wanted_by_name(Path::new(p)), "{p}");
    }
}
