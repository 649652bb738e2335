//! The outage simulation of each worst path in the audit report (issue
//! 24): the default scenario (`Scenario::audit_default`: the path's
//! deepest service of the repository down for 30 s at 100 requests/s),
//! as found and fixed, next to the path's table. The hooks that call
//! this file are marked `simulation (issue 24)` in `mod.rs`, `data.rs`,
//! `doc.rs`, `html.rs` and `markdown.rs`.

use super::Report;
use super::doc::{Block, Column, Inline, Row, Table};
use crate::Scan;
use crate::graph::{Graph, WorstPath};
use crate::render::simulate as sim;
use crate::simulate::{Comparison, Scenario, cut_to_owned, path_layers};

/// One simulation per worst path (in the graph's order), `None` where
/// the path does not retry.
pub fn for_paths(scan: &Scan, g: &Graph, paths: &[WorstPath]) -> Vec<Option<Comparison>> {
    let scenario = Scenario::audit_default();
    paths
        .iter()
        .map(|p| {
            (p.attempts > 1).then(|| {
                let edges = cut_to_owned(g, &p.edges);
                Comparison::run(
                    path_layers(&scan.files, g, &edges, scenario.failure),
                    &scenario,
                )
            })
        })
        .collect()
}

/// The blocks after worst path `i`'s table: a heading line, the numbers
/// side by side, and the chart.
pub fn blocks(r: &Report, i: usize) -> Vec<Block> {
    let Some(Some(c)) = r.simulations.get(i) else {
        return Vec::new();
    };
    let mut rows: Vec<Row> = sim::rows(c)
        .into_iter()
        .map(|(k, a, b)| {
            Row::Cells(vec![
                vec![Inline::Message(k)],
                vec![Inline::Text(a)],
                vec![Inline::Text(b)],
            ])
        })
        .collect();
    rows.extend(c.fixed.changes.iter().map(|ch| {
        Row::Cells(vec![
            vec![Inline::Plain("fixed variant")],
            vec![],
            vec![Inline::Message(ch.clone())],
        ])
    }));
    vec![
        Block::Para(vec![
            Inline::Plain("If "),
            Inline::Message(sim::headline(c)),
            Inline::Plain(":"),
        ]),
        Block::Table(Table {
            columns: vec![
                Column {
                    title: "Simulated outage",
                    numeric: false,
                },
                Column {
                    title: "As found",
                    numeric: false,
                },
                Column {
                    title: "Fixed",
                    numeric: false,
                },
            ],
            rows,
        }),
        Block::Simulation(i),
    ]
}

/// The chart, for the HTML page.
pub fn html(r: &Report, i: usize) -> String {
    match r.simulations.get(i) {
        Some(Some(c)) => format!("<div class=\"graph-scroll\">\n{}</div>\n", sim::svg(c)),
        _ => String::new(),
    }
}

/// What Markdown shows instead of the chart.
pub fn markdown(r: &Report, i: usize) -> String {
    match r.simulations.get(i) {
        Some(Some(_)) => "The load over time is drawn in report.html (`retrylint simulate --path` draws it alone).\n\n".to_string(),
        _ => String::new(),
    }
}

/// One variant's numbers in `report.json` (the load per bucket is left
/// to `retrylint simulate --format json`).
#[derive(serde::Serialize)]
struct VariantSummary<'a> {
    /// Attempts at the failing service per failing user request.
    attempts: f64,
    /// Peak load at the failing service as a multiple of normal.
    peak_multiple: f64,
    peak_rps: f64,
    /// Seconds from the start.
    peak_at: f64,
    extra_requests: f64,
    /// Seconds the load stays above normal after the service recovers.
    excess_after_recovery: f64,
    failed_share: f64,
    slow_share: f64,
    /// What the fixed variant changed (empty as found).
    changes: &'a [String],
}

#[derive(serde::Serialize)]
struct PathSimulation<'a> {
    /// Index into `worst_paths`.
    path: usize,
    /// The simulated services, entry first, failing service last (the
    /// worst path up to its deepest service of the repository).
    services: &'a [String],
    scenario: &'a Scenario,
    found: VariantSummary<'a>,
    fixed: VariantSummary<'a>,
}

fn summary<'a>(
    p: &'a crate::simulate::SimPath,
    o: &crate::simulate::Outcome,
) -> VariantSummary<'a> {
    // Rounded past what the model resolves (steps of 10 ms and more).
    let r = |x: f64, places: i32| {
        let k = 10f64.powi(places);
        (x * k).round() / k
    };
    VariantSummary {
        attempts: p.attempts,
        peak_multiple: r(o.peak_multiple(), 3),
        peak_rps: r(o.peak_rps, 1),
        peak_at: r(o.peak_at, 3),
        extra_requests: r(o.extra_requests, 1),
        excess_after_recovery: r(o.excess_after_recovery, 3),
        failed_share: r(o.failed_share, 4),
        slow_share: r(o.slow_share, 4),
        changes: &p.changes,
    }
}

/// `report.json`'s `simulations`: one entry per worst path that retries,
/// the default scenario's numbers as found and fixed.
pub fn json_summaries<S: serde::Serializer>(
    sims: &[Option<Comparison>],
    ser: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = ser.serialize_seq(None)?;
    for (i, c) in sims.iter().enumerate() {
        let Some(c) = c else { continue };
        seq.serialize_element(&PathSimulation {
            path: i,
            services: &c.found.services,
            scenario: &c.scenario,
            found: summary(&c.found, &c.found_outcome),
            fixed: summary(&c.fixed, &c.fixed_outcome),
        })?;
    }
    seq.end()
}
