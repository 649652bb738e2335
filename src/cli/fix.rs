//! `check --fix`, `--unsafe-fixes` and `--diff`: the findings' fixes made
//! in the files, round after round until none applies, each fixed file
//! re-scanned and restored when it no longer parses.

use super::CheckArgs;
use crate::fix::{Fix, apply_fixes};
use crate::pipeline::Run;
use crate::render;
use crate::report::Baseline;
use crate::source::FileId;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Rounds of fixing at most: a fix may uncover another (the jitter added,
/// the next finding of the block is offered), but a run never loops.
pub(super) const MAX_ROUNDS: usize = 10;

/// What fixing did.
#[derive(Default)]
pub(super) struct Outcome {
    /// The original text of each file changed (absolute path), and its
    /// path as shown.
    pub originals: BTreeMap<PathBuf, (String, String)>,
    /// The new text of each (written, or for `--diff` only kept).
    pub texts: Texts,
    /// Fixes made (in files kept).
    pub fixed: usize,
    /// Files restored: they did not parse after fixing.
    pub restored: Vec<String>,
    /// Findings left whose fix is unsafe (when `--unsafe-fixes` is off).
    pub unsafe_left: usize,
}

/// The fix of each finding that may be made: its first safe one, or its
/// first one at all with `unsafe_`.
fn chosen(run: &Run, unsafe_: bool) -> (BTreeMap<FileId, Vec<&Fix>>, usize) {
    let mut per_file: BTreeMap<FileId, Vec<&Fix>> = BTreeMap::new();
    let mut unsafe_left = 0;
    for f in &run.report.findings {
        let Some(fix) = f.fixes.iter().find(|x| x.is_safe() || unsafe_) else {
            if !f.fixes.is_empty() {
                unsafe_left += 1;
            }
            continue;
        };
        let files: BTreeSet<FileId> = fix.edits.iter().map(|e| e.file).collect();
        for file in files {
            per_file.entry(file).or_default().push(fix);
        }
    }
    (per_file, unsafe_left)
}

/// Whether the file at `path` still holds `text` byte for byte (it was not
/// decoded from another encoding nor changed since it was read).
fn unchanged_on_disk(path: &Path, text: &str) -> bool {
    std::fs::read(path).is_ok_and(|b| b == text.as_bytes())
}

/// Whether the file at `path` did not parse in `run` (its reader's RL903,
/// whether or not the rule is selected).
fn unparsable(run: &Run, path: &Path, cwd: &Path) -> bool {
    run.scan.files.iter().any(|f| {
        crate::config::normalise(&cwd.join(&f.source.path)) == path
            && f.facts
                .diagnostics
                .iter()
                .any(|d| d.code == crate::diag::unparsable_file::CODE)
    })
}

/// The texts the fixes gave so far (absolute path to text): written to
/// disk, or only kept (`--diff`), and handed to each scan after the first.
pub(super) type Texts = BTreeMap<PathBuf, String>;

/// Run `scan` and make the fixes of its findings until none applies (or
/// [`MAX_ROUNDS`]). With `diff_only` nothing is written: each round scans
/// the tree with the texts fixed so far in place of those files (`scan`
/// is given them), so `--diff` shows every round, as `--fix` would write.
/// Returns the last run (the findings left) and what was done.
pub(super) fn fix_loop(
    args: &CheckArgs,
    cwd: &Path,
    diff_only: bool,
    scan: &dyn Fn(&Texts) -> Result<Run, String>,
) -> Result<(Run, Outcome), String> {
    let unsafe_ = args.unsafe_fixes;
    let baseline = match &args.baseline {
        Some(b) => Some(Baseline::read(b)?),
        None => None,
    };
    let rescan = |texts: &Texts| -> Result<Run, String> {
        let mut run = scan(texts)?;
        if let Some(b) = &baseline {
            run.report.apply_baseline(b);
        }
        Ok(run)
    };
    let mut out = Outcome::default();
    let mut stuck: BTreeSet<PathBuf> = BTreeSet::new();
    let mut run = rescan(&out.texts)?;
    for _ in 0..MAX_ROUNDS {
        let (per_file, unsafe_left) = chosen(&run, unsafe_);
        out.unsafe_left = unsafe_left;
        let mut wrote: Vec<(PathBuf, usize, bool)> = Vec::new();
        for (id, fixes) in per_file {
            let Some(file) = run.scan.files.get(id) else {
                continue;
            };
            let path = crate::config::normalise(&cwd.join(&file.source.path));
            // A symbolic link may point out of the tree (a pull request can
            // commit one): it is not written through. A file is fixed
            // only while it holds what was scanned: on disk, or (--diff)
            // the text of the last round.
            let link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
            let current = match out.texts.get(&path) {
                Some(t) if diff_only => t == &file.source.text,
                _ => unchanged_on_disk(&path, &file.source.text),
            };
            if link || stuck.contains(&path) || !current {
                continue;
            }
            let applied = apply_fixes(&file.source.text, id, fixes);
            if applied.applied.is_empty() || applied.text == file.source.text {
                continue;
            }
            out.originals
                .entry(path.clone())
                .or_insert_with(|| (file.source.text.clone(), file.source.display_path()));
            // Test seam (debug builds): break every fixed file, so that the
            // restore can be tested.
            #[cfg(debug_assertions)]
            let text = {
                let mut text = applied.text;
                if let Some(junk) = std::env::var_os("RETRYLINT_TEST_BREAK_FIXES") {
                    text.push_str(&junk.to_string_lossy());
                }
                text
            };
            #[cfg(not(debug_assertions))]
            let text = applied.text;
            if !diff_only {
                std::fs::write(&path, &text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            out.texts.insert(path.clone(), text);
            // A file that did not parse before (a document of it was read)
            // is judged by whether it parses after, not restored for it.
            let broken_before = unparsable(&run, &path, cwd);
            wrote.push((path, applied.applied.len(), broken_before));
        }
        if wrote.is_empty() {
            break;
        }
        out.fixed += wrote.iter().map(|(_, n, _)| n).sum::<usize>();
        run = rescan(&out.texts)?;
        let mut restored = false;
        for (path, n, broken_before) in &wrote {
            if !broken_before && unparsable(&run, path, cwd) {
                let (text, shown) = &out.originals[path];
                if !diff_only {
                    std::fs::write(path, text)
                        .map_err(|e| format!("cannot restore {}: {e}", path.display()))?;
                }
                out.texts.remove(path);
                out.restored.push(shown.clone());
                out.fixed -= n;
                stuck.insert(path.clone());
                restored = true;
            }
        }
        if restored {
            run = rescan(&out.texts)?;
        }
    }
    // Files restored count no fixes at all, from any round.
    for p in &stuck {
        out.originals.remove(p);
        out.texts.remove(p);
    }
    Ok((run, out))
}

/// Print what fixing did on stderr.
pub(super) fn tell(out: &Outcome, diff_only: bool) {
    for shown in &out.restored {
        let what = if diff_only {
            "fixes left out: the file would not parse after them"
        } else {
            "fixes not kept: the file did not parse after them, so it was restored"
        };
        eprintln!("retrylint: {}: {what}", render::sanitize(shown));
    }
    let verb = if diff_only { "would fix" } else { "fixed" };
    let mut line = format!(
        "retrylint: {verb} {} in {}",
        render::count(out.fixed, "finding"),
        render::count(out.originals.len(), "file")
    );
    if out.unsafe_left > 0 {
        line.push_str(&format!(
            " ({} more with --unsafe-fixes)",
            render::count(out.unsafe_left, "finding")
        ));
    }
    eprintln!("{line}");
}

/// `--diff`: the unified diff of every file fixing would change, on
/// stdout; exit 1 when there is one.
pub(super) fn print_diff(out: &Outcome) -> i32 {
    let mut any = false;
    let mut text = String::new();
    for (path, (old, shown)) in &out.originals {
        let Some(new) = out.texts.get(path) else {
            continue;
        };
        let d = super::diff::unified(old, new, &format!("a/{shown}"), &format!("b/{shown}"));
        if !d.is_empty() {
            any = true;
            text.push_str(&d);
        }
    }
    print!("{text}");
    i32::from(any)
}
