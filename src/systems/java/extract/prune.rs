//! Method bodies no Java reader needs, found before parsing so that the
//! parser skips them (tree-sitter's included ranges): in a file with one
//! retry among thirty methods, most of the parse was for the other
//! twenty-nine.
//!
//! A small lexer (comments, strings, text blocks, character literals)
//! matches braces and classifies each `{`: a type body (its header names
//! `class`, `interface`, `enum` or `record`), a member body (directly in a
//! type body, its header ends with a parameter list, optionally followed
//! by `throws ..`, and has no `=` outside parentheses), or anything else.
//! A member body is skipped only when nothing in it or on it can matter:
//!
//! - its text holds none of the words any reader looks for (the file
//!   sniff's words, `://`, random-id words, ...), no `try` statement
//!   beside a loop keyword (the keyword, not `try` inside `entry` or
//!   `registry`; a retry loop's `try` is in the loop's own body), no call
//!   through a name with `timeout` in it (`.timeout(..)`,
//!   `setConnectTimeout(..)`, `Timeout.of(..)`; a variable holding a
//!   timeout is not enough) and no write through `this.` (`this.x = ..`,
//!   `this.x++`: a value [`Ctx::value_of`](super::Ctx::value_of) may
//!   take), and it is not a short helper that throws, sleeps or ends the
//!   process (a retry loop's catch may call it);
//! - its method carries no annotation but `@Override` (a retry annotation,
//!   a project's own one, or anything else keeps it);
//! - it is not a constructor (field values are assigned there);
//! - no `::name` method reference in the file names it (a retry may run it).
//!
//! Everything else is parsed as before, and a test checks that the facts
//! of every Java fixture and corpus file are the same with and without
//! pruning. Any doubt (an unbalanced brace, an unterminated string) prunes
//! nothing.

use memchr::memmem;

/// Words that keep a body: a reader may look inside.
const KEEP: &[&str] = &[
    "://",
    // AWS SDK for Java 2.x clients built in a method (`aws_sdk`).
    "Client.builder(",
    "Client.create(",
    // Call targets the URL-literal reader asks `extract::calls` about:
    // placeholders, setting lookups, registry lookups, gRPC channels.
    "\"${",
    "getenv(",
    "getProperty(",
    "getInstances(",
    "choose(",
    "forAddress(",
    "forTarget(",
    "Ulid",
    "ULID",
    "Random",
    "random",
    "NanoId",
    "ObjectId",
    "Ksuid",
    "Feign",
    "ircuitBreaker",
    "Limiter",
    "Decorators",
    "Duration",
];

/// Words of a helper a retry loop's catch may call (it throws, sleeps,
/// ends the process or records a failed node), kept when its body is at most [`HELPER_MAX`] bytes.
/// A short helper reading an attempt limit (`willReconnect()` returning
/// `0 != reconnectAttemptLimit()`) bounds a loop that calls it.
const HELPER_WORDS: &[&str] = &[
    "throw ",
    "sleep",
    "exit(",
    "halt(",
    "terminate(",
    "Attempt",
    "attempt",
    // A helper that records a failed node or location (failover).
    "ailed",
    "xclude",
    "Dead",
    "dead",
];
const HELPER_MAX: usize = 600;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Brace {
    Type,
    Member,
    Other,
}

struct Open {
    kind: Brace,
    /// After the `{`.
    body: usize,
    /// Where its header starts.
    header: usize,
    /// A type body's name.
    name: String,
    /// Opened inside parentheses (an annotation's `{..}` array): its
    /// closing does not end a header.
    in_parens: bool,
    /// The parenthesis depth outside it.
    parens: usize,
}

