//! The graph's services, protocols and mesh membership (issue 17, items
//! 2-4 and 6), on the hand-worked fixtures in testdata/graph/ (each
//! README works the numbers out).

use retrylint::config::{Mesh, Settings};
use retrylint::graph::{self, Graph, MeshEvidence};
use retrylint::model::System;
use retrylint::model::calls::Protocol;
use std::path::PathBuf;

fn build(path: &str, settings: &Settings) -> (retrylint::Scan, Graph) {
    let scan = retrylint::scan(&[PathBuf::from(path)], settings).unwrap();
    let g = graph::build(&scan.files, settings);
    (scan, g)
}

/// "from -> to xN protocol" per edge, sorted.
fn edges(g: &Graph) -> Vec<String> {
    let mut v: Vec<String> = g
        .edges
        .iter()
        .map(|e| {
            format!(
                "{} -> {} x{} {}",
                g.service_name(e.from),
                g.service_name(e.to),
                e.factor(),
                e.protocol.label()
            )
        })
        .collect();
    v.sort();
    v
}

fn findings(path: &str, settings: &Settings) -> Vec<String> {
    let run = retrylint::pipeline::Pipeline::new(settings)
        .run(&[PathBuf::from(path)])
        .unwrap();
    run.report
        .findings
        .iter()
        .map(|f| format!("{} {}", f.rule.code, f.message))
        .collect()
}

#[test]
fn sidecar_retries_apply_to_http_hops_not_to_redis_mongodb_or_tcp() {
    let (_, g) = build("testdata/graph/protocols", &Settings::default());
    assert_eq!(
        edges(&g),
        [
            "cart -> checkout x3 HTTP",
            "cart -> redis-cart x1 Redis",
            "checkout -> orders-db x1 MongoDB",
            "checkout -> session-cache x1 TCP",
            "web -> cart x3 HTTP",
        ]
    );
    // Every caller is in the mesh by its namespace's label, no assumption.
    assert!(g.edges.iter().all(|e| {
        e.mesh
            .as_ref()
            .is_some_and(|m| m.how == MeshEvidence::Namespace && m.mesh == System::Istio)
    }));
    let paths = g.worst_paths();
    assert_eq!(paths.len(), 1);
    assert_eq!(paths[0].attempts, 9);
    let rl403: Vec<String> = findings("testdata/graph/protocols", &Settings::default())
        .into_iter()
        .filter(|f| f.starts_with("RL403"))
        .collect();
    assert_eq!(rl403.len(), 1, "one finding for the one default: {rl403:?}");
    assert!(
        rl403[0].contains("2 calls (`cart -> checkout`, `web -> cart`)"),
        "{rl403:?}"
    );
    assert!(!rl403[0].contains("assumed"), "{rl403:?}");
}

#[test]
fn a_plain_variant_has_no_sidecar_and_the_assumption_is_named() {
    let (scan, g) = build("testdata/graph/variants", &Settings::default());
    assert_eq!(edges(&g), ["orders -> payments x3 HTTP"]);
    let e = &g.edges[0];
    let m = e.mesh.as_ref().unwrap();
    assert_eq!(m.how, MeshEvidence::Assumed);
    assert_eq!(
        m.variant.as_deref(),
        Some("testdata/graph/variants/k8s-istio/")
    );
    assert!(
        scan.files[m.loc.file]
            .source
            .display_path()
            .ends_with("k8s-istio/destination-rules.yaml")
    );
    assert!(
        scan.files[e.proof.file]
            .source
            .display_path()
            .contains("k8s-istio/")
    );
    // The same call in the plain variant carries no layer: it is kept as
    // another place of the edge, not the one that stands.
    assert_eq!(e.also.len(), 1);
    assert!(
        scan.files[e.also[0].file]
            .source
            .display_path()
            .contains("k8s-plain/")
    );
    let (_, plain) = build("testdata/graph/variants/k8s-plain", &Settings::default());
    assert_eq!(edges(&plain), ["orders -> payments x1 HTTP"]);
    let f = findings("testdata/graph/variants", &Settings::default());
    let rl403: Vec<&String> = f.iter().filter(|f| f.starts_with("RL403")).collect();
    assert_eq!(rl403.len(), 1, "{f:?}");
    assert!(
        rl403[0].contains("variant `testdata/graph/variants/k8s-istio/`"),
        "{rl403:?}"
    );
    assert!(rl403[0].contains("k8s-istio/destination-rules.yaml` declares Istio resources"));
    // The configuration settles it.
    let none = Settings {
        graph: retrylint::config::GraphSettings {
            mesh: Mesh::None,
            ..Default::default()
        },
        ..Default::default()
    };
    let (_, g) = build("testdata/graph/variants", &none);
    assert_eq!(edges(&g), ["orders -> payments x1 HTTP"]);
}

