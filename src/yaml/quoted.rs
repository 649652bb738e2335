//! Quoted scalars on one line (YAML `"..."` and `'...'`, JSON strings):
//! where each byte of the value is in the file, through escapes, and how a
//! text is written back into one. A configuration carried in such a string
//! (`GRPC_SERVICE_CONFIG: "{\"methodConfig\": ...}"`) is read with its
//! spans in the file, and a fix inside it is escaped as the string is.

/// Where each byte of the value of the quoted scalar opening at `open` (its
/// quote `q`) is in `text`, and its end (the closing quote): the bytes an
/// escape stands for (`\"`, `\n`, `\u00e9`, `''`) are all placed at its
/// first byte. `None` where the scalar spans lines (folded) or does not
/// decode to `value`.
pub fn offsets(text: &str, open: usize, q: u8, value: &str) -> Option<Vec<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(value.len() + 1);
    let mut decoded: Vec<u8> = Vec::with_capacity(value.len());
    let mut i = open + 1;
    loop {
        let c = *b.get(i)?;
        match c {
            b'\n' | b'\r' => return None,
            b'\'' if q == b'\'' => {
                if b.get(i + 1) == Some(&b'\'') {
                    out.push(i);
                    decoded.push(b'\'');
                    i += 2;
                } else {
                    break;
                }
            }
            b'"' if q == b'"' => break,
            b'\\' if q == b'"' => {
                let e = *b.get(i + 1)?;
                let (ch, len) = match e {
                    b'"' => ('"', 2),
                    b'\\' => ('\\', 2),
                    b'/' => ('/', 2),
                    b'n' => ('\n', 2),
                    b't' => ('\t', 2),
                    b'r' => ('\r', 2),
                    b'b' => ('\u{8}', 2),
                    b'f' => ('\u{c}', 2),
                    b'0' => ('\0', 2),
                    b'a' => ('\u{7}', 2),
                    b'v' => ('\u{b}', 2),
                    b'e' => ('\u{1b}', 2),
                    b' ' => (' ', 2),
                    b'x' | b'u' | b'U' => {
                        let n = match e {
                            b'x' => 2,
                            b'u' => 4,
                            _ => 8,
                        };
                        let hex = text.get(i + 2..i + 2 + n)?;
                        let ch = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
                        (ch, 2 + n)
                    }
                    _ => return None,
                };
                let mut buf = [0u8; 4];
                for &byte in ch.encode_utf8(&mut buf).as_bytes() {
                    out.push(i);
                    decoded.push(byte);
                }
                i += len;
            }
            _ => {
                out.push(i);
                decoded.push(c);
                i += 1;
            }
        }
        if decoded.len() > value.len() {
            return None;
        }
    }
    out.push(i);
    (decoded == value.as_bytes()).then_some(out)
}

/// `s` written into a scalar quoted with `q`: `"` and `\` escaped in a
/// double-quoted one (YAML and JSON alike), `'` doubled in a single-quoted
/// one. `None` where the text holds a line break, which a one-line string
/// cannot take without changing the lines of what it carries.
pub fn escape(s: &str, q: u8) -> Option<String> {
    if s.contains(['\n', '\r']) {
        return None;
    }
    Some(match q {
        b'"' => s.replace('\\', "\\\\").replace('"', "\\\""),
        b'\'' => s.replace('\'', "''"),
        _ => s.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_map_to_their_backslash() {
        let text = r#"k: "{\"a\": [1, 2]}\n" x"#;
        let open = text.find('"').unwrap();
        let value = "{\"a\": [1, 2]}\n";
        let o = offsets(text, open, b'"', value).unwrap();
        assert_eq!(o.len(), value.len() + 1);
        // `"a"` starts at the backslash of `\"a\"`, and ends after it.
        let a = value.find("\"a\"").unwrap();
        assert_eq!(&text[o[a]..o[a + 3]], r#"\"a\""#);
        assert_eq!(&text[o[value.len()]..=o[value.len()]], "\"");
        // A value the text does not decode to.
        assert!(offsets(text, open, b'"', "{}").is_none());
    }

    #[test]
    fn single_quotes_double() {
        let text = "k: 'it''s {\"a\": 1}'\n";
        let open = text.find('\'').unwrap();
        let value = "it's {\"a\": 1}";
        let o = offsets(text, open, b'\'', value).unwrap();
        let a = value.find('{').unwrap();
        assert_eq!(&text[o[a]..o[value.len()]], "{\"a\": 1}");
    }

    #[test]
    fn folded_strings_are_not_mapped() {
        let text = "k: \"a\n  b\"\n";
        assert!(offsets(text, 3, b'"', "a b").is_none());
    }

    #[test]
    fn escape_follows_the_quote() {
        assert_eq!(escape(r#""a": 1"#, b'"').as_deref(), Some(r#"\"a\": 1"#));
        assert_eq!(escape("it's", b'\'').as_deref(), Some("it''s"));
        assert_eq!(escape("a\nb", b'"'), None);
    }
}
