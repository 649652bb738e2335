//! `.properties` files, read as `java.util.Properties.load` and Spring
//! Boot's `OriginTrackedPropertiesLoader` read them, into the same flat
//! [`Prop`] list that Spring YAML flattens to, so that every Spring
//! extractor (Resilience4j, Spring Cloud Gateway, the Boot retry settings)
//! has one interpretation for both syntaxes.
//!
//! The syntax (JDK `java.util.Properties#load(Reader)` javadoc; Spring Boot
//! `org.springframework.boot.env.OriginTrackedPropertiesLoader`):
//! - a natural line ends at `\n`, `\r\n` or `\r`; a logical line continues
//!   onto the next natural line when it ends in an odd number of `\`, and
//!   the continuation's leading whitespace (space, tab, form feed) is
//!   dropped;
//! - a line whose first non-whitespace character is `#` or `!` is a
//!   comment (a trailing `\` does not continue a comment);
//! - the key runs to the first unescaped `=`, `:` or whitespace; whitespace
//!   around a single `=`/`:` separator is skipped; the value is the rest of
//!   the logical line, trailing whitespace included;
//! - `\t`, `\n`, `\r`, `\f`, `\uXXXX` are escapes, and `\` before any other
//!   character stands for that character (`\:`, `\=`, `\ `, `\\`); a
//!   malformed `\uXXXX` makes `load` throw, which is reported (RL903);
//! - Spring Boot 2.4+ splits a file into documents at a `#---` or `!---`
//!   line (not directly after a comment with the same prefix), as YAML's
//!   `---`; later duplicates of a key win within a document.
//!
//! Every key segment and the value keep byte spans into the original text,
//! across escapes and continuations ([`Prop::value_map`]). Spring's
//! `name[]=a,b` shortcut is kept as one comma list (the extractors split
//! lists on commas). A file that is not UTF-8 is read as ISO-8859-1, the
//! encoding `Properties.load(InputStream)` assumes (see `lib.rs`).

use crate::diag::unparsable_file;
use crate::extract::Facts;
use crate::source::Span;
use crate::systems::spring::extract::{self as spring, Prop};

/// At most this many properties are read from one file.
const MAX_PROPS: usize = 200_000;

/// A parsed `.properties` file.
#[derive(Debug, Default)]
pub struct PropertiesFile {
    /// The documents (one unless Spring's `#---` separators split it),
    /// each with its properties in file order, later duplicates removed.
    pub documents: Vec<Vec<Prop>>,
    /// Malformed `\uXXXX` escapes: `(span, message)`.
    pub errors: Vec<(Span, String)>,
}

/// One decoded character and the source bytes it came from.
#[derive(Clone, Copy, Debug)]
struct Ch {
    c: char,
    span: Span,
    escaped: bool,
}

fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == 0x0c
}

/// Parse properties text. `spring_documents` turns on Spring Boot's
/// `#---` document separators. Never panics; linear in the input.
pub fn parse(text: &str, spring_documents: bool) -> PropertiesFile {
    let bytes = text.as_bytes();
    let mut out = PropertiesFile::default();
    let mut doc = Doc::default();
    let mut count = 0usize;
    let mut pos = 0usize;
    // The comment prefix of the previous line, for Spring's separator rule.
    let mut last_comment: Option<u8> = None;
    while pos < bytes.len() && count < MAX_PROPS {
        let line_start = pos;
        // Leading whitespace of a logical line.
        while pos < bytes.len() && is_ws(bytes[pos]) {
            pos += 1;
        }
        if pos >= bytes.len() {
            break;
        }
        match bytes[pos] {
            b'\n' | b'\r' => {
                pos = skip_newline(bytes, pos);
                last_comment = None;
                continue;
            }
            prefix @ (b'#' | b'!') => {
                let end = line_end(bytes, pos);
                let rest = text[pos + 1..end].trim_end_matches([' ', '\t', '\x0c']);
                let separator = spring_documents
                    && pos == line_start
                    && rest == "---"
                    && last_comment != Some(prefix);
                if separator {
                    if let Some(d) = std::mem::take(&mut doc).finish() {
                        out.documents.push(d);
                    }
                    last_comment = None;
                } else {
                    last_comment = Some(prefix);
                }
                pos = skip_newline(bytes, end);
                continue;
            }
            _ => {}
        }
        last_comment = None;
        let (chars, next) = logical_line(text, pos, &mut out.errors);
        pos = next;
        if let Some(prop) = split_entry(&chars) {
            count += 1;
            doc.put(prop);
        }
    }
    if let Some(d) = doc.finish() {
        out.documents.push(d);
    }
    out
}

