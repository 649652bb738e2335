//! .NET client addresses read from the program's configuration (issue 19,
//! item 5): `config.GetSection("A").GetValue<string>("B")`,
//! `builder.Configuration["A:B"]`, through a local and an interpolated
//! string, joined with the caller's `appsettings*.json`.

use crate::common;

use common::graph::{build, edge_names, unresolved};

/// The fixture's README works the edges out by hand.
#[test]
fn client_addresses_come_from_the_callers_appsettings() {
    let (scan, g) = build("testdata/graph/csharp-config-address");
    let edges: Vec<String> = edge_names(&g)
        .into_iter()
        .map(|e| e.split(" [").next().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        edges,
        ["WebApp -> customer-api x4", "WebApp -> orders-api x4"]
    );
    assert_eq!(
        unresolved(&scan),
        ["{config:services:billing} through AddHttpClient<BillingClient> BaseAddress in C#"]
    );
    // The settings' values are stand-ins for the join: none is left over.
    assert!(
        scan.files
            .iter()
            .flat_map(|f| &f.facts.edges)
            .all(|e| !e.via.starts_with("configuration value")),
        "a stand-in was left on the graph"
    );
}

/// The fixture's README works the edges out by hand: the workload's
/// environment (`ApiSettings__GatewayAddress`) wins over the settings
/// files' `localhost`.
#[test]
fn the_workloads_environment_overrides_the_settings_files() {
    let (scan, g) = build("testdata/graph/csharp-config-env");
    let edges: Vec<String> = edge_names(&g)
        .into_iter()
        .map(|e| e.split(" [").next().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        edges,
        [
            "Ordering_API -> orderdb x7",
            "Shopping_Web -> yarpapigateway x4",
            "basket-api -> discount-grpc x1",
        ]
    );
    assert!(unresolved(&scan).is_empty(), "{:?}", unresolved(&scan));
    // The Deployment `basket-api` runs the program `Basket_API` (the same
    // letters and digits): one node, its gRPC call and the env entry
    // one edge.
    let names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    assert!(!names.contains(&"Basket_API"), "{names:?}");
    let basket = g
        .edges
        .iter()
        .find(|e| g.service_name(e.from) == "basket-api")
        .expect("basket-api's edge");
    assert_eq!(basket.also.len(), 1, "{basket:?}");
    // Each edge the environment set says where.
    let vias: Vec<&str> = g
        .edges
        .iter()
        .filter(|e| g.service_name(e.from) != "basket-api")
        .map(|e| e.via.as_str())
        .collect();
    assert_eq!(vias.len(), 2);
    for v in vias {
        assert!(v.contains("set by the environment of `"), "{v}");
    }
    // The entries are stand-ins for the join: none is left over.
    assert!(
        scan.files.iter().flat_map(|f| &f.facts.edges).all(|e| !e
            .client
            .as_deref()
            .is_some_and(|c| c.starts_with("configuration env:"))),
        "a stand-in was left on the graph"
    );
}

/// Dapr service invocation by app id, and the app id as the workload's
/// name (the fixture's README works it out).
#[test]
fn dapr_invocations_reach_the_app_ids_workload() {
    let (_, g) = build("testdata/graph/csharp-dapr-invoke");
    let edges: Vec<String> = edge_names(&g)
        .into_iter()
        .map(|e| e.split(" [").next().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        edges,
        [
            "Web_Shopping_HttpAggregator -> basket-api x1",
            "Web_Shopping_HttpAggregator -> catalog-api x1",
        ]
    );
    let names: std::collections::BTreeSet<&str> =
        g.services.iter().map(|s| s.name.as_str()).collect();
    assert!(!names.contains("eshop"), "{names:?}");
    assert!(names.contains("webshoppingagg"), "{names:?}");
}

/// A Dapr `Resiliency` puts its target's retry on the invocations of that
/// app id, its `DefaultAppRetryPolicy` on the others, and a resource
/// scoped to another app id on none of the caller's (the fixture's
/// README works it out).
#[test]
fn dapr_resiliency_retries_the_invocations_of_its_targets() {
    let (_, g) = build("testdata/graph/csharp-dapr-resiliency");
    let edges: Vec<String> = edge_names(&g)
        .into_iter()
        .map(|e| e.split(" [").next().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        edges,
        [
            "Web_Shopping_HttpAggregator -> basket-api x6",
            "Web_Shopping_HttpAggregator -> catalog-api x3",
        ]
    );
}

/// The fixture's README works the edges out by hand: Dapr invocations
/// written in Go (the `dapr-app-id` header), Python (the header, the
/// invocation URL, the SDK's `invoke_method`) and Java take the
/// `Resiliency` target's policy as C#'s do.
#[test]
fn dapr_resiliency_retries_invocations_from_other_languages() {
    let (_, g) = build("testdata/graph/dapr-invoke-languages");
    let mut edges: Vec<String> = edge_names(&g)
        .into_iter()
        .map(|e| e.split(" [").next().unwrap_or("").to_string())
        .collect();
    edges.sort();
    assert_eq!(
        edges,
        [
            "gocheckout -> orders x4",
            "java-checkout -> orders x4",
            "py-checkout -> inventory x1",
            "py-checkout -> orders x4",
            "py-shipping -> orders x4",
        ]
    );
}

/// The fixture's README works the edges out by hand: a multi-app run
/// file names each folder's program by its app id, which a `Resiliency`'s
/// `scopes` list.
#[test]
fn dapr_run_file_names_the_apps_a_resiliency_is_scoped_to() {
    let (_, g) = build("testdata/graph/dapr-run-app-ids");
    let mut edges: Vec<String> = edge_names(&g)
        .into_iter()
        .map(|e| e.split(" [").next().unwrap_or("").to_string())
        .collect();
    edges.sort();
    assert_eq!(edges, ["checkout -> orders x3", "notify -> orders x1"]);
}

/// Stop 51 (testdata/graph/dapr-run-app-names/README.md): a run file's app
/// id names the node of the program in its `appDirPath`, one named by its
/// `package.json` or by its Dockerfile's folder alike.
#[test]
fn dapr_run_file_app_ids_name_the_programs() {
    let (_, g) = build("testdata/graph/dapr-run-app-names");
    let edges: Vec<String> = edge_names(&g)
        .into_iter()
        .map(|e| e.split(" [").next().unwrap_or("").to_string())
        .collect();
    assert_eq!(edges, ["pythonapp -> nodeapp x1"]);
}

/// The fixture's README works the edges out by hand: an app id that two
/// run files give to two programs names neither.
#[test]
fn dapr_app_id_of_two_programs_names_neither() {
    let (_, g) = build("testdata/graph/dapr-run-variants");
    let edges: Vec<String> = edge_names(&g)
        .into_iter()
        .map(|e| e.split(" [").next().unwrap_or("").to_string())
        .collect();
    assert_eq!(edges, ["checkoutgo -> orders x1"]);
}
