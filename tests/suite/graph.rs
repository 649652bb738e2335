//! The call-path graph: identities, edges, layers, worst paths, cycles, and
//! what it cannot place.

use crate::common;

use retrylint::config::{EdgeConfig, Mesh, ServiceConfig, Settings};
use retrylint::graph::{self, Graph};
use std::path::PathBuf;

fn build(path: &str, settings: &Settings) -> (retrylint::Scan, Graph) {
    let scan = retrylint::scan(&[PathBuf::from(path)], settings).unwrap();
    let g = graph::build(&scan.files, settings);
    (scan, g)
}

fn edge_names(g: &Graph) -> Vec<String> {
    let mut v: Vec<String> = g
        .edges
        .iter()
        .map(|e| {
            format!(
                "{} -> {} x{}",
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
fn four_layers_of_three_attempts_make_81() {
    let (_, g) = build(
        "testdata/rules/RL401/err/kubernetes-four-layer-chain",
        &Settings::default(),
    );
    assert_eq!(
        edge_names(&g),
        [
            "gateway -> orders x3",
            "orders -> payments x3",
            "payments -> database x3",
            "web -> gateway x3"
        ]
    );
    let paths = g.worst_paths();
    assert_eq!(paths.len(), 1);
    assert_eq!(g.service_name(paths[0].entry), "web");
    assert_eq!(paths[0].attempts, 81);
    assert_eq!(paths[0].edges.len(), 4);
    assert!(g.arithmetic(&paths[0]).ends_with("= `81`"));
}

#[test]
fn the_fixed_variant_multiplies_nothing() {
    let (_, g) = build(
        "testdata/rules/RL401/ok/kubernetes-one-layer-retries",
        &Settings::default(),
    );
    let paths = g.worst_paths();
    assert_eq!(paths[0].attempts, 3);
}

#[test]
fn a_cycle_is_found_once_and_does_not_loop_the_analysis() {
    let settings = Settings::default();
    let (scan, g) = build("testdata/graph/cycle", &settings);
    assert_eq!(g.cycles.len(), 1, "{:?}", g.cycles);
    let mut names: Vec<&str> = g.cycles[0].iter().map(|&s| g.service_name(s)).collect();
    names.sort();
    assert_eq!(names, ["inventory", "orders"]);
    // Paths still end: web -> orders -> inventory (the back edge is not followed).
    let paths = g.worst_paths();
    assert_eq!(paths.len(), 1);
    assert_eq!(g.service_name(paths[0].entry), "web");
    assert_eq!(paths[0].attempts, 2 * 3);
    // The retrying cycle is reported once, by RL401.
    let findings = retrylint::pipeline::Pipeline::new(&Settings {
        select: vec!["RL401".into()],
        ..settings
    })
    .after_scan(scan, |_| true)
    .report
    .findings;
    let cycles: Vec<_> = findings
        .iter()
        .filter(|f| f.message.contains("call cycle"))
        .collect();
    assert_eq!(cycles.len(), 1, "{findings:#?}");
    assert!(
        cycles[0]
            .message
            .contains("`inventory -> orders -> inventory`")
            || cycles[0]
                .message
                .contains("`orders -> inventory -> orders`")
    );
}

#[test]
fn a_call_with_no_known_caller_is_noted_not_guessed() {
    let (_, g) = build("testdata/graph/no-identity", &Settings::default());
    // The compose service names the caller: worker -> api.stripe.com.
    assert_eq!(edge_names(&g), ["worker -> api.stripe.com x1"]);
    // The callee is shown by no file: it has no identity source.
    let stripe = g
        .services
        .iter()
        .find(|s| s.name == "api.stripe.com")
        .unwrap();
    assert!(stripe.sources.is_empty());
}

#[test]
fn config_services_edges_and_mesh_are_honoured() {
    let settings = Settings {
        graph: retrylint::config::GraphSettings {
            mesh: Mesh::None,
            services: vec![ServiceConfig {
                name: "checkout".into(),
                paths: vec!["**/graph/cycle/entry.yaml".into()],
                aliases: vec!["orders".into()],
            }],
            edges: vec![EdgeConfig {
                from: "mobile".into(),
                to: "web".into(),
                via: Some("app".into()),
            }],
            entry_points: vec![],
        },
        ..Settings::default()
    };
    let (_, g) = build("testdata/graph/cycle", &settings);
    // `orders` is an alias of `checkout`; no sidecar layers with mesh = none.
    assert!(g.services.iter().any(|s| s.name == "checkout"));
    assert!(!g.services.iter().any(|s| s.name == "orders"));
    assert!(g.edges.iter().all(|e| e.layers.iter().all(|l| !l.implicit)));
    assert!(
        edge_names(&g)
            .iter()
            .any(|e| e.starts_with("mobile -> web"))
    );
}

#[test]
fn long_chains_do_not_overflow_and_stay_linear() {
    // 20,000 services in a chain and a fan: solved with explicit stacks.
    let mut text = String::new();
    let n = 20_000;
    for i in 0..n {
        text.push_str(&format!(
            "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: s{i}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        env:\n        - name: NEXT_URL\n          value: http://s{}:80\n",
            i + 1
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("chain.yaml"), text).unwrap();
    // Every call goes through the mesh: each hop retries 3 times.
    let settings = Settings {
        graph: retrylint::config::GraphSettings {
            mesh: Mesh::Istio,
            ..Default::default()
        },
        ..Settings::default()
    };
    let scan = retrylint::scan(&[dir.path().to_path_buf()], &settings).unwrap();
    let g = graph::build(&scan.files, &settings);
    assert_eq!(g.edges.len(), n);
    let paths = g.worst_paths();
    assert_eq!(paths.len(), 1);
    assert_eq!(paths[0].edges.len(), n);
    // 3^20000 saturates instead of overflowing.
    assert_eq!(paths[0].attempts, u64::MAX);
    assert_eq!(g.worst_time().len(), g.services.len());
}

#[test]
fn timeouts_nest_recursively() {
    let (_, g) = build(
        "testdata/rules/RL303/err/kubernetes-callee-outlasts-caller",
        &Settings::default(),
    );
    let worst = g.worst_time();
    let orders = g.services.iter().position(|s| s.name == "orders").unwrap();
    // orders -> payments: 4 attempts x 2s + 25 + 50 + 100 ms of back-off.
    assert_eq!(worst[orders], Some(std::time::Duration::from_millis(8175)));
}

/// A Spring Cloud service's `Retryer` bean is the retryer of each of its
/// `@FeignClient` calls, unless its configuration names one for the client.
#[test]
fn a_retryer_bean_is_every_feign_clients_retryer() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let java = d.join("orders/src/main/java/com/example");
    let res = d.join("orders/src/main/resources");
    std::fs::create_dir_all(&java).unwrap();
    std::fs::create_dir_all(&res).unwrap();
    std::fs::write(
        java.join("FeignConfig.java"),
        "package com.example;\nimport feign.Retryer;\nimport org.springframework.context.annotation.Bean;\nclass FeignConfig {\n  @Bean Retryer feignRetryer() { return new Retryer.Default(100, 1000, 4); }\n}\n",
    )
    .unwrap();
    std::fs::write(
        java.join("Clients.java"),
        "package com.example;\nimport org.springframework.cloud.openfeign.FeignClient;\n@FeignClient(name = \"payments\") interface Payments {}\n@FeignClient(name = \"ledger\") interface Ledger {}\n",
    )
    .unwrap();
    std::fs::write(
        res.join("application.yml"),
        "spring:\n  application:\n    name: orders\n  cloud:\n    openfeign:\n      client:\n        config:\n          ledger:\n            retryer: feign.Retryer.Default\n",
    )
    .unwrap();
    let settings = Settings::default();
    let scan = retrylint::scan(&[d.to_path_buf()], &settings).unwrap();
    let g = graph::build(&scan.files, &settings);
    // The bean's 4 attempts to payments; ledger's own client config (5).
    assert_eq!(
        edge_names(&g),
        ["orders -> ledger x5", "orders -> payments x4"]
    );
}

/// Issue 17 (tikv's `components/cloud/aws`): a crate named `aws` that
/// builds an SDK client is the AWS node itself; its call to AWS is no
/// `aws -> aws` edge, so no retrying cycle.
#[test]
fn a_crate_named_as_the_aws_node_does_not_call_itself() {
    let settings = Settings::default();
    let (scan, g) = build("testdata/graph/crate-named-aws", &settings);
    assert!(
        g.edges.iter().all(|e| e.from != e.to),
        "{:?}",
        edge_names(&g)
    );
    assert!(g.cycles.is_empty(), "{:?}", g.cycles);
    let findings = retrylint::pipeline::Pipeline::new(&settings)
        .after_scan(scan, |_| true)
        .report
        .findings;
    assert!(
        findings.iter().all(|f| !f.message.contains("call cycle")),
        "{findings:#?}"
    );
    // The SDK's implicit retries are still reported, at the client.
    assert!(
        findings.iter().any(|f| f.rule.code == "RL403"),
        "{findings:#?}"
    );
}

/// A Python program is named by its manifest (`pyproject.toml`'s project
/// name with a Dockerfile beside it, `setup.py` installing a command), not
/// by its folder (testdata/graph/python-units/README.md).
#[test]
fn python_programs_are_named_by_their_manifests() {
    let (_, g) = build("testdata/graph/python-units", &Settings::default());
    assert_eq!(
        edge_names(&g),
        ["orders-api -> payments x3", "payments -> ledger x1"]
    );
}

/// A Go module's `main` packages under `cmd/` are its programs, named by
/// their folders; the rest of the module is the module's
/// (testdata/graph/go-units/README.md).
#[test]
fn go_main_packages_under_cmd_are_programs() {
    let (_, g) = build("testdata/graph/go-units", &Settings::default());
    assert_eq!(
        edge_names(&g),
        [
            "orders -> payments x3",
            "payments -> ledger x1",
            "shop -> inventory x1"
        ]
    );
}

/// Two overlays deploying one base to two namespaces deploy two services
/// of each name; a bare name reaches the one in the caller's namespace,
/// `name.ns.svc.cluster.local` the one it names
/// (testdata/graph/overlay-namespaces/README.md).
#[test]
fn an_overlays_namespace_makes_a_service_of_its_own() {
    let (_, g) = build("testdata/graph/overlay-namespaces", &Settings::default());
    let mut names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "orders.team-a",
            "orders.team-b",
            "reporting",
            "web.team-a",
            "web.team-b"
        ]
    );
    assert_eq!(
        edge_names(&g),
        [
            "reporting -> orders.team-b x1",
            "web.team-a -> orders.team-a x1",
            "web.team-b -> orders.team-b x1"
        ]
    );
}

/// An overlay patch that writes a Deployment's name still deploys the
/// base's Deployment in the overlay's namespace, and a caller declared
/// in one namespace reaches a split name's service in its own
/// (testdata/graph/overlay-patched-name/README.md).
#[test]
fn a_patch_writing_the_name_keeps_the_overlays_namespace() {
    let (_, g) = build("testdata/graph/overlay-patched-name", &Settings::default());
    let mut names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "audit",
            "orders.team-a",
            "orders.team-b",
            "web.team-a",
            "web.team-b"
        ]
    );
    assert_eq!(
        edge_names(&g),
        [
            "audit -> orders.team-a x1",
            "web.team-a -> orders.team-a x1",
            "web.team-b -> orders.team-b x1"
        ]
    );
}

/// A call whose target is an environment variable the code reads
/// (`env X`: Python `os.environ["X"]`, `os.getenv("X", default)`, a
/// same-file `must_map_env("X")` helper; Go `os.Getenv("X") + ":" + ..`)
/// is an edge to what the calling service's compose environment sets X
/// to, with the retries around the call
/// (testdata/graph/env-targets/README.md).
#[test]
fn env_targets_join_the_callers_environment() {
    let (scan, g) = build("testdata/graph/env-targets", &Settings::default());
    let names = edge_names(&g);
    for want in [
        "orders -> live x3",
        "recommendation -> agent x1",
        "recommendation -> cart x4",
        "recommendation -> product-catalog x1",
    ] {
        assert!(names.iter().any(|n| n == want), "{want}: {names:#?}");
    }
    // The code's own edges (the compose file alone draws each pair once).
    let mut from_code: Vec<String> = scan
        .files
        .iter()
        .filter(|f| {
            f.source
                .path
                .extension()
                .is_some_and(|e| e == "py" || e == "go")
        })
        .flat_map(|f| {
            f.facts
                .edges
                .iter()
                .map(|e| format!("{} {}", e.callee, e.via))
        })
        .collect();
    from_code.sort();
    assert_eq!(from_code.len(), 4, "{from_code:#?}");
    for (callee, var) in [
        ("agent", "AGENT_HOST"),
        ("cart", "CART_URL"),
        ("live", "LIVE_SERVICE_HOST"),
        ("product-catalog", "PRODUCT_CATALOG_ADDR"),
    ] {
        assert!(
            from_code
                .iter()
                .any(|e| e.starts_with(&format!("{callee} env `{var}` of `"))),
            "{callee}: {from_code:#?}"
        );
    }
    let unresolved = common::graph::unresolved(&scan);
    assert_eq!(unresolved, ["env ASSISTANT_HOST"], "{names:#?}");
}

/// One Go module building several programs, each run by its own compose
/// service: an `env X` target in a package is each service's whose
/// program imports that package, with the value that service is given
/// (testdata/graph/go-module-programs/README.md; NeptuneG/go-back).
#[test]
fn go_env_targets_are_each_programs_that_imports_the_package() {
    let (scan, g) = build("testdata/graph/go-module-programs", &Settings::default());
    let names = edge_names(&g);
    assert!(
        names
            .iter()
            .any(|n| n == "payment-service -> live-service x3"),
        "{names:#?}"
    );
    let mut from_code: Vec<String> = scan
        .files
        .iter()
        .filter(|f| f.source.path.extension().is_some_and(|e| e == "go"))
        .flat_map(|f| {
            f.facts
                .edges
                .iter()
                .map(|e| format!("{:?} -> {}", e.caller, e.callee))
        })
        .collect();
    from_code.sort();
    assert_eq!(
        from_code,
        [
            "Some(\"gateway-service\") -> payment-service",
            "Some(\"payment-service\") -> live-service"
        ]
    );
    // The live program reads no PAYMENT_SERVICE_HOST, though the shared
    // `.env` hands it over (go-back: a call cycle live -> payment -> live).
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("live-service -> payment-service")),
        "{names:#?}"
    );
    // The gateway imports the payment package for its client only.
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("gateway-service -> live-service x3")),
        "{names:#?}"
    );
    assert!(scan.files.iter().all(|f| f.facts.unresolved.is_empty()));
    // The compose file's own edges through the shared `.env` are kept
    // where the program's code names the variable, and say where (they
    // said "read assumed, no code" though the code was read).
    let vias: Vec<&str> = g
        .edges
        .iter()
        .filter(|e| g.service_name(e.from) == "gateway-service")
        .map(|e| e.via.as_str())
        .collect();
    assert!(
        vias.iter().any(|v| v.contains("env `PAYMENT_SERVICE_HOST`")
            && v.ends_with("named by its program's code (`internal/payment/client.go`)")),
        "{vias:#?}"
    );
    assert!(
        g.edges.iter().all(|e| !e.via.contains("read assumed")),
        "{vias:#?}"
    );
}

