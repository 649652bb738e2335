//! Service configs in string literals of Java or Rust code: the literal is
//! decoded (escapes, concatenated pieces, raw strings) with a map from every
//! decoded byte back to the host file, so that spans point into the source.

use super::*;

/// Read a gRPC service config written in a string literal of `host` (the
/// whole file) whose content, between the quotes, is `literal`. Escapes
/// (`\"`, `\\`, `\n`, `\t`, `\uXXXX`, `\u{..}`, a `\` before a line break)
/// are decoded, and every span of the result points into `host`.
///
/// Returns `false`, adding nothing, when the literal is not JSON with a
/// `methodConfig`; a literal that mentions `methodConfig` but does not parse
/// is reported (RL903) and `true` is returned.
pub fn extract_json_literal(host: &str, literal: Span, facts: &mut Facts) -> bool {
    let Some(raw) = host.get(literal.start..literal.end) else {
        return false;
    };
    let (decoded, offsets) = unescape(raw, literal.start);
    read_literal(&decoded, &offsets, literal, facts)
}

/// Like [`extract_json_literal`] for one string written as several
/// literals joined with `+` (`pieces`: each literal's content, in order):
/// the pieces are decoded and read as one text, every span pointing into
/// the piece it came from.
pub fn extract_json_pieces(host: &str, pieces: &[Span], facts: &mut Facts) -> bool {
    let (Some(first), Some(last)) = (pieces.first(), pieces.last()) else {
        return false;
    };
    let mut decoded = String::new();
    let mut offsets = Vec::new();
    for p in pieces {
        let Some(raw) = host.get(p.start..p.end) else {
            return false;
        };
        let (text, mut map) = unescape(raw, p.start);
        map.pop();
        decoded.push_str(&text);
        offsets.extend(map);
    }
    offsets.push(last.end);
    read_literal(&decoded, &offsets, Span::new(first.start, last.end), facts)
}

/// Like [`extract_json_literal`] for literals without escapes: Rust raw
/// strings (`r#"..."#`).
pub fn extract_raw_json_literal(host: &str, literal: Span, facts: &mut Facts) -> bool {
    let Some(raw) = host.get(literal.start..literal.end) else {
        return false;
    };
    let offsets: Vec<usize> = (0..=raw.len()).map(|i| literal.start + i).collect();
    read_literal(raw, &offsets, literal, facts)
}

pub(super) fn read_literal(
    decoded: &str,
    offsets: &[usize],
    literal: Span,
    facts: &mut Facts,
) -> bool {
    if !decoded.contains("methodConfig") && !decoded.to_ascii_lowercase().contains("methodconfig") {
        return false;
    }
    let map = |s: Span| -> Span {
        let at = |i: usize| offsets.get(i).copied().unwrap_or(literal.end);
        Span::new(at(s.start), at(s.end).max(at(s.start)))
    };
    let file = yaml::parse(decoded);
    if let Some(err) = file.errors.first() {
        facts.diagnostics.push(unparsable_file::literal(
            map(err.span),
            "the gRPC service config",
            &err.message,
        ));
        return true;
    }
    let mut any = false;
    for doc in &file.documents {
        any |= read_service_config(file.root(doc), &map, facts);
    }
    any
}

/// Decode string-literal escapes, returning the text and, for each byte of
/// it (and its end), the offset in the host file.
pub(super) fn unescape(raw: &str, base: usize) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(raw.len());
    let mut offsets = Vec::with_capacity(raw.len() + 1);
    let bytes = raw.as_bytes();
    let mut i = 0;
    let push = |out: &mut String, offsets: &mut Vec<usize>, c: char, at: usize| {
        for _ in 0..c.len_utf8() {
            offsets.push(base + at);
        }
        out.push(c);
    };
    while i < raw.len() {
        let Some(c) = raw[i..].chars().next() else {
            break;
        };
        if c != '\\' {
            push(&mut out, &mut offsets, c, i);
            i += c.len_utf8();
            continue;
        }
        let next = bytes.get(i + 1).copied();
        match next {
            Some(b'n') => push(&mut out, &mut offsets, '\n', i),
            Some(b't') => push(&mut out, &mut offsets, '\t', i),
            Some(b'r') => push(&mut out, &mut offsets, '\r', i),
            Some(b'b') | Some(b'f') | Some(b's') => push(&mut out, &mut offsets, ' ', i),
            Some(b'0') => push(&mut out, &mut offsets, '\0', i),
            Some(b'"') | Some(b'\'') | Some(b'\\') => {
                push(&mut out, &mut offsets, next.unwrap_or(b' ') as char, i)
            }
            Some(b'\n') | Some(b'\r') => {
                // A line continuation: the break and the next line's
                // indentation are not part of the string.
                let mut j = i + 1;
                while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                i = j;
                continue;
            }
            Some(b'u') => {
                let rest = &raw[i + 2..];
                let (code, len) = if let Some(body) = rest.strip_prefix('{') {
                    let end = body.find('}').unwrap_or(body.len());
                    (u32::from_str_radix(&body[..end], 16).ok(), end + 2)
                } else {
                    let hex = rest.trim_start_matches('u');
                    let extra_u = rest.len() - hex.len();
                    let digits = hex.get(..4).unwrap_or("");
                    (u32::from_str_radix(digits, 16).ok(), extra_u + 4)
                };
                let ch = code.and_then(char::from_u32).unwrap_or('\u{FFFD}');
                push(&mut out, &mut offsets, ch, i);
                i = ceil_boundary(raw, i + 2 + len);
                continue;
            }
            Some(b'x') => {
                let code = raw
                    .get(i + 2..i + 4)
                    .and_then(|h| u32::from_str_radix(h, 16).ok());
                let ch = code.and_then(char::from_u32).unwrap_or('\u{FFFD}');
                push(&mut out, &mut offsets, ch, i);
                i = ceil_boundary(raw, i + 4);
                continue;
            }
            Some(_) => {
                // Unknown escape: keep the character after the backslash.
                let ch = raw[i + 1..].chars().next().unwrap_or(' ');
                push(&mut out, &mut offsets, ch, i);
                i += 1 + ch.len_utf8();
                continue;
            }
            None => {
                push(&mut out, &mut offsets, '\\', i);
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    offsets.push(base + raw.len());
    (out, offsets)
}

/// The first char boundary at or after `i`, at most the end.
fn ceil_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}