/// One document being read: a later duplicate of a key replaces the
/// earlier one (in constant time per key).
#[derive(Default)]
struct Doc {
    props: Vec<Option<Prop>>,
    index: std::collections::HashMap<Vec<String>, usize>,
}

impl Doc {
    fn put(&mut self, prop: Prop) {
        if let Some(i) = self.index.insert(prop.segments.clone(), self.props.len())
            && let Some(slot) = self.props.get_mut(i)
        {
            *slot = None;
        }
        self.props.push(Some(prop));
    }

    fn finish(self) -> Option<Vec<Prop>> {
        let props: Vec<Prop> = self.props.into_iter().flatten().collect();
        (!props.is_empty()).then_some(props)
    }
}

/// Index of the line terminator at or after `pos` (or the end).
fn line_end(bytes: &[u8], pos: usize) -> usize {
    memchr::memchr2(b'\n', b'\r', &bytes[pos.min(bytes.len())..]).map_or(bytes.len(), |i| pos + i)
}

/// Past the line terminator at `pos` (`\r\n` counts as one).
fn skip_newline(bytes: &[u8], pos: usize) -> usize {
    match bytes.get(pos) {
        Some(b'\r') if bytes.get(pos + 1) == Some(&b'\n') => pos + 2,
        Some(b'\r' | b'\n') => pos + 1,
        _ => pos,
    }
}

/// Read one logical line from `pos` (its first non-whitespace character),
/// decoding escapes and joining continuations. Returns the characters and
/// the position after the line.
fn logical_line(text: &str, mut pos: usize, errors: &mut Vec<(Span, String)>) -> (Vec<Ch>, usize) {
    let bytes = text.as_bytes();
    let mut chars = Vec::new();
    while pos < bytes.len() {
        let b = bytes[pos];
        if b == b'\n' || b == b'\r' {
            return (chars, skip_newline(bytes, pos));
        }
        if b != b'\\' {
            let c = text[pos..].chars().next().unwrap_or('\u{fffd}');
            let len = c.len_utf8();
            chars.push(Ch {
                c,
                span: Span::new(pos, pos + len),
                escaped: false,
            });
            pos += len;
            continue;
        }
        // A backslash: an escape or a continuation.
        let Some(next) = text[pos + 1..].chars().next() else {
            // `\` at the end of the file is dropped.
            return (chars, bytes.len());
        };
        match next {
            '\n' | '\r' => {
                pos = skip_newline(bytes, pos + 1);
                while pos < bytes.len() && is_ws(bytes[pos]) {
                    pos += 1;
                }
            }
            'u' => {
                let hex = text.get(pos + 2..pos + 6).unwrap_or("");
                match (hex.len() == 4 && hex.bytes().all(|h| h.is_ascii_hexdigit()))
                    .then(|| u32::from_str_radix(hex, 16).ok())
                    .flatten()
                {
                    Some(code) => {
                        // A surrogate half cannot stand alone in a Rust
                        // string; it only matters inside a value we show.
                        let c = char::from_u32(code).unwrap_or('\u{fffd}');
                        chars.push(Ch {
                            c,
                            span: Span::new(pos, pos + 6),
                            escaped: true,
                        });
                        pos += 6;
                    }
                    None => {
                        let end = (pos
                            + 2
                            + text[pos + 2..]
                                .bytes()
                                .take(4)
                                .take_while(|h| h.is_ascii_hexdigit())
                                .count())
                        .min(bytes.len());
                        errors.push((
                            Span::new(pos, end),
                            "malformed `\\uXXXX` escape (`java.util.Properties` rejects the file)"
                                .into(),
                        ));
                        pos = end;
                    }
                }
            }
            other => {
                let c = match other {
                    't' => '\t',
                    'n' => '\n',
                    'r' => '\r',
                    'f' => '\x0c',
                    c => c,
                };
                let len = 1 + other.len_utf8();
                chars.push(Ch {
                    c,
                    span: Span::new(pos, pos + len),
                    escaped: true,
                });
                pos += len;
            }
        }
    }
    (chars, pos)
}

