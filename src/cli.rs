//! The command line.

use crate::config::Settings;
use crate::render::{self, Format};
use crate::rules::{self, RULES, Severity};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  retrylint check                      check the current directory
  retrylint check services/ deploy/    check two trees
  retrylint check --format json .      machine-readable findings
  retrylint check --select RL2 --ignore RL206 .
  retrylint graph --format dot . | dot -Tsvg > graph.svg
  retrylint audit . --out audit-report   report.md, report.html, report.json
  retrylint rules                      list every rule
  retrylint explain RL203              a rule's documentation";

#[derive(Parser, Debug)]
#[command(
    name = "retrylint",
    version,
    about = "Lint retry and timeout settings across config files and source code",
    after_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check files and directories for retry and timeout problems.
    #[command(after_help = EXAMPLES)]
    Check(CheckArgs),
    /// List every rule: code, name, default severity, category and formats.
    Rules {
        #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
        format: RulesFormat,
    },
    /// Print the call-path graph: services, calls, the retry layers on each
    /// call, and the worst path from each entry point.
    Graph {
        /// Files and directories to read.
        #[arg(default_value = ".")]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = GraphFormat::Mermaid)]
        format: GraphFormat,
        /// Glob of paths not to scan; may be repeated.
        #[arg(long)]
        exclude: Vec<String>,
    },
    /// Write a report of everything found (Markdown, HTML with the call
    /// graph drawn, and JSON) into a directory.
    Audit(AuditArgs),
    /// Print a rule's documentation.
    Explain {
        /// A rule code (`RL203`) or name (`unjittered-backoff`).
        rule: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    Text,
    Markdown,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GraphFormat {
    Json,
    Dot,
    Mermaid,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Files and directories to check.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Pretty)]
    pub format: Format,
    /// Exit with 1 when a finding has at least this severity.
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    pub fail_on: FailOn,
    /// Only these rules (codes, code prefixes such as `RL2`, or names).
    #[arg(long, value_delimiter = ',')]
    pub select: Vec<String>,
    /// Not these rules (codes, code prefixes, or names).
    #[arg(long, value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Glob of paths not to scan; may be repeated.
    #[arg(long)]
    pub exclude: Vec<String>,
    /// Files larger than this many bytes are skipped with a finding.
    #[arg(long)]
    pub max_file_size: Option<u64>,
    /// Do not print the closing summary line.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// Files and directories to read.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Directory to write report.md, report.html and report.json into
    /// (created if missing; the three files are replaced).
    #[arg(long, default_value = "audit-report")]
    pub out: PathBuf,
    /// Only these rules (codes, code prefixes such as `RL2`, or names).
    #[arg(long, value_delimiter = ',')]
    pub select: Vec<String>,
    /// Not these rules (codes, code prefixes, or names).
    #[arg(long, value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Glob of paths not to scan; may be repeated.
    #[arg(long)]
    pub exclude: Vec<String>,
    /// Files larger than this many bytes are skipped with a finding.
    #[arg(long)]
    pub max_file_size: Option<u64>,
    /// No progress bar and no closing lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Run the command line; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Check(args) => check(args),
        Command::Audit(args) => audit(args),
        Command::Graph {
            paths,
            format,
            exclude,
        } => graph(&paths, format, exclude),
        Command::Rules { format } => {
            print!("{}", rules_listing(format));
            0
        }
        Command::Explain { rule } => match rules::lookup(&rule) {
            Some(r) => {
                println!("{}", r.body().trim_end());
                0
            }
            None => {
                let hint = rules::did_you_mean(&rule, RULES.iter().flat_map(|r| [r.code, r.name]))
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                eprintln!("retrylint: no rule `{rule}`{hint}; `retrylint rules` lists them");
                2
            }
        },
    }
}

fn color_enabled() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

fn graph(paths: &[PathBuf], format: GraphFormat, exclude: Vec<String>) -> i32 {
    let settings = Settings {
        exclude,
        ..Settings::default()
    };
    let scan = match crate::scan(paths, &settings) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("retrylint: {e}");
            return 2;
        }
    };
    let g = crate::graph::build(&scan.files, &settings);
    let out = match format {
        GraphFormat::Json => render::graph::json(&scan, &g),
        GraphFormat::Dot => render::graph::dot(&g),
        GraphFormat::Mermaid => render::graph::mermaid(&g),
    };
    print!("{out}");
    0
}

