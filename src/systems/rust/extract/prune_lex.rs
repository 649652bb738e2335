//! The Rust lexer of [`super`]: tokens (identifiers, punctuation,
//! literals) without comments, and where the doc comments are.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum K {
    Ident,
    Punct(u8),
    Lit,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Tok {
    pub(super) k: K,
    pub(super) s: usize,
    pub(super) e: usize,
}

fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// The end of a `"` string whose contents start at `i`.
fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The end of a raw string whose `#`s (or `"`) start at `i`.
fn raw_string_end(b: &[u8], mut i: usize) -> Option<usize> {
    let mut hashes = 0;
    while b.get(i) == Some(&b'#') {
        hashes += 1;
        i += 1;
    }
    if b.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    while i < b.len() {
        if b[i] == b'"'
            && b.len() - (i + 1) >= hashes
            && b[i + 1..i + 1 + hashes].iter().all(|c| *c == b'#')
        {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    None
}

/// A character literal starting at the `'` at `i`: its end, or `None` for
/// a lifetime or label.
fn char_end(src: &str, i: usize) -> Option<usize> {
    let b = src.as_bytes();
    if b.get(i + 1) == Some(&b'\\') {
        let mut j = i + 3;
        while j < b.len() && b[j] != b'\'' && b[j] != b'\n' {
            j += 1;
        }
        return (b.get(j) == Some(&b'\'')).then_some(j + 1);
    }
    let c = src.get(i + 1..)?.chars().next()?;
    let after = i + 1 + c.len_utf8();
    (b.get(after) == Some(&b'\'')).then_some(after + 1)
}

/// What [`lex`] finds: the tokens, every comment, and the doc comments
/// (which syn would parse as `#[doc]` attributes no reader looks at).
/// Between the tokens there is only blank space, comments and a raw
/// identifier's `r#`.
pub(super) struct Lexed {
    pub(super) toks: Vec<Tok>,
    pub(super) comments: Vec<std::ops::Range<usize>>,
    pub(super) docs: Vec<std::ops::Range<usize>>,
}

/// The tokens and comments of `src`, `None` when a literal or comment
/// does not end.
pub(super) fn lex(src: &str) -> Option<Lexed> {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 4);
    let mut docs = Vec::new();
    let mut comments = Vec::new();
    let doc = |i: usize| matches!(b.get(i + 2), Some(b'/' | b'!' | b'*'));
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            // Blank space a run at a time.
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let s = i;
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |j| i + j);
                comments.push(s..i);
                if doc(s) {
                    docs.push(s..i);
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let s = i;
                let mut depth = 1;
                i += 2;
                while depth > 0 {
                    match (b.get(i)?, b.get(i + 1)) {
                        (b'/', Some(b'*')) => {
                            depth += 1;
                            i += 2;
                        }
                        (b'*', Some(b'/')) => {
                            depth -= 1;
                            i += 2;
                        }
                        _ => i += 1,
                    }
                }
                comments.push(s..i);
                if doc(s) {
                    docs.push(s..i);
                }
            }
            b'"' => {
                let e = string_end(b, i + 1)?;
                out.push(Tok { k: K::Lit, s: i, e });
                i = e;
            }
            b'\'' => match char_end(src, i) {
                Some(e) => {
                    out.push(Tok { k: K::Lit, s: i, e });
                    i = e;
                }
                None => {
                    // A lifetime or a label.
                    let mut j = i + 1;
                    while j < b.len() && ident_byte(b[j]) {
                        j += 1;
                    }
                    out.push(Tok {
                        k: K::Punct(b'\''),
                        s: i,
                        e: j,
                    });
                    i = j;
                }
            },
            c if c.is_ascii_digit() => {
                let mut j = i;
                while j < b.len() && ident_byte(b[j]) {
                    j += 1;
                }
                out.push(Tok {
                    k: K::Lit,
                    s: i,
                    e: j,
                });
                i = j;
            }
            c if ident_byte(c) => {
                let mut j = i;
                while j < b.len() && ident_byte(b[j]) {
                    j += 1;
                }
                let word = &b[i..j];
                let next = b.get(j).copied();
                match (word, next) {
                    (b"r" | b"br" | b"cr", Some(b'"')) => {
                        let e = raw_string_end(b, j)?;
                        out.push(Tok { k: K::Lit, s: i, e });
                        i = e;
                    }
                    (b"r" | b"br" | b"cr", Some(b'#'))
                        if b.get(j + 1).is_some_and(|c| *c == b'#' || *c == b'"') =>
                    {
                        let e = raw_string_end(b, j)?;
                        out.push(Tok { k: K::Lit, s: i, e });
                        i = e;
                    }
                    (b"r", Some(b'#')) => {
                        // A raw identifier: `r#type`.
                        let mut k = j + 1;
                        while k < b.len() && ident_byte(b[k]) {
                            k += 1;
                        }
                        out.push(Tok {
                            k: K::Ident,
                            s: j + 1,
                            e: k,
                        });
                        i = k;
                    }
                    (b"b" | b"c", Some(b'"')) => {
                        let e = string_end(b, j + 1)?;
                        out.push(Tok { k: K::Lit, s: i, e });
                        i = e;
                    }
                    (b"b", Some(b'\'')) => {
                        let e = char_end(src, j)?;
                        out.push(Tok { k: K::Lit, s: i, e });
                        i = e;
                    }
                    _ => {
                        out.push(Tok {
                            k: K::Ident,
                            s: i,
                            e: j,
                        });
                        i = j;
                    }
                }
            }
            _ => {
                out.push(Tok {
                    k: K::Punct(c),
                    s: i,
                    e: i + 1,
                });
                i += 1;
            }
        }
    }
    Some(Lexed {
        toks: out,
        comments,
        docs,
    })
}
