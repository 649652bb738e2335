use super::*;
use crate::cache::stat::RACY;
use std::fs;

fn stamp(n: i128) -> Stamp {
    let mut b = Vec::new();
    for v in [
        3u64.to_le_bytes().as_slice(),
        &n.to_le_bytes(),
        &n.to_le_bytes(),
        &7u64.to_le_bytes(),
        &1u64.to_le_bytes(),
    ] {
        b.extend_from_slice(v);
    }
    Stamp::read(&b).unwrap()
}

#[test]
fn round_trips_and_refuses_a_cut_or_foreign_file() {
    let l = Listing {
        key: u128::MAX - 5,
        symlinks: 2,
        files: vec!["/r/a/b.yaml".into(), "/r/a/c.yaml".into(), "/r/z".into()],
        gits: vec!["/r/sub".into()],
        vendored: vec!["/r/vendor".into()],
        folders: vec![("/r".into(), stamp(1)), ("/r/a".into(), stamp(-2))],
        probes: vec![
            ("/.git".into(), Was::Absent),
            ("/r/.git".into(), Was::Folder),
            ("/r/.gitignore".into(), Was::Stamped(stamp(9))),
        ],
    };
    let bytes = encode(&l);
    assert_eq!(decode(&bytes), Some(l));
    for cut in [0, 8, 30, bytes.len() - 1] {
        assert_eq!(decode(&bytes[..cut]), None, "{cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(decode(&longer), None);
    assert_eq!(
        decode(&[b"rlwalk1\0".as_slice(), &bytes[8..]].concat()),
        None
    );
    // A count far past the end is refused, not allocated.
    let mut huge = bytes[..8 + 16 + 8].to_vec();
    huge.extend_from_slice(&u64::MAX.to_le_bytes());
    assert_eq!(decode(&huge), None);
}

/// A tree whose files are older than the racy window.
fn tree(root: &Path) {
    for (p, text) in [
        ("a/x.yaml", "retries: 3\n"),
        ("a/b/y.yaml", "retries: 3\n"),
        ("c/z.yaml", "retries: 3\n"),
        ("d/w.yaml", "retries: 3\n"),
        ("e/v.yaml", "retries: 3\n"),
        ("ignored/u.yaml", "retries: 3\n"),
        (".gitignore", "ignored/\n"),
        ("a/.gitignore", "*.log\n"),
        (".git/info/exclude", "\n"),
    ] {
        let p = root.join(p);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
}

fn files(w: &Walk) -> Vec<PathBuf> {
    w.files.iter().map(|c| c.path.clone()).collect()
}

/// Each edit, made after a listing was recorded, gives the files a walk
/// gives (the listing is not used); an edit of a file's text keeps it.
#[test]
fn the_listing_is_used_until_a_folder_or_an_ignore_file_changes() {
    let t = tempfile::tempdir().unwrap();
    type Edit = fn(&Path);
    let edits: [(&str, Edit, bool); 10] = [
        (
            "a file's text",
            |r| fs::write(r.join("a/b/y.yaml"), "retries: 4\n").unwrap(),
            true,
        ),
        (
            "a file added",
            |r| fs::write(r.join("a/b/new.yaml"), "x: 1\n").unwrap(),
            false,
        ),
        (
            "a file deleted",
            |r| fs::remove_file(r.join("c/z.yaml")).unwrap(),
            false,
        ),
        (
            "a folder added",
            |r| {
                fs::create_dir_all(r.join("d/deeper")).unwrap();
                fs::write(r.join("d/deeper/n.yaml"), "x: 1\n").unwrap();
            },
            false,
        ),
        (
            "a .gitignore edited",
            |r| {
                use std::io::Write;
                let mut f = fs::OpenOptions::new()
                    .append(true)
                    .open(r.join(".gitignore"))
                    .unwrap();
                f.write_all(b"c/\n").unwrap();
            },
            false,
        ),
        (
            "a nested .gitignore edited",
            |r| {
                use std::io::Write;
                let mut f = fs::OpenOptions::new()
                    .append(true)
                    .open(r.join("a/.gitignore"))
                    .unwrap();
                f.write_all(b"b/\n").unwrap();
            },
            false,
        ),
        (
            "a .gitignore added",
            |r| fs::write(r.join("e/.gitignore"), "v.yaml\n").unwrap(),
            false,
        ),
        (
            ".git/info/exclude edited",
            |r| {
                use std::io::Write;
                let mut f = fs::OpenOptions::new()
                    .append(true)
                    .open(r.join(".git/info/exclude"))
                    .unwrap();
                f.write_all(b"d/\n").unwrap();
            },
            false,
        ),
        (
            // The listing holds; the tracked files are found again
            // (`cache::tracked`).
            "an ignored file tracked (the index written)",
            |r| {
                let index = crate::discover::index_bytes(2, &[("ignored/u.yaml", 0o100644)]);
                fs::write(r.join(".git/index"), index).unwrap();
            },
            true,
        ),
        (
            "a file renamed",
            |r| fs::rename(r.join("d/w.yaml"), r.join("d/w2.yaml")).unwrap(),
            false,
        ),
    ];
    let root = |i: usize| t.path().join(format!("t{i}"));
    for i in 0..edits.len() {
        tree(&root(i));
    }
    std::thread::sleep(RACY + std::time::Duration::from_millis(200));
    let run = |i: usize| {
        let r = root(i);
        walk(
            Some(&r.join(".cache")),
            1,
            std::slice::from_ref(&r),
            &[],
            None,
        )
        .unwrap()
    };
    for i in 0..edits.len() {
        let first = run(i);
        assert!(!first.listed);
        assert_eq!(first.files.len(), 7, "{:?}", files(&first));
    }
    // The first run made the cache folder: the root changed since.
    std::thread::sleep(RACY + std::time::Duration::from_millis(200));
    for i in 0..edits.len() {
        assert!(!run(i).listed);
    }
    std::thread::sleep(RACY + std::time::Duration::from_millis(200));
    for (i, (what, edit, kept)) in edits.iter().enumerate() {
        let r = root(i);
        let listed = run(i);
        assert!(listed.listed, "{what}: unchanged, from the listing");
        let walked = crate::discover::walk(std::slice::from_ref(&r), &[], None).unwrap();
        assert_eq!(files(&listed), files(&walked), "{what}");
        assert_eq!(listed.symlinks, walked.symlinks);
        edit(&r);
        let after = run(i);
        let walked = crate::discover::walk(std::slice::from_ref(&r), &[], None).unwrap();
        assert_eq!(after.listed, *kept, "{what}");
        assert_eq!(files(&after), files(&walked), "{what}");
        if !kept || what.contains("tracked") {
            assert_ne!(
                files(&after),
                files(&listed),
                "{what}: the edit changes the walk"
            );
        }
    }
}
