//! The call graph as deployed (issue 17, stop 41): retries built by a
//! helper method, properties bound by a `@Bean` method, compose services
//! built from a unit, Service aliases and Ingress hosts per deployment
//! variant, each edge's HTTP paths. Each fixture's README works its edges
//! out by hand.

use crate::common;

use common::graph::{build, edge_names, protocol_edges};
use retrylint::graph::Graph;

#[test]
fn a_reactor_retry_built_by_a_helper_method_counts_on_the_edge() {
    let (_, g) = build("testdata/graph/reactor-retry-helper");
    assert_eq!(
        edge_names(&g),
        ["gateway-service -> order-service x3 [\"`send` (Reactor)\"]"]
    );
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

#[test]
fn an_ingress_host_used_as_a_url_reaches_the_rules_backend_through_the_controller() {
    let (_, g) = build("testdata/graph/ingress-host-url");
    let mut edges: Vec<String> = g
        .edges
        .iter()
        .map(|e| {
            format!(
                "{} -> {} x{} host {:?} path {:?} hosts {:?}",
                g.service_name(e.from),
                g.service_name(e.to),
                e.factor(),
                e.host,
                e.path,
                e.route_hosts
            )
        })
        .collect();
    edges.sort();
    assert_eq!(
        edges,
        [
            "ingress-nginx -> catalog x3 host None path None hosts [\"api.shop.local\"]",
            "ingress-nginx -> keycloak x3 host None path None hosts [\"auth.example.internal\"]",
            "ingress-nginx -> orders x3 host None path None hosts [\"api.shop.local\"]",
            "ingress-nginx -> web x3 host None path None hosts [\"shop.local\"]",
            "web -> ingress-nginx x1 host Some(\"api.shop.local\") path Some(\"/orders\") hosts []",
            "web -> ingress-nginx x1 host Some(\"auth.example.internal\") path None hosts []",
        ]
    );
    let route = |to: &str| {
        g.edges
            .iter()
            .find(|e| g.service_name(e.to) == to)
            .map(|e| e.route.clone())
            .unwrap()
    };
    assert_eq!(route("orders"), ["/orders/**"]);
    assert!(route("keycloak").is_empty());
    assert!(g.cycles.is_empty(), "{:?}", g.cycles);
    let entries: Vec<&str> = g.entries.iter().map(|&s| g.service_name(s)).collect();
    assert_eq!(entries, ["ingress-nginx"]);
    let worst: Vec<(u64, Vec<&str>)> = g
        .worst_paths()
        .iter()
        .map(|p| {
            (
                p.attempts,
                p.edges
                    .iter()
                    .map(|&e| g.service_name(g.edges[e].to))
                    .collect(),
            )
        })
        .collect();
    assert_eq!(worst.len(), 1);
    assert_eq!(worst[0].0, 9, "{worst:?}");
    // The web's call by host goes on only to that host's rules.
    let web_orders = g
        .edges
        .iter()
        .position(|e| e.host.as_deref() == Some("api.shop.local"))
        .unwrap();
    let next: Vec<&str> = g
        .next(web_orders)
        .map(|n| g.service_name(g.edges[n].to))
        .collect();
    assert_eq!(next, ["orders"]);
}

/// `from -> to` of each edge, sorted, without repeats.
fn pairs(g: &Graph) -> Vec<String> {
    let mut v: Vec<String> = g
        .edges
        .iter()
        .map(|e| format!("{} -> {}", g.service_name(e.from), g.service_name(e.to)))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Stop 43 (testdata/graph/env-defaults/README.md): a target read from
/// the environment with a default in code calls the workload's value, else
/// the default, in Java, Go and Python.
#[test]
fn an_environment_default_in_code_gives_way_to_the_workloads_entry() {
    let (scan, g) = build("testdata/graph/env-defaults");
    assert_eq!(
        pairs(&g),
        [
            "dispatch -> fulfilment",
            "dispatch -> stock",
            "ledger -> audit",
            "ledger -> rates",
            "payment -> accounts",
            "payment -> cart",
            "shipping -> cart",
            "shipping -> mysql",
        ]
    );
    let sql = g
        .edges
        .iter()
        .find(|e| g.service_name(e.to) == "mysql")
        .unwrap();
    assert_eq!(sql.protocol.label(), "SQL");
    let unresolved = common::graph::unresolved(&scan);
    assert!(unresolved.is_empty(), "{unresolved:?}");
}

/// Stop 54 (testdata/graph/go-env-package-default/README.md): a Go package
/// variable's `localhost` default replaced from the environment in
/// `setup()` calls what the workload's entry holds, and nothing is
/// left unresolved.
#[test]
fn a_go_package_default_replaced_from_the_environment_is_the_entry() {
    let (scan, g) = build("testdata/graph/go-env-package-default");
    assert_eq!(protocol_edges(&g), ["agency -> rates HTTP x1"]);
    let unresolved = common::graph::unresolved(&scan);
    assert!(unresolved.is_empty(), "{unresolved:?}");
}

/// Stop 43 (testdata/graph/nginx-template/README.md): an nginx template
/// `envsubst` fills calls what the workload sets, else the image's `ENV`.
#[test]
fn an_nginx_template_calls_what_its_variables_hold() {
    let (_, g) = build("testdata/graph/nginx-template");
    assert_eq!(
        pairs(&g),
        ["web -> cart-v2", "web -> catalogue", "web -> ratings"]
    );
}

/// Stop 43 (testdata/graph/canary-workload/README.md): a second Deployment
/// the Service selects joins the node of the one named as the Service.
#[test]
fn a_second_deployment_behind_a_service_is_that_service() {
    let (_, g) = build("testdata/graph/canary-workload");
    assert_eq!(pairs(&g), ["payment -> user"]);
    assert!(g.services.iter().all(|s| s.name != "payment-fix"));
}

/// Stop 43 (testdata/graph/loop-elsewhere/README.md): a hand-written loop
/// retries its own body, not a call elsewhere in the file.
#[test]
fn a_retry_loop_elsewhere_in_the_file_is_not_the_calls() {
    let (_, g) = build("testdata/graph/loop-elsewhere");
    assert_eq!(
        edge_names(&g),
        [
            "checkout -> shipping x1 []",
            "notify -> rabbitmq x2 [\"`retry in except in publish` (Python retry loop)\"]",
        ]
    );
}

/// Stop 43 (testdata/graph/this-machine/README.md): `[::]` and loopback
/// addresses are this machine, no node.
#[test]
fn a_call_to_this_machine_is_no_edge() {
    let (_, g) = build("testdata/graph/this-machine");
    assert_eq!(pairs(&g), ["email -> orders"]);
}

/// Stop 43 (testdata/graph/httproute-hostnames/README.md): a Gateway API
/// route's `hostnames` route a call by host through the gateway.
#[test]
fn a_call_by_an_httproute_host_goes_through_the_gateway() {
    let (_, g) = build("testdata/graph/httproute-hostnames");
    assert_eq!(
        pairs(&g),
        [
            "public-gateway -> admin",
            "public-gateway -> catalog",
            "web -> public-gateway",
        ]
    );
    let web = g
        .edges
        .iter()
        .position(|e| g.service_name(e.from) == "web")
        .unwrap();
    assert_eq!(g.edges[web].host.as_deref(), Some("api.shop.local"));
    let next: Vec<&str> = g.next(web).map(|n| g.service_name(g.edges[n].to)).collect();
    assert_eq!(next, ["catalog"]);
}

/// Stop 44 (testdata/graph/go-field-concat/README.md): `"http://" +
/// fe.addr` and `fmt.Sprintf("http://%s", fe.addr)` with the field filled
/// from the environment in another file of the module.
#[test]
fn a_go_url_built_on_a_field_another_file_fills_is_that_variable() {
    let (scan, g) = build("testdata/graph/go-field-concat");
    assert_eq!(pairs(&g), ["frontend -> assistant", "frontend -> quote"]);
    // The code's call is the compose entry's own edge: one edge, both
    // places shown.
    assert!(g.edges.iter().all(|e| e.also.len() == 1), "{:?}", g.edges);
    let unresolved = common::graph::unresolved(&scan);
    assert!(unresolved.is_empty(), "{unresolved:?}");
}

/// Stop 44 (testdata/graph/ingress-classes/README.md): an Ingress of a
/// known controller other than ingress-nginx is a hop through that
/// controller, with its retries; an unknown class draws none.
#[test]
fn an_ingress_of_another_controller_is_a_hop_through_it() {
    let (_, g) = build("testdata/graph/ingress-classes");
    assert_eq!(
        protocol_edges(&g),
        [
            "istio-ingressgateway -> shop HTTP x3",
            "kong -> api HTTP x6",
            "traefik -> docs HTTP x1",
            "traefik -> web HTTP x1",
        ]
    );
}

/// Stop 44 (testdata/graph/go-broker-dial/README.md): Go AMQP and NATS
/// dials are non-HTTP edges, their address followed through parameters
/// to the environment; a loop dialing again is not a call retry.
#[test]
fn go_amqp_and_nats_dials_are_broker_edges() {
    let (scan, g) = build("testdata/graph/go-broker-dial");
    assert_eq!(
        protocol_edges(&g),
        [
            "audit -> events-bus TCP x1",
            "dispatch -> rabbitmq AMQP x1",
            "events -> nats TCP x1",
        ]
    );
    let unresolved = common::graph::unresolved(&scan);
    assert!(unresolved.is_empty(), "{unresolved:?}");
}

/// Stop 44 (testdata/graph/configmap-elsewhere/README.md): the ConfigMap
/// an `envFrom` names, not in the workload's folder, is found in the scan
/// where its declarations agree on an address.
#[test]
fn an_envfrom_configmap_of_another_manifest_set_gives_its_addresses() {
    let (_, g) = build("testdata/graph/configmap-elsewhere");
    assert_eq!(pairs(&g), ["frontend -> contacts"]);
}

/// Stop 58 (issue 27): the YAML files the scan read and found without the
/// word `ConfigMap` are not opened again by the search for a ConfigMap
/// declared elsewhere; the scan knows which they are, and says so of no
/// file that has the word (nor of one it did not read).
#[test]
fn the_scan_knows_which_yaml_files_declare_no_configmap() {
    let cwd = std::env::current_dir().unwrap();
    let settings = retrylint::config::Settings {
        cwd: Some(cwd.clone()),
        ..Default::default()
    };
    let root = "testdata/graph/configmap-elsewhere";
    let scan = retrylint::scan(&[std::path::PathBuf::from(root)], &settings).unwrap();
    let tree = scan.tree.as_deref().unwrap();
    let (mut with, mut without) = (0, 0);
    for e in walkdir(&cwd.join(root)) {
        if !e.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            continue;
        }
        let has = std::fs::read_to_string(&e).unwrap().contains("ConfigMap");
        assert_eq!(tree.lacks_configmap(&e), !has, "{}", e.display());
        if has { with += 1 } else { without += 1 }
    }
    assert!(with >= 2 && without >= 2, "{with} {without}");
    // A file the scan did not walk is not known.
    assert!(!tree.lacks_configmap(&cwd.join("testdata/graph/configmap-env/order-service.yml")));
}

fn walkdir(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p)
            } else {
                out.push(p)
            }
        }
    }
    out
}