/// The edge `from -> to` and the file its mesh membership rests on, if any
/// (the path's last two parts).
fn assumed_from(scan: &retrylint::Scan, g: &Graph, from: &str, to: &str) -> Option<String> {
    let e = g
        .edges
        .iter()
        .find(|e| g.service_name(e.from) == from && g.service_name(e.to) == to)
        .unwrap_or_else(|| panic!("no edge {from} -> {to}"));
    e.mesh.as_ref().map(|m| {
        assert_eq!(m.how, MeshEvidence::Assumed, "{from} -> {to}");
        let p = scan.files[m.loc.file].source.display_path();
        let parts: Vec<&str> = p.rsplit('/').take(2).collect();
        format!("{}/{}", parts[1], parts[0])
    })
}

#[test]
fn an_assumed_mesh_stays_in_its_project_and_off_a_plain_variant() {
    let (scan, g) = build("testdata/graph/mesh-projects", &Settings::default());
    assert_eq!(
        edges(&g),
        [
            "client -> server x1 HTTP",
            "load -> web x3 HTTP",
            "loadgen -> orders x1 HTTP",
            "orders -> payments x3 HTTP",
            "web -> cart x3 HTTP",
        ]
    );
    // Another project's Istio file is no evidence for `error-rates/`.
    assert_eq!(assumed_from(&scan, &g, "client", "server"), None);
    // `travels/` is a plain variant of `travels-istio/`: its load generator,
    // declared there only, has no sidecar either.
    assert_eq!(assumed_from(&scan, &g, "loadgen", "orders"), None);
    let dr = |p: &str| Some(format!("{p}/destination-rules.yaml"));
    assert_eq!(
        assumed_from(&scan, &g, "orders", "payments"),
        dr("travels-istio")
    );
    // A canary in `shop/istio/` does not make `shop/helm/` a plain variant,
    // and `shop/` holds the meshed folder.
    assert_eq!(assumed_from(&scan, &g, "web", "cart"), dr("istio"));
    assert_eq!(assumed_from(&scan, &g, "load", "web"), dr("istio"));
    let mut worst: Vec<(String, u64)> = g
        .worst_paths()
        .iter()
        .map(|p| (g.service_name(p.entry).to_string(), p.attempts))
        .collect();
    worst.sort();
    // load: 3 x 3; loadgen: 1 x 3 (the pair's edges are one, the meshed
    // variant's standing); client: 1.
    assert_eq!(
        worst,
        [
            ("client".to_string(), 1),
            ("load".to_string(), 9),
            ("loadgen".to_string(), 3)
        ]
    );
}

#[test]
fn hosts_a_service_entry_registers_for_http_get_the_assumed_sidecars_layer() {
    let (scan, g) = build("testdata/graph/istio-service-entry", &Settings::default());
    assert_eq!(
        edges(&g),
        [
            "games -> api.scores.example x5 HTTP",
            "games -> api.weather.example x3 HTTP",
            "games -> news.unlisted.example x1 HTTP",
            "games -> zone.msn.com x3 HTTP",
        ]
    );
    assert!(g.services.iter().all(|s| !s.name.contains('*')));
    for to in ["zone.msn.com", "api.weather.example"] {
        assert_eq!(
            assumed_from(&scan, &g, "games", to).as_deref(),
            Some("istio-service-entry/egress.yaml")
        );
    }
    let worst = g.worst_paths();
    assert_eq!(worst.len(), 1);
    assert_eq!(worst[0].attempts, 5);
}

#[test]
fn a_data_stores_url_in_java_code_is_a_call_with_the_stores_protocol() {
    let (_, g) = build("testdata/graph/java-store-url", &Settings::default());
    assert_eq!(
        edges(&g),
        [
            "recommendation -> cache x1 Redis",
            "recommendation -> postgres x1 SQL",
        ]
    );
    assert!(g.edges.iter().all(|e| {
        e.mesh
            .as_ref()
            .is_some_and(|m| m.how == MeshEvidence::Workload && e.layers.is_empty())
    }));
}