/// Go struct fields filled from the environment by a helper of the file
/// (`mustMapEnv(&svc.addr, "X")`), dialed through another helper's
/// parameter, joined into a URL in a method, and given to a sarama
/// producer (testdata/graph/go-struct-field-env/README.md;
/// open-telemetry/opentelemetry-demo's checkout).
#[test]
fn go_struct_fields_from_the_environment_are_env_targets() {
    let (scan, g) = build("testdata/graph/go-struct-field-env", &Settings::default());
    let names = edge_names(&g);
    for want in [
        "checkout -> payment x3",
        "checkout -> shipping x1",
        "checkout -> kafka x4",
    ] {
        assert!(names.iter().any(|n| n == want), "{want}: {names:#?}");
    }
    let mut from_code: Vec<String> = scan
        .files
        .iter()
        .filter(|f| f.source.path.extension().is_some_and(|e| e == "go"))
        .flat_map(|f| {
            f.facts
                .edges
                .iter()
                .map(|e| format!("{} {:?} {}", e.callee, e.protocol, e.via))
        })
        .collect();
    from_code.sort();
    assert_eq!(from_code.len(), 3, "{from_code:#?}");
    for (callee, var) in [
        ("kafka", "KAFKA_ADDR"),
        ("payment", "PAYMENT_ADDR"),
        ("shipping", "SHIPPING_ADDR"),
    ] {
        assert!(
            from_code
                .iter()
                .any(|e| e.starts_with(callee) && e.contains(&format!("env `{var}` of `"))),
            "{callee}: {from_code:#?}"
        );
    }
    assert!(
        from_code.iter().any(|e| e.starts_with("kafka Some(Kafka)")),
        "{from_code:#?}"
    );
    let unresolved = common::graph::unresolved(&scan);
    assert!(unresolved.is_empty(), "{unresolved:?}");
}