/// Stop 45 (testdata/graph/compose-env-known-protocol/README.md): a
/// compose entry without a scheme and the code's `http://` URL are one
/// connection; the merged edge takes the protocol the code states.
#[test]
fn a_merged_edge_takes_the_protocol_one_of_its_calls_states() {
    let (_, g) = build("testdata/graph/compose-env-known-protocol");
    assert_eq!(protocol_edges(&g), ["orders -> payments HTTP x1"]);
}

/// Stop 45 (testdata/graph/ingress-class-annotations/README.md): Contour's
/// `projectcontour.io/` retry annotations on an Ingress and Kong's
/// `konghq.com/retries` on the Service a backend names are the
/// controller hop's retries.
#[test]
fn ingress_controller_retry_annotations_are_read() {
    let (_, g) = build("testdata/graph/ingress-class-annotations");
    assert_eq!(
        protocol_edges(&g),
        [
            "contour -> catalog unknown x1",
            "contour -> orders unknown x4",
            "contour -> reports unknown x1",
            "contour -> search unknown x2",
            "kong -> ledger unknown x6",
            "kong -> payments HTTP x2",
        ]
    );
}

/// Stop 45 (testdata/graph/quickstart-beside-overlays/README.md): a
/// quickstart's manifests applied as they are call from the caller of no
/// namespace, beside the overlays' namespaced callers.
#[test]
fn a_quickstart_beside_overlays_calls_from_no_namespace() {
    let (_, g) = build("testdata/graph/quickstart-beside-overlays");
    assert_eq!(
        pairs(&g),
        [
            "web -> orders",
            "web.production -> orders.production",
            "web.staging -> orders.staging",
        ]
    );
}

