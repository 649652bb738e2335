//! The YAML (and JSON) layer: a tree with a byte span on every key and
//! value, built from granit-parser events.
//!
//! - Multi-document streams: a document with a syntax error is reported
//!   and the following documents are still read.
//! - Anchors and aliases are resolved by reference: an alias node points at
//!   its anchored node, so nothing is ever copied. The size a document would
//!   have if every alias were expanded is computed as the tree is built; a
//!   document above [`EXPANSION_BUDGET`] (an alias bomb) or with an alias
//!   inside its own anchor is reported and dropped, never expanded.
//! - Nesting is bounded by the parser's limits, and the tree is built with
//!   an explicit stack: deep input cannot overflow the call stack.
//! - JSON is read as YAML 1.2 flow; JSON with comments or trailing commas
//!   (.NET `appsettings.json`) goes through [`strip_jsonc`] first.

use crate::source::Span;
use granit_parser::{Event, Parser, ScalarStyle};

/// The largest number of nodes a document may expand to through aliases.
pub const EXPANSION_BUDGET: u64 = 1_000_000;
/// How many alias hops a lookup follows.
const MAX_ALIAS_HOPS: usize = 64;

pub type NodeId = usize;

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    Null,
    Scalar { value: String, quoted: bool },
    Seq(Vec<NodeId>),
    Map(Vec<(NodeId, NodeId)>),
    Alias(NodeId),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    pub root: NodeId,
    /// 0-based position in the stream.
    pub index: usize,
    pub span: Span,
}

/// A problem that made a document unreadable.
#[derive(Clone, Debug, PartialEq)]
pub struct YamlError {
    pub span: Span,
    pub message: String,
    /// 0-based index of the document that was dropped.
    pub document: usize,
}

#[derive(Debug, Default, PartialEq)]
pub struct YamlFile {
    nodes: Vec<Node>,
    pub documents: Vec<Document>,
    pub errors: Vec<YamlError>,
}

enum Frame {
    Seq {
        id: NodeId,
        items: Vec<NodeId>,
    },
    Map {
        id: NodeId,
        pairs: Vec<(NodeId, NodeId)>,
        key: Option<NodeId>,
    },
}

const INFINITE: u64 = u64::MAX;

struct Builder<'a> {
    text: &'a str,
    file: YamlFile,
    /// Expanded size of each completed node; `None` while it is open.
    sizes: Vec<Option<u64>>,
    anchors: std::collections::HashMap<usize, NodeId>,
    stack: Vec<Frame>,
    doc_start: usize,
    doc_root: Option<NodeId>,
    doc_index: usize,
    doc_first_node: NodeId,
}

impl<'a> Builder<'a> {
    fn push_node(&mut self, kind: NodeKind, span: Span, size: Option<u64>) -> NodeId {
        let id = self.file.nodes.len();
        self.file.nodes.push(Node { kind, span });
        self.sizes.push(size);
        id
    }

    /// Attach a finished node to its parent (or make it the root).
    fn attach(&mut self, id: NodeId) {
        match self.stack.last_mut() {
            None => self.doc_root = Some(id),
            Some(Frame::Seq { items, .. }) => items.push(id),
            Some(Frame::Map { pairs, key, .. }) => match key.take() {
                None => *key = Some(id),
                Some(k) => pairs.push((k, id)),
            },
        }
    }

    /// The first non-blank, non-comment line of the current document.
    fn doc_first_content(&self) -> Span {
        let mut at = self.doc_start.min(self.text.len());
        for line in self.text[at..].split_inclusive('\n') {
            let t = line.trim();
            if !t.is_empty() && !t.starts_with('#') && t != "---" {
                let lead = line.len() - line.trim_start().len();
                return Span::new(at + lead, at + lead + line.trim().len());
            }
            at += line.len();
        }
        Span::new(self.doc_start, self.doc_start)
    }

    fn reset_document(&mut self, start: usize) {
        self.stack.clear();
        self.anchors.clear();
        self.doc_root = None;
        self.doc_start = start;
        self.doc_first_node = self.file.nodes.len();
    }

    fn fail(&mut self, span: Span, message: String) {
        self.file.errors.push(YamlError {
            span,
            message,
            document: self.doc_index,
        });
        // Drop the partial document's nodes: nothing refers to them.
        self.file.nodes.truncate(self.doc_first_node);
        self.sizes.truncate(self.doc_first_node);
        self.stack.clear();
        self.doc_root = None;
    }

