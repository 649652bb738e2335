//! Function bodies no Go reader needs, blanked before parsing (each byte
//! but newlines becomes a space, so every span is unchanged): in a
//! control-plane file with one retry among forty functions, most of the
//! parse and of the walks was for the other thirty-nine.
//!
//! A small lexer (comments, interpreted and raw strings, runes) matches
//! braces and finds each top-level function or method declaration (`func`
//! first on its line at brace depth 0) and its body. A body is blanked
//! only when its text holds none of the words a reader looks for: the
//! file sniff's words ([`super::NEEDLES`]), `Timeout` and
//! `StandardClient` (fields and clients read across functions), and for
//! each package the reader knows, the name the file gives it followed by
//! what the reader asks of it (`retry.`, `grpc.`, `http.Get(`,
//! `time.Sleep`, an alias `t.Sleep` alike).
//!
//! Top-level `type` declarations and runs of comments of at least
//! [`MIN_COMMENTS`] bytes are left out of the parse as well (not blanked:
//! the text stays as written): no Go reader reads a type declaration's
//! nodes (its fields, tags and methods are no call, binding, literal or
//! loop) nor a comment node (the `//go:embed` line is read from the text),
//! and a struct-heavy control-plane file spends a tenth of its parse on
//! them (istio, gateway).
//!
//! What a reader reads across functions is checked after the pruned
//! parse ([`super::extract`]): a retried operation named by its function
//! (`backoff.Retry(fetch, b)`) or a client variable used in a blanked
//! body makes the file parse again whole. Any doubt (an unbalanced brace,
//! an unterminated string or comment, a dot import of a package the
//! reader knows) blanks nothing.

use super::{Pkg, default_name, pkg_of_path};

/// Bytes a body must have before blanking it is worth the copy.
const MIN_BODY: usize = 64;

/// Bytes a run of comments must have before leaving it out of the parse
/// pays: each range left out costs the parser's lexer a walk over the
/// ranges whenever it moves back (`ts_lexer_goto`), and a comment is one
/// cheap token (istio 86c9f01: every run out, -3.2% of the Go parse; runs
/// of 100 bytes or more, -3.5%; of 400 or more, -2.1%).
const MIN_COMMENTS: usize = 100;

/// Words that keep a body whatever the imports (and a timeout set:
/// [`sets_timeout`]).
const KEEP: &[&str] = &["StandardClient"];

/// An import: its alias (a range of the text), its path (inside the
/// quotes).
type Import = (Option<(usize, usize)>, (usize, usize));

/// A function body: the bytes between its braces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Body {
    pub start: usize,
    pub end: usize,
}

/// What a pruned parse reads: the text with the bodies no reader needs
/// blanked (`None`: none is, the text as written), those bodies, and the
/// byte ranges left out of the parse (the bodies, the top-level type
/// declarations and the runs of comments; sorted, apart).
pub struct Pruned {
    pub text: Option<String>,
    pub bodies: Vec<Body>,
    pub skip: Vec<std::ops::Range<usize>>,
}

/// [`Pruned`] for `text`; `None` when nothing is left out (or any doubt,
/// as for [`blanked`]).
pub fn pruned(text: &str) -> Option<Pruned> {
    pruned_keeping(text, &[])
}

/// [`pruned`] with the bodies `kept` (some of the bodies [`pruned`] gave)
/// not blanked either: what a reader read across functions reached them.
pub fn pruned_keeping(text: &str, kept: &[Body]) -> Option<Pruned> {
    let lexed = lex(text.as_bytes())?;
    let words = words(text, &lexed.imports)?;
    let finder = Finder::new(&words);
    let bodies = blankable(text, &lexed)
        .into_iter()
        .filter(|b| !kept.contains(b));
    let (blank, bodies) = match blank(text, &code(text, &lexed), bodies.collect(), |b| {
        finder.any_in(b) || sets_timeout(b) || retries_at_once(b)
    }) {
        Some((t, b)) => (Some(t), b),
        None => (None, Vec::new()),
    };
    let whole = unused(text.as_bytes(), &lexed, &bodies);
    let skip = left_out(text.as_bytes(), &bodies, &whole, &lexed);
    if skip.is_empty() {
        return None;
    }
    Some(Pruned {
        text: blank,
        bodies,
        skip,
    })
}

