//! Keys added under a YAML mapping whose header is written (`retries:`,
//! `retry_policy:`, `args:`): the new lines take the indentation of the
//! mapping's entries (or, where it has none, the header's column plus the
//! file's indentation step) and the file's line endings; a path of keys
//! makes the mappings that are not there (`circuit_breakers:` /
//! `thresholds:` above the setting). A flow mapping on the header's line
//! (`retries: {attempts: 3}`, `{}`) gets the entry inside its braces.

use super::{Format, Value, file_break, indent_of, line_end, line_start, yaml_key_column};
use crate::fix::Edit;
use crate::source::{FileId, Span};
use std::path::Path;

/// The indentation step of a YAML text: the first increase of indentation
/// from one content line to the next, 2 where the file has none.
fn step_of(text: &str) -> usize {
    let mut last: Option<usize> = None;
    for line in text.lines() {
        let Some(i) = indent_of(line.trim_end_matches('\r')) else {
            continue;
        };
        if let Some(l) = last
            && i > l
        {
            return (i - l).min(8);
        }
        last = Some(i);
    }
    2
}

/// `path` as a flow mapping around `value`: `{a: {b: v}}`.
fn flow(path: &[&str], value: &str) -> String {
    path.iter()
        .rev()
        .fold(value.to_string(), |inner, k| format!("{{{k}: {inner}}}"))
}

