//! Fixes: what a finding offers to change, as exact byte-range edits on the
//! original text of a file, and the pure functions that apply them.
//!
//! A [`Fix`] is a titled list of [`Edit`]s (file, byte span of the original
//! text, replacement), marked [`Applicability::Safe`] (the behaviour is what
//! the rule's doc says the user wants) or [`Applicability::Unsafe`] (it
//! changes what is retried or how often). `check --fix` applies safe fixes,
//! `--unsafe-fixes` both kinds; an editor offers both as code actions.
//!
//! Applying never touches a byte outside the edits: [`apply_edits`] rejects
//! overlapping edits and spans that are out of bounds or split a character;
//! [`apply_fixes`] takes whole fixes in order and skips a fix that overlaps
//! one already taken (it is offered again on the next round).

use crate::source::{FileId, Span};
use serde::{Deserialize, Serialize};

/// Whether a fix may be applied without asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// The result is what the rule's doc says the user wants (`--fix`).
    Safe,
    /// It changes what is retried or how often (`--unsafe-fixes`).
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// One replacement of a byte range of a file's original text (an insertion
/// when the span is empty, a deletion when the replacement is).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Edit {
    pub file: FileId,
    pub span: Span,
    pub replacement: String,
}

impl Edit {
    pub fn new(file: FileId, span: Span, replacement: impl Into<String>) -> Self {
        Edit {
            file,
            span,
            replacement: replacement.into(),
        }
    }

    /// An insertion of `text` at byte `at`.
    pub fn insert(file: FileId, at: usize, text: impl Into<String>) -> Self {
        Edit::new(file, Span::new(at, at), text)
    }

    /// A deletion of `span`.
    pub fn delete(file: FileId, span: Span) -> Self {
        Edit::new(file, span, String::new())
    }
}

/// The file of edits made before the file has an id (an extractor's
/// diagnostic); [`Fix::in_file`] gives them the file.
pub const THIS_FILE: FileId = FileId::MAX;

/// A change a finding offers: one or more edits applied together.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fix {
    /// What the fix does, in the system's own words (`set
    /// \`enableRandomizedWait: true\``): lowercase, no trailing period.
    pub title: String,
    pub applicability: Applicability,
    /// Never empty, never overlapping.
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn safe(title: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix {
            title: title.into(),
            applicability: Applicability::Safe,
            edits,
        }
    }

    pub fn unsafe_(title: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix {
            title: title.into(),
            applicability: Applicability::Unsafe,
            edits,
        }
    }

    pub fn is_safe(&self) -> bool {
        self.applicability == Applicability::Safe
    }

    /// This fix with every edit made in [`THIS_FILE`] moved to `file`.
    pub fn in_file(mut self, file: FileId) -> Self {
        for e in &mut self.edits {
            if e.file == THIS_FILE {
                e.file = file;
            }
        }
        self
    }

    /// The edits of this fix in `file`.
    pub fn edits_in(&self, file: FileId) -> impl Iterator<Item = &Edit> {
        self.edits.iter().filter(move |e| e.file == file)
    }
}

/// Why edits could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// Two edits touch the same bytes (or insert at the same place).
    Overlap(Span, Span),
    /// A span ends past the text or splits a character.
    OutOfBounds(Span),
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::Overlap(a, b) => write!(
                f,
                "edits overlap: {}..{} and {}..{}",
                a.start, a.end, b.start, b.end
            ),
            EditError::OutOfBounds(s) => {
                write!(f, "edit {}..{} is outside the text", s.start, s.end)
            }
        }
    }
}

impl std::error::Error for EditError {}

/// Whether two edits' spans conflict: they share a byte, or both insert at
/// the same place (whose order would be a guess). An insertion at either
/// end of a replaced range does not conflict.
fn conflicts(a: Span, b: Span) -> bool {
    let (a, b) = if (a.start, a.end) <= (b.start, b.end) {
        (a, b)
    } else {
        (b, a)
    };
    a.end > b.start || (a.is_empty() && b.is_empty() && a.start == b.start)
}

