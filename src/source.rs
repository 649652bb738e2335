//! Source files, byte spans and the one line index that turns spans into
//! 1-based line/column positions.
//!
//! Every parser reports byte offsets into the file's text; nothing else in
//! the crate converts offsets to lines or columns.

use serde::Serialize;
use std::path::PathBuf;

/// A half-open byte range `start..end` into one file's text.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    pub fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

impl From<std::ops::Range<usize>> for Span {
    fn from(r: std::ops::Range<usize>) -> Self {
        Span::new(r.start, r.end)
    }
}

/// A 1-based line and column (column counted in Unicode scalar values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// Start offsets of every line. `\n`, `\r\n` and a lone `\r` all end a line.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of an empty text.
    pub const EMPTY: LineIndex = LineIndex { starts: Vec::new() };

    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        // From one line end to the next (memchr), not byte by byte.
        let mut i = 0;
        while let Some(k) = memchr::memchr2(b'\n', b'\r', &bytes[i..]) {
            let mut end = i + k;
            if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') {
                end += 1;
            }
            starts.push(end + 1);
            i = end + 1;
        }
        LineIndex { starts }
    }

    /// 0-based line containing `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        }
    }

    /// Byte offset where 0-based `line` starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(usize::MAX)
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// 1-based line and column of `offset` in `text`.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let start = self.starts[line];
        let column = text[start..offset].chars().count() + 1;
        LineCol {
            line: line + 1,
            column,
        }
    }

    /// A line index that ends lines at `\n` only, as proc-macro2 counts
    /// them (a lone `\r` does not start a line there).
    pub fn lf_only(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex { starts }
    }

    /// The byte offset of a position given as a 1-based `line` and a
    /// 0-based column counted in Unicode scalar values (proc-macro2's
    /// `LineColumn`; use an index built with [`LineIndex::lf_only`] for
    /// it). A column past the end of its line stops at the line end; a line
    /// past the end of the text gives the text's length.
    pub fn offset_of_char_column(&self, text: &str, line: usize, column: usize) -> usize {
        let Some(&start) = line.checked_sub(1).and_then(|l| self.starts.get(l)) else {
            return text.len();
        };
        let end = self.starts.get(line).copied().unwrap_or(text.len());
        let row = text.get(start..end).unwrap_or("");
        // A column in an ASCII run is its byte offset.
        if column < row.len() && row.as_bytes()[..column].is_ascii() {
            return start + column;
        }
        match row.char_indices().nth(column) {
            Some((i, _)) => start + i,
            None => end,
        }
    }

    /// The text of 0-based `line`, without its line terminator.
    pub fn line_text<'t>(&self, text: &'t str, line: usize) -> &'t str {
        let Some(&start) = self.starts.get(line) else {
            return "";
        };
        let end = self.starts.get(line + 1).copied().unwrap_or(text.len());
        text[start..end].trim_end_matches(['\n', '\r'])
    }
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Identifies a file within one scan.
pub type FileId = usize;

/// One file's text with its line index, built the first time a line is
/// asked for (most files of a scan have no finding and never are).
#[derive(Debug)]
pub struct SourceFile {
    /// The path as shown to users: relative to the scan root where possible.
    pub path: PathBuf,
    pub text: String,
    lines: std::sync::OnceLock<LineIndex>,
}

impl SourceFile {
    pub fn new(path: impl Into<PathBuf>, text: String) -> Self {
        SourceFile {
            path: path.into(),
            text,
            lines: std::sync::OnceLock::new(),
        }
    }

    /// The file's line index.
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }

    pub fn line_col(&self, offset: usize) -> LineCol {
        self.lines().line_col(&self.text, offset)
    }

    /// The text a span covers, or "" if it is out of bounds.
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    /// The path with `/` separators, as used in every output.
    pub fn display_path(&self) -> String {
        display_path(&self.path)
    }
}

/// `p` with `.` dropped and each `..` folding the component before it,
/// lexically (no file-system look); a `..` with nothing before it to fold
/// is kept (`../x` stays `../x`), unlike `config::normalise`, which drops
/// it. Used where paths of scanned files are joined and compared
/// (Kustomize resources, build files found upwards).
pub fn fold_dots(p: &std::path::Path) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c),
        }
    }
    out
}

pub fn display_path(path: &std::path::Path) -> String {
    // UTF-8 checked at once; the lossy reading of other bytes walks the
    // text in chunks (a fifth of a warm run's path work).
    let s = match path.to_str() {
        Some(s) => std::borrow::Cow::Borrowed(s),
        None => path.to_string_lossy(),
    };
    let s = s.strip_prefix("./").unwrap_or(&s);
    if std::path::MAIN_SEPARATOR == '\\' {
        s.replace('\\', "/")
    } else {
        s.to_string()
    }
}

/// `path`'s text after `base`'s and a `/`, when both are written plainly
/// (UTF-8, no component empty or `.`): then it is what [`display_path`]
/// shows of `path.strip_prefix(base)`, found without splitting either
/// into components (a warm run shows every walked path twice). `None`:
/// not written so, not under `base`, or `base` itself.
#[cfg(unix)]
pub fn plain_tail<'a>(path: &'a std::path::Path, base: &std::path::Path) -> Option<&'a str> {
    // The bytes are checked before the text: a tail that is not plain (or
    // not under `base`) costs no UTF-8 check of the whole path.
    let (p, b) = (
        path.as_os_str().as_encoded_bytes(),
        base.as_os_str().as_encoded_bytes(),
    );
    let rest = p.strip_prefix(b)?.strip_prefix(b"/")?;
    if !plain_bytes(b) || !plain_bytes(rest) || rest.first() == Some(&b'/') {
        return None;
    }
    // `base` is a prefix of `path` ending before a `/`, so the tail is UTF-8
    // when the path is.
    path.to_str().map(|p| &p[p.len() - rest.len()..])
}

