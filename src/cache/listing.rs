//! The walk's listing (issue 27): the files a walk found, kept in the
//! cache folder with the stamps of everything that decides them, so that
//! a warm run checks each folder with one `stat` instead of opening,
//! listing and closing it again (a one-file run on the generated
//! 10,000-file tree spent five system calls on each of its 4,200
//! folders, and the `ignore` crate's matching on each of its entries).
//!
//! A folder's modification and change times move whenever an entry is
//! added to it, removed or renamed (a file or folder created or
//! deleted, a `.gitignore` or `.git` appearing), not when a file in it
//! is written: so the list holds while every folder's stamp holds, and
//! while the ignore files that exist hold theirs. What the listing
//! watches:
//!
//! - every folder the walk entered, and each vendored folder it left out
//!   (`discover::walk`: a `modules.txt` or `pyvenv.cfg` may go);
//! - each `.gitignore` and `.ignore` found in those folders, and the
//!   `.git/info/exclude` of each `.git` folder (a change inside `.git`
//!   does not move the folder holding it);
//! - above each root, where the walk reads ignore files too (`parents`):
//!   each folder's `.gitignore`, `.ignore`, `.git` and
//!   `.git/info/exclude`, present or absent (those folders themselves
//!   change for other reasons: `/tmp`);
//! - the cache folder itself is not watched (this run writes it); its
//!   `.gitignore` (which leaves its files out) is.
//!
//! Not the index: the files git tracks that an ignore rule matches
//! (`discover::tracked`) are kept apart, in a record of their own that
//! watches each `.git/index` (`cache::tracked`). A `git add` or a commit
//! (a pre-commit hook's every run) once threw the whole listing away and
//! walked the tree again; now the listing holds, and only those files
//! are found again, from the index and the listing.
//!
//! Nothing is recorded when a stamp is within [`RACY`] of the run's start
//! (a change made now may not move it), when the walk had something to
//! say (an unreadable folder), when a root is relative or a file, or when
//! a `.git` is a file (a worktree or submodule: its `info/exclude` lives
//! in another repository). The key is the build's salt, the roots, the
//! `--exclude` globs and the folder they are relative to: any other run
//! walks. Any mismatch, or an unreadable listing, walks as before.

use super::stat::Stamp;
use crate::discover::{self, Candidate, Walk};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

const FILE_NAME: &str = "walk-v2";
const MAGIC: &[u8; 8] = b"rlwalk2\0";

/// What a watched path was when the listing was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Was {
    Absent,
    Stamped(Stamp),
    /// A folder, whatever its stamp (a `.git` above a root: git writes
    /// in it on every command).
    Folder,
}

/// A walk's files and what they depend on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    key: u128,
    symlinks: usize,
    files: Vec<PathBuf>,
    /// The walk's `gits` and `vendored` (`discover::Walk`), for the
    /// tracked files' record.
    gits: Vec<PathBuf>,
    vendored: Vec<PathBuf>,
    folders: Vec<(PathBuf, Stamp)>,
    probes: Vec<(PathBuf, Was)>,
}

/// The listing's key: what else decides a walk.
fn key(salt: u64, roots: &[PathBuf], exclude: &[String], base: Option<&Path>) -> u128 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(&salt.to_le_bytes());
    for r in roots {
        h.update(r.as_os_str().as_encoded_bytes());
        h.update(&[0]);
    }
    h.update(&[1]);
    for g in exclude {
        h.update(g.as_bytes());
        h.update(&[0]);
    }
    h.update(&[1]);
    if let Some(b) = base {
        h.update(b.as_os_str().as_encoded_bytes());
    }
    h.digest128()
}

