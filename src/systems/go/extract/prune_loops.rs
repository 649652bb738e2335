//! The loops a pruned body may hold that the loop reader takes
//! ([`retries_at_once`]): a body holding one is kept whatever its words.

use super::string_end;

/// A body that may hold a loop the loop reader takes with no wait and no
/// word of the sniff: a `for` whose error path goes round (`if err != nil
/// { continue }`) or puts the item back on a channel (`queue <- item`),
/// around a call on a client passed in as a parameter (issue 28). The
/// loop reader needs `err != nil` (or a gRPC code test, `codes.X`) on the
/// path that goes round, so a body without either is kept out of nothing
/// the reader would take.
///
/// The reader looks only inside one loop (the `if` that holds the
/// `continue`, `break` or `return` is the loop's own, the send and the
/// `range` too), so each `for` statement of the body is tested alone
/// ([`for_statements`]): an `if err != nil { return err }` before a loop
/// that walks a list with `continue` keeps nothing (istio 86c9f01: 194 KB
/// of bodies were kept by the words spread over the whole body). Any
/// doubt about where a loop ends tests the whole body, as before.
pub(super) fn retries_at_once(body: &[u8]) -> bool {
    if !retries_at_once_in(body) {
        return false;
    }
    match for_statements(body) {
        Some(loops) => loops
            .into_iter()
            .filter(|r| !walks_pairs(&body[r.clone()]))
            .any(|r| retries_at_once_in(&body[r])),
        None => true,
    }
}

/// [`retries_at_once`]'s words, anywhere in `b`. The keywords are whole
/// words (`for`, not the `for` of `format` or `before`), and a channel
/// send puts an item back only in a `range` loop (`requeues`).
fn retries_at_once_in(b: &[u8]) -> bool {
    let has = |w: &[u8]| memchr::memmem::find(b, w).is_some();
    has_word(b, b"for")
        && (((has(b"err != nil") || has(b"codes."))
            && (has_word(b, b"continue") || (has(b"<-") && has_word(b, b"range"))))
            // `for i := range 3 { if err == nil { break } }` or a counted
            // loop returning under `if err == nil || ..`: an error falls
            // through to the next pass (the loop reader's
            // `leaves_on_success`).
            || (has(b"err == nil") && (has_word(b, b"break") || has_word(b, b"return"))))
}

/// Each `for` statement of a function body: from its keyword to the brace
/// that closes its block. A `{` after the keyword at the keyword's own
/// depth opens either the block or a composite literal of the header
/// (`range []string{"a", "b"} {`): it is the block when what follows its
/// closing brace ends a statement (a newline, `;`, `}`, a comment or the
/// end), which a literal of a header never is. `None` on any doubt (a
/// keyword whose block is not found, anything unbalanced or unterminated).
pub(super) fn for_statements(b: &[u8]) -> Option<Vec<std::ops::Range<usize>>> {
    let mut out = Vec::new();
    // The `for` keywords whose block is not found yet: where each starts
    // and the brace and paren depth it was written at.
    let mut pending: Vec<(usize, usize, usize)> = Vec::new();
    // Each open brace: whether the innermost pending keyword may own it
    // (it opened at that keyword's depth).
    let mut braces: Vec<bool> = Vec::new();
    let mut parens = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += memchr::memmem::find(&b[i + 2..], b"*/")? + 4;
                continue;
            }
            b'"' | b'`' | b'\'' => {
                i = string_end(b, i)?;
                continue;
            }
            b'(' | b'[' => parens += 1,
            b')' | b']' => parens = parens.checked_sub(1)?,
            b'{' => {
                let owned = pending
                    .last()
                    .is_some_and(|&(_, d, p)| d == braces.len() && p == parens);
                braces.push(owned);
            }
            b'}' => {
                let owned = braces.pop()?;
                if owned && ends_statement(b, i + 1)? {
                    let (start, ..) = pending.pop()?;
                    out.push(start..i + 1);
                } else if pending.last().is_some_and(|&(_, d, _)| d > braces.len()) {
                    // The block around a keyword closed before its own.
                    return None;
                }
            }
            _ if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80)
                {
                    i += 1;
                }
                if &b[start..i] == b"for" {
                    pending.push((start, braces.len(), parens));
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    (pending.is_empty() && braces.is_empty() && parens == 0).then_some(out)
}

/// Whether what follows a closing brace at `i` ends a statement: blanks,
/// then a newline, `;`, `}`, a `//` comment, a `/* */` one holding a
/// newline, or the end. `None` for an unterminated comment.
fn ends_statement(b: &[u8], mut i: usize) -> Option<bool> {
    loop {
        match b.get(i) {
            None | Some(b'\n' | b'\r' | b';' | b'}') => return Some(true),
            Some(b' ' | b'\t') => i += 1,
            Some(b'/') if b.get(i + 1) == Some(&b'/') => return Some(true),
            Some(b'/') if b.get(i + 1) == Some(&b'*') => {
                let n = memchr::memmem::find(&b[i + 2..], b"*/")?;
                if memchr::memchr(b'\n', &b[i + 2..i + 2 + n]).is_some() {
                    return Some(true);
                }
                i += n + 4;
            }
            Some(_) => return Some(false),
        }
    }
}

/// Whether `word` occurs in `b` as a whole word (no letter, digit or `_`
/// on either side).
fn has_word(b: &[u8], word: &[u8]) -> bool {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80;
    memchr::memmem::find_iter(b, word).any(|at| {
        let starts = at == 0 || !ident(b[at - 1]);
        let ends = !b.get(at + word.len()).is_some_and(|&c| ident(c));
        starts && ends
    })
}

/// Whether a `for` statement ranges with two names, `for _, r := range
/// rules {` or `for k, v = range m {`: over a slice, an array, a string,
/// a map or a two-value iterator, never an integer or a channel, which
/// give one value at most (the Go specification, "For statements with
/// range clause"). The loop reader takes a `range` loop only as a count
/// (`for range 3`) or as a channel it puts items back on, so such a loop
/// is not one it takes (`loops::extract`), whatever its body says: on
/// envoyproxy/gateway d32f2829 the walks over a route's rules that go on
/// to the next rule on an error (`if err != nil { continue }`) kept most
/// of the bodies parsed. Only two plain names are recognised; anything
/// else is tested as any loop.
fn walks_pairs(stmt: &[u8]) -> bool {
    let mut i = "for".len();
    let blanks = |i: &mut usize| {
        while stmt.get(*i).is_some_and(|c| matches!(c, b' ' | b'\t')) {
            *i += 1;
        }
    };
    let name = |i: &mut usize| {
        let start = *i;
        while stmt
            .get(*i)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80)
        {
            *i += 1;
        }
        *i > start && !stmt[start].is_ascii_digit()
    };
    blanks(&mut i);
    if !name(&mut i) {
        return false;
    }
    blanks(&mut i);
    if stmt.get(i) != Some(&b',') {
        return false;
    }
    i += 1;
    blanks(&mut i);
    if !name(&mut i) {
        return false;
    }
    blanks(&mut i);
    if stmt[i..].starts_with(b":=") {
        i += 2;
    } else if stmt.get(i) == Some(&b'=') {
        i += 1;
    } else {
        return false;
    }
    blanks(&mut i);
    stmt[i..].starts_with(b"range")
        && !stmt
            .get(i + "range".len())
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80)
}
