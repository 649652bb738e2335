//! Just enough HCL (Terraform) for reading resource blocks: blocks with
//! their type and labels (`resource "google_cloud_tasks_queue" "mail" {`),
//! nested blocks (`retry_config {`), and attributes (`max_attempts = 5`)
//! with the text and span of each value. Comments (`#`, `//`, `/* */`),
//! strings (with `${..}` inside) and heredocs are skipped; expressions are
//! not evaluated (a value is its text). Never panics; an unclosed block is
//! closed at the end of the text; every quantity is bounded.

use crate::source::Span;

/// One attribute: `key = value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attr {
    pub key: String,
    /// The value's text, trimmed (a string keeps its quotes).
    pub value: String,
    pub span: Span,
}

impl Attr {
    /// The value without the quotes of a plain string literal.
    pub fn unquoted(&self) -> &str {
        let v = self.value.as_str();
        v.strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .filter(|s| !s.contains('"') && !s.contains("${"))
            .unwrap_or(v)
    }
}

/// One block: `type "label" .. { .. }`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    pub kind: String,
    pub labels: Vec<String>,
    /// From the block's type to its closing brace.
    pub span: Span,
    pub attrs: Vec<Attr>,
    pub blocks: Vec<Block>,
}

impl Block {
    pub fn attr(&self, key: &str) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.key == key)
    }

    pub fn block(&self, kind: &str) -> Option<&Block> {
        self.blocks.iter().find(|b| b.kind == kind)
    }
}

/// The deepest nesting read; deeper blocks are skipped whole.
const MAX_DEPTH: usize = 32;
/// At most this many blocks and attributes are kept from one file.
const MAX_ITEMS: usize = 20_000;

/// The top-level blocks of `text`.
pub fn parse(text: &str) -> Vec<Block> {
    parse_checked(text).0
}

/// Where the text is not well-formed HCL, as far as this reader can tell,
/// and why: the first of a block not closed at the end of the text, a `}`
/// that closes nothing, a string not closed on its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub at: usize,
    pub reason: String,
}

/// [`parse`], with the first [`Problem`] met.
pub fn parse_checked(text: &str) -> (Vec<Block>, Option<Problem>) {
    let mut p = Parser {
        b: text.as_bytes(),
        text,
        i: 0,
        items: 0,
        closed: true,
        problem: None,
    };
    let blocks = p.body(0).blocks;
    (blocks, p.problem)
}

struct Parser<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
    items: usize,
    /// Whether the last body read ended at its `}`.
    closed: bool,
    problem: Option<Problem>,
}