/// The walk of `roots` ([`discover::walk`]), from the listing in the
/// cache folder `dir` when it was made by the build `salt` for the same
/// roots, `exclude` globs and `base`, and nothing it watches changed;
/// else walked, and recorded in `dir` for the next run when it can be.
pub fn walk(
    dir: Option<&Path>,
    salt: u64,
    roots: &[PathBuf],
    exclude: &[String],
    base: Option<&Path>,
) -> Result<Walk, String> {
    let Some(dir) = dir else {
        return discover::walk(roots, exclude, base);
    };
    // A cache folder that is a symbolic link is neither read nor written
    // through (SECURITY.md), as `Cache::open` does.
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        return discover::walk(roots, exclude, base);
    }
    let key = key(salt, roots, exclude, base);
    let start = SystemTime::now();
    let path = dir.join(FILE_NAME);
    let bytes = std::fs::read(&path).ok();
    let old = bytes.as_deref().and_then(decode).filter(|l| l.key == key);
    let stale = old.is_some();
    if let Some(old) = old
        && old.holds()
    {
        let mut w = Walk {
            files: old
                .files
                .into_iter()
                .map(|path| Candidate { path })
                .collect(),
            symlinks: old.symlinks,
            gits: old.gits,
            vendored: old.vendored,
            listed: true,
            ..Walk::default()
        };
        let id = identity(bytes.as_deref().unwrap_or_default());
        let folders = || old.folders.into_iter().map(|(p, _)| p).collect();
        let t = super::tracked::tracked(dir, id, &w, folders, roots, exclude, base, start)?;
        discover::add_tracked(&mut w, t);
        return Ok(w);
    }
    let mut walked = discover::walk_by_rules(roots, exclude, base)?;
    let t = discover::tracked(
        roots,
        &walked.gits,
        &walked.files,
        &walked.folders,
        &walked.vendored,
        exclude,
        base,
    )?;
    // A listing that cannot be written only makes the next run walk.
    match record(&walked, roots, dir, key, start) {
        Some(listing) => {
            let bytes = encode(&listing);
            if super::prepare(dir)
                .and_then(|()| super::write_atomically(&path, &bytes))
                .is_ok()
            {
                super::tracked::record(dir, identity(&bytes), roots, &walked.gits, &t, start);
            }
        }
        // Another run's listing (other roots) is left for it.
        None if stale => {
            let _ = std::fs::remove_file(&path);
        }
        None => {}
    }
    discover::add_tracked(&mut walked, t);
    Ok(walked)
}

/// What ties the tracked files' record to the listing it was made from.
fn identity(listing: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(listing)
}

impl Listing {
    /// Whether every folder and probe is as recorded.
    fn holds(&self) -> bool {
        self.folders
            .par_iter()
            .all(|(p, was)| stamp(p).is_some_and(|s| s == *was))
            && self.probes.par_iter().all(|(p, was)| match was {
                Was::Folder => std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()),
                was => probe(p).as_ref() == Some(was),
            })
    }
}

/// The stamp of a folder or file at `p`, not following a link.
pub(super) fn stamp(p: &Path) -> Option<Stamp> {
    std::fs::symlink_metadata(p)
        .ok()
        .filter(|m| !m.file_type().is_symlink())
        .and_then(|m| Stamp::of_entry(&m))
}

/// What `p` is now: absent, or its stamp (`None`: neither a file nor a
/// folder, or unreadable).
pub(super) fn probe(p: &Path) -> Option<Was> {
    match std::fs::symlink_metadata(p) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Was::Absent),
        Err(_) => None,
        Ok(m) if m.file_type().is_symlink() => None,
        Ok(m) => Stamp::of_entry(&m).map(Was::Stamped),
    }
}

/// A folder's stamp (none for the cache folder) and its probes.
type Watched = (Option<(PathBuf, Stamp)>, Vec<(PathBuf, Was)>);

