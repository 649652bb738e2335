//! Spring call targets and their retry layers across files (issue 17):
//! client interfaces whose methods carry the retries of the calls built
//! from them, placeholders set by the workload's environment. Each
//! fixture's README works its edges out by hand.

use crate::common;

use common::graph::{build, edge_names, protocol_edges};

fn unresolved(s: &retrylint::Scan) -> Vec<(String, Option<String>)> {
    s.stats
        .unresolved
        .iter()
        .map(|(_, w, c)| (w.clone(), c.clone()))
        .collect()
}

#[test]
fn a_client_interface_gives_its_retry_and_breaker_to_the_calls_built_from_it() {
    let (s, g) = build("testdata/graph/http-interface-retry");
    assert_eq!(
        edge_names(&g),
        [
            "order-service -> inventory-service x3 [\"`inventory` (Resilience4j)\"]",
            "order-service -> payments x4 [\"`payments` (Resilience4j)\"]",
            "order-service -> shipping x1 []",
        ]
    );
    let inv = g
        .edges
        .iter()
        .find(|e| g.service_name(e.to) == "inventory-service")
        .unwrap();
    assert!(
        inv.via
            .contains("env `INVENTORY_SERVICE_URL` of `order-service`"),
        "{}",
        inv.via
    );
    // The call site's use of the interface's `@Retry`, with the breaker
    // it wraps and that breaker's configured settings.
    let config = s
        .files
        .iter()
        .find(|f| f.source.display_path().ends_with("RestClientConfig.java"))
        .unwrap();
    let uses: Vec<_> = config.facts.policies.iter().collect();
    assert_eq!(uses.len(), 1, "{uses:?}");
    assert_eq!(uses[0].use_of.as_deref(), Some("InventoryClient"));
    assert!(!uses[0].wraps_breaker.is_empty());
    let settings = uses[0]
        .breaker
        .as_ref()
        .and_then(|b| b.settings.as_ref())
        .expect("the configured breaker's settings");
    assert_eq!(settings.value.failure_ratio, 0.5);
    assert_eq!(
        unresolved(&s),
        [(
            "${ledger.url} = http://localhost:9000".to_string(),
            Some("order-service".to_string())
        )]
    );
    let paths = g.worst_paths();
    assert_eq!(paths[0].attempts, 4);
}

#[test]
fn gateway_routes_without_a_retry_filter_are_calls() {
    let (s, g) = build("testdata/graph/gateway-routes-no-filter");
    assert_eq!(
        edge_names(&g),
        [
            "api-gateway -> catalog x1 []",
            "api-gateway -> orders x3 [\"`route orders` (Spring Cloud Gateway)\"]",
        ]
    );
    assert_eq!(
        unresolved(&s),
        [(
            "${payments.url}".to_string(),
            Some("api-gateway".to_string())
        )]
    );
}

#[test]
fn a_profile_group_activates_its_members_the_last_winning() {
    let (s, g) = build("testdata/graph/spring-profile-groups");
    assert_eq!(
        edge_names(&g),
        [
            "orders -> ledger-replica x1 []",
            "orders -> ledger-service x1 []"
        ]
    );
    let ledger = g
        .edges
        .iter()
        .find(|e| g.service_name(e.to) == "ledger-service")
        .unwrap();
    assert!(ledger.via.contains("profile `prod`"), "{}", ledger.via);
    assert!(s.stats.unresolved.is_empty(), "{:?}", s.stats.unresolved);
}

#[test]
fn config_servers_serve_from_their_default_locations_and_a_git_folder_of_the_scan() {
    let (s, g) = build("testdata/graph/config-server-backends");
    assert_eq!(
        edge_names(&g),
        [
            // Each client's `spring.config.import`, without retry.
            "billing -> config x1 []",
            "billing -> ledger x1 []",
            "edge -> billing x1 []",
            "edge -> config x1 []",
            "shipping -> carrier-gateway x1 []",
            "shipping -> config x1 []",
        ]
    );
    let carrier = g
        .edges
        .iter()
        .find(|e| g.service_name(e.to) == "carrier-gateway")
        .unwrap();
    assert!(
        carrier.via.contains("config-repo/services/shipping.yml") && !carrier.via.contains(".."),
        "{}",
        carrier.via
    );
    assert_eq!(
        unresolved(&s),
        [("${audit.url}".to_string(), Some("billing".to_string()))]
    );
}

