//! The command line.

use crate::config::{self, Settings};
use crate::config_file;
use crate::pipeline::{ConfigChoice, Pipeline, Run};
use crate::render::{self, Format};
use crate::rules::{self, RULES};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};

mod audit;
mod diff;
mod fix;
mod input;
mod listing;
mod org;
mod output;
pub mod simulate;

pub use listing::rules_listing;

use output::{Sink, finish};

const EXAMPLES: &str = "\
Examples:
  retrylint check                      check the current directory
  retrylint graph --format dot . | dot -Tsvg > graph.svg
  retrylint audit . --out audit-report   report.md, report.html, report.json
  retrylint simulate . --out chart.svg   the worst path's last service down 30 s
  retrylint rules                      list every rule
  retrylint explain RL203              a rule's documentation
  retrylint config                     the effective configuration

`retrylint help COMMAND` (or `COMMAND --help`) shows each command's options
and examples.";

const CHECK_EXAMPLES: &str = "\
Examples:
  retrylint check                      check the current directory
  retrylint check services/ deploy/    check two trees
  retrylint check --format json .      machine-readable findings
  retrylint check --select RL2 --ignore RL206 .
  retrylint check --format pretty --format sarif=retrylint.sarif
  retrylint check --changed-since origin/main --format github
  retrylint check --write-baseline .retrylint-baseline.json
  retrylint check --baseline .retrylint-baseline.json
  retrylint check --color always . | less -R
  retrylint check --fix .              make the safe fixes
  retrylint check --diff --unsafe-fixes .  show every fix as a diff
  retrylint check --stdin-filename k8s/vs.yaml - < k8s/vs.yaml
  retrylint check --format sarif=r.sarif --sarif-category retrylint/deploy";

const GRAPH_EXAMPLES: &str = "\
Examples:
  retrylint graph                      the call graph as Mermaid
  retrylint graph --format dot . | dot -Tsvg > graph.svg
  retrylint graph --format json services/";

const AUDIT_EXAMPLES: &str = "\
Examples:
  retrylint audit . --out audit-report   report.md, report.html, report.json
  retrylint audit --no-config --exclude 'vendor/**' .
  retrylint audit --facts orders.facts.json payments.facts.json --out org-report
                                         join repositories (`retrylint facts` in each)";

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
    #[command(after_help = CHECK_EXAMPLES)]
    Check(CheckArgs),
    /// List every rule: code, name, default severity, category and formats.
    Rules {
        #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
        format: RulesFormat,
    },
    /// Print the call-path graph: services, calls, the retry layers on each
    /// call, and the worst path from each entry point.
    #[command(after_help = GRAPH_EXAMPLES)]
    Graph(GraphArgs),
    /// Write a report of everything found (Markdown, HTML with the call
    /// graph drawn, and JSON) into a directory.
    #[command(after_help = AUDIT_EXAMPLES)]
    Audit(AuditArgs),
    /// Export what one repository says (services, calls, policies, with
    /// its name and commit) as JSON, for `audit --facts` to join with
    /// other repositories'.
    #[command(after_help = org::EXAMPLES)]
    Facts(org::FactsArgs),
    /// Print a rule's documentation.
    Explain {
        /// A rule code (`RL203`) or name (`unjittered-backoff`).
        rule: String,
    },
    /// Print the effective configuration (the file, then the flags) as TOML.
    Config(ConfigCmd),
    /// Simulate what a path's retries send to its last service while that
    /// service is down, as found and with the fixes (text, JSON, SVG, HTML).
    #[command(after_help = simulate::EXAMPLES)]
    Simulate(simulate::SimulateArgs),
    /// Run the language server on stdin and stdout, for editors: findings
    /// as you type, fixes as code actions, a rule's doc on hover.
    Server(ConfigArgs),
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

/// `--color`: whether the pretty output is coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set; `FORCE_COLOR` or
    /// `CLICOLOR_FORCE` turn it on off a terminal (CI logs).
    #[default]
    Auto,
    Always,
    Never,
}