/// What the listing of `walk` watches, or `None` when it cannot be kept
/// (see the module's text).
fn record(
    walk: &Walk,
    roots: &[PathBuf],
    dir: &Path,
    key: u128,
    start: SystemTime,
) -> Option<Listing> {
    if !walk.notices.is_empty() || walk.listed {
        return None;
    }
    for r in roots {
        let m = std::fs::symlink_metadata(r).ok()?;
        if !r.is_absolute() || !m.is_dir() {
            return None;
        }
    }
    let cache = stamp(dir);
    let fresh = |s: &Stamp| !s.racy(start);
    let watched: Vec<Option<Watched>> = walk
        .folders
        .par_iter()
        .map(|f| {
            let s = stamp(f).filter(fresh)?;
            let mut probes = Vec::new();
            // The cache folder changes in every run; its `.gitignore` is
            // what leaves its files out.
            let is_cache = cache.as_ref().is_some_and(|c| c.same_entry(&s));
            for name in [".gitignore", ".ignore"] {
                let p = f.join(name);
                match probe(&p)? {
                    Was::Absent if !is_cache => {}
                    // Without it, the files this run writes there are
                    // walked: the folder would need watching.
                    Was::Absent if name == ".gitignore" => return None,
                    Was::Stamped(s) if !fresh(&s) => return None,
                    was => probes.push((p, was)),
                }
            }
            git_probes(f, &mut probes, fresh)?;
            Some(((!is_cache).then(|| (f.clone(), s)), probes))
        })
        .collect();
    let mut listing = Listing {
        key,
        symlinks: walk.symlinks,
        files: walk.files.iter().map(|c| c.path.clone()).collect(),
        gits: walk.gits.clone(),
        vendored: walk.vendored.clone(),
        ..Listing::default()
    };
    for w in watched {
        let (folder, mut probes) = w?;
        listing.folders.extend(folder);
        listing.probes.append(&mut probes);
    }
    for r in roots {
        for up in r.ancestors().skip(1) {
            for name in [".gitignore", ".ignore"] {
                let p = up.join(name);
                match probe(&p)? {
                    Was::Stamped(s) if !fresh(&s) => return None,
                    was => listing.probes.push((p, was)),
                }
            }
            let git = up.join(".git");
            let was = match std::fs::symlink_metadata(&git) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Was::Absent,
                Ok(m) if m.is_dir() => Was::Folder,
                _ => return None,
            };
            listing.probes.push((git, was));
            git_probes(up, &mut listing.probes, fresh)?;
        }
    }
    listing.probes.sort_by(|a, b| a.0.cmp(&b.0));
    listing.probes.dedup();
    Some(listing)
}

/// The probe of `folder/.git/info/exclude` when `folder` holds a `.git`
/// folder; `None` (nothing to record) when its `.git` is a file or
/// something else, or the file was changed just now.
fn git_probes(
    folder: &Path,
    probes: &mut Vec<(PathBuf, Was)>,
    fresh: impl Fn(&Stamp) -> bool,
) -> Option<()> {
    match std::fs::symlink_metadata(folder.join(".git")) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(()),
        Ok(m) if m.is_dir() => {
            let p = folder.join(".git/info/exclude");
            match probe(&p)? {
                Was::Stamped(s) if !fresh(&s) => return None,
                was => probes.push((p, was)),
            }
            Some(())
        }
        _ => None,
    }
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

/// Each path as the length it shares with the one before and the rest
/// (sorted paths share most of their bytes).
pub(super) fn put_paths<'a>(
    out: &mut Vec<u8>,
    paths: impl ExactSizeIterator<Item = &'a Path>,
    mut after: impl FnMut(&mut Vec<u8>, usize),
) {
    out.extend_from_slice(&(paths.len() as u64).to_le_bytes());
    let mut last: &[u8] = &[];
    for (i, p) in paths.enumerate() {
        let b = p.as_os_str().as_encoded_bytes();
        let shared = last.iter().zip(b).take_while(|(x, y)| x == y).count();
        out.extend_from_slice(&(shared as u32).to_le_bytes());
        put_bytes(out, &b[shared..]);
        after(out, i);
        last = b;
    }
}

