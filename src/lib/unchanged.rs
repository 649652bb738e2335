//! Files not opened on a warm run (issue 27): a file whose stat is the one
//! the stat index recorded ([`cache::stat`]) and whose reading left no
//! text behind (no reader claimed it, it is binary, or its facts were
//! empty) is taken from the index and the facts cache without a read.
//! Every other file is read as before, and what its reading gave is
//! recorded for the next run.

use super::{Noted, Read, cache, read_named, systems};
use crate::config::Settings;
use crate::model::Facts;
use cache::stat::{Outcome, Stamp};
use std::path::Path;

/// Whether the scan keeps a file with these facts: it says something, or
/// it is a Helm chart's or a kustomization's own file (read again by the
/// link stage: `link::helm`, `link::kustomize`).
pub(super) fn kept(facts: &Facts) -> bool {
    !facts.is_empty()
        || facts.extractors.contains(&crate::extract::helm::CLAIM)
        || facts.extractors.contains(&crate::extract::kustomize::CLAIM)
}

/// The file's stat index id and stamp, taken before it is read, and
/// whether no reader wants its name (a language not read yet).
pub(super) type Seen = Option<(u128, Stamp, bool)>;

/// [`read_named`](super::read_named), or what the stat index says reading
/// the file would give when its stat is unchanged; with the stamp to record the outcome
/// under. A file no reader wants by name is neither stat-ed nor indexed.
/// Generated code read because it was named ([`Noted::generated_named`])
/// gave what a run that skips it must not take from the index: its
/// caller records nothing for it.
pub(super) fn read(
    path: &Path,
    relative: &str,
    shown: &str,
    settings: &Settings,
    cwd: Option<&Path>,
    cache: &cache::Cache,
    noted: &mut Noted,
) -> (Read, Seen) {
    // A name no reader wants is opened only to list a file in a language
    // not read yet that mentions retries.
    let unread = (!systems::wanted_by_name(path))
        .then(|| crate::extract::unread::language_of(Path::new(relative)));
    if !cache.enabled() || unread.is_some_and(|l| l.is_none()) {
        return (read_named(path, shown, settings, unread, noted), None);
    }
    // What a file gives depends on whether generated code is read: the
    // two settings keep apart entries.
    let id = cache::stat::id(cwd, path, relative) ^ u128::from(settings.read_generated_code);
    // A file kept for what it said is read again whatever its stat: no
    // `stat` first (one system call of six per such file).
    if unread.is_none() && cache.stat().kept_before(id) {
        let seen = Some((id, Stamp::NONE, false));
        return (read_named(path, shown, settings, unread, noted), seen);
    }
    let Some(stamp) = std::fs::symlink_metadata(path)
        .ok()
        .and_then(|m| Stamp::of(&m))
    else {
        return (read_named(path, shown, settings, unread, noted), None);
    };
    // An unread-language file over the limit is not looked at, whatever
    // it held: not recorded, so that a larger limit looks.
    if unread.is_some() && stamp.size() > settings.max_file_size {
        return (read_named(path, shown, settings, unread, noted), None);
    }
    let seen = Some((id, stamp, unread.is_some()));
    // A file over the limit is refused by size, whatever it held.
    let known = (stamp.size() <= settings.max_file_size)
        .then(|| cache.stat().get(id, &stamp))
        .flatten();
    let read = match known {
        Some(Outcome::Skipped) => Read::Skipped,
        Some(Outcome::Generated) if !noted.named => Read::Generated,
        Some(Outcome::Binary) => Read::Binary,
        Some(Outcome::Unread(mentions)) => match unread.flatten() {
            Some(language) if mentions => Read::Unread(language, shown.to_string()),
            Some(_) => Read::Skipped,
            None => return (read_named(path, shown, settings, unread, noted), seen),
        },
        Some(Outcome::Empty(key)) => match cache.take_unchanged(key) {
            Some(facts) => Read::Unchanged(Box::new(facts), key),
            None => return (read_named(path, shown, settings, unread, noted), seen),
        },
        Some(Outcome::Kept | Outcome::Generated) | None => {
            return (read_named(path, shown, settings, unread, noted), seen);
        }
    };
    cache.note_unopened();
    (read, seen)
}

/// Record in the stat index what reading each file gave (`reads` and
/// `seen` side by side, one per walked file), where it left no text.
pub(super) fn record(reads: &[Read], seen: &[Seen], cache: &cache::Cache) {
    for (r, s) in reads.iter().zip(seen) {
        let Some((id, stamp, unread)) = s else {
            continue;
        };
        let outcome = match r {
            Read::Unread(..) => Outcome::Unread(true),
            // A language not read yet, without a retry word.
            Read::Skipped if *unread => Outcome::Unread(false),
            Read::Skipped => Outcome::Skipped,
            Read::Binary => Outcome::Binary,
            Read::Generated => Outcome::Generated,
            Read::Unchanged(_, key) => Outcome::Empty(*key),
            Read::Parsed(f, Some(key)) if !kept(&f.facts) => Outcome::Empty(*key),
            Read::Parsed(..) => Outcome::Kept,
            _ => continue,
        };
        // Without its stamp, only `Kept` is worth keeping: the file is
        // stat-ed again next time.
        if *stamp == Stamp::NONE && !matches!(outcome, Outcome::Kept) {
            continue;
        }
        cache.stat().record(*id, *stamp, outcome, cache.start());
    }
}
