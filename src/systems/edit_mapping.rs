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

/// The start of the line of `key` and its column, where `path` is YAML,
/// there are keys to write and `key` is the first key of its line.
fn key_line(path: &Path, text: &str, key: Span, keys: &[&str]) -> Option<(usize, usize)> {
    if Format::of(path) != Format::Yaml
        || keys.is_empty()
        || key.end > text.len()
        || !text.is_char_boundary(key.start)
    {
        return None;
    }
    let start = line_start(text, key.start);
    let col = yaml_key_column(text, start);
    (start + col == key.start).then_some((start, col))
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
    let (_, col) = key_line(path, text, header, keys)?;
    let value = value.render(Format::Yaml);
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
    Some(block_insert(
        file, text, put, brk, child_col, step, keys, &value,
    ))
}

/// The lines `keys[0]:` .. `keys[n-1]: value` from column `col`, each
/// key one `step` deeper, inserted at `put` (a line start, or the end of
/// the text) with line break `brk` (the file's where empty).
#[allow(clippy::too_many_arguments)]
fn block_insert(
    file: FileId,
    text: &str,
    put: usize,
    brk: &str,
    child_col: usize,
    step: usize,
    keys: &[&str],
    value: &str,
) -> Edit {
    let lead = if put == text.len() && !text.ends_with('\n') {
        file_break(text)
    } else {
        ""
    };
    let brk = if brk.is_empty() {
        file_break(text)
    } else {
        brk
    };
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
    Edit::insert(file, put, out)
}

/// Add `keys[0]: ... keys[n-1]: value` beside the YAML block entry whose
/// key is at `key` (`retry` of `retry:` over its block): at the key's
/// column, after the lines nested under it. `None` where the file is no
/// YAML, the key is not the first of its line, or the mapping it is in
/// already writes `keys[0]` (looked for among the lines at its column up
/// and down, through deeper lines).
pub fn add_beside(
    file: FileId,
    path: &Path,
    text: &str,
    key: Span,
    keys: &[&str],
    value: &Value,
) -> Option<Edit> {
    let (start, col) = key_line(path, text, key, keys)?;
    if sibling(text, start, col, keys[0]).is_some() {
        return None;
    }
    let (end, brk) = line_end(text, key.start);
    let mut put = end;
    let mut at = end;
    while at < text.len() {
        let (next, _) = line_end(text, at);
        let l = text[at..next].trim_end_matches(['\r', '\n']);
        match indent_of(l) {
            Some(i) if i > col => {
                at = next;
                put = next;
            }
            Some(_) => break,
            None => at = next,
        }
    }
    let value = value.render(Format::Yaml);
    Some(block_insert(
        file,
        text,
        put,
        brk,
        col,
        step_of(text),
        keys,
        &value,
    ))
}

/// The key `name` of the mapping that holds the YAML block entry whose key
/// is at `key`, where it writes one.
pub fn sibling_key(text: &str, key: Span, name: &str) -> Option<Span> {
    let start = line_start(text, key.start.min(text.len()));
    let col = yaml_key_column(text, start);
    let ls = sibling(text, start, col, name)?;
    Some(Span::new(ls + col, ls + col + name.len()))
}

/// The start of the line of the mapping whose entry starts the line at
/// `start` (key at column `col`) that writes `key`: a line at that column,
/// up or down through deeper, blank and comment lines, whose key it is.
fn sibling(text: &str, start: usize, col: usize, key: &str) -> Option<usize> {
    let is_key = |l: &str| {
        let body = &l[col.min(l.len())..];
        body.split(':')
            .next()
            .map(|k| k.trim().trim_matches(['"', '\'']))
            == Some(key)
    };
    // Down from the line, then up.
    let mut at = start;
    let mut first = true;
    while at < text.len() {
        let (next, _) = line_end(text, at);
        let l = text[at..next].trim_end_matches(['\r', '\n']);
        match indent_of(l) {
            Some(i) if i == col && (first || !l[i..].starts_with('-')) && is_key(l) => {
                return Some(at);
            }
            Some(i) if i == col && (first || !l[i..].starts_with('-')) => {}
            Some(i) if i < col || (i == col && l[i..].starts_with('-')) => break,
            _ => {}
        }
        first = false;
        at = next;
    }
    let mut end = start;
    while end > 0 {
        let ls = line_start(text, end - 1);
        let l = text[ls..end].trim_end_matches(['\r', '\n']);
        match indent_of(l) {
            Some(i) if i == col && yaml_key_column(text, ls) == col => {
                if is_key(l) {
                    return Some(ls);
                }
                if l[i..].starts_with('-') {
                    break;
                }
            }
            Some(i) if i <= col => break,
            _ => {}
        }
        end = ls;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::apply_edits;

    fn beside(text: &str, key: &str, keys: &[&str], value: Value) -> Option<String> {
        let at = text.find(key).expect("key in text");
        let span = Span::new(at, at + key.len());
        let e = add_beside(0, Path::new("x.yml"), text, span, keys, &value)?;
        Some(apply_edits(text, [&e]).unwrap())
    }

    #[test]
    fn beside_a_block_after_its_nested_lines() {
        let t = "spec:\r\n  retry:\r\n    numRetries: 2\r\n  # end\r\nkind: X\r\n";
        assert_eq!(
            beside(t, "retry", &["cb", "budget"], Value::Bool(true)).unwrap(),
            "spec:\r\n  retry:\r\n    numRetries: 2\r\n  cb:\r\n    budget: true\r\n  # end\r\nkind: X\r\n"
        );
        // The mapping writes it already, before or after.
        assert_eq!(
            beside(
                "s:\n  cb: {}\n  retry:\n    n: 2\n",
                "retry",
                &["cb"],
                Value::Bool(true)
            ),
            None
        );
        assert_eq!(
            beside(
                "s:\n  retry:\n    n: 2\n  cb: 1\n",
                "retry",
                &["cb"],
                Value::Bool(true)
            ),
            None
        );
        // Another mapping's key of that name does not count.
        assert_eq!(
            beside(
                "a:\n  cb: 1\nb:\n  retry:\n    n: 2\n",
                "retry",
                &["cb"],
                Value::Bool(true)
            )
            .unwrap(),
            "a:\n  cb: 1\nb:\n  retry:\n    n: 2\n  cb: true\n"
        );
    }

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
        assert_eq!(
            under("r: {a: [1,\n 2]}\n", "r", &["b"], Value::Bool(true)),
            None
        );
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