#[test]
fn nested_configuration_properties_classes_and_records_give_their_base_urls() {
    let (s, g) = build("testdata/graph/config-properties-nested");
    assert_eq!(
        edge_names(&g),
        [
            "orders -> audit x1 []",
            "orders -> inventory x1 []",
            "orders -> payment-gateway x1 []",
            "orders -> shipping x1 []",
        ]
    );
    // Each call at the member that names it: a record's component where
    // its type is shared, the nested class's own field where it is not.
    // (The shipping call is shown by the Deployment's env entry too.)
    let mut at: Vec<String> = g
        .edges
        .iter()
        .flat_map(|e| {
            std::iter::once(e.proof)
                .chain(e.also.clone())
                .map(move |l| (e, l))
        })
        .map(|(e, l)| {
            let f = &s.files[l.file];
            let line = f.source.text[..l.span.start].matches('\n').count() + 1;
            let name = f.source.path.file_name().unwrap().to_string_lossy();
            format!("{} {name}:{line}", g.service_name(e.to))
        })
        .filter(|p| p.contains(".java:"))
        .collect();
    at.sort();
    assert_eq!(
        at,
        [
            "audit ClientProperties.java:12",
            "inventory ClientProperties.java:10",
            "payment-gateway PaymentProperties.java:16",
            "shipping ClientProperties.java:11",
        ]
    );
    let shipping = g
        .edges
        .iter()
        .find(|e| g.service_name(e.to) == "shipping")
        .unwrap();
    assert!(
        shipping.via.contains("CLIENTS_SHIPPING_BASE_URL"),
        "{}",
        shipping.via
    );
    assert!(unresolved(&s).is_empty(), "{:?}", unresolved(&s));
}

#[test]
fn gateway_route_placeholders_are_set_by_the_workloads_env_with_their_retry() {
    let (s, g) = build("testdata/graph/gateway-routes-env");
    assert_eq!(
        edge_names(&g),
        [
            "edge-service -> catalog-service x4 [\"`default-filters` (Spring Cloud Gateway)\"]",
            "edge-service -> order-service x4 [\"`default-filters` (Spring Cloud Gateway)\"]",
        ]
    );
    assert_eq!(
        unresolved(&s),
        [(
            "${SPA_URL:http://localhost:9004} = http://localhost:9004".to_string(),
            Some("edge-service".to_string())
        )]
    );
    assert_eq!(g.worst_paths()[0].attempts, 4);
}

/// Spring Boot's data-store settings are calls with the store's protocol,
/// which the Istio sidecar does not retry: in `application*` files (a
/// placeholder's default, a placeholder the workload's env sets, a JDBC
/// URL, a broker list, a Mongo URI with credentials, `localhost` no
/// call) and in a workload's env (`SPRING_DATA_MONGODB_HOST`).
#[test]
fn spring_data_store_settings_are_calls_no_sidecar_retries() {
    let (s, g) = build("testdata/graph/spring-data-stores");
    let got = protocol_edges(&g);
    assert_eq!(
        got,
        [
            "inventory -> inventory-mongo MongoDB x1",
            "inventory -> rabbitmq AMQP x1",
            "orders -> kafka-0 Kafka x1",
            "orders -> kafka-1 Kafka x1",
            "orders -> orders-db SQL x1",
            "orders -> orders-mongo MongoDB x1",
            "orders -> payments HTTP x3",
            "orders -> rabbitmq AMQP x1",
            "payments -> payments-mongo MongoDB x1",
            "payments -> payments-redis Redis x1",
        ]
    );
    assert!(unresolved(&s).is_empty(), "{:?}", unresolved(&s));
    let worst = g.worst_paths().iter().map(|p| p.attempts).max();
    assert_eq!(worst, Some(3));
}

/// A shared `application*` file a config server serves is read by each
/// client: its Feign `default` retryer is on every client's calls and its
/// RabbitMQ host is each client's call, not the server's.
#[test]
fn a_config_servers_shared_file_is_each_clients() {
    let (_, g) = build("testdata/graph/config-server-shared");
    let got = protocol_edges(&g);
    assert_eq!(
        got,
        [
            "account-service -> audit HTTP x5",
            // Its `spring.config.import`, without retry.
            "account-service -> config HTTP x1",
            "statistics-service -> api.exchangeratesapi.io HTTP x5",
            "statistics-service -> audit HTTP x5",
            // The config client's own retry (6 attempts by default).
            "statistics-service -> config HTTP x6",
            "statistics-service -> rabbitmq AMQP x1",
            "statistics-service -> rates-mock HTTP x5",
        ]
    );
}

