//! Which document readers' sniff words a YAML or JSON text holds
//! ([`DOC_OWNERS`]), in one pass over it.
//!
//! Each extractor's words searched one by one were 40 passes over every
//! YAML file (43% of a cold scan of envoyproxy/gateway's 2,500 of them);
//! one overlapping Aho-Corasick DFA over every byte was still 721 M
//! instructions of gateway's scan (16%), as an overlapping search has no
//! prefilter for this many words. Now a packed SIMD search (Teddy) finds
//! each place where some word may start, from the words' first bytes (a
//! few dozen distinct keys), and only there are the words compared: the
//! same flags as the overlapping search (every occurrence of every word
//! starts at an occurrence of its key, and every such place is visited),
//! for a fraction of the instructions. Where the CPU has no such search
//! (no SSSE3), the DFA is used.
//!
//! Once a reader's word is found, its keys are dead weight: envoyproxy/gateway's
//! `gate` (of `gateway.networking.k8s.io`) starts 92,000 times in its YAML
//! files, each a stop of the search and a comparison after the reader was
//! found, and every key widens the SIMD search's buckets (more places
//! that look like a key and are not). So the search goes on with the keys
//! of the readers not yet found only: one packed search per set of found
//! readers, built once per scan ([`Owners::narrowed`]). 479 M instructions
//! of gateway's cold scan were this search (13%).

use super::DOC_EXTRACTORS;
use aho_corasick::packed::Searcher;
use std::sync::Arc;

/// How many bytes of each word its key takes.
const KEY_LEN: usize = 4;

