//! `--changed-since REF`: the files changed since a git revision, and the
//! untracked ones. The only commands run are `git diff --name-only` and
//! `git ls-files --others`, through [`std::process::Command`] with the
//! revision as one argument (never a shell), with the repository's hooks
//! that git would otherwise run (fsmonitor, external diff, textconv)
//! turned off. A clean/smudge filter named in the repository's own
//! `.git/config` can still run: do not use `--changed-since` on a `.git`
//! directory you do not trust (SECURITY.md).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Absolute paths (below `root`, the repository root) of files changed
/// since `reference` in the working tree, plus untracked files that are
/// not ignored.
pub fn changed_since(root: &Path, reference: &str) -> Result<HashSet<PathBuf>, String> {
    if reference.is_empty() || reference.starts_with('-') {
        return Err(format!(
            "--changed-since needs a git revision, not `{reference}`"
        ));
    }
    let mut out = HashSet::new();
    let diff = git(
        root,
        &[
            "diff",
            "--name-only",
            "--no-renames",
            "--no-ext-diff",
            "--no-textconv",
            "-z",
            reference,
            "--",
        ],
    )?;
    let untracked = git(root, &["ls-files", "--others", "--exclude-standard", "-z"])?;
    for name in diff.split('\0').chain(untracked.split('\0')) {
        if !name.is_empty() {
            out.insert(crate::config::normalise(&root.join(name)));
        }
    }
    Ok(out)
}

fn git(root: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["-c", "diff.relative=false", "-c", "core.quotePath=false"])
        // The repository's own configuration could name programs for git
        // to run (an fsmonitor hook, an external diff, a textconv): none.
        .args(["-c", "core.fsmonitor=false"])
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`git {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    String::from_utf8(out.stdout).map_err(|_| "git printed a path that is not UTF-8".to_string())
}