#[test]
fn urls_on_a_containers_command_line_are_calls_toward_declared_services() {
    let (_, g) = build("testdata/graph/container-args", &Settings::default());
    assert_eq!(
        edges(&g),
        [
            "comparer -> orders-v1 x1 HTTP",
            "comparer -> orders-v2 x1 HTTP",
        ]
    );
    let names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["comparer", "orders-v1", "orders-v2"]);
}

#[test]
fn a_route_applies_to_the_host_it_names_not_to_another_service_of_the_same_pods() {
    let (_, g) = build("testdata/graph/service-alias-route", &Settings::default());
    assert_eq!(
        edges(&g),
        ["comparer -> orders x3 HTTP", "web -> orders x5 HTTP"]
    );
}

#[test]
fn a_linkerd_pair_takes_the_callees_service_profile_and_joins_the_service_by_selector() {
    let (_, g) = build("testdata/graph/linkerd-pair", &Settings::default());
    let names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["web-svc", "emoji"],
        "emoji-svc is the workload emoji"
    );
    assert_eq!(edges(&g), ["web-svc -> emoji x1 gRPC"]);
    let e = &g.edges[0];
    assert_eq!(e.mesh.as_ref().unwrap().mesh, System::Linkerd);
    assert_eq!(e.mesh.as_ref().unwrap().how, MeshEvidence::Namespace);
    assert_eq!(e.layers.len(), 1);
    assert_eq!(e.layers[0].system, System::Linkerd);
    assert!(e.layers[0].label.contains("emoji-svc"), "{:?}", e.layers[0]);
}

#[test]
fn an_istio_class_httproute_gets_istios_default() {
    let (_, g) = build("testdata/graph/istio-httproute", &Settings::default());
    assert_eq!(edges(&g), ["public-gateway -> frontend x3 unknown"]);
    let e = &g.edges[0];
    assert_eq!(e.mesh.as_ref().unwrap().how, MeshEvidence::Workload);
    assert!(e.layers[0].implicit);
}

#[test]
fn bookinfo_timeout_inversion_fires_rl303_and_rl402() {
    let (_, g) = build("testdata/graph/bookinfo", &Settings::default());
    assert_eq!(
        edges(&g),
        [
            "productpage -> details x1 HTTP",
            "productpage -> reviews x3 HTTP",
            "reviews -> ratings x2 HTTP",
        ]
    );
    let paths = g.worst_paths();
    assert_eq!(paths.len(), 1);
    assert_eq!(paths[0].attempts, 6);
    let times = g.worst_time();
    let reviews = g.services.iter().position(|s| s.name == "reviews").unwrap();
    assert_eq!(times[reviews], Some(std::time::Duration::from_secs(10)));
    let f = findings("testdata/graph/bookinfo", &Settings::default());
    assert!(
        f.iter().any(|f| f.starts_with("RL303")
            && f.contains("`productpage` gives `reviews` up to `1.5s`")
            && f.contains("`10s`")),
        "{f:?}"
    );
    assert!(f.iter().any(|f| f.starts_with("RL402")), "{f:?}");
}

#[test]
fn protocols_from_targets_and_port_names() {
    assert_eq!(
        Protocol::of_target("mongodb://db:27017/x"),
        Some(Protocol::Mongo)
    );
    assert_eq!(
        Protocol::of_target("redis-cart:6379"),
        Some(Protocol::Redis)
    );
    assert_eq!(
        Protocol::of_target("jdbc:mysql://db/x"),
        Some(Protocol::Sql)
    );
    assert_eq!(
        Protocol::of_target("http://orders:8080"),
        Some(Protocol::Http)
    );
    assert_eq!(Protocol::of_target("orders:8080"), None);
    assert_eq!(Protocol::of_name("tcp-redis"), Some(Protocol::Tcp));
    assert_eq!(Protocol::of_name("grpc-web"), Some(Protocol::Grpc));
    assert_eq!(Protocol::of_name("kubernetes.io/h2c"), Some(Protocol::Http));
}

