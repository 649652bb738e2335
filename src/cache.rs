//! The per-file facts cache: what extraction found in a file, keyed by a
//! hash of the file's path and bytes, and valid only for the retrylint
//! build that wrote it.
//!
//! Extraction is a pure function of one file's path and bytes ([`crate::extract`]),
//! so its result can be reused while neither changes. A warm run still
//! walks the tree and reads every file an extractor may want (suppression
//! comments and rendered snippets need the text, and reading is what
//! ripgrep pays too), but parses none that is unchanged.
//!
//! - Location ([`place`]): with the scanned tree, never the working
//!   directory's: `.retrylint-cache/` beside the scanned tree's
//!   `.retrylint.toml` (or its `cache-dir = "DIR"`), else at the root of the
//!   git repository holding the scanned folder, else in the user's cache
//!   directory keyed by the scanned folder; or `--cache-dir DIR`;
//!   `--no-cache` turns it off. The folder holds a `.gitignore` of `*` (so that neither
//!   git nor retrylint's own walk sees it) and a `CACHEDIR.TAG`.
//! - Key ([`Cache::key`]): xxh3-128 of the path relative to the scanned
//!   root, the syntax and the text given to the extractor, seeded with the
//!   build's salt ([`salt`]: the version and the
//!   executable's size and modification time, so a rebuilt binary never
//!   reads facts another build wrote).
//! - [`SHARDS`] files (`facts-v6-00` ...), an entry in the one its key's
//!   top bits name: they are read in parallel (while the tree is walked),
//!   and a run that parsed one changed file rewrites one shard, not the
//!   whole cache. A shard is binary: a magic, the salt, the number of
//!   entries, then each entry's key, length and bytes (the entry's facts
//!   as MessagePack, [`encode`]). Loading a shard only slices it: an entry is decoded when
//!   a file takes it ([`Cache::take`]), so a run decodes only the facts
//!   it uses, and an entry it does not use is written back as it was
//!   read. Each is written to a temporary file and renamed, so
//!   concurrent runs never see half a file (the last one wins). A shard
//!   that cannot be read, is cut short or has bytes left over, or was
//!   written by another build, is ignored, and an entry that does not
//!   decode is a miss: its files are then parsed again, never wrong,
//!   never aborted.
//! - A shard is written only when a file of it was parsed this run, or when
//!   most of its entries are stale; entries unused this run are kept while
//!   they are not more than the used ones (a run over a subfolder does not
//!   evict the rest).

use crate::diag::Diagnostic;
use crate::model::Facts;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use xxhash_rust::xxh3::Xxh3;

pub mod listing;
pub mod stat;
mod tracked;

/// The cache folder's default name.
pub const DIR_NAME: &str = ".retrylint-cache";
/// How many files the cache is split into.
pub const SHARDS: usize = 64;
const FILE_PREFIX: &str = "facts-v6-";
/// The shards of the formats before (JSON shards, binary shards of JSON
/// entries, entries whose `kind`-tagged enums were internally tagged,
/// then entries whose structs were maps of their field names), removed
/// when a shard is written.
const OLD_PREFIXES: [&str; 4] = ["facts-v2-", "facts-v3-", "facts-v4-", "facts-v5-"];
/// The format's version is the magic's last byte: a shard of another
/// format is no shard, and its files are parsed again.
const MAGIC: &[u8; 8] = b"rlfacts6";

fn shard_of(key: u128) -> usize {
    (key >> 122) as usize % SHARDS
}

fn shard_file(dir: &Path, shard: usize) -> PathBuf {
    dir.join(format!("{FILE_PREFIX}{shard:02}"))
}

/// One file's facts, diagnostics included (Facts skips them in its own
/// serialisation, which the JSON output uses).
#[derive(Deserialize)]
struct Entry {
    facts: Facts,
    diagnostics: Vec<Diagnostic>,
}

#[derive(Serialize)]
struct EntryRef<'a> {
    facts: &'a Facts,
    diagnostics: &'a [Diagnostic],
}

/// An entry as read from its shard, not decoded yet: `len` bytes at `at`.
struct Raw {
    shard: std::sync::Arc<Vec<u8>>,
    at: usize,
    len: usize,
}

impl Raw {
    fn bytes(&self) -> &[u8] {
        &self.shard[self.at..self.at + self.len]
    }

    fn decode(&self) -> Option<Facts> {
        decode(self.bytes())
    }
}