/// The Maven Wrapper's downloader (`.mvn/wrapper/MavenWrapperDownloader.java`)
/// runs in the build, not in the service: its download URL is no call.
#[test]
fn the_maven_wrappers_downloader_is_no_caller() {
    let settings = Settings::default();
    let scan =
        retrylint::scan(&[PathBuf::from("testdata/graph/maven-wrapper")], &settings).unwrap();
    let g = graph::build(&scan.files, &settings);
    let edges: Vec<String> = g
        .edges
        .iter()
        .map(|e| format!("{} -> {}", g.service_name(e.from), g.service_name(e.to)))
        .collect();
    assert_eq!(edges, ["bonus -> order"]);
}

/// A dial's target read from a config struct that another package of the
/// Go module fills from the environment (`Config{F: os.Getenv("X")}`, a
/// struct tag `env:"X"`) is `env X`, joined to the workload's variable
/// (testdata/graph/go-config-package-env/README.md; Gergenus/Commerce's
/// cart and order services). A field filled from two variables stays
/// listed as written.
#[test]
fn go_config_struct_fields_of_another_package_are_env_targets() {
    let (scan, g) = build("testdata/graph/go-config-package-env", &Settings::default());
    let names = edge_names(&g);
    assert_eq!(
        names,
        ["cart -> product x1", "order -> product x1"],
        "{names:#?}"
    );
    let code = |dir: &str| -> (Vec<String>, Vec<String>) {
        let f = scan
            .files
            .iter()
            .find(|f| f.source.path.ends_with(format!("{dir}/cmd/main.go")))
            .expect("main.go");
        (
            f.facts.edges.iter().map(|e| e.via.clone()).collect(),
            f.facts
                .unresolved
                .iter()
                .map(|u| u.written.clone())
                .collect(),
        )
    };
    let (edges, unresolved) = code("cart");
    assert!(
        edges.len() == 1 && edges[0].starts_with("env `GRPC_PRODUCT_SERVICE_ADDRESS` of `cart`"),
        "{edges:#?}"
    );
    assert!(unresolved.is_empty(), "{unresolved:#?}");
    let (edges, unresolved) = code("order");
    assert!(
        edges.len() == 1 && edges[0].starts_with("env `PRODUCT_ADDR` of `order`"),
        "{edges:#?}"
    );
    assert_eq!(unresolved, ["other.Addr"]);
}