fn audit(args: AuditArgs) -> i32 {
    use render::audit::{FILES, Report, progress::Bar};
    let mut settings = Settings {
        select: args.select,
        ignore: args.ignore,
        exclude: args.exclude,
        ..Settings::default()
    };
    if let Some(n) = args.max_file_size {
        settings.max_file_size = n;
    }
    if let Err(e) = settings.validate_patterns() {
        eprintln!("retrylint: {e}");
        return 2;
    }
    let bar = Bar::new(!args.quiet && std::io::stderr().is_terminal());
    let scan = crate::scan_with_progress(&args.paths, &settings, &bar);
    bar.finish();
    let scan = match scan {
        Ok(s) => s,
        Err(e) => {
            eprintln!("retrylint: {e}");
            return 2;
        }
    };
    let findings = crate::check::check(&scan, &settings);
    let graph = crate::graph::build(&scan.files, &settings);
    let roots: Vec<String> = args
        .paths
        .iter()
        .map(|p| crate::source::display_path(p))
        .collect();
    let report = Report::build(&roots, &scan, &graph, &findings);
    if let Err(e) = report.write(&args.out) {
        eprintln!(
            "retrylint: cannot write the report into {}: {e}",
            render::sanitize(&crate::source::display_path(&args.out))
        );
        return 2;
    }
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

fn check(args: CheckArgs) -> i32 {
    let mut settings = Settings {
        select: args.select,
        ignore: args.ignore,
        exclude: args.exclude,
        ..Settings::default()
    };
    if let Some(n) = args.max_file_size {
        settings.max_file_size = n;
    }
    if let Err(e) = settings.validate_patterns() {
        eprintln!("retrylint: {e}");
        return 2;
    }
    let scan = match crate::scan(&args.paths, &settings) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("retrylint: {e}");
            return 2;
        }
    };
    let findings = crate::check::check(&scan, &settings);
    let out = match args.format {
        Format::Pretty => render::pretty::render(&scan, &findings, color_enabled(), 100),
        Format::Concise => render::concise(&scan, &findings),
        Format::Json => render::json::render(&scan, &findings),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
    for n in &scan.notices {
        match &n.path {
            Some(p) => eprintln!(
                "retrylint: {}: {}",
                render::sanitize(p),
                render::sanitize(&n.message)
            ),
            None => eprintln!("retrylint: {}", render::sanitize(&n.message)),
        }
    }
    if !args.quiet {
        eprintln!("{}", render::summary(&scan, &findings));
    }
    if scan.notices.iter().any(|n| n.internal) {
        eprintln!(
            "retrylint: an internal error stopped the reading of the file(s) above; this is a bug: please report it with the file that caused it"
        );
        return 2;
    }
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    match threshold {
        Some(t) if findings.iter().any(|f| f.severity >= t) => 1,
        _ => 0,
    }
}

/// `retrylint rules` in each format; the Markdown table is the README's.
pub fn rules_listing(format: RulesFormat) -> String {
    match format {
        RulesFormat::Text => {
            let mut out = String::new();
            for r in RULES {
                out.push_str(&format!(
                    "{}  {:<28} {:<8} {:<12} {}\n",
                    r.code,
                    r.name,
                    r.severity,
                    r.category.as_str(),
                    r.formats.join(", ")
                ));
            }
            out
        }
        RulesFormat::Markdown => {
            let mut out = String::from(
                "| code | name | severity | what it flags | formats |\n|---|---|---|---|---|\n",
            );
            for r in RULES {
                out.push_str(&format!(
                    "| [{}](rules/{}-{}.md) | {} | {} | {} | {} |\n",
                    r.code,
                    r.code,
                    r.name,
                    r.name,
                    r.severity,
                    r.summary,
                    r.formats.join(", ")
                ));
            }
            out
        }
        RulesFormat::Json => {
            let v: Vec<serde_json::Value> = RULES
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "code": r.code, "name": r.name, "severity": r.severity,
                        "category": r.category, "since": r.since, "summary": r.summary,
                        "formats": r.formats,
                    })
                })
                .collect();
            let mut s = serde_json::to_string_pretty(&v).expect("serialisable");
            s.push('\n');
            s
        }
    }
}