    fn event(&mut self, event: Event<'_>, span: Span) -> Result<(), (Span, String)> {
        match event {
            Event::StreamStart | Event::StreamEnd => {}
            Event::DocumentStart(..) => self.reset_document(span.start),
            Event::DocumentEnd => {
                let root = match self.doc_root.take() {
                    Some(r) => r,
                    None => {
                        self.push_node(NodeKind::Null, Span::new(span.start, span.start), Some(1))
                    }
                };
                let size = self.sizes[root].unwrap_or(INFINITE);
                if size > EXPANSION_BUDGET {
                    let why = if size == INFINITE {
                        "an alias refers to a node that contains it (`*` inside its own `&` anchor)"
                            .to_string()
                    } else {
                        format!(
                            "aliases would expand it to more than `{EXPANSION_BUDGET}` nodes (an alias bomb)"
                        )
                    };
                    // Point at the document's first line, not its whole body.
                    let first = self.doc_first_content();
                    self.file.errors.push(YamlError {
                        span: first,
                        message: why,
                        document: self.doc_index,
                    });
                } else {
                    self.file.documents.push(Document {
                        root,
                        index: self.doc_index,
                        span: Span::new(self.doc_start, span.end.max(self.doc_start)),
                    });
                }
                self.doc_index += 1;
                self.doc_first_node = self.file.nodes.len();
            }
            Event::Alias(anchor) => {
                let Some(&target) = self.anchors.get(&anchor) else {
                    return Err((span, "alias to an unknown anchor".into()));
                };
                let size = self.sizes[target].unwrap_or(INFINITE);
                let id = self.push_node(NodeKind::Alias(target), span, Some(size));
                self.attach(id);
            }
            Event::Scalar(value, style, anchor, _tag) => {
                let quoted = !matches!(style, ScalarStyle::Plain);
                let kind = if !quoted && is_null(&value) {
                    NodeKind::Null
                } else {
                    NodeKind::Scalar {
                        value: value.into_owned(),
                        quoted,
                    }
                };
                let id = self.push_node(kind, span, Some(1));
                if anchor != 0 {
                    self.anchors.insert(anchor, id);
                }
                self.attach(id);
            }
            Event::SequenceStart(_, anchor, _) => {
                let id = self.push_node(NodeKind::Seq(Vec::new()), span, None);
                if anchor != 0 {
                    self.anchors.insert(anchor, id);
                }
                self.stack.push(Frame::Seq {
                    id,
                    items: Vec::new(),
                });
            }
            Event::MappingStart(_, anchor, _) => {
                let id = self.push_node(NodeKind::Map(Vec::new()), span, None);
                if anchor != 0 {
                    self.anchors.insert(anchor, id);
                }
                self.stack.push(Frame::Map {
                    id,
                    pairs: Vec::new(),
                    key: None,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Err((span, "unbalanced collection end".into()));
                };
                let (id, kind, children): (NodeId, NodeKind, Vec<NodeId>) = match frame {
                    Frame::Seq { id, items, .. } => {
                        let c = items.clone();
                        (id, NodeKind::Seq(items), c)
                    }
                    Frame::Map { id, pairs, .. } => {
                        let c = pairs.iter().flat_map(|(k, v)| [*k, *v]).collect();
                        (id, NodeKind::Map(pairs), c)
                    }
                };
                let mut size: u64 = 1;
                for c in children {
                    size = match self.sizes[c] {
                        // An alias inside its own anchor: stays infinite.
                        None | Some(INFINITE) => INFINITE,
                        // Huge but finite (an alias bomb past 2^64 nodes)
                        // must not be mistaken for the infinite case.
                        Some(n) if size != INFINITE => size.saturating_add(n).min(INFINITE - 1),
                        Some(_) => INFINITE,
                    };
                }
                self.sizes[id] = Some(size);
                let node = &mut self.file.nodes[id];
                node.kind = kind;
                node.span = Span::new(node.span.start, span.end.max(node.span.start));
                self.attach(id);
            }
            _ => {}
        }
        Ok(())
    }
}

fn is_null(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

/// Parse a YAML or JSON stream. Never panics; problems are in `errors`.
pub fn parse(text: &str) -> YamlFile {
    let mut b = Builder::new(text);
    b.stream(text, 0);
    b.file
}

impl<'a> Builder<'a> {
    fn new(text: &'a str) -> Self {
        Builder {
            text,
            file: YamlFile::default(),
            sizes: Vec::new(),
            anchors: Default::default(),
            stack: Vec::new(),
            doc_start: 0,
            doc_root: None,
            doc_index: 0,
            doc_first_node: 0,
        }
    }

    /// Read the stream `part`, the text from byte `base` of `self.text`
    /// on (all of it for [`parse`]), its documents after those read so
    /// far; `false` when one of them had an error.
    fn stream(&mut self, part: &str, base: usize) -> bool {
        let options = granit_parser::options! { emit_comments: false };
        let mut parser = Parser::new_from_str_with_options(part, options);
        let shift = |s: Span| Span::new(s.start + base, s.end + base);
        let mut clean = true;
        loop {
            crate::guard::checkpoint();
            match parser.next_event() {
                None => break,
                Some(Ok((event, span))) => {
                    let span = shift(to_span(&span, part));
                    if let Err((span, message)) = self.event(event, span) {
                        clean = false;
                        self.fail(span, message);
                        self.doc_index += 1;
                        match parser.proceed_next_document() {
                            Ok(true) => continue,
                            _ => break,
                        }
                    }
                }
                Some(Err(e)) => {
                    clean = false;
                    let at = e
                        .marker()
                        .byte_offset()
                        .unwrap_or_else(|| char_to_byte(part, e.marker().index()));
                    let end = next_char_end(part, at);
                    self.fail(shift(Span::new(at, end)), e.info());
                    self.doc_index += 1;
                    match parser.proceed_next_document() {
                        Ok(true) => continue,
                        _ => break,
                    }
                }
            }
        }
        clean
    }
}

fn to_span(span: &granit_parser::Span, text: &str) -> Span {
    match span.byte_range() {
        Some(r) => Span::new(r.start.min(text.len()), r.end.min(text.len())),
        None => {
            let s = char_to_byte(text, span.start.index());
            let e = char_to_byte(text, span.end.index());
            Span::new(s, e.max(s))
        }
    }
}

fn char_to_byte(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(b, _)| b)
}

fn next_char_end(text: &str, at: usize) -> usize {
    let at = at.min(text.len());
    text[at..].chars().next().map_or(at, |c| at + c.len_utf8())
}

/// Blank out `//` and `/* */` comments and trailing commas in JSON, keeping
/// every byte offset, as .NET's configuration reader accepts them.
pub fn strip_jsonc(text: &str) -> String {
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    let b = text.as_bytes();
    let mut i = 0;
    let mut in_str = false;
    // Position of the last comma outside strings with only blanks after it.
    let mut pending_comma: Option<usize> = None;
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                in_str = true;
                pending_comma = None;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                let end = (i + 2).min(b.len());
                for o in &mut out[start..end] {
                    if *o != b'\n' && *o != b'\r' {
                        *o = b' ';
                    }
                }
                i = end;
                continue;
            }
            b',' => pending_comma = Some(i),
            b'}' | b']' => {
                if let Some(p) = pending_comma.take() {
                    out[p] = b' ';
                }
            }
            c if c.is_ascii_whitespace() => {}
            _ => pending_comma = None,
        }
        i += 1;
    }
    // Only ASCII bytes were replaced by ASCII spaces, and whole comments
    // were blanked, so the result is still UTF-8; fall back just in case.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