/// A retry around a `WebClient` bean built in another file of the unit
/// is on the bean's call (Polar Bookshop's order service).
#[test]
fn a_client_bean_built_in_another_file_carries_the_injecting_files_retry() {
    let (s, g) = build("testdata/graph/client-bean-other-file");
    assert_eq!(
        edge_names(&g),
        ["order-service -> catalog-service x4 [\"`getBook` (Reactor)\"]"]
    );
    assert!(unresolved(&s).is_empty(), "{:?}", unresolved(&s));
    let worst = g.worst_paths().iter().map(|p| p.attempts).max();
    assert_eq!(worst, Some(4));
}

/// A client bean whose base URL is a member of a `@ConfigurationProperties`
/// type of another file (Polar Bookshop's `clientProperties.catalogServiceUri()`,
/// a JavaBean getter): the member's placeholder, resolved from the
/// environment or the unit's properties, carries the injecting file's retry.
#[test]
fn a_client_bean_reading_a_properties_member_carries_the_injecting_files_retry() {
    let (s, g) = build("testdata/graph/client-bean-properties");
    assert_eq!(
        edge_names(&g),
        [
            "cart-service -> pricing-service x3 [\"`price` (Reactor)\"]",
            "order-service -> catalog-service x4 [\"`getBook` (Reactor)\"]",
        ]
    );
    assert!(unresolved(&s).is_empty(), "{:?}", unresolved(&s));
    let catalog = g
        .edges
        .iter()
        .find(|e| g.service_name(e.to) == "catalog-service")
        .unwrap();
    assert!(
        catalog.via.contains("env `POLAR_CATALOG_SERVICE_URI`"),
        "{}",
        catalog.via
    );
    let worst = g.worst_paths().iter().map(|p| p.attempts).max();
    assert_eq!(worst, Some(4));
}

/// A data-store key the workload's environment sets is not also a call
/// to the `application.yml` value it overrides.
#[test]
fn an_environment_entry_overrides_the_application_files_store_host() {
    let (_, g) = build("testdata/graph/env-overrides-store");
    assert_eq!(
        protocol_edges(&g),
        [
            "orders -> config HTTP x1",
            "orders -> kafka Kafka x1",
            "orders -> orders-mongo MongoDB x1",
            "orders -> rabbitmq AMQP x1",
        ]
    );
}

/// A map or list of addresses in a `@ConfigurationProperties` class: one
/// call per key or index the configuration sets.
#[test]
fn configuration_properties_maps_and_lists_give_a_call_per_entry() {
    let (s, g) = build("testdata/graph/config-properties-collections");
    assert_eq!(
        edge_names(&g),
        [
            "orders -> inventory x1 []",
            "orders -> peer-a x1 []",
            "orders -> peer-b x1 []",
            "orders -> shipping x1 []",
        ]
    );
    let u: Vec<String> = unresolved(&s).into_iter().map(|(w, _)| w).collect();
    assert_eq!(u, ["${clients.mirrors.*}"]);
}

/// `@Value` addresses written only into the OpenAPI description (its
/// server, its OAuth endpoints) are no calls; a base URL beside them is.
#[test]
fn addresses_that_only_document_the_api_are_no_calls() {
    let (s, g) = build("testdata/graph/openapi-doc-urls");
    assert_eq!(edge_names(&g), ["catalog -> pricing x1 []"]);
    assert!(unresolved(&s).is_empty(), "{:?}", unresolved(&s));
}

/// Compose files named otherwise (`docker compose -f apps.yml`) are read
/// by their shape; GitLab CI's `services:` list is not Compose.
#[test]
fn compose_files_named_otherwise_are_read() {
    let (_, g) = build("testdata/graph/compose-named-otherwise");
    assert_eq!(
        protocol_edges(&g),
        ["orders -> catalog HTTP x1", "orders -> orders-db SQL x1"]
    );
}

/// A compose entry that sets a key the program reads only into its
/// OpenAPI description (`SWAGGER_API_GATEWAY_URL`) is no call; an entry
/// setting a client's base URL is.
#[test]
fn an_entry_setting_a_documentation_only_key_is_no_call() {
    let (s, g) = build("testdata/graph/env-doc-only");
    assert_eq!(edge_names(&g), ["catalog -> pricing x1 []"]);
    assert!(g.cycles.is_empty());
    assert!(
        !unresolved(&s).iter().any(|(w, _)| w.contains("swagger")),
        "{:?}",
        unresolved(&s)
    );
}