/// `text` with every edit made (the edits' `file` is not looked at: pass
/// one file's edits). Edits may come in any order; overlapping edits and
/// spans outside the text or inside a character are rejected.
pub fn apply_edits<'e>(
    text: &str,
    edits: impl IntoIterator<Item = &'e Edit>,
) -> Result<String, EditError> {
    let mut edits: Vec<&Edit> = edits.into_iter().collect();
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    for e in &edits {
        let s = e.span;
        if s.start > s.end
            || s.end > text.len()
            || !text.is_char_boundary(s.start)
            || !text.is_char_boundary(s.end)
        {
            return Err(EditError::OutOfBounds(s));
        }
    }
    for w in edits.windows(2) {
        if conflicts(w[0].span, w[1].span) {
            return Err(EditError::Overlap(w[0].span, w[1].span));
        }
    }
    let grow: usize = edits.iter().map(|e| e.replacement.len()).sum();
    let mut out = String::with_capacity(text.len() + grow);
    let mut at = 0;
    for e in edits {
        out.push_str(&text[at..e.span.start]);
        out.push_str(&e.replacement);
        at = e.span.end;
    }
    out.push_str(&text[at..]);
    Ok(out)
}

/// The outcome of [`apply_fixes`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub text: String,
    /// The indices (into the fixes given) of the fixes made.
    pub applied: Vec<usize>,
    /// Those skipped: they overlap a fix taken before them, or are invalid
    /// on this text.
    pub skipped: Vec<usize>,
}

