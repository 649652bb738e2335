//! The Kustomize step's result kept in the facts cache folder between
//! runs (issue 27, `link/kustomize/memo.rs`): taken when nothing it read
//! changed (also when a file it does not read did), never when something
//! it read did (a scanned file, a file it read from disk) or a
//! kustomization was added, and a damaged one is built again; the output
//! is the same as a run without a cache every time.

use crate::common;

use retrylint::config::Settings;
use retrylint::render;
use std::path::Path;

const MEMO: &str = "kustomize-v2";

fn json(root: &Path, cache: Option<&Path>) -> String {
    let s = Settings {
        cache_dir: cache.map(Path::to_path_buf),
        ..Settings::default()
    };
    let retrylint::pipeline::Run { scan, report, .. } = retrylint::pipeline::Pipeline::new(&s)
        .run(&[root.to_path_buf()])
        .unwrap();
    render::json::render(&scan, &report.findings)
}

fn copy(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let t = to.join(e.file_name());
        if p.is_dir() {
            std::fs::create_dir_all(&t).unwrap();
            copy(&p, &t);
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

/// The kept result's inode: a run that builds replaces the file (a new
/// one renamed over it), a run that takes it leaves it.
#[cfg(unix)]
fn inode(p: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(p).unwrap().ino()
}

#[cfg(unix)]
#[test]
fn kept_overlays_are_taken_until_an_input_changes() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("src");
    std::fs::create_dir_all(&root).unwrap();
    copy(
        &common::root().join("testdata/templates/kustomize-overlays"),
        &root,
    );
    let cache = t.path().join("cache");
    let memo = cache.join(MEMO);
    let plain = json(&root, None);
    assert!(plain.contains("overlays/canary"), "{plain}");

    // The first run builds and keeps; the second takes it.
    assert_eq!(json(&root, Some(&cache)), plain);
    let kept = inode(&memo);
    assert_eq!(json(&root, Some(&cache)), plain);
    assert_eq!(inode(&memo), kept, "the second run built again");

    // A scanned file no build reads, added and then changed (a one-file
    // run's edit of a service's configuration): still taken.
    let other = root.join("service/src/main/resources/application.yml");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::write(&other, "resilience4j.retry.instances.a.max-attempts: 4\n").unwrap();
    let with_other = json(&root, None);
    assert_ne!(with_other, plain);
    assert_eq!(json(&root, Some(&cache)), with_other);
    assert_eq!(
        inode(&memo),
        kept,
        "a file no build reads was taken as input"
    );
    std::fs::write(&other, "resilience4j.retry.instances.a.max-attempts: 5\n").unwrap();
    let with_other = json(&root, None);
    assert_ne!(with_other, plain);
    assert_eq!(json(&root, Some(&cache)), with_other);
    assert_eq!(
        inode(&memo),
        kept,
        "a file no build reads was taken as input"
    );
    std::fs::remove_dir_all(root.join("service")).unwrap();
    assert_eq!(json(&root, Some(&cache)), plain);

    // A file the build read from disk (a JSON 6902 op list the scan did
    // not keep) changed: built again, as a run without a cache.
    let ops = root.join("overlays/canary/shorter-timeout.json");
    let text = std::fs::read_to_string(&ops).unwrap();
    std::fs::write(&ops, text.replace("\"8s\"", "\"9s\"")).unwrap();
    let changed = json(&root, None);
    assert_ne!(changed, plain);
    assert!(changed.contains("`9s`"), "{changed}");
    assert_eq!(json(&root, Some(&cache)), changed);
    assert_ne!(inode(&memo), kept);

    // A scanned file changed (the patch's retries).
    let patch = root.join("overlays/prod/retries-patch.yaml");
    let text = std::fs::read_to_string(&patch).unwrap();
    std::fs::write(&patch, text.replace("attempts: 5", "attempts: 4")).unwrap();
    let changed = json(&root, None);
    assert_eq!(json(&root, Some(&cache)), changed);

    // A new overlay (a scanned file added).
    let dev = root.join("overlays/dev");
    std::fs::create_dir_all(&dev).unwrap();
    std::fs::write(
        dev.join("kustomization.yaml"),
        "namespace: dev\nresources:\n- ../../base\n",
    )
    .unwrap();
    let changed = json(&root, None);
    assert_eq!(json(&root, Some(&cache)), changed);

    // A damaged kept result is built again.
    let mut bytes = std::fs::read(&memo).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&memo, bytes).unwrap();
    assert_eq!(json(&root, Some(&cache)), changed);
    assert_eq!(json(&root, Some(&cache)), changed);
}