/// A problem type's `URI.create(..)` (given only to `setType`, or built
/// inside `setInstance`) is no call; a `URI` constant given to a request
/// is.
#[test]
fn a_problem_type_uri_is_no_call() {
    let (_, g) = build("testdata/graph/problem-type-uri");
    assert_eq!(edge_names(&g), ["orders -> pricing x1 []"]);
}

/// `spring.rabbitmq.host=${RABBITMQ_HOST:localhost}` and the workload's
/// `RABBITMQ_HOST`: the entry's call speaks AMQP.
#[test]
fn a_store_host_from_a_plain_variable_keeps_the_store_protocol() {
    let (s, g) = build("testdata/graph/env-store-protocol");
    assert_eq!(protocol_edges(&g), ["orders -> bookstore-rabbitmq AMQP x1"]);
    assert!(unresolved(&s).is_empty(), "{:?}", unresolved(&s));
}

/// A call to `http://api-gateway:8989/catalog` goes on only through the
/// gateway's `/catalog/**` route: no cycle through the `/orders/**` one,
/// and the retrying call is on the worst path (1 x 1 x 2 = 2; a path
/// ends with its last retrying hop, here the 2 attempts that reach
/// api-gateway and go on to catalog-service).
#[test]
fn a_gateway_route_is_taken_only_by_the_paths_it_matches() {
    let (_, g) = build("testdata/graph/gateway-route-paths");
    assert_eq!(
        edge_names(&g),
        [
            "api-gateway -> catalog-service x1 []",
            "api-gateway -> order-service x1 []",
            "bookstore-webapp -> api-gateway x1 []",
            "order-service -> api-gateway x2 [\"`catalog-service` (Resilience4j)\"]",
        ]
    );
    assert!(g.cycles.is_empty(), "{:?}", g.cycles);
    let paths = g.worst_paths();
    let worst = paths.iter().max_by_key(|p| p.attempts).unwrap();
    assert_eq!(worst.attempts, 2);
    let hops: Vec<String> = worst
        .edges
        .iter()
        .map(|&e| {
            format!(
                "{} -> {}",
                g.service_name(g.edges[e].from),
                g.service_name(g.edges[e].to)
            )
        })
        .collect();
    assert_eq!(
        hops,
        [
            "bookstore-webapp -> api-gateway",
            "api-gateway -> order-service",
            "order-service -> api-gateway",
        ]
    );
    assert!(
        g.arithmetic(worst).ends_with("= `2`"),
        "{}",
        g.arithmetic(worst)
    );
}

/// A `RestClientCustomizer` bean's base URL (a properties member set by
/// the compose entry) is a call of the code that builds the clients.
#[test]
fn a_customizer_beans_base_url_is_joined() {
    let (s, g) = build("testdata/graph/client-customizer");
    assert_eq!(edge_names(&g), ["bookstore-webapp -> api-gateway x1 []"]);
    let e = &g.edges[0];
    let shown: Vec<String> = std::iter::once(e.proof)
        .chain(e.also.iter().copied())
        .map(|l| s.files[l.file].source.path.display().to_string())
        .collect();
    assert!(
        shown.iter().any(|p| p.ends_with("ClientsConfig.java")),
        "{shown:?}"
    );
}

/// `lb:http://ORDER-SERVICE` is the program named `order-service` (a
/// registry looks service ids up without regard to case); two routes to
/// it are one edge.
#[test]
fn gateway_routes_to_capitalised_service_ids_reach_the_programs() {
    let (_, g) = build("testdata/graph/gateway-lb-service-ids");
    assert_eq!(
        edge_names(&g),
        [
            "gateway-service -> customer-service x1 []",
            "gateway-service -> order-service x1 []",
        ]
    );
    let mut names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    names.sort();
    assert_eq!(
        names,
        ["customer-service", "gateway-service", "order-service"]
    );
}

