//! The facts cache (issue 9): hits, misses, invalidation by content and
//! by build, corrupt files, and results identical with and without it.

use crate::common;

use retrylint::cache::{Cache, DIR_NAME};
use retrylint::config::Settings;
use retrylint::{Scan, render};
use std::path::{Path, PathBuf};

/// The cache's shard files and their contents.
fn shards(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("facts-")
        })
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    out.sort();
    out
}

fn settings(cache: Option<&Path>) -> Settings {
    Settings {
        cache_dir: cache.map(Path::to_path_buf),
        ..Settings::default()
    }
}

fn scan(root: &Path, cache: Option<&Path>) -> (Scan, String, String) {
    let s = settings(cache);
    let retrylint::pipeline::Run { scan, report, .. } = retrylint::pipeline::Pipeline::new(&s)
        .run(&[root.to_path_buf()])
        .unwrap();
    let concise = render::concise(&scan, &report.findings);
    let json = render::json::render(&scan, &report.findings);
    (scan, concise, json)
}

/// A small tree: two formats and a Rust file with a macro used elsewhere.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = common::root().join("testdata");
    for (from, to) in [
        (
            "rules/RL203/err/resilience4j-exponential.yml",
            "a/application.yml",
        ),
        ("rules/RL203/err/rust-loop-fixed-sleep.rs", "b/src/db.rs"),
        ("monorepo/gateway/nginx.conf", "gateway/nginx.conf"),
    ] {
        let to = dir.path().join("src").join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(src.join(from), to).unwrap();
    }
    dir
}

#[test]
fn a_second_run_hits_and_a_changed_file_misses() {
    let t = tree();
    let root = t.path().join("src");
    let cache = t.path().join(DIR_NAME);
    let (first, c1, j1) = scan(&root, Some(&cache));
    assert_eq!(first.stats.cache.hits, 0);
    assert_eq!(first.stats.cache.misses, 3);
    assert!(!shards(&cache).is_empty());
    assert!(cache.join(".gitignore").is_file());

    let (second, c2, j2) = scan(&root, Some(&cache));
    assert_eq!((second.stats.cache.hits, second.stats.cache.misses), (3, 0));
    assert_eq!(c1, c2);
    assert_eq!(j1, j2);

    // One file's content changes: only it is read again, and its new
    // content is what is reported.
    let f = root.join("a/application.yml");
    let text = std::fs::read_to_string(&f)
        .unwrap()
        .replace("maxAttempts: 4", "maxAttempts: 9");
    std::fs::write(&f, text).unwrap();
    let before = shards(&cache);
    let (third, c3, _) = scan(&root, Some(&cache));
    assert_eq!((third.stats.cache.hits, third.stats.cache.misses), (2, 1));
    // Only the shards of the old and the new entry are rewritten (the
    // content is in the key); the others are untouched.
    let after = shards(&cache);
    let rewritten = after.iter().filter(|a| !before.contains(a)).count();
    assert!((1..=2).contains(&rewritten), "{rewritten}");
    assert!(
        !std::fs::read_dir(&cache)
            .unwrap()
            .flatten()
            .any(|e| e.path().to_string_lossy().ends_with(".tmp"))
    );
    let (_, uncached, _) = scan(&root, None);
    assert_eq!(c3, uncached);
    assert!(c3.contains("`9`"), "{c3}");
}

#[test]
fn the_cache_folder_is_not_scanned() {
    let t = tree();
    let root = t.path().join("src");
    // The cache inside the scanned tree, as by default (the repo root).
    let cache = root.join(DIR_NAME);
    let (a, _, _) = scan(&root, Some(&cache));
    let (b, _, _) = scan(&root, Some(&cache));
    assert_eq!(a.stats.files_seen, b.stats.files_seen);
    assert!(
        b.files
            .iter()
            .all(|f| !f.source.display_path().contains(DIR_NAME))
    );
}

