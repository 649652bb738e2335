//! The call graph as deployed (issue 17, stop 41): retries built by a
//! helper method, properties bound by a `@Bean` method, compose services
//! built from a unit, Service aliases and Ingress hosts per deployment
//! variant, each edge's HTTP paths. Each fixture's README works its edges
//! out by hand.

use retrylint::config::Settings;
use retrylint::graph::{self, Graph};
use std::path::PathBuf;

fn build(path: &str) -> (retrylint::Scan, Graph) {
    let settings = Settings::default();
    let scan = retrylint::scan(&[PathBuf::from(path)], &settings).unwrap();
    let g = graph::build(&scan.files, &settings);
    (scan, g)
}

/// Each edge as `from -> to xN [layers]`, sorted.
fn edge_names(g: &Graph) -> Vec<String> {
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

#[test]
fn a_reactor_retry_built_by_a_helper_method_counts_on_the_edge() {
    let (_, g) = build("testdata/graph/reactor-retry-helper");
    assert_eq!(
        edge_names(&g),
        ["gateway-service -> order-service x3 [\"`send` (Reactor)\"]"]
    );
}

/// Protocol of each edge, `from -> to protocol xN`, sorted.
fn protocol_edges(g: &Graph) -> Vec<String> {
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

#[test]
fn a_compose_service_built_from_a_units_folder_is_that_unit() {
    let (_, g) = build("testdata/graph/compose-build-unit");
    assert_eq!(
        protocol_edges(&g),
        [
            "catalog-service -> catalogdb SQL x1",
            "catalog-service -> postgresql SQL x1",
        ]
    );
    assert!(g.services.iter().all(|s| s.name != "catalogsvc"));
}
