//! A one-file run (`retrylint check FILE` inside a repository, as the
//! pre-commit hook runs it; issue 27) reports for that file exactly what
//! a run over the whole tree reports for it: the same findings, the same
//! lines, with and without a warm facts cache. The trees are the ones
//! whose findings need other files: the monorepo's retries multiplied
//! across services and every call graph of `testdata/graph` (Kustomize
//! overlays, ConfigMaps, Compose, Spring placeholders, meshes, ...).

use crate::common;

use retrylint::config::Settings;
use retrylint::pipeline::{Pipeline, Run};
use std::path::{Path, PathBuf};

/// The concise lines of a run over `root` with the CLI's settings for
/// it: the whole tree, or (`only`) the tree read around one named file
/// and that file reported.
fn lines(root: &Path, cache: Option<&Path>, only: Option<&Path>) -> (Vec<PathBuf>, Vec<String>) {
    let (files, lines, _) = run(root, cache, only);
    (files, lines)
}

/// [`lines`], and whether the walk's files came from the cache's listing.
fn run(
    root: &Path,
    cache: Option<&Path>,
    only: Option<&Path>,
) -> (Vec<PathBuf>, Vec<String>, bool) {
    let named: Vec<PathBuf> = only.map(|f| vec![f.to_path_buf()]).unwrap_or_default();
    let s = Settings {
        cwd: Some(root.to_path_buf()),
        cache_dir: cache.map(Path::to_path_buf),
        named_files: named.clone(),
        ..Settings::default()
    };
    let nearest = if named.is_empty() {
        vec![root.to_path_buf()]
    } else {
        named
    };
    let keep = |f: &retrylint::source::SourceFile| only.is_none_or(|o| root.join(&f.path) == o);
    let Run { scan, report, .. } = Pipeline::new(&s)
        .nearest_configs(Some(&nearest))
        .run_for(&[root.to_path_buf()], keep)
        .unwrap();
    let files = scan
        .files
        .iter()
        .map(|f| root.join(&f.source.path))
        .collect();
    let text = common::concise(&scan, &report.findings);
    (
        files,
        text.lines().map(str::to_string).collect(),
        scan.stats.cache.listed,
    )
}

/// For every file the whole run read: its lines of the whole run are the
/// one-file run's lines. Returns how many files had findings.
fn same_for_each_file(root: &Path, cache: Option<&Path>) -> usize {
    let (files, all) = lines(root, cache, None);
    assert!(!files.is_empty(), "{}", root.display());
    let mut with_findings = 0;
    for f in &files {
        let shown = f.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        let want: Vec<&String> = all
            .iter()
            .filter(|l| {
                l.strip_prefix(shown.as_str())
                    .is_some_and(|r| r.starts_with(':'))
            })
            .collect();
        let (_, got) = lines(root, cache, Some(f));
        let got: Vec<&String> = got.iter().collect();
        assert_eq!(got, want, "one-file run of {}", f.display());
        with_findings += usize::from(!want.is_empty());
    }
    with_findings
}

