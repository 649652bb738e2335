//! Function bodies no Rust reader needs, blanked before `syn` parses the
//! file: in a file with one retry among forty functions (and a test module
//! as long as the rest), most of the parse was for the others.
//!
//! A small lexer (nested block comments, strings, raw strings, byte and C
//! strings, character literals against lifetimes, raw identifiers) matches
//! braces and finds every `fn` item with a body outside other function
//! bodies and macro invocations. A body is blanked (each character but
//! newlines becomes a space, so lines and character columns, hence every
//! span, stay where they were) when nothing in it can matter:
//!
//! - the function is test-only (`#[test]`, `#[x::test]`, `#[cfg(test)]` as
//!   [`super::eval::is_test_only`] reads them), or sits in a
//!   `#[cfg(test)] mod`: the evaluator never walks it; or
//! - its text (attributes, signature and body) holds none of the words any
//!   reader looks for ([`CODE_WORDS`], [`TEXT_WORDS`]: the builder,
//!   delay, loop and URL words; `retr` not as the start of `retrieve`,
//!   `://` not in a comment), invokes no macro whose call the loop
//!   reader keeps for a retry macro of another file (outside the standard
//!   and logging ones: one named for a retry, or given a number among two
//!   arguments or more), and is not in an `impl` or `mod` whose header
//!   holds one; and
//! - no kept body names it (the evaluator follows calls of the file's own
//!   functions, `Type::f` and `self.f` alike), and it names no field a kept
//!   body reads as `self.field` (struct literals give fields their value),
//!   nor a name of a `Policy` impl's header (tower policies are found by
//!   their constructor calls). Both are taken to a fixed point.
//!
//! A function blanked so keeps little of its head either
//! ([`scan::head_blanks`]): syn still parsed every blanked function's
//! signature (a sixth of its work on qdrant), yet the readers take only
//! its name, span and body span from it. Its first token (`pub` written
//! over an attribute's `#[x`), `fn`, the name and the brackets stay in
//! their columns; the return type, generics, parameters and attributes
//! go, unless an attribute may make it test-only.
//!
//! Any doubt (an unbalanced brace, an unterminated string or comment, a
//! fixed point that takes too long) blanks nothing. A test checks that the
//! facts of every Rust fixture and corpus file are the same either way.

use super::loops::STD_MACROS;
use std::collections::HashSet;

/// Words (ASCII case-insensitive) in a body's code (comments and string
/// literals left out) that keep it: the names of every retry site and
/// builder the evaluator reads (`retry`, `Retry::spawn`, `RetryConfig`,
/// `RetryTransientMiddleware`, the backon, backoff, tokio-retry and tower
/// constructors, `aws_config::*`).
pub const CODE_WORDS: &[&str] = &[
    "retr",
    "backoff",
    "backon",
    "jitter",
    "exponentialbuilder",
    "constantbuilder",
    "fibonaccibuilder",
    "fixedinterval",
    "aws_config",
];

/// Words in a body's raw text (comments and strings included, as the
/// readers see them) that keep it: URL literals, and what makes a loop a
/// retry loop (`loops::classify`: a sleep or delay, or `continue` with
/// `.await` and a retry word).
pub const TEXT_WORDS: &[&str] = &["://", "sleep", "delay"];
const LOOP_AGAIN: &[&str] = &["continue"];
const LOOP_AWAIT: &[&str] = &["await"];
const LOOP_SAYS: &[&str] = &["retr", "attempt", "tries", "backoff"];

/// Rounds of the fixed point before giving up (and blanking nothing).
const MAX_ROUNDS: usize = 32;

#[path = "prune_lex.rs"]
mod lex;
use lex::{K, Lexed, Tok, lex};
#[path = "prune_items.rs"]
mod scan;
use scan::items;

