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

#[path = "prune_words.rs"]
mod body_words;
use body_words::*;
#[path = "prune_imports.rs"]
mod imports;
use imports::{import_declaration, join_blank_gaps};

/// Words that keep a body: a reader may look inside. Matched in the code
/// only (comments and the insides of literals blanked); a string literal
/// keeps a body when the URL-literal reader takes it as a call target
/// (`extract::calls::target`: URLs, placeholders, setting and registry
/// lookups, gRPC channels), and the sniff's `methodConfig` (a gRPC
/// service config written as a string) is matched in the raw text.
const KEEP: &[&str] = &[
    // AWS SDK for Java 2.x clients built in a method (`aws_sdk`).
    "Client.builder(",
    "Client.create(",
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
    // A local process (`loops::reach`): a loop running one is local work.
    "ProcessBuilder",
    ".waitFor(",
    // A wait on a condition another thread signals (`loops/helpers.rs`
    // `summary`: a catch's `waitUntilConnected()` waits through it).
    "awaitUntil(",
    "awaitNanos(",
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
    // Or a sealed target (`sealedSegments.add(segment)`).
    "ealed",
    // A helper that waits for a state through another
    // (`waitUntilConnected()` calling `waitForKeeperState(..)`).
    "waitUntil",
    "waitFor",
    // A helper that throws through another (`throwWithSuppressed(e)`
    // calling `sneakyThrow(e)`), and one that answers a value read from
    // the clock (`calcRemainingTime(..)`): a loop's deadline test may call
    // it (apache/ignite-3, twenty-sixth pass).
    "hrow",
    "currentTimeMillis",
    "nanoTime",
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

/// A member body the lexer found: its header (from after the previous
/// `;`, `{` or `}` to its `{`), its inside (braces excluded) and the name
/// of the type it is declared in.
pub(super) struct Member {
    pub header: std::ops::Range<usize>,
    pub body: std::ops::Range<usize>,
    /// Index into [`Lexed::types`].
    owner: usize,
}

/// What one pass of the lexer finds in a file.
pub(super) struct Lexed<'a> {
    /// Member bodies in the order they close (an inner one before the
    /// member holding it).
    pub members: Vec<Member>,
    /// The type names members are declared in.
    types: Vec<String>,
    /// The field names the file's type bodies declare.
    fields: Vec<&'a str>,
    /// The file with its comments and the insides of its string, text
    /// block and character literals turned to spaces (same offsets).
    code: String,
    /// The string literals and text blocks, from their opening quote to
    /// after their closing one, in order.
    strings: Vec<std::ops::Range<usize>>,
    /// The comments outside member bodies (a licence, javadoc, between
    /// members) with whitespace on both sides, in order.
    comments: Vec<std::ops::Range<usize>>,
    /// The `import` declarations, from `import` through `;`, in order;
    /// `None` when one holds anything but names, dots, `*` and
    /// whitespace (a comment, a non-ASCII name): then they are parsed.
    imports: Option<Vec<std::ops::Range<usize>>>,
}

/// What the URL-literal reader takes from a file's string literals
/// (`extract::calls`, the same lexing [`super::extract_with`] hands it).
pub(super) struct Targets {
    /// Where each literal the call lexer found starts, in order.
    lits: Vec<usize>,
    /// Where each one that is a call target starts, in order.
    targets: Vec<usize>,
}

impl Targets {
    pub fn new(src: &str, lits: &[crate::extract::calls::lex::Lit]) -> Targets {
        use crate::extract::calls::{Target, target};
        Targets {
            lits: lits.iter().map(|l| l.span.start).collect(),
            targets: lits
                .iter()
                .filter(|l| target(src, l) != Target::None)
                .map(|l| l.span.start)
                .collect(),
        }
    }

    /// Whether a string literal in `body` is read as a call target: one
    /// the call lexer takes as a target, or one holding `://` it did not
    /// see (the reader then reads the URL itself).
    fn in_body(&self, body: &std::ops::Range<usize>, lexed: &Lexed<'_>, src: &str) -> bool {
        let first = self.targets.partition_point(|&t| t < body.start);
        if self.targets.get(first).is_some_and(|&t| t < body.end) {
            return true;
        }
        let from = lexed.strings.partition_point(|s| s.start < body.start);
        lexed.strings[from..]
            .iter()
            .take_while(|s| s.end <= body.end)
            .any(|s| {
                memmem::find(&src.as_bytes()[s.clone()], b"://").is_some()
                    && self.lits.binary_search(&s.start).is_err()
            })
    }
}

