//! Renderers. Every one is a pure function of the scan and its findings.

pub mod audit;
pub mod github;
pub mod graph;
pub mod json;
pub mod markdown;
pub mod pretty;
pub mod sarif;
pub mod simulate;

use crate::Scan;
use crate::rules::{Finding, Severity};
use crate::source::{LineCol, SourceFile, Span};
use std::borrow::Cow;

/// Output formats of `retrylint check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Snippets with labels and help (miette).
    Pretty,
    /// One line per finding: `path:line:col: CODE [severity] message`.
    Concise,
    /// The versioned JSON document described in docs/json-output.md.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other viewers.
    Sarif,
    /// GitHub Actions workflow commands (pull-request annotations).
    Github,
    /// A Markdown summary (counts and findings), e.g. for $GITHUB_STEP_SUMMARY.
    Markdown,
}

/// The findings one cause gives in one file (rule, severity, message but
/// for its quoted values, help: how the audit groups), as indices into
/// `findings`, in the order of their first finding. A profile's or a
/// VirtualService's routes that miss one setting are one finding with its
/// places, not one per route: the pretty output shows the group once,
/// JSON, SARIF and the language server give one result whose related
/// locations are the other places ([`same_cause`]); the concise, GitHub
/// and Markdown formats keep one line per place.
pub fn by_cause(findings: &[&Finding]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index: std::collections::HashMap<(&str, usize, Severity, String), usize> =
        std::collections::HashMap::new();
    for (i, f) in findings.iter().enumerate() {
        let key = (
            f.rule.code,
            f.file,
            f.severity,
            audit::cause(&f.message, &f.help),
        );
        match index.get(&key) {
            Some(&g) => groups[g].push(i),
            None => {
                index.insert(key, groups.len());
                groups.push(vec![i]);
            }
        }
    }
    groups
}

/// The message of another place of a finding's cause, as a related
/// location: `the same cause here: ..` and that place's own message.
pub fn same_cause(f: &Finding) -> String {
    format!("the same cause here: {}", f.message)
}

/// 1-based start and end of a span.
pub fn range(file: &SourceFile, span: Span) -> (LineCol, LineCol) {
    let start = file.line_col(span.start);
    let end = file.line_col(span.end.max(span.start));
    (start, end)
}