/// Add `path[0]: ... path[n-1]: value` under the YAML mapping whose key is
/// at `header` (the key alone: `retries` of `retries:`). `None` where the
/// file is no YAML, the header is not the first key of its line, its value
/// is not a mapping (a scalar, a sequence, an alias, a flow mapping that
/// does not close on the line), or the mapping already writes `path[0]`.
pub fn add_under(
    file: FileId,
    path: &Path,
    text: &str,
    header: Span,
    keys: &[&str],
    value: &Value,
) -> Option<Edit> {
    if Format::of(path) != Format::Yaml
        || keys.is_empty()
        || header.end > text.len()
        || !text.is_char_boundary(header.start)
    {
        return None;
    }
    let value = value.render(Format::Yaml);
    let start = line_start(text, header.start);
    let col = yaml_key_column(text, start);
    if start + col != header.start {
        return None;
    }
    let (end, brk) = line_end(text, header.start);
    let line = text[header.end..end].trim_end_matches(['\r', '\n']);
    let after_key = line.trim_start_matches(['"', '\'']).strip_prefix(':')?;
    let inline = after_key.split(" #").next().unwrap_or("").trim();
    if inline.starts_with('{') {
        // A flow mapping: `{}` gets the entry, `{a: 1}` one more.
        let open = header.end + line.find('{')?;
        let close = super::flow_entry_end(text, open + 1)?;
        if text.as_bytes()[close] != b'}' || close >= end {
            return None;
        }
        let inside = text[open + 1..close].trim();
        let key_written = inside
            .split(',')
            .any(|e| e.trim().split(':').next() == Some(keys[0]));
        if key_written {
            return None;
        }
        let entry = format!("{}: {}", keys[0], flow(&keys[1..], &value));
        return Some(if inside.is_empty() {
            Edit::new(file, Span::new(open + 1, close), entry)
        } else {
            let at = open + 1 + text[open + 1..close].trim_end().len();
            Edit::insert(file, at, format!(", {entry}"))
        });
    }
    if !inline.is_empty() {
        return None;
    }
    // The mapping's entries: the lines after the header more indented than
    // its key; the first gives their column.
    let mut child_col = None;
    let mut put = end;
    let mut at = end;
    while at < text.len() {
        let (next, _) = line_end(text, at);
        let l = text[at..next].trim_end_matches(['\r', '\n']);
        match indent_of(l) {
            Some(i) if i > col => {
                let body = &l[i..];
                if child_col.is_none() {
                    if body.starts_with("- ") || body == "-" {
                        return None;
                    }
                    child_col = Some(i);
                }
                if Some(i) == child_col
                    && body
                        .split(':')
                        .next()
                        .is_some_and(|k| k.trim().trim_matches(['"', '\'']) == keys[0])
                {
                    return None;
                }
                at = next;
                put = next;
            }
            // A sequence written at the header's column is its value.
            Some(i) if i == col && child_col.is_none() && l[i..].starts_with('-') => return None,
            Some(_) => break,
            None => at = next,
        }
    }
    let step = step_of(text);
    let child_col = child_col.unwrap_or(col + step);
    let lead = if put == text.len() && !text.ends_with('\n') {
        file_break(text)
    } else {
        ""
    };
    let brk = if brk.is_empty() { file_break(text) } else { brk };
    let lines: Vec<String> = keys
        .iter()
        .enumerate()
        .map(|(depth, k)| {
            let pad = " ".repeat(child_col + depth * step);
            if depth + 1 == keys.len() {
                format!("{pad}{k}: {value}")
            } else {
                format!("{pad}{k}:")
            }
        })
        .collect();
    // At the end of a text without a last line break, the new last line
    // has none either.
    let out = if lead.is_empty() {
        format!("{}{brk}", lines.join(brk))
    } else {
        format!("{lead}{}", lines.join(brk))
    };
    Some(Edit::insert(file, put, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::apply_edits;

    fn under(text: &str, header: &str, keys: &[&str], value: Value) -> Option<String> {
        let at = text.find(header).expect("header in text");
        let span = Span::new(at, at + header.len());
        let e = add_under(0, Path::new("x.yaml"), text, span, keys, &value)?;
        Some(apply_edits(text, [&e]).unwrap())
    }

    #[test]
    fn a_key_goes_last_with_the_entries_indentation() {
        let t = "a:\n  retries:\n      attempts: 2 # two\n      retryOn: 5xx\n  # after\n  timeout: 1s\n";
        assert_eq!(
            under(t, "retries", &["perTryTimeout"], Value::Str("1s".into())).unwrap(),
            "a:\n  retries:\n      attempts: 2 # two\n      retryOn: 5xx\n      perTryTimeout: 1s\n  # after\n  timeout: 1s\n"
        );
    }

    #[test]
    fn a_path_makes_the_mappings_and_keeps_crlf() {
        let t = "- name: orders\r\n  cb:\r\n    x: 1\r\n  lb: y\r\n";
        assert_eq!(
            under(t, "cb", &["budget", "percent"], Value::Str("20".into())).unwrap(),
            "- name: orders\r\n  cb:\r\n    x: 1\r\n    budget:\r\n      percent: 20\r\n  lb: y\r\n"
        );
    }

    #[test]
    fn an_empty_mapping_takes_the_file_step() {
        // The file indents by 4; the header has nothing under it.
        let t = "a:\n    b:\n    c: 1";
        assert_eq!(
            under(t, "b", &["k"], Value::Bool(true)).unwrap(),
            "a:\n    b:\n        k: true\n    c: 1"
        );
        // At the end of a text without a last line break.
        assert_eq!(
            under("a:\n  b:", "b", &["k", "j"], Value::Bool(true)).unwrap(),
            "a:\n  b:\n    k:\n      j: true"
        );
    }

    #[test]
    fn flow_mappings_get_an_entry() {
        assert_eq!(
            under("r: {}\n", "r", &["a", "b"], Value::Bool(true)).unwrap(),
            "r: {a: {b: true}}\n"
        );
        assert_eq!(
            under("r: {x: 1 }  # c\n", "r", &["a"], Value::Bool(true)).unwrap(),
            "r: {x: 1, a: true }  # c\n"
        );
    }

    #[test]
    fn refused_where_it_is_no_mapping_or_the_key_is_written() {
        assert_eq!(under("r: 3\n", "r", &["a"], Value::Bool(true)), None);
        assert_eq!(under("r:\n- a\n", "r", &["a"], Value::Bool(true)), None);
        assert_eq!(under("r:\n  - a\n", "r", &["a"], Value::Bool(true)), None);
        assert_eq!(under("r:\n  a: 1\n", "r", &["a"], Value::Bool(true)), None);
        assert_eq!(under("r: {a: 1}\n", "r", &["a"], Value::Bool(true)), None);
        assert_eq!(under("r: {a: [1,\n 2]}\n", "r", &["b"], Value::Bool(true)), None);
        let e = add_under(
            0,
            Path::new("x.json"),
            "{\"r\": {}}",
            Span::new(2, 3),
            &["a"],
            &Value::Bool(true),
        );
        assert_eq!(e, None);
    }
}
