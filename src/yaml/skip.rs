//! A stream with blanked documents, parsed without walking their blanks.
//!
//! A document no reader reads is blanked before the parse
//! (`systems::read::unread_docs`): `~` where its first character was,
//! blanks and line breaks after it, every byte offset kept. The parser
//! still walked every blank of it, one character at a time (a `~` is a
//! plain scalar that may go on over the following lines): megabytes of
//! definitions in kubeflow/manifests' and envoyproxy/gateway's streams,
//! the largest share of their parse. [`parse_skipping`] gives what
//! [`parse`](super::parse) gives for the same text, reading each blanked
//! document only up to its `~` and every other run of documents as a
//! stream of its own, its offsets moved back into the text.
//!
//! A document ends at the next `---` line as it ends at the end of its
//! own stream (a scalar, a block scalar and a collection end at either;
//! a document's span ends at its last token), and each document starts
//! at its own `---` line (or the stream's start) in both, so the nodes,
//! documents and spans are the same; when any part has an error (whose
//! message could name the next `---` line instead of the end of the
//! stream) the whole text is parsed as before. Tests compare the two on
//! every YAML file of the fixtures and the corpus (`skipping_parses_as_before`)
//! and of a real checkout (`blanking_real`).

use super::{Builder, YamlFile, parse};
use std::ops::Range;

/// [`parse`] of `text`, whose documents at `nulls` (sorted, disjoint;
/// each a whole document: from its `---` line, or the stream's start, to
/// the next `---` line or the end) are blanked: a `~` and nothing but
/// blanks and line breaks besides the opening `---` line.
pub fn parse_skipping(text: &str, nulls: &[Range<usize>]) -> YamlFile {
    parse_parts(text, nulls, &[], false).unwrap_or_else(|| parse(text))
}

/// [`parse_skipping`] of a stream whose errors are only counted (a
/// templated text's: `report_templates` says how many documents did not
/// parse, never where or why). A document that fails here fails in the
/// whole parse too, and the parser then goes on from the next `---` line
/// at column 0 (granit-parser's `Scanner::proceed_next_document` seeks
/// the next document marker at column 0), which is where the next part
/// starts: so the parts give the same documents, nodes and spans and as
/// many errors, in the same documents, as the whole parse, and a failed
/// part is kept instead of parsing the whole text again (errors' spans
/// and messages may differ; they are not used). Each of `kept` (a
/// document's range from its `---` line, with the text it fails as: its
/// `---` line and the lines `closed_defs` keeps, without the blanks
/// between) is parsed from that text; one that does not fail there is
/// parsed as written, the whole text again.
pub fn parse_counting(
    text: &str,
    nulls: &[Range<usize>],
    kept: &[(Range<usize>, String)],
) -> YamlFile {
    parse_parts(text, nulls, kept, true).unwrap_or_else(|| parse(text))
}

/// The parts of `text` parsed one by one (see [`parse_skipping`] and
/// [`parse_counting`], `counting`): `None` when the whole text must be
/// parsed (a part failed and its errors are not only counted, or a kept
/// document parsed).
fn parse_parts(
    text: &str,
    nulls: &[Range<usize>],
    kept: &[(Range<usize>, String)],
    counting: bool,
) -> Option<YamlFile> {
    if nulls.is_empty() && kept.is_empty() {
        return Some(parse(text));
    }
    let mut parts: Vec<(Range<usize>, Option<&str>)> = nulls
        .iter()
        .map(|r| (r.clone(), None))
        .chain(kept.iter().map(|(r, t)| (r.clone(), Some(t.as_str()))))
        .collect();
    parts.sort_by_key(|(r, _)| r.start);
    let mut b = Builder::new(text);
    let mut at = 0;
    let mut clean = true;
    for (r, failing) in &parts {
        let (start, end) = (r.start.min(text.len()), r.end.min(text.len()));
        if at < start {
            clean &= b.stream(&text[at..start], at);
        }
        match failing {
            // Fails by construction: one that parses is not what was
            // promised, so the whole text is parsed.
            Some(t) => {
                if b.stream(t, start) {
                    return None;
                }
            }
            None => {
                // The blanked document up to its `~` (its `---` line has
                // none: it is bare); what follows it is blanks.
                let upto = memchr::memchr(b'~', &text.as_bytes()[start..end])
                    .map_or(end, |i| start + i + 1);
                clean &= b.stream(&text[start..upto], start);
            }
        }
        at = end.max(at);
        if !clean && !counting {
            return None;
        }
    }
    if at < text.len() {
        clean &= b.stream(&text[at..], at);
    }
    if !clean && !counting {
        return None;
    }
    Some(b.file)
}
