//! Files git tracks that an ignore rule also matches (issue 17): a
//! `.gitignore` line added after a folder was committed, or a file added
//! with `git add -f`, does not stop git from tracking the file, nor the
//! deployment from using it. Azure-Samples/aks-store-demo (7ce10c51)
//! ignores `kustomize` in its root `.gitignore` and tracks its
//! `kustomize/` overlays, which define `ai-service`'s workspace: the walk
//! never read them.
//!
//! So, below a root in a git work tree, a file the index holds is read
//! even when a git ignore rule (`.gitignore`, `.git/info/exclude`)
//! matches it; every other rule still holds (`--exclude`, `.ignore`, the
//! vendored folders, `.git`, symbolic links). Untracked ignored files stay
//! skipped, and a tree that is not a git work tree is walked as before.
//!
//! How: the index (`.git/index`, versions 2 to 4, a split index's shared
//! part too) is read directly, not through a `git` process (no program to
//! find, and no repository configuration run: `core.fsmonitor` names a
//! command). Its regular files below a root that the walk did not list
//! are walked a second time from their nearest walked folder, with the
//! git ignore rules off and only the folders leading to them entered, so
//! that the other rules apply as in the first walk. On istio/istio
//! (6,611 tracked files, a 790 KB index) this reads one file and hashes
//! the walk's paths once; nothing is walked again when nothing tracked is
//! ignored. A split index's removals apply: a file `git rm --cached`
//! and still on disk under an ignore line is not read.
//!
//! The walk's listing in the cache does not depend on the index: the
//! files found here are kept apart from it, in a small record of their
//! own that watches each `.git/index` (`cache::tracked`), so that a
//! `git add` or a commit recomputes only them, from the cached listing.

use ignore::WalkBuilder;
use ignore::overrides::Override;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// A git work tree seen from a root: `prefix` is where its files are in
/// the walk's paths (a root, or a folder holding `.git`), `top` the work
/// tree's folder, `rel` the prefix's path in it (`/`-separated, empty at
/// the top).
struct Repo {
    prefix: PathBuf,
    top: PathBuf,
    rel: Vec<u8>,
}

/// The work trees of `roots` (folders; the nearest folder at or above
/// each holding `.git`) and of the `.git` entries the walk met below them
/// (`nested`: their folders).
fn repos(roots: &[&PathBuf], nested: Vec<PathBuf>) -> Vec<Repo> {
    let mut out: Vec<Repo> = Vec::new();
    for r in roots {
        let Ok(canon) = std::fs::canonicalize(r) else {
            continue;
        };
        if !canon.is_dir() {
            continue;
        }
        let Some(top) = canon
            .ancestors()
            .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
        else {
            continue;
        };
        let Ok(rel) = canon.strip_prefix(top) else {
            continue;
        };
        let rel: Vec<u8> = rel
            .components()
            .map(|c| c.as_os_str().as_encoded_bytes())
            .collect::<Vec<_>>()
            .join(&b'/');
        out.push(Repo {
            prefix: (*r).clone(),
            top: top.to_path_buf(),
            rel,
        });
    }
    for n in nested {
        if out.iter().any(|r| r.prefix == n) {
            continue;
        }
        out.push(Repo {
            top: n.clone(),
            prefix: n,
            rel: Vec::new(),
        });
    }
    out
}

/// The folder holding a work tree's index: `.git`, or the folder a `.git`
/// file names (`gitdir: ..`, a worktree or a submodule).
fn git_dir(top: &Path) -> Option<PathBuf> {
    let dot = top.join(".git");
    let m = std::fs::symlink_metadata(&dot).ok()?;
    if m.is_dir() {
        return Some(dot);
    }
    if !m.is_file() || m.len() > 4096 {
        return None;
    }
    let text = std::fs::read_to_string(&dot).ok()?;
    let named = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
    Some(top.join(named))
}

