//! Renderers. Every one is a pure function of the scan and its findings.

pub mod audit;
pub mod github;
pub mod graph;
pub mod json;
pub mod markdown;
pub mod pretty;
pub mod sarif;

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

/// 1-based start and end of a span.
pub fn range(file: &SourceFile, span: Span) -> (LineCol, LineCol) {
    let start = file.line_col(span.start);
    let end = file.line_col(span.end.max(span.start));
    (start, end)
}

/// Replace control characters (terminal escape sequences among them) with
/// `?`, byte for byte, so offsets stay valid and nothing from a scanned
/// file can drive the reader's terminal.
pub fn sanitize(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if is_unsafe(c) { '?' } else { c })
            .collect(),
    )
}

fn is_unsafe(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\r' | '\t')) || ('\u{80}'..='\u{9f}').contains(&c)
}

/// `2 errors, 5 warnings, 1 info`.
pub fn tally(findings: &[Finding]) -> String {
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let (e, w, i) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    if e + w + i == 0 {
        return "no findings".into();
    }
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = Vec::new();
    if e > 0 {
        parts.push(plural(e, "error", "errors"));
    }
    if w > 0 {
        parts.push(plural(w, "warning", "warnings"));
    }
    if i > 0 {
        parts.push(plural(i, "info", "infos"));
    }
    parts.join(", ")
}

/// The closing summary line: files, extractors, time, findings.
pub fn summary(scan: &Scan, findings: &[Finding]) -> String {
    let per: Vec<String> = scan
        .stats
        .per_extractor
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let per = if per.is_empty() {
        String::new()
    } else {
        format!(" ({})", per.join(", "))
    };
    let mut skipped = Vec::new();
    if scan.stats.oversized > 0 {
        skipped.push(format!("{} over the size limit", scan.stats.oversized));
    }
    if scan.stats.binary > 0 {
        skipped.push(format!("{} binary", scan.stats.binary));
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
    format!(
        "{} files scanned, {} read{per}{skipped} in {} ms: {}",
        scan.stats.files_seen,
        scan.stats.files_parsed,
        scan.stats.elapsed.as_millis(),
        tally(findings)
    )
}

/// One line per finding.
pub fn concise(scan: &Scan, findings: &[Finding]) -> String {
    let mut out = String::new();
    for f in findings {
        let file = scan.file(f.file);
        let (s, _) = range(file, f.span);
        out.push_str(&format!(
            "{}:{}:{}: {} [{}] {}\n",
            file.display_path(),
            s.line,
            s.column,
            f.rule.code,
            f.severity,
            sanitize(&f.message)
        ));
    }
    out
}