/// A route or call whose `uri` is a placeholder the workload's
/// environment sets speaks what the entry's value says (`http://`), not
/// `unknown`; an `lb:http://` route speaks HTTP.
#[test]
fn a_placeholder_target_speaks_the_protocol_of_its_value() {
    let (_, g) = build("testdata/graph/gateway-routes-env");
    assert_eq!(
        protocol_edges(&g),
        [
            "edge-service -> catalog-service HTTP x4",
            "edge-service -> order-service HTTP x4",
        ]
    );
    let (_, g) = build("testdata/graph/gateway-route-paths");
    let routes: Vec<String> = protocol_edges(&g)
        .into_iter()
        .filter(|e| e.starts_with("api-gateway"))
        .collect();
    assert_eq!(
        routes,
        [
            "api-gateway -> catalog-service HTTP x1",
            "api-gateway -> order-service HTTP x1",
        ]
    );
    // A value a configuration file gives the placeholder.
    let (_, g) = build("testdata/graph/spring-placeholders");
    assert!(
        protocol_edges(&g).contains(&"orders-service -> payment-service HTTP x1".to_string()),
        "{:?}",
        protocol_edges(&g)
    );
    let (_, g) = build("testdata/graph/gateway-lb-service-ids");
    assert_eq!(
        protocol_edges(&g),
        [
            "gateway-service -> customer-service HTTP x1",
            "gateway-service -> order-service HTTP x1",
        ]
    );
}

/// `spring.mail.host` is the SMTP server: its call speaks SMTP, which no
/// L7 retry layer handles.
#[test]
fn a_mail_host_is_an_smtp_call() {
    let (s, g) = build("testdata/graph/spring-mail-smtp");
    assert_eq!(
        protocol_edges(&g),
        [
            "alerts -> smtp-relay SMTP x1",
            "notifications -> mailhog SMTP x1",
        ]
    );
    assert!(g.edges.iter().all(|e| !e.protocol.is_l7()));
    assert!(unresolved(&s).is_empty(), "{:?}", unresolved(&s));
}

/// `management.tracing.enabled=false` (here the environment's, from
/// `.env`) turns the span exporters off: no call to their endpoints,
/// unless the exporter's own `tracing.export.enabled` turns it on.
#[test]
fn span_exporters_of_a_program_with_tracing_off_make_no_call() {
    let (_, g) = build("testdata/graph/tracing-disabled");
    assert_eq!(
        protocol_edges(&g),
        [
            "orders -> catalog HTTP x1",
            "payments -> tempo HTTP x1",
            "shipping -> tempo HTTP x1",
            "stock -> orders HTTP x1",
        ]
    );
}

/// An HTTP interface's method paths (`@HttpExchange("/catalog")` +
/// `@GetExchange("/api/products/{code}")`) are what its client sends: a
/// call through it to the gateway takes only the `/catalog/**` route, one
/// edge per path, and the gateway's `/orders/**` route back to the caller
/// is no cycle.
#[test]
fn an_http_interfaces_paths_pick_the_gateways_route() {
    let (_, g) = build("testdata/graph/http-interface-paths");
    assert!(g.cycles.is_empty(), "{:?}", g.cycles);
    let mut sent: Vec<String> = g
        .edges
        .iter()
        .filter(|e| g.service_name(e.from) == "order-service")
        .map(|e| {
            format!(
                "{} {}",
                g.service_name(e.to),
                e.path.as_deref().unwrap_or("(any)")
            )
        })
        .collect();
    sent.sort();
    assert_eq!(
        sent,
        [
            "api-gateway /catalog/api/products",
            "api-gateway /catalog/api/products/{code}",
        ]
    );
    // After either, a path reaches catalog-service only.
    for e in g
        .edges
        .iter()
        .enumerate()
        .filter(|(_, e)| g.service_name(e.from) == "order-service")
    {
        let next: Vec<&str> = g.next(e.0).map(|n| g.service_name(g.edges[n].to)).collect();
        assert_eq!(next, ["catalog-service"]);
    }
}

/// `management.tracing.enabled: false` in the program's own
/// `application*` file turns its exporters off, unless its environment
/// (above the file) turns tracing on.
#[test]
fn tracing_turned_off_in_the_application_file_sends_no_spans() {
    let (_, g) = build("testdata/graph/tracing-disabled-app");
    assert_eq!(
        protocol_edges(&g),
        ["billing -> tempo HTTP x1", "catalog -> pricing HTTP x1"]
    );
}

/// HTTP interfaces built from the injected `RestClient.Builder` send to
/// the base URL a `RestClientCustomizer` bean (same file) or the
/// program's own `RestClient.Builder` bean (another file) sets, each
/// method's path an edge; the properties member the customizer reads
/// and the compose entry stand for the same calls.
#[test]
fn interfaces_built_from_a_customized_builder_send_their_paths() {
    for (fixture, storefront) in [
        ("testdata/graph/customizer-interfaces", true),
        ("testdata/graph/import-http-services", false),
    ] {
        interfaces_send_their_paths(fixture, storefront);
    }
}

