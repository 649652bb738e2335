//! A small lexer for C-like source (Java, Kotlin, Rust): the string
//! literals of a file outside comments, each with the calls it is an
//! argument of (`log.info(`, `new IllegalStateException(`, `println!(`,
//! `@ApiOperation(`), and for Rust the items `#[cfg(test)]` or `#[test]`
//! marks skipped (with the names of `#[cfg(test)] mod x;` declarations).
//!
//! One pass over the bytes, no allocation per character; every quantity
//! is bounded by the text's length (the frame stack by [`MAX_FRAMES`]).

use crate::source::Span;

/// Which language's literal and comment syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Java,
    Rust,
}

/// A string literal: its whole span (quotes included) and its content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lit {
    pub span: Span,
    pub content: Span,
    /// The calls (and annotations, attributes) the literal is an argument
    /// of, innermost last, as written before their `(`: `log.info`,
    /// `new IllegalStateException`, `println!`, `@ApiOperation`, `#[doc`.
    pub within: Vec<String>,
}

/// What one pass finds.
#[derive(Debug, Default)]
pub struct Lexed {
    pub lits: Vec<Lit>,
    /// Rust `#[cfg(test)] mod NAME;` declarations: the module files they
    /// name are test code.
    pub test_modules: Vec<(String, Span)>,
}

/// Nesting deeper than this is not tracked (the literal's context is
/// then the outermost frames only).
const MAX_FRAMES: usize = 64;

/// The frame of a Rust attribute's `#[` (named `#[`), not a position.
const ATTR: usize = usize::MAX;

/// The bytes an arm of [`Lexer::run`] acts on, each `true` (every other
/// byte only moves the lexer on).
const fn acts(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut k = 0;
    while k < bytes.len() {
        t[bytes[k] as usize] = true;
        k += 1;
    }
    t
}
const ACTS_JAVA: [bool; 256] = acts(b"/\"'()[];");
const ACTS_RUST: [bool; 256] = acts(b"/\"'()[];rb#");

/// The string literals of `text` outside comments (and, for Rust,
/// outside test-only items).
pub fn lex(text: &str, lang: Lang) -> Lexed {
    let mut l = Lexer {
        b: text.as_bytes(),
        text,
        i: 0,
        lang,
        frames: Vec::new(),
        out: Lexed::default(),
    };
    l.run();
    l.out
}

struct Lexer<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
    lang: Lang,
    /// Open `(` and `[`, each with where it is (its name, the text
    /// written before it, is read only when a literal inside needs it:
    /// most brackets hold none) or [`ATTR`] for a Rust `#[`.
    frames: Vec<(u8, usize)>,
    out: Lexed,
}

