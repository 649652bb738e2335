//! `retrylint audit`: the report of everything found, of local trees and
//! (`--facts`) of other repositories joined with them.

use super::{AuditArgs, discovered, place_cache, print_notices, settings};
use crate::pipeline::{Pipeline, Run};
use crate::render;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

pub(super) fn audit(mut args: AuditArgs, cwd: &Path) -> i32 {
    use render::audit::{FILES, Report, progress::Bar};
    if args.facts.is_empty() && args.paths.is_empty() {
        args.paths.push(PathBuf::from("."));
    }
    let mut settings = match settings(&args.config, cwd, &args.paths) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("retrylint: {}", render::sanitize(&e));
            return 2;
        }
    };
    place_cache(&mut settings, &args.config, &args.paths);
    let bar = Bar::new(!args.quiet && std::io::stderr().is_terminal());
    // Findings as `check` reports them: suppressions and severities from
    // the configuration applied.
    let run = if args.facts.is_empty() {
        let roots: Vec<String> = args
            .paths
            .iter()
            .map(|p| crate::source::display_path(p))
            .collect();
        Pipeline::new(&settings)
            .progress(&bar)
            .nearest_configs(discovered(&args.config, &args.paths))
            .run(&args.paths)
            .map(|r| (r, roots))
    } else {
        super::org::joined_run(&args.facts, &args.paths, &args.config, cwd)
    };
    bar.finish();
    let (
        Run {
            scan,
            graph,
            report: run,
        },
        roots,
    ) = match run {
        Ok(r) => r,
        Err(e) => {
            eprintln!("retrylint: {}", render::sanitize(&e));
            return 2;
        }
    };
    let findings = run.findings;
    let graph = graph.unwrap_or_default();
    let report = Report::build(&roots, &scan, &graph, &findings);
    if let Err(e) = report.write(&args.out) {
        eprintln!(
            "retrylint: cannot write the report into {}: {e}",
            render::sanitize(&crate::source::display_path(&args.out))
        );
        return 2;
    }
    print_notices(&scan.notices);
    if !args.quiet {
        let dir = crate::source::display_path(&args.out);
        let files: Vec<String> = FILES.iter().map(|f| format!("{dir}/{f}")).collect();
        eprintln!("{}", render::summary(&scan, &findings));
        eprintln!("retrylint: wrote {}", render::sanitize(&files.join(", ")));
    }
    if scan.notices.iter().any(|n| n.internal) {
        return 2;
    }
    0
}