/// `text` (the original text of `file`) with the fixes made, whole fixes
/// in the order given: a fix whose edits overlap those of a fix already
/// taken, overlap each other or fall outside the text is skipped as a
/// whole. Edits of a fix in other files are not looked at (a fix that
/// spans files is applied per file by the caller).
pub fn apply_fixes<'f>(
    text: &str,
    file: FileId,
    fixes: impl IntoIterator<Item = &'f Fix>,
) -> Applied {
    let mut taken: Vec<&Edit> = Vec::new();
    let mut applied = Vec::new();
    let mut skipped = Vec::new();
    for (i, fix) in fixes.into_iter().enumerate() {
        let mine: Vec<&Edit> = fix.edits_in(file).collect();
        let clash = mine
            .iter()
            .any(|e| taken.iter().any(|t| conflicts(t.span, e.span)));
        if mine.is_empty() || clash || apply_edits(text, mine.iter().copied()).is_err() {
            skipped.push(i);
            continue;
        }
        taken.extend(mine);
        applied.push(i);
    }
    let text = apply_edits(text, taken).expect("edits checked one by one and pairwise");
    Applied {
        text,
        applied,
        skipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(start: usize, end: usize, r: &str) -> Edit {
        Edit::new(0, Span::new(start, end), r)
    }

    #[test]
    fn applies_in_any_order() {
        let text = "a: 1\nb: 2\n";
        let edits = [e(8, 9, "20"), e(3, 4, "10")];
        assert_eq!(apply_edits(text, &edits).unwrap(), "a: 10\nb: 20\n");
    }

    #[test]
    fn inserts_and_deletes() {
        let text = "x = [a, b]";
        let edits = [e(5, 8, ""), e(10, 10, " # c")];
        assert_eq!(apply_edits(text, &edits).unwrap(), "x = [b] # c");
    }

    #[test]
    fn insertion_at_either_end_of_a_replacement_is_not_an_overlap() {
        let text = "abcdef";
        let edits = [e(2, 2, "<"), e(2, 4, "XY"), e(4, 4, ">")];
        assert_eq!(apply_edits(text, &edits).unwrap(), "ab<XY>ef");
    }

    #[test]
    fn rejects_overlaps() {
        let text = "abcdef";
        assert_eq!(
            apply_edits(text, &[e(1, 4, "x"), e(3, 5, "y")]),
            Err(EditError::Overlap(Span::new(1, 4), Span::new(3, 5)))
        );
        assert!(matches!(
            apply_edits(text, &[e(2, 2, "x"), e(2, 2, "y")]),
            Err(EditError::Overlap(..))
        ));
        assert!(matches!(
            apply_edits(text, &[e(0, 6, "x"), e(2, 3, "y")]),
            Err(EditError::Overlap(..))
        ));
    }

    #[test]
    fn rejects_spans_outside_the_text_or_inside_a_character() {
        assert_eq!(
            apply_edits("abc", &[e(2, 4, "x")]),
            Err(EditError::OutOfBounds(Span::new(2, 4)))
        );
        // `é` is two bytes: 1..2 splits it.
        assert!(matches!(
            apply_edits("xé", &[e(2, 2, "y")]),
            Err(EditError::OutOfBounds(_))
        ));
        assert_eq!(apply_edits("xé", &[e(3, 3, "y")]).unwrap(), "xéy");
    }

    #[test]
    fn keeps_crlf_outside_the_edits() {
        let text = "a: 1\r\nb: 2\r\n";
        assert_eq!(
            apply_edits(text, &[e(9, 10, "3")]).unwrap(),
            "a: 1\r\nb: 3\r\n"
        );
    }

    #[test]
    fn whole_fixes_are_skipped_on_conflict() {
        let text = "abcdef";
        let first = Fix::safe("first", vec![e(0, 1, "A"), e(4, 5, "E")]);
        let clash = Fix::safe("clash", vec![e(2, 3, "C"), e(4, 6, "x")]);
        let other = Fix::unsafe_("other", vec![e(2, 3, "C")]);
        let elsewhere = Fix::safe("elsewhere", vec![Edit::new(1, Span::new(0, 1), "z")]);
        let out = apply_fixes(text, 0, [&first, &clash, &other, &elsewhere]);
        assert_eq!(out.text, "AbCdEf");
        assert_eq!(out.applied, vec![0, 2]);
        assert_eq!(out.skipped, vec![1, 3]);
    }

    #[test]
    fn a_fix_with_overlapping_edits_of_its_own_is_skipped() {
        let bad = Fix::safe("bad", vec![e(0, 2, "x"), e(1, 3, "y")]);
        let out = apply_fixes("abc", 0, [&bad]);
        assert_eq!(out.text, "abc");
        assert_eq!(out.skipped, vec![0]);
    }

    #[test]
    fn in_file_moves_only_this_file_edits() {
        let fix = Fix::safe(
            "t",
            vec![Edit::insert(THIS_FILE, 0, "a"), Edit::insert(3, 0, "b")],
        )
        .in_file(7);
        assert_eq!(fix.edits[0].file, 7);
        assert_eq!(fix.edits[1].file, 3);
    }

    mod prop {
        use super::super::*;
        use proptest::prelude::*;

        /// Non-overlapping edits over a text of `len` ASCII bytes.
        fn edits(len: usize) -> impl Strategy<Value = Vec<Edit>> {
            proptest::collection::vec((0..=len, 0..=len, "[a-z\n]{0,4}"), 0..6).prop_map(
                move |raw| {
                    let mut out: Vec<Edit> = Vec::new();
                    for (a, b, r) in raw {
                        let span = Span::new(a.min(b), a.max(b));
                        if out.iter().all(|e| !conflicts(e.span, span)) {
                            out.push(Edit::new(0, span, r));
                        }
                    }
                    out
                },
            )
        }

        proptest! {
            #[test]
            fn bytes_outside_the_edits_are_kept(
                (text, edits) in "[ -~\n]{0,40}".prop_flat_map(|t| {
                    let n = t.len();
                    (Just(t), edits(n))
                })
            ) {
                let out = apply_edits(&text, &edits).unwrap();
                // Walk the text and the output together: every byte outside
                // an edit is copied in order, each edit's bytes are its
                // replacement.
                let mut sorted = edits.clone();
                sorted.sort_by_key(|e| (e.span.start, e.span.end));
                let mut at = 0;
                let mut o = 0;
                for e in &sorted {
                    let keep = &text[at..e.span.start];
                    prop_assert_eq!(&out[o..o + keep.len()], keep);
                    o += keep.len();
                    prop_assert_eq!(&out[o..o + e.replacement.len()], e.replacement.as_str());
                    o += e.replacement.len();
                    at = e.span.end;
                }
                prop_assert_eq!(&out[o..], &text[at..]);
            }
        }
    }
}
