//! The nginx configuration lexer, following `ngx_conf_read_token`
//! (nginx `src/core/ngx_conf_file.c`):
//!
//! - tokens are separated by space, tab, CR and LF only;
//! - `;`, `{` and `}` are tokens of their own at the start of a token; in
//!   the middle of a word only `;` and `{` end it (`foo}` is one word);
//! - `#` starts a comment only at the start of a token (`a#b` is a word);
//! - a token starting with `"` or `'` is quoted up to the matching quote;
//!   after the closing quote only a blank, `;`, `{` or `)` may follow;
//! - `\` escapes the next character everywhere; when the token is copied,
//!   `\"`, `\'` and `\\` become the character and `\t`, `\r`, `\n` the
//!   control character; any other `\x` is kept as written;
//! - `{` right after `$` belongs to the word (`${var}`).
//!
//! The raw body of a `*_by_lua_block { ... }` is skipped by
//! [`Lexer::skip_lua_block`], which knows Lua strings, long brackets and
//! comments, as ngx_lua's own block lexer does.
//!
//! Works on bytes and splits only at ASCII bytes, so every span is on a
//! character boundary. Never panics; linear in the input.

use crate::source::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A word or quoted string; `value` is unescaped.
    Word,
    Semi,
    Open,
    Close,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    /// The whole token, quotes included.
    pub span: Span,
    /// The unescaped text (words only).
    pub value: String,
    pub quoted: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub span: Span,
    pub message: String,
}

pub struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