/// The length of an object name in `git_dir`'s repository: 32 bytes when
/// its configuration sets `extensions.objectFormat = sha256`, else 20. A
/// worktree's configuration is its common folder's.
fn hash_len(git_dir: &Path) -> usize {
    let common = std::fs::read_to_string(git_dir.join("commondir"))
        .map(|c| git_dir.join(c.trim()))
        .unwrap_or_else(|_| git_dir.to_path_buf());
    let config = std::fs::read_to_string(common.join("config")).unwrap_or_default();
    let sha256 = config.lines().any(|l| {
        let l = l.trim().to_ascii_lowercase();
        l.starts_with("objectformat") && l.ends_with("sha256")
    });
    if sha256 { 32 } else { 20 }
}

/// An index's entries in order (every stage, every kind: a split
/// index's bitmaps count them all), each its path and mode, and its
/// `link` extension when it is split.
pub(super) struct Index {
    pub(super) entries: Vec<(Vec<u8>, u32)>,
    pub(super) link: Option<Link>,
}

/// A split index's `link` extension: the name of its shared index, and
/// the bytes of its two EWAH bitmaps over the shared index's entries
/// (the removed ones, then the ones this index replaces), undecoded.
pub(super) struct Link {
    pub(super) shared: String,
    bitmaps: Vec<u8>,
}

/// The entries of an index (see [`Index`]). `None`: not an index this
/// reads.
pub(super) fn parse_index(bytes: &[u8], hash: usize) -> Option<Index> {
    let be32 = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    if bytes.get(..4)? != b"DIRC" {
        return None;
    }
    let version = be32(4)?;
    if !(2..=4).contains(&version) {
        return None;
    }
    let count = be32(8)? as usize;
    let mut at = 12;
    let mut entries: Vec<(Vec<u8>, u32)> = Vec::with_capacity(count.min(bytes.len() / 62));
    let mut last: Vec<u8> = Vec::new();
    for _ in 0..count {
        let mode = be32(at + 24)?;
        let flags_at = at + 40 + hash;
        let flags = u16::from_be_bytes(bytes.get(flags_at..flags_at + 2)?.try_into().ok()?);
        let extended = version >= 3 && flags & 0x4000 != 0;
        let name_at = flags_at + 2 + if extended { 2 } else { 0 };
        let path = if version == 4 {
            // The bytes to drop from the previous path (git's offset
            // varint), then the rest, ended by a NUL; no padding.
            let mut i = name_at;
            let mut c = *bytes.get(i)?;
            i += 1;
            let mut strip = usize::from(c & 0x7f);
            while c & 0x80 != 0 {
                c = *bytes.get(i)?;
                i += 1;
                strip = strip
                    .checked_add(1)?
                    .checked_mul(128)?
                    .checked_add(usize::from(c & 0x7f))?;
            }
            let end = i + bytes.get(i..)?.iter().position(|&b| b == 0)?;
            let keep = last.len().checked_sub(strip)?;
            last.truncate(keep);
            last.extend_from_slice(&bytes[i..end]);
            at = end + 1;
            last.clone()
        } else {
            let end = name_at + bytes.get(name_at..)?.iter().position(|&b| b == 0)?;
            let path = bytes[name_at..end].to_vec();
            // The entry is padded with 1 to 8 NULs to a multiple of 8.
            at += (end - at + 8) & !7;
            path
        };
        entries.push((path, mode));
    }
    // Extensions: a four-byte signature and a length each, up to the
    // trailing checksum.
    let mut link = None;
    while at + 8 + hash <= bytes.len() {
        let sig = &bytes[at..at + 4];
        let len = be32(at + 4)? as usize;
        let data = bytes.get(at + 8..(at + 8).checked_add(len)?)?;
        if sig == b"link" {
            let name = data.get(..hash)?;
            if name.iter().any(|&b| b != 0) {
                link = Some(Link {
                    shared: name.iter().map(|b| format!("{b:02x}")).collect(),
                    bitmaps: data[hash..].to_vec(),
                });
            }
        }
        at += 8 + len;
    }
    Some(Index { entries, link })
}

