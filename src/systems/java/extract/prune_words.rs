//! The body tests of the Java pruner ([`super`]) that read a body's
//! text: a `try` inside a loop, a call through a timeout name, a write
//! through `this.`, a state test, the file's method references, the writes
//! to its fields.

use memchr::memmem;

/// A body that is one `return` of a comparison (`return done == total;`)
/// or of a field read (`return this.logData.isLogFin();`):
/// a loop that leaves when it holds waits for a state (`loops/helpers.rs`
/// `tests_state`).
pub(super) fn state_test(body: &str) -> bool {
    let t = body.trim();
    t.starts_with("return ")
        && t.find(';') == Some(t.len() - 1)
        && (["==", "!=", ">=", "<=", " < ", " > "]
            .iter()
            .any(|op| t.contains(op))
            || field_read(t["return ".len()..t.len() - 1].trim()))
}

/// `this.done`, `this.logData.isLogFin()`, `buffer.isComplete()`: a field
/// or a getter of one with no arguments, the state a wait reads
/// (`loops::helpers::tests_state`).
fn field_read(expr: &str) -> bool {
    // As the parser reads it: `this . logData\n .isLogFin ( )`.
    let expr: String = expr.chars().filter(|c| !c.is_whitespace()).collect();
    let expr = expr.as_str();
    let ident = |s: &str| !s.is_empty() && s.bytes().all(is_word);
    let e = expr.strip_prefix("this.").unwrap_or(expr);
    match e.split_once('.') {
        None => expr.starts_with("this.") && ident(e),
        Some((holder, rest)) => {
            ident(holder)
                && rest.strip_suffix("()").is_some_and(|m| {
                    ident(m)
                        && ["is", "has", "get"].iter().any(|p| {
                            m.strip_prefix(p)
                                .is_some_and(|x| x.starts_with(|c: char| c.is_ascii_uppercase()))
                        })
                })
        }
    }
}

pub(super) fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// The keywords of a loop. A `try` keeps a body only inside the body of
/// one of them: the try statements a reader looks at are those of a
/// hand-written retry loop (`loops`: a `try` in the loop's own body, and
/// a loop with one is a policy or a note); a try elsewhere starts no
/// reader.
pub(super) const LOOP_WORDS: &[&str] = &["for", "while", "do"];

/// A searcher for a word the body tests look for in every body, built
/// once: building one per body and word (`memmem::find_iter`) was a
/// good part of the tests' cost on short bodies.
pub(super) struct Word(&'static str, std::sync::OnceLock<memmem::Finder<'static>>);

impl Word {
    pub(super) const fn new(w: &'static str) -> Word {
        Word(w, std::sync::OnceLock::new())
    }

    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// Where it stands in `b` (not overlapping, as `memmem::find_iter`).
    pub(super) fn in_<'b>(&'static self, b: &'b [u8]) -> impl Iterator<Item = usize> + 'b {
        self.1
            .get_or_init(|| memmem::Finder::new(self.0.as_bytes()))
            .find_iter(b)
    }
}

static TRY: Word = Word::new("try");
static FOR: Word = Word::new("for");
static WHILE: Word = Word::new("while");
static DO: Word = Word::new("do");

/// Where `word` stands as a whole word in `b`.
pub(super) fn word_at<'b>(b: &'b [u8], word: &'static Word) -> impl Iterator<Item = usize> + 'b {
    let len = word.len();
    word.in_(b).filter(move |&at| {
        (at == 0 || !is_word(b[at - 1])) && b.get(at + len).is_none_or(|c| !is_word(*c))
    })
}

/// Whether a `try` stands inside a loop's body in `code` (comments and
/// literals blanked, so brackets match as written). Any doubt (a loop
/// keyword not followed by its parts, unbalanced brackets) keeps it; a
/// body without braces is taken to run to the end.
pub(super) fn try_in_loop(code: &[u8]) -> bool {
    let tries: Vec<usize> = word_at(code, &TRY).collect();
    if tries.is_empty() {
        return false;
    }
    [&FOR, &WHILE, &DO]
        .into_iter()
        .zip(LOOP_WORDS)
        .any(|(f, w)| {
            word_at(code, f).any(|at| {
                loop_body(code, at + w.len(), *w == "do")
                    .is_none_or(|r| tries.iter().any(|t| r.contains(t)))
            })
        })
}

/// The body of the loop whose keyword ends at `k`: a block, or to the end
/// of `code` for a single statement; empty for `while (..);` (a `do`'s
/// tail). `None` when the brackets do not match.
pub(super) fn loop_body(code: &[u8], k: usize, is_do: bool) -> Option<std::ops::Range<usize>> {
    let skip_ws = |k: usize| {
        k + code[k..]
            .iter()
            .take_while(|c| c.is_ascii_whitespace())
            .count()
    };
    let mut k = skip_ws(k);
    if !is_do {
        if code.get(k) != Some(&b'(') {
            return None;
        }
        k = skip_ws(closing(code, k)? + 1);
        if code.get(k) == Some(&b';') {
            return Some(k..k);
        }
    }
    if code.get(k) == Some(&b'{') {
        return Some(k..closing(code, k)?);
    }
    Some(k..code.len())
}

/// Where the bracket opened at `open` closes (same kind, nested ones
/// counted).
pub(super) fn closing(code: &[u8], open: usize) -> Option<usize> {
    let (o, c) = (code[open], if code[open] == b'(' { b')' } else { b'}' });
    let mut depth = 0usize;
    for (j, &x) in code.iter().enumerate().skip(open) {
        if x == o {
            depth += 1;
        } else if x == c {
            depth -= 1;
            if depth == 0 {
                return Some(j);
            }
        }
    }
    None
}

