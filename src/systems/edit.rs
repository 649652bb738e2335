//! The edits of fixes, written in the file's own format: a setting added
//! next to one that is written (YAML block or flow, properties, JSON, TOML),
//! a number or a word of a value replaced. Systems build their fixes from
//! these ([`FixEdits`]); rules ask the policy's system for them and never
//! write a file's syntax themselves.
//!
//! Every edit keeps the rest of the file: the new line takes the
//! indentation, separator and line ending (CRLF stays CRLF) of the setting
//! it is put after; a flow mapping gets `, key: value` inside its braces.

use crate::fix::Edit;
use crate::model::RetryPolicy;
use crate::source::{FileId, Span};
use std::path::Path;
use std::time::Duration;

/// Where a fix is made: a policy in one file's text.
pub struct Site<'a> {
    pub file: FileId,
    pub path: &'a Path,
    pub text: &'a str,
    pub policy: &'a RetryPolicy,
}

/// A fix's edits for a policy of the system, `None` where no edit of the
/// file's format can express it.
pub type MakeEdits = fn(&Site<'_>) -> Option<Vec<Edit>>;

/// A fix's edits that take a duration (a per-try timeout).
pub type MakeTimedEdits = fn(&Site<'_>, Duration) -> Option<Vec<Edit>>;

/// A fix's edits that take written places of the policy (conditions to
/// stop retrying).
pub type MakeDropEdits = fn(&Site<'_>, &[Span]) -> Option<Vec<Edit>>;

/// A fix's edits that set a share (a percentage of the requests).
pub type MakeShareEdits = fn(&Site<'_>, f64) -> Option<Vec<Edit>>;

/// The edits a system can make, one per kind of fix (`None`: the system
/// has none of that kind).
#[derive(Debug)]
pub struct FixEdits {
    /// Turn on jitter (RL203 unjittered-backoff).
    pub jitter: Option<MakeEdits>,
    /// Stop retrying requests that are not idempotent (RL103).
    pub idempotent_only: Option<MakeEdits>,
    /// Add a per-try timeout of this length (RL302).
    pub per_try_timeout: Option<MakeTimedEdits>,
    /// Turn the policy's retries off (RL402, when a layer inside it
    /// retries).
    pub retries_off: Option<MakeEdits>,
    /// Retry only transient failures (RL102).
    pub predicate: Option<MakeEdits>,
    /// Grow a constant delay exponentially, its jitter kept (RL202).
    pub exponential: Option<MakeEdits>,
    /// Stop retrying the listed conditions at these places (RL101): each
    /// taken out of the list it is written in.
    pub drop_conditions: Option<MakeDropEdits>,
    /// Add a retry budget (RL601).
    pub budget: Option<MakeEdits>,
    /// The title of the budget fix, in the system's words (`None`: the
    /// rule's own).
    pub budget_title: Option<&'static str>,
    /// Set the retry budget's share to this percentage of the active
    /// requests (RL602).
    pub budget_share: Option<MakeShareEdits>,
}

impl FixEdits {
    pub const NONE: FixEdits = FixEdits {
        jitter: None,
        idempotent_only: None,
        per_try_timeout: None,
        retries_off: None,
        predicate: None,
        exponential: None,
        drop_conditions: None,
        budget: None,
        budget_title: None,
        budget_share: None,
    };
}

#[path = "edit_list.rs"]
mod list;
pub use list::drop_entries;

#[path = "edit_mapping.rs"]
mod mapping;
pub use mapping::{add_beside, add_under, sibling_key};

/// The conditions at `spans` taken out of the lists they are written in
/// (a comma-separated string, a flow or block sequence, nginx's words);
/// `None` where one is not an entry of such a list or a list would be
/// left empty.
pub fn drop_listed(site: &Site<'_>, spans: &[Span]) -> Option<Vec<Edit>> {
    drop_entries(site.file, site.text, spans)
}

/// [`drop_listed`] in a configuration file (YAML, JSON, properties,
/// TOML) only: in code a condition's text is an expression or a type, not
/// a list entry.
pub fn drop_listed_in_config(site: &Site<'_>, spans: &[Span]) -> Option<Vec<Edit>> {
    if Format::of(site.path) == Format::Other {
        return None;
    }
    drop_listed(site, spans)
}

/// The syntax of a file, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Properties,
    Json,
    Toml,
    /// nginx, Java, Rust and the rest: no setting is added, values may be
    /// replaced.
    Other,
}

impl Format {
    pub fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("yaml" | "yml") => Format::Yaml,
            Some("properties") => Format::Properties,
            Some("json") => Format::Json,
            Some("toml") => Format::Toml,
            _ => Format::Other,
        }
    }
}

/// A value of a setting, rendered per format.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    /// A string, quoted where the format needs it (`2s`).
    Str(String),
    /// A list of plain words (class names): a flow sequence in YAML,
    /// comma-separated in properties.
    List(Vec<String>),
    /// Written as it is, in every format (a flow mapping or a JSON
    /// object the fix composes itself).
    Raw(String),
}

