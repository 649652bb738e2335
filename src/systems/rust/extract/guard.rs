//! A cheap pre-parse pass that rejects sources syn would recurse too deeply
//! on (syn's parser and the drop of its tree both recurse once per nesting
//! level), so that 100,000 nested parentheses become an RL903 finding
//! instead of a stack overflow.
//!
//! The pass lexes just enough Rust to skip comments, strings and character
//! literals, and estimates the recursion depth at every point as the bracket
//! depth plus the operators and method calls that nest inside one
//! expression (`a + b + c` and `x.f().g()` are left-nested trees).

/// More nested brackets than this are refused.
pub const MAX_BRACKET_DEPTH: usize = 96;
/// A larger estimated expression nesting than this is refused.
pub const MAX_NESTING: usize = 600;

/// Why a source was refused, with the byte offset where the limit was hit.
#[derive(Debug, PartialEq, Eq)]
pub struct TooDeep {
    pub offset: usize,
    pub what: &'static str,
    pub limit: usize,
}

/// Check `text` against the limits.
pub fn check(text: &str) -> Result<(), TooDeep> {
    check_with(text, MAX_BRACKET_DEPTH, MAX_NESTING)
}

pub fn check_with(text: &str, max_depth: usize, max_nesting: usize) -> Result<(), TooDeep> {
    let b = text.as_bytes();
    let mut i = 0;
    // Operators counted in the enclosing levels, and in the current one.
    let mut stack: Vec<usize> = Vec::new();
    let mut outer = 0usize;
    let mut cur = 0usize;
    while i < b.len() {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = skip_block_comment(b, i);
                continue;
            }
            b'"' => {
                i = skip_string(b, i + 1);
                continue;
            }
            b'r' | b'b' | b'c' if starts_raw_or_byte_string(b, i) => {
                i = skip_prefixed_string(b, i);
                continue;
            }
            b'\'' => {
                i = skip_char_or_lifetime(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => {
                stack.push(cur);
                outer += cur + 1;
                cur = 0;
                if stack.len() > max_depth {
                    return Err(TooDeep {
                        offset: i,
                        what: "nested brackets",
                        limit: max_depth,
                    });
                }
            }
            b')' | b']' | b'}' => {
                if let Some(prev) = stack.pop() {
                    outer = outer.saturating_sub(prev + 1);
                    // A block that is not continued (`} else`, `}.f()`,
                    // `} + x`) ends its statement or item.
                    cur = if c == b'}' && !continues(b, i + 1) {
                        0
                    } else {
                        prev
                    };
                }
            }
            // Blank space changes no depth (and every change was checked
            // where it happened): skipped a run at a time.
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
                continue;
            }
            b';' | b',' => cur = 0,
            b'.' | b'+' | b'-' | b'*' | b'%' | b'^' | b'!' | b'&' | b'|' | b'<' | b'>' | b'='
            | b'?' | b'/' => cur += 1,
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if matches!(
                    &b[start..i],
                    b"else" | b"return" | b"as" | b"move" | b"break"
                ) {
                    cur += 1;
                }
                if outer + cur > max_nesting {
                    return Err(TooDeep {
                        offset: start,
                        what: "nested expressions",
                        limit: max_nesting,
                    });
                }
                continue;
            }
            _ => {}
        }
        if outer + cur > max_nesting {
            return Err(TooDeep {
                offset: i,
                what: "nested expressions",
                limit: max_nesting,
            });
        }
        i += 1;
    }
    Ok(())
}

/// Whether the expression goes on after a closing brace at `i`.
fn continues(b: &[u8], mut i: usize) -> bool {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    match b.get(i) {
        Some(b'e') => {
            b[i..].starts_with(b"else") && !b.get(i + 4).is_some_and(|&c| is_ident_byte(c))
        }
        Some(
            b'.' | b'?' | b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'<' | b'>'
            | b'=',
        ) => true,
        _ => false,
    }
}