/// Whether `body` calls something named with `timeout`/`Timeout`
/// (`.timeout(..)`, `setConnectTimeout(..)`, `timeoutDuration(..)`) or
/// reaches through such a name (`Timeout.of(..)`, `Timeout.ofSeconds`):
/// what the readers take a timeout from (`unbounded_clients`' method
/// calls, the builders' chains). A variable or field that only holds a
/// timeout (`sessionTimeout`, `return timeout;`) starts no reader; a body
/// writing a field is kept by the field test.
pub(super) fn calls_timeout(body: &str) -> bool {
    static TIMEOUTS: [Word; 5] = [
        Word::new("timeout"),
        Word::new("Timeout"),
        Word::new("TIMEOUT"),
        Word::new("TimeOut"),
        Word::new("timeOut"),
    ];
    let b = body.as_bytes();
    // `sets_timeout` reads names case-insensitively.
    TIMEOUTS.iter().any(|w| {
        w.in_(b).any(|at| {
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
/// (inherited), which [`FieldWrites`] cannot know. A read of `this.x`
/// starts no reader.
pub(super) fn writes_through_this(body: &str) -> bool {
    static THIS: Word = Word::new("this.");
    let b = body.as_bytes();
    THIS.in_(b).any(|at| {
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
        end != at + 4 && assigns(body, &(at..end))
    })
}

/// The names after `::` anywhere in the file (method references).
pub(super) fn method_references(src: &str) -> std::collections::HashSet<&str> {
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

/// The file's field names, to tell the bodies that write one: a few
/// names are each searched for (`memmem`, a searcher built once per
/// file), more are looked up word by word ([`Names`]).
pub(super) struct FieldWrites<'a> {
    finders: Vec<memmem::Finder<'a>>,
    names: Option<Names<'a>>,
}

impl<'a> FieldWrites<'a> {
    pub(super) fn new(names: &[&'a str]) -> FieldWrites<'a> {
        let mut few: Vec<&str> = names.iter().copied().filter(|n| !n.is_empty()).collect();
        few.sort_unstable();
        few.dedup();
        if few.len() > 8 {
            return FieldWrites {
                finders: Vec::new(),
                names: Some(Names::new(few)),
            };
        }
        FieldWrites {
            finders: few
                .iter()
                .map(|n| memmem::Finder::new(n.as_bytes()))
                .collect(),
            names: None,
        }
    }

    /// Whether the body `code[r]` (a member's, braces around it) assigns,
    /// increments or decrements one of the names ([`assigns`]). A name's
    /// occurrence is read in the file's code: its whole-word test and
    /// the write's test read the same bytes there as in the body (the
    /// braces around it are no word byte and none of `=`, `+`, `-`, ..),
    /// and an occurrence the search passes over inside another is no
    /// whole word (a name is all word bytes).
    pub(super) fn in_body(&self, code: &str, r: &std::ops::Range<usize>) -> bool {
        if let Some(set) = &self.names {
            let body = &code[r.clone()];
            return set.in_text(body).any(|w| assigns(body, &w));
        }
        let b = code.as_bytes();
        self.finders.iter().any(|f| {
            let len = f.needle().len();
            f.find_iter(&b[r.clone()]).any(|q| {
                let (p, e) = (r.start + q, r.start + q + len);
                let joined = (p > 0 && is_word(b[p - 1])) || b.get(e).is_some_and(|&c| is_word(c));
                !joined && assigns(code, &(p..e))
            })
        })
    }
}

/// A set of names, with their first bytes and lengths: most words of a
/// body are no field, told without hashing them.
pub(super) struct Names<'a> {
    set: std::collections::HashSet<&'a str>,
    first: [bool; 256],
    lens: u64,
    long: bool,
}

impl<'a> Names<'a> {
    pub(super) fn new(names: impl IntoIterator<Item = &'a str>) -> Names<'a> {
        let mut n = Names {
            set: std::collections::HashSet::new(),
            first: [false; 256],
            lens: 0,
            long: false,
        };
        for name in names {
            n.insert(name);
        }
        n
    }

    fn insert(&mut self, name: &'a str) {
        if let Some(&c) = name.as_bytes().first() {
            self.first[usize::from(c)] = true;
        }
        match name.len() {
            l @ 0..64 => self.lens |= 1 << l,
            _ => self.long = true,
        }
        self.set.insert(name);
    }

    /// Where the words of `text` that are among the names stand.
    pub(super) fn in_text<'t>(
        &'t self,
        text: &'t str,
    ) -> impl Iterator<Item = std::ops::Range<usize>> + 't {
        let b = text.as_bytes();
        let mut k = 0;
        std::iter::from_fn(move || {
            if self.set.is_empty() {
                return None;
            }
            while k < b.len() {
                if !is_word(b[k]) || (k > 0 && is_word(b[k - 1])) {
                    k += 1;
                    continue;
                }
                let start = k;
                while k < b.len() && is_word(b[k]) {
                    k += 1;
                }
                let len = k - start;
                let may = self.first[usize::from(b[start])]
                    && (if len < 64 {
                        self.lens & (1 << len) != 0
                    } else {
                        self.long
                    });
                if may && self.set.contains(&text[start..k]) {
                    return Some(start..k);
                }
            }
            None
        })
    }
}

/// Whether the word at `w` in `body` is assigned, incremented or
/// decremented.
pub(super) fn assigns(body: &str, w: &std::ops::Range<usize>) -> bool {
    let before = body[..w.start].trim_end();
    if before.ends_with("++") || before.ends_with("--") {
        return true;
    }
    let after = body[w.end..].trim_start().as_bytes();
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
}