fn is_ws_char(ch: &Ch) -> bool {
    !ch.escaped && matches!(ch.c, ' ' | '\t' | '\x0c')
}

fn is_sep(ch: &Ch) -> bool {
    !ch.escaped && matches!(ch.c, '=' | ':')
}

/// Split a logical line into key and value as `Properties.load` does, and
/// the key into Spring name segments.
fn split_entry(chars: &[Ch]) -> Option<Prop> {
    let mut key_end = chars.len();
    let mut value_start = chars.len();
    let mut has_sep = false;
    for (i, ch) in chars.iter().enumerate() {
        if is_sep(ch) {
            key_end = i;
            value_start = i + 1;
            has_sep = true;
            break;
        }
        if is_ws_char(ch) {
            key_end = i;
            value_start = i + 1;
            break;
        }
    }
    while let Some(ch) = chars.get(value_start) {
        if is_ws_char(ch) {
            value_start += 1;
        } else if !has_sep && is_sep(ch) {
            has_sep = true;
            value_start += 1;
        } else {
            break;
        }
    }
    let key_chars = &chars[..key_end];
    if key_chars.is_empty() {
        return None;
    }
    let (key, key_map) = decode(key_chars);
    let value_chars = chars.get(value_start..).unwrap_or(&[]);
    let (value, value_map) = decode(value_chars);
    let mut segments = Vec::new();
    let mut seg_spans = Vec::new();
    for r in spring::split_key_ranges(&key) {
        let span = match (key_map.get(r.start), key_map.get(r.end.saturating_sub(1))) {
            (Some(a), Some(b)) => a.cover(*b),
            _ => continue,
        };
        segments.push(key[r].to_string());
        seg_spans.push(span);
    }
    let key_span = *seg_spans.last()?;
    let value_span = match (value_map.first(), value_map.last()) {
        (Some(a), Some(b)) => a.cover(*b),
        // An empty value sits right after the key and separator.
        _ => {
            let at = chars
                .get(value_start.saturating_sub(1))
                .map_or(key_span.end, |c| c.span.end);
            Span::new(at, at)
        }
    };
    Some(Prop {
        segments,
        seg_spans,
        key_span,
        value,
        value_span,
        value_map,
    })
}

/// The text of `chars` and, for each byte of it, its source span.
fn decode(chars: &[Ch]) -> (String, Vec<Span>) {
    let mut s = String::with_capacity(chars.len());
    let mut map = Vec::with_capacity(chars.len());
    for ch in chars {
        s.push(ch.c);
        for _ in 0..ch.c.len_utf8() {
            map.push(ch.span);
        }
    }
    (s, map)
}

/// Whether a file name is one Spring Boot loads as its configuration
/// (`application*.properties`, `bootstrap*.properties`).
pub fn is_spring_config_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.starts_with("application") || n.starts_with("bootstrap")
}