impl YamlFile {
    pub fn node(&self, id: NodeId) -> Yaml<'_> {
        Yaml { file: self, id }.deref()
    }

    pub fn root(&self, doc: &Document) -> Yaml<'_> {
        self.node(doc.root)
    }
}

/// A view of one node. Lookups see through aliases and `<<` merge keys.
#[derive(Clone, Copy)]
pub struct Yaml<'f> {
    file: &'f YamlFile,
    id: NodeId,
}

impl std::fmt::Debug for Yaml<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Yaml({:?} @ {:?})", self.kind_name(), self.span())
    }
}

/// A map entry: the key's text and span, and the value.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'f> {
    pub key: &'f str,
    pub key_span: Span,
    pub value: Yaml<'f>,
}

impl<'f> Entry<'f> {
    /// Span from the key to the end of the value.
    pub fn span(&self) -> Span {
        self.key_span.cover(self.value.span())
    }
}

impl<'f> Yaml<'f> {
    fn raw(&self) -> &'f Node {
        &self.file.nodes[self.id]
    }

    fn deref(self) -> Yaml<'f> {
        let mut cur = self;
        for _ in 0..MAX_ALIAS_HOPS {
            match cur.raw().kind {
                NodeKind::Alias(t) => {
                    cur = Yaml {
                        file: cur.file,
                        id: t,
                    }
                }
                _ => return cur,
            }
        }
        cur
    }

    pub fn id(&self) -> NodeId {
        self.id
    }

    pub fn span(&self) -> Span {
        self.raw().span
    }

    pub fn kind(&self) -> &'f NodeKind {
        &self.raw().kind
    }

    pub fn kind_name(&self) -> &'static str {
        match self.kind() {
            NodeKind::Null => "null",
            NodeKind::Scalar { .. } => "scalar",
            NodeKind::Seq(_) => "sequence",
            NodeKind::Map(_) => "mapping",
            NodeKind::Alias(_) => "alias",
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.kind(), NodeKind::Null)
    }
    pub fn is_map(&self) -> bool {
        matches!(self.kind(), NodeKind::Map(_))
    }
    pub fn is_seq(&self) -> bool {
        matches!(self.kind(), NodeKind::Seq(_))
    }

    /// The scalar's text (numbers and booleans as written), or `None`.
    pub fn as_str(&self) -> Option<&'f str> {
        match self.kind() {
            NodeKind::Scalar { value, .. } => Some(value.as_str()),
            _ => None,
        }
    }

    pub fn is_quoted(&self) -> bool {
        matches!(self.kind(), NodeKind::Scalar { quoted: true, .. })
    }

    /// An integer (plain or quoted; protobuf JSON writes int64 as strings).
    pub fn as_i64(&self) -> Option<i64> {
        let s = self.as_str()?.trim();
        let s = s.strip_prefix('+').unwrap_or(s);
        if let Ok(n) = s.parse::<i64>() {
            return Some(n);
        }
        match s.parse::<f64>() {
            Ok(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => Some(f as i64),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        self.as_str()?
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
    }

    /// A boolean as YAML 1.2 and SnakeYAML (YAML 1.1) read it.
    pub fn as_bool(&self) -> Option<bool> {
        match self.as_str()?.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" => Some(true),
            "false" | "no" | "off" => Some(false),
            _ => None,
        }
    }

    /// Entries of a mapping in order, `<<` merges expanded after the
    /// explicit keys (explicit keys win). Empty for anything else.
    pub fn entries(&self) -> Vec<Entry<'f>> {
        let mut out = Vec::new();
        self.collect_entries(&mut out, 0);
        out
    }

    fn collect_entries(&self, out: &mut Vec<Entry<'f>>, depth: usize) {
        let NodeKind::Map(pairs) = self.kind() else {
            return;
        };
        let mut merges = Vec::new();
        for &(k, v) in pairs {
            let key = self.file.node(k);
            let value = self.file.node(v);
            let key_text = key.as_str().unwrap_or("");
            if key_text == "<<" && !key.is_quoted() {
                merges.push(value);
                continue;
            }
            if out.iter().any(|e| e.key == key_text) {
                continue;
            }
            out.push(Entry {
                key: key_text,
                key_span: key.span(),
                value,
            });
        }
        if depth >= 8 {
            return;
        }
        for m in merges {
            match m.kind() {
                NodeKind::Map(_) => m.collect_entries(out, depth + 1),
                NodeKind::Seq(items) => {
                    for &i in items {
                        self.file.node(i).collect_entries(out, depth + 1)
                    }
                }
                _ => {}
            }
        }
    }

    /// The entry for `key`.
    pub fn entry(&self, key: &str) -> Option<Entry<'f>> {
        self.entries().into_iter().find(|e| e.key == key)
    }

    /// The value for `key`.
    pub fn get(&self, key: &str) -> Option<Yaml<'f>> {
        // Fast path without merge keys.
        if let NodeKind::Map(pairs) = self.kind() {
            for &(k, v) in pairs {
                if self.file.node(k).as_str() == Some(key) {
                    return Some(self.file.node(v));
                }
            }
            if pairs
                .iter()
                .any(|&(k, _)| self.file.node(k).as_str() == Some("<<"))
            {
                return self.entry(key).map(|e| e.value);
            }
        }
        None
    }

    /// The value for the first of `keys` present (snake_case and camelCase
    /// spellings of one field, say).
    pub fn get_any(&self, keys: &[&str]) -> Option<Yaml<'f>> {
        keys.iter().find_map(|k| self.get(k))
    }

    pub fn entry_any(&self, keys: &[&str]) -> Option<Entry<'f>> {
        keys.iter().find_map(|k| self.entry(k))
    }

    /// Follow a path of keys.
    pub fn path(&self, keys: &[&str]) -> Option<Yaml<'f>> {
        let mut cur = *self;
        for k in keys {
            cur = cur.get(k)?;
        }
        Some(cur)
    }

    /// The non-empty tokens of a scalar split on `sep`, each with its own
    /// span where the scalar's text maps byte for byte onto the file (plain
    /// or simply quoted), else the whole value's span.
    pub fn tokens(&self, sep: char) -> Vec<(&'f str, Span)> {
        let Some(text) = self.as_str() else {
            return Vec::new();
        };
        let quote = usize::from(self.is_quoted());
        let base = self.span().start + quote;
        let exact = self.span().len() == text.len() + 2 * quote;
        let mut out = Vec::new();
        let mut offset = 0;
        for part in text.split(sep) {
            let token = part.trim();
            let lead = part.len() - part.trim_start().len();
            if !token.is_empty() {
                let span = if exact {
                    Span::new(base + offset + lead, base + offset + lead + token.len())
                } else {
                    self.span()
                };
                out.push((token, span));
            }
            offset += part.len() + sep.len_utf8();
        }
        out
    }

    /// Items of a sequence; empty for anything else.
    pub fn items(&self) -> Vec<Yaml<'f>> {
        match self.kind() {
            NodeKind::Seq(items) => items.iter().map(|&i| self.file.node(i)).collect(),
            _ => Vec::new(),
        }
    }
}

