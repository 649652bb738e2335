//! The INI reader of the shared config and credentials files: sections,
//! properties, nested sub-sections, comments and quotes, in the dialect both
//! reference readers accept (their differences are reported by the caller
//! or here as they are met).

use super::*;

/// One `key = value` line.
#[derive(Clone, Debug)]
pub(super) struct Prop {
    /// Lower-cased, as the SDKs compare keys.
    pub(super) key: String,
    pub(super) key_span: Span,
    /// The value as aws-sdk-go-v2 reads it: cut at a comment, unquoted.
    pub(super) value: String,
    /// The value text up to the comment, quotes included.
    pub(super) value_span: Span,
    /// Whether botocore reads something else (quotes, an inline comment).
    pub(super) botocore_differs: bool,
    /// The value as written, up to the end of the line.
    pub(super) raw: String,
    /// Nested `key = value` lines under an empty value.
    pub(super) nested: Vec<Prop>,
    /// Whether `:` separates key and value (botocore and aws-sdk-go-v2
    /// accept it; the SDKs of the shared profile parser do not).
    colon: bool,
}

impl Prop {
    pub(super) fn span(&self) -> Span {
        self.key_span.cover(self.value_span)
    }
}

#[derive(Debug)]
pub(super) struct Section {
    /// The text between the brackets, split at the first blank.
    pub(super) kind: String,
    pub(super) name: String,
    pub(super) header: Span,
    pub(super) props: Vec<Prop>,
}

/// Parse the INI text. Lines that are none of the known forms are
/// reported without their text.
pub(super) fn parse(text: &str, facts: &mut Facts) -> Vec<Section> {
    let mut sections: Vec<Section> = Vec::new();
    let mut offset = 0;
    let mut orphan_reported = false;
    // Whether the line before was an indented one that continues nothing.
    let mut in_orphan_run = false;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        let line_span = Span::new(start + lead, start + line.trim_end().len());
        if line.starts_with('[') {
            let cut = cut_comment(line);
            let head = line[..cut].trim_end();
            let Some(inner) = head.strip_prefix('[').and_then(|h| h.strip_suffix(']')) else {
                facts.diagnostics.push(unparsable_file::line(
                    line_span,
                    "a section header without a closing `]`",
                    "write the header as `[profile NAME]`; the SDKs refuse a file with a broken line",
                ));
                continue;
            };
            let inner = inner.trim();
            let (kind, name) = match inner.split_once([' ', '\t']) {
                Some((k, n)) => (k.to_string(), n.trim().to_string()),
                None => (String::new(), inner.to_string()),
            };
            sections.push(Section {
                kind,
                name,
                header: Span::new(start, start + head.len()),
                props: Vec::new(),
            });
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        if indented {
            // A nested property under an empty value, or a continuation.
            match sections.last_mut().map(|s| s.props.last_mut()) {
                Some(Some(parent)) if parent.value.is_empty() => match sub_property(line, start) {
                    Ok(p) => parent.nested.push(p),
                    Err(reason) => facts.diagnostics.push(unparsable_file::line(
                        line_span,
                        reason,
                        "write it as `name = value` under the property: the SDKs refuse the file (botocore raises ConfigParseError)",
                    )),
                },
                Some(Some(_)) => {}
                // One finding for a run of such lines (an indented block).
                _ if in_orphan_run => {}
                Some(None) => facts.diagnostics.push(unparsable_file::line(
                    line_span,
                    "an indented line that continues no `key = value` of its section",
                    "remove the indentation: the SDKs of the shared profile parser (Java, Rust, Kotlin) refuse the file and aws-sdk-go-v2 ignores the line",
                )),
                None => facts.diagnostics.push(unparsable_file::line(
                    line_span,
                    "an indented line before the first `[section]`",
                    "put it under a `[default]` or `[profile NAME]` header: botocore and the SDKs of the shared profile parser refuse the file",
                )),
            }
            in_orphan_run = sections.last().is_none_or(|s| s.props.is_empty());
            continue;
        }
        in_orphan_run = false;
        let parsed = property(line, start, true);
        if let Some(p) = &parsed
            && p.colon
        {
            facts.diagnostics.push(unparsable_file::line(
                line_span,
                "`:` between key and value",
                "write `key = value`: botocore and aws-sdk-go-v2 accept `:`, the Java, Rust, Kotlin and other SDKs of the shared profile parser refuse the file",
            ));
        }
        match parsed {
            Some(p) => match sections.last_mut() {
                Some(s) => s.props.push(p),
                None => {
                    if !orphan_reported {
                        facts.diagnostics.push(unparsable_file::line(
                            line_span,
                            "a `key = value` line before the first `[section]`",
                            "put it under a `[default]` or `[profile NAME]` header: botocore refuses the file and aws-sdk-go-v2 ignores the line",
                        ));
                        orphan_reported = true;
                    }
                }
            },
            None => facts.diagnostics.push(unparsable_file::line(
                line_span,
                "neither a `[section]`, a `key = value` nor a comment",
                "fix or remove the line: aws-sdk-go-v2 and botocore both refuse to load a file with it",
            )),
        }
    }
    sections
}