/// The declarations of blanked `bodies` whose name no other word of the
/// code is (the file never calls them, takes them as a value or declares
/// another function or method of that name): the whole declaration, from
/// its `func` keyword to its closing brace, when a newline (or the end)
/// follows the brace. No reader reads such a declaration's nodes: a
/// blanked body has none, and what the readers look up across functions
/// (a retried operation, a helper storing `os.Getenv`, the functions a
/// retry loop calls) is a function named in the code they read, so its
/// name is used there and its declaration is parsed (the words of every
/// body count, blanked or not, so a body kept on a later round never
/// names a function left out).
fn unused(b: &[u8], lexed: &Lexed, bodies: &[Body]) -> Vec<std::ops::Range<usize>> {
    // Each candidate: its name, and its declaration's range.
    let mut cands: Vec<(&[u8], std::ops::Range<usize>)> = Vec::new();
    // The lengths of the names (below 64 bytes), to pass over most
    // words without a lookup.
    let mut lens = 0u64;
    for body in bodies {
        let Ok(i) = lexed.bodies.binary_search_by_key(&body.start, |x| x.start) else {
            continue;
        };
        let Some(&(start, (ns, ne))) = lexed.decls.get(i) else {
            continue;
        };
        let end = body.end + 1;
        if ne <= ns || ne - ns >= 64 || b.get(end).is_some_and(|&c| c != b'\n') {
            continue;
        }
        lens |= 1 << (ne - ns);
        cands.push((&b[ns..ne], start..end));
    }
    if cands.is_empty() {
        return Vec::new();
    }
    let mut uses: std::collections::HashMap<&[u8], usize> =
        cands.iter().map(|(n, _)| (*n, 0)).collect();
    for &(s, e) in &lexed.idents {
        if e - s < 64
            && lens & (1 << (e - s)) != 0
            && let Some(n) = uses.get_mut(&b[s..e])
        {
            *n += 1;
        }
    }
    cands
        .into_iter()
        .filter(|(n, _)| uses.get(n) == Some(&1))
        .map(|(_, r)| r)
        .collect()
}

/// The ranges a pruned parse leaves out: the blanked `bodies`, the
/// declarations `whole` ([`unused`]), and outside them the top-level
/// type declarations and the runs of comments of at least
/// [`MIN_COMMENTS`] bytes (or of any length before a declaration left
/// out: they merge with it into one range), merged where only blanks
/// part them. A type declaration, a whole declaration or a run of
/// comments ends before a newline (or at the end), so a merged range
/// still leaves the newline that ends its last line, which Go's grammar
/// may need as a terminator.
fn left_out(
    b: &[u8],
    bodies: &[Body],
    whole: &[std::ops::Range<usize>],
    lexed: &Lexed,
) -> Vec<std::ops::Range<usize>> {
    let inside = |at: usize| {
        let i = bodies.partition_point(|x| x.end <= at);
        bodies.get(i).is_some_and(|x| x.start <= at)
    };
    // Whether only blanks part `at` from a declaration left out whole.
    let before_whole = |at: usize| {
        let i = whole.partition_point(|x| x.start < at);
        whole.get(i).is_some_and(|x| is_blank(&b[at..x.start]))
    };
    let long = |r: &std::ops::Range<usize>| r.end - r.start >= MIN_COMMENTS || before_whole(r.end);
    let mut extra: Vec<std::ops::Range<usize>> = lexed.types.clone();
    extra.extend(whole.iter().cloned());
    // Runs of comments parted by blanks only (a comment run crossing a
    // type declaration is inside it and dropped with it below).
    let mut run: Option<std::ops::Range<usize>> = None;
    for &(s, e) in &lexed.comments {
        if inside(s) {
            continue;
        }
        match &mut run {
            Some(r) if is_blank(&b[r.end..s]) => r.end = e,
            _ => {
                if let Some(r) = run.take()
                    && long(&r)
                {
                    extra.push(r);
                }
                run = Some(s..e);
            }
        }
    }
    if let Some(r) = run
        && long(&r)
    {
        extra.push(r);
    }
    let mut all: Vec<(std::ops::Range<usize>, bool)> = bodies
        .iter()
        .map(|x| (x.start..x.end, true))
        .chain(extra.into_iter().map(|r| (r, false)))
        .collect();
    all.sort_by_key(|(r, _)| (r.start, std::cmp::Reverse(r.end)));
    let mut out: Vec<(std::ops::Range<usize>, bool)> = Vec::with_capacity(all.len());
    for (r, body) in all {
        match out.last_mut() {
            // Inside the last one (a comment in a type declaration).
            Some((last, _)) if r.end <= last.end => {}
            // Overlapping, or parted by blanks from a range that ends
            // before a newline.
            Some((last, last_body))
                if r.start < last.end || (!*last_body && is_blank(&b[last.end..r.start])) =>
            {
                last.end = r.end;
                *last_body = body;
            }
            _ => out.push((r, body)),
        }
    }
    out.into_iter().map(|(r, _)| r).collect()
}

