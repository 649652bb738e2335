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
//!   reader looks for ([`KEEP`]: the file sniff's words and the builder,
//!   delay, loop, idempotency, timeout and URL words), invokes no macro
//!   outside the standard and logging ones (a retry macro of another file
//!   may take it), and is not in an `impl` or `mod` whose header holds
//!   one; and
//! - no kept body names it (the evaluator follows calls of the file's own
//!   functions, `Type::f` and `self.f` alike), and it names no field a kept
//!   body reads as `self.field` (struct literals give fields their value),
//!   nor a name of a `Policy` impl's header (tower policies are found by
//!   their constructor calls). Both are taken to a fixed point.
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
use lex::{K, Tok, lex};

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

struct Fn {
    name: usize,
    /// First token of the item (its attributes), the body's braces.
    start: usize,
    open: usize,
    close: usize,
    /// Test-only, or where the evaluator never looks (a trait's default
    /// methods, functions inside a `const` block): blanked whatever it
    /// holds.
    test_only: bool,
    in_kept_scope: bool,
    /// In an `impl` block, and its self type when the lexer can tell it.
    in_impl: bool,
    impl_ty_at: Option<std::ops::Range<usize>>,
}

struct Scope {
    keep: bool,
    test_only: bool,
    /// `mod` or `impl`: the evaluator walks the functions in it.
    walked: bool,
    impl_ty: Option<std::ops::Range<usize>>,
    is_impl: bool,
}

/// Whether the attributes among `t` make the item test-only, as
/// [`super::eval::is_test_only`] reads them. An attribute with a comment
/// in it is not.
fn test_only(src: &str, t: &[Tok]) -> bool {
    let mut i = 0;
    while i < t.len() {
        if t[i].k == K::Punct(b'#') && t.get(i + 1).is_some_and(|x| x.k == K::Punct(b'[')) {
            let Some(c) = close_of(t, i + 1) else {
                return false;
            };
            let inner = &t[i + 2..c];
            let word = |k: usize| {
                inner
                    .get(k)
                    .filter(|x| x.k == K::Ident)
                    .map(|x| &src[x.s..x.e])
            };
            let raw = &src[t[i + 1].s..t[c].e];
            let hit = if word(0) == Some("cfg") {
                inner.get(1).is_some_and(|x| x.k == K::Punct(b'('))
                    && !raw.contains('/')
                    && !raw.contains("not")
                    && raw
                        .split(|c: char| !c.is_alphanumeric() && c != '_')
                        .any(|w| w == "test")
            } else {
                match inner.len() {
                    1 => word(0) == Some("test"),
                    4 => {
                        inner[1].k == K::Punct(b':')
                            && inner[2].k == K::Punct(b':')
                            && word(3) == Some("test")
                    }
                    _ => false,
                }
            };
            if hit {
                return true;
            }
            i = c + 1;
        } else {
            i += 1;
        }
    }
    false
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

    fn any_in(&self, bytes: &[u8]) -> bool {
        self.0.is_match(bytes)
    }
}

struct Finders {
    code: Words,
    header: Words,
    text: Words,
    again: Words,
    awaits: Words,
    says: Words,
}

fn finders() -> &'static Finders {
    static F: std::sync::LazyLock<Finders> = std::sync::LazyLock::new(|| Finders {
        code: Words::new(CODE_WORDS),
        header: Words::new(&[CODE_WORDS, &["policy"]].concat()),
        text: Words::new(TEXT_WORDS),
        again: Words::new(LOOP_AGAIN),
        awaits: Words::new(LOOP_AWAIT),
        says: Words::new(LOOP_SAYS),
    });
    &F
}

/// The source with comments and literals blanked (same length).
fn code_only(src: &str, t: &[Tok]) -> Vec<u8> {
    let mut out = vec![b' '; src.len()];
    for x in t {
        if x.k != K::Lit {
            out[x.s..x.e].copy_from_slice(&src.as_bytes()[x.s..x.e]);
        }
    }
    out
}

/// Whether a function (`code` and `raw` from its first attribute to its
/// closing brace) holds anything a reader looks at.
fn wanted_text(code: &[u8], raw: &[u8]) -> bool {
    let f = finders();
    f.code.any_in(code)
        || f.text.any_in(raw)
        || (f.again.any_in(raw) && f.awaits.any_in(raw) && f.says.any_in(raw))
}

/// `src` with the bodies no reader needs blanked, or `None` when nothing is
/// blanked (or on any doubt).
pub fn blanked(src: &str) -> Option<String> {
    pruned(src).0
}

