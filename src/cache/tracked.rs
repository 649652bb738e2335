//! The files git tracks that an ignore rule matches
//! (`discover::tracked`), kept apart from the walk's listing
//! (`cache::listing`) in a small record of their own. They depend on the
//! index, which every `git add` and commit writes; the listing does not.
//! So a changed index recomputes only them, from the index and the
//! cached listing (the folders leading to them entered), and the tree is
//! not walked again: the first warm run after a commit, a pre-commit
//! hook's every run, once walked it whole.
//!
//! The record holds the listing's identity (the hash of its bytes: a
//! listing walked again makes a new one), the files and the folders
//! entered for them, and watches:
//!
//! - the index of each work tree the walk covers (`discover::index_files`);
//! - each folder entered for them (a tracked file deleted or added
//!   there), and its `.ignore` (which the second walk reads); the folders
//!   the listing holds are the listing's to watch.
//!
//! Nothing is recorded when a stamp is within `RACY` of the run's start;
//! any mismatch recomputes.

use super::listing::{Bytes, Was, path_list, probe, put_paths, put_was, stamp};
use super::stat::Stamp;
use crate::discover::{self, Tracked, Walk};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

const FILE_NAME: &str = "walk-tracked-v1";
const MAGIC: &[u8; 8] = b"rltrack1";

/// The tracked files found for one listing, and what they depend on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Record {
    listing: u64,
    files: Vec<PathBuf>,
    folders: Vec<(PathBuf, Stamp)>,
    probes: Vec<(PathBuf, Was)>,
}

/// The tracked files of the walk `walk` taken from the listing `listing`
/// (its identity; `folders`: its folders, asked only when they are
/// found again): from the record in `dir` when it was made for that
/// listing and nothing it watches changed, else found again
/// (`discover::tracked`) and recorded.
#[allow(clippy::too_many_arguments)]
pub(super) fn tracked(
    dir: &Path,
    listing: u64,
    walk: &Walk,
    folders: impl FnOnce() -> Vec<PathBuf>,
    roots: &[PathBuf],
    exclude: &[String],
    base: Option<&Path>,
    start: SystemTime,
) -> Result<Tracked, String> {
    let old = std::fs::read(dir.join(FILE_NAME))
        .ok()
        .and_then(|b| decode(&b))
        .filter(|r| r.listing == listing && r.holds());
    if let Some(r) = old {
        return Ok(Tracked {
            files: r.files,
            folders: r.folders.into_iter().map(|(p, _)| p).collect(),
        });
    }
    let t = discover::tracked(
        roots,
        &walk.gits,
        &walk.files,
        &folders(),
        &walk.vendored,
        exclude,
        base,
    )?;
    record(dir, listing, roots, &walk.gits, &t, start);
    Ok(t)
}

/// Record `t`, found for the listing `listing` of a walk of `roots` that
/// met the work trees `gits`, in `dir`; or remove the record when it
/// cannot be made (a stamp within the racy window).
pub(super) fn record(
    dir: &Path,
    listing: u64,
    roots: &[PathBuf],
    gits: &[PathBuf],
    t: &Tracked,
    start: SystemTime,
) {
    let path = dir.join(FILE_NAME);
    match watch(listing, roots, gits, t, start) {
        // A record that cannot be written only makes the next run find
        // the files again.
        Some(r) => {
            let _ = super::write_atomically(&path, &encode(&r));
        }
        None => {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// What a record of `t` watches, or `None` when a stamp is racy.
fn watch(
    listing: u64,
    roots: &[PathBuf],
    gits: &[PathBuf],
    t: &Tracked,
    start: SystemTime,
) -> Option<Record> {
    let fresh = |s: &Stamp| !s.racy(start);
    let mut r = Record {
        listing,
        files: t.files.clone(),
        ..Record::default()
    };
    let mut probes = |p: PathBuf| -> Option<()> {
        match probe(&p)? {
            Was::Stamped(s) if !fresh(&s) => None,
            was => {
                r.probes.push((p, was));
                Some(())
            }
        }
    };
    for index in discover::index_files(roots, gits) {
        probes(index)?;
    }
    for f in &t.folders {
        probes(f.join(".ignore"))?;
    }
    for f in &t.folders {
        r.folders.push((f.clone(), stamp(f).filter(fresh)?));
    }
    r.probes.sort_by(|a, b| a.0.cmp(&b.0));
    r.probes.dedup();
    r.folders.sort_by(|a, b| a.0.cmp(&b.0));
    r.folders.dedup();
    Some(r)
}

impl Record {
    /// Whether every folder and probe is as recorded.
    fn holds(&self) -> bool {
        self.folders
            .iter()
            .all(|(p, was)| stamp(p).is_some_and(|s| s == *was))
            && self
                .probes
                .iter()
                .all(|(p, was)| probe(p).as_ref() == Some(was))
    }
}

fn encode(r: &Record) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + r.files.len() * 24);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&r.listing.to_le_bytes());
    put_paths(&mut out, r.files.iter().map(PathBuf::as_path), |_, _| {});
    put_paths(
        &mut out,
        r.folders.iter().map(|(p, _)| p.as_path()),
        |out, i| r.folders[i].1.write(out),
    );
    put_paths(
        &mut out,
        r.probes.iter().map(|(p, _)| p.as_path()),
        |out, i| put_was(out, &r.probes[i].1),
    );
    out
}

fn decode(bytes: &[u8]) -> Option<Record> {
    let mut b = Bytes(bytes.strip_prefix(MAGIC)?);
    let listing = b.u64()?;
    let files = path_list(&mut b)?;
    let folders = b.paths(Bytes::stamp)?;
    let probes = b.paths(Bytes::was)?;
    b.0.is_empty().then_some(Record {
        listing,
        files,
        folders,
        probes,
    })
}

#[cfg(test)]
#[path = "tracked_tests.rs"]
mod tests;