/// Where each byte of a string scalar's value (and its end) is in `text`,
/// for a value that stands in the file line by line: a plain scalar
/// without folding, a quoted scalar on one line (an escape's bytes all at
/// its backslash: `\"` stands for `"`, [`quoted::offsets`]), or a literal
/// block (`|`), whose lines are the file's lines without their
/// indentation. `None` for anything else (folded lines): the caller then
/// places every span at the scalar.
pub fn scalar_offsets(text: &str, span: Span, value: &str) -> Option<Vec<usize>> {
    if let Some(q @ (b'"' | b'\'')) = text.as_bytes().get(span.start) {
        return quoted::offsets(text, span.start, *q, value);
    }
    let mut offsets = Vec::with_capacity(value.len() + 1);
    let mut cursor = span.start.min(text.len());
    let end = text.len();
    let mut first = true;
    let mut lines = value.split('\n').peekable();
    while let Some(line) = lines.next() {
        let at = if line.is_empty() {
            cursor
        } else {
            let found = cursor + text.get(cursor..end)?.find(line)?;
            // Only indentation, a line break and (before the first line)
            // the scalar's header may stand between two lines.
            let gap = &text[cursor..found];
            let header_ok =
                |c: char| first && matches!(c, '|' | '>' | '-' | '+' | '"' | '\'' | '0'..='9');
            if gap.chars().filter(|&c| c == '\n').count() > 1 + usize::from(first)
                || !gap.chars().all(|c| c.is_whitespace() || header_ok(c))
            {
                return None;
            }
            found
        };
        offsets.extend((0..line.len()).map(|j| at + j));
        cursor = at + line.len();
        if lines.peek().is_some() {
            // The line break of the value is the file's.
            if text.as_bytes().get(cursor) != Some(&b'\n') && !text[cursor..].starts_with("\r\n") {
                return None;
            }
            offsets.push(cursor);
            cursor += if text[cursor..].starts_with("\r\n") {
                2
            } else {
                1
            };
        }
        first = false;
    }
    offsets.push(cursor);
    Some(offsets)
}

#[cfg(test)]
mod tests;

pub mod quoted;
mod skip;
pub use skip::{parse_counting, parse_skipping};