/// Byte ranges (insides of member bodies, braces excluded) to leave out of
/// the parse, in order and not nested.
pub fn skippable(src: &str) -> Vec<std::ops::Range<usize>> {
    let b = src.as_bytes();
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    // Where the current member's header starts: after the last `;`, `{` or
    // `}` at this depth.
    let mut header_start = 0usize;
    let mut parens = 0usize;
    let mut fields: Vec<&str> = Vec::new();
    let mut referenced: Option<std::collections::HashSet<&str>> = None;
    let mut i = 0usize;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |j| i + j);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                match memmem::find(&b[i + 2..], b"*/") {
                    Some(j) => i += 2 + j + 2,
                    None => return Vec::new(),
                }
                continue;
            }
            b'"' if b[i..].starts_with(b"\"\"\"") => {
                let mut j = i + 3;
                loop {
                    match b.get(j) {
                        None => return Vec::new(),
                        Some(b'\\') => j += 2,
                        Some(b'"') if b[j..].starts_with(b"\"\"\"") => break,
                        Some(_) => j += 1,
                    }
                }
                i = j + 3;
                continue;
            }
            b'"' | b'\'' => {
                let q = b[i];
                let mut j = i + 1;
                loop {
                    match b.get(j) {
                        None | Some(b'\n') => return Vec::new(),
                        Some(b'\\') => j += 2,
                        Some(c) if *c == q => break,
                        Some(_) => j += 1,
                    }
                }
                i = j + 1;
                continue;
            }
            b'(' => parens += 1,
            b')' => parens = parens.saturating_sub(1),
            b'{' => {
                let in_parens = parens > 0;
                let parent = stack.last().map(|s| s.kind);
                let (kind, name) = if in_parens {
                    (Brace::Other, String::new())
                } else {
                    classify(&src[header_start..i], parent)
                };
                stack.push(Open {
                    kind,
                    body: i + 1,
                    header: header_start,
                    name,
                    in_parens,
                    parens,
                });
                parens = 0;
                if !in_parens {
                    header_start = i + 1;
                }
            }
            b'}' => {
                let Some(open) = stack.pop() else {
                    return Vec::new();
                };
                parens = open.parens;
                if open.kind == Brace::Member
                    && open.body < i
                    && skippable_member(
                        &src[open.header..open.body - 1],
                        &src[open.body..i],
                        &stack,
                        referenced.get_or_insert_with(|| method_references(src)),
                    )
                {
                    // Inner ranges (a local class's methods) are inside it.
                    while out.last().is_some_and(|r| r.start >= open.body) {
                        out.pop();
                    }
                    out.push(open.body..i);
                }
                if !open.in_parens {
                    header_start = i + 1;
                }
            }
            b';' if parens == 0 => {
                // A field of a type body: its name, for the bodies that
                // assign it (a value a reader may follow).
                if stack.last().is_some_and(|o| o.kind == Brace::Type) {
                    field_names(&src[header_start..i], &mut fields);
                }
                header_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if !stack.is_empty() {
        return Vec::new();
    }
    // A body that assigns a field keeps it: readers follow a field's value
    // only while nothing but its initializer sets it.
    let fields: std::collections::HashSet<&str> = fields.into_iter().collect();
    out.retain(|r| !assigns_any(&src[r.clone()], &fields));
    out
}

/// The names a field declaration header declares (`int a = 1, b;`).
fn field_names<'a>(header: &'a str, out: &mut Vec<&'a str>) {
    let (top, _) = top_level(header);
    if top.trim_end().ends_with(')') {
        // An abstract or interface method.
        return;
    }
    // Each declarator: the word before `=`, `,` or the end, at depth 0.
    let mut depth = 0i32;
    let mut last_word: Option<(usize, usize)> = None;
    let mut in_init = false;
    let b = header.as_bytes();
    let mut k = 0;
    while k < b.len() {
        let c = b[k];
        match c {
            b'(' | b'<' | b'[' | b'{' => depth += 1,
            b')' | b'>' | b']' | b'}' => depth -= 1,
            b'=' if depth == 0 && !in_init => {
                if let Some((s, e)) = last_word.take() {
                    out.push(&header[s..e]);
                }
                in_init = true;
            }
            b',' if depth == 0 => {
                if !in_init && let Some((s, e)) = last_word.take() {
                    out.push(&header[s..e]);
                }
                in_init = false;
            }
            c if (c.is_ascii_alphanumeric() || c == b'_' || c == b'$') && !in_init => {
                let s = k;
                while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b'_' || b[k] == b'$')
                {
                    k += 1;
                }
                if depth == 0 {
                    last_word = Some((s, k));
                }
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    if !in_init && let Some((s, e)) = last_word {
        out.push(&header[s..e]);
    }
}

/// Whether `body` assigns, increments or decrements one of `names`: one
/// pass over its words.
fn assigns_any(body: &str, names: &std::collections::HashSet<&str>) -> bool {
    if names.is_empty() {
        return false;
    }
    let b = body.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    // The first bytes and lengths of the names: most words of a body
    // are no field, told without hashing them.
    let mut first = [false; 256];
    let mut lens = 0u64;
    let mut long = false;
    for n in names {
        if let Some(&c) = n.as_bytes().first() {
            first[usize::from(c)] = true;
        }
        match n.len() {
            l @ 0..64 => lens |= 1 << l,
            _ => long = true,
        }
    }
    let mut k = 0;
    while k < b.len() {
        if !word(b[k]) || (k > 0 && word(b[k - 1])) {
            k += 1;
            continue;
        }
        let start = k;
        while k < b.len() && word(b[k]) {
            k += 1;
        }
        let len = k - start;
        let may = first[usize::from(b[start])]
            && (if len < 64 {
                lens & (1 << len) != 0
            } else {
                long
            });
        if !may || !names.contains(&body[start..k]) {
            continue;
        }
        let before = body[..start].trim_end();
        if before.ends_with("++") || before.ends_with("--") {
            return true;
        }
        let after = body[k..].trim_start().as_bytes();
        let assigned = match after {
            [b'=', b'=', ..] => false,
            [b'=', ..] => true,
            [b'+', b'+', ..] | [b'-', b'-', ..] => true,
            [
                b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^',
                b'=',
                ..,
            ] => true,
            [b'<', b'<', b'=', ..] | [b'>', b'>', b'=', ..] => true,
            _ => false,
        };
        if assigned {
            return true;
        }
    }
    false
}

/// Words of a header outside parentheses and angle brackets, comments
/// removed. Byte by byte: every byte it tests is ASCII, so what it copies
/// is whole characters (a header holds a type's javadoc: most of its
/// bytes are a comment, skipped in one step).
fn top_level(header: &str) -> (String, bool) {
    let b = header.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len().min(256));
    let mut depth = 0i32;
    let mut eq = false;
    let mut k = 0usize;
    while k < b.len() {
        let c = b[k];
        match c {
            b'/' if b.get(k + 1) == Some(&b'/') => {
                // To the line break (kept, read as any other byte).
                k = memchr::memchr(b'\n', &b[k..]).map_or(b.len(), |j| k + j);
                continue;
            }
            b'/' if b.get(k + 1) == Some(&b'*') => {
                k = memmem::find(&b[k + 2..], b"*/").map_or(b.len(), |e| k + 2 + e + 2);
                continue;
            }
            b'(' | b'<' => {
                depth += 1;
                if depth == 1 {
                    out.push(c);
                }
            }
            b')' | b'>' => {
                depth -= 1;
                if depth == 0 {
                    out.push(c);
                }
            }
            b'=' if depth == 0 => {
                eq = true;
                out.push(c);
            }
            _ if depth == 0 => out.push(c),
            _ => {}
        }
        k += 1;
    }
    (String::from_utf8_lossy(&out).into_owned(), eq)
}

fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '@'))
        .filter(|w| !w.is_empty())
}

fn classify(header: &str, parent: Option<Brace>) -> (Brace, String) {
    let (top, eq) = top_level(header);
    let mut ws = words(&top).peekable();
    while let Some(w) = ws.next() {
        if matches!(w, "class" | "interface" | "enum" | "record" | "@interface") {
            let name = ws.peek().map_or(String::new(), |n| n.to_string());
            return (Brace::Type, name);
        }
    }
    let trimmed = top.trim_end();
    // `) {` or `) throws A, B {`
    let ends_with_params = trimmed.ends_with(')')
        || trimmed
            .rfind(')')
            .is_some_and(|p| words(&trimmed[p + 1..]).next() == Some("throws"));
    if parent == Some(Brace::Type) && ends_with_params && !eq && !top.contains("->") {
        (Brace::Member, String::new())
    } else {
        (Brace::Other, String::new())
    }
}

fn skippable_member(
    header: &str,
    body: &str,
    stack: &[Open],
    referenced: &std::collections::HashSet<&str>,
) -> bool {
    static KEPT: std::sync::LazyLock<crate::extract::Needles> = std::sync::LazyLock::new(|| {
        crate::extract::Needles::new(super::SNIFF.iter().chain(KEEP).copied())
    });
    if KEPT.any_in(body.as_bytes())
        || (has_word(body, "try") && LOOP_WORDS.iter().any(|w| has_word(body, w)))
        || calls_timeout(body)
        || writes_through_this(body)
    {
        return false;
    }
    // A short helper that throws, sleeps or ends the process: a retry
    // loop of the class may call it from a catch (its wait or its exit,
    // `loops/helpers.rs`). Short bodies cost little to parse.
    static SHORT: std::sync::LazyLock<crate::extract::Needles> =
        std::sync::LazyLock::new(|| crate::extract::Needles::new(HELPER_WORDS.iter().copied()));
    if body.len() <= HELPER_MAX && (SHORT.any_in(body.as_bytes()) || state_test(body)) {
        return false;
    }
    let (top, _) = top_level(header);
    // Annotations other than @Override keep the method.
    if words(&top).any(|w| w.starts_with('@') && w != "@Override") {
        return false;
    }
    // The name: the word before the parameter list.
    let Some(paren) = top.rfind('(') else {
        return false;
    };
    let Some(name) = words(&top[..paren]).last() else {
        return false;
    };
    // A constructor is named after its type.
    if stack.last().is_some_and(|t| t.name == name) {
        return false;
    }
    // A method reference may hand it to a retry.
    !referenced.contains(name)
}