impl Parser<'_> {
    fn problem(&mut self, at: usize, reason: String) {
        if self.problem.is_none() {
            self.problem = Some(Problem { at, reason });
        }
    }

    /// Skips blanks, newlines and comments.
    fn skip_space(&mut self, newlines: bool) {
        while self.i < self.b.len() {
            match self.b[self.i] {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\n' if newlines => self.i += 1,
                b'#' => self.skip_line(),
                b'/' if self.b.get(self.i + 1) == Some(&b'/') => self.skip_line(),
                b'/' if self.b.get(self.i + 1) == Some(&b'*') => {
                    self.i = find(self.b, self.i + 2, b"*/").map_or(self.b.len(), |k| k + 2);
                }
                _ => break,
            }
        }
    }

    fn skip_line(&mut self) {
        self.i = memchr::memchr(b'\n', &self.b[self.i..]).map_or(self.b.len(), |k| self.i + k);
    }

    /// A quoted string from `self.i` (at its `"`), `${..}` inside skipped.
    fn skip_string(&mut self) {
        let open = self.i;
        self.i += 1;
        let mut depth = 0usize;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'\\' => self.i += 2,
                b'$' if self.b.get(self.i + 1) == Some(&b'{') => {
                    depth += 1;
                    self.i += 2;
                }
                b'}' if depth > 0 => {
                    depth -= 1;
                    self.i += 1;
                }
                b'"' if depth == 0 => {
                    self.i += 1;
                    return;
                }
                b'\n' if depth == 0 => {
                    self.problem(open, "a string is not closed on its line".into());
                    return;
                }
                _ => self.i += 1,
            }
        }
        self.problem(open, "a string is not closed".into());
        // An escape at the very end.
        self.i = self.i.min(self.b.len());
    }

    /// A heredoc from `self.i` (at `<<`): to the line holding only its
    /// marker.
    fn skip_heredoc(&mut self) {
        let start = self.i + 2 + usize::from(self.b.get(self.i + 2) == Some(&b'-'));
        let end = start
            + self.b[start..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
        let marker = &self.text[start..end];
        self.i = end;
        self.skip_line();
        if marker.is_empty() {
            return;
        }
        while self.i < self.b.len() {
            self.i += 1;
            let line_end =
                memchr::memchr(b'\n', &self.b[self.i..]).map_or(self.b.len(), |k| self.i + k);
            if self.text[self.i..line_end].trim() == marker {
                self.i = line_end;
                return;
            }
            self.i = line_end;
        }
    }

    /// The value of an attribute from `self.i`: to the end of the line,
    /// past brackets, braces and parentheses that it opens.
    fn value(&mut self) -> Span {
        let start = self.i;
        let mut depth = 0usize;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'"' => self.skip_string(),
                b'<' if self.b.get(self.i + 1) == Some(&b'<') => self.skip_heredoc(),
                b'#' => self.skip_line(),
                b'/' if matches!(self.b.get(self.i + 1), Some(b'/' | b'*')) => {
                    if depth == 0 {
                        break;
                    }
                    self.skip_space(true);
                }
                b'[' | b'{' | b'(' => {
                    depth += 1;
                    self.i += 1;
                }
                b']' | b'}' | b')' if depth > 0 => {
                    depth -= 1;
                    self.i += 1;
                }
                b'}' => break,
                b'\n' if depth == 0 => break,
                _ => self.i += 1,
            }
        }
        let raw = &self.text[start..self.i.min(self.b.len())];
        let lead = raw.len() - raw.trim_start().len();
        let t = raw.trim();
        Span::new(start + lead, start + lead + t.len())
    }

    fn word(&mut self) -> Option<Span> {
        let start = self.i;
        while self.i < self.b.len()
            && (self.b[self.i].is_ascii_alphanumeric() || matches!(self.b[self.i], b'_' | b'-'))
        {
            self.i += 1;
        }
        (self.i > start).then(|| Span::new(start, self.i))
    }

    /// The items of a body, to its `}` (consumed) or the end.
    fn body(&mut self, depth: usize) -> Block {
        let mut out = Block::default();
        loop {
            self.skip_space(true);
            if self.i >= self.b.len() {
                self.closed = depth == 0;
                return out;
            }
            if self.b[self.i] == b'}' {
                if depth == 0 {
                    // A `}` that closes nothing: read on after it.
                    self.problem(self.i, "a `}` closes no block".into());
                    self.i += 1;
                    continue;
                }
                self.i += 1;
                self.closed = true;
                return out;
            }
            let Some(w) = self.word() else {
                // Something not read: skip it (a string, a stray byte).
                if self.b[self.i] == b'"' {
                    self.skip_string();
                } else {
                    self.i += 1;
                }
                continue;
            };
            let key = self.text[w.start..w.end].to_string();
            self.skip_space(false);
            if self.b.get(self.i) == Some(&b'=') && self.b.get(self.i + 1) != Some(&b'=') {
                self.i += 1;
                self.skip_space(false);
                let v = self.value();
                if self.items < MAX_ITEMS {
                    self.items += 1;
                    out.attrs.push(Attr {
                        key,
                        value: self.text[v.start..v.end].to_string(),
                        span: v,
                    });
                }
                continue;
            }
            // A block: labels, then `{`.
            let mut labels = Vec::new();
            loop {
                self.skip_space(false);
                match self.b.get(self.i) {
                    Some(b'"') => {
                        let s = self.i;
                        self.skip_string();
                        let l = &self.text[s..self.i];
                        labels.push(l.trim_matches('"').to_string());
                    }
                    Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                        if let Some(l) = self.word() {
                            labels.push(self.text[l.start..l.end].to_string());
                        }
                    }
                    _ => break,
                }
                if labels.len() > 8 {
                    break;
                }
            }
            if self.b.get(self.i) != Some(&b'{') {
                continue;
            }
            self.i += 1;
            let mut b = if depth < MAX_DEPTH {
                let b = self.body(depth + 1);
                if !self.closed {
                    self.problem(w.start, format!("the block `{key}` is not closed"));
                    self.closed = true;
                }
                b
            } else {
                self.skip_block();
                Block::default()
            };
            b.kind = key;
            b.labels = labels;
            b.span = Span::new(w.start, self.i.min(self.b.len()));
            if self.items < MAX_ITEMS {
                self.items += 1;
                out.blocks.push(b);
            }
        }
    }

    /// Skips to the `}` that closes the block just opened.
    fn skip_block(&mut self) {
        let mut depth = 1usize;
        while self.i < self.b.len() && depth > 0 {
            match self.b[self.i] {
                b'"' => {
                    self.skip_string();
                    continue;
                }
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            self.i += 1;
        }
    }
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|k| from + k)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn reads_resource_blocks_nested_blocks_and_attributes() {
        let text = r#"
# a queue
resource "google_cloud_tasks_queue" "mail" {
  name     = "mail"   // inline
  location = "${var.region}-x"
  rate_limits {
    max_dispatches_per_second = 2
  }
  /* retry_config { max_attempts = 9 } */
  retry_config {
    max_attempts       = 5
    max_retry_duration = "4s"
  }
  labels = {
    a = "}"
  }
  description = <<EOT
not { a block
EOT
}
resource "x" "y" {
"#;
        let blocks = parse(text);
        assert_eq!(blocks.len(), 2);
        let q = &blocks[0];
        assert_eq!(q.kind, "resource");
        assert_eq!(q.labels, vec!["google_cloud_tasks_queue", "mail"]);
        assert_eq!(q.attr("name").unwrap().unquoted(), "mail");
        assert_eq!(q.attr("location").unwrap().value, "\"${var.region}-x\"");
        let rc = q.block("retry_config").unwrap();
        let a = rc.attr("max_attempts").unwrap();
        assert_eq!(a.value, "5");
        assert_eq!(&text[a.span.start..a.span.end], "5");
        assert_eq!(rc.attr("max_retry_duration").unwrap().unquoted(), "4s");
        assert!(q.attr("description").is_some());
        assert_eq!(q.blocks.len(), 2);
        assert_eq!(blocks[1].labels, vec!["x", "y"]);
    }

    #[test]
    fn tells_where_the_text_is_not_well_formed() {
        use super::parse_checked;
        let problem = |t: &str| parse_checked(t).1.map(|p| (p.at, p.reason));
        assert_eq!(problem("resource \"a\" \"b\" {\n  x = 1\n}\n"), None);
        assert_eq!(
            problem("resource \"a\" \"b\" {\n  retry_config {\n    x = 1\n}\n"),
            Some((0, "the block `resource` is not closed".into()))
        );
        assert_eq!(
            problem("a {\n}\n}\nb {\n}\n"),
            Some((6, "a `}` closes no block".into()))
        );
        assert_eq!(
            problem("a {\n  name = \"mail\n}\n"),
            Some((13, "a string is not closed on its line".into()))
        );
        // What follows a stray `}` is still read.
        assert_eq!(parse_checked("}\nb {\n}\n").0.len(), 1);
    }

    #[test]
    fn never_panics_on_broken_text() {
        for t in [
            "resource \"a\" {",
            "a = [",
            "x = \"${",
            "<<",
            "/*",
            "}}}",
            "a = <<-",
            "\"\\",
        ] {
            let _ = parse(t);
        }
    }
}