#[test]
fn another_build_or_a_corrupt_file_reads_as_empty() {
    let t = tree();
    let root = t.path().join("src");
    let cache = t.path().join(DIR_NAME);
    scan(&root, Some(&cache));
    let salt = retrylint::cache::salt();
    assert_eq!(Cache::open(&cache, salt).loaded(), 3);
    // Another version or binary: nothing is reused.
    assert_eq!(Cache::open(&cache, salt ^ 1).loaded(), 0);

    let (clean, c_clean, _) = scan(&root, None);
    for garbage in [
        &b"{\"salt\": 12"[..],
        b"",
        b"\xff\xfe\x00garbage",
        // Well-formed, but an entry names a rule that does not exist.
        format!(
            "{{\"salt\":\"{salt:016x}\",\"entries\":[[\"00000000000000000000000000000001\",{{\"facts\":{{\"policies\":[],\"timeouts\":[],\"edges\":[],\"services\":[],\"extractors\":[],\"mesh_defaults\":[],\"includes\":[],\"rust\":{{\"crate_dir\":null,\"macro_defs\":[],\"macro_calls\":[]}}}},\"diagnostics\":[{{\"code\":\"RL999\",\"span\":{{\"start\":0,\"end\":1}},\"message\":\"m\",\"help\":\"h\",\"related\":[],\"severity\":null}}]}}]]}}"
        )
        .as_bytes(),
    ] {
        for (shard, _) in shards(&cache) {
            std::fs::write(shard, garbage).unwrap();
        }
        assert_eq!(Cache::open(&cache, salt).loaded(), 0);
        let (s, c, _) = scan(&root, Some(&cache));
        assert_eq!(s.stats.cache.hits, 0);
        assert_eq!(s.stats.files_parsed, clean.stats.files_parsed);
        assert_eq!(c, c_clean);
        // ... and the next run is warm again.
        let (s, _, _) = scan(&root, Some(&cache));
        assert_eq!(s.stats.cache.misses, 0);
    }
}

/// A binary shard cut short, with a byte flipped in an entry, or with an
/// entry's length pointing past the end reads as no shard or as a miss:
/// the run parses those files again and reports what an uncached run
/// reports, and the next run is warm again.
#[test]
fn a_cut_or_damaged_shard_is_a_miss_never_a_wrong_answer() {
    let t = tree();
    let root = t.path().join("src");
    let cache = t.path().join(DIR_NAME);
    scan(&root, Some(&cache));
    let (clean, c_clean, j_clean) = scan(&root, None);
    let good = shards(&cache);
    assert!(!good.is_empty());
    type Damage = Box<dyn Fn(&[u8]) -> Vec<u8>>;
    let damages: Vec<Damage> = vec![
        Box::new(|b| b[..b.len() / 2].to_vec()),
        Box::new(|b| b[..b.len() - 1].to_vec()),
        Box::new(|b| b[..30].to_vec()),
        // A byte of each entry changed (every entry's: two files may
        // share a shard, as the keys are seeded with the build's salt, and
        // the second then hit).
        Box::new(|b| {
            let mut b = b.to_vec();
            let mut at = 24;
            while at + 20 < b.len() {
                let len = u32::from_le_bytes(b[at + 16..at + 20].try_into().unwrap()) as usize;
                b[at + 20] = 0xff;
                at += 20 + len;
            }
            b
        }),
        // The first entry's length past the end of the file.
        Box::new(|b| {
            let mut b = b.to_vec();
            b[24 + 16..24 + 20].copy_from_slice(&u32::MAX.to_le_bytes());
            b
        }),
        // The last byte of each entry changed: a value of the facts, which
        // would still decode (the entry's hash refuses it).
        Box::new(|b| {
            let mut b = b.to_vec();
            let mut at = 24;
            while at + 20 < b.len() {
                let len = u32::from_le_bytes(b[at + 16..at + 20].try_into().unwrap()) as usize;
                b[at + 20 + len - 1] ^= 1;
                at += 20 + len;
            }
            b
        }),
    ];
    for damage in &damages {
        for (path, bytes) in &good {
            std::fs::write(path, damage(bytes)).unwrap();
        }
        let (s, c, j) = scan(&root, Some(&cache));
        assert_eq!(s.stats.cache.hits, 0);
        assert_eq!(s.stats.files_parsed, clean.stats.files_parsed);
        assert_eq!(c, c_clean);
        assert_eq!(j, j_clean);
        let (s, c, _) = scan(&root, Some(&cache));
        assert_eq!(s.stats.cache.misses, 0);
        assert_eq!(c, c_clean);
    }
}

