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

#[cfg(test)]
mod tests {
    use super::in_strings;

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