fn trees() -> Vec<PathBuf> {
    let testdata = common::root().join("testdata");
    let mut trees = vec![testdata.join("monorepo")];
    let mut graphs: Vec<PathBuf> = std::fs::read_dir(testdata.join("graph"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    graphs.sort();
    trees.extend(graphs);
    trees
}

#[test]
fn a_one_file_run_reports_what_the_whole_run_reports_for_that_file() {
    let mut files_with_findings = 0;
    let trees = trees();
    assert!(trees.len() > 100, "{}", trees.len());
    for root in &trees {
        files_with_findings += same_for_each_file(root, None);
    }
    // The comparison is not empty: 73 files report something at stop 47.
    assert!(files_with_findings > 50, "{files_with_findings}");
}

/// The same with the facts cache warm (what the hook finds after the
/// first run), on the monorepo, whose RL401 finding joins seven layers
/// of four services.
#[test]
fn a_warm_one_file_run_reports_what_the_whole_run_reports_for_that_file() {
    let t = tempfile::tempdir().unwrap();
    let cache = t.path().join("cache");
    let root = common::root().join("testdata/monorepo");
    // Cold, then warm: the second pass reads every file's facts from it.
    let cold = same_for_each_file(&root, Some(&cache));
    let warm = same_for_each_file(&root, Some(&cache));
    assert_eq!(cold, warm);
    assert!(warm >= 4, "{warm}");
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// Wait until what was written now is older than the caches' racy
/// window, so that the next run records it.
fn settle() {
    std::thread::sleep(retrylint::cache::stat::RACY + std::time::Duration::from_millis(200));
}

/// Between two warm runs a file is changed, one added, one deleted: each
/// one-file run reports what a whole run without a cache reports for
/// that file. The walk's files come from the cache's listing until a
/// folder changes (a file added or deleted), not when a file's text does.
#[test]
fn a_warm_one_file_run_sees_files_changed_added_and_deleted_between_runs() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("repo");
    let cache = t.path().join("cache");
    copy_tree(&common::root().join("testdata/monorepo"), &root);
    let nginx = root.join("gateway/nginx.conf");
    let added = root.join("services/billing/src/main/resources/application.yml");
    let expect = |file: &Path| -> Vec<String> {
        let shown = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let (_, all) = lines(&root, None, None);
        all.into_iter()
            .filter(|l| {
                l.strip_prefix(shown.as_str())
                    .is_some_and(|r| r.starts_with(':'))
            })
            .collect()
    };
    // Recorded, then taken from the listing.
    settle();
    let (_, first, listed) = run(&root, Some(&cache), Some(&nginx));
    assert!(!listed);
    let (_, again, listed) = run(&root, Some(&cache), Some(&nginx));
    assert!(listed, "nothing changed: the walk's files from the listing");
    assert_eq!(first, again);
    assert_eq!(again, expect(&nginx));
    assert!(
        again
            .iter()
            .any(|l| l.contains("RL401") && l.contains("`2187`")),
        "{again:?}"
    );
    type Edit<'a> = (&'a str, Box<dyn Fn()>, &'a Path, bool);
    let (r, a, d) = (root.clone(), added.clone(), root.clone());
    let edits: Vec<Edit> = vec![
        (
            "changed: the mesh's retries",
            Box::new(move || {
                let p = r.join("deploy/istio/virtual-services.yaml");
                let text = std::fs::read_to_string(&p).unwrap();
                assert!(text.contains("attempts: 2"), "{text}");
                std::fs::write(&p, text.replacen("attempts: 2", "attempts: 4", 1)).unwrap();
            }),
            &nginx,
            true,
        ),
        (
            "added: a service's configuration",
            Box::new(move || {
                std::fs::create_dir_all(a.parent().unwrap()).unwrap();
                std::fs::copy(
                    common::root().join("testdata/rules/RL203/err/resilience4j-exponential.yml"),
                    &a,
                )
                .unwrap();
            }),
            &added,
            false,
        ),
        (
            "deleted: a layer of the chain",
            Box::new(move || {
                std::fs::remove_file(d.join("services/payments/src/ledger.rs")).unwrap();
            }),
            &nginx,
            false,
        ),
    ];
    for (what, edit, file, kept) in edits {
        // The run after a folder changed walks and records; the next one
        // takes the listing.
        settle();
        let (_, before, _) = run(&root, Some(&cache), Some(&nginx));
        let (_, same, listed) = run(&root, Some(&cache), Some(&nginx));
        assert!(listed, "{what}: before the edit, from the listing");
        assert_eq!(before, same, "{what}");
        edit();
        let (_, after, listed) = run(&root, Some(&cache), Some(file));
        assert_eq!(listed, kept, "{what}");
        assert_eq!(after, expect(file), "{what}");
        assert!(!after.is_empty(), "{what}");
        if file == nginx.as_path() {
            assert_ne!(
                after, before,
                "{what}: the edit changes the file's findings"
            );
        }
    }
}
