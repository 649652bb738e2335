//! Entries taken out of a written list: a comma-separated string or flow
//! sequence (`5xx,retriable-4xx,404`, `[404, 503]`, `["NOT_FOUND", 3]`),
//! a blank-separated word list (nginx's `proxy_next_upstream error
//! http_404;`), or a YAML block sequence (`- java.lang.Foo` lines).
//!
//! The rest of the list keeps its separators, quotes and line endings; a
//! list that would be left empty is not edited (an empty list means
//! something else to most systems: nothing, or the default).

use crate::fix::Edit;
use crate::source::{FileId, Span};

/// How one entry's neighbours are separated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sep {
    Comma,
    Blank,
    /// A YAML block sequence entry (`- x` alone on its line).
    Line,
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// `span` widened over quotes around it (`"NOT_FOUND"`) when the same
/// quote closes it.
fn unquoted(text: &str, span: Span) -> Span {
    let b = text.as_bytes();
    match (span.start.checked_sub(1).map(|i| b[i]), b.get(span.end)) {
        (Some(q @ (b'"' | b'\'')), Some(c)) if *c == q => Span::new(span.start - 1, span.end + 1),
        _ => span,
    }
}

/// The first non-blank byte at or after `at`, and where it is.
fn next_solid(text: &str, at: usize) -> Option<(usize, u8)> {
    let b = text.as_bytes();
    (at..b.len()).find(|&i| !is_blank(b[i])).map(|i| (i, b[i]))
}

/// The last non-blank byte before `at`, and where it is.
fn prev_solid(text: &str, at: usize) -> Option<(usize, u8)> {
    let b = text.as_bytes();
    (0..at).rev().find(|&i| !is_blank(b[i])).map(|i| (i, b[i]))
}

fn word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'$')
}

/// The separator an entry at `s` (unquoted) is written with.
fn sep_of(text: &str, s: Span) -> Option<Sep> {
    let b = text.as_bytes();
    let after = next_solid(text, s.end).map(|(_, c)| c);
    let before = prev_solid(text, s.start).map(|(_, c)| c);
    if after == Some(b',') || before == Some(b',') {
        return Some(Sep::Comma);
    }
    // `<indent>- entry` with nothing after it but a comment.
    let line_start = text[..s.start].rfind('\n').map_or(0, |i| i + 1);
    let lead = &text[line_start..s.start];
    let rest_end = text[s.end..].find('\n').map_or(text.len(), |i| s.end + i);
    let rest = text[s.end..rest_end].trim_end_matches('\r').trim();
    if lead.trim_start_matches(' ') == "- " && (rest.is_empty() || rest.starts_with('#')) {
        return Some(Sep::Line);
    }
    // Words with blanks between: one blank before or after that is
    // followed by another word on the same line.
    let blank_before = s.start > 0 && is_blank(b[s.start - 1]);
    let blank_after = b.get(s.end).is_some_and(|c| is_blank(*c));
    let word_after = blank_after && after.is_some_and(word_byte);
    let word_before = blank_before && before.is_some_and(word_byte);
    (word_after || word_before).then_some(Sep::Blank)
}

/// Where the entry after the one ending at `end` starts, when a separator
/// of `sep` follows it on the line.
fn next_entry(text: &str, end: usize, sep: Sep) -> Option<usize> {
    match sep {
        Sep::Comma => {
            let (i, c) = next_solid(text, end)?;
            (c == b',').then(|| next_solid(text, i + 1).map_or(i + 1, |(j, _)| j))
        }
        Sep::Blank => {
            let (i, c) = next_solid(text, end)?;
            (i > end && word_byte(c)).then_some(i)
        }
        Sep::Line => None,
    }
}