/// The set positions below `limit` of the EWAH bitmap at the start of
/// `data` (git's `ewah/ewah_io.c`: a bit count, a word count, the words,
/// the last marker's position; big-endian), and the bytes it took.
/// Each marker word holds its run's bit (bit 0), the run's length in
/// words (the next 32 bits) and the number of literal words after it
/// (the top 31); a literal word's bit `i` is position `64 * word + i`.
/// The work is bounded by `data`'s length and `limit`.
pub(super) fn ewah(data: &[u8], limit: usize) -> Option<(Vec<usize>, usize)> {
    let be32 = |at: usize| -> Option<usize> {
        Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?) as usize)
    };
    let words = be32(4)?;
    let end = words.checked_mul(8)?.checked_add(12)?;
    if data.len() < end {
        return None;
    }
    let word = |i: usize| -> u64 {
        let at = 8 + i * 8;
        u64::from_be_bytes(data[at..at + 8].try_into().unwrap_or_default())
    };
    let mut out = Vec::new();
    let (mut pos, mut i) = (0usize, 0usize);
    while i < words && pos < limit {
        let marker = word(i);
        i += 1;
        let run = usize::try_from((marker >> 1) & 0xffff_ffff).ok()?;
        let run_bits = run.checked_mul(64)?;
        if marker & 1 == 1 {
            out.extend(pos..pos.saturating_add(run_bits).min(limit));
        }
        pos = pos.saturating_add(run_bits);
        let literals = usize::try_from(marker >> 33).ok()?;
        for _ in 0..literals {
            if i >= words {
                return None;
            }
            let w = word(i);
            i += 1;
            out.extend(
                (0..64)
                    .filter(|b| w & (1u64 << b) != 0)
                    .map(|b| pos + b)
                    .filter(|&p| p < limit),
            );
            pos = pos.saturating_add(64);
        }
    }
    Some((out, end))
}

/// The paths of the regular files `index` holds: with its shared index
/// `shared` when it is split, the shared entries the link's first bitmap
/// removes dropped (`git rm --cached`: the file may still be on disk,
/// under an ignore line), the ones its second bitmap marks replaced by
/// this index's first entries (nameless: the path is the shared
/// entry's, the mode this one's), and this index's other entries added.
/// A split index whose shared index is missing gives its added entries.
pub(super) fn regular_files(index: Index, shared: Option<Index>) -> Vec<Vec<u8>> {
    let entries = match (index.link, shared) {
        (Some(link), Some(shared)) => {
            let mut base = shared.entries;
            let n = base.len();
            let (removed, took) = ewah(&link.bitmaps, n).unwrap_or_default();
            let replaced = link
                .bitmaps
                .get(took..)
                .and_then(|b| ewah(b, n))
                .map(|(r, _)| r)
                .unwrap_or_default();
            let mut own = index.entries.into_iter().peekable();
            for p in replaced {
                match own.next_if(|(path, _)| path.is_empty()) {
                    Some((_, mode)) => base[p].1 = mode,
                    None => break,
                }
            }
            let mut gone = vec![false; n];
            for p in removed {
                gone[p] = true;
            }
            let mut kept: Vec<(Vec<u8>, u32)> = base
                .into_iter()
                .zip(gone)
                .filter(|(_, g)| !g)
                .map(|(e, _)| e)
                .collect();
            kept.extend(own);
            kept
        }
        _ => index.entries,
    };
    let mut paths: Vec<Vec<u8>> = Vec::with_capacity(entries.len());
    for (path, mode) in entries {
        // A regular file (`100644`, `100755`); not a link, a submodule or
        // a sparse index's folder; a nameless entry is a replacement
        // whose shared index was not read.
        if mode >> 12 == 0o10 && !path.is_empty() && paths.last() != Some(&path) {
            paths.push(path);
        }
    }
    paths
}

/// The index file of the work tree `top`.
fn index_file(top: &Path) -> Option<PathBuf> {
    git_dir(top).map(|d| d.join("index"))
}

