//! Call edges from source code (issue 17): every Java and Rust file with a
//! call site, not only those with retry words; strings that are no call
//! targets; test code; what could not be resolved. Each fixture's README
//! works its edges out by hand.

use retrylint::config::Settings;
use std::path::PathBuf;

fn scan(path: &str, settings: &Settings) -> retrylint::Scan {
    retrylint::scan(&[PathBuf::from(path)], settings).unwrap()
}

/// Every call edge the files show, as `file: callee`, sorted.
fn edges(scan: &retrylint::Scan) -> Vec<String> {
    let mut v: Vec<String> = scan
        .files
        .iter()
        .flat_map(|f| {
            let path = f.source.display_path();
            let name = path.rsplit('/').next().unwrap_or("").to_string();
            f.facts
                .edges
                .iter()
                .map(move |e| format!("{name}: {}", e.callee))
        })
        .collect();
    v.sort();
    v
}

fn services(g: &retrylint::graph::Graph) -> Vec<String> {
    let mut v: Vec<String> = g.services.iter().map(|s| s.name.clone()).collect();
    v.sort();
    v
}

#[test]
fn a_java_service_without_retry_words_has_its_rest_template_calls() {
    let s = scan("testdata/graph/java-resttemplate", &Settings::default());
    assert_eq!(
        edges(&s),
        [
            "UserServiceImpl.java: ts-auth-service:12340",
            "UserServiceImpl.java: ts-order-service:12031",
            "UserServiceImpl.java: ts-verification-code-service:15678",
        ]
    );
    let g = retrylint::graph::build(&s.files, &Settings::default());
    let names = services(&g);
    for callee in [
        "ts-auth-service",
        "ts-order-service",
        "ts-verification-code-service",
    ] {
        assert!(names.contains(&callee.to_string()), "{names:?}");
    }
    assert_eq!(g.edges.len(), 3, "{names:?}");
}

#[test]
fn mockito_tests_do_not_count_and_are_counted() {
    let s = scan("testdata/graph/mockito-tests", &Settings::default());
    assert_eq!(edges(&s), ["OrderServiceImpl.java: payments:8080"]);
    assert_eq!(s.stats.test_files, 1);
    assert!(s.files.iter().all(|f| f.facts.policies.is_empty()));
    let findings = retrylint::pipeline::Pipeline::new(&Settings::default())
        .run(&[PathBuf::from("testdata/graph/mockito-tests")])
        .unwrap()
        .report
        .findings;
    assert!(findings.is_empty(), "{findings:?}");
    // `test-code = "read"` reads the test as before.
    let read = Settings {
        read_test_code: true,
        ..Settings::default()
    };
    let s = scan("testdata/graph/mockito-tests", &read);
    assert_eq!(s.stats.test_files, 0);
    let e = edges(&s);
    assert!(e.iter().any(|e| e.contains("mock-ledger")), "{e:?}");
    assert!(s.files.iter().any(|f| !f.facts.policies.is_empty()));
}

#[test]
fn a_url_in_a_log_message_or_exception_is_no_edge() {
    let s = scan("testdata/graph/log-message-url", &Settings::default());
    assert_eq!(edges(&s), ["LedgerClient.java: ledger:9000"]);
    let g = retrylint::graph::build(&s.files, &Settings::default());
    let names = services(&g);
    for not in ["github.com", "old-ledger", "audit-log"] {
        assert!(!names.contains(&not.to_string()), "{names:?}");
    }
}

#[test]
fn a_rust_test_module_in_its_own_file_is_dropped_and_counted() {
    let s = scan("testdata/graph/rust-test-module", &Settings::default());
    assert_eq!(edges(&s), ["main.rs: payments"]);
    assert_eq!(s.stats.test_files, 1);
    assert!(
        s.files
            .iter()
            .all(|f| !f.source.display_path().ends_with("src/tests.rs")),
        "src/tests.rs was kept"
    );
}