/// The entries at `spans` taken out of the list(s) they are written in,
/// `None` when any of them is not an entry of a list this understands, or
/// when a list would be left empty. Spans may be given in any order and
/// more than once.
pub fn drop_entries(file: FileId, text: &str, spans: &[Span]) -> Option<Vec<Edit>> {
    let mut spans: Vec<Span> = spans
        .iter()
        .filter(|s| s.end <= text.len() && s.start < s.end)
        .map(|s| unquoted(text, *s))
        .collect();
    if spans.is_empty() {
        return None;
    }
    spans.sort_by_key(|s| (s.start, s.end));
    spans.dedup();
    let seps: Vec<Sep> = spans
        .iter()
        .map(|s| sep_of(text, *s))
        .collect::<Option<_>>()?;
    let mut edits = Vec::new();
    let mut lines = Vec::new();
    // Whether every entry after span `i` in its list is dropped too
    // (right to left: the last entry of a list has no next one).
    let mut tail = vec![false; spans.len()];
    for i in (0..spans.len()).rev() {
        tail[i] = match next_entry(text, spans[i].end, seps[i]) {
            None => true,
            Some(n) => spans
                .get(i + 1)
                .is_some_and(|s| s.start == n && tail[i + 1] && seps[i + 1] == seps[i]),
        };
    }
    for (i, s) in spans.iter().enumerate() {
        match seps[i] {
            Sep::Line => lines.push(*s),
            sep if tail[i] => {
                // The last one(s) of the list: each takes the separator
                // before it; the first entry of a list has none, and
                // dropping it with all after it would leave nothing.
                if starts_list(text, *s, sep) {
                    return None;
                }
                let (p, c) = prev_solid(text, s.start)?;
                let from = match sep {
                    Sep::Comma if c == b',' => p,
                    Sep::Blank if word_byte(c) => p + 1,
                    _ => return None,
                };
                edits.push(Edit::delete(file, Span::new(from, s.end)));
            }
            sep => {
                let next = next_entry(text, s.end, sep)?;
                edits.push(Edit::delete(file, Span::new(s.start, next)));
            }
        }
    }
    for l in &lines {
        edits.push(drop_line(file, text, *l, &spans)?);
    }
    Some(edits)
}

/// Whether the entry at `s` is the first of its list: no separator of
/// `sep` before it.
fn starts_list(text: &str, s: Span, sep: Sep) -> bool {
    match prev_solid(text, s.start) {
        Some((_, b',')) => false,
        Some((p, c)) if sep == Sep::Blank && word_byte(c) => {
            // The word before is the directive's name when it starts its
            // line (or follows `;`/`{`).
            let start = text[..=p]
                .rfind(|c: char| c.is_whitespace() || c == ';' || c == '{')
                .map_or(0, |i| i + 1);
            let before = prev_solid(text, start).map(|(_, c)| c);
            start == 0 || matches!(before, None | Some(b'\n' | b'\r' | b';' | b'{' | b'}'))
        }
        _ => true,
    }
}