/// [`blanked`], and whether no function body at all is kept (every one
/// is blanked or there is none): no reader of the syntax tree then has
/// anything to read but `macro_rules!` items and constants (see
/// `super::extract_with`).
pub fn pruned(src: &str) -> (Option<String>, bool) {
    let (ranges, none_kept) = skippable_and_kept(src);
    if ranges.is_empty() {
        return (None, none_kept);
    }
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    for r in ranges {
        out.push_str(&src[at..r.start]);
        for c in src[r.clone()].chars() {
            out.push(if c == '\n' || c == '\r' { c } else { ' ' });
        }
        at = r.end;
    }
    out.push_str(&src[at..]);
    (Some(out), none_kept)
}

/// Byte ranges (insides of function bodies, braces excluded, or of test
/// modules) to blank, in order and not nested.
pub fn skippable(src: &str) -> Vec<std::ops::Range<usize>> {
    skippable_and_kept(src).0
}

/// [`skippable`], and whether no function body is kept (`false` on any
/// doubt).
fn skippable_and_kept(src: &str) -> (Vec<std::ops::Range<usize>>, bool) {
    let Some((t, docs)) = lex(src) else {
        return (Vec::new(), false);
    };
    let code = code_only(src, &t);
    let Some((fns, mut out)) = items(src, &t, &code) else {
        return (Vec::new(), false);
    };
    let name = |i: usize| &src[t[i].s..t[i].e];
    let mut kept: Vec<bool> = fns
        .iter()
        .map(|f| {
            !f.test_only
                && (f.in_kept_scope
                    || wanted_text(
                        &code[t[f.start].s..t[f.close].e],
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
    let mut calls: HashSet<(&str, &str)> = HashSet::new();
    let mut fields: HashSet<&str> = HashSet::new();
    {
        let mut next = fns.iter().peekable();
        let mut j = 0;
        while j < t.len() {
            if let Some(f) = next.peek()
                && j == f.open
            {
                j = f.close + 1;
                next.next();
                continue;
            }
            if let Some(owner) = followable_call(src, &t, j) {
                calls.insert((owner, &src[t[j].s..t[j].e]));
            }
            j += 1;
        }
    }
    let mut seen = vec![false; fns.len()];
    let mut round = 0;
    loop {
        round += 1;
        if round > MAX_ROUNDS {
            return (Vec::new(), false);
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
            if kept[i] || f.test_only {
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
            let wanted = is_called
                || (0..body.len()).any(|j| {
                    let w = &src[body[j].s..body[j].e];
                    body[j].k == K::Ident
                        && (policy_names.contains(w) || (fields.contains(w) && field_init(body, j)))
                });
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
    for (f, k) in fns.iter().zip(&kept) {
        if !k && t[f.close].s > t[f.open].e {
            out.push(t[f.open].e..t[f.close].s);
        }
    }
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
    (merged, none_kept)
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

/// Whether the tokens invoke a macro a reader may care about: any but the
/// standard and logging ones.
fn invokes_macro(src: &str, t: &[Tok]) -> bool {
    t.windows(3).any(|w| {
        w[0].k == K::Ident
            && w[1].k == K::Punct(b'!')
            && matches!(w[2].k, K::Punct(b'(' | b'[' | b'{'))
            && !STD_MACROS.contains(&&src[w[0].s..w[0].e])
    })
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

/// The self type of an `impl` header: the last path segment before any
/// generic arguments, after `for` if there is one.
fn self_type(src: &str, header: &[Tok]) -> Option<std::ops::Range<usize>> {
    let word = |x: &Tok| (x.k == K::Ident).then(|| &src[x.s..x.e]);
    // Past `impl` and its generic parameters.
    let mut i = header.iter().position(|x| word(x) == Some("impl"))? + 1;
    let mut angle = 0i32;
    let mut ty: Option<std::ops::Range<usize>> = None;
    while i < header.len() {
        let x = &header[i];
        match x.k {
            K::Punct(b'<') => angle += 1,
            K::Punct(b'>') if i > 0 && header[i - 1].k == K::Punct(b'-') => {}
            K::Punct(b'>') => angle -= 1,
            K::Ident if angle == 0 => match word(x) {
                Some("for") => ty = None,
                Some("where") => break,
                Some("dyn" | "unsafe" | "const") => {}
                _ => ty = Some(x.s..x.e),
            },
            _ => {}
        }
        i += 1;
    }
    ty
}

/// Every function with a body outside function bodies and macro
/// invocations, and the insides of test modules.
#[allow(clippy::type_complexity)]
fn items(src: &str, t: &[Tok], code: &[u8]) -> Option<(Vec<Fn>, Vec<std::ops::Range<usize>>)> {
    let header_words = &finders().header;
    let mut fns = Vec::new();
    let mut blank = Vec::new();
    let mut stack: Vec<Scope> = Vec::new();
    let mut start = 0usize;
    let mut i = 0usize;
    let word =
        |i: usize| -> Option<&str> { t.get(i).filter(|x| x.k == K::Ident).map(|x| &src[x.s..x.e]) };
    while i < t.len() {
        match t[i].k {
            K::Punct(b'}') => {
                stack.pop()?;
                i += 1;
                start = i;
            }
            K::Punct(b';') => {
                i += 1;
                start = i;
            }
            K::Punct(b')' | b']') => return None,
            K::Punct(b'#') => {
                let open = if t.get(i + 1).is_some_and(|x| x.k == K::Punct(b'!')) {
                    i + 2
                } else {
                    i + 1
                };
                if t.get(open).is_some_and(|x| x.k == K::Punct(b'[')) {
                    i = close_of(t, open)? + 1;
                } else {
                    i += 1;
                }
            }
            K::Punct(b'(' | b'[') => {
                i = close_of(t, i)? + 1;
            }
            K::Ident
                if t.get(i + 1).is_some_and(|x| x.k == K::Punct(b'!')) && word(i) != Some("fn") =>
            {
                // A macro invocation or `macro_rules! name { .. }`: left alone.
                let mut j = i + 2;
                if t.get(j).is_some_and(|x| x.k == K::Ident) {
                    j += 1;
                }
                if t.get(j)
                    .is_some_and(|x| matches!(x.k, K::Punct(b'(' | b'[' | b'{')))
                {
                    i = close_of(t, j)? + 1;
                    if t[i - 1].k == K::Punct(b'}') {
                        start = i;
                    }
                } else {
                    i += 1;
                }
            }
            K::Ident if word(i) == Some("fn") && word(i + 1).is_some() => {
                let mut j = i + 2;
                let open = loop {
                    match t.get(j)?.k {
                        K::Punct(b'(' | b'[') => j = close_of(t, j)? + 1,
                        K::Punct(b'{') => break Some(j),
                        K::Punct(b';') => break None,
                        K::Punct(b')' | b']' | b'}') => return None,
                        _ => j += 1,
                    }
                };
                match open {
                    None => {
                        i = j + 1;
                    }
                    Some(open) => {
                        let close = close_of(t, open)?;
                        let in_test = stack.iter().any(|s| s.test_only || !s.walked);
                        let inner = stack.last();
                        fns.push(Fn {
                            name: i + 1,
                            start,
                            open,
                            close,
                            test_only: in_test || test_only(src, &t[start..i]),
                            in_kept_scope: stack.iter().any(|s| s.keep),
                            in_impl: inner.is_some_and(|s| s.is_impl),
                            impl_ty_at: inner.and_then(|s| s.impl_ty.clone()),
                        });
                        i = close + 1;
                    }
                }
                start = i;
            }
            K::Punct(b'{') => {
                let header = &t[start..i];
                let has = |w: &str| {
                    header
                        .iter()
                        .any(|x| x.k == K::Ident && &src[x.s..x.e] == w)
                };
                let is_mod = has("mod");
                let is_impl = !is_mod && has("impl") && !has("trait");
                let test = stack.iter().any(|s| s.test_only) || test_only(src, header);
                if is_mod && test && !stack.iter().any(|s| s.test_only) {
                    let close = close_of(t, i)?;
                    if t[close].s > t[i].e {
                        blank.push(t[i].e..t[close].s);
                    }
                    i = close + 1;
                    start = i;
                    continue;
                }
                let keep = start < i
                    && (is_mod || is_impl || has("trait"))
                    && header_words.any_in(&code[t[start].s..t[i].e]);
                let walked = (is_mod || is_impl) && stack.iter().all(|s| s.walked);
                stack.push(Scope {
                    keep,
                    test_only: test,
                    walked,
                    impl_ty: if is_impl {
                        self_type(src, header)
                    } else {
                        None
                    },
                    is_impl,
                });
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    stack.is_empty().then_some((fns, blank))
}

#[cfg(test)]
#[path = "prune_tests.rs"]
mod tests;