/// An entry's bytes: the xxh3-64 of the rest, then the facts and their
/// diagnostics as MessagePack, a struct as an array of its fields in
/// order, without their names (every field written, empty ones too:
/// [`crate::model::skip`]). A binary format, as decoding the JSON entries
/// was a sixth of a one-file run (field names and strings scanned for
/// escapes, numbers parsed from text), and positional, as reading each
/// struct's field names back was most of the rest; the model's enums
/// tagged by `kind` are externally tagged in it ([`crate::model`]'s
/// `kind_tagged`), read without serde's buffering. The hash makes any
/// damage a miss, not other facts: a changed byte of MessagePack often
/// still decodes.
fn encode(facts: &Facts) -> Result<Vec<u8>, rmp_serde::encode::Error> {
    let mut out = vec![0; 8];
    crate::model::skip::every_field(|| {
        rmp_serde::encode::write(
            &mut out,
            &EntryRef {
                facts,
                diagnostics: &facts.diagnostics,
            },
        )
    })?;
    let hash = xxhash_rust::xxh3::xxh3_64(&out[8..]);
    out[..8].copy_from_slice(&hash.to_le_bytes());
    Ok(out)
}

/// [`encode`]'s facts back, `None` for bytes that are not an entry (a
/// damaged one: the file is then parsed again).
fn decode(bytes: &[u8]) -> Option<Facts> {
    let (hash, body) = bytes.split_at_checked(8)?;
    if u64::from_le_bytes(hash.try_into().ok()?) != xxhash_rust::xxh3::xxh3_64(body) {
        return None;
    }
    let e: Entry = rmp_serde::from_slice(body).ok()?;
    let mut facts = e.facts;
    facts.diagnostics = e.diagnostics;
    Some(facts)
}

/// The entries of a shard's bytes written by the build `salt`, in the
/// order written; `None` when it is not one (another format or build,
/// cut short, bytes left over).
fn split_shard(bytes: std::sync::Arc<Vec<u8>>, salt: u64) -> Option<Vec<(u128, Raw)>> {
    let rest = bytes.strip_prefix(MAGIC)?;
    let (s, rest) = rest.split_at_checked(8)?;
    if u64::from_le_bytes(s.try_into().ok()?) != salt {
        return None;
    }
    let (n, mut rest) = rest.split_at_checked(8)?;
    let n = u64::from_le_bytes(n.try_into().ok()?);
    let mut at = bytes.len() - rest.len();
    let mut out = Vec::with_capacity(n.min(1 << 16) as usize);
    for _ in 0..n {
        let (k, r) = rest.split_at_checked(16)?;
        let (l, r) = r.split_at_checked(4)?;
        let len = u32::from_le_bytes(l.try_into().ok()?) as usize;
        let (_, r) = r.split_at_checked(len)?;
        at += 20;
        out.push((
            u128::from_le_bytes(k.try_into().ok()?),
            Raw {
                shard: bytes.clone(),
                at,
                len,
            },
        ));
        at += len;
        rest = r;
    }
    rest.is_empty().then_some(out)
}