/// A project file that references a test framework (or is a NUKE build)
/// makes its folder's C# files test code, whatever the folder is called.
#[test]
fn a_dotnet_test_project_is_test_code_by_its_project_file() {
    let s = scan("testdata/graph/dotnet-test-project", &Settings::default());
    let kept: Vec<String> = s.files.iter().map(|f| f.source.display_path()).collect();
    assert!(
        kept.iter()
            .all(|p| !p.ends_with("ClientWrapper.cs") && !p.ends_with("DatabaseReady.cs")),
        "the test tool's or the build's file was kept: {kept:?}"
    );
    assert!(
        kept.iter().any(|p| p.ends_with("src/Api/Program.cs")),
        "the program was dropped: {kept:?}"
    );
    assert_eq!(s.stats.test_files, 2);
    let read = Settings {
        read_test_code: true,
        ..Settings::default()
    };
    let s = scan("testdata/graph/dotnet-test-project", &read);
    assert!(
        s.files
            .iter()
            .any(|f| f.source.display_path().ends_with("ClientWrapper.cs")),
        "test code asked for was not read"
    );
}

#[test]
fn compose_values_resolve_from_dot_env_and_env_file_never_become_services() {
    let s = scan("testdata/graph/compose-env", &Settings::default());
    let mut edges: Vec<&str> = s
        .files
        .iter()
        .flat_map(|f| f.facts.edges.iter().map(|e| e.callee.as_str()))
        .collect();
    edges.sort();
    // `.env` gives `CART_ADDR` and `PRODUCT_CATALOG_URL`; `gateway.env`
    // gives `RATINGS_URL` (its `REVIEWS_URL` is overridden); a default
    // gives `payments`; a camel-case Spring key gives `orders`.
    assert_eq!(
        edges,
        [
            "cart",
            "checkout",
            "currency",
            "orders",
            "payments",
            "productcatalog",
            "ratings",
            "reviews",
            "shipping"
        ]
    );
    let unresolved: Vec<(&str, Option<&str>)> = s
        .stats
        .unresolved
        .iter()
        .map(|(_, w, c)| (w.as_str(), c.as_deref()))
        .collect();
    // `.env`'s `EMAIL_ADDR=${EMAIL_HOST}:8080` names a variable set
    // nowhere: unresolved, never `${EMAIL_HOST}` as a host.
    assert_eq!(
        unresolved,
        [
            ("${AUDIT_URL}", Some("gateway")),
            ("env EMAIL_ADDR", Some("web"))
        ]
    );
    assert!(
        s.notices
            .iter()
            .any(|n| n.message.contains("could not be resolved"))
    );
    let g = retrylint::graph::build(&s.files, &Settings::default());
    assert_eq!(
        services(&g),
        [
            "cart",
            "checkout",
            "currency",
            "frontend",
            "gateway",
            "orders",
            "payments",
            "productcatalog",
            "ratings",
            "reviews",
            "shipping",
            "web"
        ]
    );
}

#[test]
fn files_in_languages_not_read_are_listed_and_the_audit_does_not_reassure() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("api")).unwrap();
    // C# and Go are read (src/systems/csharp, src/systems/go): their files
    // are not listed; TypeScript is not read.
    std::fs::write(
        dir.path().join("api/Program.cs"),
        "builder.Services.AddHttpClient<Catalog>().AddStandardResilienceHandler();\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("api/client.ts"),
        "// retry the catalog once\nconst url = \"http://catalog:8080/items\";\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("api/main.go"),
        "package api\n\nvar url = \"http://catalog:8080/items\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("api/util.py"),
        "print('no settings here')\n",
    )
    .unwrap();
    let s = scan(dir.path().to_str().unwrap(), &Settings::default());
    assert_eq!(s.stats.unread.count(), 1);
    assert_eq!(s.stats.unread.tally(), "TypeScript 1");
    assert!(
        s.notices
            .iter()
            .any(|n| !n.internal && n.message.contains("api/client.ts")),
        "{:?}",
        s.notices
    );
    assert!(
        !s.notices
            .iter()
            .any(|n| n.message.contains("api/Program.cs") || n.message.contains("api/main.go")),
        "{:?}",
        s.notices
    );
    let line = retrylint::render::summary(&s, &[]);
    assert!(line.contains("1 in languages not read yet"), "{line}");
}

