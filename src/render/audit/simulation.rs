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
