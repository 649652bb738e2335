//! The link stage asks what the walk saw instead of the disk (issue 27:
//! a warm run stat-ed and listed every folder's build files again): the
//! same facts as asking the disk on every fixture and the corpus, and a
//! file the walk did not see is not looked for.

use crate::common;

use retrylint::config::Settings;
use retrylint::{Scan, ScannedFile};
use std::path::{Path, PathBuf};

fn settings() -> Settings {
    Settings {
        cache_dir: None,
        ..Settings::default()
    }
}

/// Every file's linked facts, as text, by path.
fn facts(scan: &Scan) -> Vec<(String, String)> {
    scan.files
        .iter()
        .map(|f| {
            (
                f.source.display_path(),
                format!("{:?} {:?}", f.facts, f.facts.diagnostics),
            )
        })
        .collect()
}

/// `root` read once, then linked with the walk's tree and with the disk.
fn linked_both_ways(root: &Path) -> (Scan, Scan) {
    let s = settings();
    let roots = [root.to_path_buf()];
    let unlinked = retrylint::pipeline::Pipeline::new(&s)
        .scan_unlinked(&roots)
        .unwrap();
    assert!(unlinked.tree.is_some(), "a walk keeps what it saw");
    let copy = |tree| Scan {
        files: unlinked.files.iter().map(ScannedFile::duplicate).collect(),
        cwd: unlinked.cwd.clone(),
        tree,
        ..Scan::default()
    };
    let mut from_tree = copy(unlinked.tree.clone());
    let mut from_disk = copy(None);
    retrylint::link_read(&mut from_tree, &roots, &s);
    retrylint::link_read(&mut from_disk, &roots, &s);
    (from_tree, from_disk)
}

fn same_both_ways(root: &Path) {
    let (tree, disk) = linked_both_ways(root);
    let (a, b) = (facts(&tree), facts(&disk));
    assert_eq!(a.len(), b.len(), "{}", root.display());
    let services = a.iter().filter(|(_, f)| f.contains("BuildUnit")).count();
    assert!(services > 0, "{}: no build unit read", root.display());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y, "{}", root.display());
    }
    assert_eq!(tree.notices, disk.notices);
}

#[test]
fn every_fixture_links_the_same_from_the_walk_as_from_the_disk() {
    same_both_ways(&common::root().join("testdata"));
}

#[test]
#[ignore = "needs ../shared/corpus (or RETRYLINT_SHARED); CI runs it with --include-ignored"]
fn the_corpus_links_the_same_from_the_walk_as_from_the_disk() {
    same_both_ways(&common::shared_dir().join("corpus"));
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The build unit named for `file` after linking.
fn unit_of(scan: &Scan, file: &str) -> Option<String> {
    let f = scan
        .files
        .iter()
        .find(|f| f.source.display_path().ends_with(file))?;
    f.facts
        .services
        .iter()
        .find(|s| format!("{:?}", s.kind) == "BuildUnit")
        .map(|s| s.name.clone())
}

const APP: &str = "resilience4j:\n  retry:\n    instances:\n      inventory:\n        maxAttempts: 3\n        waitDuration: 1s\n";

/// A build file made after the walk is not seen: the link stage did not
/// go to the disk for it. Before this change it read every folder's
/// build files again and found it.
#[test]
fn a_build_file_the_walk_did_not_see_is_not_looked_for() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("repo");
    write(&root.join("orders/src/main/resources/application.yml"), APP);
    let s = settings();
    let roots = [root.clone()];
    let walk = retrylint::discover::walk(&roots, &[], None).unwrap();
    write(
        &root.join("orders/pom.xml"),
        "<project><artifactId>orders-late</artifactId></project>",
    );
    let scan = retrylint::read_walk(walk, &roots, &s, std::time::Instant::now());
    assert_eq!(
        unit_of(&scan, "application.yml").as_deref(),
        Some("orders"),
        "named by its folder (it holds src/), not by the pom.xml made after the walk"
    );
    // Walked, it is read.
    let scan = retrylint::read_walk(
        retrylint::discover::walk(&roots, &[], None).unwrap(),
        &roots,
        &s,
        std::time::Instant::now(),
    );
    assert_eq!(
        unit_of(&scan, "application.yml").as_deref(),
        Some("orders-late")
    );
}

/// A build file `.gitignore` hides is not read, as no reader reads it;
/// a root given as a file is not covered, so its folder is asked on disk.
#[test]
fn ignored_files_are_absent_and_a_file_root_asks_the_disk() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("repo");
    write(&root.join("orders/src/main/resources/application.yml"), APP);
    write(
        &root.join("orders/pom.xml"),
        "<project><artifactId>orders-api</artifactId></project>",
    );
    write(&root.join(".gitignore"), "pom.xml\n");
    let s = settings();
    let scan = retrylint::scan(std::slice::from_ref(&root), &s).unwrap();
    assert_eq!(unit_of(&scan, "application.yml").as_deref(), Some("orders"));
    let tree = scan.tree.as_deref().unwrap();
    assert_eq!(tree.kind(&root.join("orders/pom.xml")), Some(None));
    assert_eq!(tree.kind(&root.join("orders/src")), Some(Some(true)));
    assert_eq!(
        tree.kind(&root.join("orders/src/main/resources/application.yml")),
        Some(Some(false))
    );
    assert_eq!(tree.kind(t.path()), None, "above the root: the disk");
    assert_eq!(tree.kind(&root.join("orders/../orders/pom.xml")), None);
    let names: Vec<&str> = tree
        .entries(&root.join("orders"))
        .unwrap()
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(names, ["src"]);
    // A file as the root: its folder was not walked.
    let file: PathBuf = root.join("orders/src/main/resources/application.yml");
    let scan = retrylint::scan(std::slice::from_ref(&file), &s).unwrap();
    let tree = scan.tree.as_deref().unwrap();
    assert_eq!(tree.kind(&root.join("orders/src/main/resources")), None);
}