fn skip_block_comment(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            depth = depth.saturating_sub(1);
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// After an opening `"`: skip to after the closing one.
fn skip_string(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `r"`, `r#"`, `b"`, `br"`, `br#"`, `c"`, `cr#"` at `i` (not inside an
/// identifier).
fn starts_raw_or_byte_string(b: &[u8], i: usize) -> bool {
    if i > 0 && is_ident_byte(b[i - 1]) {
        return false;
    }
    let mut j = i;
    if matches!(b[j], b'b' | b'c') {
        j += 1;
        if b.get(j) == Some(&b'"') {
            return true;
        }
        if b.get(j) == Some(&b'\'') && b[i] == b'b' {
            return true;
        }
    }
    if b.get(j) == Some(&b'r') {
        j += 1;
        while b.get(j) == Some(&b'#') {
            j += 1;
        }
        return b.get(j) == Some(&b'"');
    }
    false
}

fn skip_prefixed_string(b: &[u8], i: usize) -> usize {
    let mut j = i;
    if matches!(b[j], b'b' | b'c') {
        j += 1;
    }
    if b.get(j) == Some(&b'\'') {
        return skip_char_or_lifetime(b, j);
    }
    if b.get(j) == Some(&b'"') {
        return skip_string(b, j + 1);
    }
    // Raw: r#*"..."#*
    j += 1;
    let mut hashes = 0;
    while b.get(j) == Some(&b'#') {
        hashes += 1;
        j += 1;
    }
    j += 1;
    while j < b.len() {
        if b[j] == b'"'
            && b[j + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == b'#')
                .count()
                == hashes
        {
            return j + 1 + hashes;
        }
        j += 1;
    }
    b.len()
}

/// At a `'`: a character literal (`'a'`, `'\n'`, `'\u{1F600}'`, `'é'`) or
/// a lifetime/label (`'a`).
fn skip_char_or_lifetime(b: &[u8], i: usize) -> usize {
    match b.get(i + 1) {
        Some(b'\\') => {
            let mut j = i + 2;
            while j < b.len() && b[j] != b'\'' && b[j] != b'\n' {
                j += 1;
            }
            j + 1
        }
        Some(_) => {
            // One character (possibly multi-byte) followed by `'`.
            let rest = &b[i + 1..];
            let len = match rest[0] {
                c if c < 0x80 => 1,
                c if c >= 0xF0 => 4,
                c if c >= 0xE0 => 3,
                _ => 2,
            };
            if rest.get(len) == Some(&b'\'') {
                i + 1 + len + 1
            } else {
                i + 1
            }
        }
        None => b.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_code_passes() {
        let src = r##"
            fn f(x: &'a str) -> Result<(), E> {
                let c = 'x'; let s = "((((((("; let r = r#"}}}}"#;
                /* ((( /* nested ((( */ ((( */
                // (((((((((
                let v = a.b().c().d(1 + 2 * (3 - 4)) && !e || f as u8 > 3;
                if a { b } else if c { d } else { e }
                Ok(())
            }
        "##;
        assert_eq!(check(src), Ok(()));
    }

    #[test]
    fn deep_parentheses_are_refused() {
        let src = format!(
            "fn f() {{ {}1{} }}",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        let err = check(&src).unwrap_err();
        assert_eq!(err.what, "nested brackets");
        assert_eq!(err.offset, 9 + MAX_BRACKET_DEPTH - 1);
    }

    #[test]
    fn long_operator_chains_are_refused() {
        let src = format!("fn f() {{ let x = 1{}; }}", " + 1".repeat(100_000));
        assert_eq!(check(&src).unwrap_err().what, "nested expressions");
        let src = format!("fn f() {{ if a {{}}{} }}", " else if a {}".repeat(100_000));
        assert_eq!(check(&src).unwrap_err().what, "nested expressions");
    }

    #[test]
    fn many_items_do_not_add_up() {
        let item = "impl Debug for Lite<syn::token::Yield> {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { f.write_str(\"x\") }\n}\n";
        assert_eq!(check(&item.repeat(5000)), Ok(()));
    }

    #[test]
    fn brackets_in_strings_comments_and_chars_do_not_count() {
        let open = "(".repeat(1000);
        let src = format!(
            "fn f() {{ let a = \"{open}\"; let b = r##\"{open}\"##; let c = '('; let d = b'['; /* {open} */ }}\n// {open}"
        );
        assert_eq!(check(&src), Ok(()));
    }

    #[test]
    fn unterminated_literals_do_not_loop() {
        for src in ["\"abc", "r#\"abc", "'", "/* abc", "b'", "'\\"] {
            let _ = check(src);
        }
    }
}