/// Byte ranges (insides of member bodies, braces excluded) to leave out of
/// the parse, in order and not nested.
pub fn skippable(src: &str) -> Vec<std::ops::Range<usize>> {
    let lits = crate::extract::calls::lex::lex(src, crate::extract::calls::lex::Lang::Java).lits;
    skippable_with(src, &Targets::new(src, &lits))
}

/// What the parse leaves out: the bodies [`skippable`] finds and the
/// comments outside member bodies (no reader reads a comment node: `Ctx`
/// and `ast::descendants` pass over them), in order and not nested.
pub(super) fn left_out(src: &str, targets: &Targets) -> Vec<std::ops::Range<usize>> {
    left_out_and_imports(src, targets, false).0
}

/// [`left_out`], and with `imports` also the `import` declarations, which
/// then come back as the spans `Ctx` reads them from (`None`: they are
/// parsed as before). Only `Ctx::new` reads an import's node, for its
/// text: the lexer's span of it is the node's.
pub(super) fn left_out_and_imports(
    src: &str,
    targets: &Targets,
    imports: bool,
) -> (
    Vec<std::ops::Range<usize>>,
    Option<Vec<std::ops::Range<usize>>>,
) {
    let Some(lexed) = lex(src) else {
        return (Vec::new(), None);
    };
    let bodies = skip_bodies(src, &lexed, targets);
    let imports = lexed.imports.filter(|_| imports);
    // Apart from each other: an import is in no body and holds no comment
    // (the lexer's); a comment of a local class inside a skipped body is
    // left out with the body (kept apart, its range inside the body's
    // made the included ranges run backwards: the body's end was parsed).
    let comments: Vec<std::ops::Range<usize>> = lexed
        .comments
        .into_iter()
        .filter(|c| {
            let k = bodies.partition_point(|r| r.end <= c.start);
            bodies.get(k).is_none_or(|r| c.end <= r.start)
        })
        .collect();
    let mut out = bodies;
    out.extend(comments);
    out.extend(imports.iter().flatten().cloned());
    out.sort_unstable_by_key(|r| r.start);
    let out = join_blank_gaps(src, out);
    (out, imports)
}

/// [`skippable`] with the call lexer's literals at hand.
pub(super) fn skippable_with(src: &str, targets: &Targets) -> Vec<std::ops::Range<usize>> {
    match lex(src) {
        Some(lexed) => skip_bodies(src, &lexed, targets),
        None => Vec::new(),
    }
}

fn skip_bodies(src: &str, lexed: &Lexed<'_>, targets: &Targets) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    let mut referenced: Option<std::collections::HashSet<&str>> = None;
    for m in &lexed.members {
        if keep(src, m, lexed, targets, &mut referenced).is_none() {
            // Inner ranges (a local class's methods) are inside it.
            while out.last().is_some_and(|r| r.start >= m.body.start) {
                out.pop();
            }
            out.push(m.body.clone());
        }
    }
    // A body that assigns a field keeps it: readers follow a field's value
    // only while nothing but its initializer sets it, and a helper a kept
    // loop calls may be what writes it.
    let fields = FieldWrites::new(&lexed.fields);
    out.retain(|r| !fields.in_body(&lexed.code, r));
    out
}

/// Why member `m` is kept (`None`: it may be skipped, unless it assigns a
/// field: [`skippable`]'s last step). `referenced` is the file's method
/// references, found on first need.
pub(super) fn keep<'a>(
    src: &'a str,
    m: &Member,
    lexed: &Lexed<'_>,
    targets: &Targets,
    referenced: &mut Option<std::collections::HashSet<&'a str>>,
) -> Option<Keep> {
    if m.body.is_empty() {
        return Some(Keep::Empty);
    }
    if targets.in_body(&m.body, lexed, src) {
        return Some(Keep::CallTarget);
    }
    keep_member(
        &src[m.header.start..m.body.start - 1],
        &src[m.body.clone()],
        &lexed.code[m.body.clone()],
        &lexed.types[m.owner],
        || referenced.get_or_insert_with(|| method_references(src)),
    )
}

