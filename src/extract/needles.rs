//! A set of words a file is sniffed for, built once per set: most files a
//! walk finds are sniffed and rejected, so this runs over every byte of
//! every one of them, warm cache or not.
//!
//! The words are searched in groups of at most [`GROUP`] with SIMD
//! (aho-corasick's packed Teddy searcher, one pass per group), not with
//! one automaton over them all: above 64 words (the document readers'
//! set) aho-corasick builds no SIMD prefilter and walks its DFA byte by
//! byte, about 16 instructions a byte by callgrind, 205 M instructions of
//! qdrant's 1,357 M cold scan for its 12.8 MB of OpenAPI JSON that holds
//! none of the words (PERFORMANCE.md, stop 54). Where Teddy cannot be
//! built (no SSSE3 or AVX2, another architecture, an empty word) the one
//! automaton is searched as before; the answer is the same either way.

use aho_corasick::AhoCorasick;
use aho_corasick::packed;

/// Words per SIMD group: at most 32 keeps aho-corasick on its slim Teddy
/// (32 bytes a step; above 32 words it takes the fat one, 16 bytes a step),
/// and fewer words per bucket keep the verification of candidates cheap.
const GROUP: usize = 32;

/// Bytes searched by every group before the next window.
const WINDOW: usize = 4096;

/// Words searched for together ([`Needles::any_in`]).
pub struct Needles {
    search: Search,
    /// How far a window reaches past its end: the longest word less one
    /// byte, so that a word across a boundary is found.
    overlap: usize,
}

enum Search {
    Packed(Vec<packed::Searcher>),
    Automaton(AhoCorasick),
}

impl Needles {
    pub fn new<'a>(words: impl IntoIterator<Item = &'a str>) -> Needles {
        let mut words: Vec<&str> = words.into_iter().collect();
        words.sort_unstable();
        words.dedup();
        let longest = words.iter().map(|w| w.len()).max().unwrap_or(0);
        let search = match packed_groups(&words) {
            Some(groups) => Search::Packed(groups),
            None => Search::Automaton(
                AhoCorasick::builder()
                    .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                    .build(&words)
                    .expect("a few short literal needles always build"),
            ),
        };
        Needles {
            search,
            overlap: longest.saturating_sub(1),
        }
    }

    /// Whether `bytes` holds any of the words.
    pub fn any_in(&self, bytes: &[u8]) -> bool {
        match &self.search {
            // Window by window, every group in each: a file that holds a
            // word is told as early as by one automaton (at the first
            // window holding one), not after a whole pass of each group
            // before the one that holds it.
            Search::Packed(groups) => {
                let mut start = 0;
                loop {
                    let end = bytes.len().min(start + WINDOW);
                    let window = &bytes[start..bytes.len().min(end + self.overlap)];
                    if groups.iter().any(|g| g.find(window).is_some()) {
                        return true;
                    }
                    if end == bytes.len() {
                        return false;
                    }
                    start = end;
                }
            }
            Search::Automaton(ac) => ac.is_match(bytes),
        }
    }
}

/// Teddy searchers covering every word, or `None` when one cannot be built.
/// Words are grouped by length (a group's shortest word sets how many
/// bytes Teddy's masks can use), and a group Teddy refuses (too many
/// words for its shortest one) is split in two.
fn packed_groups(words: &[&str]) -> Option<Vec<packed::Searcher>> {
    if words.is_empty() {
        return None;
    }
    let mut by_len = words.to_vec();
    by_len.sort_by_key(|w| std::cmp::Reverse(w.len()));
    let mut out = Vec::new();
    let mut todo: Vec<&[&str]> = by_len.chunks(GROUP).rev().collect();
    while let Some(group) = todo.pop() {
        let built = packed::Config::new()
            .match_kind(packed::MatchKind::LeftmostFirst)
            .builder()
            .extend(group)
            .build();
        match built {
            Some(s) => out.push(s),
            None if group.len() > 1 => {
                let (a, b) = group.split_at(group.len() / 2);
                todo.push(b);
                todo.push(a);
            }
            None => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grouped search answers as one automaton over all the words does,
    /// for sets above and below Teddy's limits, short words among them,
    /// and haystacks shorter than a SIMD step.
    #[test]
    fn grouped_search_agrees_with_one_automaton() {
        let mut words: Vec<String> = (0..150).map(|i| format!("w{i:03}rd")).collect();
        words.extend(["x", "ab", "retry", "Retry", "://", "\"${"].map(String::from));
        let sets: Vec<Vec<&str>> = vec![
            words.iter().map(String::as_str).collect(),
            words[..20].iter().map(String::as_str).collect(),
            vec!["x", "ab"],
            vec!["retry"],
        ];
        let mut hays: Vec<String> = vec![String::new(), "a".into(), "x".into(), "retr".into()];
        for w in &words {
            hays.push(format!("{}{w}", " ".repeat(w.len() * 7 % 90)));
            hays.push(format!("{} {}", "y".repeat(200), &w[..w.len() - 1]));
        }
        hays.push("z".repeat(5000) + "retry");
        // A word across a window boundary, and one just inside the overlap.
        for at in [WINDOW - 3, WINDOW - 1, WINDOW, 2 * WINDOW - 2] {
            hays.push(format!("{}retry{}", "z".repeat(at), "z".repeat(50)));
            hays.push(format!("{}w149rd", "z".repeat(at)));
        }
        for set in &sets {
            let n = Needles::new(set.iter().copied());
            let ac = AhoCorasick::new(set).unwrap();
            for h in &hays {
                assert_eq!(n.any_in(h.as_bytes()), ac.is_match(h), "{h:?} in {set:?}");
            }
        }
    }

    #[test]
    fn an_empty_word_matches_every_text_as_before() {
        let n = Needles::new(["", "retry"]);
        assert!(n.any_in(b""));
        assert!(n.any_in(b"anything"));
    }
}