#[test]
fn a_config_server_at_localhost_is_no_service() {
    let s = scan(
        "testdata/graph/config-client-localhost",
        &Settings::default(),
    );
    assert!(s.files.iter().any(|f| !f.facts.policies.is_empty()));
    let g = retrylint::graph::build(&s.files, &Settings::default());
    assert!(
        !services(&g).contains(&"localhost".to_string()),
        "{:?}",
        services(&g)
    );
}

/// A test file named on the command line while the walk is widened to the
/// repository (pre-commit passes files one by one) is read: the user asked
/// for it. Every other test file of the walk is still skipped.
#[test]
fn a_test_file_named_on_the_command_line_is_read() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let named = root.join(
        "testdata/graph/mockito-tests/orders/src/test/java/orders/service/OrderServiceImplTest.java",
    );
    assert!(named.is_file(), "{}", named.display());
    let given = Settings {
        named_files: vec![named.clone()],
        ..Settings::default()
    };
    let tree = [root.join("testdata/graph/mockito-tests")];
    let s = retrylint::scan(&tree, &given).unwrap();
    assert_eq!(s.stats.test_files, 0);
    assert!(s.files.iter().any(|f| !f.facts.policies.is_empty()));
    let s = retrylint::scan(&tree, &Settings::default()).unwrap();
    assert_eq!(s.stats.test_files, 1);
}

/// The caller of a call is its build unit whether the scan root is given
/// relative or absolute, from inside the tree or above it (`check` makes
/// roots absolute and shows paths relative to the working directory).
#[test]
fn a_build_unit_is_the_caller_from_any_working_directory() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tree = root.join("testdata/graph/build-unit-cwd");
    for (cwd, arg) in [
        (tree.clone(), tree.clone()),
        (root.clone(), tree.clone()),
        (root.clone(), PathBuf::from("testdata/graph/build-unit-cwd")),
    ] {
        let settings = Settings {
            cwd: Some(cwd.clone()),
            ..Settings::default()
        };
        let s = retrylint::scan(std::slice::from_ref(&arg), &settings).unwrap();
        let g = retrylint::graph::build(&s.files, &settings);
        let calls: Vec<String> = g
            .edges
            .iter()
            .map(|e| format!("{} -> {}", g.services[e.from].name, g.services[e.to].name))
            .collect();
        assert_eq!(
            calls,
            ["orders -> payments"],
            "cwd {} root {}",
            cwd.display(),
            arg.display()
        );
    }
}

#[test]
fn spring_placeholders_resolve_from_the_units_configuration_with_profiles() {
    let s = scan("testdata/graph/spring-placeholders", &Settings::default());
    // Each call site with what its placeholder holds (README works them
    // out): `.properties` over YAML in one location, the `docker`
    // profile's inventory (the default's is `localhost`, no edge), an
    // empty Feign `url` calling its `name`, `"http://" + shippingHost`.
    assert_eq!(
        edges(&s),
        [
            "PaymentGateway.java: catalog-service:8080",
            "PaymentGateway.java: inventory-service:8080",
            "PaymentGateway.java: payment-service:8080",
            "PaymentGateway.java: session-service:8080",
            "PaymentGateway.java: shipping-service",
            "PaymentGateway.java: shipping-service",
            "RatesClient.java: api.exchangeratesapi.io",
            "StockClient.java: stock-service",
        ]
    );
    let inventory = s
        .files
        .iter()
        .flat_map(|f| &f.facts.edges)
        .find(|e| e.callee.starts_with("inventory"))
        .unwrap();
    assert!(
        inventory.via.contains("profile `docker`"),
        "{}",
        inventory.via
    );
    // Nothing sets `audit.url`: listed, with the service that calls it;
    // `metrics.url` is this machine only: listed with its value.
    assert_eq!(
        s.stats.unresolved,
        [
            (
                "testdata/graph/spring-placeholders/orders-service/src/main/java/shop/orders/PaymentGateway.java:38"
                    .to_string(),
                "${metrics.url} = http://localhost:9091/push".to_string(),
                Some("orders-service".to_string())
            ),
            (
            "testdata/graph/spring-placeholders/orders-service/src/main/java/shop/orders/PaymentGateway.java:47"
                .to_string(),
            "${audit.url}".to_string(),
            Some("orders-service".to_string())
            )
        ]
    );
    let g = retrylint::graph::build(&s.files, &Settings::default());
    assert_eq!(
        services(&g),
        [
            "api.exchangeratesapi.io",
            "catalog-service",
            "inventory-service",
            "orders-service",
            "payment-service",
            "session-service",
            "shipping-service",
            "stock-service"
        ]
    );
    assert!(!services(&g).contains(&"rates-client".to_string()));
}

