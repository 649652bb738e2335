//! The call graph of a fixture, and its edges as text, for the graph
//! tests that compare edges with a fixture's hand count.

use retrylint::config::Settings;
use retrylint::graph::{self, Graph};
use std::path::PathBuf;

/// Scan `path` (relative to the crate root) with the default settings and
/// build its graph.
pub fn build(path: &str) -> (retrylint::Scan, Graph) {
    let settings = Settings::default();
    let scan = retrylint::scan(&[PathBuf::from(path)], &settings).unwrap();
    let g = graph::build(&scan.files, &settings);
    (scan, g)
}

/// Each edge as `from -> to xN [layers]`, sorted.
pub fn edge_names(g: &Graph) -> Vec<String> {
    let mut v: Vec<String> = g
        .edges
        .iter()
        .map(|e| {
            let layers: Vec<&str> = e.layers.iter().map(|l| l.label.as_str()).collect();
            format!(
                "{} -> {} x{} {layers:?}",
                g.service_name(e.from),
                g.service_name(e.to),
                e.factor()
            )
        })
        .collect();
    v.sort();
    v
}

/// Each edge as `from -> to protocol`, sorted.
pub fn labelled_edges(g: &Graph) -> Vec<String> {
    let mut v: Vec<String> = g
        .edges
        .iter()
        .map(|e| {
            format!(
                "{} -> {} {}",
                g.service_name(e.from),
                g.service_name(e.to),
                e.protocol.label()
            )
        })
        .collect();
    v.sort();
    v
}

/// Each edge as `from -> to protocol xN`, sorted.
pub fn protocol_edges(g: &Graph) -> Vec<String> {
    let mut v: Vec<String> = g
        .edges
        .iter()
        .map(|e| {
            format!(
                "{} -> {} {} x{}",
                g.service_name(e.from),
                g.service_name(e.to),
                e.protocol.label(),
                e.factor()
            )
        })
        .collect();
    v.sort();
    v
}

/// `from -> to xN via` of every edge whose via starts with `prefix`,
/// sorted.
pub fn edges_via(g: &Graph, prefix: &str) -> Vec<String> {
    let mut v: Vec<String> = g
        .edges
        .iter()
        .filter(|e| e.via.starts_with(prefix))
        .map(|e| {
            format!(
                "{} -> {} x{} {}",
                g.service_name(e.from),
                g.service_name(e.to),
                e.factor(),
                e.via
            )
        })
        .collect();
    v.sort();
    v
}

/// What the scan's calls left unresolved, as written, file by file.
pub fn unresolved(scan: &retrylint::Scan) -> Vec<&str> {
    scan.files
        .iter()
        .flat_map(|f| f.facts.unresolved.iter().map(|u| u.written.as_str()))
        .collect()
}