#[test]
fn a_kustomize_patch_and_compose_services_running_a_workloads_image_add_no_service() {
    let (_, g) = build("testdata/graph/patch-and-compose", &Settings::default());
    let mut names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["emoji-svc", "web-svc"]);
    assert_eq!(edges(&g), ["web-svc -> emoji-svc x1 unknown"]);
    assert_eq!(g.edges[0].also.len(), 1);
}

#[test]
fn a_gateway_class_of_another_name_with_istios_controller_gets_istios_default() {
    let (_, g) = build(
        "testdata/graph/gatewayclass-controller",
        &Settings::default(),
    );
    assert_eq!(
        edges(&g),
        [
            "partner-gateway -> partners x1 unknown",
            "public-gateway -> frontend x3 unknown",
        ]
    );
    let e = g
        .edges
        .iter()
        .find(|e| g.service_name(e.from) == "public-gateway")
        .unwrap();
    assert_eq!(e.mesh.as_ref().unwrap().how, MeshEvidence::Workload);
    assert!(e.layers[0].implicit);
}

/// Istio ambient mode: no sidecar on the caller; the callee's waypoint
/// applies the VirtualService (or Istio's default); a Service that opts
/// out of the waypoint gets no layer; nothing is assumed.
#[test]
fn ambient_callers_are_retried_only_at_the_callees_waypoint() {
    let (_, g) = build("testdata/graph/ambient-waypoint", &Settings::default());
    let mut got: Vec<(String, u64, usize)> = g
        .edges
        .iter()
        .map(|e| (g.services[e.to].name.clone(), e.factor(), e.layers.len()))
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            ("orders".to_string(), 5, 1),
            ("payments".to_string(), 1, 0),
            ("reviews".to_string(), 3, 1)
        ]
    );
    for e in &g.edges {
        let m = e.mesh.as_ref().expect("a member");
        assert_eq!(m.how, MeshEvidence::Ambient);
        for l in &e.layers {
            assert!(
                l.setting.contains("through the waypoint `waypoint`"),
                "{}",
                l.setting
            );
        }
    }
}

/// Which waypoint (`istio.io/use-waypoint-namespace`) and whose (the
/// Gateway's class): Istio's own applies its default, another
/// implementation's counts no retry and says so, one not in the scan is
/// taken as Istio's and says so.
#[test]
fn a_waypoint_is_found_in_its_namespace_and_judged_by_its_class() {
    let (s, g) = build(
        "testdata/graph/ambient-waypoint-classes",
        &Settings::default(),
    );
    let mut got: Vec<(String, u64)> = g
        .edges
        .iter()
        .map(|e| (g.services[e.to].name.clone(), e.factor()))
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            ("details".to_string(), 1),
            ("orders".to_string(), 3),
            ("ratings".to_string(), 3),
            ("reviews".to_string(), 1)
        ]
    );
    let layer = |to: &str| {
        let e = g
            .edges
            .iter()
            .find(|e| g.services[e.to].name == to)
            .unwrap();
        assert_eq!(e.mesh.as_ref().map(|m| m.how), Some(MeshEvidence::Ambient));
        e.layers
            .first()
            .map(|l| (l.label.clone(), l.setting.clone()))
    };
    let (label, setting) = layer("orders").unwrap();
    assert!(label.contains("(waypoint `mesh/mesh-waypoint`)"), "{label}");
    assert!(!setting.contains("not in the scan"), "{setting}");
    let (_, setting) = layer("ratings").unwrap();
    assert!(
        setting.contains("its Gateway is not in the scan: taken as Istio's own waypoint"),
        "{setting}"
    );
    assert!(layer("reviews").is_none());
    assert!(layer("details").is_none());
    let notes: Vec<String> = g
        .notes
        .iter()
        .map(|n| {
            let f = &s.files[n.loc.file];
            let line = f.source.text[..n.loc.span.start].matches('\n').count() + 1;
            format!(
                "{}:{line} {}",
                f.source.path.file_name().unwrap().to_string_lossy(),
                n.message
            )
        })
        .collect();
    assert_eq!(notes.len(), 2, "{notes:#?}");
    assert!(
        notes[0].starts_with("waypoints.yaml:34 the waypoint `kgw` of `reviews` is a Gateway of class `kgateway-waypoint`"),
        "{notes:#?}"
    );
    assert!(
        // The namespace's waypoint: every workload and Service of it.
        notes[1].starts_with("waypoints.yaml:46 the waypoint `agw` of `details`, `frontend` is a Gateway of class `istio-agentgateway-waypoint`"),
        "{notes:#?}"
    );
}