/// Stop 46 (testdata/graph/traefik-retry/README.md): Traefik's `Retry`
/// middleware, declared in another file, is a layer of the edges of the
/// `IngressRoute` routes and Ingresses that name it.
#[test]
fn traefik_retry_middlewares_of_another_file_are_the_routers_retries() {
    let (scan, g) = build("testdata/graph/traefik-retry");
    assert_eq!(
        protocol_edges(&g),
        [
            "traefik -> billing HTTP x2",
            "traefik -> catalog unknown x1",
            "traefik -> orders unknown x3",
            "traefik -> payments unknown x4",
        ]
    );
    // The Ingress's edge runs a use of `legacy-retry`, judged where it is
    // written.
    let ingress = scan
        .files
        .iter()
        .find(|f| f.source.path.ends_with("ingress.yaml"))
        .unwrap();
    let uses: Vec<_> = ingress
        .facts
        .policies
        .iter()
        .map(|p| p.use_of.as_deref())
        .collect();
    assert_eq!(uses, [Some("Middleware shop-legacy-retry")]);
}

/// Stop 46 (testdata/graph/ingress-elsewhere/README.md): the IngressClass
/// and the Kong Services of other files decide an Ingress's controller
/// and its retries; `konghq.com/retries` on the Ingress itself is RL901.
#[test]
fn ingress_classes_and_kong_services_of_other_files_are_joined() {
    let (scan, g) = build("testdata/graph/ingress-elsewhere");
    assert_eq!(
        protocol_edges(&g),
        [
            "kong -> api unknown x3",
            "kong -> billing unknown x6",
            "kong -> ledger unknown x1",
        ]
    );
    let diags: Vec<String> = scan
        .files
        .iter()
        .flat_map(|f| f.facts.diagnostics.iter())
        .map(|d| format!("{} {}", d.code.as_str(), d.message))
        .collect();
    assert_eq!(
        diags,
        [
            "RL901 `konghq.com/retries` is not read on an Ingress: it is read from the Kubernetes Service each backend names (the Kong Service's `retries`), so it is ignored here"
        ]
    );
}

