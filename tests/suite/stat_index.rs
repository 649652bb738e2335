//! The stat index (issue 27): a warm run does not open a file whose stat
//! is unchanged when its reading left no text behind, and its output is
//! the output of a run without a cache, for a whole run and for a
//! one-file run, after edits of every kind (content, same size with the
//! modification time set back, added, deleted, `.gitignore`, binary).

use crate::common;

use retrylint::config::Settings;
use retrylint::pipeline::{Pipeline, Run};
use retrylint::{Scan, render};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A run over `root` reporting the files under `only` (all: `None`), with
/// the cache in `cache` (none: `None`): the scan, and its JSON output.
fn run(root: &Path, cache: Option<&Path>, only: Option<&Path>) -> (Scan, String) {
    let s = Settings {
        cache_dir: cache.map(Path::to_path_buf),
        cwd: Some(root.to_path_buf()),
        named_files: only.map(|f| vec![f.to_path_buf()]).unwrap_or_default(),
        ..Settings::default()
    };
    let keep = |f: &retrylint::source::SourceFile| only.is_none_or(|o| root.join(&f.path) == o);
    let Run { scan, report, .. } = Pipeline::new(&s)
        .run_for(&[root.to_path_buf()], keep)
        .unwrap();
    let json = render::json::render(&scan, &report.findings);
    (scan, json)
}

/// Wait until files written now are older than the index's racy window,
/// so that the next run records them.
fn settle() {
    std::thread::sleep(retrylint::cache::stat::RACY + Duration::from_millis(200));
}

fn copy(from: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(common::root().join("testdata").join(from), to).unwrap();
}

/// A tree with files of each outcome: facts (kept), empty facts, no reader
/// after a look, binary.
fn tree() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("repo");
    copy(
        "rules/RL203/err/resilience4j-exponential.yml",
        &root.join("a/application.yml"),
    );
    copy(
        "rules/RL203/err/rust-loop-fixed-sleep.rs",
        &root.join("b/src/db.rs"),
    );
    copy(
        "monorepo/gateway/nginx.conf",
        &root.join("gateway/nginx.conf"),
    );
    let write = |p: &str, s: &[u8]| {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    };
    // Empty facts: Java and YAML that say nothing about retries.
    write(
        "c/src/main/java/App.java",
        b"class App { int size() { return 1; } }\n",
    );
    write(
        "c/src/main/resources/application.yml",
        b"server:\n  port: 8081\n",
    );
    write("d/values.yaml", b"image: nginx\n");
    // Binary, under a name a reader wants.
    write("e/blob.yaml", b"\x00\x01\x02 retries: 3\x00");
    // A language not read yet, with and without a retry word.
    write("web/client.ts", b"const maxRetries = 5;\n");
    write("web/other.ts", b"export const size = 1;\n");
    write(".gitignore", b"ignored/\n");
    copy(
        "rules/RL203/err/resilience4j-exponential.yml",
        &root.join("ignored/application.yml"),
    );
    (t, root)
}

/// The cached run's output equals the uncached one's, for the whole tree
/// and for each of `files` alone; the number of files the cached whole
/// run did not open.
fn same(root: &Path, cache: &Path, files: &[&str]) -> usize {
    let (plain, j0) = run(root, None, None);
    let (warm, j1) = run(root, Some(cache), None);
    assert_eq!(j0, j1);
    assert_eq!(plain.stats.files_parsed, warm.stats.files_parsed);
    assert_eq!(plain.stats.binary, warm.stats.binary);
    assert_eq!(plain.stats.per_extractor, warm.stats.per_extractor);
    assert_eq!(plain.files.len(), warm.files.len());
    for f in files {
        let f = root.join(f);
        let (_, a) = run(root, None, Some(&f));
        let (_, b) = run(root, Some(cache), Some(&f));
        assert_eq!(a, b, "{}", f.display());
    }
    warm.stats.cache.unopened
}