impl Value {
    fn render(&self, format: Format) -> String {
        match (self, format) {
            (Value::Bool(b), _) => b.to_string(),
            (Value::Raw(r), _) => r.clone(),
            (Value::Str(s), Format::Json | Format::Toml) => format!("\"{s}\""),
            (Value::Str(s), _) => s.clone(),
            (Value::List(l), Format::Json | Format::Toml) => format!(
                "[{}]",
                l.iter()
                    .map(|w| format!("\"{w}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            (Value::List(l), Format::Properties) => l.join(","),
            (Value::List(l), _) => format!("[{}]", l.join(", ")),
        }
    }
}

/// The start of the line holding byte `at`.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The end of the line holding byte `at`, after its line break (or the
/// end of the text), and the break itself (`""` on a last line without).
fn line_end(text: &str, at: usize) -> (usize, &str) {
    match text[at..].find('\n') {
        Some(i) => {
            let nl = at + i;
            let brk = if nl > 0 && text.as_bytes()[nl - 1] == b'\r' {
                "\r\n"
            } else {
                "\n"
            };
            (nl + 1, brk)
        }
        None => (text.len(), ""),
    }
}

/// The line break the file uses (its first), for a line added after a
/// last line that has none.
fn file_break(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// `key` in the style of `like` (kebab-case when it is, as Spring's
/// relaxed binding allows either).
pub fn key_like(key: &str, like: &str) -> String {
    if like.contains('_') && !like.chars().any(|c| c.is_ascii_uppercase()) {
        key_like(key, "a-b").replace('-', "_")
    } else if like.contains('-') && !like.chars().any(|c| c.is_ascii_uppercase()) {
        let mut out = String::new();
        for c in key.chars() {
            if c.is_ascii_uppercase() {
                out.push('-');
                out.push(c.to_ascii_lowercase());
            } else {
                out.push(c);
            }
        }
        out
    } else {
        key.to_string()
    }
}

/// Whether byte `at` is inside a flow mapping or sequence that opens on
/// its line (`{attempts: 3, perTryTimeout: 2s}`): the depth of unclosed
/// brackets before it on the line, quotes skipped.
fn in_flow(text: &str, at: usize) -> bool {
    let mut depth = 0i32;
    let mut quote = None;
    for c in text[line_start(text, at)..at].chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{' | '[') => depth += 1,
            (None, '}' | ']') => depth -= 1,
            (None, '#') => break,
            _ => {}
        }
    }
    depth > 0
}

/// The first `,` or closing bracket at depth 0 from byte `at` (quotes
/// skipped): where a flow mapping's entry ends.
fn flow_entry_end(text: &str, at: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut quote = None;
    for (i, c) in text[at..].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{' | '[') => depth += 1,
            (None, '}' | ']') if depth == 0 => return Some(at + i),
            (None, '}' | ']') => depth -= 1,
            (None, ',') if depth == 0 => return Some(at + i),
            _ => {}
        }
    }
    None
}

/// The column of a YAML block entry's key on the line at `start`: after
/// the indentation and any `- ` sequence markers.
fn yaml_key_column(text: &str, start: usize) -> usize {
    let b = text.as_bytes();
    let mut i = start;
    loop {
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        if b.get(i) == Some(&b'-') && matches!(b.get(i + 1), Some(b' ')) {
            i += 1;
        } else {
            return i - start;
        }
    }
}

/// The indentation of a line (spaces), `None` for a blank or comment line.
fn indent_of(line: &str) -> Option<usize> {
    let t = line.trim_start_matches(' ');
    if t.trim().is_empty() || t.starts_with('#') {
        None
    } else {
        Some(line.len() - t.len())
    }
}

/// Add the setting `key: value` next to the written setting at `at` (its
/// key or value), in the file's format: a line after it (and after any
/// block nested under it) with its indentation and line ending, or an
/// entry of the same flow mapping. `key` is put in the style of the
/// sibling's key (`enable-randomized-wait` beside `wait-duration`).
pub fn add_sibling(
    file: FileId,
    path: &Path,
    text: &str,
    at: Span,
    key: &str,
    value: &Value,
) -> Option<Edit> {
    if at.end > text.len() || !text.is_char_boundary(at.start) {
        return None;
    }
    let format = Format::of(path);
    let start = line_start(text, at.start);
    let (end, brk) = line_end(text, at.start);
    let line = text[start..end].trim_end_matches(['\r', '\n']);
    let brk_or = |s: &'static str| if brk.is_empty() { s } else { brk };
    match format {
        Format::Yaml if in_flow(text, at.start) => {
            let sibling = &text[at.start..at.end];
            let key = key_like(key, sibling);
            let put = flow_entry_end(text, at.start)?;
            Some(Edit::insert(
                file,
                put,
                format!(", {key}: {}", value.render(format)),
            ))
        }
        Format::Yaml => {
            let col = yaml_key_column(text, start);
            let sibling = line[col.min(line.len())..]
                .split(':')
                .next()
                .unwrap_or("")
                .trim();
            // A mapping's header (`retries:` over a nested block) is no
            // setting to put one beside.
            let inline = line[col.min(line.len())..]
                .split_once(':')
                .map_or("", |(_, v)| v.split(" #").next().unwrap_or("").trim());
            if sibling.is_empty() || inline.is_empty() {
                return None;
            }
            let key = key_like(key, sibling.trim_matches(['"', '\'']));
            // After the lines nested under the setting (more indented).
            let mut put = end;
            let mut at_line = end;
            while at_line < text.len() {
                let (next, _) = line_end(text, at_line);
                let l = text[at_line..next].trim_end_matches(['\r', '\n']);
                match indent_of(l) {
                    Some(i) if i > col => {
                        at_line = next;
                        put = next;
                    }
                    Some(_) => break,
                    None => at_line = next,
                }
            }
            let lead = if put == text.len() && !text.ends_with('\n') {
                file_break(text)
            } else {
                ""
            };
            let brk = if lead.is_empty() {
                brk_or(file_break(text))
            } else {
                ""
            };
            Some(Edit::insert(
                file,
                put,
                format!(
                    "{lead}{}{key}: {}{brk}",
                    " ".repeat(col),
                    value.render(format)
                ),
            ))
        }
        Format::Properties => {
            let indent = line.len() - line.trim_start().len();
            let body = &line[indent..];
            let key_end = body.find(['=', ':', ' ', '\t'])?;
            let (full_key, rest) = body.split_at(key_end);
            let value_at = rest.find(|c: char| !matches!(c, '=' | ':' | ' ' | '\t'))?;
            let sep = &rest[..value_at];
            let parent = full_key.rfind('.').map_or("", |i| &full_key[..=i]);
            let last = &full_key[parent.len()..];
            let key = key_like(key, last);
            if line.ends_with('\\') {
                return None;
            }
            let lead = if brk.is_empty() { file_break(text) } else { "" };
            let brk = brk_or("");
            Some(Edit::insert(
                file,
                end,
                format!(
                    "{lead}{}{parent}{key}{sep}{}{brk}",
                    &line[..indent],
                    value.render(format)
                ),
            ))
        }
        Format::Toml => {
            let indent = line.len() - line.trim_start().len();
            let body = &line[indent..];
            let (k, _) = body.split_once('=')?;
            let key = key_like(key, k.trim());
            let lead = if brk.is_empty() { file_break(text) } else { "" };
            let brk = brk_or("");
            Some(Edit::insert(
                file,
                end,
                format!(
                    "{lead}{}{key} = {}{brk}",
                    &line[..indent],
                    value.render(format)
                ),
            ))
        }
        Format::Json => {
            // `"key": value` on the line: put `,\n<indent>"new": value`
            // after the value.
            let indent = line.len() - line.trim_start().len();
            let colon = text[at.start..end].find(':')? + at.start;
            let value_start =
                colon + 1 + text[colon + 1..].len() - text[colon + 1..].trim_start().len();
            let value_end = json_value_end(text, value_start)?;
            let brk = if brk.is_empty() {
                file_break(text)
            } else {
                brk
            };
            Some(Edit::insert(
                file,
                value_end,
                format!(
                    ",{brk}{}\"{key}\": {}",
                    &line[..indent],
                    value.render(format)
                ),
            ))
        }
        Format::Other => None,
    }
}

/// The end of the JSON value starting at `at`.
fn json_value_end(text: &str, at: usize) -> Option<usize> {
    let b = text.as_bytes();
    match b.get(at)? {
        b'"' => {
            let mut i = at + 1;
            while i < b.len() {
                match b[i] {
                    b'\\' => i += 2,
                    b'"' => return Some(i + 1),
                    _ => i += 1,
                }
            }
            None
        }
        b'{' | b'[' => {
            let mut depth = 0;
            let mut i = at;
            let mut in_str = false;
            while i < b.len() {
                match (in_str, b[i]) {
                    (true, b'\\') => i += 1,
                    (true, b'"') => in_str = false,
                    (false, b'"') => in_str = true,
                    (false, b'{' | b'[') => depth += 1,
                    (false, b'}' | b']') => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let len = text[at..]
                .find([',', '}', ']', '\n', '\r', ' '])
                .unwrap_or(text.len() - at);
            (len > 0).then_some(at + len)
        }
    }
}

/// The one integer literal written in `span` (a setting such as
/// `numRetries: 5`, `maxAttempts(10)`, `max_retries = 15`) replaced by
/// `to`; `None` when the span holds no integer or more than one (a
/// comment or a name with digits makes it unclear which).
pub fn set_integer(file: FileId, text: &str, span: Span, to: u64) -> Option<Edit> {
    let s = text.get(span.start..span.end)?;
    let b = s.as_bytes();
    let mut found = None;
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let j = i + b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            let glued = |c: Option<&u8>| {
                c.is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_' || *c == b'.')
            };
            let word = (i > 0 && glued(b.get(i - 1))) || glued(b.get(j));
            if !word {
                if found.is_some() {
                    return None;
                }
                found = Some((i, j));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    let (i, j) = found?;
    Some(Edit::new(
        file,
        Span::new(span.start + i, span.start + j),
        to.to_string(),
    ))
}

/// The value of the setting written at `span` (`perTryTimeout: 2s`,
/// `"per_try_timeout": "2s"`, or the value alone) replaced by `to`, its
/// quotes kept; `None` unless the value is one scalar word (a mapping such
/// as `{seconds: 2}`, a list or a value with a comment is left alone).
pub fn set_value(file: FileId, text: &str, span: Span, to: &str) -> Option<Edit> {
    let s = text.get(span.start..span.end)?;
    // The first `:` outside quotes ends the key.
    let mut quote = None;
    let mut colon = None;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, ':') => {
                colon = Some(i);
                break;
            }
            _ => {}
        }
    }
    let from = colon.map_or(0, |i| i + 1);
    let rest = &s[from..];
    let v_start = from + rest.len() - rest.trim_start().len();
    let v = s[v_start..].trim_end();
    let (inner_start, inner) = match v.as_bytes().first() {
        Some(q @ (b'"' | b'\'')) if v.len() >= 2 && v.as_bytes()[v.len() - 1] == *q => {
            (v_start + 1, &v[1..v.len() - 1])
        }
        _ => (v_start, v),
    };
    let word = |c: char| c.is_ascii_alphanumeric() || c == '.';
    if inner.is_empty() || !inner.chars().all(word) {
        return None;
    }
    let at = span.start + inner_start;
    Some(Edit::new(file, Span::new(at, at + inner.len()), to))
}

/// The per-try timeout the policy writes set to `each`, as a Go duration
/// (`1600ms`); `None` where none is written on the policy itself. Gateway
/// API `timeouts.backendRequest` (gateway-api GEP-2257 durations,
/// `^([0-9]{1,5}(h|m|s|ms)){1,4}$`) and Linkerd's
/// `retry.linkerd.io/timeout` annotation (a Go duration) take this form;
/// neither is added where it is not written (the rules that ask for one
/// do not judge these systems).
pub fn set_written_per_try_go(site: &Site<'_>, each: Duration) -> Option<Vec<Edit>> {
    let t = site.policy.per_try_timeout.as_ref()?;
    if t.provenance != crate::model::Provenance::Written {
        return None;
    }
    Some(vec![set_value(
        site.file,
        site.text,
        t.span,
        &go_duration(each),
    )?])
}

/// The integer written in `span` (see [`set_integer`]).
pub fn integer_in(text: &str, span: Span) -> Option<u64> {
    let e = set_integer(0, text, span, 0)?;
    text[e.span.start..e.span.end].parse().ok()
}

/// `word` at `span` removed with the blank before it (`http_503
/// non_idempotent;` -> `http_503;`); `None` unless the span holds
/// exactly that word.
pub fn remove_word(file: FileId, text: &str, span: Span, word: &str) -> Option<Edit> {
    if text.get(span.start..span.end)? != word {
        return None;
    }
    let before = text[..span.start].trim_end_matches([' ', '\t']);
    if before.len() == span.start || before.ends_with(['\n', '\r']) {
        return None;
    }
    Some(Edit::delete(file, Span::new(before.len(), span.end)))
}

/// A duration as Go and protobuf JSON write it (`2s`, `1.5s`, `250ms`).
pub fn go_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms == 0 {
        "1ms".into()
    } else if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// A duration as protobuf's JSON mapping writes it: seconds with a
/// fraction (`2s`, `0.250s`).
pub fn proto_duration(d: Duration) -> String {
    let ms = d.as_millis().max(1);
    if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{}.{:03}s", ms / 1000, ms % 1000)
    }
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;
