//! The item scan of [`super`]: every function with a body outside other
//! function bodies and macro invocations, whether attributes make it
//! test-only, the self type of its `impl`, and the items no reader reads.

use super::lex::{K, Tok};
use super::{close_of, finders};

pub(super) struct Fn {
    pub(super) name: usize,
    /// First token of the item (its attributes), the body's braces.
    pub(super) start: usize,
    pub(super) open: usize,
    pub(super) close: usize,
    /// Test-only, or where the evaluator never looks (a trait's default
    /// methods, functions inside a `const` block): blanked whatever it
    /// holds.
    pub(super) test_only: bool,
    pub(super) in_kept_scope: bool,
    /// In an `impl` block, and its self type when the lexer can tell it.
    pub(super) in_impl: bool,
    pub(super) impl_ty_at: Option<std::ops::Range<usize>>,
    /// A function at the top of the file marked as a test the way the
    /// evaluator reads it (`#[test]`, `#[rstest]`, `#[x::test]`): the
    /// evaluator reads nothing of such a file.
    pub(super) top_test: bool,
}

struct Scope {
    keep: bool,
    test_only: bool,
    /// `mod` or `impl`: the evaluator walks the functions in it.
    walked: bool,
    impl_ty: Option<std::ops::Range<usize>>,
    is_impl: bool,
}

/// Whether one of the attributes among `t` (`#[..]`) satisfies `hit`,
/// given its inner tokens, a lookup of its `k`-th inner token as an
/// identifier, and its raw text; `false` on an unclosed one.
fn any_attr<'s>(
    src: &'s str,
    t: &[Tok],
    hit: impl std::ops::Fn(&[Tok], &dyn std::ops::Fn(usize) -> Option<&'s str>, &'s str) -> bool,
) -> bool {
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
            if hit(inner, &word, &src[t[i + 1].s..t[c].e]) {
                return true;
            }
            i = c + 1;
        } else {
            i += 1;
        }
    }
    false
}

/// Whether the attributes among `t` make the item test-only, as
/// [`super::super::eval::is_test_only`] reads them. An attribute with a comment
/// in it is not.
fn test_only(src: &str, t: &[Tok]) -> bool {
    any_attr(src, t, |inner, word, raw| {
        if word(0) == Some("cfg") {
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
        }
    })
}

/// Whether the outer attributes among `t` mark a function as a test as
/// the evaluator's `is_test_fn` reads them: an attribute whose path is
/// `test` or `rstest`, or two segments ending in `test`
/// (`#[tokio::test]`), bare or followed by arguments. Anything else
/// (a leading `::`, a comment in it) is not, so a file is never taken
/// for a test file the evaluator would read.
fn test_fn_attr(src: &str, t: &[Tok]) -> bool {
    any_attr(src, t, |inner, word, raw| {
        let punct = |k: usize, c: u8| inner.get(k).is_some_and(|x| x.k == K::Punct(c));
        // The path ends where the attribute or its arguments begin.
        let ends_at = |k: usize| inner.len() == k || punct(k, b'(') || punct(k, b'=');
        let one = matches!(word(0), Some("test" | "rstest")) && ends_at(1);
        let two = word(0).is_some()
            && punct(1, b':')
            && punct(2, b':')
            && word(3) == Some("test")
            && ends_at(4);
        (one || two) && !raw.contains('/')
    })
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

/// The head of an item whose tokens start `h`: the index of its first
/// token (its first outer attribute; inner attributes of the scope before
/// it are not the item's) and of its keyword, past attributes, `pub(..)`,
/// `unsafe`, `auto` and `default`. `None` for anything else.
fn item_head(src: &str, h: &[Tok]) -> Option<(usize, usize)> {
    let mut k = 0;
    let mut first = None;
    loop {
        let x = h.get(k)?;
        match x.k {
            K::Punct(b'#') => {
                let inner = h.get(k + 1).is_some_and(|y| y.k == K::Punct(b'!'));
                let open = if inner { k + 2 } else { k + 1 };
                if !h.get(open).is_some_and(|y| y.k == K::Punct(b'[')) {
                    return None;
                }
                if inner && first.is_some() {
                    return None;
                }
                if !inner {
                    first.get_or_insert(k);
                }
                k = close_of(h, open)? + 1;
            }
            K::Ident => {
                first.get_or_insert(k);
                match &src[x.s..x.e] {
                    "pub" => {
                        k += 1;
                        if h.get(k).is_some_and(|y| y.k == K::Punct(b'(')) {
                            k = close_of(h, k)? + 1;
                        }
                    }
                    "unsafe" | "auto" | "default" => k += 1,
                    _ => return Some((first?, k)),
                }
            }
            _ => return None,
        }
    }
}

/// What of a function no reader needs can go besides its body, when no
/// reader needs the function (see [`super::CODE_WORDS`]): its head, less
/// what keeps the item and its spans what they were. Left are the item's
/// first token (`pub` written over an attribute's `#[x`, so the item
/// still starts there: its span is read from it), `fn`, the name, the
/// parameter list's parentheses and the body's braces: `pub fn name( )
/// { }` in the same columns. The readers take only the name, the
/// parameters (bound to nothing in a blanked body), the span and the
/// body's span of such a function, and whether its attributes make it
/// test-only, so an attribute that may (any `test` in its text) keeps the
/// head whole. The ranges to blank and whether `pub` is written at the
/// first one's start; `None` on any doubt (the head as before).
pub(super) fn head_blanks(
    src: &str,
    t: &[Tok],
    f: &Fn,
) -> Option<(Vec<std::ops::Range<usize>>, bool)> {
    let fn_kw = f.name.checked_sub(1)?;
    let (first, _) = item_head(src, t.get(f.start..=fn_kw)?)?;
    let first = f.start + first;
    if src[t[first].s..t[fn_kw].s].contains("test") {
        return None;
    }
    let b = src.as_bytes();
    let patch = match t[first].k {
        K::Punct(b'#') => {
            // `pub` over `#[x`: three bytes on one line.
            let head = b.get(t[first].s..t[first].s + 3)?;
            if !head
                .iter()
                .all(|c| c.is_ascii() && *c != b'\n' && *c != b'\r')
            {
                return None;
            }
            true
        }
        K::Ident
            if matches!(
                &src[t[first].s..t[first].e],
                "pub" | "async" | "const" | "unsafe" | "extern" | "default" | "fn"
            ) =>
        {
            false
        }
        _ => return None,
    };
    // The name as syn spells it (`r#type`), whole.
    let name = t[f.name];
    let name_start = if name.s >= 2 && &b[name.s - 2..name.s] == b"r#" {
        name.s - 2
    } else {
        name.s
    };
    if !b
        .get(name_start.checked_sub(1)?)
        .is_some_and(u8::is_ascii_whitespace)
    {
        return None;
    }
    // Past the generic parameters to the parameter list.
    let mut j = f.name + 1;
    if t.get(j)?.k == K::Punct(b'<') {
        let mut depth = 0usize;
        loop {
            let x = t.get(j)?;
            match x.k {
                K::Punct(b'<') => depth += 1,
                K::Punct(b'>') if j > 0 && t[j - 1].k == K::Punct(b'-') && t[j - 1].e == x.s => {}
                K::Punct(b'>') => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        j += 1;
                        break;
                    }
                }
                K::Punct(b'(' | b'[') => {
                    j = close_of(t, j)?;
                }
                K::Punct(b'{' | b'}' | b';' | b')' | b']') => return None,
                _ => {}
            }
            j += 1;
        }
    }
    if t.get(j)?.k != K::Punct(b'(') {
        return None;
    }
    let params_close = close_of(t, j)?;
    if params_close >= f.open {
        return None;
    }
    let mut out = Vec::with_capacity(4);
    let mut blank = |a: usize, z: usize| {
        if z > a {
            out.push(a..z);
        }
    };
    if patch {
        blank(t[first].s, t[fn_kw].s);
    } else {
        blank(t[first].e, t[fn_kw].s);
    }
    blank(name.e, t[j].s);
    blank(t[j].e, t[params_close].s);
    blank(t[params_close].e, t[f.open].s);
    Some((out, patch))
}

