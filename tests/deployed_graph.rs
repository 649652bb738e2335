//! The call graph as deployed (issue 17, stop 41): retries built by a
//! helper method, properties bound by a `@Bean` method, compose services
//! built from a unit, Service aliases and Ingress hosts per deployment
//! variant, each edge's HTTP paths. Each fixture's README works its edges
//! out by hand.

mod common;

use common::graph::{build, edge_names};
use retrylint::graph::Graph;

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

/// `graph --format json` gives each edge the HTTP path it sends and a
/// route edge its patterns, and the document is what the schema
/// (`#/definitions/graph` in docs/json-output.schema.json) says.
#[test]
fn graph_json_gives_each_edge_its_path_and_route() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_retrylint"))
        .current_dir(root)
        .args([
            "graph",
            "--no-cache",
            "--no-config",
            "--format",
            "json",
            "testdata/graph/http-interface-paths",
        ])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut rows: Vec<String> = doc["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{} -> {} {} {}",
                e["from"].as_str().unwrap(),
                e["to"].as_str().unwrap(),
                e["path"],
                e["route"]
            )
        })
        .collect();
    rows.sort();
    assert_eq!(
        rows,
        [
            "api-gateway -> catalog-service null [\"/catalog/**\"]",
            "api-gateway -> order-service null [\"/orders/**\"]",
            "bookstore-webapp -> api-gateway null []",
            "order-service -> api-gateway \"/catalog/api/products\" []",
            "order-service -> api-gateway \"/catalog/api/products/{code}\" []",
        ]
    );
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("docs/json-output.schema.json")).unwrap(),
    )
    .unwrap();
    let mut graph_schema = schema["definitions"]["graph"].clone();
    graph_schema["definitions"] = schema["definitions"].clone();
    let validator = jsonschema::validator_for(&graph_schema).unwrap();
    assert!(validator.is_valid(&doc));
    let mut broken = doc.clone();
    broken["edges"][0]["path"] = "catalog".into();
    assert!(!validator.is_valid(&broken));
}

#[test]
fn properties_a_bean_method_binds_onto_a_type_of_another_file_give_its_calls() {
    let (_, g) = build("testdata/graph/bean-bound-properties");
    assert_eq!(edge_names(&g), ["order-service -> inventory-service x1 []"]);
}

#[test]
fn a_configmap_values_scheme_is_the_protocol_of_its_call() {
    let (_, g) = build("testdata/graph/envfrom-value-protocol");
    assert_eq!(
        protocol_edges(&g),
        ["contacts -> accounts-db SQL x1", "contacts -> cache TCP x1"]
    );
}

#[test]
fn a_kubernetes_services_alias_does_not_hold_on_a_compose_network() {
    let (_, g) = build("testdata/graph/compose-vs-kube-alias");
    assert_eq!(
        edge_names(&g),
        ["shop -> lgtm x1 []", "shop -> otel-collector x1 []"]
    );
    let mut names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["lgtm", "otel-collector", "shop"]);
}
