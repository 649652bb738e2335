//! The end of `check`: the baseline, each output to its sink, the notices,
//! the summary line and the exit code.

use super::{CheckArgs, ColorChoice, FailOn, color_enabled, print_notices};
use crate::config::Settings;
use crate::render::{self, Format};
use crate::report::Baseline;
use crate::rules::Severity;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Where each output goes.
pub(super) enum Sink {
    Stdout,
    File(PathBuf),
}

/// Write the baseline and the outputs, print the notices and the summary;
/// the exit code.
pub(super) fn finish(
    args: &CheckArgs,
    scan: crate::Scan,
    mut report: crate::report::Report,
    settings: &Settings,
    outputs: &[(Format, Sink)],
    srcroot: Option<PathBuf>,
    cwd: &Path,
) -> Result<i32, String> {
    if let Some(path) = &args.write_baseline {
        std::fs::write(path, Baseline::document(&scan, &report))
            .map_err(|e| format!("cannot write baseline {}: {e}", path.display()))?;
        eprintln!(
            "retrylint: wrote {} to {}",
            render::count(report.findings.len(), "finding"),
            render::sanitize(&crate::source::display_path(path))
        );
    }
    if let Some(path) = &args.baseline {
        report.apply_baseline(&Baseline::read(path)?);
    }
    let internal = scan.notices.iter().any(|n| n.internal);
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    let code = match (threshold, report.worst()) {
        _ if internal => 2,
        _ if args.write_baseline.is_some() => 0,
        (Some(t), Some(w)) if w >= t => 1,
        _ => 0,
    };
    let sarif = render::sarif::RunInfo {
        srcroot,
        cwd: cwd.to_path_buf(),
        category: args.sarif_category.clone(),
        exit_code: code,
    };
    for (format, sink) in outputs {
        let color = match sink {
            Sink::Stdout => color_enabled(
                args.color,
                |k| std::env::var(k).ok(),
                std::io::stdout().is_terminal(),
            ),
            // A file is coloured only when asked for.
            Sink::File(_) => args.color == ColorChoice::Always,
        };
        let out = match format {
            Format::Pretty => render::pretty::render(&scan, &report.findings, color, 100),
            Format::Concise => render::concise(&scan, &report.findings),
            Format::Json => render::json::render(&scan, &report.findings),
            Format::Sarif => render::sarif::render(&scan, &report, &sarif),
            Format::Github => render::github::render(&scan, &report, settings),
            Format::Markdown => render::markdown::render(&scan, &report, settings),
        };
        match sink {
            Sink::Stdout => {
                let mut stdout = std::io::stdout().lock();
                let _ = stdout.write_all(out.as_bytes());
                let _ = stdout.flush();
            }
            Sink::File(p) => {
                std::fs::write(p, out).map_err(|e| format!("cannot write {}: {e}", p.display()))?
            }
        }
    }
    crate::timings::mark("output");
    print_notices(&scan.notices);
    if !args.quiet {
        eprintln!(
            "{}{}",
            render::summary(&scan, &report.findings),
            report.tally_suffix()
        );
    }
    if internal {
        eprintln!(
            "retrylint: an internal error stopped the reading of the file(s) above; this is a bug: please report it with the file that caused it"
        );
    }
    // Left to the process's exit (`check_inner`).
    std::mem::forget(scan);
    std::mem::forget(report);
    Ok(code)
}