/// A body that is one `return` of a comparison (`return done == total;`):
/// a loop that leaves when it holds waits for a state (`loops/helpers.rs`
/// `tests_state`).
fn state_test(body: &str) -> bool {
    let t = body.trim();
    t.starts_with("return ")
        && t.find(';') == Some(t.len() - 1)
        && ["==", "!=", ">=", "<=", " < ", " > "]
            .iter()
            .any(|op| t.contains(op))
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// The keywords of a loop. A `try` keeps a body only beside one of them:
/// the try statements a reader looks at are those of a hand-written
/// retry loop (`loops`: a `try` in the loop's own body); a try elsewhere
/// starts no reader.
const LOOP_WORDS: &[&str] = &["for", "while", "do"];

/// Whether `body` holds `word` as a whole word (the keyword `try`, not
/// `try` inside `entry`, `registry` or `tryLock`; `retry` is a sniff
/// word and keeps a body by itself).
fn has_word(body: &str, word: &str) -> bool {
    let b = body.as_bytes();
    memmem::find_iter(b, word.as_bytes()).any(|at| {
        (at == 0 || !is_word(b[at - 1])) && b.get(at + word.len()).is_none_or(|c| !is_word(*c))
    })
}

/// Whether `body` calls something named with `timeout`/`Timeout`
/// (`.timeout(..)`, `setConnectTimeout(..)`, `timeoutDuration(..)`) or
/// reaches through such a name (`Timeout.of(..)`, `Timeout.ofSeconds`):
/// what the readers take a timeout from (`unbounded_clients`' method
/// calls, the builders' chains). A variable or field that only holds a
/// timeout (`sessionTimeout`, `return timeout;`) starts no reader; a body
/// writing a field is kept by the field test.
fn calls_timeout(body: &str) -> bool {
    let b = body.as_bytes();
    // `sets_timeout` reads names case-insensitively.
    ["timeout", "Timeout", "TIMEOUT", "TimeOut", "timeOut"]
        .iter()
        .any(|w| {
            memmem::find_iter(b, w.as_bytes()).any(|at| {
                let end = at
                    + w.len()
                    + b[at + w.len()..]
                        .iter()
                        .take_while(|c| is_word(**c))
                        .count();
                matches!(
                    body[end..].trim_start().as_bytes().first(),
                    Some(b'(' | b'.' | b'<')
                )
            })
        })
}

/// Whether `body` writes a name through `this.` (`this.x = ..`,
/// `this.x += ..`, `this.x++`, `--this.x`): what `Ctx` records as a
/// field's value or write, also for a field the file does not declare
/// (inherited), which [`assigns_any`] cannot know. A read of `this.x`
/// starts no reader.
fn writes_through_this(body: &str) -> bool {
    let b = body.as_bytes();
    memmem::find_iter(b, b"this.").any(|at| {
        if at > 0 && is_word(b[at - 1]) {
            return false;
        }
        // `this.a` or `this.a.b`: the last name is what is written.
        let mut end = at + 4;
        while b.get(end) == Some(&b'.') {
            let len = b[end + 1..].iter().take_while(|c| is_word(**c)).count();
            if len == 0 {
                break;
            }
            end += 1 + len;
        }
        if end == at + 4 {
            return false;
        }
        let before = body[..at].trim_end();
        if before.ends_with("++") || before.ends_with("--") {
            return true;
        }
        let after = body[end..].trim_start().as_bytes();
        match after {
            [b'=', b'=', ..] => false,
            [b'=', ..] => true,
            [b'+', b'+', ..] | [b'-', b'-', ..] => true,
            [
                b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^',
                b'=',
                ..,
            ] => true,
            [b'<', b'<', b'=', ..] | [b'>', b'>', b'=', ..] | [b'>', b'>', b'>', b'=', ..] => true,
            _ => false,
        }
    })
}

/// The names after `::` anywhere in the file (method references).
fn method_references(src: &str) -> std::collections::HashSet<&str> {
    let b = src.as_bytes();
    memmem::find_iter(b, b"::")
        .filter_map(|at| {
            let start = at + 2;
            let len = b[start..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'$')
                .count();
            (len > 0).then(|| &src[start..start + len])
        })
        .collect()
}

/// The parser's included ranges: everything but `skip` (shared with the
/// Go reader).
pub use crate::extract::tree_sitter::included;

#[cfg(test)]
#[path = "prune_tests.rs"]
mod tests;
