//! YARP (dotnet/yarp) on the graph (issue 19): cluster destinations in
//! appsettings, in JSON files of their own and built in code, direct
//! forwards, route timeouts, and an Aspire gateway's routes.

use crate::common;

use common::graph::{build, edges_via as edges};

/// YARP (dotnet/yarp): each destination of a cluster, in appsettings or
/// built in code, and each direct forward (`MapForwarder`,
/// `IHttpForwarder.SendAsync`) is a call of the proxy program, forwarded
/// once, with its activity timeout as the time it waits (100 s, YARP's
/// `HttpForwarder.DefaultTimeout`, where none is set), and no handler of
/// the HTTP client factory (YARP makes its own `HttpMessageInvoker`).
#[test]
fn yarp_destinations_are_calls_of_the_proxy() {
    let (_, g) = build("testdata/graph/csharp-yarp");
    let got: Vec<String> = g
        .edges
        .iter()
        .filter(|e| e.via.starts_with("YARP"))
        .map(|e| {
            format!(
                "{} -> {} x{} {:?} {}",
                g.service_name(e.from),
                g.service_name(e.to),
                e.factor(),
                e.layers.iter().map(|l| l.overall).collect::<Vec<_>>(),
                e.via
            )
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let s = |n: u64| format!("[Some({n}s)]");
    assert_eq!(
        got,
        [
            format!(
                "Shop_Edge -> audit x1 {} YARP IHttpForwarder.SendAsync in C#",
                s(100)
            ),
            format!(
                "Shop_Edge -> billing x1 {} YARP cluster `billing` in C#",
                s(20)
            ),
            format!(
                "Shop_Gateway -> catalog-api x1 {} YARP cluster `catalog` in appsettings",
                s(100)
            ),
            format!(
                "Shop_Gateway -> catalog-api-canary x1 {} YARP cluster `catalog` in appsettings",
                s(100)
            ),
            format!(
                "Shop_Gateway -> legacy-site x1 {} YARP MapForwarder in C#",
                s(5)
            ),
            format!(
                "Shop_Gateway -> orders x1 {} YARP cluster `orders` in appsettings",
                s(30)
            ),
        ]
    );
}

/// A YARP route's `Timeout` (a request timeout that cancels the forward)
/// bounds the wait for its cluster where it is shorter than the activity
/// timeout and every route to the cluster sets one; a `TimeoutPolicy` or
/// a route without one leaves the activity timeout. A destination on this
/// machine (`https://localhost:60220/`, ElectNewt/Distribt's gateways) is
/// no service, nor a target left unresolved.
#[test]
fn yarp_route_timeouts_bound_their_clusters() {
    let (scan, g) = build("testdata/graph/csharp-yarp-route-timeouts");
    let unresolved: Vec<&str> = scan
        .files
        .iter()
        .flat_map(|f| &f.facts.unresolved)
        .map(|u| u.written.as_str())
        .collect();
    assert!(unresolved.is_empty(), "{unresolved:?}");
    let got: std::collections::BTreeSet<String> = g
        .edges
        .iter()
        .filter(|e| e.via.starts_with("YARP"))
        .map(|e| {
            let t = e.layers.iter().map(|l| l.overall).collect::<Vec<_>>();
            format!("{} {t:?}", g.service_name(e.to))
        })
        .collect();
    let want: std::collections::BTreeSet<String> = [
        ("export", 30),
        ("orders", 100),
        ("reports", 100),
        ("search", 5),
    ]
    .iter()
    .map(|(s, n)| format!("{s} [Some({n}s)]"))
    .collect();
    assert_eq!(got, want);
}

/// Aspire's `AddYarp("gateway").WithConfiguration(yarp => yarp.AddRoute(..))`:
/// each route is a call of the gateway through YARP (one attempt, 100 s),
/// to a resource, a cluster made of one, or its endpoint.
#[test]
fn aspire_yarp_routes_are_calls_of_the_gateway() {
    let (_, g) = build("testdata/graph/csharp-aspire-yarp");
    let got: Vec<String> = g
        .edges
        .iter()
        .filter(|e| e.via.starts_with("YARP"))
        .map(|e| {
            let t = e.layers.iter().map(|l| l.overall).collect::<Vec<_>>();
            format!(
                "{} -> {} x{} {t:?}",
                g.service_name(e.from),
                g.service_name(e.to),
                e.factor()
            )
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(
        got,
        [
            "gateway -> basket x1 [Some(100s)]",
            "gateway -> catalog x1 [Some(100s)]",
            "gateway -> search x1 [Some(100s)]",
        ]
    );
}

/// YARP clusters built by a helper from its parameters
/// (`Cluster("catalog", "http://catalog-api")`): one cluster per call of
/// the helper, with the call's arguments (named or positional).
#[test]
fn yarp_clusters_built_by_a_helper() {
    let (_, g) = build("testdata/graph/csharp-yarp-helper");
    assert_eq!(
        edges(&g, "YARP"),
        [
            "Shop_Proxy -> catalog-api x1 YARP cluster `catalog` in C#",
            "Shop_Proxy -> orders-api x1 YARP cluster `orders` in C#",
        ]
    );
}

/// YARP's clusters in a JSON file the program adds to its configuration
/// itself (`AddJsonFile("proxy.json")`), known by the section's shape as
/// in appsettings and read as .NET reads it (comments, trailing commas);
/// this machine is no destination.
#[test]
fn yarp_clusters_in_a_json_file_of_their_own() {
    let (_, g) = build("testdata/graph/csharp-yarp-json-file");
    assert_eq!(
        edges(&g, "YARP"),
        [
            "Shop_Gateway -> orders-api x1 YARP cluster `orders` in `proxy.json`",
            "Shop_Gateway -> stock-api x1 YARP cluster `stock` in `proxy.json`",
        ]
    );
}

/// A route's `TimeoutPolicy` takes the named request timeout policy the
/// program's code adds, where it is shorter than the activity timeout
/// (the fixture's README works it out).
#[test]
fn yarp_route_timeout_policies_come_from_the_programs_code() {
    let (_, g) = build("testdata/graph/csharp-yarp-timeout-policy");
    let got: std::collections::BTreeSet<String> = g
        .edges
        .iter()
        .filter(|e| e.via.starts_with("YARP"))
        .map(|e| {
            let t = e.layers.iter().map(|l| l.overall).collect::<Vec<_>>();
            format!("{} {t:?}", g.service_name(e.to))
        })
        .collect();
    let want: std::collections::BTreeSet<String> = [
        ("admin", 100),
        ("basket", 100),
        ("catalog", 3),
        ("reports", 100),
    ]
    .iter()
    .map(|(s, n)| format!("{s} [Some({n}s)]"))
    .collect();
    assert_eq!(got, want);
}
