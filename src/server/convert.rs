//! Between retrylint's values and the protocol's: `file:` URIs and paths,
//! byte offsets and LSP positions (UTF-16 code units by default, UTF-8
//! when the client offers it), findings and LSP diagnostics.

use crate::diag::Severity;
use crate::rules::Finding;
use crate::source::{LineIndex, Span};
use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Range, Uri,
};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// How the client counts characters in a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf16,
    Utf8,
}

/// The path a `file:` URI names (percent-decoded); `None` for any other
/// scheme or a URI that does not decode to UTF-8.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    // `file:///path` or `file://localhost/path`.
    let path = match rest.strip_prefix("localhost") {
        Some(p) if p.starts_with('/') => p,
        _ => rest,
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(h) = bytes.get(i + 1..i + 3)
            && let Ok(h) = std::str::from_utf8(h)
            && let Ok(b) = u8::from_str_radix(h, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    let decoded = String::from_utf8(out).ok()?;
    // Windows: `file:///C:/dir` names `C:/dir`.
    let windows_drive = decoded.len() >= 3
        && decoded.as_bytes()[2] == b':'
        && decoded.as_bytes()[1].is_ascii_alphabetic();
    if cfg!(windows) && windows_drive {
        return Some(PathBuf::from(&decoded[1..]));
    }
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of an absolute path, every byte outside the
/// unreserved set and `/` percent-encoded.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let s = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !s.starts_with('/') {
        out.push('/');
    }
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&out).ok()
}

/// The LSP position of byte `offset` of `text`.
pub fn position(text: &str, lines: &LineIndex, offset: usize, enc: Encoding) -> Position {
    let mut offset = offset.min(text.len());
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line = lines.line_of(offset);
    let start = lines.line_start(line).min(offset);
    let prefix = &text[start..offset];
    let character = match enc {
        Encoding::Utf16 => prefix.encode_utf16().count(),
        Encoding::Utf8 => prefix.len(),
    };
    Position::new(clamp_u32(line), clamp_u32(character))
}

/// The byte offset of an LSP position in `text`; a character past the end
/// of its line stops at the line's end, a line past the end at the text's.
pub fn offset(text: &str, lines: &LineIndex, pos: Position, enc: Encoding) -> usize {
    let line = pos.line as usize;
    if line >= lines.line_count() {
        return text.len();
    }
    let start = lines.line_start(line);
    let row = lines.line_text(text, line);
    let mut units = 0usize;
    for (i, c) in row.char_indices() {
        if units >= pos.character as usize {
            return start + i;
        }
        units += match enc {
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf8 => c.len_utf8(),
        };
    }
    start + row.len()
}

pub fn range(text: &str, lines: &LineIndex, span: Span, enc: Encoding) -> Range {
    let end = span.end.max(span.start);
    Range::new(
        position(text, lines, span.start, enc),
        position(text, lines, end, enc),
    )
}

fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

pub fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// Where a file of the analysed scan is, and its text.
pub trait Files {
    fn file(&self, id: crate::source::FileId) -> Option<(&Path, &str, &LineIndex)>;
}

/// The LSP diagnostic of a finding in `text`: its rule's code, linked to
/// the rule's doc (what `retrylint explain` prints), the help on a line of
/// its own, and each related place (the hops of a path) as related
/// information, and so each other place of the same cause in the file
/// (`others`: one diagnostic per cause, as the pretty output shows it).
pub fn diagnostic(
    f: &Finding,
    others: &[&Finding],
    text: &str,
    lines: &LineIndex,
    files: &dyn Files,
    enc: Encoding,
) -> lsp_types::Diagnostic {
    let message = if f.help.is_empty() {
        f.message.clone()
    } else {
        format!("{}\nhelp: {}", f.message, f.help)
    };
    let related: Vec<DiagnosticRelatedInformation> = f
        .related
        .iter()
        .filter_map(|r| {
            let (path, text, lines) = files.file(r.file)?;
            Some(DiagnosticRelatedInformation {
                location: Location::new(path_to_uri(path)?, range(text, lines, r.span, enc)),
                message: r.message.clone(),
            })
        })
        .chain(others.iter().filter_map(|o| {
            let (path, text, lines) = files.file(o.file)?;
            Some(DiagnosticRelatedInformation {
                location: Location::new(path_to_uri(path)?, range(text, lines, o.span, enc)),
                message: crate::render::same_cause(o),
            })
        }))
        .collect();
    lsp_types::Diagnostic {
        range: range(text, lines, f.span, enc),
        severity: Some(severity(f.severity)),
        code: Some(NumberOrString::String(f.rule.code.to_string())),
        code_description: Uri::from_str(&f.rule.help_uri())
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("retrylint".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_paths_round_trip() {
        let p = Path::new("/tmp/a dir/ü%.yaml");
        let uri = path_to_uri(p).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20dir/%C3%BC%25.yaml");
        assert_eq!(uri_to_path(&uri).unwrap(), p);
        let other = Uri::from_str("untitled:Untitled-1").unwrap();
        assert_eq!(uri_to_path(&other), None);
    }

    #[test]
    fn positions_count_utf16_units_and_round_trip() {
        let text = "a: 1\r\nb: \"😀\" x\n";
        let lines = LineIndex::new(text);
        let x = text.find('x').unwrap();
        let p = position(text, &lines, x, Encoding::Utf16);
        assert_eq!((p.line, p.character), (1, 8));
        assert_eq!(offset(text, &lines, p, Encoding::Utf16), x);
        let p8 = position(text, &lines, x, Encoding::Utf8);
        assert_eq!((p8.line, p8.character), (1, 10));
        assert_eq!(offset(text, &lines, p8, Encoding::Utf8), x);
        // Past the end of a line: its end (before the CRLF).
        assert_eq!(
            offset(text, &lines, Position::new(0, 99), Encoding::Utf16),
            4
        );
        assert_eq!(
            offset(text, &lines, Position::new(9, 0), Encoding::Utf16),
            text.len()
        );
    }
}