/// Every fixture and the test trees give the same findings, byte for
/// byte, cold, warm, and without a cache: every model value survives the
/// round trip.
#[test]
fn results_are_identical_with_and_without_the_cache() {
    same_with_and_without_the_cache(&[common::root().join("testdata")]);
}

/// The same over the corpus.
#[test]
#[ignore = "needs ../shared/corpus (or RETRYLINT_SHARED); CI runs it with --include-ignored"]
fn corpus_results_are_identical_with_and_without_the_cache() {
    same_with_and_without_the_cache(&[common::shared_dir().join("corpus")]);
}

fn same_with_and_without_the_cache(roots: &[PathBuf]) {
    for root in roots {
        let t = tempfile::tempdir().unwrap();
        let (plain, c0, j0) = scan(root, None);
        let (_, c1, j1) = scan(root, Some(t.path()));
        let (warm, c2, j2) = scan(root, Some(t.path()));
        assert_eq!(warm.stats.cache.misses, 0, "{}", root.display());
        assert_eq!(
            warm.stats.cache.hits,
            plain.stats.files_parsed - unreadable(&plain)
        );
        assert_eq!(c0, c1);
        assert_eq!(c0, c2, "{}", root.display());
        for j in [&j1, &j2] {
            let d: Vec<_> = j0
                .lines()
                .zip(j.lines())
                .filter(|(a, b)| a != b)
                .take(5)
                .collect();
            assert!(d.is_empty() && j0.len() == j.len(), "{d:?}");
        }
        // The facts themselves, links included: every field the model
        // writes (its JSON), and the diagnostics it leaves out.
        for (a, b) in plain.files.iter().zip(&warm.files) {
            assert_eq!(a.source.path, b.source.path);
            assert!(
                serde_json::to_string(&a.facts).unwrap()
                    == serde_json::to_string(&b.facts).unwrap(),
                "{}",
                a.source.display_path()
            );
            assert_eq!(
                a.facts.policies,
                b.facts.policies,
                "{}",
                a.source.display_path()
            );
            assert_eq!(a.facts.diagnostics, b.facts.diagnostics);
            assert_eq!(a.facts.edges, b.facts.edges);
            assert_eq!(a.facts.timeouts, b.facts.timeouts);
        }
        assert_eq!(plain.files.len(), warm.files.len());
    }
}

/// Files that were not valid UTF-8 are not cached (they are not parsed).
fn unreadable(scan: &Scan) -> usize {
    scan.files
        .iter()
        .filter(|f| {
            f.source.text.is_empty()
                && f.facts
                    .diagnostics
                    .iter()
                    .any(|d| d.message.contains("not valid UTF-8"))
        })
        .count()
}