fn encode(l: &Listing) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + l.files.len() * 24);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&l.key.to_le_bytes());
    out.extend_from_slice(&(l.symlinks as u64).to_le_bytes());
    put_paths(&mut out, l.files.iter().map(PathBuf::as_path), |_, _| {});
    put_paths(&mut out, l.gits.iter().map(PathBuf::as_path), |_, _| {});
    put_paths(&mut out, l.vendored.iter().map(PathBuf::as_path), |_, _| {});
    put_paths(
        &mut out,
        l.folders.iter().map(|(p, _)| p.as_path()),
        |out, i| l.folders[i].1.write(out),
    );
    put_paths(
        &mut out,
        l.probes.iter().map(|(p, _)| p.as_path()),
        |out, i| put_was(out, &l.probes[i].1),
    );
    out
}

pub(super) fn put_was(out: &mut Vec<u8>, was: &Was) {
    match was {
        Was::Absent => out.push(0),
        Was::Stamped(s) => {
            out.push(1);
            s.write(out);
        }
        Was::Folder => out.push(2),
    }
}

/// A list of paths, without anything after each.
pub(super) fn path_list(b: &mut Bytes) -> Option<Vec<PathBuf>> {
    Some(
        b.paths(|_| Some(()))?
            .into_iter()
            .map(|(p, ())| p)
            .collect(),
    )
}

/// A reader over the listing's bytes; every read is bounded.
pub(super) struct Bytes<'a>(pub(super) &'a [u8]);

impl<'a> Bytes<'a> {
    pub(super) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    pub(super) fn was(&mut self) -> Option<Was> {
        match self.take(1)?[0] {
            0 => Some(Was::Absent),
            1 => self.stamp().map(Was::Stamped),
            2 => Some(Was::Folder),
            _ => None,
        }
    }

    pub(super) fn u32(&mut self) -> Option<usize> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?) as usize)
    }

    pub(super) fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    pub(super) fn stamp(&mut self) -> Option<Stamp> {
        Stamp::read(self.take(Stamp::BYTES)?)
    }

    /// `n` front-coded paths, each followed by what `after` reads.
    pub(super) fn paths<T>(
        &mut self,
        mut after: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<(PathBuf, T)>> {
        let n = usize::try_from(self.u64()?).ok()?;
        // Each path takes eight bytes at least: a count past the end is a
        // corrupt file, not an allocation.
        let mut out = Vec::with_capacity(n.min(self.0.len() / 8));
        let mut last: Vec<u8> = Vec::new();
        for _ in 0..n {
            let shared = self.u32()?;
            let len = self.u32()?;
            let rest = self.take(len)?;
            last.truncate(shared.min(last.len()));
            if last.len() != shared {
                return None;
            }
            last.extend_from_slice(rest);
            let path = path_of(&last)?;
            out.push((path, after(self)?));
        }
        Some(out)
    }
}

#[cfg(unix)]
fn path_of(b: &[u8]) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Some(std::ffi::OsStr::from_bytes(b).into())
}

#[cfg(not(unix))]
fn path_of(b: &[u8]) -> Option<PathBuf> {
    std::str::from_utf8(b).ok().map(PathBuf::from)
}

fn decode(bytes: &[u8]) -> Option<Listing> {
    let mut b = Bytes(bytes.strip_prefix(MAGIC)?);
    let key = u128::from_le_bytes(b.take(16)?.try_into().ok()?);
    let symlinks = usize::try_from(b.u64()?).ok()?;
    let files = path_list(&mut b)?;
    let gits = path_list(&mut b)?;
    let vendored = path_list(&mut b)?;
    let folders = b.paths(Bytes::stamp)?;
    let probes = b.paths(Bytes::was)?;
    b.0.is_empty().then_some(Listing {
        key,
        symlinks,
        files,
        gits,
        vendored,
        folders,
        probes,
    })
}

#[cfg(test)]
#[path = "listing_tests.rs"]
mod tests;