#[derive(Args, Debug)]
pub struct GraphArgs {
    /// Files and directories to read.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = GraphFormat::Mermaid)]
    pub format: GraphFormat,
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Print nothing on stderr but errors.
    #[arg(long, short)]
    pub quiet: bool,
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
    /// Files and directories to check. When every path is a file inside a
    /// git repository (as pre-commit passes them), the whole repository is
    /// read for the call graph and only findings in these files are
    /// reported. `-` reads one file from stdin (with --stdin-filename).
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// The path of the file read from stdin (`-`): its name decides how it
    /// is read, it is the path findings show, and the configuration is the
    /// one that applies there. The file is checked alone, as editors and
    /// `ruff --stdin-filename` do.
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
    /// The code scanning category of the SARIF log (`automationDetails.id`
    /// `CATEGORY/`), so that several uploads for one commit do not replace
    /// each other.
    #[arg(long, value_name = "CATEGORY", value_parser = parse_category)]
    pub sarif_category: Option<String>,
    /// Output format, `NAME` or `NAME=FILE`; repeat for several outputs
    /// (`--format pretty --format sarif=retrylint.sarif`). Formats without
    /// a file write to --output or stdout; at most one may. Names: pretty,
    /// concise, json, sarif, github, markdown.
    #[arg(long, value_name = "NAME[=FILE]", value_parser = parse_format_spec)]
    pub format: Vec<FormatSpec>,
    /// Write the output of the format without `=FILE` to FILE instead of
    /// stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Exit with 1 when a finding has at least this severity.
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    pub fail_on: FailOn,
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Report only findings that are not in this baseline file (matched by
    /// fingerprint: code, file and the finding's normalised line text).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record every current finding in FILE as the new baseline, and exit 0.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Report only findings in files changed since the git revision REF
    /// (`git diff --name-only REF`) or untracked; the whole tree is still
    /// read for the call graph.
    #[arg(long, value_name = "REF")]
    pub changed_since: Option<String>,
    /// Make the safe fixes of the findings in the files (rounds until none
    /// applies; a file that no longer parses is restored), then report
    /// the findings left.
    #[arg(long)]
    pub fix: bool,
    /// Make the unsafe fixes too (they change what is retried or how
    /// often); alone, it fixes as --fix does.
    #[arg(long)]
    pub unsafe_fixes: bool,
    /// Print the fixes as a unified diff instead of writing them (every
    /// round, as --fix would make them); exit 1 when there is one.
    #[arg(long)]
    pub diff: bool,
    /// Do not print the closing summary line.
    #[arg(long, short)]
    pub quiet: bool,
    /// Colour the pretty output: auto (on a terminal; `NO_COLOR` turns it
    /// off, `FORCE_COLOR` or `CLICOLOR_FORCE` on), always or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// The options that make up the effective configuration; shared by
/// `check` and `config`. Flags override the configuration file.
#[derive(Args, Debug, Default)]
pub struct ConfigArgs {
    /// Read this configuration file instead of looking for .retrylint.toml
    /// from the scanned paths up to the repository root.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long, conflicts_with = "config")]
    pub no_config: bool,
    /// Only these rules (codes, code prefixes such as `RL2`, or names);
    /// replaces the file's `select`.
    #[arg(long, value_delimiter = ',')]
    pub select: Vec<String>,
    /// Not these rules (codes, code prefixes, or names); replaces the
    /// file's `ignore`.
    #[arg(long, value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Glob of paths not to scan; may be repeated; added to the file's
    /// `exclude`.
    #[arg(long)]
    pub exclude: Vec<String>,
    /// Files larger than this many bytes are skipped with a finding.
    #[arg(long)]
    pub max_file_size: Option<u64>,
    /// Neither read nor write the facts cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Keep the facts cache in DIR instead of `.retrylint-cache/` in the
    /// directory of .retrylint.toml (else the repository root).
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    pub cache_dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ConfigCmd {
    #[command(flatten)]
    pub args: ConfigArgs,
    /// Print the reference of every key (the README's Markdown table)
    /// instead.
    #[arg(long)]
    pub reference: bool,
}

/// One `--format NAME[=FILE]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatSpec {
    pub format: Format,
    pub file: Option<PathBuf>,
}

fn parse_category(s: &str) -> Result<String, String> {
    if s.trim().is_empty() {
        return Err("the category is empty".into());
    }
    Ok(s.to_string())
}

fn parse_format_spec(s: &str) -> Result<FormatSpec, String> {
    let (name, file) = match s.split_once('=') {
        Some((n, f)) if !f.is_empty() => (n, Some(PathBuf::from(f))),
        Some((n, _)) => return Err(format!("`{n}=` needs a file name after `=`")),
        None => (s, None),
    };
    let format = <Format as ValueEnum>::from_str(name, true).map_err(|_| {
        let names: Vec<String> = Format::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        format!("unknown format `{name}`; one of: {}", names.join(", "))
    })?;
    Ok(FormatSpec { format, file })
}

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// Files and directories to read (default: `.`, unless --facts is
    /// given).
    pub paths: Vec<PathBuf>,
    /// Facts files of other repositories (`retrylint facts`) to join with
    /// the paths into one graph: services meet across repositories by
    /// name, alias and host, and each file is shown under its
    /// repository's name.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub facts: Vec<PathBuf>,
    /// Directory to write report.md, report.html and report.json into
    /// (created if missing; the three files are replaced).
    #[arg(long, default_value = "audit-report")]
    pub out: PathBuf,
    #[command(flatten)]
    pub config: ConfigArgs,
    /// No progress bar and no closing lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The arguments as clap should see them: `retrylint help --help` (and
/// `help check -h`) mean `help` (and `help check`), where clap would
/// reject `--help` as an unknown command.
pub fn normalise_args(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = args.into_iter().collect();
    if args.get(1).is_some_and(|a| a == "help") {
        let tail: Vec<_> = args
            .split_off(2)
            .into_iter()
            .filter(|a| a != "--help" && a != "-h")
            .collect();
        args.extend(tail);
    }
    args
}

/// Run the command line; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    // The one read of the working directory: the library is handed it.
    let cwd = std::env::current_dir().map_err(|e| format!("no working directory: {e}"));
    let cwd = match (&cli.command, cwd) {
        (Command::Rules { .. } | Command::Explain { .. }, _) => PathBuf::new(),
        (_, Ok(cwd)) => cwd,
        (_, Err(e)) => {
            eprintln!("retrylint: {e}");
            return 2;
        }
    };
    match cli.command {
        Command::Check(args) => check(args, &cwd),
        Command::Server(args) => server(args, &cwd),
        Command::Audit(args) => audit::audit(args, &cwd),
        Command::Facts(args) => org::facts(&args, &cwd),
        Command::Graph(args) => graph(&args, &cwd),
        Command::Simulate(args) => simulate::run(&args, &cwd),
        Command::Rules { format } => {
            let _ = std::io::stdout()
                .lock()
                .write_all(rules_listing(format).as_bytes());
            0
        }
        Command::Config(ConfigCmd {
            reference: true, ..
        }) => {
            print!("{}", config_file::reference_markdown());
            0
        }
        Command::Config(ConfigCmd { args, .. }) => match settings(&args, &cwd, &[]) {
            Ok(s) => {
                print!("{}", crate::config_file::effective_toml(&s));
                0
            }
            Err(e) => {
                eprintln!("retrylint: {e}");
                2
            }
        },
        Command::Explain { rule } => match rules::lookup(&rule) {
            Some(r) => {
                let _ = writeln!(std::io::stdout().lock(), "{}", r.body().trim_end());
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

/// Whether to colour output to stdout: the flag, then `NO_COLOR`
/// (no-color.org: set and not empty), then `FORCE_COLOR` or
/// `CLICOLOR_FORCE` (set and neither empty nor `0`), then whether stdout
/// is a terminal.
pub fn color_enabled(choice: ColorChoice, env: impl Fn(&str) -> Option<String>, tty: bool) -> bool {
    let set = |k: &str| env(k).is_some_and(|v| !v.is_empty());
    let forced = |k: &str| env(k).is_some_and(|v| !v.is_empty() && v != "0");
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("NO_COLOR") => false,
        ColorChoice::Auto if forced("FORCE_COLOR") || forced("CLICOLOR_FORCE") => true,
        ColorChoice::Auto => tty,
    }
}

/// `retrylint server`: each workspace folder is configured as `check`
/// configures a folder, with these flags (`--config` relative to `cwd`).
fn server(mut args: ConfigArgs, cwd: &Path) -> i32 {
    args.config = args.config.map(|c| cwd.join(c));
    let nearest = discovered(&args, &[]).is_some();
    crate::server::run_stdio(cwd, &|root: &Path| {
        Ok((settings(&args, root, &[])?, nearest))
    })
}

fn graph(args: &GraphArgs, cwd: &Path) -> i32 {
    let (paths, format) = (&args.paths, args.format);
    // The configuration's [[services]], [[edges]], mesh and entry points
    // shape the graph.
    let mut settings = match settings(&args.config, cwd, paths) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("retrylint: {e}");
            return 2;
        }
    };
    // The facts cache where `check` and `audit` keep it for these paths.
    place_cache(&mut settings, &args.config, paths);
    let pipeline = Pipeline::new(&settings).nearest_configs(discovered(&args.config, paths));
    let mut scan = match pipeline.scan(paths) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("retrylint: {e}");
            return 2;
        }
    };
    let g = match pipeline.graph(&scan) {
        Ok(g) => g,
        Err(notice) => {
            scan.notices.push(notice);
            print_notices(&scan.notices);
            return 2;
        }
    };
    if !args.quiet {
        print_notices(&scan.notices);
    }
    let out = match format {
        GraphFormat::Json => render::graph::json(&scan, &g),
        GraphFormat::Dot => render::graph::dot(&g),
        GraphFormat::Mermaid => render::graph::mermaid(&g),
    };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    0
}

