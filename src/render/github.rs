//! `--format github`: GitHub Actions workflow commands, one per finding,
//! which the runner turns into pull-request annotations:
//!
//! ```text
//! ::warning file=deploy/vs.yaml,line=12,endLine=12,col=9,endColumn=20,title=RL203 unjittered-backoff::message%0Ahelp: ...
//! ```
//!
//! Everything that comes from a scanned file or a configuration is escaped
//! so it cannot end the command or start another one: `%`, CR and LF in
//! the message, and also `:` and `,` in the properties (GitHub's
//! `escapeData` and `escapeProperty` in actions/toolkit `command.ts`).

use super::{range, sanitize};
use crate::Scan;
use crate::config::Settings;
use crate::report::Report;
use crate::rules::Severity;

/// Escape a command's message.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a command property's value.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

fn command(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// One workflow command per finding; paths relative to the repository
/// root, as the runner resolves them.
pub fn render(scan: &Scan, report: &Report, settings: &Settings) -> String {
    let mut out = String::new();
    for f in &report.findings {
        let file = scan.file(f.file);
        let (s, e) = range(file, f.span);
        let path = settings.relative_path(&file.path);
        let message = format!("{}\nhelp: {}", f.message, f.help);
        out.push_str(&format!(
            "::{} file={},line={},endLine={},col={},endColumn={},title={}::{}\n",
            command(f.severity),
            escape_property(&sanitize(&path)),
            s.line,
            e.line,
            s.column,
            e.column,
            escape_property(&format!("{} {}", f.rule.code, f.rule.name)),
            escape_data(&sanitize(&message)),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_could_end_or_start_a_command() {
        assert_eq!(escape_data("a%0Ab\r\n::x"), "a%250Ab%0D%0A::x");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