/// The lexer: member bodies, type names and field names, or `None` on any
/// doubt (an unbalanced brace, an unterminated string or comment).
pub(super) fn lex(src: &str) -> Option<Lexed<'_>> {
    let b = src.as_bytes();
    let mut members: Vec<Member> = Vec::new();
    let mut types: Vec<String> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    // Where the current member's header starts: after the last `;`, `{` or
    // `}` at this depth.
    let mut header_start = 0usize;
    let mut parens = 0usize;
    let mut fields: Vec<&str> = Vec::new();
    let mut code = b.to_vec();
    let mut strings: Vec<std::ops::Range<usize>> = Vec::new();
    let mut comments: Vec<std::ops::Range<usize>> = Vec::new();
    let mut imports: Option<Vec<std::ops::Range<usize>>> = Some(Vec::new());
    // The bytes the loop below acts on; a run of others is passed over in
    // a tight loop (most of a file: names, blanks, operators).
    const SPECIAL: [bool; 256] = {
        let mut t = [false; 256];
        let mut k = 0;
        while k < 8 {
            t[b"/\"'(){};"[k] as usize] = true;
            k += 1;
        }
        t
    };
    let mut i = 0usize;
    while i < b.len() {
        if !SPECIAL[usize::from(b[i])] {
            i += 1;
            while i < b.len() && !SPECIAL[usize::from(b[i])] {
                i += 1;
            }
            continue;
        }
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') || b.get(i + 1) == Some(&b'*') => {
                let end = if b[i + 1] == b'/' {
                    memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |j| i + j)
                } else {
                    i + 2 + memmem::find(&b[i + 2..], b"*/")? + 2
                };
                code[i..end].fill(b' ');
                // Left out of the parse where no token can join across
                // it and no member body holds it.
                if stack.last().is_none_or(|o| o.kind == Brace::Type)
                    && (i == 0 || b[i - 1].is_ascii_whitespace())
                    && b.get(end).is_none_or(u8::is_ascii_whitespace)
                {
                    comments.push(i..end);
                }
                i = end;
                continue;
            }
            b'"' if b[i..].starts_with(b"\"\"\"") => {
                let mut j = i + 3;
                loop {
                    match b.get(j) {
                        None => return None,
                        Some(b'\\') => j += 2,
                        Some(b'"') if b[j..].starts_with(b"\"\"\"") => break,
                        Some(_) => j += 1,
                    }
                }
                code[i + 3..j].fill(b' ');
                strings.push(i..j + 3);
                i = j + 3;
                continue;
            }
            b'"' | b'\'' => {
                let q = b[i];
                let mut j = i + 1;
                loop {
                    match b.get(j) {
                        None | Some(b'\n') => return None,
                        Some(b'\\') => j += 2,
                        Some(c) if *c == q => break,
                        Some(_) => j += 1,
                    }
                }
                code[i + 1..j].fill(b' ');
                if q == b'"' {
                    strings.push(i..j + 1);
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
                let open = stack.pop()?;
                parens = open.parens;
                if open.kind == Brace::Member {
                    // A member's parent is a type body (`classify`).
                    let owner = stack.last().map_or("", |t| t.name.as_str());
                    if types.last().is_none_or(|t| t != owner) {
                        types.push(owner.to_string());
                    }
                    members.push(Member {
                        header: open.header..open.body,
                        body: open.body..i,
                        owner: types.len() - 1,
                    });
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
                } else if stack.is_empty() {
                    import_declaration(b, &code, header_start..i, &mut imports);
                }
                header_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if !stack.is_empty() {
        return None;
    }
    Some(Lexed {
        members,
        types,
        fields,
        // Only ASCII-delimited runs were blanked whole.
        code: String::from_utf8(code).ok()?,
        strings,
        comments,
        imports,
    })
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

/// The runs of alphanumeric characters, `_`, `$` and `@` in `s`: byte by
/// byte, a character decoded only where a byte is not ASCII (what
/// splitting on characters gave, at a fraction of the cost).
fn words(s: &str) -> impl Iterator<Item = &str> {
    let b = s.as_bytes();
    // Whether the character at `k` is a word's, and its length.
    let at = move |k: usize| -> (bool, usize) {
        let c = b[k];
        if c.is_ascii() {
            (
                c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'@'),
                1,
            )
        } else {
            s[k..]
                .chars()
                .next()
                .map_or((false, 1), |ch| (ch.is_alphanumeric(), ch.len_utf8()))
        }
    };
    let mut k = 0usize;
    std::iter::from_fn(move || {
        while k < b.len() {
            let (w, l) = at(k);
            if w {
                break;
            }
            k += l;
        }
        if k >= b.len() {
            return None;
        }
        let start = k;
        while k < b.len() {
            let (w, l) = at(k);
            if !w {
                break;
            }
            k += l;
        }
        Some(&s[start..k])
    })
}

fn classify(header: &str, parent: Option<Brace>) -> (Brace, String) {
    // Outside a type body a brace opens a type or nothing (a member's
    // parent is a type body). Most of them (`if`, `for`, `try` blocks)
    // name no type: told from the header's own words, without copying
    // it. `top_level` only takes bytes away, and only a comment taken
    // away (a `/`) can join two words into one.
    if parent != Some(Brace::Type)
        && !header.contains('/')
        && !words(header)
            .any(|w| matches!(w, "class" | "interface" | "enum" | "record" | "@interface"))
    {
        return (Brace::Other, String::new());
    }
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

/// Why a member body is kept.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Keep {
    /// `{}`: nothing to leave out.
    Empty,
    /// A string literal the URL-literal reader takes as a call target.
    CallTarget,
    /// A keep word (the first found) in the body's code.
    Word(&'static str),
    /// A `try` beside a loop keyword.
    TryInLoop,
    /// A call through a timeout name.
    CallsTimeout,
    /// A write through `this.`.
    WritesThis,
    /// A short helper a retry loop's catch may call.
    Helper,
    /// An annotation other than `@Override`.
    Annotated,
    /// A header the name cannot be read from, or a constructor.
    Constructor,
    /// A `::name` method reference names it.
    Referenced,
}

/// `body` is the raw text, `code` the same with comments and the insides
/// of literals blanked.
fn keep_member<'r>(
    header: &str,
    body: &str,
    code: &str,
    owner: &str,
    referenced: impl FnOnce() -> &'r std::collections::HashSet<&'r str>,
) -> Option<Keep> {
    static KEPT: std::sync::LazyLock<(aho_corasick::AhoCorasick, Vec<&'static str>)> =
        std::sync::LazyLock::new(|| {
            let words: Vec<&'static str> = super::SNIFF.iter().chain(KEEP).copied().collect();
            let ac = aho_corasick::AhoCorasick::builder()
                .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                .build(&words)
                .expect("a few short literal needles always build");
            (ac, words)
        });
    if let Some(m) = KEPT.0.find(code.as_bytes()) {
        return Some(Keep::Word(KEPT.1[m.pattern().as_usize()]));
    }
    static METHOD_CONFIG: Word = Word::new("methodConfig");
    if METHOD_CONFIG.in_(body.as_bytes()).next().is_some() {
        return Some(Keep::Word("methodConfig"));
    }
    if try_in_loop(code.as_bytes()) {
        return Some(Keep::TryInLoop);
    }
    if calls_timeout(code) {
        return Some(Keep::CallsTimeout);
    }
    if writes_through_this(code) {
        return Some(Keep::WritesThis);
    }
    // A short helper that throws, sleeps or ends the process: a retry
    // loop of the class may call it from a catch (its wait or its exit,
    // `loops/helpers.rs`). Short bodies cost little to parse.
    static SHORT: std::sync::LazyLock<crate::extract::Needles> =
        std::sync::LazyLock::new(|| crate::extract::Needles::new(HELPER_WORDS.iter().copied()));
    if body.len() <= HELPER_MAX
        && (SHORT.any_in(body.as_bytes()) || state_test(body) || state_test(code))
    {
        return Some(Keep::Helper);
    }
    let (top, _) = top_level(header);
    // Annotations other than @Override keep the method.
    if words(&top).any(|w| w.starts_with('@') && w != "@Override") {
        return Some(Keep::Annotated);
    }
    // The name: the word before the parameter list.
    let Some(name) = top.rfind('(').and_then(|paren| words(&top[..paren]).last()) else {
        return Some(Keep::Constructor);
    };
    // A constructor is named after its type.
    if owner == name {
        return Some(Keep::Constructor);
    }
    // A method reference may hand it to a retry.
    referenced().contains(name).then_some(Keep::Referenced)
}

/// The parser's included ranges: everything but `skip` (shared with the
/// Go reader).
pub use crate::extract::tree_sitter::included;

#[cfg(test)]
#[path = "prune_tests.rs"]
mod tests;
