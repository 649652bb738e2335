//! Helpers of the tests that compare readers on real trees and fixtures.

/// Every file under `roots` that `keep` takes, sorted: the files the
/// pruning and blanking equivalence tests compare on.
pub(crate) fn files_under(
    roots: &[std::path::PathBuf],
    keep: impl Fn(&std::path::Path) -> bool,
) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut todo = roots.to_vec();
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if keep(&p) {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// The checkout an ignored `*_real` test compares on: `$var`. Such a test
/// never passes without having run (tests/common/needs.rs): without the
/// variable it fails with what to set, and `.ci/run` skips it by name and
/// says so unless the variable is set there.
pub(crate) fn real_checkout(var: &str) -> std::path::PathBuf {
    match std::env::var_os(var) {
        Some(dir) if std::path::Path::new(&dir).is_dir() => std::path::PathBuf::from(dir),
        Some(dir) => panic!(
            "{var}={} is not a folder: set it to a checkout",
            dir.to_string_lossy()
        ),
        None => panic!(
            "this test compares on a real checkout and {var} is unset: set it to one \
             (e.g. `git archive` of a public repository), or leave the test out \
             (`--skip`); it did not run"
        ),
    }
}