/// A shard's bytes: [`MAGIC`], `salt`, the number of entries, then each
/// entry's key, length and bytes.
fn join_shard(salt: u64, entries: &[(u128, std::borrow::Cow<'_, [u8]>)]) -> Vec<u8> {
    let size: usize = entries.iter().map(|(_, b)| 20 + b.len()).sum();
    let mut out = Vec::with_capacity(24 + size);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&salt.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for (k, b) in entries {
        out.extend_from_slice(&k.to_le_bytes());
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
        out.extend_from_slice(b);
    }
    out
}

/// Hits and misses of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: usize,
    pub misses: usize,
    /// Files not opened: their stat was the one the stat index recorded
    /// ([`stat`]).
    pub unopened: usize,
    /// The walk's files were taken from its listing: no folder had
    /// changed ([`listing`]).
    pub listed: bool,
}

/// The cache of one run: the entries read at the start, taken as files
/// hit them.
pub struct Cache {
    dir: Option<PathBuf>,
    salt: u64,
    old: Mutex<HashMap<u128, Raw>>,
    loaded: usize,
    hits: AtomicUsize,
    misses: AtomicUsize,
    unopened: AtomicUsize,
    /// One bit per shard that had a miss.
    missed: std::sync::atomic::AtomicU64,
    /// What reading each file gave, by its stat ([`stat`]).
    stat: stat::StatIndex,
    /// When the run opened the cache (files changed since are not indexed).
    start: std::time::SystemTime,
}

impl Cache {
    /// No cache: every lookup misses and nothing is written.
    pub fn disabled() -> Self {
        Cache {
            dir: None,
            salt: 0,
            old: Mutex::new(HashMap::new()),
            loaded: 0,
            hits: AtomicUsize::new(0),
            misses: AtomicUsize::new(0),
            unopened: AtomicUsize::new(0),
            missed: std::sync::atomic::AtomicU64::new(0),
            stat: stat::StatIndex::default(),
            start: std::time::SystemTime::now(),
        }
    }

    /// Open the cache in `dir` for a build with `salt` (see [`salt`]). A
    /// missing, unreadable, corrupt or foreign cache file reads as empty.
    pub fn open(dir: &Path, salt: u64) -> Self {
        let mut cache = Cache::disabled();
        // A cache folder that is a symbolic link (one a pull request could
        // plant) is neither read nor written through (SECURITY.md).
        if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
            return cache;
        }
        cache.dir = Some(dir.to_path_buf());
        cache.salt = salt;
        let (index, old) = rayon::join(
            || stat::StatIndex::open(dir, salt),
            || Self::load(dir, salt),
        );
        cache.stat = index;
        cache.loaded = old.len();
        cache.old = Mutex::new(old);
        cache
    }

    /// Every entry of the shards in `dir` written by the build `salt`,
    /// not decoded.
    fn load(dir: &Path, salt: u64) -> HashMap<u128, Raw> {
        use rayon::prelude::*;
        (0..SHARDS)
            .into_par_iter()
            .flat_map_iter(|shard| {
                std::fs::read(shard_file(dir, shard))
                    .ok()
                    .and_then(|bytes| split_shard(std::sync::Arc::new(bytes), salt))
                    .unwrap_or_default()
                    .into_iter()
                    // An entry in the wrong shard is not this build's.
                    .filter(move |(k, _)| shard_of(*k) == shard)
            })
            .collect()
    }

    /// The stat index of this run (empty without a cache).
    pub fn stat(&self) -> &stat::StatIndex {
        &self.stat
    }

    /// Count a file not opened because the stat index knew it.
    pub fn note_unopened(&self) {
        self.unopened.fetch_add(1, Ordering::Relaxed);
    }

    /// When this run opened the cache.
    pub fn start(&self) -> std::time::SystemTime {
        self.start
    }

    pub fn enabled(&self) -> bool {
        self.dir.is_some()
    }

    /// Its folder and build salt, for a link step that keeps its own
    /// result beside the facts (`link::kustomize`'s memo).
    pub fn place(&self) -> Option<(PathBuf, u64)> {
        self.dir.clone().map(|d| (d, self.salt))
    }

    /// The key of a file: what the extractor is given, with the path
    /// relative to the scanned root the file was found under (`relative`,
    /// `/`-separated), so that a cache restored into another checkout path
    /// still hits. The syntax the full path classified the file as stands
    /// for what the folders above the root decide (an nginx file is
    /// recognised by an `nginx` folder above it).
    pub fn key(&self, relative: &str, syntax: crate::extract::Syntax, text: &str) -> u128 {
        let mut h = Xxh3::with_seed(self.salt);
        h.update(relative.as_bytes());
        h.update(&[0]);
        h.update(format!("{syntax:?}").as_bytes());
        h.update(&[0]);
        h.update(text.as_bytes());
        h.digest128()
    }

    /// The facts cached for `key`, diagnostics included, counting a hit or
    /// a miss (an entry that does not decode is a miss).
    pub fn take(&self, key: u128) -> Option<Facts> {
        if !self.enabled() {
            return None;
        }
        let raw = self
            .old
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&key);
        match raw.and_then(|r| r.decode()) {
            Some(facts) => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                Some(facts)
            }
            None => {
                self.misses.fetch_add(1, Ordering::Relaxed);
                self.missed.fetch_or(1 << shard_of(key), Ordering::Relaxed);
                None
            }
        }
    }

    /// The facts cached for `key` when there are some (a hit), for a file
    /// the stat index says is unchanged; no miss is counted, as the file
    /// is then read and looked up again (an entry that does not decode is
    /// gone by then, and misses).
    pub fn take_unchanged(&self, key: u128) -> Option<Facts> {
        if !self.enabled() {
            return None;
        }
        let facts = self
            .old
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&key)?
            .decode()?;
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some(facts)
    }

    /// [`Cache::take`] for the file at `path` read as `syntax`: what its
    /// entry leaves out because it depends on where the tree is (a Rust
    /// file's crate directory) is derived from `path` again.
    pub fn take_for(
        &self,
        key: u128,
        path: &Path,
        syntax: crate::extract::Syntax,
    ) -> Option<Facts> {
        let mut facts = self.take(key)?;
        if syntax == crate::extract::Syntax::Rust {
            facts.rust.crate_dir = crate::systems::rust::extract::crate_dir(path);
        }
        Some(facts)
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            unopened: self.unopened.load(Ordering::Relaxed),
            listed: false,
        }
    }

    /// Write this run's entries (`used`: every file looked up, with its
    /// facts) when anything changed. Errors are returned for the caller
    /// to ignore or report; the scan's result never depends on them.
    pub fn save<'a>(&self, used: impl Iterator<Item = (u128, &'a Facts)>) -> std::io::Result<bool> {
        let Some(dir) = &self.dir else {
            return Ok(false);
        };
        let mut wrote = self.stat.save(dir, self.salt)?;
        let old = self.old.lock().unwrap_or_else(|p| p.into_inner());
        let missed = self.missed.load(Ordering::Relaxed);
        // This run's entries and the old unused ones, per shard.
        // Entries hold no absolute path: a Rust file's crate directory,
        // the only path in a file's facts, is derived from its path again
        // when the entry is taken ([`Cache::take_for`]).
        let mut rebased: Vec<(u128, Facts)> = Vec::new();
        let mut used_by: Vec<Vec<(u128, &Facts)>> = vec![Vec::new(); SHARDS];
        let mut plain = Vec::new();
        for (k, f) in used {
            if f.rust.crate_dir.is_some() {
                let mut f = f.clone();
                f.rust.crate_dir = None;
                rebased.push((k, f));
            } else {
                plain.push((k, f));
            }
        }
        for (k, f) in plain
            .into_iter()
            .chain(rebased.iter().map(|(k, f)| (*k, f)))
        {
            used_by[shard_of(k)].push((k, f));
        }
        let mut unused_by: Vec<Vec<(u128, &Raw)>> = vec![Vec::new(); SHARDS];
        for (k, e) in old.iter() {
            unused_by[shard_of(*k)].push((*k, e));
        }
        let mut prepared = wrote;
        for (shard, (used, unused)) in used_by.iter().zip(&unused_by).enumerate() {
            let keep_unused = unused.len() <= used.len();
            let dirty = missed & (1 << shard) != 0 || (!keep_unused && !unused.is_empty());
            if !dirty {
                continue;
            }
            let mut entries: Vec<(u128, std::borrow::Cow<'_, [u8]>)> = Vec::new();
            for (k, f) in used {
                let bytes = encode(f).map_err(std::io::Error::other)?;
                entries.push((*k, bytes.into()));
            }
            if keep_unused {
                // Not decoded this run: written back as read.
                entries.extend(unused.iter().map(|(k, e)| (*k, e.bytes().into())));
            }
            if !prepared {
                prepare(dir)?;
                prepared = true;
            }
            wrote = true;
            for old in OLD_PREFIXES {
                let _ = std::fs::remove_file(dir.join(format!("{old}{shard:02}")));
            }
            write_atomically(&shard_file(dir, shard), &join_shard(self.salt, &entries))?;
        }
        Ok(wrote)
    }

    /// Entries read at the start.
    pub fn loaded(&self) -> usize {
        self.loaded
    }
}

