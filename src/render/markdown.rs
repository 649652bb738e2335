//! `--format markdown`: a summary for a pull request or
//! `$GITHUB_STEP_SUMMARY`: counts by severity and by rule, then the
//! findings (at most [`MAX_ROWS`]) with their location and help.

use super::{range, sanitize};
use crate::Scan;
use crate::config::Settings;
use crate::report::Report;
use crate::rules::{RULES, Severity};

/// Findings listed; the rest are counted.
pub const MAX_ROWS: usize = 200;

/// Text safe inside a Markdown table cell: no pipes, no line breaks, no
/// HTML.
pub fn cell(s: &str) -> String {
    sanitize(s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace(['\r', '\n'], " ")
}

pub fn render(scan: &Scan, report: &Report, settings: &Settings) -> String {
    let count = |s: Severity| report.findings.iter().filter(|f| f.severity == s).count();
    let mut out = String::from("## retrylint\n\n");
    if report.findings.is_empty() {
        out.push_str("No findings");
    } else {
        out.push_str(&format!(
            "**{}** in {} scanned",
            super::tally(&report.findings),
            super::count(scan.stats.files_seen, "file")
        ));
    }
    out.push_str(&report.tally_suffix());
    out.push_str(".\n\n");
    if report.findings.is_empty() {
        return out;
    }
    out.push_str("| severity | count |\n|---|---|\n");
    for s in [Severity::Error, Severity::Warning, Severity::Info] {
        out.push_str(&format!("| {s} | {} |\n", count(s)));
    }
    out.push_str("\n| rule | findings |\n|---|---|\n");
    for r in RULES {
        let n = report
            .findings
            .iter()
            .filter(|f| f.rule.code == r.code)
            .count();
        if n > 0 {
            out.push_str(&format!(
                "| [{} {}]({}) | {n} |\n",
                r.code,
                r.name,
                r.help_uri()
            ));
        }
    }
    out.push_str("\n| | location | rule | message |\n|---|---|---|---|\n");
    for f in report.findings.iter().take(MAX_ROWS) {
        let file = scan.file(f.file);
        let (s, _) = range(file, f.span);
        let icon = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        out.push_str(&format!(
            "| {icon} | `{}:{}` | {} | {}<br>help: {} |\n",
            cell(&settings.relative_path(&file.path)).replace('`', "'"),
            s.line,
            f.rule.code,
            cell(&f.message),
            cell(&f.help)
        ));
    }
    if report.findings.len() > MAX_ROWS {
        out.push_str(&format!(
            "\n{} more findings are not listed; the SARIF and JSON outputs have them all.\n",
            report.findings.len() - MAX_ROWS
        ));
    }
    out
}