/// `retrylint check DIR` from a working directory in a repository.
fn check_from(cwd: &Path, dir: &Path, xdg: &Path) -> String {
    let out = assert_cmd::Command::cargo_bin("retrylint")
        .unwrap()
        .current_dir(cwd)
        .env("XDG_CACHE_HOME", xdg)
        .args(["check", "--no-config", "--format", "concise"])
        .arg(dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Issue 16 item 14: scanning a tree outside any repository from a working
/// directory inside one writes nothing into the working directory's
/// repository: the cache goes to the user's cache directory, keyed by the
/// scanned folder; a tree inside a repository keeps it at that
/// repository's root.
#[test]
fn the_cache_belongs_to_the_scanned_tree_not_the_working_directory() {
    let cwd_repo = tempfile::tempdir().unwrap();
    std::fs::create_dir(cwd_repo.path().join(".git")).unwrap();
    let xdg = tempfile::tempdir().unwrap();
    let t = tree();
    let root = t.path().join("src");
    check_from(cwd_repo.path(), &root, xdg.path());
    assert!(
        !cwd_repo.path().join(DIR_NAME).exists(),
        "the cache was written into the working directory's repository"
    );
    assert!(!root.join(DIR_NAME).exists());
    let user: Vec<_> = std::fs::read_dir(xdg.path().join("retrylint"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(user.len(), 1, "{user:?}");
    assert!(!shards(&user[0]).is_empty());
    // `<user cache>/retrylint/<hash of the scanned folder>`.
    let placed = retrylint::cache::place(std::slice::from_ref(&root), None).unwrap();
    assert_eq!(placed.file_name(), user[0].file_name());

    // The scanned tree in a repository of its own: its root.
    std::fs::create_dir(t.path().join(".git")).unwrap();
    check_from(cwd_repo.path(), &root, xdg.path());
    assert!(!shards(&t.path().join(DIR_NAME)).is_empty());
    assert!(!cwd_repo.path().join(DIR_NAME).exists());
}

/// Issue 16 item 14: entries hold no absolute path, and a warm cache
/// copied with its tree to another path (a CI cache restored into another
/// checkout) hits for every file and gives the same findings.
#[test]
fn a_cache_restored_into_another_checkout_path_still_hits() {
    let t = tree();
    let a = t.path().join("one/checkout");
    std::fs::create_dir_all(a.join(".git")).unwrap();
    for (from, to) in [
        (
            "rules/RL203/err/resilience4j-exponential.yml",
            "a/application.yml",
        ),
        ("rules/RL203/err/rust-loop-fixed-sleep.rs", "b/src/db.rs"),
        ("monorepo/gateway/nginx.conf", "gateway/nginx.conf"),
    ] {
        let to = a.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(common::root().join("testdata").join(from), to).unwrap();
    }
    let cache_a = retrylint::cache::place(std::slice::from_ref(&a), None).unwrap();
    assert_eq!(cache_a, a.join(DIR_NAME));
    let (cold, c_a, _) = scan(&a, Some(&cache_a));
    assert_eq!(cold.stats.cache.misses, 3);
    let abs = a.to_string_lossy().to_string();
    for (p, bytes) in shards(&cache_a) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(&abs), "{} holds `{abs}`", p.display());
        assert!(!text.contains("crate_dir\":\"/"), "{}", p.display());
    }

    let b = t.path().join("two/elsewhere/checkout");
    std::fs::create_dir_all(b.parent().unwrap()).unwrap();
    std::fs::rename(&a, &b).unwrap();
    let cache_b = retrylint::cache::place(std::slice::from_ref(&b), None).unwrap();
    assert_eq!(cache_b, b.join(DIR_NAME));
    let (warm, c_b, _) = scan(&b, Some(&cache_b));
    assert_eq!((warm.stats.cache.hits, warm.stats.cache.misses), (3, 0));
    let (_, c_plain, _) = scan(&b, None);
    assert_eq!(c_b, c_plain);
    assert_eq!(
        c_a.replace(&abs, ""),
        c_b.replace(&b.to_string_lossy().to_string(), "")
    );
    // The crate directory is the new checkout's.
    let rust = warm
        .files
        .iter()
        .find(|f| f.source.display_path().ends_with("db.rs"))
        .unwrap();
    let dir = rust.facts.rust.crate_dir.as_deref().unwrap();
    assert!(dir.ends_with("two/elsewhere/checkout/b"), "{dir}");
}