#[test]
fn clients_built_with_a_base_url_call_its_service() {
    let s = scan("testdata/graph/client-base-urls", &Settings::default());
    let g = retrylint::graph::build(&s.files, &Settings::default());
    let mut pairs: Vec<String> = g
        .edges
        .iter()
        .map(|e| format!("{} -> {}", g.services[e.from].name, g.services[e.to].name))
        .collect();
    pairs.sort();
    assert_eq!(
        pairs,
        [
            "cart -> catalog",
            "cart -> prices",
            "cart -> stock",
            "checkout -> customers",
            "checkout -> fraud-check",
            "checkout -> pricing",
            "checkout -> tax-service",
        ]
    );
    let unresolved: Vec<(&str, Option<&str>)> = s
        .stats
        .unresolved
        .iter()
        .map(|(_, w, c)| (w.as_str(), c.as_deref()))
        .collect();
    assert_eq!(unresolved, [("http://{host}:50053", Some("cart"))]);
}

#[test]
fn kubernetes_env_values_held_by_a_configmap_of_the_folder_are_edges() {
    let s = scan("testdata/graph/configmap-env", &Settings::default());
    let g = retrylint::graph::build(&s.files, &Settings::default());
    let pairs: Vec<String> = g
        .edges
        .iter()
        .map(|e| format!("{} -> {}", g.services[e.from].name, g.services[e.to].name))
        .collect();
    assert_eq!(pairs, ["order-service -> inventory-service"]);
    assert!(
        g.edges[0].via.contains("ConfigMap `common-config`"),
        "{}",
        g.edges[0].via
    );
    let unresolved: Vec<(&str, Option<&str>)> = s
        .stats
        .unresolved
        .iter()
        .map(|(_, w, c)| (w.as_str(), c.as_deref()))
        .collect();
    assert_eq!(
        unresolved,
        [(
            "env PAYMENTS_URL from ConfigMap payments-config key PAYMENTS_URL",
            Some("order-service")
        )]
    );
}

/// A ConfigMap kustomize generates (`configMapGenerator` literals and
/// `envs` files of the folder's kustomization) holds env values too.
#[test]
fn kubernetes_env_values_held_by_a_generated_configmap_are_edges() {
    let s = scan("testdata/graph/configmap-generator", &Settings::default());
    let g = retrylint::graph::build(&s.files, &Settings::default());
    let pairs: Vec<String> = g
        .edges
        .iter()
        .map(|e| format!("{} -> {}", g.services[e.from].name, g.services[e.to].name))
        .collect();
    assert_eq!(pairs, ["order-service -> inventory-service"]);
    assert!(s.stats.unresolved.is_empty(), "{:?}", s.stats.unresolved);
}

/// `envFrom: - configMapRef:` takes every key of the ConfigMap (with its
/// `prefix`), as bank-of-anthos's frontend takes its services' addresses.
#[test]
fn kubernetes_env_from_a_whole_configmap_of_the_folder_gives_edges() {
    let s = scan("testdata/graph/configmap-envfrom", &Settings::default());
    let g = retrylint::graph::build(&s.files, &Settings::default());
    let mut pairs: Vec<String> = g
        .edges
        .iter()
        .map(|e| format!("{} -> {}", g.services[e.from].name, g.services[e.to].name))
        .collect();
    pairs.sort();
    assert_eq!(
        pairs,
        [
            "frontend -> ledgerwriter",
            "frontend -> payments",
            "frontend -> userservice"
        ]
    );
    let pay = g
        .edges
        .iter()
        .find(|e| g.services[e.to].name == "payments")
        .unwrap();
    assert!(
        pay.via.contains("`PAY_API_URL`") && pay.via.contains("ConfigMap `payments-config`"),
        "{}",
        pay.via
    );
    // No code of the frontend is in the scan: the reads are assumed, and
    // each edge says so.
    assert!(
        g.edges.iter().all(|e| e
            .via
            .ends_with("read assumed, no code of `frontend` in the scan")),
        "{:?}",
        g.edges.iter().map(|e| &e.via).collect::<Vec<_>>()
    );
    assert!(s.stats.unresolved.is_empty(), "{:?}", s.stats.unresolved);
}