/// The effective settings: defaults, then the configuration file, then
/// the flags. Without `--config` or `--no-config`, the configuration is
/// the nearest `.retrylint.toml` above the scanned `paths` (relative to
/// `cwd`; none: `cwd` itself), not above the working directory.
pub fn settings(args: &ConfigArgs, cwd: &Path, paths: &[PathBuf]) -> Result<Settings, String> {
    let choice = match (&args.config, args.no_config) {
        (_, true) => ConfigChoice::None,
        (Some(f), _) => ConfigChoice::File(f),
        (None, false) => ConfigChoice::Discover,
    };
    let mut settings = crate::pipeline::configure(cwd, paths, choice)?;
    // Applied again over each nested configuration the run reads.
    let flags = config::Flags {
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        exclude: args.exclude.clone(),
        max_file_size: args.max_file_size,
    };
    flags.apply(&mut settings);
    settings.cache_dir = if args.no_cache {
        None
    } else if let Some(dir) = &args.cache_dir {
        Some(std::path::absolute(dir).map_err(|e| format!("bad --cache-dir: {e}"))?)
    } else {
        let root = settings.root.clone().unwrap_or_default();
        Some(
            root.join(
                settings
                    .cache_dir
                    .take()
                    .unwrap_or_else(|| PathBuf::from(crate::cache::DIR_NAME)),
            ),
        )
    };
    settings.validate_patterns()?;
    Ok(settings)
}

