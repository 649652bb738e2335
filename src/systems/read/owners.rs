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
//!
//! A word's key need not be its first bytes: it is the word's window of
//! [`KEY_LEN`] bytes that a configuration text is least likely to hold
//! ([`commonness`]), and a place where it starts is compared with the
//! word from as many bytes before as the key is into the word. Every
//! occurrence of a word holds its key at that offset, so every one is
//! still visited. First bytes were the commonest windows of the words:
//! `kind` (the workload reader's `kind: Deployment` ...), `rout`
//! (`route_config`), `defa`, `data`, `stat`, `netw`, `serv`: the search
//! stopped at 213,000 places of envoyproxy/gateway's YAML and JSON where
//! a rarer window of each word stops at 87,000.

use super::DOC_EXTRACTORS;
use aho_corasick::packed::Searcher;
use std::sync::Arc;

/// How many bytes of each word its key takes.
const KEY_LEN: usize = 4;

pub(super) struct Owners {
    /// Where a word's key may start: each word's key ([`choose_keys`],
    /// each key once), searched leftmost-first, so that a match is the
    /// first place at or after the search's start where some key starts.
    starts: Option<Searcher>,
    /// The words by their key's first byte.
    by_byte: Vec<Vec<Keyed>>,
    /// Every word, overlapping matches reported (so that no word hides
    /// another that shares its bytes): where there is no packed search.
    words: aho_corasick::AhoCorasick,
    /// The reader of each of `words`.
    owner: Vec<usize>,
    /// Each word's key with its reader, to build a narrowed search from.
    pairs: Vec<(&'static [u8], usize)>,
    /// The packed search of the keys of the readers not yet found, by the
    /// set of readers found (a bit each), built when first needed
    /// (`None`: no packed search builds for them; the wider one is kept).
    narrowed: std::sync::Mutex<std::collections::HashMap<u64, Option<Arc<Searcher>>>>,
}

/// A word with its key: the key's bytes (at most [`KEY_LEN`], read as
/// one number: `head & mask == key`), how far into the word the key is,
/// and the word's reader (an index into [`DOC_EXTRACTORS`]).
#[derive(Clone, Copy)]
struct Keyed {
    key: u32,
    mask: u32,
    len: usize,
    word: &'static [u8],
    off: usize,
    owner: usize,
}

impl Keyed {
    /// Whether the word is in `bytes` with its key at `p` (`head`: the
    /// [`KEY_LEN`] bytes from `p`, [`head_at`]).
    fn at(&self, bytes: &[u8], p: usize, head: u32) -> bool {
        head & self.mask == self.key
            && bytes.len() - p >= self.len
            && p >= self.off
            && bytes[p - self.off..].starts_with(self.word)
    }
}

/// The [`KEY_LEN`] bytes from `p` as one number (zeros past the end).
fn head_at(bytes: &[u8], p: usize) -> u32 {
    let mut b = [0u8; KEY_LEN];
    let end = bytes.len().min(p + KEY_LEN);
    b[..end - p].copy_from_slice(&bytes[p..end]);
    u32::from_le_bytes(b)
}

/// How common a byte is taken to be in a configuration text, to choose
/// each word's key (lower: rarer): blanks and line ends most, then the
/// commonest lowercase letters, other lowercase letters, the
/// punctuation of YAML, JSON and dotted or hyphenated names (`:`, `-`,
/// `.`, `/`, `_`, `"`), capitals, and digits and other bytes least. A
/// rough order of the bytes of any configuration text, not of one tree.
fn commonness(b: u8) -> u32 {
    match b {
        b' ' | b'\t' | b'\n' | b'\r' => 8,
        b'e' | b't' | b'a' | b'o' | b'i' | b'n' | b's' | b'r' | b'h' | b'l' => 5,
        b'a'..=b'z' => 4,
        b':' | b'-' | b'.' | b'/' | b'_' | b'"' => 3,
        b'A'..=b'Z' => 2,
        _ => 1,
    }
}

/// How much commoner than a word's rarest window a window that is
/// already another word's key may be and still be taken (one key for
/// both: Teddy takes at most 64 keys, and fewer keep its buckets apart).
const SHARE_SLACK: u32 = 4;

/// Each word's key offset: its [`KEY_LEN`]-byte window of the lowest
/// [`commonness`] (the first of equals), or a window already chosen as
/// another word's key when it is at most [`SHARE_SLACK`] commoner; a word
/// of at most [`KEY_LEN`] bytes is its own key. Shorter words choose
/// first, having fewer windows.
fn choose_keys(words: &[&'static [u8]]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..words.len()).collect();
    order.sort_by_key(|&i| (words[i].len(), i));
    let mut chosen: Vec<&[u8]> = Vec::new();
    let mut offs = vec![0; words.len()];
    for i in order {
        let w = words[i];
        if w.len() > KEY_LEN {
            let score =
                |o: usize| -> u32 { w[o..o + KEY_LEN].iter().map(|&b| commonness(b)).sum() };
            let windows = 0..=w.len() - KEY_LEN;
            let best = windows.clone().min_by_key(|&o| (score(o), o)).unwrap_or(0);
            offs[i] = windows
                .filter(|&o| {
                    score(o) <= score(best) + SHARE_SLACK && chosen.contains(&&w[o..o + KEY_LEN])
                })
                .min_by_key(|&o| (score(o), o))
                .unwrap_or(best);
        }
        let key = &w[offs[i]..w.len().min(offs[i] + KEY_LEN)];
        if !chosen.contains(&key) {
            chosen.push(key);
        }
    }
    offs
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
            let head = head_at(bytes, p);
            let before = left;
            for k in &self.by_byte[usize::from(bytes[p])] {
                let owner = k.owner;
                if !found[owner] && k.at(bytes, p, head) {
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
    let words: Vec<&'static [u8]> = pairs.iter().map(|(n, _)| n.as_bytes()).collect();
    let key_of = |offs: &[usize], i: usize| {
        let w = words[i];
        &w[offs[i].min(w.len())..w.len().min(offs[i] + KEY_LEN)]
    };
    // The rarer keys, or where Teddy takes no search of them (too many),
    // the words' first bytes.
    let (offs, starts) = {
        let rare = choose_keys(&words);
        let prefix = vec![0; words.len()];
        match packed
            .then(|| packed_keys((0..words.len()).map(|i| key_of(&rare, i))))
            .flatten()
        {
            Some(s) => (rare, Some(s)),
            None => {
                let s = packed
                    .then(|| packed_keys((0..words.len()).map(|i| key_of(&prefix, i))))
                    .flatten();
                (prefix, s)
            }
        }
    };
    let mut by_byte: Vec<Vec<Keyed>> = vec![Vec::new(); 256];
    for (i, &(_, owner)) in pairs
        .iter()
        .enumerate()
        .filter(|(i, _)| !words[*i].is_empty())
    {
        let key = key_of(&offs, i);
        let mut k = [0u8; KEY_LEN];
        k[..key.len()].copy_from_slice(key);
        let mut mask = [0u8; KEY_LEN];
        mask[..key.len()].fill(0xff);
        by_byte[usize::from(key[0])].push(Keyed {
            key: u32::from_le_bytes(k),
            mask: u32::from_le_bytes(mask),
            len: key.len(),
            word: words[i],
            off: offs[i],
            owner,
        });
    }
    Owners {
        starts,
        by_byte,
        // A DFA: the overlapping search walks every byte (7% of a cold scan
        // of envoyproxy/gateway with the default automaton).
        words: aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(pairs.iter().map(|(n, _)| n))
            .expect("a few short literal needles always build"),
        owner: pairs.iter().map(|(_, i)| *i).collect(),
        pairs: pairs
            .iter()
            .enumerate()
            .map(|(j, (_, i))| (key_of(&offs, j), *i))
            .collect(),
        narrowed: Default::default(),
    }
});

/// The packed leftmost-first search of `keys` (each once), or `None`
/// where the CPU has none (or Teddy takes no search of that many).
fn packed_keys<'w>(keys: impl Iterator<Item = &'w [u8]>) -> Option<Searcher> {
    let mut keys: Vec<&[u8]> = keys.collect();
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
    /// How far into `word` its key is, as the search by keys has it.
    pub(super) fn key_offset(&self, word: &str) -> Option<usize> {
        self.by_byte
            .iter()
            .flatten()
            .find(|k| k.word == word.as_bytes())
            .map(|k| k.off)
    }

    /// Both searches, for the tests that compare them.
    pub(super) fn both(&self, bytes: &[u8]) -> (Option<Vec<bool>>, Vec<bool>) {
        (
            self.starts.as_ref().map(|s| self.found_by_keys(s, bytes)),
            self.found_overlapping(bytes),
        )
    }
}

#[cfg(test)]
mod key_tests {
    use super::{KEY_LEN, choose_keys, commonness};

    /// A word's key is its rarest window, a short word is its own key, and
    /// a window another word already keys on is taken when it is nearly
    /// as rare.
    #[test]
    fn keys_are_rare_windows_shared_when_nearly_as_rare() {
        let words: Vec<&'static [u8]> = vec![b"etry", b"kind: Deployment", b"ab", b"kind: Depot"];
        let offs = choose_keys(&words);
        assert_eq!(offs[0], 0);
        assert_eq!(offs[2], 0);
        let key = |i: usize| &words[i][offs[i]..offs[i] + KEY_LEN];
        // Past `kind: `, where the words differ.
        assert_eq!(key(1), b"Depl");
        assert_eq!(key(3), b"Depo");
        let score = |k: &[u8]| k.iter().map(|&b| commonness(b)).sum::<u32>();
        for (i, w) in words.iter().enumerate().filter(|(_, w)| w.len() > KEY_LEN) {
            let best = w.windows(KEY_LEN).map(score).min().unwrap_or(0);
            assert!(score(key(i)) <= best + super::SHARE_SLACK, "{i}");
        }
        // Two words whose rarest windows include a shared one share it as
        // their key; words with no window in common do not.
        let words: Vec<&'static [u8]> = vec![b"kind: Job", b"kind: Pod", b"failFast"];
        let offs = choose_keys(&words);
        let key = |i: usize| &words[i][offs[i]..offs[i] + KEY_LEN];
        assert_eq!((key(0), key(1)), (&b"ind:"[..], &b"ind:"[..]));
        assert_eq!(key(2), b"ailF");
        // `abcQzzzZ`'s rarest window is `bcQz`, but `abcQ` (a shorter
        // word's key, one step commoner) is taken: one key for both.
        let words: Vec<&'static [u8]> = vec![b"abcQzzzZ", b"abcQ"];
        assert_eq!(choose_keys(&words), vec![0, 0]);
        assert_eq!(choose_keys(&words[..1]), vec![1]);
    }
}