/// Where aws-sdk-go-v2 cuts a line: at the first `#`, then the first `;`.
fn cut_comment(line: &str) -> usize {
    let hash = line.find('#').unwrap_or(line.len());
    line[..hash].find(';').unwrap_or(hash)
}

/// A sub-property line (indented, under a key with an empty value): the
/// SDKs' shared profile parser and botocore (`configloader._parse_nested`,
/// `line.split('=', 1)`) want `name = value` with a name; `:` is no
/// separator there.
fn sub_property(line: &str, start: usize) -> Result<Prop, &'static str> {
    let Some(eq) = line.find('=') else {
        return Err("a sub-property line without `=`");
    };
    if line[..eq].trim().is_empty() {
        return Err("a sub-property line with an empty name before `=`");
    }
    let key_raw = &line[..eq];
    let key = key_raw.trim();
    let key_start = start + (key_raw.len() - key_raw.trim_start().len());
    let value_raw = &line[eq + 1..];
    let value = value_raw.trim();
    let value_start = start + eq + 1 + (value_raw.len() - value_raw.trim_start().len());
    Ok(Prop {
        key: key.to_ascii_lowercase(),
        key_span: Span::new(key_start, key_start + key.len()),
        value: unquote(value).to_string(),
        value_span: Span::new(value_start, value_start + value.len()),
        botocore_differs: unquote(value) != value,
        raw: value.to_string(),
        nested: Vec::new(),
        colon: false,
    })
}

/// A `key = value` (or `key: value`) line starting at byte `start`.
pub(super) fn property(line: &str, start: usize, cut: bool) -> Option<Prop> {
    let end = if cut { cut_comment(line) } else { line.len() };
    let body = &line[..end];
    let eq = body.find('=');
    let colon = body.find(':');
    let sep = match (eq, colon) {
        (Some(e), Some(c)) => e.min(c),
        (Some(e), None) => e,
        (None, Some(c)) => c,
        (None, None) => return None,
    };
    let key_raw = &body[..sep];
    let key = key_raw.trim();
    if key.is_empty() {
        return None;
    }
    let key_start = start + (key_raw.len() - key_raw.trim_start().len());
    let value_raw = &body[sep + 1..];
    let value = value_raw.trim();
    let value_start = start + sep + 1 + (value_raw.len() - value_raw.trim_start().len());
    let unquoted = unquote(value);
    let full_rest = line[sep + 1..].trim();
    Some(Prop {
        colon: body.as_bytes()[sep] == b':',
        key: key.to_ascii_lowercase(),
        key_span: Span::new(key_start, key_start + key.len()),
        value: unquoted.to_string(),
        value_span: Span::new(value_start, value_start + value.len()),
        botocore_differs: unquoted != full_rest,
        raw: full_rest.to_string(),
        nested: Vec::new(),
    })
}

fn unquote(s: &str) -> &str {
    let b = s.as_bytes();
    if b.len() > 2 && (b[0] == b'"' || b[0] == b'\'') && b[b.len() - 1] == b[0] {
        &s[1..s.len() - 1]
    } else {
        s
    }
}