/// Replace control characters (terminal escape sequences among them) and
/// bidirectional-text controls with `?`, one `?` per byte so offsets stay
/// valid, so that nothing from a scanned file can drive the reader's
/// terminal or reorder what it shows. A lone CR becomes LF, as the line
/// index reads it (a terminal would move the cursor back over the line).
pub fn sanitize(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    // Printable ASCII, tabs and newlines (nearly every text shown): safe,
    // told without decoding a character.
    if b.iter().all(|&c| matches!(c, b' '..=b'~' | b'\n' | b'\t')) {
        return Cow::Borrowed(text);
    }
    let lone_cr = |i: usize| b[i] == b'\r' && b.get(i + 1) != Some(&b'\n');
    if !text.chars().any(is_unsafe) && !(0..b.len()).any(lone_cr) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if is_unsafe(c) {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else if lone_cr(i) {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`sanitize`], on one line: for outputs with one record per line.
pub fn one_line(text: &str) -> String {
    sanitize(text).replace(['\r', '\n'], " ")
}

fn is_unsafe(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        || ('\u{80}'..='\u{9f}').contains(&c)
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}')
}

/// `2 errors, 5 warnings, 1 info`.
/// `n` and the noun, singular for one: `1 file`, `3 files`. Nouns whose
/// plural is not the singular plus `s` give it.
pub fn count(n: usize, one: &str) -> String {
    let many = match one {
        "policy" => "policies",
        "info" => "infos",
        _ => return format!("{n} {one}{}", if n == 1 { "" } else { "s" }),
    };
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn tally(findings: &[Finding]) -> String {
    let of = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let (e, w, i) = (
        of(Severity::Error),
        of(Severity::Warning),
        of(Severity::Info),
    );
    if e + w + i == 0 {
        return "no findings".into();
    }
    let mut parts = Vec::new();
    if e > 0 {
        parts.push(count(e, "error"));
    }
    if w > 0 {
        parts.push(count(w, "warning"));
    }
    if i > 0 {
        parts.push(count(i, "info"));
    }
    parts.join(", ")
}

/// The closing summary line: files, extractors, time, the configuration
/// files applied, findings.
pub fn summary(scan: &Scan, findings: &[Finding]) -> String {
    let per: Vec<String> = scan
        .stats
        .per_extractor
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    // Source files read that gave nothing, by language (issue 28): a
    // reader that found no loop or call says so.
    let nothing: Vec<String> = scan
        .stats
        .found_nothing
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let per = match (per.is_empty(), nothing.is_empty()) {
        (true, true) => String::new(),
        (false, true) => format!(" ({})", per.join(", ")),
        (true, false) => format!(" (nothing found in {})", nothing.join(", ")),
        (false, false) => format!(
            " ({}; nothing found in {})",
            per.join(", "),
            nothing.join(", ")
        ),
    };
    let mut skipped = Vec::new();
    if scan.stats.oversized > 0 {
        skipped.push(format!("{} over the size limit", scan.stats.oversized));
    }
    if scan.stats.binary > 0 {
        skipped.push(format!("{} binary", scan.stats.binary));
    }
    if scan.stats.test_files > 0 {
        skipped.push(format!("{} test code", scan.stats.test_files));
    }
    if scan.stats.generated_files > 0 {
        skipped.push(format!("{} generated code", scan.stats.generated_files));
    }
    if scan.stats.test_inputs > 0 {
        skipped.push(format!(
            "{} test input{} from the call graph",
            scan.stats.test_inputs,
            if scan.stats.test_inputs == 1 { "" } else { "s" }
        ));
    }
    if !scan.stats.unread.is_empty() {
        skipped.push(format!(
            "{} in languages not read yet that mention retries, timeouts or calls ({})",
            scan.stats.unread.count(),
            scan.stats.unread.tally()
        ));
    }
    if scan.stats.symlinks > 0 {
        skipped.push(format!(
            "{} symbolic links not followed",
            scan.stats.symlinks
        ));
    }
    let skipped = if skipped.is_empty() {
        String::new()
    } else {
        format!("; skipped {}", skipped.join(", "))
    };
    let config = match scan.stats.config_files.as_slice() {
        [] => "no config file".to_string(),
        files => format!("config {}", files.join(", ")),
    };
    format!(
        "{} scanned, {} read{per}{skipped} in {} ms, {config}: {}",
        count(scan.stats.files_seen, "file"),
        scan.stats.files_parsed,
        scan.stats.elapsed.as_millis(),
        tally(findings)
    )
}

/// One line per finding.
pub fn concise(scan: &Scan, findings: &[Finding]) -> String {
    use rayon::prelude::*;
    // A line per finding on every core, joined in order.
    let lines: Vec<String> = findings
        .par_iter()
        .map(|f| {
            let file = scan.file(f.file);
            let (s, _) = range(file, f.span);
            format!(
                "{}:{}:{}: {} [{}] {}\n",
                one_line(&file.display_path()),
                s.line,
                s.column,
                f.rule.code,
                f.severity,
                one_line(&f.message)
            )
        })
        .collect();
    lines.concat()
}

#[cfg(test)]
mod sanitize_tests {
    use super::*;

    #[test]
    fn escapes_and_bidi_controls_become_one_mark_per_byte() {
        let text = "a\u{1b}[31mb\u{202e}c\u{85}d\r\ne\rf";
        let s = sanitize(text);
        assert_eq!(s.len(), text.len());
        assert_eq!(s, "a?[31mb???c??d\r\ne\nf");
        assert_eq!(one_line("x\ny\rz"), "x y z");
        assert!(matches!(sanitize("plain\n"), Cow::Borrowed(_)));
    }
}