/// Stop 46 (testdata/graph/go-cmd-folders/README.md): in a Go module of
/// several programs, a `main` package in a `cmd/` folder is the program
/// of the folder above it, and its calls take its workload's env.
#[test]
fn a_go_main_package_in_cmd_is_its_folders_program() {
    let (scan, g) = build("testdata/graph/go-cmd-folders");
    assert_eq!(
        protocol_edges(&g),
        ["vote-bot -> web HTTP x1", "web -> emoji gRPC x1"]
    );
    let unresolved = common::graph::unresolved(&scan);
    assert!(unresolved.is_empty(), "{unresolved:?}");
    let server = scan
        .files
        .iter()
        .find(|f| f.source.path.ends_with("web-app/cmd/server.go"))
        .unwrap();
    let units: Vec<&str> = server
        .facts
        .services
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(units, ["web-app"]);
}

/// Stop 46 (testdata/graph/smi-traffic-split/README.md): an SMI
/// TrafficSplit's backends are hops from its root Service.
#[test]
fn an_smi_traffic_split_continues_the_path_to_its_backends() {
    let (_, g) = build("testdata/graph/smi-traffic-split");
    assert_eq!(
        protocol_edges(&g),
        [
            "vote-bot -> web-apex HTTP x1",
            "web-apex -> web HTTP x1",
            "web-apex -> web-2 HTTP x1",
        ]
    );
}

/// Stop 47 (testdata/graph/shared-app-label/README.md): Deployments that
/// share `app: eshop` and are told apart by the Services selecting them
/// are each their own service; versions a Service selects together stay
/// one.
#[test]
fn workloads_sharing_a_label_no_service_selects_together_are_each_a_service() {
    let (_, g) = build("testdata/graph/shared-app-label");
    assert_eq!(
        protocol_edges(&g),
        [
            "basket -> identity HTTP x1",
            "basket -> seq HTTP x1",
            "identity -> seq HTTP x1",
            "productpage -> reviews HTTP x1",
            "reviews -> ratings HTTP x1",
            "webstatus -> basket HTTP x1",
            "webstatus -> identity HTTP x1",
        ]
    );
    let names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    assert!(!names.contains(&"eshop"), "{names:?}");
    assert!(!names.contains(&"reviews-v1"), "{names:?}");
}

/// Stop 47 (testdata/graph/program-workloads/README.md): a program is
/// joined to the workload with its letters and digits, and a program
/// whose image two workloads run makes its calls from each.
#[test]
fn programs_join_the_workloads_that_run_them() {
    let (_, g) = build("testdata/graph/program-workloads");
    assert_eq!(
        protocol_edges(&g),
        [
            "ledger-svc -> audit unknown x1",
            "orders -> payments unknown x1",
            "orders-v2 -> payments unknown x1",
        ]
    );
    let names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    assert!(!names.contains(&"ledger_svc"), "{names:?}");
}