/// Read one `.properties` file.
pub fn extract(path: &std::path::Path, text: &str, outer: &[Prop], facts: &mut Facts) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let file = parse(text, is_spring_config_name(&name));
    for (span, message) in &file.errors {
        facts.diagnostics.push(unparsable_file::at(
            *span,
            message,
            "write the character itself or a complete `\\uXXXX` escape with four hex digits; the other properties were still checked",
        ));
    }
    for (i, doc) in file.documents.iter().enumerate() {
        // Placeholders resolved from this file, then from `outer`.
        let sources = crate::systems::spring::placeholders::sources(&file.documents, i, outer);
        let doc = crate::systems::spring::placeholders::resolve(doc, &sources);
        if spring::extract_props(&doc, facts) {
            facts.claimed_by("spring");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(text: &str) -> Vec<Prop> {
        let f = parse(text, true);
        assert!(f.errors.is_empty(), "{:?}", f.errors);
        f.documents.into_iter().flatten().collect()
    }

    fn at(text: &str, span: Span) -> &str {
        &text[span.start..span.end]
    }

    #[test]
    fn separators_equals_colon_and_whitespace() {
        let text = "a=1\nb: 2\nc 3\nd = 4\ne  :  5\nf\tg=6\nh\n";
        let ps = props(text);
        let kv: Vec<(String, String)> = ps.iter().map(|p| (p.key(), p.value.clone())).collect();
        assert_eq!(
            kv,
            [
                ("a".into(), "1".into()),
                ("b".into(), "2".into()),
                ("c".into(), "3".into()),
                ("d".into(), "4".into()),
                ("e".into(), "5".into()),
                ("f".into(), "g=6".into()),
                ("h".into(), "".into()),
            ]
        );
        let h = &ps[6];
        assert_eq!(h.value_span.len(), 0);
        assert_eq!(at(text, ps[3].value_span), "4");
    }

    #[test]
    fn comments_blank_lines_and_leading_whitespace() {
        let text = "# comment \\\n! bang\n\n   x.y = 1\n  # indented comment\n\t z=2";
        let ps = props(text);
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].segments, ["x", "y"]);
        assert_eq!(at(text, ps[0].seg_spans[0]), "x");
        assert_eq!(at(text, ps[0].key_span), "y");
        assert_eq!(ps[1].value, "2");
    }

    #[test]
    fn continuations_keep_spans_into_the_original_text() {
        let text = "resilience4j.retry.instances.a.retryExceptions=java.io.IOException, \\\n    java.util.concurrent.TimeoutException\nnext=1\n";
        let ps = props(text);
        assert_eq!(ps.len(), 2);
        let p = &ps[0];
        assert_eq!(
            p.value,
            "java.io.IOException, java.util.concurrent.TimeoutException"
        );
        let second = p.value.find("java.util").unwrap();
        let span = p.sub_span(second..p.value.len());
        assert_eq!(at(text, span), "java.util.concurrent.TimeoutException");
        assert!(at(text, p.value_span).starts_with("java.io.IOException, \\"));
        assert_eq!(ps[1].value, "1");
    }

    #[test]
    fn escapes_decode_and_escaped_separators_stay_in_the_key() {
        let text = "a\\:b\\=c\\ d=x\\ty\\u0041\\\\\\z\nkey\\\n  part=v\n";
        let ps = props(text);
        assert_eq!(ps[0].segments, ["a:b=c d"]);
        assert_eq!(ps[0].value, "x\tyA\\z");
        assert_eq!(ps[1].segments, ["keypart"]);
        // The key's span covers both natural lines.
        assert_eq!(at(text, ps[1].key_span), "key\\\n  part");
    }

    #[test]
    fn crlf_lone_cr_and_trailing_backslash_at_eof() {
        let ps = props("a=1\r\nb=2\rc=3\\");
        let kv: Vec<(String, String)> = ps.iter().map(|p| (p.key(), p.value.clone())).collect();
        assert_eq!(
            kv,
            [
                ("a".into(), "1".into()),
                ("b".into(), "2".into()),
                ("c".into(), "3".into())
            ]
        );
    }

    #[test]
    fn trailing_whitespace_is_kept_in_values() {
        let ps = props("a=1  \n");
        assert_eq!(ps[0].value, "1  ");
    }

    #[test]
    fn indexed_and_bracketed_keys_split_into_segments() {
        let ps = props(
            "spring.cloud.gateway.routes[0].filters[1]=Retry=3,INTERNAL_SERVER_ERROR\nm[a.b].c=1\n",
        );
        assert_eq!(
            ps[0].segments,
            [
                "spring", "cloud", "gateway", "routes", "[0]", "filters", "[1]"
            ]
        );
        assert_eq!(ps[0].value, "Retry=3,INTERNAL_SERVER_ERROR");
        assert!(ps[0].is_index(4));
        assert_eq!(ps[1].segments, ["m", "[a.b]", "c"]);
    }

    #[test]
    fn later_duplicates_win() {
        let ps = props("a=1\nb=2\na=3\n");
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[1].key(), "a");
        assert_eq!(ps[1].value, "3");
    }

    #[test]
    fn spring_document_separators() {
        let text = "a=1\n#---\na=2\n#\n#---\nb=3\n";
        let f = parse(text, true);
        assert_eq!(f.documents.len(), 2);
        assert_eq!(f.documents[1][0].value, "2");
        // `#---` right after a `#` comment line is a comment.
        assert_eq!(f.documents[1].len(), 2);
        let plain = parse(text, false);
        assert_eq!(plain.documents.len(), 1);
    }

    #[test]
    fn malformed_unicode_escape_is_an_error_not_a_panic() {
        let f = parse("a=\\u12\nb=\\uZZZZ\nc=\\u", false);
        assert_eq!(f.errors.len(), 3);
        assert_eq!(f.documents[0].len(), 3);
    }

    #[test]
    fn arbitrary_input_never_panics() {
        for text in [
            "\\",
            "=",
            ":",
            " \\\n",
            "é=ü\\\n",
            "\\u",
            "a\\\r\n\r\n",
            "#---",
            "[",
            "]",
            "a[=1",
            "a]]..=2",
            "\u{feff}x=1",
        ] {
            let _ = parse(text, true);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// Any mix of the syntax's special characters and the keys the
        /// Spring extractors read parses and extracts without panicking,
        /// with every span inside the text on character boundaries.
        #[test]
        fn never_panics_and_spans_stay_in_bounds(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "\\", "\\u", "\\u00e9", "\\u12", "=", ":", " ", "\t", "\n", "\r\n", "\r", "#", "!", "#---\n",
                "é", "[", "]", "[0]", ".", ",", "0", "-1", "2147483648", "PT5s", "1s", "true", "Retry=3,NOT_FOUND,POST",
                "resilience4j.retry.instances.a.", "resilience4j.retry.configs.default.", "maxAttempts", "waitDuration",
                "enableExponentialBackoff", "exponentialMaxWaitDuration", "baseConfig", "retryExceptions",
                "spring.cloud.gateway.routes[0].", "filters[0]", "args.", "backoff.", "retries", "statuses", "uri=lb://x",
                "spring.rabbitmq.listener.simple.retry.", "enabled", "spring.cloud.stream.bindings.a-in-0.consumer.",
                "retryable-exceptions.java.io.IOException", "spring.cloud.config.", "fail-fast", "spring.kafka.retry.topic.",
            ]),
            0..40,
        )) {
            let text: String = parts.concat();
            let file = parse(&text, true);
            let mut facts = Facts::default();
            for doc in &file.documents {
                for p in doc {
                    for span in p.seg_spans.iter().chain([&p.key_span, &p.value_span]) {
                        proptest::prop_assert!(span.end <= text.len());
                        proptest::prop_assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
                    }
                }
                spring::extract_props(doc, &mut facts);
            }
            for d in &facts.diagnostics {
                proptest::prop_assert!(d.span.end <= text.len());
            }
        }
    }
}