pub(super) struct Owners {
    /// Where a word may start: each word's first [`KEY_LEN`] bytes (each
    /// key once), searched leftmost-first, so that a match is the first
    /// place at or after the search's start where some key starts.
    starts: Option<Searcher>,
    /// The words by their first byte, each with its reader (an index into
    /// [`DOC_EXTRACTORS`]).
    by_byte: Vec<Vec<(&'static [u8], usize)>>,
    /// Every word, overlapping matches reported (so that no word hides
    /// another that shares its bytes): where there is no packed search.
    words: aho_corasick::AhoCorasick,
    /// The reader of each of `words`.
    owner: Vec<usize>,
    /// Each word with its reader, to build a narrowed search from.
    pairs: Vec<(&'static [u8], usize)>,
    /// The packed search of the keys of the readers not yet found, by the
    /// set of readers found (a bit each), built when first needed
    /// (`None`: no packed search builds for them; the wider one is kept).
    narrowed: std::sync::Mutex<std::collections::HashMap<u64, Option<Arc<Searcher>>>>,
}

/// The most narrowed searches kept: past it the wider search goes on
/// (the same flags, more stops). The sets of readers found together are
/// few in practice (a file holds a few readers' words).
const MAX_NARROWED: usize = 512;

impl Owners {
    /// One flag per document extractor: whether `bytes` holds one of its
    /// words.
    pub(super) fn found_in(&self, bytes: &[u8]) -> Vec<bool> {
        match &self.starts {
            Some(starts) => self.found_by_keys(starts, bytes),
            None => self.found_overlapping(bytes),
        }
    }

    /// [`Owners::found_in`] by the keys: every place a key starts, the
    /// words that start with that place's byte compared there. Each time
    /// a reader is found, the search goes on from the next byte with the
    /// keys of the readers left ([`Owners::narrowed`]): every place one of
    /// their words starts is still visited.
    fn found_by_keys(&self, starts: &Searcher, bytes: &[u8]) -> Vec<bool> {
        let mut found = vec![false; DOC_EXTRACTORS.len()];
        let mut left = found.len();
        // Found readers as bits, for the narrowed searches (a reader past
        // the 64th is never narrowed away).
        let mut mask = 0u64;
        let mut narrowed: Option<Arc<Searcher>> = None;
        let mut at = 0;
        while at < bytes.len() {
            let search = narrowed.as_deref().unwrap_or(starts);
            let Some(m) = search.find_in(bytes, aho_corasick::Span::from(at..bytes.len())) else {
                break;
            };
            let p = m.start();
            let here = &bytes[p..];
            let before = left;
            for &(word, owner) in &self.by_byte[usize::from(here[0])] {
                if !found[owner] && here.starts_with(word) {
                    found[owner] = true;
                    left -= 1;
                    if left == 0 {
                        return found;
                    }
                    if owner < 64 {
                        mask |= 1 << owner;
                    }
                }
            }
            if left != before
                && let Some(s) = self.narrowed(mask)
            {
                narrowed = Some(s);
            }
            at = p + 1;
        }
        found
    }

    /// The packed search of the keys of the words whose readers are not
    /// in `found` (a bit per reader), or `None` when none builds or too
    /// many are kept (the caller keeps its wider search, which finds the
    /// same places and more).
    pub(super) fn narrowed(&self, found: u64) -> Option<Arc<Searcher>> {
        let mut kept = self.narrowed.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = kept.get(&found) {
            return s.clone();
        }
        if kept.len() >= MAX_NARROWED {
            return None;
        }
        let live = self
            .pairs
            .iter()
            .filter(|(_, i)| *i >= 64 || found & (1 << i) == 0)
            .map(|(w, _)| *w);
        let s = packed_keys(live).map(Arc::new);
        kept.insert(found, s.clone());
        s
    }

    /// [`Owners::found_in`] by the overlapping search of every word.
    fn found_overlapping(&self, bytes: &[u8]) -> Vec<bool> {
        let mut found = vec![false; DOC_EXTRACTORS.len()];
        let mut left = found.len();
        for m in self.words.find_overlapping_iter(bytes) {
            let f = &mut found[self.owner[m.pattern().as_usize()]];
            if !*f {
                *f = true;
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
        found
    }
}

pub(super) static DOC_OWNERS: std::sync::LazyLock<Owners> = std::sync::LazyLock::new(|| {
    let pairs: Vec<(&'static str, usize)> = DOC_EXTRACTORS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, needles, _))| needles.iter().map(move |n| (*n, i)))
        .collect();
    // An empty word is everywhere: only the overlapping search says so.
    let packed = !pairs.iter().any(|(n, _)| n.is_empty());
    let mut by_byte: Vec<Vec<(&'static [u8], usize)>> = vec![Vec::new(); 256];
    for &(n, i) in pairs.iter().filter(|(n, _)| !n.is_empty()) {
        by_byte[usize::from(n.as_bytes()[0])].push((n.as_bytes(), i));
    }
    Owners {
        starts: packed
            .then(|| packed_keys(pairs.iter().map(|(n, _)| n.as_bytes())))
            .flatten(),
        by_byte,
        // A DFA: the overlapping search walks every byte (7% of a cold scan
        // of envoyproxy/gateway with the default automaton).
        words: aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(pairs.iter().map(|(n, _)| n))
            .expect("a few short literal needles always build"),
        owner: pairs.iter().map(|(_, i)| *i).collect(),
        pairs: pairs.iter().map(|(n, i)| (n.as_bytes(), *i)).collect(),
        narrowed: Default::default(),
    }
});

/// The packed leftmost-first search of `words`' keys (each word's first
/// [`KEY_LEN`] bytes, each key once), or `None` where the CPU has none.
fn packed_keys<'w>(words: impl Iterator<Item = &'w [u8]>) -> Option<Searcher> {
    let mut keys: Vec<&[u8]> = words.map(|n| &n[..n.len().min(KEY_LEN)]).collect();
    keys.sort_unstable();
    keys.dedup();
    aho_corasick::packed::Config::new()
        .match_kind(aho_corasick::packed::MatchKind::LeftmostFirst)
        .builder()
        .extend(&keys)
        .build()
}

#[cfg(test)]
impl Owners {
    /// Both searches, for the tests that compare them.
    pub(super) fn both(&self, bytes: &[u8]) -> (Option<Vec<bool>>, Vec<bool>) {
        (
            self.starts.as_ref().map(|s| self.found_by_keys(s, bytes)),
            self.found_overlapping(bytes),
        )
    }
}