/// A Kustomize overlay's `commonLabels` change a Service's selector and
/// the pods it picks together (the join holds), and its `labels` with
/// `includeTemplates` put Istio's injection label on the pods
/// (testdata/graph/overlay-labels/README.md).
#[test]
fn an_overlays_labels_keep_the_selector_join_and_inject_the_sidecar() {
    let (scan, g) = build("testdata/graph/overlay-labels", &Settings::default());
    assert_eq!(edges(&g), ["web -> orders x3 HTTP"]);
    let m = g.edges[0].mesh.as_ref().unwrap();
    assert_eq!(
        (m.mesh.clone(), m.how),
        (System::Istio, MeshEvidence::Workload)
    );
    // The label is the overlay's: the membership names the workload it
    // labels.
    let f = &scan.files[m.loc.file];
    assert!(f.source.display_path().ends_with("base/app.yaml"));
    assert_eq!(f.source.line_col(m.loc.span.start).line, 4);
}

/// Stop 48 (testdata/graph/mesh-default-scope/README.md): a mesh-wide
/// default applies to its own project's calls; a fixture folder's to none.
#[test]
fn a_mesh_wide_default_applies_to_its_own_project_only() {
    let (_, g) = build("testdata/graph/mesh-default-scope", &Settings::default());
    assert_eq!(
        edges(&g),
        [
            "echo-a -> echo-b x1 HTTP",
            "frontend -> orders x5 HTTP",
            "orders -> payments x5 HTTP",
            "productpage -> reviews x3 HTTP",
        ]
    );
    let files: Vec<String> = g
        .edges
        .iter()
        .flat_map(|e| e.layers.iter())
        .filter(|l| l.label.contains("mesh default"))
        .map(|l| l.label.clone() + " " + &l.setting)
        .collect();
    assert!(
        files.iter().all(|s| !s.contains("before 1.24")),
        "{files:?}"
    );
    // The chain's finding is at its first call, the default related.
    let run = retrylint::pipeline::Pipeline::new(&Settings::default())
        .run(&[PathBuf::from("testdata/graph/mesh-default-scope")])
        .unwrap();
    let rl401: Vec<_> = run
        .report
        .findings
        .iter()
        .filter(|f| f.rule.code == "RL401")
        .collect();
    assert_eq!(rl401.len(), 1, "{:?}", run.report.findings);
    let at = run.scan.files[rl401[0].file].source.display_path();
    assert!(at.ends_with("shop/k8s/app.yaml"), "{at}");
    assert!(
        rl401[0].message.contains("`25` attempts"),
        "{}",
        rl401[0].message
    );
    assert!(
        rl401[0].related.iter().any(|r| run.scan.files[r.file]
            .source
            .display_path()
            .ends_with("shop/istio/mesh.yaml")),
        "{:?}",
        rl401[0].related
    );
}

/// Stop 48 (testdata/graph/fixture-routes/README.md): a route, a
/// DestinationRule, an IngressClass or a Kong Service in a fixture folder
/// attaches to no deployed call.
#[test]
fn fixture_folder_routes_and_limits_attach_to_no_deployed_call() {
    let (_, g) = build("testdata/graph/fixture-routes", &Settings::default());
    assert_eq!(
        edges(&g),
        [
            "frontend -> orders x3 HTTP",
            "frontend -> payments x2 HTTP",
            "kong -> orders x6 HTTP",
            "kong -> payments x2 HTTP",
        ]
    );
    let f = findings("testdata/graph/fixture-routes", &Settings::default());
    assert!(
        f.iter()
            .any(|f| f.starts_with("RL603") && f.contains("payments")),
        "{f:?}"
    );
    // The fixtures' own settings are still checked.
    assert!(
        f.iter()
            .any(|f| f.starts_with("RL206") && f.contains("orders")),
        "{f:?}"
    );
}

#[test]
fn a_camel_routes_http_endpoints_are_calls_and_its_other_endpoints_are_not() {
    let (_, g) = build("testdata/graph/camel-http", &Settings::default());
    assert_eq!(
        edges(&g),
        [
            "customer -> audit x3 HTTP",
            "customer -> preference x3 HTTP",
        ]
    );
    assert_eq!(g.worst_paths()[0].attempts, 3);
}