/// Gradle test source sets other than `src/test` (`src/component-test`,
/// `src/integration-test`) are test code, and `buildSrc` (build logic) is
/// no service (both seen wrong on ftgo-application).
#[test]
fn gradle_test_source_sets_and_build_logic_are_not_services() {
    let s = scan("testdata/graph/gradle-build-logic", &Settings::default());
    // Two test source sets and buildSrc's one file.
    assert_eq!(s.stats.test_files, 3);
    assert!(s.stats.unresolved.is_empty(), "{:?}", s.stats.unresolved);
    let e = edges(&s);
    assert!(
        e.contains(&"OrderService.java: payments:8080".to_string()),
        "{e:?}"
    );
    for not in ["orders-under-test", "payments-stub"] {
        assert!(e.iter().all(|e| !e.contains(not)), "{e:?}");
    }
    let g = retrylint::graph::build(&s.files, &Settings::default());
    assert_eq!(services(&g), ["orders", "payments"]);
    assert_eq!(g.edges.len(), 1);
    assert!(g.notes.is_empty(), "{:?}", g.notes.len());
}

/// A build unit whose configuration names the application is that
/// application: one node for the pom's artifactId and
/// `spring.application.name` (petclinic's api-gateway and genai-service
/// were split in two).
#[test]
fn a_build_unit_is_the_application_its_configuration_names() {
    let s = scan("testdata/graph/unit-app-name", &Settings::default());
    let g = retrylint::graph::build(&s.files, &Settings::default());
    assert_eq!(
        services(&g),
        ["couriers", "gateway", "orders", "payments", "shop-delivery"]
    );
    let mut pairs: Vec<(String, String)> = g
        .edges
        .iter()
        .map(|e| {
            (
                g.services[e.from].name.clone(),
                g.services[e.to].name.clone(),
            )
        })
        .collect();
    pairs.sort();
    assert_eq!(
        pairs,
        [
            ("gateway".to_string(), "orders".to_string()),
            ("gateway".to_string(), "payments".to_string()),
            // Deployed as `shop-delivery`, whatever its properties say.
            ("shop-delivery".to_string(), "couriers".to_string())
        ]
    );
}

/// A Spring Cloud Config server's native search location serves
/// `application.yml` to every client and `<name>[-<profile>].yml` to the
/// client of that `spring.application.name` (bootstrap.yml read), above
/// the client's own files (piggymetrics' `rates.url` was unresolved).
#[test]
fn a_config_servers_shared_files_resolve_its_clients_placeholders() {
    let s = scan("testdata/graph/config-server-shared", &Settings::default());
    let mut got: Vec<String> = s
        .files
        .iter()
        .flat_map(|f| {
            let path = f.source.display_path();
            let name = path.rsplit('/').next().unwrap_or("").to_string();
            f.facts
                .edges
                .iter()
                .map(move |e| format!("{name}: {}", e.callee))
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            "AccountClients.java: audit:9000",
            "AuditClient.java: audit:9000",
            "ExchangeRatesClient.java: api.exchangeratesapi.io",
            "ExchangeRatesClient.java: rates-mock:8080",
            // account-service's `spring.config.import` (no retry: one call).
            "application.yml: config",
            "application.yml: rabbitmq",
            "bootstrap.yml: config",
        ]
    );
    let rates = s
        .files
        .iter()
        .flat_map(|f| &f.facts.edges)
        .find(|e| e.callee == "rates-mock:8080")
        .unwrap();
    assert!(
        rates.via.contains("profile `docker`")
            && rates.via.contains("shared/statistics-service-docker.yml"),
        "{}",
        rates.via
    );
    let unresolved: Vec<(&str, Option<&str>)> = s
        .stats
        .unresolved
        .iter()
        .map(|(_, w, c)| (w.as_str(), c.as_deref()))
        .collect();
    assert_eq!(unresolved, [("${rates.url}", Some("account-service"))]);
}

