//! The characters of Rust source text with whether each lies inside a
//! string literal (`"..."`, escapes followed), for the readers that search
//! code apart from what its strings say, or only in them.

/// Each character's byte offset, the character, and whether it is inside
/// a string literal's quotes (the quotes themselves are outside).
pub(super) fn in_strings(text: &str) -> impl Iterator<Item = (usize, char, bool)> + '_ {
    let (mut in_str, mut escaped) = (false, false);
    text.char_indices().map(move |(i, c)| {
        if !in_str {
            in_str = c == '"';
            return (i, c, false);
        }
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '"' {
            in_str = false;
            return (i, c, false);
        }
        (i, c, true)
    })
}

/// The text with its comments left out (`// ..` to the end of the line,
/// `/* .. */`), string literals kept: code commented out (`//continue;`)
/// is not code.
pub(crate) fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = in_strings(text).peekable();
    while let Some((_, c, inside)) = chars.next() {
        if !inside && c == '/' {
            match chars.peek().map(|(_, n, _)| *n) {
                Some('/') => {
                    for (_, n, _) in chars.by_ref() {
                        if n == '\n' {
                            out.push('\n');
                            break;
                        }
                    }
                    continue;
                }
                Some('*') => {
                    chars.next();
                    let mut prev = ' ';
                    for (_, n, _) in chars.by_ref() {
                        if prev == '*' && n == '/' {
                            break;
                        }
                        prev = n;
                    }
                    out.push(' ');
                    continue;
                }
                _ => {}
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{in_strings, without_comments};

    #[test]
    fn comments_are_left_out_and_strings_kept() {
        let text = "a(\"//x\"); // continue;\nb /* c */ d";
        assert_eq!(without_comments(text), "a(\"//x\"); \nb   d");
    }

    #[test]
    fn quotes_are_outside_and_escapes_stay_inside() {
        let text = r#"a("x\"y", b)"#;
        let inside: String = in_strings(text)
            .filter(|(_, _, s)| *s)
            .map(|(_, c, _)| c)
            .collect();
        assert_eq!(inside, r#"x\"y"#);
        let outside: String = in_strings(text)
            .filter(|(_, _, s)| !*s)
            .map(|(_, c, _)| c)
            .collect();
        assert_eq!(outside, r#"a("", b)"#);
    }
}