/// Where the facts cache of a scan of `roots` lives when no `--cache-dir`
/// names it. It belongs to the scanned tree, not to the working directory:
/// next to the `.retrylint.toml` that governs the scanned folder (at the
/// `cache-dir` it names when that is the configuration loaded, `loaded`
/// being `(its file, the cache folder it gives)`), else at the root of the
/// git repository that contains the scanned folder, else in the user's
/// cache directory (`$XDG_CACHE_HOME/retrylint/<hash>` or
/// `~/.cache/retrylint/<hash>`, the hash of the canonical scanned folder).
/// The scanned folder is the deepest folder that holds every root. `None`
/// when there is nowhere to put it.
pub fn place(roots: &[PathBuf], loaded: Option<(&Path, &Path)>) -> Option<PathBuf> {
    let base = scanned_folder(roots)?;
    if let Some(toml) = crate::config::discover(&base) {
        let toml = crate::config::normalise(&std::path::absolute(&toml).ok()?);
        if let Some((file, dir)) = loaded
            && std::path::absolute(file)
                .ok()
                .is_some_and(|f| crate::config::normalise(&f) == toml)
        {
            return Some(dir.to_path_buf());
        }
        return toml.parent().map(|d| d.join(DIR_NAME));
    }
    if let Some(repo) = crate::config::repo_root(&base) {
        return Some(repo.join(DIR_NAME));
    }
    let home = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .map(|h| h.join(".cache"))
        })?;
    let canonical = std::fs::canonicalize(&base).unwrap_or(base);
    let hash = xxhash_rust::xxh3::xxh3_64(canonical.as_os_str().as_encoded_bytes());
    Some(home.join("retrylint").join(format!("{hash:016x}")))
}