/// The paths named, when the configuration was looked for above them
/// (not named, not turned off): each file then takes the nearest
/// configuration above it, nested projects' included.
fn discovered<'a>(args: &ConfigArgs, paths: &'a [PathBuf]) -> Option<&'a [PathBuf]> {
    (args.config.is_none() && !args.no_config).then_some(paths)
}

/// Put the facts cache with the scanned tree ([`crate::cache::place`])
/// unless `--no-cache` or `--cache-dir` decided.
fn place_cache(settings: &mut Settings, args: &ConfigArgs, roots: &[PathBuf]) {
    if args.no_cache || args.cache_dir.is_some() {
        return;
    }
    let loaded = settings
        .config_file
        .as_deref()
        .zip(settings.cache_dir.as_deref());
    settings.cache_dir = crate::cache::place(roots, loaded);
}

fn check(args: CheckArgs, cwd: &Path) -> i32 {
    match check_inner(args, cwd) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("retrylint: {}", render::sanitize(&e));
            2
        }
    }
}

fn check_inner(args: CheckArgs, cwd: &Path) -> Result<i32, String> {
    let stdin_name = input::stdin_name(&args.paths, args.stdin_filename.as_deref())?;
    if stdin_name.is_some() && args.changed_since.is_some() {
        return Err("`-` (stdin) cannot be checked with --changed-since".into());
    }
    // The configuration that applies where the stdin file is said to be.
    let mut settings = match stdin_name {
        Some(name) => settings(&args.config, cwd, &[name.to_path_buf()])?,
        None => settings(&args.config, cwd, &args.paths)?,
    };
    let mut outputs: Vec<(Format, Sink)> = Vec::new();
    let specs = if args.format.is_empty() && args.write_baseline.is_some() {
        // Writing a baseline is the run's output.
        Vec::new()
    } else if args.format.is_empty() {
        vec![FormatSpec {
            format: Format::Pretty,
            file: None,
        }]
    } else {
        args.format.clone()
    };
    for spec in specs {
        let sink = match (spec.file, &args.output) {
            (Some(f), _) => Sink::File(f),
            (None, Some(o)) => Sink::File(o.clone()),
            (None, None) => Sink::Stdout,
        };
        outputs.push((spec.format, sink));
    }
    // Two outputs to one file would overwrite each other.
    let mut seen: Vec<(PathBuf, Format)> = Vec::new();
    for (format, sink) in &outputs {
        if let Sink::File(p) = sink {
            let abs = std::path::absolute(p).unwrap_or_else(|_| p.clone());
            if let Some((_, other)) = seen.iter().find(|(q, _)| *q == abs) {
                return Err(format!(
                    "`{}` and `{}` would both write `{}`; give each format its own file",
                    format_name(*other),
                    format_name(*format),
                    p.display()
                ));
            }
            seen.push((abs, *format));
        }
    }
    let undirected = args.format.iter().filter(|s| s.file.is_none()).count();
    if undirected > 1 {
        return Err(format!(
            "{undirected} formats would write to {}; give all but one a file: `--format sarif=retrylint.sarif`",
            if args.output.is_some() {
                "--output"
            } else {
                "stdout"
            }
        ));
    }
    // The baseline is no input, though readers may claim a JSON file.
    for b in [&args.baseline, &args.write_baseline].into_iter().flatten() {
        settings.exclude.extend(input::exclude_exactly(b, cwd));
    }
    let fixing = args.fix || args.unsafe_fixes || args.diff;
    if let Some(name) = stdin_name {
        if fixing {
            return Err("`-` (stdin) cannot be fixed: name the file".into());
        }
        return input::check_stdin(&args, name, settings, outputs, cwd);
    }
    if fixing && args.write_baseline.is_some() {
        return Err("--write-baseline records findings; run it without --fix or --diff".into());
    }
    // Files given one by one (pre-commit), or --changed-since: read the
    // whole repository for the graph, report only under the given paths.
    let given: Vec<PathBuf> = args
        .paths
        .iter()
        .map(|p| config::normalise(&cwd.join(p)))
        .collect();
    let files_only = !args.paths.is_empty() && args.paths.iter().all(|p| p.is_file());
    let repo = if args.changed_since.is_some() {
        Some(config_file::repo_root(cwd).ok_or(
            "--changed-since needs a git repository (no .git above the working directory)",
        )?)
    } else if files_only {
        given[0].parent().and_then(config_file::repo_root)
    } else {
        None
    };
    let whole_repo = repo
        .as_ref()
        .filter(|root| given.iter().all(|p| p.starts_with(root)));
    // A chart template named outside a repository is read with its chart.
    let charts: Vec<PathBuf> = if files_only && whole_repo.is_none() {
        given
            .iter()
            .filter_map(|g| crate::discover::chart_of(g))
            .collect()
    } else {
        Vec::new()
    };
    let narrowed = whole_repo.is_some() || !charts.is_empty();
    let roots = match whole_repo {
        Some(root) => vec![root.clone()],
        None if !charts.is_empty() => {
            let mut r: Vec<PathBuf> = given
                .iter()
                .filter(|g| !charts.iter().any(|c| g.starts_with(c)))
                .cloned()
                .chain(charts.iter().cloned())
                .collect();
            r.sort();
            r.dedup();
            r
        }
        // Absolute when inside the working directory (shown the same way),
        // so that `check .` and a pre-commit run share facts cache keys.
        None => args
            .paths
            .iter()
            .zip(&given)
            .map(|(p, g)| {
                if g.starts_with(cwd) {
                    g.clone()
                } else {
                    p.clone()
                }
            })
            .collect(),
    };
    if narrowed {
        settings.named_files = given.iter().filter(|p| p.is_file()).cloned().collect();
    }
    place_cache(&mut settings, &args.config, &roots);
    let abs = |f: &crate::source::SourceFile| config::normalise(&cwd.join(&f.path));
    // The files reported: those changed since a commit, and those named on
    // the command line when the whole repository is read around them.
    let changed = match &args.changed_since {
        Some(reference) => {
            let root = repo.as_ref().expect("checked above");
            Some(crate::changes::changed_since(root, reference)?)
        }
        None => None,
    };
    let keep = |f: &crate::source::SourceFile| {
        if changed.is_none() && !narrowed {
            return true;
        }
        let p = abs(f);
        changed.as_ref().is_none_or(|c| c.contains(&p))
            && (!narrowed || given.iter().any(|g| p.starts_with(g)))
    };
    let run_once = || {
        Pipeline::new(&settings)
            .nearest_configs(discovered(&args.config, &args.paths))
            .run_for(&roots, keep)
    };
    // `--diff` writes nothing: its rounds scan the tree read once, with
    // the texts fixed so far in place of those files.
    let pipeline = Pipeline::new(&settings).nearest_configs(discovered(&args.config, &args.paths));
    let unlinked = std::cell::OnceCell::new();
    let scan_with = |texts: &fix::Texts| -> Result<Run, String> {
        if !args.diff {
            return run_once();
        }
        let base = match unlinked.get() {
            Some(base) => base,
            None => {
                let base = pipeline.scan_unlinked(&roots)?;
                unlinked.get_or_init(|| base)
            }
        };
        Ok(pipeline.run_over(base, &roots, cwd, texts, keep))
    };
    let Run {
        mut scan,
        report,
        graph,
    } = if fixing {
        let (run, outcome) = fix::fix_loop(&args, cwd, args.diff, &scan_with)?;
        fix::tell(&outcome, args.diff);
        if args.diff {
            print_notices(&run.scan.notices);
            return Ok(fix::print_diff(&outcome));
        }
        run
    } else {
        run_once()?
    };
    for (path, why) in input::unread_files(&args.paths) {
        scan.notices.push(crate::Notice {
            path: Some(path),
            message: why.into(),
            internal: false,
        });
    }
    let srcroot = input::source_root(&given);
    // The process ends after the outputs: what the run built is left to
    // the exit rather than freed piece by piece (on the generated 10k
    // tree, freeing the scan, its graph and its findings took 5-10 ms of
    // a cold run's wall, after everything was printed).
    std::mem::forget(graph);
    finish(&args, scan, report, &settings, &outputs, srcroot, cwd)
}

/// Each notice (a path not walked, an internal error) on stderr.
fn print_notices(notices: &[crate::Notice]) {
    for n in notices {
        match &n.path {
            Some(p) => eprintln!(
                "retrylint: {}: {}",
                render::sanitize(p),
                render::sanitize(&n.message)
            ),
            None => eprintln!("retrylint: {}", render::sanitize(&n.message)),
        }
    }
}

/// A format's name as `--format` takes it.
fn format_name(f: Format) -> String {
    f.to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}
