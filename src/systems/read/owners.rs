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

use super::DOC_EXTRACTORS;

/// How many bytes of each word its key takes.
const KEY_LEN: usize = 4;

pub(super) struct Owners {
    /// Where a word may start: each word's first [`KEY_LEN`] bytes (each
    /// key once), searched leftmost-first, so that a match is the first
    /// place at or after the search's start where some key starts.
    starts: Option<aho_corasick::packed::Searcher>,
    /// The words by their first byte, each with its reader (an index into
    /// [`DOC_EXTRACTORS`]).
    by_byte: Vec<Vec<(&'static [u8], usize)>>,
    /// Every word, overlapping matches reported (so that no word hides
    /// another that shares its bytes): where there is no packed search.
    words: aho_corasick::AhoCorasick,
    /// The reader of each of `words`.
    owner: Vec<usize>,
}

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
    /// words that start with that place's byte compared there.
    fn found_by_keys(&self, starts: &aho_corasick::packed::Searcher, bytes: &[u8]) -> Vec<bool> {
        let mut found = vec![false; DOC_EXTRACTORS.len()];
        let mut left = found.len();
        let mut at = 0;
        while at < bytes.len() {
            let Some(m) = starts.find_in(bytes, aho_corasick::Span::from(at..bytes.len())) else {
                break;
            };
            let p = m.start();
            let here = &bytes[p..];
            for &(word, owner) in &self.by_byte[usize::from(here[0])] {
                if !found[owner] && here.starts_with(word) {
                    found[owner] = true;
                    left -= 1;
                    if left == 0 {
                        return found;
                    }
                }
            }
            at = p + 1;
        }
        found
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
    let mut keys: Vec<&[u8]> = pairs
        .iter()
        .map(|(n, _)| &n.as_bytes()[..n.len().min(KEY_LEN)])
        .collect();
    // An empty word is everywhere: only the overlapping search says so.
    let packed = !keys.iter().any(|k| k.is_empty());
    keys.sort_unstable();
    keys.dedup();
    let mut by_byte: Vec<Vec<(&'static [u8], usize)>> = vec![Vec::new(); 256];
    for &(n, i) in pairs.iter().filter(|(n, _)| !n.is_empty()) {
        by_byte[usize::from(n.as_bytes()[0])].push((n.as_bytes(), i));
    }
    Owners {
        starts: packed
            .then(|| {
                aho_corasick::packed::Config::new()
                    .match_kind(aho_corasick::packed::MatchKind::LeftmostFirst)
                    .builder()
                    .extend(&keys)
                    .build()
            })
            .flatten(),
        by_byte,
        // A DFA: the overlapping search walks every byte (7% of a cold scan
        // of envoyproxy/gateway with the default automaton).
        words: aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(pairs.iter().map(|(n, _)| n))
            .expect("a few short literal needles always build"),
        owner: pairs.iter().map(|(_, i)| *i).collect(),
    }
});

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
