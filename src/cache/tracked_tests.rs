use super::*;
use crate::cache::stat::RACY;
use std::fs;

const FILE: u32 = 0o100644;

fn settle() {
    std::thread::sleep(RACY + std::time::Duration::from_millis(200));
}

fn run(root: &Path) -> Walk {
    crate::cache::listing::walk(
        Some(&root.join(".cache")),
        1,
        &[root.to_path_buf()],
        &[],
        None,
    )
    .unwrap()
}

fn names(w: &Walk, root: &Path) -> Vec<String> {
    w.files
        .iter()
        .map(|c| c.path.strip_prefix(root).unwrap().display().to_string())
        .collect()
}

fn index(root: &Path, paths: &[&str]) {
    let entries: Vec<(&str, u32)> = paths.iter().map(|p| (*p, FILE)).collect();
    fs::write(
        root.join(".git/index"),
        crate::discover::index_bytes(2, &entries),
    )
    .unwrap();
}

/// A pre-commit hook's runs: `git add` of an ordinary file, then of an
/// ignored one, then the ignored file deleted. The listing is taken from
/// the cache every time (the tree is not walked again); the tracked
/// ignored file is found, then its record used, then its deletion seen.
#[test]
fn a_changed_index_keeps_the_listing_and_finds_the_tracked_files_again() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("repo");
    for (p, text) in [
        (".gitignore", "ignored/\n.cache/\n"),
        ("a.yaml", "retries: 3\n"),
        ("b.yaml", "retries: 3\n"),
        ("ignored/u.yaml", "retries: 3\n"),
        ("ignored/v.yaml", "retries: 3\n"),
    ] {
        let p = root.join(p);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
    fs::create_dir_all(root.join(".git")).unwrap();
    index(&root, &[".gitignore", "a.yaml"]);
    settle();
    // The first run makes the cache folder (the root changes), the
    // second records the listing, the third takes it.
    assert!(!run(&root).listed);
    settle();
    assert!(!run(&root).listed);
    settle();
    let w = run(&root);
    assert!(w.listed);
    assert_eq!(names(&w, &root), [".gitignore", "a.yaml", "b.yaml"]);

    // `git add b.yaml`: the index changes, the listing holds.
    index(&root, &[".gitignore", "a.yaml", "b.yaml"]);
    let w = run(&root);
    assert!(w.listed, "an ordinary `git add` walks the tree again");
    assert_eq!(names(&w, &root), [".gitignore", "a.yaml", "b.yaml"]);

    // `git add -f ignored/u.yaml`: found, from the listing.
    index(&root, &[".gitignore", "a.yaml", "b.yaml", "ignored/u.yaml"]);
    let w = run(&root);
    assert!(w.listed);
    let want = [".gitignore", "a.yaml", "b.yaml", "ignored/u.yaml"];
    assert_eq!(names(&w, &root), want);
    let walked = crate::discover::walk(std::slice::from_ref(&root), &[], None).unwrap();
    assert_eq!(names(&walked, &root), want);

    // Once the index is older than the racy window, the tracked files
    // are recorded, and the next run takes them from the record.
    settle();
    let w = run(&root);
    assert!(w.listed);
    assert_eq!(names(&w, &root), want);
    let record = decode(&fs::read(root.join(".cache").join(FILE_NAME)).unwrap()).unwrap();
    assert_eq!(record.files, [root.join("ignored/u.yaml")]);
    assert!(record.holds());
    assert!(record.probes.iter().any(|(p, _)| p.ends_with(".git/index")));
    let w = run(&root);
    assert_eq!(names(&w, &root), want);

    // The tracked file deleted from disk (the index unchanged): its
    // folder is watched by the record, not by the listing.
    fs::remove_file(root.join("ignored/u.yaml")).unwrap();
    let w = run(&root);
    assert!(w.listed);
    assert_eq!(names(&w, &root), [".gitignore", "a.yaml", "b.yaml"]);
}

#[test]
fn a_record_round_trips_and_refuses_a_cut_file() {
    let r = Record {
        listing: 42,
        files: vec!["/r/ignored/u.yaml".into()],
        folders: vec![],
        probes: vec![("/r/.git/index".into(), Was::Absent)],
    };
    let bytes = encode(&r);
    assert_eq!(decode(&bytes), Some(r));
    for cut in 0..bytes.len() {
        assert_eq!(decode(&bytes[..cut]), None, "{cut}");
    }
}
