//! Files git tracks that an ignore rule matches are read (issue 17,
//! Azure-Samples/aks-store-demo 7ce10c51: `kustomize` in `.gitignore`,
//! `kustomize/` tracked); untracked ignored files, `.ignore`, `--exclude`
//! and trees outside git are as before.

use super::tracked::{index_bytes, parse_index, regular_files, split_index_bytes};
use super::*;
use std::fs;

const FILE: u32 = 0o100644;

fn write(root: &Path, files: &[(&str, &str)]) {
    for (p, text) in files {
        let p = root.join(p);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
}

fn names(w: &Walk, root: &Path) -> Vec<String> {
    w.files
        .iter()
        .map(|c| {
            c.path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

#[test]
fn every_index_version_gives_its_regular_files() {
    let entries = [
        ("a/b.yaml", FILE),
        ("a/c.sh", 0o100755),
        ("a/link", 0o120000),
        ("kustomize/base/x.yaml", FILE),
        ("kustomize/base/x.yaml", FILE),
        ("sub", 0o160000),
        ("z", FILE),
    ];
    let want: Vec<Vec<u8>> = ["a/b.yaml", "a/c.sh", "kustomize/base/x.yaml", "z"]
        .iter()
        .map(|p| p.as_bytes().to_vec())
        .collect();
    for v in 2..=4 {
        let index = parse_index(&index_bytes(v, &entries), 20).unwrap();
        assert!(index.link.is_none());
        assert_eq!(regular_files(index, None), want, "version {v}");
    }
    assert!(parse_index(b"DIRC\0\0\0\x05\0\0\0\0", 20).is_none());
    assert!(parse_index(b"not an index", 20).is_none());
    // Cut anywhere: no panic.
    let bytes = index_bytes(4, &entries);
    for n in 0..bytes.len() {
        let _ = parse_index(&bytes[..n], 20);
    }
}

/// A tree with an ignored folder holding a tracked and an untracked file,
/// and an index of version `v`.
fn repo(root: &Path, v: u32) {
    write(
        root,
        &[
            (".gitignore", "kustomize\n*.log\n"),
            ("app.yaml", "a: 1\n"),
            ("kustomize/base/ai.yaml", "kind: Deployment\n"),
            ("kustomize/base/local.yaml", "kind: Deployment\n"),
            ("kustomize/overlays/dev/k.yaml", "resources: []\n"),
            ("debug.log", "x\n"),
            ("kept.log", "x\n"),
        ],
    );
    fs::create_dir_all(root.join(".git")).unwrap();
    let entries = [
        (".gitignore", FILE),
        ("app.yaml", FILE),
        ("kept.log", FILE),
        ("kustomize/base/ai.yaml", FILE),
        ("kustomize/overlays/dev/k.yaml", FILE),
        ("kustomize/overlays/gone.yaml", FILE),
    ];
    fs::write(root.join(".git/index"), index_bytes(v, &entries)).unwrap();
}

#[test]
fn a_tracked_file_an_ignore_rule_matches_is_read() {
    for v in 2..=4 {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().to_path_buf();
        repo(&root, v);
        let w = walk(std::slice::from_ref(&root), &[], None).unwrap();
        assert_eq!(
            names(&w, &root),
            [
                ".gitignore",
                "app.yaml",
                "kept.log",
                "kustomize/base/ai.yaml",
                "kustomize/overlays/dev/k.yaml"
            ],
            "version {v}"
        );
        // The folders entered for them are watched by the listing.
        assert!(w.folders.contains(&root.join("kustomize/overlays/dev")));
    }
}

#[test]
fn a_root_below_the_top_of_the_work_tree() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().to_path_buf();
    write(
        &root,
        &[
            (".gitignore", "kustomize\n"),
            ("svc/s.yaml", "a: 1\n"),
            ("svc/kustomize/base/k.yaml", "a: 1\n"),
            ("svc/kustomize/base/u.yaml", "a: 1\n"),
        ],
    );
    fs::create_dir_all(root.join(".git")).unwrap();
    let index = index_bytes(
        2,
        &[("svc/kustomize/base/k.yaml", FILE), ("svc/s.yaml", FILE)],
    );
    fs::write(root.join(".git/index"), index).unwrap();
    let sub = root.join("svc");
    let w = walk(std::slice::from_ref(&sub), &[], None).unwrap();
    assert_eq!(names(&w, &sub), ["kustomize/base/k.yaml", "s.yaml"]);
    // A root is never ignored: one inside the ignored folder is read whole.
    let w = walk(&[sub.join("kustomize")], &[], None).unwrap();
    assert_eq!(w.files.len(), 2);
}

#[test]
fn other_rules_still_hold_and_trees_outside_git_are_as_before() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().to_path_buf();
    repo(&root, 2);
    // `--exclude` and `.ignore` apply to tracked files too.
    let w = walk(
        std::slice::from_ref(&root),
        &["kustomize/overlays/**".into()],
        Some(&root),
    )
    .unwrap();
    assert_eq!(
        names(&w, &root),
        [
            ".gitignore",
            "app.yaml",
            "kept.log",
            "kustomize/base/ai.yaml"
        ]
    );
    fs::write(root.join("kustomize/.ignore"), "base/\n").unwrap();
    let w = walk(std::slice::from_ref(&root), &[], None).unwrap();
    assert_eq!(
        names(&w, &root),
        [
            ".gitignore",
            "app.yaml",
            "kept.log",
            "kustomize/overlays/dev/k.yaml"
        ]
    );
    // Without the index (no work tree), the ignore rules decide alone.
    fs::remove_dir_all(root.join(".git")).unwrap();
    let w = walk(std::slice::from_ref(&root), &[], None).unwrap();
    assert_eq!(names(&w, &root), [".gitignore", "app.yaml"]);
}

#[test]
fn a_nested_work_tree_and_a_worktree_git_file_are_read() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().to_path_buf();
    write(&root, &[("top.yaml", "a: 1\n")]);
    let sub = root.join("sub");
    repo(&sub, 2);
    let w = walk(std::slice::from_ref(&root), &[], None).unwrap();
    assert!(
        names(&w, &root).contains(&"sub/kustomize/base/ai.yaml".to_string()),
        "{:?}",
        names(&w, &root)
    );
    // A `.git` file naming the folder of the index (`git worktree`).
    let other = t.path().join("gitdir");
    fs::rename(sub.join(".git"), &other).unwrap();
    fs::write(sub.join(".git"), format!("gitdir: {}\n", other.display())).unwrap();
    let w = walk(std::slice::from_ref(&sub), &[], None).unwrap();
    assert!(names(&w, &sub).contains(&"kustomize/base/ai.yaml".to_string()));
}

/// A split index git 2.47.3 wrote (testdata/README.md): `git rm --cached
/// ign/a.yaml` is a bit of the link's first bitmap, the 42 stat
/// refreshes nameless replacements; the paths are `git ls-files`'.
#[test]
fn a_split_index_git_wrote_gives_what_git_ls_files_gives() {
    let index = include_bytes!("../../testdata/git/split-index/index.bin");
    let shared = include_bytes!("../../testdata/git/split-index/sharedindex.bin");
    let want: Vec<Vec<u8>> = include_str!("../../testdata/git/split-index/ls-files.txt")
        .lines()
        .map(|l| l.as_bytes().to_vec())
        .collect();
    let index = parse_index(index, 20).unwrap();
    assert_eq!(
        index.link.as_ref().map(|l| l.shared.as_str()),
        Some("3011f82a8a06ddd58570a467ca56d042c3a9939e")
    );
    let shared = parse_index(shared, 20).unwrap();
    assert_eq!(shared.entries.len(), 43);
    let mut got = regular_files(index, Some(shared));
    got.sort();
    assert_eq!(got, want);
    assert!(!got.contains(&b"ign/a.yaml".to_vec()));
}

/// A file `git rm --cached` under an ignore line, still on disk, is not
/// read; one the split index adds is; a replaced entry keeps its path.
#[test]
fn a_split_index_removal_is_applied() {
    for v in 2..=4 {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().to_path_buf();
        write(
            &root,
            &[
                (".gitignore", "kustomize\n"),
                ("app.yaml", "a: 1\n"),
                ("kustomize/a.yaml", "kind: Deployment\n"),
                ("kustomize/b.yaml", "kind: Deployment\n"),
                ("kustomize/c.yaml", "kind: Deployment\n"),
                ("kustomize/d.yaml", "kind: Deployment\n"),
            ],
        );
        fs::create_dir_all(root.join(".git")).unwrap();
        let shared = [
            (".gitignore", FILE),
            ("app.yaml", FILE),
            ("kustomize/a.yaml", FILE),
            ("kustomize/b.yaml", FILE),
            ("kustomize/d.yaml", FILE),
        ];
        let name = [0xabu8; 20];
        let hex: String = name.iter().map(|b| format!("{b:02x}")).collect();
        fs::write(
            root.join(format!(".git/sharedindex.{hex}")),
            index_bytes(2, &shared),
        )
        .unwrap();
        // `app.yaml` refreshed, `kustomize/a.yaml` removed from the
        // index, `kustomize/d.yaml` replaced by a link, `kustomize/c.yaml`
        // added.
        let own = split_index_bytes(
            v,
            &[("", FILE), ("", 0o120000), ("kustomize/c.yaml", FILE)],
            name,
            shared.len(),
            &[2],
            &[1, 4],
        );
        fs::write(root.join(".git/index"), own).unwrap();
        let w = walk(std::slice::from_ref(&root), &[], None).unwrap();
        assert_eq!(
            names(&w, &root),
            [
                ".gitignore",
                "app.yaml",
                "kustomize/b.yaml",
                "kustomize/c.yaml"
            ],
            "version {v}"
        );
    }
}

#[test]
fn an_ewah_bitmap_is_bounded_and_read_in_runs() {
    use super::tracked::ewah;
    // A run of one word of ones, then a literal word with bit 3 set.
    let mut b = 200u32.to_be_bytes().to_vec();
    b.extend_from_slice(&2u32.to_be_bytes());
    b.extend_from_slice(&((1u64 << 33) | (1 << 1) | 1).to_be_bytes());
    b.extend_from_slice(&8u64.to_be_bytes());
    b.extend_from_slice(&0u32.to_be_bytes());
    let (set, took) = ewah(&b, 1000).unwrap();
    assert_eq!(took, b.len());
    assert_eq!(set, (0..64).chain([67]).collect::<Vec<_>>());
    // Positions past the entries are not given, however long the run.
    let mut huge = 1u32.to_be_bytes().to_vec();
    huge.extend_from_slice(&1u32.to_be_bytes());
    huge.extend_from_slice(&((0xffff_ffffu64 << 1) | 1).to_be_bytes());
    huge.extend_from_slice(&0u32.to_be_bytes());
    assert_eq!(ewah(&huge, 5).unwrap().0, [0, 1, 2, 3, 4]);
    for n in 0..b.len() {
        let _ = ewah(&b[..n], 1000);
    }
}
