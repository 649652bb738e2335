//! A text's lines as `str::split('\n')` gives them, each end found with
//! `memchr`'s vector search. The root-key gates and the definition test
//! (`gates::head`, `unread_docs::unread`) walk every line of every
//! document a reader may skip (megabytes of a definition's schema, each
//! line only looked at for its first byte): through `str::split`'s
//! `CharSearcher` that was 190 M instructions of kubeflow/manifests'
//! cold scan and 170 M of envoyproxy/gateway's (callgrind, issue 27).

/// The lines of `text`, split at each `\n` (a `\r` before it is kept):
/// what `text.split('\n')` yields, a last empty line included.
pub(super) fn lines(text: &str) -> Lines<'_> {
    Lines { rest: Some(text) }
}

pub(super) struct Lines<'a> {
    /// What is left to split; `None` once the last line was given.
    rest: Option<&'a str>,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => {
                // `\n` is one byte: both sides are on char boundaries.
                self.rest = Some(&rest[i + 1..]);
                Some(&rest[..i])
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::lines;

    #[test]
    fn lines_are_what_split_gives() {
        let texts = [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "\r",
            "  x: 1\n\tkind: A\n---\n# c\n\nä: ü\n",
            "no newline at all, but long enough to pass a vector's width of bytes",
        ];
        for t in texts {
            let ours: Vec<&str> = lines(t).collect();
            let split: Vec<&str> = t.split('\n').collect();
            assert_eq!(ours, split, "{t:?}");
        }
        // Every fixture and corpus YAML and JSON file.
        let roots = crate::systems::read::gates::tests::fixture_roots();
        let files = crate::systems::read::unread_docs::tests::yaml_files(&roots);
        assert!(files.len() > 100, "{}", files.len());
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let ours: Vec<&str> = lines(&text).collect();
            let split: Vec<&str> = text.split('\n').collect();
            assert_eq!(ours, split, "{}", path.display());
        }
    }
}
