//! [`Tree::new`] builds each folder's entries once per folder (issue 27);
//! it must give what the first version gave, which inserted every
//! (folder, name, is a folder) of every file's ancestors into a set.

use super::*;
use std::collections::{HashMap, HashSet};

/// The first version of [`Tree::new`], kept as the reference.
fn reference(roots: &[PathBuf], files: &[PathBuf], cwd: Option<&Path>) -> Tree {
    let bytes = |p: &Path| p.as_os_str().as_encoded_bytes().to_vec();
    let mut tree = Tree::default();
    for r in roots {
        let Some(r) = absolute(r, cwd) else { continue };
        if std::fs::symlink_metadata(&r).is_ok_and(|m| m.is_dir()) {
            tree.dirs.entry(bytes(&r)).or_default();
            tree.roots.push(bytes(&r));
        }
    }
    let mut entries: HashSet<(PathBuf, String, bool)> = HashSet::new();
    for f in files {
        let Some(f) = absolute(f, cwd) else { continue };
        if !tree.covers(&bytes(&f)) {
            continue;
        }
        let mut child = f.as_path();
        let mut is_dir = false;
        while let Some(parent) = child.parent()
            && tree.covers(&bytes(parent))
            && let Some(name) = child.file_name()
        {
            if !entries.insert((
                parent.to_path_buf(),
                name.to_string_lossy().into_owned(),
                is_dir,
            )) {
                break;
            }
            child = parent;
            is_dir = true;
        }
        tree.files.insert(bytes(&f));
    }
    for (dir, name, is_dir) in entries {
        tree.dirs
            .entry(bytes(&dir))
            .or_default()
            .push((name, is_dir));
    }
    for list in tree.dirs.values_mut() {
        list.sort();
    }
    tree
}

fn same(a: &Tree, b: &Tree) {
    assert_eq!(a.roots, b.roots);
    assert_eq!(a.files, b.files);
    let keys = |t: &Tree| t.dirs.keys().cloned().collect::<HashSet<_>>();
    assert_eq!(keys(a), keys(b));
    let dirs: HashMap<_, _> = b.dirs.iter().collect();
    for (d, list) in &a.dirs {
        assert_eq!(Some(&list), dirs.get(d), "{}", String::from_utf8_lossy(d));
    }
}

#[test]
fn the_tree_is_the_reference_trees() {
    let cwd = std::env::current_dir().unwrap();
    let testdata = cwd.join("testdata");
    let walked = walk(std::slice::from_ref(&testdata), &[], Some(&cwd)).unwrap();
    let files: Vec<PathBuf> = walked.files.iter().map(|c| c.path.clone()).collect();
    assert!(files.len() > 1000, "{}", files.len());
    // Absolute and relative roots; a root inside another (its folder is
    // listed in its parent's entries); a file listed twice; a root given
    // as a file; a path with `.` and `..` in it; a file outside the roots.
    let rules = testdata.join("rules");
    let mut twice = files.clone();
    twice.extend(files.iter().take(50).cloned());
    twice.push(cwd.join("testdata/./rules/x.yaml"));
    twice.push(cwd.join("testdata/rules/../y.yaml"));
    twice.push(cwd.join("Cargo.toml"));
    let relative: Vec<PathBuf> = files
        .iter()
        .map(|f| f.strip_prefix(&cwd).unwrap_or(f).to_path_buf())
        .collect();
    let cases: Vec<(Vec<PathBuf>, Vec<PathBuf>, Option<&Path>)> = vec![
        (vec![testdata.clone()], files.clone(), None),
        (vec![testdata.clone(), rules.clone()], twice.clone(), None),
        (vec![rules.clone(), testdata.clone()], twice, None),
        (
            vec![PathBuf::from("testdata")],
            relative,
            Some(cwd.as_path()),
        ),
        (vec![cwd.join("Cargo.toml"), rules], files, None),
    ];
    for (roots, files, cwd) in cases {
        let new = Tree::new(&roots, files.iter().map(PathBuf::as_path), cwd);
        same(&new, &reference(&roots, &files, cwd));
    }
}

/// `kind` and `entries` answer a path with `.` in it as the cleaned path
/// (they no longer build the cleaned path), and a `..` as not covered.
#[test]
fn dots_answer_as_before() {
    let cwd = std::env::current_dir().unwrap();
    let root = cwd.join("testdata");
    let file = root.join("rules/RL203/ok");
    let walked = walk(std::slice::from_ref(&root), &[], Some(&cwd)).unwrap();
    let files: Vec<PathBuf> = walked.files.iter().map(|c| c.path.clone()).collect();
    let tree = Tree::new(
        std::slice::from_ref(&root),
        files.iter().map(PathBuf::as_path),
        None,
    );
    let dotted = root.join("./rules/./RL203/ok");
    assert_eq!(tree.kind(&dotted), tree.kind(&file));
    assert_eq!(tree.kind(&file), Some(Some(true)));
    assert_eq!(tree.entries(&dotted), tree.entries(&file));
    assert!(tree.entries(&file).is_some_and(|e| !e.is_empty()));
    assert_eq!(tree.kind(&root.join("rules/../rules/RL203/ok")), None);
    assert_eq!(tree.kind(Path::new("testdata/rules")), None);
}