/// The deepest folder that holds every root (a file root counts as its
/// folder), absolute.
fn scanned_folder(roots: &[PathBuf]) -> Option<PathBuf> {
    let mut common: Option<PathBuf> = None;
    for r in roots {
        let abs = crate::config::normalise(&std::path::absolute(r).ok()?);
        let dir = if abs.is_file() {
            abs.parent()?.to_path_buf()
        } else {
            abs
        };
        common = Some(match common {
            None => dir,
            Some(c) => c
                .components()
                .zip(dir.components())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a)
                .collect(),
        });
    }
    common
}

/// Make the folder, keeping it out of git and out of retrylint's own walk.
pub(crate) fn prepare(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    if std::fs::symlink_metadata(dir)?.file_type().is_symlink() {
        return Err(std::io::Error::other("the cache folder is a symbolic link"));
    }
    let ignore = dir.join(".gitignore");
    if std::fs::symlink_metadata(&ignore).is_err() {
        write_new(&ignore, b"# Created by retrylint.\n*\n")?;
        write_new(
            &dir.join("CACHEDIR.TAG"),
            b"Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by retrylint.\n",
        )?;
    }
    Ok(())
}

/// Create `path` and write `bytes` to it; fails if anything is there
/// already, a symbolic link included, so nothing is written through one.
fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?
        .write_all(bytes)
}