/// A YAML block sequence entry's line deleted, its line break with it;
/// `None` when no entry of the sequence would be left.
fn drop_line(file: FileId, text: &str, s: Span, dropped: &[Span]) -> Option<Edit> {
    let start = text[..s.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[s.end..]
        .find('\n')
        .map_or(text.len(), |i| s.end + i + 1);
    let col = text[start..s.start].find('-')?;
    // The sequence's other entries: lines at the same column starting
    // `- `, up and down, through blank, comment and deeper lines.
    let entry_at = |ls: usize| -> Option<bool> {
        let le = text[ls..].find('\n').map_or(text.len(), |i| ls + i);
        let line = text[ls..le].trim_end_matches('\r');
        let body = line.trim_start_matches(' ');
        let ind = line.len() - body.len();
        if body.is_empty() || body.starts_with('#') || ind > col {
            return Some(false);
        }
        (ind == col && body.starts_with("- ")).then_some(true)
    };
    let kept_entry = |ls: usize| {
        let le = text[ls..].find('\n').map_or(text.len(), |i| ls + i);
        !dropped.iter().any(|d| d.start >= ls && d.end <= le)
    };
    let mut kept = false;
    // Down.
    let mut ls = end;
    while ls < text.len() && !kept {
        match entry_at(ls) {
            Some(true) => kept = kept_entry(ls),
            Some(false) => {}
            None => break,
        }
        ls = text[ls..].find('\n').map_or(text.len(), |i| ls + i + 1);
    }
    // Up.
    let mut le = start;
    while le > 0 && !kept {
        let ls = text[..le - 1].rfind('\n').map_or(0, |i| i + 1);
        match entry_at(ls) {
            Some(true) => kept = kept_entry(ls),
            Some(false) => {}
            None => break,
        }
        le = ls;
    }
    kept.then(|| Edit::delete(file, Span::new(start, end)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::apply_edits;

    /// `text` with the entries `words` (each at its last occurrence)
    /// taken out.
    fn drop(text: &str, words: &[&str]) -> Option<String> {
        let spans: Vec<Span> = words
            .iter()
            .map(|w| {
                let at = text.rfind(w).expect("word in text");
                Span::new(at, at + w.len())
            })
            .collect();
        let edits = drop_entries(0, text, &spans)?;
        Some(apply_edits(text, &edits).unwrap())
    }

    #[test]
    fn comma_lists_keep_their_separators() {
        let t = "retryOn: 5xx,retriable-4xx,404\n";
        assert_eq!(drop(t, &["404"]).unwrap(), "retryOn: 5xx,retriable-4xx\n");
        assert_eq!(
            drop(t, &["retriable-4xx", "404"]).unwrap(),
            "retryOn: 5xx\n"
        );
        assert_eq!(
            drop("r: 404,409,5xx\n", &["409", "404"]).unwrap(),
            "r: 5xx\n"
        );
        assert_eq!(drop("c: [404, 503]\n", &["404"]).unwrap(), "c: [503]\n");
        assert_eq!(drop("c: [404, 503]\r\n", &["503"]).unwrap(), "c: [404]\r\n");
        // Quoted entries go with their quotes.
        assert_eq!(
            drop(
                "\"codes\": [\"UNAVAILABLE\", \"NOT_FOUND\", 3]",
                &["NOT_FOUND", "3"]
            )
            .unwrap(),
            "\"codes\": [\"UNAVAILABLE\"]"
        );
    }

    #[test]
    fn a_list_left_empty_is_not_edited() {
        assert_eq!(drop("c: [404]\n", &["404"]), None);
        assert_eq!(drop("c: [404, 409]\n", &["404", "409"]), None);
        assert_eq!(drop("retryOn: 404,409\n", &["409", "404"]), None);
        assert_eq!(drop("a: \"http_404\"\n", &["http_404"]), None);
        assert_eq!(
            drop("    proxy_next_upstream http_404;\n", &["http_404"]),
            None
        );
        assert_eq!(
            drop(
                "  - java.lang.IllegalArgumentException\n",
                &["java.lang.IllegalArgumentException"]
            ),
            None
        );
    }

    #[test]
    fn blank_separated_words() {
        assert_eq!(
            drop(
                "    proxy_next_upstream error timeout http_404 http_403;\n",
                &["http_404", "http_403"]
            )
            .unwrap(),
            "    proxy_next_upstream error timeout;\n"
        );
        assert_eq!(
            drop("    proxy_next_upstream http_404 error;\n", &["http_404"]).unwrap(),
            "    proxy_next_upstream error;\n"
        );
        assert_eq!(
            drop("a: \"error timeout http_404\"\n", &["http_404"]).unwrap(),
            "a: \"error timeout\"\n"
        );
    }

    #[test]
    fn block_sequence_lines() {
        let t = "e:\r\n  - java.io.IOException\r\n  # client\r\n  - java.lang.IllegalArgumentException\r\nx: 1\r\n";
        assert_eq!(
            drop(t, &["java.lang.IllegalArgumentException"]).unwrap(),
            "e:\r\n  - java.io.IOException\r\n  # client\r\nx: 1\r\n"
        );
        let t = "e:\n  - a.NotFound\n  - b.BadRequest\n  - java.io.IOException";
        assert_eq!(
            drop(t, &["a.NotFound", "b.BadRequest"]).unwrap(),
            "e:\n  - java.io.IOException"
        );
        // Every entry: none left.
        assert_eq!(
            drop(
                "e:\n  - a.NotFound\n  - b.BadRequest\n",
                &["a.NotFound", "b.BadRequest"]
            ),
            None
        );
    }

    #[test]
    fn not_a_list_entry() {
        // A test in code.
        assert_eq!(drop("if (code == 404) {}", &["404"]), None);
    }
}