/// Whether `b` is only blanks and newlines.
fn is_blank(b: &[u8]) -> bool {
    b.iter().all(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
}

/// The text with the bodies no reader needs blanked, and those bodies;
/// `None` when nothing is blanked.
pub fn blanked(text: &str) -> Option<(String, Vec<Body>)> {
    let lexed = lex(text.as_bytes())?;
    let words = words(text, &lexed.imports)?;
    let finder = Finder::new(&words);
    blank(text, &code(text, &lexed), blankable(text, &lexed), |b| {
        finder.any_in(b) || sets_timeout(b) || retries_at_once(b)
    })
}

/// The text a body's words are looked for in: `text` with its comments
/// blanked (same offsets). No Go reader reads a comment (a comment node,
/// or a comment's words: `// retry on failure` above a call), so a word
/// only a comment holds keeps no body (issue 27: on istio 86c9f01, 24 of
/// the bodies kept in the files that gave no fact, 42 KB, were kept by a
/// comment's `retry`).
fn code<'t>(text: &'t str, lexed: &Lexed) -> std::borrow::Cow<'t, [u8]> {
    if lexed.comments.is_empty() && lexed.long_comments.is_empty() {
        return std::borrow::Cow::Borrowed(text.as_bytes());
    }
    let mut out = text.as_bytes().to_vec();
    for &(s, e) in lexed.comments.iter().chain(&lexed.long_comments) {
        for c in &mut out[s..e] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The bodies that may be blanked: not one that reads the environment,
/// where a package variable every other function reads may be set
/// (`discountsService = ds` after `ds := os.Getenv(..)`,
/// `env_fallback::set_from_env`; 28 of istio's 2,015 Go files read it).
fn blankable(text: &str, lexed: &Lexed) -> Vec<Body> {
    lexed
        .bodies
        .iter()
        .filter(|b| {
            let body = text.get(b.start..b.end).unwrap_or_default();
            !body.contains("os.Getenv(") && !body.contains("os.LookupEnv(")
        })
        .copied()
        .collect()
}

/// [`blanked`] as it was, one automaton over all the words built per
/// file: the tests compare the two.
#[cfg(test)]
pub(super) fn blanked_one_automaton(text: &str) -> Option<(String, Vec<Body>)> {
    let lexed = lex(text.as_bytes())?;
    let words = words(text, &lexed.imports)?;
    let finder = crate::extract::Needles::new(words.iter().map(String::as_str));
    blank(text, &code(text, &lexed), blankable(text, &lexed), |b| {
        finder.any_in(b) || sets_timeout(b) || retries_at_once(b)
    })
}

/// The text with the bodies of at least [`MIN_BODY`] bytes that `keeps`
/// finds no word in blanked.
fn blank(
    text: &str,
    code: &[u8],
    bodies: Vec<Body>,
    keeps: impl Fn(&[u8]) -> bool,
) -> Option<(String, Vec<Body>)> {
    let skip: Vec<Body> = bodies
        .into_iter()
        .filter(|b| b.end - b.start >= MIN_BODY)
        .filter(|b| !keeps(&code[b.start..b.end]))
        .collect();
    if skip.is_empty() {
        return None;
    }
    let mut out = text.as_bytes().to_vec();
    for b in &skip {
        for c in &mut out[b.start..b.end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    }
    // Only ASCII bytes were written, over whole characters (a body is
    // between two ASCII braces).
    let out = String::from_utf8(out).ok()?;
    Some((out, skip))
}

/// A body that sets a timeout a reader may take from another function:
/// a name ending in `Timeout` assigned (`c.Timeout = ..`,
/// `cfg.Net.ReadTimeout = ..`, `c.Timeout, d = ..`) or given as a key
/// (`Timeout: ..`): what the client and library readers read
/// (`FieldSet`s, keyed fields). A timeout only read (`ctx.Timeout()`,
/// `context.WithTimeout(..)`, `time.After(c.Timeout)`) keeps nothing: the
/// readers that test such text (the loop reader's error tests) read only
/// loops kept by other words.
fn sets_timeout(b: &[u8]) -> bool {
    memchr::memmem::find_iter(b, b"Timeout").any(|at| {
        let mut j = at + "Timeout".len();
        while j < b.len() && matches!(b[j], b' ' | b'\t') {
            j += 1;
        }
        match b.get(j) {
            Some(b':' | b',') => true,
            Some(b'=') => b.get(j + 1) != Some(&b'='),
            _ => false,
        }
    })
}

/// The words that keep a body: the fixed ones (the sniff's and [`KEEP`])
/// in an automaton built once, the file's own (a few per import:
/// `http.Get(`, `time.Sleep`, `backoff.`) each by its own substring
/// searcher. An automaton built per file over the own words
/// (Aho-Corasick's noncontiguous NFA) cost ~140,000 instructions to build
/// (callgrind, the generated tree's 556-byte Go clients: more than the
/// rest of the pruner there), and its search steps the NFA byte by byte
/// where each searcher skips with vector compares; a per-file DFA (what
/// [`crate::extract::Needles`] builds for a small set) cost more still
/// (2-3% of a cold scan of Go-heavy trees, perf, istio 86c9f01). A body is
/// kept when any finds a word, which is whether one automaton over all
/// the words finds one.
struct Finder {
    own: Vec<memchr::memmem::Finder<'static>>,
}

impl Finder {
    fn new(words: &[String]) -> Finder {
        // The file's words only: `words` starts with the fixed ones.
        let own = words[super::NEEDLES.len() + KEEP.len()..]
            .iter()
            .map(|w| memchr::memmem::Finder::new(w.as_bytes()).into_owned())
            .collect();
        Finder { own }
    }

    fn any_in(&self, bytes: &[u8]) -> bool {
        static FIXED: std::sync::LazyLock<crate::extract::Needles> =
            std::sync::LazyLock::new(|| {
                crate::extract::Needles::new(super::NEEDLES.iter().chain(KEEP).copied())
            });
        FIXED.any_in(bytes) || self.own.iter().any(|f| f.find(bytes).is_some())
    }
}

/// The words that keep a body in this file, the fixed ones first;
/// `None` to blank nothing.
fn words(text: &str, imports: &[Import]) -> Option<Vec<String>> {
    let mut words: Vec<String> = super::NEEDLES
        .iter()
        .chain(KEEP)
        .map(|w| w.to_string())
        .collect();
    for (alias, path) in imports {
        let path = text.get(path.0..path.1)?;
        let Some(pkg) = pkg_of_path(path) else {
            continue;
        };
        let name = match alias {
            Some((s, e)) => text.get(*s..*e)?,
            None => default_name(path),
        };
        if name == "_" {
            continue;
        }
        if name == "." {
            return None;
        }
        let asks: &[&str] = match pkg {
            Pkg::Http => &[
                ".Get(",
                ".Head(",
                ".Post",
                ".NewRequest",
                ".Client",
                ".DefaultClient",
            ],
            Pkg::Time => &[".Sleep", ".After"],
            Pkg::Fmt | Pkg::Os | Pkg::Rand | Pkg::Strconv | Pkg::Math | Pkg::Uuid => &[],
            _ => &["."],
        };
        words.extend(asks.iter().map(|a| format!("{name}{a}")));
    }
    Some(words)
}

struct Lexed {
    bodies: Vec<Body>,
    /// Each body's declaration, in the same order: where its `func`
    /// keyword is and the function's or method's name (a range of the
    /// text).
    decls: Vec<(usize, (usize, usize))>,
    /// Every word of the code (not of comments or strings): a name's
    /// uses, [`unused`].
    idents: Vec<(usize, usize)>,
    /// Top-level `type` declarations, from the keyword to the end of the
    /// line that ends them (before its newline).
    types: Vec<std::ops::Range<usize>>,
    /// Every comment, a `//` one up to its newline; a `/* */` one holding a
    /// newline is not here (left out, its newline would be lost).
    comments: Vec<(usize, usize)>,
    /// Every `/* */` comment holding a newline (not in `comments`).
    long_comments: Vec<(usize, usize)>,
    /// Each import: its alias (a range of the text), its path (inside the
    /// quotes).
    imports: Vec<Import>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Between declarations.
    Top,
    /// After a line-initial `func` at depth 0: looking for its body's `{`.
    Signature,
    /// After `import`: reading specs (`true` inside `(..)`).
    Import(bool),
}

/// Match braces and find declarations' bodies and the imports. `None` on
/// anything unbalanced or unterminated.
fn lex(b: &[u8]) -> Option<Lexed> {
    let mut out = Lexed {
        bodies: Vec::new(),
        decls: Vec::new(),
        idents: Vec::new(),
        types: Vec::new(),
        comments: Vec::new(),
        long_comments: Vec::new(),
        imports: Vec::new(),
    };
    let mut i = 0;
    // Brace depth; parens and brackets inside a signature.
    let mut depth = 0usize;
    let mut parens = 0usize;
    let mut state = State::Top;
    // Where the body of the declaration being read opened (depth 1).
    let mut body_open: Option<usize> = None;
    // In a signature, a `struct`/`interface` type's braces: their depth.
    let mut type_braces = 0usize;
    let mut line_start = true;
    let mut alias: Option<(usize, usize)> = None;
    let mut last_word: (usize, usize) = (0, 0);
    // The declaration being read: its `func` keyword and name.
    let mut decl: (usize, Option<(usize, usize)>) = (0, None);
    // A top-level type declaration being read: where it starts, and its
    // open parens and brackets (`type ( .. )`, type parameters).
    let mut ty: Option<(usize, usize)> = None;
    while i < b.len() {
        let c = b[i];
        if c == b'\n'
            && depth == 0
            && let Some((start, 0)) = ty
        {
            out.types.push(start..i);
            ty = None;
        }
        match c {
            b'\n' => {
                if state == State::Signature && parens == 0 && type_braces == 0 {
                    // A declaration without a body (or a `func` type).
                    state = State::Top;
                }
                if state == State::Import(false) {
                    state = State::Top;
                }
                line_start = true;
                alias = None;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n);
                out.comments.push((i, end));
                i = end;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let n = memchr::memmem::find(&b[i + 2..], b"*/")?;
                let lines = memchr::memchr(b'\n', &b[i..i + n + 4]).is_some();
                if !lines {
                    out.comments.push((i, i + n + 4));
                } else {
                    out.long_comments.push((i, i + n + 4));
                }
                if lines
                    && depth == 0
                    && let Some((start, 0)) = ty.take()
                {
                    // A comment holding a newline ends the line (Go reads
                    // it as one): the type ends before it.
                    out.types.push(start..i);
                }
                i += n + 4;
                continue;
            }
            b'"' | b'`' | b'\'' => {
                let start = i + 1;
                let end = string_end(b, i)?;
                if matches!(state, State::Import(_)) && c != b'\'' && depth == 0 {
                    out.imports.push((alias.take(), (start, end - 1)));
                }
                i = end;
                line_start = false;
                continue;
            }
            _ => {}
        }
        let first_on_line = line_start;
        line_start = false;
        if c.is_ascii_alphabetic() || c == b'_' || (c == b'.' && matches!(state, State::Import(_)))
        {
            let start = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            let word = &b[start..i];
            out.idents.push((start, i));
            match state {
                State::Top if depth == 0 && first_on_line && word == b"func" => {
                    state = State::Signature;
                    parens = 0;
                    type_braces = 0;
                    decl = (start, None);
                }
                // The first word outside the receiver's parentheses.
                State::Signature if parens == 0 && type_braces == 0 && decl.1.is_none() => {
                    decl.1 = Some((start, i));
                }
                State::Top if depth == 0 && first_on_line && word == b"import" => {
                    state = State::Import(false);
                }
                State::Top if depth == 0 && first_on_line && word == b"type" && ty.is_none() => {
                    ty = Some((start, 0));
                }
                State::Import(_) => alias = Some((start, i)),
                _ => {}
            }
            last_word = (start, i);
            continue;
        }
        if c >= 0x80 {
            i += 1;
            continue;
        }
        if let Some((_, open)) = ty.as_mut() {
            match c {
                b'(' | b'[' => *open += 1,
                b')' | b']' => *open = open.checked_sub(1)?,
                _ => {}
            }
        }
        // Another declaration on the line: the type is not left out.
        if c == b';' && depth == 0 && ty.is_some_and(|(_, open)| open == 0) {
            ty = None;
        }
        match (state, c) {
            (State::Import(false), b'(') if depth == 0 => state = State::Import(true),
            (State::Import(true), b')') if depth == 0 => state = State::Top,
            (State::Signature, b'(' | b'[') => parens += 1,
            (State::Signature, b')' | b']') => parens = parens.checked_sub(1)?,
            (State::Signature, b'{') => {
                let kw = &b[last_word.0..last_word.1];
                let type_brace = parens > 0
                    || type_braces > 0
                    || ((kw == b"struct" || kw == b"interface")
                        && b[last_word.1..i].iter().all(|c| matches!(c, b' ' | b'\t')));
                depth += 1;
                if type_brace {
                    type_braces += 1;
                } else {
                    state = State::Top;
                    if depth == 1 {
                        body_open = Some(i + 1);
                    }
                }
            }
            (State::Signature, b'}') => {
                depth = depth.checked_sub(1)?;
                type_braces = type_braces.checked_sub(1)?;
            }
            (_, b'{') => depth += 1,
            (_, b'}') => {
                depth = depth.checked_sub(1)?;
                if depth == 0
                    && let Some(start) = body_open.take()
                {
                    out.bodies.push(Body { start, end: i });
                    out.decls.push((decl.0, decl.1.unwrap_or((decl.0, decl.0))));
                }
            }
            _ => {}
        }
        i += 1;
    }
    if let Some((start, 0)) = ty
        && depth == 0
    {
        out.types.push(start..b.len());
    }
    (depth == 0 && state != State::Signature).then_some(out)
}

/// The index after the string, raw string or rune opening at `i`.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let q = b[i];
    if q == b'`' {
        return memchr::memchr(b'`', &b[i + 1..]).map(|n| i + n + 2);
    }
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'\n' => return None,
            c if c == q => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

#[path = "prune_loops.rs"]
mod loops;
#[cfg(test)]
use loops::for_statements;
use loops::retries_at_once;

#[cfg(test)]
#[path = "prune_tests.rs"]
mod tests;
