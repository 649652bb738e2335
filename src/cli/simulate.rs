//! `retrylint simulate`: the command's options and body.

use super::{ConfigArgs, discovered, place_cache, print_notices, settings};
use crate::pipeline::Pipeline;
use crate::render::{self, simulate as out};
use crate::simulate::{Comparison, Failure, PathChoice, Scenario, choose_path, path_layers};
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};

pub const EXAMPLES: &str = "\
Examples:
  retrylint simulate                   the worst path, its deepest service down 30 s
  retrylint simulate . --out ledger.svg   the table, and the chart in ledger.svg
  retrylint simulate --service ledger --rps 500 --outage 60
  retrylint simulate --path 'gateway->orders->payments' --failure timeout
  retrylint simulate --format json . > simulation.json";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SimFormat {
    /// The numbers side by side, and the load per second.
    Text,
    /// Every number and the load per 100 ms, for other tools.
    Json,
    /// A line chart of the load, as found and fixed.
    Svg,
    /// A page with the table and the chart.
    Html,
}

#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Files and directories to read.
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    /// Simulate the path with the most attempts that ends at this service.
    #[arg(long, value_name = "NAME", conflicts_with = "path")]
    pub service: Option<String>,
    /// Simulate these services' calls, in order: `gateway->orders->ledger`.
    #[arg(long, value_name = "FROM->...->TO")]
    pub path: Option<String>,
    /// User requests per second into the path's entry.
    #[arg(long, default_value_t = 100.0, value_name = "N")]
    pub rps: f64,
    /// How long the last service is down, in seconds (it starts 10 s in).
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    pub outage: f64,
    /// The whole run, in seconds [default: the outage + 70 s].
    #[arg(long, value_name = "SECONDS")]
    pub duration: Option<f64>,
    /// How the last service fails: `error` answers at once, `timeout`
    /// never answers.
    #[arg(long, value_enum, default_value_t = Failure::Error)]
    pub failure: Failure,
    /// The output's format [default: text; with --out, from the file's
    /// extension].
    #[arg(long, value_enum)]
    pub format: Option<SimFormat>,
    /// Write the output into this file (the text table still goes to
    /// stdout when the file is not text).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Print nothing on stderr but errors.
    #[arg(long, short)]
    pub quiet: bool,
}

fn format_of(args: &SimulateArgs) -> SimFormat {
    if let Some(f) = args.format {
        return f;
    }
    let ext = args
        .out
        .as_deref()
        .and_then(Path::extension)
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("json") => SimFormat::Json,
        Some("svg") => SimFormat::Svg,
        Some("html" | "htm") => SimFormat::Html,
        _ => SimFormat::Text,
    }
}

fn choice(args: &SimulateArgs) -> PathChoice {
    match (&args.service, &args.path) {
        (Some(s), _) => PathChoice::Service(s.trim().to_string()),
        (None, Some(p)) => PathChoice::Services(
            p.split("->")
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect(),
        ),
        (None, None) => PathChoice::Worst,
    }
}

pub fn run(args: &SimulateArgs, cwd: &Path) -> i32 {
    match inner(args, cwd) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("retrylint: {}", render::sanitize(&e));
            2
        }
    }
}

fn inner(args: &SimulateArgs, cwd: &Path) -> Result<i32, String> {
    for (name, v) in [("--rps", args.rps), ("--outage", args.outage)]
        .into_iter()
        .chain(args.duration.map(|d| ("--duration", d)))
    {
        if !v.is_finite() || v < 0.0 {
            return Err(format!("{name} `{v}`: a number of 0 or more is expected"));
        }
    }
    let paths = &args.paths;
    let mut settings = settings(&args.config, cwd, paths)?;
    place_cache(&mut settings, &args.config, paths);
    let pipeline = Pipeline::new(&settings).nearest_configs(discovered(&args.config, paths));
    let mut scan = pipeline.scan(paths)?;
    let g = match pipeline.graph(&scan) {
        Ok(g) => g,
        Err(notice) => {
            scan.notices.push(notice);
            print_notices(&scan.notices);
            return Ok(2);
        }
    };
    if !args.quiet {
        print_notices(&scan.notices);
    }
    let edges = choose_path(&g, &choice(args))?;
    let scenario = Scenario::new(args.rps, args.outage, args.duration, args.failure);
    let path = path_layers(&scan.files, &g, &edges, scenario.failure);
    let c = Comparison::run(path, &scenario);
    let format = format_of(args);
    let body = match format {
        SimFormat::Text => out::text(&c),
        SimFormat::Json => out::json(&c),
        SimFormat::Svg => out::svg(&c),
        SimFormat::Html => out::html(&c),
    };
    let mut stdout = std::io::stdout().lock();
    match &args.out {
        Some(file) => {
            std::fs::write(cwd.join(file), body.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", crate::source::display_path(file)))?;
            if format != SimFormat::Text {
                stdout
                    .write_all(out::text(&c).as_bytes())
                    .map_err(|e| e.to_string())?;
            }
            if !args.quiet {
                eprintln!(
                    "retrylint: wrote {}",
                    render::sanitize(&crate::source::display_path(file))
                );
            }
        }
        None => stdout
            .write_all(body.as_bytes())
            .map_err(|e| e.to_string())?,
    }
    Ok(0)
}