impl Lexer<'_> {
    fn run(&mut self) {
        let acts = match self.lang {
            Lang::Rust => &ACTS_RUST,
            Lang::Java => &ACTS_JAVA,
        };
        while self.i < self.b.len() {
            let c = self.b[self.i];
            match c {
                b'/' if self.peek(1) == Some(b'/') => self.line_comment(),
                b'/' if self.peek(1) == Some(b'*') => self.block_comment(),
                b'"' => {
                    if let Some(lit) = self.string(self.i) {
                        self.push(lit);
                    }
                }
                b'\'' => self.quote(),
                // A raw or byte string's prefix is followed by `"`, `#` or
                // (`br`) `r`: the cheap test first.
                b'r' | b'b'
                    if self.lang == Lang::Rust
                        && matches!(self.peek(1), Some(b'"' | b'#' | b'r'))
                        && self.raw_string_start().is_some() =>
                {
                    let (hashes, open) = self.raw_string_start().unwrap_or((0, self.i));
                    let lit = self.raw_string(self.i, hashes, open);
                    self.push(lit);
                }
                b'#' if self.lang == Lang::Rust && self.peek(1) == Some(b'[') => {
                    if self.test_attribute() {
                        self.skip_item();
                    } else {
                        self.open(b'[', ATTR);
                        self.i += 2;
                    }
                }
                b'(' | b'[' => {
                    self.open(c, self.i);
                    self.i += 1;
                }
                b')' | b']' => {
                    let want = if c == b')' { b'(' } else { b'[' };
                    if let Some(at) = self.frames.iter().rposition(|(o, _)| *o == want) {
                        self.frames.truncate(at);
                    }
                    self.i += 1;
                }
                // A statement's end closes what a syntax error left open.
                b';' => {
                    if self.frames.iter().all(|(o, _)| *o == b'[') {
                        self.frames.clear();
                    }
                    self.i += 1;
                }
                // A byte no arm reads, and the run of them after it
                // (looked up in a table, not matched arm by arm).
                _ => {
                    self.i += 1;
                    while self.i < self.b.len() && !acts[usize::from(self.b[self.i])] {
                        self.i += 1;
                    }
                }
            }
        }
    }

    fn peek(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }

    fn open(&mut self, c: u8, at: usize) {
        if self.frames.len() < MAX_FRAMES {
            self.frames.push((c, at));
        }
    }

    fn push(&mut self, mut lit: Lit) {
        lit.within = self
            .frames
            .iter()
            .map(|&(_, at)| {
                if at == ATTR {
                    "#[".to_string()
                } else {
                    self.name_before(at)
                }
            })
            .collect();
        self.out.lits.push(lit);
    }

    fn line_comment(&mut self) {
        self.i = memchr::memchr(b'\n', &self.b[self.i..]).map_or(self.b.len(), |k| self.i + k);
    }

    fn block_comment(&mut self) {
        // Rust block comments nest; Java's do not.
        let mut depth = 0usize;
        while self.i < self.b.len() {
            if self.b[self.i] == b'/' && self.peek(1) == Some(b'*') {
                depth += 1;
                self.i += 2;
            } else if self.b[self.i] == b'*' && self.peek(1) == Some(b'/') {
                depth = depth.saturating_sub(1);
                self.i += 2;
                if depth == 0 || self.lang == Lang::Java {
                    return;
                }
            } else {
                self.i += 1;
            }
        }
    }

    /// A `"..."` literal (or a Java `"""` text block) starting at `start`;
    /// leaves `self.i` after it.
    fn string(&mut self, start: usize) -> Option<Lit> {
        if self.lang == Lang::Java && self.b[start..].starts_with(b"\"\"\"") {
            let body = start + 3;
            let end =
                memchr::memmem::find(&self.b[body..], b"\"\"\"").map_or(self.b.len(), |k| body + k);
            self.i = (end + 3).min(self.b.len());
            return Some(Lit {
                span: Span::new(start, self.i),
                content: Span::new(body, end),
                within: Vec::new(),
            });
        }
        let mut j = start + 1;
        while j < self.b.len() {
            match self.b[j] {
                b'\\' => j += 2,
                b'"' => break,
                // A Java string never spans lines: an unclosed one ends here.
                b'\n' if self.lang == Lang::Java => break,
                _ => j += 1,
            }
        }
        let end = j.min(self.b.len());
        self.i = (end + 1).min(self.b.len());
        Some(Lit {
            span: Span::new(start, self.i),
            content: Span::new(start + 1, end),
            within: Vec::new(),
        })
    }

    /// A Rust raw (byte) string's `#` count and the index of its opening
    /// quote, when one starts here (`r"`, `r#"`, `br"`, `b"`).
    fn raw_string_start(&self) -> Option<(usize, usize)> {
        // Not the end of an identifier (`for"` is no prefix).
        if self.i > 0 && is_ident(self.b[self.i - 1]) {
            return None;
        }
        let mut j = self.i;
        if self.b[j] == b'b' {
            j += 1;
            if self.b.get(j) == Some(&b'"') {
                return Some((usize::MAX, j));
            }
        }
        if self.b.get(j) != Some(&b'r') {
            return None;
        }
        j += 1;
        let mut hashes = 0;
        while self.b.get(j) == Some(&b'#') {
            hashes += 1;
            j += 1;
        }
        (self.b.get(j) == Some(&b'"')).then_some((hashes, j))
    }

    fn raw_string(&mut self, start: usize, hashes: usize, open: usize) -> Lit {
        if hashes == usize::MAX {
            // `b"..."`: an ordinary string after the prefix.
            let mut lit = self.string(open).unwrap_or(Lit {
                span: Span::new(start, open),
                content: Span::new(open, open),
                within: Vec::new(),
            });
            lit.span.start = start;
            return lit;
        }
        let body = open + 1;
        let mut j = body;
        let end = loop {
            match memchr::memchr(b'"', &self.b[j.min(self.b.len())..]) {
                Some(k) => {
                    let q = j + k;
                    let closing = self.b[q + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|c| **c == b'#')
                        .count();
                    if closing == hashes {
                        break q;
                    }
                    j = q + 1;
                }
                None => break self.b.len(),
            }
        };
        self.i = (end + 1 + hashes).min(self.b.len());
        Lit {
            span: Span::new(start, self.i),
            content: Span::new(body, end),
            within: Vec::new(),
        }
    }

    /// A `'`: a character literal (skipped whole), or a Rust lifetime.
    fn quote(&mut self) {
        let rest = &self.text[self.i + 1..];
        if rest.starts_with('\\') {
            // `'\''`, `'\u{..}'`: to the next unescaped quote on the line.
            let mut j = self.i + 3;
            while j < self.b.len() && self.b[j] != b'\'' && self.b[j] != b'\n' {
                j += 1;
            }
            self.i = (j + 1).min(self.b.len());
            return;
        }
        if let Some(ch) = rest.chars().next() {
            let after = self.i + 1 + ch.len_utf8();
            if self.b.get(after) == Some(&b'\'') {
                self.i = after + 1;
                return;
            }
        }
        self.i += 1;
    }

    /// The name written before an opening bracket at `at`: the dotted or
    /// `::` path of identifiers, with `new ` or `@` before it and a
    /// macro's `!`.
    fn name_before(&self, at: usize) -> String {
        let mut j = at;
        while j > 0 && matches!(self.b[j - 1], b' ' | b'\t') {
            j -= 1;
        }
        let end = j;
        if j > 0 && self.b[j - 1] == b'!' {
            j -= 1;
        }
        // Generic arguments (`Foo::<T>::new(`, `new Foo<>(`) are not part of it.
        loop {
            while j > 0 && (is_ident(self.b[j - 1]) || self.b[j - 1] == b'.') {
                j -= 1;
            }
            if j >= 2 && &self.b[j - 2..j] == b"::" {
                j -= 2;
                continue;
            }
            break;
        }
        let mut start = j;
        if start > 0 && self.b[start - 1] == b'@' {
            start -= 1;
        } else if self.text[..start].trim_end().ends_with("new") {
            let t = self.text[..start].trim_end();
            let before_new = t.len() - 3;
            if before_new == 0 || !is_ident(self.b[before_new - 1]) {
                start = before_new;
            }
        }
        self.text[start..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// At `#[`: whether the attribute is `#[cfg(test)]` or `#[test]`
    /// (then `self.i` is after it), else `self.i` is unchanged.
    fn test_attribute(&mut self) -> bool {
        let rest = &self.b[self.i..];
        let close = match memchr::memchr(b']', rest) {
            Some(k) if k < 200 => k,
            _ => return false,
        };
        let inner: Vec<u8> = rest[2..close]
            .iter()
            .copied()
            .filter(|c| !c.is_ascii_whitespace())
            .collect();
        if inner == b"cfg(test)" || inner == b"test" || inner.starts_with(b"tokio::test") {
            self.i += close + 1;
            return true;
        }
        false
    }

    /// Skip the item after a test attribute: to its `;` or its balanced
    /// `{ .. }` (strings and comments inside skipped as such). A
    /// `mod NAME;` is recorded.
    fn skip_item(&mut self) {
        let head = self.i;
        let mut depth = 0usize;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'/' if self.peek(1) == Some(b'/') => self.line_comment(),
                b'/' if self.peek(1) == Some(b'*') => self.block_comment(),
                b'"' => {
                    self.string(self.i);
                }
                b'\'' => self.quote(),
                b'r' | b'b' if self.raw_string_start().is_some() => {
                    let (hashes, open) = self.raw_string_start().unwrap_or((0, self.i));
                    self.raw_string(self.i, hashes, open);
                }
                b'{' => {
                    depth += 1;
                    self.i += 1;
                }
                b'}' => {
                    self.i += 1;
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                b';' if depth == 0 => {
                    self.i += 1;
                    self.test_module(head);
                    return;
                }
                _ => self.i += 1,
            }
        }
    }

    /// `[#[attr]...] [pub] mod NAME;` between `head` and `self.i`.
    fn test_module(&mut self, head: usize) {
        let item = &self.text[head..self.i];
        let mut words = item
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty());
        if words.any(|w| w == "mod")
            && let Some(name) = words.next()
        {
            let at = head + item.find("mod").unwrap_or(0);
            self.out
                .test_modules
                .push((name.to_string(), Span::new(at, self.i)));
        }
    }
}

/// The end of `s` whose characters all satisfy `keep` (a name written
/// last: `keep` says which characters a name has), a slice of `s`.
pub fn trailing(s: &str, keep: impl Fn(char) -> bool) -> &str {
    let start = s
        .char_indices()
        .rev()
        .take_while(|&(_, c)| keep(c))
        .last()
        .map_or(s.len(), |(i, _)| i);
    &s[start..]
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

#[cfg(test)]
mod trailing_tests {
    use super::trailing;

    #[test]
    fn the_name_written_last() {
        let name = |c: char| c.is_alphanumeric() || c == '_';
        assert_eq!(trailing("String base_url", name), "base_url");
        assert_eq!(trailing("x.créé", name), "créé");
        assert_eq!(trailing("call(", name), "");
        assert_eq!(trailing("", name), "");
        assert_eq!(trailing("$svc", |c| name(c) || c == '$'), "$svc");
    }
}