/// The regular files `top`'s index holds ([`regular_files`]), or none
/// when it has no index this reads.
fn tracked(top: &Path) -> Vec<Vec<u8>> {
    let Some(dir) = git_dir(top) else {
        return Vec::new();
    };
    let hash = hash_len(&dir);
    let Some(index) = std::fs::read(dir.join("index"))
        .ok()
        .and_then(|b| parse_index(&b, hash))
    else {
        return Vec::new();
    };
    let shared = index.link.as_ref().and_then(|l| {
        std::fs::read(dir.join(format!("sharedindex.{}", l.shared)))
            .ok()
            .and_then(|b| parse_index(&b, hash))
    });
    regular_files(index, shared)
}

/// The index files that decide which ignored files below `roots` are
/// read (the roots' work trees' and those of `nested`): what a record of
/// [`ignored_tracked`]'s answer watches. A split index's shared part is
/// not among them: a new one is written under a new name, with the
/// index that names it.
pub(super) fn index_files(roots: &[&PathBuf], nested: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = repos(roots, nested)
        .iter()
        .filter_map(|r| index_file(&r.top))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The files git tracks below the folder roots `roots` that the walk
/// (`files`, `folders`: the folders it entered or left out as vendored,
/// `vendored` those) left out, walked again without the git ignore
/// rules; `nested`: the folders holding a `.git` the walk met. Returns
/// the files found and the folders entered.
pub(super) fn ignored_tracked(
    roots: &[&PathBuf],
    nested: Vec<PathBuf>,
    files: &[super::Candidate],
    folders: &[PathBuf],
    vendored: &[PathBuf],
    overrides: Option<&Override>,
) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let repos = repos(roots, nested);
    if repos.is_empty() {
        return Default::default();
    }
    let listed: HashSet<&[u8]> = files
        .iter()
        .map(|c| c.path.as_os_str().as_encoded_bytes())
        .collect();
    let mut missing: Vec<PathBuf> = Vec::new();
    for repo in &repos {
        for path in tracked(&repo.top) {
            let rest = if repo.rel.is_empty() {
                Some(path.as_slice())
            } else {
                path.strip_prefix(repo.rel.as_slice())
                    .and_then(|r| r.strip_prefix(b"/"))
            };
            let Some(rest) = rest.and_then(|r| std::str::from_utf8(r).ok()) else {
                continue;
            };
            let p = repo.prefix.join(rest);
            if !listed.contains(p.as_os_str().as_encoded_bytes()) {
                missing.push(p);
            }
        }
    }
    if missing.is_empty() {
        return Default::default();
    }
    let entered: HashSet<&Path> = folders.iter().map(PathBuf::as_path).collect();
    let mut starts: Vec<PathBuf> = Vec::new();
    let mut between: HashSet<PathBuf> = HashSet::new();
    let skipped: HashSet<&Path> = vendored.iter().map(PathBuf::as_path).collect();
    let mut chain: Vec<&Path> = Vec::new();
    for m in &missing {
        chain.clear();
        let mut up = m.parent();
        while let Some(d) = up
            && !entered.contains(d)
        {
            chain.push(d);
            up = d.parent();
        }
        // Below a vendored folder the walk left out: not read either.
        if let Some(d) = up
            && !skipped.contains(d)
        {
            between.extend(chain.iter().map(|c| c.to_path_buf()));
            starts.push(d.to_path_buf());
        }
    }
    starts.sort();
    starts.dedup();
    let Some((first, rest)) = starts.split_first() else {
        return Default::default();
    };
    let wanted: HashSet<PathBuf> = missing.into_iter().collect();
    let mut b = WalkBuilder::new(first);
    for s in rest {
        b.add(s);
    }
    b.hidden(false)
        .follow_links(false)
        .git_ignore(false)
        .git_global(false)
        .git_exclude(false)
        .require_git(false)
        .ignore(true)
        .parents(true)
        .filter_entry(move |e| {
            if e.file_name() == ".git" || super::vendored(e) {
                return false;
            }
            match e.file_type() {
                Some(t) if t.is_dir() => between.contains(e.path()),
                Some(t) if t.is_file() => wanted.contains(e.path()),
                _ => false,
            }
        });
    if let Some(o) = overrides {
        b.overrides(o.clone());
    }
    let (mut found, mut dirs) = (Vec::new(), Vec::new());
    for e in b.build().flatten() {
        if e.depth() == 0 {
            continue;
        }
        match e.file_type() {
            Some(t) if t.is_dir() => dirs.push(e.into_path()),
            Some(t) if t.is_file() => found.push(e.into_path()),
            _ => {}
        }
    }
    (found, dirs)
}