/// A ConfigMap handed whole (`envFrom`) gives a call only for the keys the
/// caller's code reads (seen wrong on bank-of-anthos: the ledger writer is
/// handed five addresses and reads one).
#[test]
fn env_from_keys_are_calls_only_where_the_code_reads_them() {
    let s = scan("testdata/graph/envfrom-code-reads", &Settings::default());
    let g = retrylint::graph::build(&s.files, &Settings::default());
    let mut pairs: Vec<String> = g
        .edges
        .iter()
        .map(|e| format!("{} -> {}", g.services[e.from].name, g.services[e.to].name))
        .collect();
    pairs.sort();
    assert_eq!(
        pairs,
        [
            "contacts -> accounts-db",
            "frontend -> contacts",
            "frontend -> metadata.google.internal",
            "frontend -> userservice",
            "ledgerwriter -> balancereader",
            "ledgerwriter -> ledger-db",
        ]
    );
    let assumed: Vec<&str> = g
        .edges
        .iter()
        .filter(|e| e.via.contains("read assumed"))
        .map(|e| g.services[e.from].name.as_str())
        .collect();
    assert_eq!(assumed, ["contacts"]);
    let mut notes: Vec<&str> = g
        .notes
        .iter()
        .filter_map(|n| n.message.split('`').nth(3))
        .collect();
    notes.sort();
    // The frontend's `BALANCES_API_ADDR` twice: from the ConfigMap and
    // from the compose `env_file`.
    assert_eq!(
        notes,
        [
            "BALANCES_API_ADDR",
            "BALANCES_API_ADDR",
            "CONTACTS_API_ADDR",
            "USERSERVICE_API_ADDR"
        ]
    );
}

/// An IP address names a service only where a manifest gives it to one
/// (a Service's `clusterIP`, a compose `ipv4_address`); others give no
/// edge and no service.
#[test]
fn ip_addresses_join_the_service_a_manifest_gives_them_to() {
    let s = scan("testdata/graph/ip-addresses", &Settings::default());
    let g = retrylint::graph::build(&s.files, &Settings::default());
    let mut pairs: Vec<String> = g
        .edges
        .iter()
        .map(|e| format!("{} -> {}", g.services[e.from].name, g.services[e.to].name))
        .collect();
    pairs.sort();
    assert_eq!(pairs, ["frontend -> ledger", "web -> orders"]);
    assert!(
        g.services
            .iter()
            .all(|s| retrylint::model::calls::ip_literal(&s.name).is_none()),
        "{:?}",
        g.services.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    // The same addresses written in Java and Rust code: each call is on
    // its edge (shown there, or as another place of it).
    let mut shown: Vec<String> = g
        .edges
        .iter()
        .flat_map(|e| std::iter::once(e.proof).chain(e.also.iter().copied()))
        .map(|l| {
            let f = &s.files[l.file];
            let line = f.source.text[..l.span.start].matches('\n').count() + 1;
            format!("{}:{line}", f.source.display_path())
        })
        .filter(|p| p.contains(".rs:") || p.contains(".java:"))
        .collect();
    shown.sort();
    assert_eq!(
        shown,
        [
            "testdata/graph/ip-addresses/frontend/src/main/java/shop/frontend/LedgerClient.java:9",
            "testdata/graph/ip-addresses/web/src/main.rs:2",
        ]
    );
}

/// Stop 50 (testdata/graph/data-urls/README.md): a public site's URL in
/// a profile's field, a map entry or beside prose is data, not a call.
#[test]
fn a_public_url_written_as_data_is_no_edge() {
    let s = scan("testdata/graph/data-urls", &Settings::default());
    assert_eq!(edges(&s), ["AuthorResource.java: books:8080"]);
}