/// One pass over `s` (a leading `/` allowed): not empty, and no component
/// empty or `.`, as `s.split('/')` would find, without its searcher.
#[cfg(unix)]
fn plain_bytes(s: &[u8]) -> bool {
    let s = s.strip_prefix(b"/").unwrap_or(s);
    let mut component = 0usize;
    let mut dot = false;
    for &c in s {
        if c == b'/' {
            if component == 0 || (component == 1 && dot) {
                return false;
            }
            component = 0;
        } else {
            dot = component == 0 && c == b'.';
            component += 1;
        }
    }
    component > 1 || (component == 1 && !dot)
}

/// [`plain_tail`] elsewhere: always the general way.
#[cfg(not(unix))]
pub fn plain_tail<'a>(_: &'a std::path::Path, _: &std::path::Path) -> Option<&'a str> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain tail is `strip_prefix` shown, or nothing.
    #[test]
    fn a_plain_tail_is_the_prefix_stripped_and_shown() {
        use std::path::Path;
        let bases = [
            "/r", "/r/", "r", "/r/./s", "/", ".", "/r//s", "/r/s", "./r", "/r/..",
        ];
        let paths = [
            "/r/a.yaml",
            "/r/s/a.yaml",
            "/rs/a",
            "/r",
            "/r/",
            "/r/./a",
            "/r//a",
            "r/a",
            "/r/s/../a",
            "/r/a/",
            "/r/a/.",
            "./r/a",
            "/r/s/a/b.rs",
            "/r/.../a",
        ];
        let mut hits = 0;
        for b in bases {
            for p in paths {
                let (path, base) = (Path::new(p), Path::new(b));
                if let Some(t) = plain_tail(path, base) {
                    hits += 1;
                    let general = path.strip_prefix(base).map(display_path);
                    assert_eq!(Ok(t.to_string()), general, "{p} under {b}");
                }
            }
        }
        assert!(hits >= 6, "{hits}");
    }

    /// The one-pass check is the split's answer on every text of up to
    /// seven bytes of `a`, `.` and `/`.
    #[cfg(unix)]
    #[test]
    fn plain_bytes_is_the_split_definition() {
        let split = |s: &str| {
            let s = s.strip_prefix('/').unwrap_or(s);
            !s.is_empty() && s.split('/').all(|c| !c.is_empty() && c != ".")
        };
        let mut texts = vec![String::new()];
        let mut checked = 0;
        for _ in 0..7 {
            let mut next = Vec::new();
            for t in &texts {
                for c in ['a', '.', '/'] {
                    let t = format!("{t}{c}");
                    assert_eq!(plain_bytes(t.as_bytes()), split(&t), "{t:?}");
                    checked += 1;
                    next.push(t);
                }
            }
            texts = next;
        }
        assert_eq!(checked, 3279);
        assert!(!plain_bytes(b""));
    }

    #[test]
    fn lf_crlf_and_lone_cr_all_end_lines() {
        let text = "a\nbb\r\nccc\rdddd";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 4);
        assert_eq!(idx.line_col(text, 0), LineCol { line: 1, column: 1 });
        assert_eq!(idx.line_col(text, 3), LineCol { line: 2, column: 2 });
        assert_eq!(idx.line_col(text, 6), LineCol { line: 3, column: 1 });
        assert_eq!(idx.line_col(text, 11), LineCol { line: 4, column: 2 });
        assert_eq!(idx.line_text(text, 1), "bb");
        assert_eq!(idx.line_text(text, 2), "ccc");
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "é: x";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 4), LineCol { line: 1, column: 4 });
        // An offset inside a multi-byte character rounds down.
        assert_eq!(idx.line_col(text, 1), LineCol { line: 1, column: 1 });
    }

    #[test]
    fn char_columns_become_byte_offsets_on_non_ascii_lines() {
        // proc-macro2 reports 1-based lines and 0-based columns in chars.
        let text = "// é€𝄞\nlet s = \"ü\"; f(1)\r\nx\ry";
        let idx = LineIndex::lf_only(text);
        // Line 1: `𝄞` is the 6th char (column 5) and starts at byte 8.
        assert_eq!(idx.offset_of_char_column(text, 1, 5), 8);
        assert_eq!(&text[8..12], "𝄞");
        // Line 2: `f` follows a two-byte `ü`.
        let f = idx.offset_of_char_column(text, 2, 13);
        assert_eq!(&text[f..f + 4], "f(1)");
        // A lone `\r` does not end a line for proc-macro2.
        let y = idx.offset_of_char_column(text, 3, 2);
        assert_eq!(&text[y..], "y");
        // Past the end of a line or of the text.
        assert_eq!(idx.offset_of_char_column(text, 1, 99), 13);
        assert_eq!(idx.offset_of_char_column(text, 9, 0), text.len());
        assert_eq!(idx.offset_of_char_column(text, 0, 0), text.len());
    }

    #[test]
    fn offset_past_end_is_clamped() {
        let text = "ab\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 99), LineCol { line: 2, column: 1 });
    }
}