/// Stop 47 (testdata/graph/traefik-retry/README.md): the Retry
/// middleware's `timeout` (no try started after it) is the layer's
/// overall timeout.
#[test]
fn a_traefik_retry_timeout_is_the_layers_overall_timeout() {
    let (_, g) = build("testdata/graph/traefik-retry");
    let overall: Vec<(String, Option<std::time::Duration>)> = g
        .edges
        .iter()
        .flat_map(|e| e.layers.iter().map(move |l| (e, l)))
        .map(|(e, l)| (g.service_name(e.to).to_string(), l.overall))
        .collect();
    let mut overall = overall;
    overall.sort();
    assert_eq!(
        overall,
        [
            ("billing".to_string(), None),
            (
                "orders".to_string(),
                Some(std::time::Duration::from_secs(2))
            ),
            ("payments".to_string(), None),
        ]
    );
}

/// Stop 47 (testdata/graph/kong-namespaces/README.md): Kong takes the
/// retries of the Service in the Ingress's namespace, not of the nearest
/// file's.
#[test]
fn kong_retries_come_from_the_service_in_the_ingress_namespace() {
    let (_, g) = build("testdata/graph/kong-namespaces");
    assert_eq!(protocol_edges(&g), ["kong -> api unknown x3"]);
}

/// Stop 48 (testdata/graph/env-url-values/README.md): a URL in a
/// variable of any name is a call toward a service the scan declares,
/// and no call toward a host it does not.
#[test]
fn a_url_in_a_variable_of_any_name_is_a_call_to_a_declared_service() {
    let (_, g) = build("testdata/graph/env-url-values");
    assert_eq!(
        protocol_edges(&g),
        [
            "authors -> books HTTP x1",
            "books -> authors HTTP x1",
            "webapp -> authors HTTP x1",
            "webapp -> books HTTP x1",
        ]
    );
    let names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    assert!(!names.contains(&"books.example.com"), "{names:?}");
    assert!(!names.contains(&"accounts.google.com"), "{names:?}");
}

/// Stop 54 (testdata/graph/env-host-port-lists/README.md): a
/// `host:port`, and each URL of a list, in a variable of any name is a
/// call toward a declared service, with the port's protocol.
#[test]
fn a_host_port_or_a_url_list_in_a_variable_of_any_name_is_a_call() {
    let (_, g) = build("testdata/graph/env-host-port-lists");
    assert_eq!(
        protocol_edges(&g),
        [
            "booking -> ordersdb SQL x1",
            "console -> shop-east HTTP x1",
            "console -> shop-west HTTP x1",
        ]
    );
    let names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    for host in [
        "api.partner.example.com",
        "docs.example.org",
        "09",
        "0.0.0.0",
    ] {
        assert!(!names.contains(&host), "{host}: {names:?}");
    }
}

/// Stop 49 (testdata/graph/nginx-mounted-config/README.md): an nginx
/// configuration is run by the compose service that mounts it (the file,
/// or its folder), not by the Go module whose source tree holds it.
#[test]
fn an_nginx_configuration_is_run_by_the_service_that_mounts_it() {
    let (_, g) = build("testdata/graph/nginx-mounted-config");
    assert_eq!(
        protocol_edges(&g),
        [
            "edge -> store HTTP x2",
            "gateway -> store-1 HTTP x3",
            "gateway -> store-2 HTTP x3",
            "gateway -> store-3 HTTP x3",
        ]
    );
    assert!(g.cycles.is_empty(), "{:?}", g.cycles);
}

/// Stop 50 (testdata/graph/compose-projects-apart/README.md): a compose
/// service joined to a Kubernetes workload by its image renames no
/// service of the same name in another compose project.
#[test]
fn a_compose_name_is_joined_by_image_only_where_every_project_agrees() {
    let (_, g) = build("testdata/graph/compose-projects-apart");
    assert_eq!(
        protocol_edges(&g),
        ["gateway -> store-1 HTTP x2", "gateway -> store-2 HTTP x2"]
    );
}

/// Stop 51 (testdata/graph/own-public-urls/README.md): a browser's build
/// variable, the app's own root, base, public, redirect or callback URL
/// and its CORS origins are no calls of the workload; a server-rendering
/// framework's variable naming a cluster host and another service's base
/// or root URL stay calls.
#[test]
fn an_apps_own_public_url_is_no_call() {
    let (_, g) = build("testdata/graph/own-public-urls");
    assert_eq!(
        protocol_edges(&g),
        [
            "identity -> gateway HTTP x1",
            "identity -> orders HTTP x1",
            "web -> gateway HTTP x1",
            "web -> orders HTTP x1"
        ]
    );
}