/// Every function with a body outside function bodies and macro
/// invocations, the insides of test modules, and the items no reader
/// reads (type definitions, traits, `use`, `type`, extern blocks and
/// crates, item macros other than `macro_rules!`), whole.
#[allow(clippy::type_complexity)]
pub(super) fn items(
    src: &str,
    t: &[Tok],
    code: &[u8],
) -> Option<(Vec<Fn>, Vec<std::ops::Range<usize>>)> {
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
                // `use ..;`, `struct S(..);`, `type T = ..;`, `extern crate x;`.
                if let Some((first, kw)) = item_head(src, &t[start..i])
                    && matches!(
                        word(start + kw),
                        Some("use" | "struct" | "union" | "type" | "extern")
                    )
                {
                    blank.push(t[start + first].s..t[i].e);
                }
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
                    let close = close_of(t, j)?;
                    // An item macro other than `macro_rules!` (no reader
                    // looks into one): blanked, its `;` with it.
                    if word(i) != Some("macro_rules")
                        && let Some((first, kw)) = item_head(src, &t[start..=i])
                        && start + kw == i
                    {
                        let end = match t.get(close + 1) {
                            Some(x) if x.k == K::Punct(b';') => x.e,
                            _ => t[close].e,
                        };
                        blank.push(t[start + first].s..end);
                    }
                    i = close + 1;
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
                        let top_test = stack.is_empty() && test_fn_attr(src, &t[start..i]);
                        fns.push(Fn {
                            name: i + 1,
                            start,
                            open,
                            close,
                            test_only: in_test || test_only(src, &t[start..i]),
                            in_kept_scope: stack.iter().any(|s| s.keep),
                            in_impl: inner.is_some_and(|s| s.is_impl),
                            impl_ty_at: inner.and_then(|s| s.impl_ty.clone()),
                            top_test,
                        });
                        i = close + 1;
                    }
                }
                start = i;
            }
            K::Punct(b'{') => {
                let header = &t[start..i];
                let head = item_head(src, header);
                let kw = head.and_then(|(_, kw)| word(start + kw));
                if matches!(kw, Some("use" | "type")) {
                    // `use a::{b, c};`, `type A = B<{ N }>;`: blanked at
                    // their `;`.
                    i = close_of(t, i)? + 1;
                    continue;
                }
                if let Some((first, _)) = head
                    && matches!(kw, Some("struct" | "enum" | "union" | "trait" | "extern"))
                {
                    // No reader reads a type definition, a trait (its
                    // default methods are never walked) or an extern
                    // block: the item is blanked whole.
                    let close = close_of(t, i)?;
                    blank.push(t[start + first].s..t[close].e);
                    if kw != Some("trait") {
                        i = close + 1;
                        start = i;
                        continue;
                    }
                }
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
                // A header's `Policy` (tower's trait, the one the
                // evaluator reads an impl of) keeps it too.
                let keep = start < i
                    && (is_mod || is_impl || has("trait"))
                    && (header_words.any_code_word_in(&code[t[start].s..t[i].e]) || has("Policy"));
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