impl<'a> Lexer<'a> {
    pub fn new(text: &'a str) -> Self {
        Lexer {
            text,
            bytes: text.as_bytes(),
            pos: 0,
        }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    fn err(&self, start: usize, message: String) -> LexError {
        let end = next_char_end(self.text, start);
        LexError {
            span: Span::new(start, end),
            message,
        }
    }

    /// The next token, `Ok(None)` at the end of the input.
    pub fn next_token(&mut self) -> Result<Option<Token>, LexError> {
        let b = self.bytes;
        loop {
            while self.pos < b.len() && is_space(b[self.pos]) {
                self.pos += 1;
            }
            if self.pos >= b.len() {
                return Ok(None);
            }
            if b[self.pos] == b'#' {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
                continue;
            }
            break;
        }
        let start = self.pos;
        let single = |kind| Token {
            kind,
            span: Span::new(start, start + 1),
            value: String::new(),
            quoted: false,
        };
        match b[start] {
            b';' => {
                self.pos += 1;
                Ok(Some(single(Kind::Semi)))
            }
            b'{' => {
                self.pos += 1;
                Ok(Some(single(Kind::Open)))
            }
            b'}' => {
                self.pos += 1;
                Ok(Some(single(Kind::Close)))
            }
            q @ (b'"' | b'\'') => self.quoted(start, q).map(Some),
            _ => Ok(Some(self.word(start))),
        }
    }

    fn quoted(&mut self, start: usize, quote: u8) -> Result<Token, LexError> {
        let b = self.bytes;
        let mut i = start + 1;
        loop {
            if i >= b.len() {
                self.pos = b.len();
                return Err(self.err(
                    start,
                    format!(
                        "unterminated {} string",
                        if quote == b'"' {
                            "double-quoted"
                        } else {
                            "single-quoted"
                        }
                    ),
                ));
            }
            match b[i] {
                b'\\' => i += 2,
                c if c == quote => break,
                _ => i += 1,
            }
        }
        let inner_end = i.min(b.len());
        self.pos = (i + 1).min(b.len());
        // After the closing quote: a blank, `;`, `{`, `)` or the end.
        if let Some(&next) = b.get(self.pos)
            && !(is_space(next) || matches!(next, b';' | b'{' | b')'))
        {
            return Err(self.err(
                self.pos,
                format!(
                    "unexpected `{}` after a quoted string",
                    char_at(self.text, self.pos)
                ),
            ));
        }
        Ok(Token {
            kind: Kind::Word,
            span: Span::new(start, self.pos),
            value: unescape(&self.text[start + 1..inner_end.max(start + 1)]),
            quoted: true,
        })
    }

    fn word(&mut self, start: usize) -> Token {
        let b = self.bytes;
        let mut i = start;
        let mut variable = false;
        while i < b.len() {
            let c = b[i];
            if c == b'{' && variable {
                variable = false;
                i += 1;
                continue;
            }
            variable = false;
            match c {
                b'\\' => {
                    i += 2;
                    continue;
                }
                b'$' => variable = true,
                c if is_space(c) || c == b';' || c == b'{' => break,
                _ => {}
            }
            i += 1;
        }
        let end = floor_boundary(self.text, i.min(b.len()));
        self.pos = end;
        Token {
            kind: Kind::Word,
            span: Span::new(start, end),
            value: unescape(&self.text[start..end]),
            quoted: false,
        }
    }

    /// Skip the body of a Lua block whose `{` was just read, up to and
    /// including its matching `}`. Returns the span of the body.
    pub fn skip_lua_block(&mut self, open: Span) -> Result<Span, LexError> {
        let b = self.bytes;
        let body_start = self.pos;
        let mut depth = 1usize;
        let mut i = self.pos;
        while i < b.len() {
            match b[i] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = i + 1;
                        return Ok(Span::new(body_start, i));
                    }
                }
                q @ (b'"' | b'\'') => {
                    i += 1;
                    while i < b.len() && b[i] != q && b[i] != b'\n' {
                        if b[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                }
                b'[' => {
                    if let Some(level) = long_bracket(b, i) {
                        i = skip_long(b, i + level + 2, level);
                        continue;
                    }
                }
                b'-' if b.get(i + 1) == Some(&b'-') => {
                    i += 2;
                    if let Some(level) = long_bracket(b, i) {
                        i = skip_long(b, i + level + 2, level);
                    } else {
                        while i < b.len() && b[i] != b'\n' {
                            i += 1;
                        }
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        self.pos = b.len();
        Err(LexError {
            span: open,
            message: "the Lua block is not closed".into(),
        })
    }
}

/// `[`, `[=[`, `[==[` ... at `i`: the number of `=`.
fn long_bracket(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let mut j = i + 1;
    while b.get(j) == Some(&b'=') {
        j += 1;
    }
    (b.get(j) == Some(&b'[')).then_some(j - i - 1)
}

/// From inside a long bracket of `level`, the index after its close.
fn skip_long(b: &[u8], mut i: usize, level: usize) -> usize {
    while i < b.len() {
        if b[i] == b']' {
            let mut j = i + 1;
            while b.get(j) == Some(&b'=') {
                j += 1;
            }
            if j - i - 1 == level && b.get(j) == Some(&b']') {
                return j + 1;
            }
        }
        i += 1;
    }
    b.len()
}

/// nginx's unescaping when it copies a token.
pub fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some(&n @ ('"' | '\'' | '\\')) => {
                    out.push(n);
                    chars.next();
                    continue;
                }
                Some('t') => {
                    out.push('\t');
                    chars.next();
                    continue;
                }
                Some('r') => {
                    out.push('\r');
                    chars.next();
                    continue;
                }
                Some('n') => {
                    out.push('\n');
                    chars.next();
                    continue;
                }
                _ => {}
            }
        }
        out.push(c);
    }
    out
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn next_char_end(text: &str, at: usize) -> usize {
    let at = floor_boundary(text, at.min(text.len()));
    text[at..].chars().next().map_or(at, |c| at + c.len_utf8())
}

fn char_at(text: &str, at: usize) -> char {
    let at = floor_boundary(text, at.min(text.len()));
    text[at..].chars().next().unwrap_or(' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let mut l = Lexer::new(text);
        let mut out = Vec::new();
        while let Some(t) = l.next_token().unwrap() {
            out.push(match t.kind {
                Kind::Word => t.value,
                Kind::Semi => ";".into(),
                Kind::Open => "{".into(),
                Kind::Close => "}".into(),
            });
        }
        out
    }

    #[test]
    fn words_quotes_and_comments() {
        assert_eq!(
            words("a b#c 'd e' \"f\\\"g\"; # comment\n}"),
            ["a", "b#c", "d e", "f\"g", ";", "}"]
        );
    }

    #[test]
    fn brace_ends_a_word_only_when_opening() {
        assert_eq!(words("return 200 ok}"), ["return", "200", "ok}"]);
        assert_eq!(words("location /a{"), ["location", "/a", "{"]);
        assert_eq!(words("set $a ${b}c;"), ["set", "$a", "${b}c", ";"]);
    }

    #[test]
    fn escapes_follow_nginx() {
        // The escaped blank does not end the word, and nginx keeps `\ `.
        assert_eq!(words(r"a\ b"), [r"a\ b"]);
        assert_eq!(words(r#""x\ty\d""#), ["x\ty\\d"]);
    }

    #[test]
    fn spans_cover_quotes() {
        let mut l = Lexer::new("  'ab' c");
        let t = l.next_token().unwrap().unwrap();
        assert_eq!(t.span, Span::new(2, 6));
        assert!(t.quoted);
    }

    #[test]
    fn unterminated_and_glued_quotes_are_errors() {
        let mut l = Lexer::new("a \"bc");
        l.next_token().unwrap();
        assert!(l.next_token().unwrap_err().message.contains("unterminated"));
        let mut l = Lexer::new("'a'b");
        assert!(l.next_token().is_err());
        // `)` may follow a quoted string (`if ($a = "b")`).
        assert_eq!(
            words("if ($a = \"b\") {"),
            ["if", "($a", "=", "b", ")", "{"]
        );
    }

    #[test]
    fn lua_block_bodies_are_opaque() {
        let text =
            "a_by_lua_block { local s = \"}\" -- }\n local t = [[ } ]] if x then y = {1} end }; b;";
        let mut l = Lexer::new(text);
        l.next_token().unwrap();
        let open = l.next_token().unwrap().unwrap();
        assert_eq!(open.kind, Kind::Open);
        l.skip_lua_block(open.span).unwrap();
        let rest: Vec<_> = std::iter::from_fn(|| l.next_token().unwrap())
            .map(|t| t.kind)
            .collect();
        assert_eq!(rest, [Kind::Semi, Kind::Word, Kind::Semi]);
        let mut l = Lexer::new("{ [==[ ");
        let open = l.next_token().unwrap().unwrap();
        assert!(l.skip_lua_block(open.span).is_err());
    }

    #[test]
    fn multibyte_text_keeps_char_boundaries() {
        let text = "é\\é 'ü";
        let mut l = Lexer::new(text);
        let t = l.next_token().unwrap().unwrap();
        assert!(text.is_char_boundary(t.span.end));
        assert!(l.next_token().is_err());
    }
}
