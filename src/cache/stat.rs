//! The stat index (issue 27): what reading a file gave last time, keyed by
//! the file's identity on disk (size, modification and change times,
//! inode, device), so that a warm run does not open a file whose stat is
//! unchanged when nothing later needs its text.
//!
//! Only outcomes that leave no text behind are kept: a file no reader
//! claims after a look at its bytes, a binary file, a file in a language
//! not read yet (whether it mentions retries), and a file whose facts are
//! empty (not kept by the scan; its facts are in the facts cache
//! under the recorded key). A file with facts is read as before: its text
//! goes on to suppression comments, snippets and the link stage.
//!
//! A file whose modification time is within [`RACY`] of the run's start is
//! not recorded ("racily clean", as git calls it): it may change again
//! within the file system's timestamp granularity without its stat
//! changing. The change time (`ctime`) changes on every write, also when
//! the modification time is set back (`touch -m`, `cp -p`), and cannot be
//! set by a user. The file is one binary file, `stat-v1`, written to a
//! temporary file and renamed, and only when its entries changed; a file
//! that cannot be read, or was written by another build, reads as empty
//! (every file is then opened, as without it).

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, SystemTime};

const FILE_NAME: &str = "stat-v1";
const MAGIC: &[u8; 8] = b"rlstat1\0";
/// Modification times this close to the run's start are not trusted.
pub const RACY: Duration = Duration::from_secs(2);

/// What reading a file gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Read, and no reader claimed its text ([`crate::systems::classify`]
    /// said no, or a build file not valid UTF-8).
    Skipped,
    /// Read, and binary.
    Binary,
    /// Read and extracted, with empty facts: the facts cache key.
    Empty(u128),
    /// A file in a language not read yet ([`crate::extract::unread`]):
    /// whether it mentions retries (then it is listed as not read).
    Unread(bool),
    /// Read, and source code a generator wrote, not extracted
    /// ([`crate::extract::generated`]).
    Generated,
    /// Read, and kept for what it says: read again on every run (its
    /// text goes on to the link stage), so its stamp is not taken first
    /// ([`Stamp::NONE`]; the open's own `fstat` still checks the file).
    Kept,
}

/// A file's identity on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    size: u64,
    mtime: i128,
    ctime: i128,
    ino: u64,
    dev: u64,
}

impl Stamp {
    /// No file's stamp: recorded with [`Outcome::Kept`], never equal to
    /// a real file's.
    pub const NONE: Stamp = Stamp {
        size: 0,
        mtime: i128::MIN,
        ctime: i128::MIN,
        ino: 0,
        dev: 0,
    };

    /// The stamp of a regular file's metadata (`None`: not a regular file,
    /// or a platform without inode numbers).
    pub fn of(meta: &std::fs::Metadata) -> Option<Stamp> {
        if !meta.is_file() {
            return None;
        }
        Stamp::of_entry(meta)
    }

    /// The stamp of a file's or a folder's metadata (`None`: a platform
    /// without inode numbers). An entry added to a folder, removed or
    /// renamed changes the folder's modification and change times: the
    /// walk's listing watches folders by their stamps
    /// ([`super::listing`]).
    pub fn of_entry(meta: &std::fs::Metadata) -> Option<Stamp> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(Stamp {
                size: meta.len(),
                mtime: meta.mtime() as i128 * 1_000_000_000 + meta.mtime_nsec() as i128,
                ctime: meta.ctime() as i128 * 1_000_000_000 + meta.ctime_nsec() as i128,
                ino: meta.ino(),
                dev: meta.dev(),
            })
        }
        #[cfg(not(unix))]
        {
            None
        }
    }

    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Whether both stamps are of one file or folder (its inode).
    pub(super) fn same_entry(&self, other: &Stamp) -> bool {
        self.ino == other.ino && self.dev == other.dev
    }

    /// The stamp's bytes, [`Stamp::BYTES`] of them.
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.size.to_le_bytes());
        out.extend_from_slice(&self.mtime.to_le_bytes());
        out.extend_from_slice(&self.ctime.to_le_bytes());
        out.extend_from_slice(&self.ino.to_le_bytes());
        out.extend_from_slice(&self.dev.to_le_bytes());
    }

    pub(super) const BYTES: usize = 8 + 16 + 16 + 8 + 8;

    /// The stamp [`Stamp::write`] wrote at the start of `b`.
    pub(super) fn read(b: &[u8]) -> Option<Stamp> {
        let u64_at = |i: usize| Some(u64::from_le_bytes(b.get(i..i + 8)?.try_into().ok()?));
        let i128_at = |i: usize| Some(i128::from_le_bytes(b.get(i..i + 16)?.try_into().ok()?));
        Some(Stamp {
            size: u64_at(0)?,
            mtime: i128_at(8)?,
            ctime: i128_at(24)?,
            ino: u64_at(40)?,
            dev: u64_at(48)?,
        })
    }

    /// Whether the file was modified or changed within [`RACY`] of
    /// `start` (or after it): its stat may not show a change made now.
    pub(super) fn racy(&self, start: SystemTime) -> bool {
        let Ok(start) = start.duration_since(SystemTime::UNIX_EPOCH) else {
            return true;
        };
        let limit = start.as_nanos() as i128 - RACY.as_nanos() as i128;
        self.mtime >= limit || self.ctime >= limit
    }
}