/// Fields of the same name in two config structs (`RabbitMQ.URL`,
/// `ProductClient.URL`) are told apart by the struct the dial reads
/// through: `cfg.ProductClient.URL` is `env PRODUCT_CLIENT_URL`, a gRPC
/// call (testdata/graph/go-config-same-field/README.md; thangchung/
/// go-coffeeshop 22d33190's counter left it unresolved, `unknown`).
#[test]
fn go_config_fields_of_one_name_are_told_apart_by_their_struct() {
    let (scan, g) = build("testdata/graph/go-config-same-field", &Settings::default());
    let edges = common::graph::labelled_edges(&g);
    assert_eq!(
        edges,
        [
            "counter -> orders gRPC",
            "counter -> product gRPC",
            "counter -> rabbitmq AMQP"
        ]
    );
    let main = scan
        .files
        .iter()
        .find(|f| f.source.path.ends_with("counter/cmd/main.go"))
        .expect("main.go");
    assert!(
        main.facts.unresolved.is_empty(),
        "{:#?}",
        main.facts.unresolved
    );
}

/// A comma-separated list of addresses in an environment entry is one
/// call per host (localhost left out), in compose and Kubernetes alike.
#[test]
fn comma_separated_env_addresses_are_one_edge_per_host() {
    let (_, g) = build("testdata/graph/env-address-lists", &Settings::default());
    let mut edges: Vec<String> = g
        .edges
        .iter()
        .map(|e| format!("{} -> {}", g.service_name(e.from), g.service_name(e.to)))
        .collect();
    edges.sort();
    assert_eq!(
        edges,
        [
            "ledger -> audit-0",
            "ledger -> audit-1",
            "orders -> cache-0",
            "orders -> kafka-0",
            "orders -> kafka-1",
            "orders -> payments-a",
            "orders -> payments-b",
        ]
    );
}

/// A span exporter's endpoint written only in `application*` is a call
/// while tracing is on: turned off in the same file or by the workload's
/// environment, none.
#[test]
fn a_tracing_endpoint_in_the_application_file_is_a_call() {
    let (_, g) = build("testdata/graph/tracing-endpoint-app", &Settings::default());
    let edges = common::graph::labelled_edges(&g);
    assert_eq!(edges, ["orders -> tempo HTTP", "shipping -> zipkin HTTP"]);
}

/// A kafka-go writer's broker from a field another file fills from the
/// environment (`env:"KAFKA_ADDR"`) is the compose service that
/// variable names (testdata/graph/go-kafka-go-config-field/README.md;
/// bangumi/submit-patch's notification writer).
#[test]
fn a_kafka_go_broker_from_a_config_field_is_an_edge() {
    let (scan, g) = build(
        "testdata/graph/go-kafka-go-config-field",
        &Settings::default(),
    );
    let names = edge_names(&g);
    assert!(
        names.iter().any(|n| n == "notify -> events-kafka x10"),
        "{names:#?}"
    );
    let unresolved = common::graph::unresolved(&scan);
    assert!(unresolved.is_empty(), "{unresolved:?}");
}
