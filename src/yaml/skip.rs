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
    if nulls.is_empty() {
        return parse(text);
    }
    let mut b = Builder::new(text);
    let mut at = 0;
    let mut clean = true;
    for r in nulls {
        let (start, end) = (r.start.min(text.len()), r.end.min(text.len()));
        if at < start {
            clean &= b.stream(&text[at..start], at);
        }
        // The blanked document up to its `~` (its `---` line has none:
        // it is bare); what follows it is blanks.
        let upto =
            memchr::memchr(b'~', &text.as_bytes()[start..end]).map_or(end, |i| start + i + 1);
        clean &= b.stream(&text[start..upto], start);
        at = end.max(at);
        if !clean {
            return parse(text);
        }
    }
    if at < text.len() {
        clean &= b.stream(&text[at..], at);
    }
    if !clean {
        return parse(text);
    }
    b.file
}