/// The index read at the start of a run, and the one this run writes.
#[derive(Debug, Default)]
pub struct StatIndex {
    old: HashMap<u128, (Stamp, Outcome)>,
    new: std::sync::Mutex<HashMap<u128, (Stamp, Outcome)>>,
}

/// The index key of a file: its path as walked, the path relative to the
/// scanned root (the facts cache key's) and the working directory the
/// walked path is relative to (classification reads folders above the
/// root).
pub fn id(cwd: Option<&Path>, walked: &Path, relative: &str) -> u128 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    if let Some(cwd) = cwd {
        h.update(cwd.as_os_str().as_encoded_bytes());
    }
    h.update(&[0]);
    h.update(walked.as_os_str().as_encoded_bytes());
    h.update(&[0]);
    h.update(relative.as_bytes());
    h.digest128()
}

impl StatIndex {
    /// The index in `dir` for a build with `salt` (empty when missing,
    /// unreadable, corrupt or another build's).
    pub fn open(dir: &Path, salt: u64) -> StatIndex {
        let old = std::fs::read(dir.join(FILE_NAME))
            .ok()
            .and_then(|b| decode(&b, salt))
            .unwrap_or_default();
        StatIndex {
            old,
            new: Default::default(),
        }
    }

    /// What reading the file `id` gave last time, when its stamp is the
    /// same now.
    pub fn get(&self, id: u128, now: &Stamp) -> Option<Outcome> {
        self.old.get(&id).filter(|(s, _)| s == now).map(|(_, o)| *o)
    }

    /// Whether the file `id` was kept for what it said last time: it is
    /// read whatever its stat, so none is taken before.
    pub fn kept_before(&self, id: u128) -> bool {
        matches!(self.old.get(&id), Some((_, Outcome::Kept)))
    }

    /// Record what reading the file `id` with `stamp` (taken before it was
    /// read) gave, unless the stamp is too recent to trust.
    pub fn record(&self, id: u128, stamp: Stamp, outcome: Outcome, start: SystemTime) {
        if stamp.racy(start) {
            return;
        }
        self.new
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, (stamp, outcome));
    }

    /// Write this run's entries when they differ from those read (files
    /// not walked this run are dropped).
    pub fn save(&self, dir: &Path, salt: u64) -> std::io::Result<bool> {
        let new = self.new.lock().unwrap_or_else(|p| p.into_inner());
        if *new == self.old {
            return Ok(false);
        }
        super::prepare(dir)?;
        super::write_atomically(&dir.join(FILE_NAME), &encode(&new, salt))?;
        Ok(true)
    }
}

const RECORD: usize = 16 + 8 + 16 + 16 + 8 + 8 + 1 + 16;

fn encode(entries: &HashMap<u128, (Stamp, Outcome)>, salt: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + 8 + entries.len() * RECORD);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&salt.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for (id, (s, o)) in entries {
        out.extend_from_slice(&id.to_le_bytes());
        out.extend_from_slice(&s.size.to_le_bytes());
        out.extend_from_slice(&s.mtime.to_le_bytes());
        out.extend_from_slice(&s.ctime.to_le_bytes());
        out.extend_from_slice(&s.ino.to_le_bytes());
        out.extend_from_slice(&s.dev.to_le_bytes());
        let (tag, key) = match o {
            Outcome::Skipped => (0u8, 0u128),
            Outcome::Binary => (1, 0),
            Outcome::Empty(k) => (2, *k),
            Outcome::Unread(mentions) => (3, u128::from(*mentions)),
            Outcome::Kept => (4, 0),
            Outcome::Generated => (5, 0),
        };
        out.push(tag);
        out.extend_from_slice(&key.to_le_bytes());
    }
    out
}