#[test]
fn unchanged_files_are_not_opened_and_edits_of_every_kind_are_seen() {
    let (t, root) = tree();
    let cache = t.path().join("cache");
    let one = ["a/application.yml", "c/src/main/java/App.java"];
    settle();
    // Cold: every file opened, the index written.
    assert_eq!(same(&root, &cache, &one), 0);
    assert!(cache.join("stat-v1").is_file());
    // Warm: the files with empty facts (App.java, c's application.yml),
    // the binary one and the two TypeScript files are not opened; the
    // files with facts and the Helm values file (read again by the link
    // stage) are.
    let (warm, _) = run(&root, Some(&cache), None);
    assert_eq!(warm.stats.cache.unopened, 5, "{:?}", warm.stats.cache);
    assert_eq!(warm.stats.unread.by_language.values().flatten().count(), 1);
    assert_eq!(warm.stats.binary, 1);

    // A file with empty facts gains a retry setting.
    let app = root.join("c/src/main/resources/application.yml");
    std::fs::write(&app, std::fs::read(root.join("a/application.yml")).unwrap()).unwrap();
    assert_eq!(
        same(&root, &cache, &["c/src/main/resources/application.yml"]),
        4
    );

    // The same size, the modification time set back: the change time says.
    let java = root.join("c/src/main/java/App.java");
    let old = std::fs::metadata(&java).unwrap().modified().unwrap();
    std::fs::write(&java, b"class App { int size() { return 2; } }\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&java)
        .unwrap()
        .set_modified(old)
        .unwrap();
    assert_eq!(std::fs::metadata(&java).unwrap().modified().unwrap(), old);
    let (warm, _) = run(&root, Some(&cache), None);
    assert_eq!(warm.stats.cache.unopened, 3, "the Java file was read again");

    // A binary file becomes settings; a file is added; one is deleted;
    // `.gitignore` lets a folder in; a TypeScript file gains a retry word.
    std::fs::write(root.join("web/other.ts"), b"fetchWithRetry(url);\n").unwrap();
    std::fs::write(
        root.join("e/blob.yaml"),
        std::fs::read(common::root().join("testdata/rules/RL203/err/resilience4j-exponential.yml"))
            .unwrap(),
    )
    .unwrap();
    copy(
        "rules/RL203/err/rust-loop-fixed-sleep.rs",
        &root.join("f/src/lib.rs"),
    );
    std::fs::remove_file(root.join("d/values.yaml")).unwrap();
    std::fs::write(root.join(".gitignore"), b"# nothing\n").unwrap();
    let (edited, _) = run(&root, None, None);
    assert_eq!(edited.stats.binary, 0);
    let (warm, _) = run(&root, Some(&cache), None);
    assert_eq!(warm.stats.unread.by_language.values().flatten().count(), 2);
    same(
        &root,
        &cache,
        &[
            "e/blob.yaml",
            "f/src/lib.rs",
            "ignored/application.yml",
            "a/application.yml",
        ],
    );
    // And back: a folder ignored again, a file emptied of its settings.
    std::fs::write(root.join(".gitignore"), b"ignored/\n").unwrap();
    std::fs::write(&app, b"server:\n  port: 8082\n").unwrap();
    same(
        &root,
        &cache,
        &["a/application.yml", "c/src/main/resources/application.yml"],
    );
    // Once settled, the edited files are indexed too: App.java, c's
    // emptied application.yml and the TypeScript files (the blob is
    // settings now).
    settle();
    run(&root, Some(&cache), None);
    let (warm, j) = run(&root, Some(&cache), None);
    assert_eq!(warm.stats.cache.unopened, 4, "{:?}", warm.stats.cache);
    assert_eq!(warm.stats.unread.by_language.values().flatten().count(), 2);
    assert_eq!(j, run(&root, None, None).1);
}

/// A corrupt or truncated index reads as empty: every file is opened, and
/// the output is the same.
#[test]
fn a_corrupt_index_reads_as_empty() {
    let (t, root) = tree();
    let cache = t.path().join("cache");
    settle();
    run(&root, Some(&cache), None);
    let index = cache.join("stat-v1");
    let bytes = std::fs::read(&index).unwrap();
    for broken in [&bytes[..bytes.len() / 2], b"rlstat1\0garbage", b""] {
        std::fs::write(&index, broken).unwrap();
        let (warm, j) = run(&root, Some(&cache), None);
        assert_eq!(warm.stats.cache.unopened, 0);
        assert_eq!(j, run(&root, None, None).1);
    }
}

/// Every fixture of testdata, copied and settled: a warm run that opens
/// only the files with facts gives the output of a run without a cache.
#[test]
fn testdata_is_the_same_with_the_stat_index() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("testdata");
    copy_dir(&common::root().join("testdata"), &root);
    let cache = t.path().join("cache");
    settle();
    run(&root, Some(&cache), None);
    let unopened = same(&root, &cache, &[]);
    assert!(unopened > 50, "{unopened}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let ty = e.file_type().unwrap();
        if ty.is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else if ty.is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}