/// An index of version `version` (2 to 4) holding `entries` (path, mode),
/// with SHA-1 names, for tests.
#[cfg(test)]
pub(crate) fn index_bytes(version: u32, entries: &[(&str, u32)]) -> Vec<u8> {
    index_with(version, entries, None)
}

/// The EWAH bitmap (see [`ewah`]) with the bits `set` of `bits`, for
/// tests: one marker word, then literal words.
#[cfg(test)]
pub(crate) fn ewah_bytes(bits: usize, set: &[usize]) -> Vec<u8> {
    let words = bits.div_ceil(64);
    let mut lit = vec![0u64; words];
    for &p in set {
        lit[p / 64] |= 1 << (p % 64);
    }
    let mut out = (bits as u32).to_be_bytes().to_vec();
    out.extend_from_slice(&(words as u32 + 1).to_be_bytes());
    out.extend_from_slice(&((words as u64) << 33).to_be_bytes());
    for w in lit {
        out.extend_from_slice(&w.to_be_bytes());
    }
    out.extend_from_slice(&0u32.to_be_bytes());
    out
}

/// A split index for tests: `entries` (the replacements first, nameless
/// as git writes them, then the added ones), linked to the shared index
/// named `shared` with the bitmaps of its `removed` and `replaced`
/// entries, over `bits` entries.
#[cfg(test)]
pub(crate) fn split_index_bytes(
    version: u32,
    entries: &[(&str, u32)],
    shared: [u8; 20],
    bits: usize,
    removed: &[usize],
    replaced: &[usize],
) -> Vec<u8> {
    let mut link = shared.to_vec();
    link.extend(ewah_bytes(bits, removed));
    link.extend(ewah_bytes(bits, replaced));
    index_with(version, entries, Some(link))
}

#[cfg(test)]
fn index_with(version: u32, entries: &[(&str, u32)], link: Option<Vec<u8>>) -> Vec<u8> {
    let mut out = b"DIRC".to_vec();
    out.extend_from_slice(&version.to_be_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_be_bytes());
    let mut last = "";
    for (i, (path, mode)) in entries.iter().enumerate() {
        let start = out.len();
        let mut stat = [0u8; 40];
        stat[24..28].copy_from_slice(&mode.to_be_bytes());
        out.extend_from_slice(&stat);
        out.extend_from_slice(&[7u8; 20]);
        // Every other entry of a version 3 index has extended flags.
        let extended = version == 3 && i % 2 == 0;
        let flags = path.len().min(0xfff) as u16 | if extended { 0x4000 } else { 0 };
        out.extend_from_slice(&flags.to_be_bytes());
        if extended {
            out.extend_from_slice(&0x2000u16.to_be_bytes());
        }
        if version == 4 {
            let shared = last
                .bytes()
                .zip(path.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            let strip = last.len() - shared;
            assert!(strip < 128, "one varint byte in tests");
            out.push(strip as u8);
            out.extend_from_slice(&path.as_bytes()[shared..]);
            out.push(0);
        } else {
            out.extend_from_slice(path.as_bytes());
            let len = out.len() - start;
            out.resize(start + ((len + 8) & !7), 0);
        }
        last = path;
    }
    out.extend_from_slice(b"TREE");
    out.extend_from_slice(&3u32.to_be_bytes());
    out.extend_from_slice(b"abc");
    if let Some(link) = link {
        out.extend_from_slice(b"link");
        out.extend_from_slice(&(link.len() as u32).to_be_bytes());
        out.extend_from_slice(&link);
    }
    out.extend_from_slice(&[0u8; 20]);
    out
}