/// Write `bytes` to a temporary file beside `path` and rename it over
/// `path`: a reader sees the old file or the new one, never half of one.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // Unique per process and per write, so that concurrent writers never
    // share a temporary file.
    static WRITES: AtomicUsize = AtomicUsize::new(0);
    let tmp = path.with_extension(format!(
        "{}.{}.tmp",
        std::process::id(),
        WRITES.fetch_add(1, Ordering::Relaxed)
    ));
    write_new(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// This build's salt: the version, and the running executable's size and
/// modification time (a rebuilt binary may read files differently even
/// under the same version number).
pub fn salt() -> u64 {
    let mut h = Xxh3::new();
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(&[0]);
    if let Ok(m) = std::env::current_exe().and_then(std::fs::metadata) {
        h.update(&m.len().to_le_bytes());
        if let Ok(t) = m.modified()
            && let Ok(d) = t.duration_since(std::time::UNIX_EPOCH)
        {
            h.update(&d.as_nanos().to_le_bytes());
        }
    }
    h.digest()
}

/// A [`Diagnostic`] as read back: its code is looked up among the codes
/// extractors report ([`crate::diag::CODES`]; an unknown code makes the
/// cache file unreadable, so it is ignored).
#[derive(Deserialize)]
pub struct DiagnosticRepr {
    code: String,
    span: crate::source::Span,
    message: String,
    help: String,
    related: Vec<(crate::source::Span, String)>,
    severity: Option<crate::diag::Severity>,
    #[serde(default)]
    fixes: Vec<crate::fix::Fix>,
}

// By hand: a derived impl would borrow the `&'static str` code from the
// input, which only a `'static` input can lend.
impl<'de> Deserialize<'de> for Diagnostic {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Diagnostic::try_from(DiagnosticRepr::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<DiagnosticRepr> for Diagnostic {
    type Error = String;
    fn try_from(d: DiagnosticRepr) -> Result<Self, String> {
        let code =
            crate::diag::code(&d.code).ok_or_else(|| format!("unknown rule `{}`", d.code))?;
        Ok(Diagnostic {
            code,
            span: d.span,
            message: d.message,
            help: d.help,
            related: d.related,
            severity: d.severity,
            fixes: d.fixes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[test]
    fn a_shard_round_trips_and_a_cut_or_foreign_one_is_none() {
        let entries: Vec<(u128, Cow<'_, [u8]>)> = vec![
            (1, Cow::Borrowed(&b"{}"[..])),
            (u128::MAX, Cow::Borrowed(&b""[..])),
            (7 << 100, Cow::Owned(vec![b'x'; 300])),
        ];
        let bytes = join_shard(42, &entries);
        let split = split_shard(std::sync::Arc::new(bytes.clone()), 42).unwrap();
        let got: Vec<(u128, Vec<u8>)> = split
            .iter()
            .map(|(k, r)| (*k, r.bytes().to_vec()))
            .collect();
        let want: Vec<(u128, Vec<u8>)> = entries.iter().map(|(k, b)| (*k, b.to_vec())).collect();
        assert_eq!(got, want);
        assert!(split_shard(std::sync::Arc::new(bytes.clone()), 43).is_none());
        // Every cut, and a byte left over, is no shard.
        for cut in 0..bytes.len() {
            assert!(
                split_shard(std::sync::Arc::new(bytes[..cut].to_vec()), 42).is_none(),
                "{cut}"
            );
        }
        let mut more = bytes.clone();
        more.push(0);
        assert!(split_shard(std::sync::Arc::new(more), 42).is_none());
        // A count far larger than the bytes: no shard, no huge allocation.
        let mut lying = bytes;
        lying[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(split_shard(std::sync::Arc::new(lying), 42).is_none());
    }

    /// Facts with a little of everything a shard holds: an internally
    /// tagged enum, skipped empty fields, a diagnostic.
    fn some_facts() -> Facts {
        let text = "resilience4j:\n  retry:\n    instances:\n      a:\n        maxAttempts: 3\n        waitDuration: 10s\n        enableExponentialBackoff: true\n";
        let path = Path::new("svc/application.yml");
        let syntax = crate::systems::classify(path, text.as_bytes()).unwrap();
        let mut facts = crate::systems::extract(path, text, syntax);
        facts
            .diagnostics
            .push(crate::diag::unparsable_file::file("r", "h"));
        facts
    }

    #[test]
    fn an_entry_round_trips_and_every_cut_or_flipped_bit_is_none() {
        let facts = some_facts();
        assert!(!facts.policies.is_empty());
        let bytes = encode(&facts).unwrap();
        let back = decode(&bytes).unwrap();
        assert_eq!(
            serde_json::to_string(&back).unwrap(),
            serde_json::to_string(&facts).unwrap()
        );
        assert_eq!(back.diagnostics, facts.diagnostics);
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_none(), "{cut}");
        }
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut b = bytes.clone();
                b[at] ^= 1 << bit;
                assert!(decode(&b).is_none(), "{at} {bit}");
            }
        }
    }

    /// Entries name no field (structs are arrays), and the JSON output,
    /// written after an entry, still leaves empty fields out.
    #[test]
    fn entries_are_positional_and_the_json_still_skips_empty_fields() {
        let facts = some_facts();
        let bytes = encode(&facts).unwrap();
        let has = |b: &[u8], word: &str| b.windows(word.len()).any(|w| w == word.as_bytes());
        for name in [
            "policies",
            "extractors",
            "written_as",
            "diagnostics",
            "unresolved",
        ] {
            assert!(!has(&bytes, name), "{name}");
        }
        let json = serde_json::to_string(&facts).unwrap();
        assert!(has(json.as_bytes(), "\"policies\""));
        // `unresolved`: left out of the JSON when empty, as before.
        assert!(facts.unresolved.is_empty());
        assert!(!has(json.as_bytes(), "\"unresolved\""), "{json}");
    }

    #[test]
    fn an_entry_that_does_not_decode_is_a_miss_and_its_shard_is_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let key: u128 = 5;
        let shard = shard_of(key);
        let bytes = join_shard(9, &[(key, Cow::Borrowed(&b"\x82\xa5facts"[..]))]);
        std::fs::write(shard_file(dir.path(), shard), bytes).unwrap();
        let cache = Cache::open(dir.path(), 9);
        assert_eq!(cache.loaded(), 1);
        assert!(cache.take_unchanged(key).is_none());
        assert!(cache.take(key).is_none());
        assert_eq!(cache.stats().misses, 1);
        assert_eq!(cache.stats().hits, 0);
        let facts = Facts::default();
        assert!(cache.save(std::iter::once((key, &facts))).unwrap());
        let again = Cache::open(dir.path(), 9);
        assert!(again.take(key).is_some());
        assert_eq!(again.stats().hits, 1);
    }
}