fn decode(bytes: &[u8], salt: u64) -> Option<HashMap<u128, (Stamp, Outcome)>> {
    let rest = bytes.strip_prefix(MAGIC)?;
    let (s, rest) = rest.split_at_checked(8)?;
    if u64::from_le_bytes(s.try_into().ok()?) != salt {
        return None;
    }
    let (n, rest) = rest.split_at_checked(8)?;
    let n = u64::from_le_bytes(n.try_into().ok()?) as usize;
    if rest.len() != n.checked_mul(RECORD)? {
        return None;
    }
    let mut out = HashMap::with_capacity(n);
    for r in rest.chunks_exact(RECORD) {
        let u128_at = |i: usize| u128::from_le_bytes(r[i..i + 16].try_into().unwrap_or_default());
        let u64_at = |i: usize| u64::from_le_bytes(r[i..i + 8].try_into().unwrap_or_default());
        let i128_at = |i: usize| i128::from_le_bytes(r[i..i + 16].try_into().unwrap_or_default());
        let stamp = Stamp {
            size: u64_at(16),
            mtime: i128_at(24),
            ctime: i128_at(40),
            ino: u64_at(56),
            dev: u64_at(64),
        };
        let outcome = match r[72] {
            0 => Outcome::Skipped,
            1 => Outcome::Binary,
            2 => Outcome::Empty(u128_at(73)),
            3 => Outcome::Unread(u128_at(73) != 0),
            4 => Outcome::Kept,
            5 => Outcome::Generated,
            _ => return None,
        };
        out.insert(u128_at(0), (stamp, outcome));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(mtime: i128) -> Stamp {
        Stamp {
            size: 3,
            mtime,
            ctime: mtime,
            ino: 7,
            dev: 1,
        }
    }

    #[test]
    fn round_trips_and_refuses_another_build_or_a_cut_file() {
        let mut m = HashMap::new();
        m.insert(1u128, (stamp(5), Outcome::Skipped));
        m.insert(2u128, (stamp(6), Outcome::Binary));
        m.insert(u128::MAX, (stamp(-1), Outcome::Empty(u128::MAX - 3)));
        m.insert(3, (stamp(7), Outcome::Unread(true)));
        m.insert(4, (stamp(8), Outcome::Unread(false)));
        m.insert(5, (Stamp::NONE, Outcome::Kept));
        m.insert(6, (stamp(9), Outcome::Generated));
        let bytes = encode(&m, 42);
        assert_eq!(decode(&bytes, 42), Some(m));
        assert_eq!(decode(&bytes, 43), None);
        assert_eq!(decode(&bytes[..bytes.len() - 1], 42), None);
        assert_eq!(decode(b"", 42), None);
    }

    #[test]
    fn a_stamp_near_the_start_is_not_recorded_and_a_changed_one_misses() {
        let start = SystemTime::UNIX_EPOCH + Duration::from_secs(100);
        let index = StatIndex::default();
        let now = stamp(99 * 1_000_000_000);
        index.record(1, now, Outcome::Skipped, start);
        assert!(index.new.lock().unwrap().is_empty());
        let old = stamp(90 * 1_000_000_000);
        index.record(1, old, Outcome::Skipped, start);
        let index = StatIndex {
            old: index.new.into_inner().unwrap(),
            new: Default::default(),
        };
        assert_eq!(index.get(1, &old), Some(Outcome::Skipped));
        assert_eq!(index.get(2, &old), None);
        for changed in [
            Stamp { size: 4, ..old },
            Stamp { mtime: 1, ..old },
            Stamp { ctime: 1, ..old },
            Stamp { ino: 8, ..old },
            Stamp { dev: 2, ..old },
        ] {
            assert_eq!(index.get(1, &changed), None, "{changed:?}");
        }
    }
}