/// The index of the token closing the group opened at `open`.
fn close_of(t: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, tok) in t.iter().enumerate().skip(open) {
        match tok.k {
            K::Punct(b'(' | b'[' | b'{') => depth += 1,
            K::Punct(b')' | b']' | b'}') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

struct Words(aho_corasick::AhoCorasick);

impl Words {
    fn new(words: &[&str]) -> Words {
        Words(
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(words)
                .expect("a few short literal needles always build"),
        )
    }

    /// Whether `code` holds a code word ([`retrieve_at`] is none).
    fn any_code_word_in(&self, code: &[u8]) -> bool {
        self.0
            .find_overlapping_iter(code)
            .any(|m| !retrieve_at(code, m.range()))
    }
}

/// Whether the word found at `r` is `retr` beginning `retrieve` (any
/// case: `retrieve`, `Retriever`, `RETRIEVAL`): a word of databases and
/// caches (qdrant's `retrieve` API, 528 times), not of retrying, and no
/// reader's name (the evaluator's and the loop reader's are `retry`,
/// `retries`, `Retry*`, `RETRY`), so it keeps no body.
fn retrieve_at(text: &[u8], r: std::ops::Range<usize>) -> bool {
    text[r.clone()].eq_ignore_ascii_case(b"retr")
        && text
            .get(r.end..r.end + 3)
            .is_some_and(|x| x.eq_ignore_ascii_case(b"iev"))
}

struct Finders {
    header: Words,
    /// Every word of [`CODE_WORDS`], [`TEXT_WORDS`] and the loop words
    /// in one automaton, each with the classes it belongs to
    /// ([`CODE`], [`TEXT`], ...): one pass over a function's text instead
    /// of one per class.
    body: aho_corasick::AhoCorasick,
    classes: Vec<u8>,
}

const CODE: u8 = 1;
const TEXT: u8 = 2;
const AGAIN: u8 = 4;
const AWAITS: u8 = 8;
const SAYS: u8 = 16;

fn finders() -> &'static Finders {
    static F: std::sync::LazyLock<Finders> = std::sync::LazyLock::new(|| {
        let mut words: Vec<(String, u8)> = Vec::new();
        for (list, class) in [
            (CODE_WORDS, CODE),
            (TEXT_WORDS, TEXT),
            (LOOP_AGAIN, AGAIN),
            (LOOP_AWAIT, AWAITS),
            (LOOP_SAYS, SAYS),
        ] {
            for w in list {
                let w = w.to_ascii_lowercase();
                match words.iter_mut().find(|(x, _)| *x == w) {
                    Some((_, c)) => *c |= class,
                    None => words.push((w, class)),
                }
            }
        }
        Finders {
            header: Words::new(CODE_WORDS),
            body: aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(words.iter().map(|(w, _)| w))
                .expect("a few short literal needles always build"),
            classes: words.iter().map(|(_, c)| *c).collect(),
        }
    });
    &F
}

/// The source with comments and literals blanked (same length), and the
/// source with its comments blanked (literals kept). Only words are
/// looked for in them (none holds blank space or `#`), so blank space and
/// a raw identifier's `r#` between the tokens stay as written: a copy and
/// a fill per comment and literal, not a copy per token.
fn code_only(src: &str, t: &[Tok], comments: &[std::ops::Range<usize>]) -> (Vec<u8>, Vec<u8>) {
    let mut bare = src.as_bytes().to_vec();
    for r in comments {
        bare[r.clone()].fill(b' ');
    }
    let mut out = bare.clone();
    for x in t {
        if x.k == K::Lit {
            out[x.s..x.e].fill(b' ');
        }
    }
    (out, bare)
}

/// Whether a function (`code`, `bare` and `raw` from its first attribute
/// to its closing brace) holds anything a reader looks at: a code word in
/// its code (not `retr` of `retrieve`: [`retrieve_at`]), a text word in
/// its text (a URL's `://` outside comments: the readers take URLs from
/// string literals, and a link in a comment, `// see https://github.com/..`,
/// is none), or a loop's `continue` with `await` and a retry word. One
/// overlapping pass over the raw text finds every occurrence of every
/// word; a code word counts where the code has the same bytes (`code` is
/// `raw` with comments and literals turned to spaces, `bare` with
/// comments only, and no word holds a space, so an occurrence in the code
/// is one in the raw text that nothing blanked).
fn wanted_text(code: &[u8], bare: &[u8], raw: &[u8]) -> bool {
    let f = finders();
    let mut seen = 0u8;
    for m in f.body.find_overlapping_iter(raw) {
        let class = f.classes[m.pattern().as_usize()];
        let r = m.range();
        let word = &raw[r.clone()];
        let text = class & TEXT != 0 && (word != b"://" || bare[r.clone()] == *word);
        if text || (class & CODE != 0 && code[r.clone()] == *word && !retrieve_at(raw, r)) {
            return true;
        }
        seen |= class & (AGAIN | AWAITS | SAYS);
        if seen == AGAIN | AWAITS | SAYS {
            return true;
        }
    }
    false
}

/// `src` with the bodies no reader needs blanked, or `None` when nothing is
/// blanked (or on any doubt).
pub fn blanked(src: &str) -> Option<String> {
    pruned(src).0
}

/// [`blanked`], and whether no reader of the syntax tree has anything to
/// read: no function body is kept (every one is blanked or there is
/// none), and the text left for the parse names no `macro_rules` and has
/// no string literal with a URL (`://`, or `:\` escaped) for a
/// constant (see `super::extract_with`). A URL in a comment (a licence
/// header) is not one.
pub fn pruned(src: &str) -> (Option<String>, bool) {
    let Blanks {
        ranges,
        pubs,
        nothing_to_read,
    } = skippable_and_kept(src);
    if ranges.is_empty() {
        return (None, nothing_to_read);
    }
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    for r in ranges {
        out.push_str(&src[at..r.start]);
        blank_range(
            &src[r.clone()],
            pubs.binary_search(&r.start).is_ok(),
            &mut out,
        );
        at = r.end;
    }
    out.push_str(&src[at..]);
    (Some(out), nothing_to_read)
}

/// The text syn parses when bodies are blanked: [`pruned`]'s text with
/// every line that lies wholly inside a blanked range left out (blank
/// space to syn, yet each was lexed and copied: most of a pruned file).
/// The lines kept keep their character columns; [`Compact::line`] gives
/// a kept line's number in the source. A blanked range starts and ends
/// at a token's edge, so no string literal loses a line.
pub struct Compact {
    pub text: String,
    /// `(line, left out)`: from this line of `text` on (1-based), this
    /// many of the source's lines were left out before it; ascending.
    pub shifts: Vec<(usize, usize)>,
}

impl Compact {
    /// The source's line (1-based) of `text`'s line `line`.
    pub fn line(shifts: &[(usize, usize)], line: usize) -> usize {
        match shifts.partition_point(|&(from, _)| from <= line) {
            0 => line,
            i => line + shifts[i - 1].1,
        }
    }
}

/// [`pruned`] as a [`Compact`] text.
pub fn pruned_compact(src: &str) -> (Option<Compact>, bool) {
    pruned_compact_for(src, true)
}

/// [`pruned_compact`]; when not `evaluated` (a test crate's file, which
/// `eval::read_file` leaves unread) no body is kept.
pub fn pruned_compact_for(src: &str, evaluated: bool) -> (Option<Compact>, bool) {
    let Blanks {
        ranges,
        pubs,
        nothing_to_read,
    } = skippable_and_kept_for(src, evaluated);
    if ranges.is_empty() {
        return (None, nothing_to_read);
    }
    let lines_in = |s: &str| memchr::memchr_iter(b'\n', s.as_bytes()).count();
    let mut out = String::with_capacity(src.len() / 2);
    let mut shifts = Vec::new();
    // The line of `out` being written, and the lines left out so far.
    let mut line = 1usize;
    let mut gone = 0usize;
    let mut at = 0;
    for r in ranges {
        let kept = &src[at..r.start];
        line += lines_in(kept);
        out.push_str(kept);
        let inner = &src[r.clone()];
        let b = inner.as_bytes();
        let patch = pubs.binary_search(&r.start).is_ok();
        match (memchr::memchr(b'\n', b), memchr::memrchr(b'\n', b)) {
            (Some(first), Some(last)) => {
                // The first line's blanked tail (its break kept), the
                // lines wholly inside left out, the last line's blanked
                // head (the columns of what follows on it).
                blank_range(&inner[..=first], patch, &mut out);
                line += 1;
                let n = lines_in(&inner[first + 1..=last]);
                if n > 0 {
                    gone += n;
                    shifts.push((line, gone));
                }
                blank_into(&inner[last + 1..], &mut out);
            }
            _ => blank_range(inner, patch, &mut out),
        }
        at = r.end;
    }
    out.push_str(&src[at..]);
    (Some(Compact { text: out, shifts }), nothing_to_read)
}

/// [`blank_into`], with `pub` in place of the first three bytes when
/// `patch` (a function's head: [`scan::head_blanks`] checked that they are
/// ASCII on one line).
fn blank_range(text: &str, patch: bool, out: &mut String) {
    match text.get(3..) {
        Some(rest) if patch => {
            out.push_str("pub");
            blank_into(rest, out);
        }
        _ => blank_into(text, out),
    }
}

/// `text` with each character but line breaks a space, pushed onto
/// `out` (so columns, counted in characters, stay): ASCII text a run of
/// spaces at a time between the line breaks memchr finds.
fn blank_into(text: &str, out: &mut String) {
    const SPACES: &str = "                                                                ";
    if !text.is_ascii() {
        for c in text.chars() {
            out.push(if c == '\n' || c == '\r' { c } else { ' ' });
        }
        return;
    }
    let b = text.as_bytes();
    let mut at = 0;
    loop {
        let end = memchr::memchr2(b'\n', b'\r', &b[at..]).map_or(b.len(), |i| at + i);
        let mut n = end - at;
        while n > 0 {
            let k = n.min(SPACES.len());
            out.push_str(&SPACES[..k]);
            n -= k;
        }
        if end == b.len() {
            return;
        }
        out.push(b[end] as char);
        at = end + 1;
    }
}

/// Byte ranges (insides of function bodies, braces excluded, or of test
/// modules) to blank, in order and not nested.
pub fn skippable(src: &str) -> Vec<std::ops::Range<usize>> {
    skippable_and_kept(src).ranges
}

/// What [`skippable_and_kept`] found.
struct Blanks {
    ranges: Vec<std::ops::Range<usize>>,
    /// Starts of the ranges whose first three bytes become `pub`
    /// ([`scan::head_blanks`]), ascending.
    pubs: Vec<usize>,
    nothing_to_read: bool,
}

impl Blanks {
    fn none() -> Blanks {
        Blanks {
            ranges: Vec::new(),
            pubs: Vec::new(),
            nothing_to_read: false,
        }
    }
}

/// [`skippable`], and whether nothing is left for the tree's readers
/// (see [`pruned`]; `false` on any doubt).
fn skippable_and_kept(src: &str) -> Blanks {
    skippable_and_kept_for(src, true)
}

/// [`skippable_and_kept`]; no body is kept when not `evaluated`.
fn skippable_and_kept_for(src: &str, evaluated: bool) -> Blanks {
    let Some(Lexed {
        toks: t,
        comments,
        docs,
    }) = lex(src)
    else {
        return Blanks::none();
    };
    let (code, bare) = code_only(src, &t, &comments);
    drop(comments);
    let Some((fns, mut out)) = items(src, &t, &code) else {
        return Blanks::none();
    };
    let name = |i: usize| &src[t[i].s..t[i].e];
    // A file with a test function at its top is one the evaluator reads
    // nothing of (`eval::read_file`): no body of it is kept.
    let test_file = !evaluated || fns.iter().any(|f| f.top_test);
    let mut kept: Vec<bool> = fns
        .iter()
        .map(|f| {
            !f.test_only
                && !test_file
                && (f.in_kept_scope
                    || wanted_text(
                        &code[t[f.start].s..t[f.close].e],
                        &bare[t[f.start].s..t[f.close].e],
                        &src.as_bytes()[t[f.start].s..t[f.close].e],
                    )
                    || invokes_macro(src, &t[f.open..f.close]))
        })
        .collect();
    // Names a `Policy` impl's header holds: a body that names one may
    // construct the policy.
    let policy_names: HashSet<&str> = policy_header_names(src, &t)
        .into_iter()
        .map(|r| &src[r])
        .collect();
    // Calls (owner, name) of kept bodies and of code outside any function
    // (a constant's initialiser may call a function); fields kept bodies
    // read as `self.field`.
    // Code blanked whole (a test module, a type definition, an item
    // macro: `out`, in order and apart) is never parsed, so what it calls
    // is called by nothing the evaluator reads: a test module's calls
    // kept every function they reached (qdrant's `types.rs`, 86 bodies).
    let mut calls: HashSet<(&str, &str)> = HashSet::new();
    let mut fields: HashSet<&str> = HashSet::new();
    {
        let mut next = fns.iter().peekable();
        let mut blanked = out.iter().peekable();
        let mut j = 0;
        while j < t.len() {
            if let Some(f) = next.peek()
                && j == f.open
            {
                j = f.close + 1;
                next.next();
                continue;
            }
            while blanked.peek().is_some_and(|r| r.end <= t[j].s) {
                blanked.next();
            }
            if blanked.peek().is_some_and(|r| r.start <= t[j].s) {
                j += 1;
                continue;
            }
            if let Some(owner) = followable_call(src, &t, j) {
                calls.insert((owner, &src[t[j].s..t[j].e]));
            }
            j += 1;
        }
    }
    let mut seen = vec![false; fns.len()];
    let mut policy_hit: Vec<Option<bool>> = vec![None; fns.len()];
    let mut field_hit: Vec<(usize, bool)> = vec![(usize::MAX, false); fns.len()];
    let mut round = 0;
    loop {
        round += 1;
        if round > MAX_ROUNDS {
            return Blanks::none();
        }
        for (i, f) in fns.iter().enumerate() {
            if !kept[i] || seen[i] {
                continue;
            }
            seen[i] = true;
            let body = &t[f.open..f.close];
            for j in 0..body.len() {
                if let Some(owner) = followable_call(src, body, j) {
                    calls.insert((owner, &src[body[j].s..body[j].e]));
                }
                if let Some(field) = self_field(src, body, j) {
                    fields.insert(field);
                }
            }
        }
        let mut changed = false;
        for (i, f) in fns.iter().enumerate() {
            if kept[i] || f.test_only || test_file {
                continue;
            }
            let n = name(f.name);
            let is_called = match (&f.impl_ty_at, f.in_impl) {
                (_, false) => calls.contains(&("", n)),
                (Some(ty), true) => {
                    calls.contains(&("Self", n)) || calls.contains(&(&src[ty.clone()], n))
                }
                (None, true) => calls.iter().any(|(o, m)| !o.is_empty() && *m == n),
            };
            let body = &t[f.open..f.close];
            let word = |j: usize| (body[j].k == K::Ident).then(|| &src[body[j].s..body[j].e]);
            // Whether the body names a policy name never changes, and
            // whether it sets a field only when `fields` has grown: each
            // is looked for once per fn and size of `fields`, not every
            // round.
            let names_policy = !policy_names.is_empty()
                && *policy_hit[i].get_or_insert_with(|| {
                    (0..body.len()).any(|j| word(j).is_some_and(|w| policy_names.contains(w)))
                });
            let sets_field = !fields.is_empty() && {
                if field_hit[i].0 != fields.len() {
                    let hit = (0..body.len()).any(|j| {
                        word(j).is_some_and(|w| fields.contains(w) && field_init(body, j))
                    });
                    field_hit[i] = (fields.len(), hit);
                }
                field_hit[i].1
            };
            let wanted = is_called || names_policy || sets_field;
            if wanted {
                kept[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let none_kept = !kept.iter().any(|k| *k);
    let mut pubs = Vec::new();
    for (f, k) in fns.iter().zip(&kept) {
        if *k {
            continue;
        }
        // Test-only functions keep their heads: a top-level `#[test]`
        // function makes the evaluator skip the file.
        if !f.test_only
            && let Some((heads, patch)) = scan::head_blanks(src, &t, f)
        {
            if patch && let Some(r) = heads.first() {
                pubs.push(r.start);
            }
            out.extend(heads);
        }
        if t[f.close].s > t[f.open].e {
            out.push(t[f.open].e..t[f.close].s);
        }
    }
    pubs.sort_unstable();
    out.extend(docs);
    out.sort_by_key(|r| r.start);
    // Doc comments inside blanked bodies are blanked with them.
    let mut merged: Vec<std::ops::Range<usize>> = Vec::with_capacity(out.len());
    for r in out {
        match merged.last() {
            Some(last) if r.start < last.end => {}
            _ => merged.push(r),
        }
    }
    // What the tree's readers take from outside function bodies, in the
    // text left for the parse: a `macro_rules!` definition (a retry
    // macro), a URL in a string (a constant).
    let mut blanks = merged.iter().peekable();
    let item_facts = t.iter().any(|x| {
        while blanks.peek().is_some_and(|r| r.end <= x.s) {
            blanks.next();
        }
        if blanks.peek().is_some_and(|r| r.start <= x.s) {
            return false;
        }
        let text = &src[x.s..x.e];
        match x.k {
            K::Ident => text == "macro_rules",
            K::Lit => text.contains("://") || text.contains(":\\"),
            K::Punct(_) => false,
        }
    });
    Blanks {
        ranges: merged,
        pubs,
        nothing_to_read: none_kept && !item_facts,
    }
}

/// The owner of a call at `j` the evaluator may follow to the file's own
/// function: `""` for `f(..)` or `f` named as a value (`map(f)`), `"Self"`
/// for `self.f(..)` and `Self::f(..)`, `"T"` for `T::f(..)`; `None` for a
/// method on another receiver or anything else.
fn followable_call<'s>(src: &'s str, t: &[Tok], j: usize) -> Option<&'s str> {
    if t[j].k != K::Ident {
        return None;
    }
    let prev = |k: usize| j.checked_sub(k).map(|i| t[i]);
    let next = |k: usize| t.get(j + k).copied();
    let punct = |x: Option<Tok>, c: u8| x.is_some_and(|x| x.k == K::Punct(c));
    let word = |x: Option<Tok>| x.filter(|x| x.k == K::Ident).map(|x| &src[x.s..x.e]);
    let called = punct(next(1), b'(')
        || (punct(next(1), b':') && punct(next(2), b':') && punct(next(3), b'<'));
    let value = (punct(prev(1), b'(') || punct(prev(1), b','))
        && (punct(next(1), b')') || punct(next(1), b','));
    if !(called || value) || word(prev(1)) == Some("fn") {
        return None;
    }
    if punct(prev(1), b'.') {
        return (word(prev(2)) == Some("self")).then_some("Self");
    }
    if punct(prev(1), b':') && punct(prev(2), b':') {
        // `<T as Trait>::f(..)` names no plain owner: any type.
        return Some(word(prev(3)).unwrap_or("Self"));
    }
    Some("")
}

/// The field `self.field` at `j` reads (not a method call).
fn self_field<'s>(src: &'s str, t: &[Tok], j: usize) -> Option<&'s str> {
    (j >= 2
        && t[j].k == K::Ident
        && t[j - 1].k == K::Punct(b'.')
        && t[j - 2].k == K::Ident
        && &src[t[j - 2].s..t[j - 2].e] == "self"
        && t.get(j + 1).is_none_or(|n| n.k != K::Punct(b'(')))
    .then(|| &src[t[j].s..t[j].e])
}

/// Whether the identifier at `j` may be a field in a struct literal:
/// `field: ..` or the shorthand `{ field, .. }`.
fn field_init(t: &[Tok], j: usize) -> bool {
    let punct =
        |i: Option<usize>, c: u8| i.and_then(|i| t.get(i)).is_some_and(|x| x.k == K::Punct(c));
    let colon = punct(Some(j + 1), b':') && !punct(Some(j + 2), b':');
    let shorthand = (punct(j.checked_sub(1), b'{') || punct(j.checked_sub(1), b','))
        && (punct(Some(j + 1), b',') || punct(Some(j + 1), b'}'));
    colon || shorthand
}

/// Whether the tokens invoke a macro whose call the loop reader records
/// (`loops::LoopFinder::visit_macro`, for a retry macro of another file):
/// not a standard or logging one, and named for a retry or a backoff, or
/// given two arguments or more one of which may be an integer literal.
/// Over-approximated by the group's top level holding a comma and a
/// number (`m!(1.5,)` too). One pass with a stack of open groups, so
/// nested invocations cost no more than their tokens.
fn invokes_macro(src: &str, t: &[Tok]) -> bool {
    struct Group {
        call: bool,
        comma: bool,
        number: bool,
    }
    let mut open: Vec<Group> = Vec::new();
    for (i, x) in t.iter().enumerate() {
        match x.k {
            K::Punct(b'(' | b'[' | b'{') => {
                let name = (i >= 2 && t[i - 1].k == K::Punct(b'!') && t[i - 2].k == K::Ident)
                    .then(|| &src[t[i - 2].s..t[i - 2].e])
                    .filter(|n| !STD_MACROS.contains(n));
                if let Some(n) = name {
                    let lower = n.to_ascii_lowercase();
                    if lower.contains("retry") || lower.contains("backoff") {
                        return true;
                    }
                }
                open.push(Group {
                    call: name.is_some(),
                    comma: false,
                    number: false,
                });
            }
            K::Punct(b')' | b']' | b'}') => {
                if let Some(g) = open.pop()
                    && g.call
                    && g.comma
                    && g.number
                {
                    return true;
                }
            }
            K::Punct(b',') => {
                if let Some(g) = open.last_mut() {
                    g.comma = true;
                }
            }
            K::Lit if src.as_bytes()[x.s].is_ascii_digit() => {
                if let Some(g) = open.last_mut() {
                    g.number = true;
                }
            }
            _ => {}
        }
    }
    // Unbalanced: any doubt keeps the body.
    open.iter().any(|g| g.call)
}

/// The identifiers of every `impl` header that names `Policy`.
fn policy_header_names(src: &str, t: &[Tok]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    for (i, x) in t.iter().enumerate() {
        if x.k == K::Ident && &src[x.s..x.e] == "impl" {
            let end = t[i..]
                .iter()
                .position(|y| matches!(y.k, K::Punct(b'{' | b';')))
                .map_or(t.len(), |p| i + p);
            let header = &t[i..end];
            if header
                .iter()
                .any(|y| y.k == K::Ident && &src[y.s..y.e] == "Policy")
            {
                out.extend(
                    header
                        .iter()
                        .filter(|y| {
                            y.k == K::Ident && !matches!(&src[y.s..y.e], "impl" | "for" | "Policy")
                        })
                        .map(|y| y.s..y.e),
                );
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "prune_tests.rs"]
mod tests;