/// HTTP service groups: `@ImportHttpServices` interfaces whose builder a
/// `RestClientHttpServiceGroupConfigurer` gives the base URL.
fn interfaces_send_their_paths(fixture: &str, storefront: bool) {
    let (_, g) = build(fixture);
    let mut sent: Vec<String> = g
        .edges
        .iter()
        .filter(|e| g.service_name(e.to) == "api-gateway")
        .map(|e| {
            format!(
                "{} {}",
                g.service_name(e.from),
                e.path.as_deref().unwrap_or("(any)")
            )
        })
        .collect();
    sent.sort();
    sent.dedup();
    assert_eq!(
        sent,
        [
            "bookstore-webapp /catalog/api/products",
            "bookstore-webapp /catalog/api/products/{code}",
            "bookstore-webapp /orders/api/orders",
            "bookstore-webapp /orders/api/orders/{orderNumber}",
            "storefront /catalog/api/products",
        ][..5 - usize::from(!storefront)],
        "{fixture}"
    );
    // After a catalog path the gateway reaches catalog-service only.
    for (i, e) in g.edges.iter().enumerate() {
        if g.service_name(e.to) == "api-gateway" {
            let next: Vec<&str> = g.next(i).map(|n| g.service_name(g.edges[n].to)).collect();
            let want = if e.path.as_deref().is_some_and(|p| p.starts_with("/catalog")) {
                "catalog-service"
            } else {
                "order-service"
            };
            assert_eq!(next, [want], "{:?}", e.path);
        }
    }
}

/// A `@FeignClient`'s Spring MVC method mappings under its `path`
/// (`@GetMapping`, `@PostMapping(value = ..)`, `@RequestMapping(method =
/// .., path = ..)`) are what it sends: one edge per path, each taking the
/// gateway's `/catalog/**` route only.
#[test]
fn a_feign_clients_method_mappings_pick_the_gateways_route() {
    let (_, g) = build("testdata/graph/feign-mapping-paths");
    assert!(g.cycles.is_empty(), "{:?}", g.cycles);
    let mut sent: Vec<String> = g
        .edges
        .iter()
        .filter(|e| g.service_name(e.from) == "order-service")
        .map(|e| e.path.as_deref().unwrap_or("(any)").to_string())
        .collect();
    sent.sort();
    sent.dedup();
    assert_eq!(
        sent,
        [
            "/catalog/api/products",
            "/catalog/api/products/{code}",
            "/catalog/api/stock",
        ]
    );
    for (i, e) in g.edges.iter().enumerate() {
        if g.service_name(e.from) == "order-service" {
            let next: Vec<&str> = g.next(i).map(|n| g.service_name(g.edges[n].to)).collect();
            assert_eq!(next, ["catalog-service"], "{:?}", e.path);
        }
    }
}

/// `lb://ORDER-SERVICE` written in code is a registry id, looked up
/// without regard to case: the program named `order-service`.
#[test]
fn an_lb_url_literal_in_capitals_reaches_the_program() {
    let (_, g) = build("testdata/graph/lb-url-literal-case");
    assert_eq!(edge_names(&g), ["gateway-service -> order-service x1 []"]);
    let mut names: Vec<&str> = g.services.iter().map(|s| s.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["gateway-service", "order-service"]);
}

/// A config client without retry settings still calls its server once
/// at startup (petclinic's services, `spring.config.import` of
/// `configserver:`); a developer's `localhost` gives no edge.
#[test]
fn a_config_client_without_retry_calls_its_server_once() {
    let (_, g) = build("testdata/graph/config-import-no-retry");
    assert_eq!(
        protocol_edges(&g),
        [
            "owners -> config-server HTTP x1",
            "visits -> config-server HTTP x1",
        ]
    );
}

#[test]
fn a_spring_ai_model_client_calls_its_provider_with_spring_ai_retries() {
    let (_, g) = build("testdata/graph/spring-ai-model");
    assert_eq!(
        protocol_edges(&g),
        [
            "advisor -> api.openai.com HTTP x10",
            "gateway -> advisor HTTP x2",
            "summarizer -> llm-proxy HTTP x3",
        ]
    );
}