/// The byte keys answer as `Path` compares: a trailing separator, a
/// doubled one and `.` components are the clean path; a root's sibling
/// whose name starts with the root's (`testdata2` beside `testdata`) is
/// not covered; the filesystem root's children have it as parent.
#[test]
fn byte_keys_answer_as_paths_compare() {
    let cwd = std::env::current_dir().unwrap();
    let root = cwd.join("testdata");
    let walked = walk(std::slice::from_ref(&root), &[], Some(&cwd)).unwrap();
    let files: Vec<PathBuf> = walked.files.iter().map(|c| c.path.clone()).collect();
    let tree = Tree::new(
        std::slice::from_ref(&root),
        files.iter().map(PathBuf::as_path),
        None,
    );
    let dir = root.join("rules");
    let plain = tree.kind(&dir);
    assert_eq!(plain, Some(Some(true)));
    let s = dir.to_str().unwrap();
    for variant in [
        format!("{s}/"),
        s.replacen("/rules", "//rules", 1),
        format!("{s}/."),
    ] {
        assert_eq!(tree.kind(Path::new(&variant)), plain, "{variant}");
        assert_eq!(
            tree.entries(Path::new(&variant)),
            tree.entries(&dir),
            "{variant}"
        );
    }
    let sibling = PathBuf::from(format!("{}2/x.yaml", root.display()));
    assert_eq!(tree.kind(&sibling), None);
    assert_eq!(split_last(b"/a"), Some((&b"/"[..], &b"a"[..])));
    assert_eq!(split_last(b"/a/b"), Some((&b"/a"[..], &b"b"[..])));
    assert_eq!(split_last(b"/"), None);
    assert!(below(b"/a/b", b"/a") && below(b"/a", b"/a") && below(b"/a", b"/"));
    assert!(!below(b"/ab", b"/a"));
}

/// Where more files match than are asked for, the answer is the first
/// ones in path order, the same in every run: the tree's files are a hash
/// set, and taking the first met gave a different set from process to
/// process (and from tree to tree in one process).
#[test]
fn the_first_files_matching_are_the_first_in_path_order() {
    let cwd = std::env::current_dir().unwrap();
    let root = cwd.join("testdata");
    let mut files: Vec<PathBuf> = (0..300)
        .map(|i| root.join(format!("many/d{:03}/Store{i}.yaml", (i * 7919) % 300)))
        .collect();
    files.extend((0..300).map(|i| root.join(format!("many/d{i:03}/pom.xml"))));
    let mut sorted = files.clone();
    sorted.sort();
    let yaml: Vec<PathBuf> = sorted
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .cloned()
        .collect();
    let poms: Vec<PathBuf> = sorted
        .iter()
        .filter(|p| p.ends_with("pom.xml"))
        .cloned()
        .collect();
    for _ in 0..4 {
        let tree = Tree::new(
            std::slice::from_ref(&root),
            files.iter().map(PathBuf::as_path),
            None,
        );
        assert_eq!(tree.files_named_ending(".yaml", 10), yaml[..10]);
        assert_eq!(tree.files_named_ending(".yaml", 1000), yaml);
        assert_eq!(tree.files_named_ending("Store7.yaml", 10).len(), 1);
        assert_eq!(tree.files_ending("pom.xml", 5), poms[..5]);
        assert_eq!(tree.files_ending("d123/pom.xml", 2), poms[123..124]);
    }
}

/// Go's `vendor/` (with `modules.txt`), `site-packages` and a virtualenv
/// (with `pyvenv.cfg`) below a root are not walked; a `vendor` folder
/// without `modules.txt` is, and so is a vendor folder given as the root
/// (cloudflare/cloudflared d1df7985's vendored packet readers).
#[test]
fn vendored_folders_below_a_root_are_not_walked() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (f, text) in [
        ("main.go", "package main\n"),
        ("vendor/modules.txt", "# github.com/x/y v1.0.0\n"),
        ("vendor/github.com/x/y/y.go", "package y\n"),
        ("pkg/vendor/own.go", "package vendor\n"),
        (".venv/pyvenv.cfg", "home = /usr/bin\n"),
        (".venv/lib/site-packages/requests/api.py", "x = 1\n"),
        ("lib/site-packages/a.py", "x = 1\n"),
        ("venv/notes.py", "x = 1\n"),
    ] {
        let p = root.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let names = |w: Walk, base: &Path| -> Vec<String> {
        w.files
            .iter()
            .map(|c| {
                c.path
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/")
            })
            .collect()
    };
    let w = walk(&[root.to_path_buf()], &[], None).unwrap();
    assert_eq!(
        names(w, root),
        ["main.go", "pkg/vendor/own.go", "venv/notes.py"]
    );
    let vendor = root.join("vendor");
    let w = walk(std::slice::from_ref(&vendor), &[], None).unwrap();
    assert_eq!(names(w, &vendor), ["github.com/x/y/y.go", "modules.txt"]);
}
