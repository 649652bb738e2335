//! Discovery: walk the given paths in parallel with the `ignore` crate
//! (`.gitignore` honoured, hidden files included, `.git` skipped, symlinks
//! never followed, `--exclude` globs), and list the files to read.
//!
//! Symbolic links are never followed, not even when given as a root: a
//! link is counted and, when given by name, announced once. Reading opens
//! each file without following a link in its last component either
//! (`crate::read_one`), so a file swapped for a link after the walk is not
//! read through it.

use ignore::WalkBuilder;
use ignore::overrides::OverrideBuilder;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file to read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    pub path: PathBuf,
}

/// Something the walk could not read, said once.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WalkNotice {
    pub path: Option<PathBuf>,
    pub message: String,
}

#[derive(Debug, Default)]
pub struct Walk {
    pub files: Vec<Candidate>,
    pub notices: Vec<WalkNotice>,
    /// Symbolic links seen and not followed.
    pub symlinks: usize,
}

/// Walk `roots`. Paths are returned sorted, so that every later step is
/// deterministic. `exclude` globs are relative to `base` (the working
/// directory) when given.
pub fn walk(roots: &[PathBuf], exclude: &[String], base: Option<&Path>) -> Result<Walk, String> {
    let mut out = Walk::default();
    // A root that is a symbolic link is announced and left alone: the
    // walker would follow it (it resolves its roots), and its target may
    // be anywhere.
    let mut walked: Vec<&PathBuf> = Vec::new();
    for r in roots {
        match std::fs::symlink_metadata(r) {
            Err(e) => return Err(format!("cannot read `{}`: {e}", r.display())),
            Ok(m) if m.file_type().is_symlink() => {
                out.symlinks += 1;
                out.notices.push(WalkNotice {
                    path: Some(r.clone()),
                    message: "is a symbolic link: not followed".into(),
                });
            }
            Ok(_) => walked.push(r),
        }
    }
    let Some((first, rest)) = walked.split_first() else {
        return Ok(out);
    };
    let mut builder = WalkBuilder::new(first);
    for r in rest {
        builder.add(r);
    }
    builder
        .hidden(false)
        .follow_links(false)
        .git_ignore(true)
        .git_global(false)
        .git_exclude(true)
        .require_git(false)
        .ignore(true)
        .parents(true)
        .filter_entry(|e| e.file_name() != ".git");
    if !exclude.is_empty() {
        let mut ob = OverrideBuilder::new(base.unwrap_or(Path::new(".")));
        for g in exclude {
            ob.add(&format!("!{g}"))
                .map_err(|e| format!("bad --exclude glob `{g}`: {e}"))?;
            // Also match below any directory, as users expect `vendor/**`.
            if !g.starts_with('/') && !g.starts_with("**/") {
                ob.add(&format!("!**/{g}"))
                    .map_err(|e| format!("bad --exclude glob `{g}`: {e}"))?;
            }
        }
        builder.overrides(ob.build().map_err(|e| e.to_string())?);
    }
    let shared = Mutex::new(Walk::default());
    builder.build_parallel().run(|| {
        let shared = &shared;
        Box::new(move |entry| {
            let mut local = Vec::new();
            let mut notice = None;
            let mut symlink = false;
            match entry {
                Ok(e) => {
                    let ft = e.file_type();
                    if ft.is_some_and(|t| t.is_symlink()) {
                        symlink = e.depth() > 0;
                    } else if ft.is_some_and(|t| t.is_file()) {
                        // No stat here: most files are never opened, and
                        // the size of one that is comes with its open.
                        local.push(Candidate {
                            path: e.into_path(),
                        });
                    }
                }
                Err(err) => notice = Some(walk_notice(&err)),
            }
            let mut w = shared.lock().unwrap_or_else(|p| p.into_inner());
            w.files.extend(local);
            if let Some(n) = notice {
                w.notices.push(n);
            }
            if symlink {
                w.symlinks += 1;
            }
            ignore::WalkState::Continue
        })
    });
    let w = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    out.files = w.files;
    out.notices.extend(w.notices);
    out.symlinks += w.symlinks;
    out.files.sort();
    out.files.dedup_by(|a, b| a.path == b.path);
    out.notices.sort();
    Ok(out)
}

fn walk_notice(err: &ignore::Error) -> WalkNotice {
    let path = error_path(err).map(Path::to_path_buf);
    let message = match err {
        ignore::Error::WithPath { err, .. } => err.to_string(),
        ignore::Error::WithDepth { err, .. } => return walk_notice(err),
        ignore::Error::Loop { .. } => "symbolic link loop: not followed".into(),
        other => other.to_string(),
    };
    WalkNotice { path, message }
}

fn error_path(err: &ignore::Error) -> Option<&Path> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } => error_path(err),
        ignore::Error::Loop { child, .. } => Some(child),
        _ => None,
    }
}

/// The Helm chart a file belongs to as a template: the folder holding
/// `Chart.yaml` whose `templates/` holds the file, nearest first. A
/// template named alone is read with its chart (its values), not raw.
pub fn chart_of(file: &Path) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .take(32)
        .filter(|d| d.file_name().is_some_and(|n| n == "templates"))
        .filter_map(Path::parent)
        .find(|chart| chart.join("Chart.yaml").is_file())
        .map(Path::to_path_buf)
}
