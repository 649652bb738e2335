//! C# calls and services on the graph (issue 19, item 5): `HttpClient`
//! calls with their method and the base address of their typed or named
//! client, the handlers of the client (also from a shared project such as
//! an Aspire ServiceDefaults), `*.csproj` build units, and an Aspire
//! AppHost's services and `WithReference` edges. YARP's forwards are in
//! tests/suite/csharp_yarp.rs.

use crate::common;

use common::graph::{build, edges_via as edges};
use retrylint::config::Settings;
use retrylint::graph;
use retrylint::model::calls::Protocol;
use std::path::PathBuf;

/// The worked Aspire solution (testdata/audit/aspire-shop/README.md): both
/// HTTP calls carry the standard handler of ServiceDefaults'
/// `ConfigureHttpClientDefaults` (4 attempts), the services are the
/// AppHost's names, and the resources speak their protocols.
#[test]
fn aspire_shop_calls_carry_the_standard_handler() {
    let (_, g) = build("testdata/audit/aspire-shop");
    assert_eq!(
        edges(&g, "HttpClient."),
        [
            "basketservice -> catalogservice x4 HttpClient.PostAsJsonAsync (POST) in C#",
            "catalogservice -> basketservice x4 HttpClient.GetFromJsonAsync (GET) in C#",
        ]
    );
    let apphost = edges(&g, "WithReference");
    assert!(
        apphost.contains(
            &"basketservice -> basketcache x1 WithReference in an Aspire AppHost".to_string()
        ),
        "{apphost:?}"
    );
    let proto = |to: &str| {
        g.edges
            .iter()
            .find(|e| g.service_name(e.to) == to)
            .map(|e| e.protocol)
    };
    assert_eq!(proto("basketcache"), Some(Protocol::Redis));
    assert_eq!(proto("eventbus"), Some(Protocol::Amqp));
    // The event bus's Polly pipeline around `BasicPublish` (EventBus, a
    // library both services reference) is on both publishers' AMQP edges:
    // 1 + `RetryCount` 10 attempts.
    let publishers: Vec<String> = g
        .edges
        .iter()
        .filter(|e| g.service_name(e.to) == "eventbus")
        .map(|e| format!("{} x{}", g.service_name(e.from), e.factor()))
        .collect();
    assert_eq!(
        publishers,
        ["catalogservice x11", "basketservice x11"],
        "{publishers:?}"
    );
    assert_eq!(proto("catalogdb"), Some(Protocol::Sql));
    // The layer on each call is the ServiceDefaults handler, found through
    // the services' ProjectReference.
    for e in g.edges.iter().filter(|e| e.via.starts_with("HttpClient.")) {
        assert_eq!(e.layers.len(), 1, "{:?}", e.layers);
        assert_eq!(
            e.layers[0].per_try,
            Some(std::time::Duration::from_secs(10))
        );
    }
}

/// A typed client of a library registered by the program that references
/// it, a named client with its own handler, and a `new HttpClient()` that
/// no factory handler reaches.
#[test]
fn typed_and_named_clients_across_projects() {
    let (scan, g) = build("testdata/graph/csharp-typed-clients");
    assert_eq!(
        edges(&g, "HttpClient."),
        [
            "web -> orders x4 HttpClient.PostAsJsonAsync (POST) in C#",
            "web -> rates.example.com x1 HttpClient.GetStringAsync (GET) in C#",
            "web -> stock x2 HttpClient.GetFromJsonAsync (GET) in C#",
        ]
    );
    // The AppHost's references are the programs it runs, not libraries
    // built into it: the desktop program's call is its own (merged with
    // the AppHost's `WithReference` edge of the same pair).
    let desktop = g
        .edges
        .iter()
        .find(|e| g.service_name(e.from) == "desktop" && g.service_name(e.to) == "web")
        .expect("desktop -> web");
    assert_eq!(desktop.also.len(), 1, "{desktop:?}");
    assert!(
        g.edges
            .iter()
            .all(|e| !g.service_name(e.from).contains("AppHost")),
        "{:?}",
        edges(&g, "")
    );
    // A gRPC client registered with an `http://` address speaks gRPC, and
    // the handler of every client of the factory is on it.
    let pricing = g
        .edges
        .iter()
        .find(|e| g.service_name(e.to) == "pricing")
        .expect("web -> pricing");
    assert_eq!(pricing.protocol, Protocol::Grpc);
    assert_eq!(pricing.factor(), 4, "{pricing:?}");
    // The registrations gave way to the calls.
    assert!(
        edges(&g, "AddHttpClient").is_empty(),
        "{:?}",
        edges(&g, "AddHttpClient")
    );
    // The named client's handler is used for GETs only: no RL103 on it;
    // the handler on every client keeps every method.
    let stock = scan
        .files
        .iter()
        .flat_map(|f| f.facts.policies.iter())
        .find(|p| p.name.as_deref() == Some("AddHttpClient(\"stock\")"))
        .expect("the stock client's handler");
    assert_eq!(
        stock.methods.value,
        retrylint::model::Methods::Set(vec!["GET".into()])
    );
}

/// A standard handler bound to an appsettings section in code
/// (`AddStandardResilienceHandler(GetSection(..))`, `.Configure(GetSection(..))`)
/// takes the section's settings from the base `appsettings.json`, and is
/// judged where the section writes them.
#[test]
fn handlers_bound_to_an_appsettings_section_take_its_settings() {
    let (scan, _) = build("testdata/graph/csharp-config-section");
    let handler = |section: &str| {
        scan.files
            .iter()
            .flat_map(|f| f.facts.policies.iter())
            .find(|p| p.config_section.as_deref() == Some(section))
            .unwrap_or_else(|| panic!("the handler bound to {section}"))
    };
    let catalog = handler("HttpClients:Catalog");
    assert_eq!(
        catalog.attempts.value.count,
        retrylint::model::AttemptCount::Finite(8)
    );
    assert_eq!(
        catalog
            .per_try_timeout
            .as_ref()
            .and_then(|t| t.value.finite()),
        Some(std::time::Duration::from_secs(2))
    );
    assert_eq!(
        catalog.use_of.as_deref(),
        Some("configuration section `HttpClients:Catalog`")
    );
    assert_eq!(
        catalog.settings_from.len(),
        1,
        "{:?}",
        catalog.settings_from
    );
    assert!(
        catalog.settings_from[0]
            .path
            .ends_with("Catalog.Web/appsettings.json"),
        "{:?}",
        catalog.settings_from
    );
    let stock = handler("HttpClients:Stock");
    assert_eq!(
        stock.attempts.value.count,
        retrylint::model::AttemptCount::Finite(2)
    );
    // The section's 8 attempts are judged once, at the section (RL206).
    let settings = Settings {
        select: vec!["RL206".into()],
        ..Settings::default()
    };
    let run = retrylint::pipeline::Pipeline::new(&settings)
        .run(&[PathBuf::from("testdata/graph/csharp-config-section")])
        .expect("scan");
    let concise = retrylint::render::concise(&run.scan, &run.report.findings);
    assert_eq!(concise.lines().count(), 1, "{concise}");
    assert!(
        concise.contains("Catalog.Web/appsettings.json:"),
        "{concise}"
    );
}

/// A library's pipeline runs in every program that references it, also in
/// one none of whose own files the scan keeps (Payments: no call, no
/// retry; dotnet/eShop's Basket.API and four more publishers): the
/// scanned `*.csproj` files say who references the library. A test
/// project referencing it runs nowhere.
#[test]
fn a_shared_library_runs_in_programs_with_no_file_of_their_own() {
    let (scan, g) = build("testdata/graph/csharp-shared-library");
    let mut publishers: Vec<String> = g
        .edges
        .iter()
        .filter(|e| g.service_name(e.to) == "eventbus")
        .map(|e| format!("{} x{}", g.service_name(e.from), e.factor()))
        .collect();
    publishers.sort();
    assert_eq!(publishers, ["orders x5", "payments x5"]);
    let bus = scan
        .files
        .iter()
        .find(|f| f.source.display_path().ends_with("EventBus.cs"))
        .unwrap();
    let mut units: Vec<&str> = bus.facts.services.iter().map(|s| s.name.as_str()).collect();
    units.sort();
    assert_eq!(units, ["Mart_Orders", "Mart_Payments"]);
}

/// StackExchange.Redis's `ConnectRetry` repeats the connect, not the
/// calls: it is on no call edge, also not on the one plain `HttpClient`
/// call of its file (the file's sole retry policy would otherwise be
/// taken as that call's).
#[test]
fn a_redis_connect_retry_is_not_a_call_layer() {
    let (scan, g) = build("testdata/graph/csharp-redis-connect");
    let calls = edges(&g, "HttpClient.");
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert!(calls[0].contains("-> catalog x1"), "{calls:?}");
    let redis: usize = scan
        .files
        .iter()
        .flat_map(|f| &f.facts.policies)
        .filter(|p| p.kind == retrylint::model::PolicyKind::Connect)
        .count();
    assert_eq!(redis, 1);
}

/// `ConfigureAll<HttpStandardResilienceOptions>(..)` in the one program
/// that runs the service defaults reaches the defaults' handler (another
/// project's file): it takes the options' `DisableForUnsafeHttpMethods()`
/// and names the file its settings come from.
#[test]
fn configure_all_in_the_program_reaches_the_defaults_handler() {
    let (scan, _) = build("testdata/rules/RL103/ok/csharp-configure-all-in-the-service");
    let handler = scan
        .files
        .iter()
        .flat_map(|f| f.facts.policies.iter())
        .find(|p| p.name.as_deref() == Some("ConfigureHttpClientDefaults"))
        .expect("the defaults' handler");
    assert_eq!(
        handler.methods.value,
        retrylint::model::Methods::Set(vec![
            "GET".into(),
            "HEAD".into(),
            "OPTIONS".into(),
            "TRACE".into()
        ])
    );
    assert_eq!(
        handler.methods.provenance,
        retrylint::model::Provenance::Included
    );
    assert!(
        handler
            .settings_from
            .iter()
            .any(|s| s.path.ends_with("Shop.Api/Program.cs")),
        "{:?}",
        handler.settings_from
    );
}

/// A call left unresolved in a library (its address passed in by the
/// caller) is made by the programs that reference the library, never by
/// the library itself (ivaylo-botusharov/UsaCensus named its
/// `UsaCensus_Infrastructure` as the caller): the library's files take
/// the programs' units before calls are given their caller.
#[test]
fn a_library_call_is_not_made_by_the_library() {
    let (scan, _) = build("testdata/graph/csharp-library-call-unresolved");
    let calls: Vec<Option<String>> = scan
        .files
        .iter()
        .flat_map(|f| f.facts.unresolved.iter())
        .map(|u| u.caller.clone())
        .collect();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert!(
        calls[0]
            .as_deref()
            .is_none_or(|c| !c.to_ascii_lowercase().contains("http")),
        "{calls:?}"
    );
}

/// A handler of service defaults that two programs run, with options in
/// one of them (`ConfigureAll` in Orders' Program.cs, one retry): Orders'
/// calls take its options (2 attempts), Catalog's keep the standard
/// handler's 4 (before, the shared file kept one policy, which the
/// options reached in neither program).
#[test]
fn options_in_one_program_reach_only_its_calls() {
    let (_, g) = build("testdata/graph/csharp-options-per-program");
    assert_eq!(
        edges(&g, "HttpClient."),
        [
            "Shop_Catalog -> inventory x4 HttpClient.GetFromJsonAsync (GET) in C#",
            "Shop_Orders -> payments x2 HttpClient.GetFromJsonAsync (GET) in C#",
        ]
    );
}

/// Azure Service Bus: Orders sends to the queues `orders-placed` and
/// (chosen at run time) `orders-urgent`, which Billing (only) receives
/// from: calls to the queues over AMQP with the sender's client retry
/// (`MaxRetries = 5`: 6 attempts), naming the receiver. The edges stay on
/// the queues: the send waits for the broker, not for Billing's work.
#[test]
fn service_bus_sends_name_the_receiving_program() {
    let (_, g) = build("testdata/graph/csharp-service-bus");
    assert_eq!(
        edges(&g, "ServiceBusSender"),
        [
            "Shop_Orders -> orders-placed x6 ServiceBusSender in C# (received by Shop_Billing)",
            "Shop_Orders -> orders-urgent x6 ServiceBusSender in C# (received by Shop_Billing)",
        ]
    );
    let e = g
        .edges
        .iter()
        .find(|e| e.via.starts_with("ServiceBusSender"))
        .unwrap();
    assert_eq!(e.protocol, Protocol::Amqp);
}

/// A program another program references as a project (duncan-G/ThePlot's
/// gRPC server and its content-generation worker): a class of the
/// referenced program that the referencing one uses runs in both, the
/// referenced program's own start-up in itself only.
#[test]
fn a_referenced_programs_class_runs_in_the_program_that_uses_it() {
    let (_, g) = build("testdata/graph/csharp-program-referenced");
    assert_eq!(
        edges(&g, "ServiceBusSender"),
        [
            "Shop_Api -> work-items x4 ServiceBusSender in C# (received by Shop_Worker)",
            "Shop_Worker -> work-items x4 ServiceBusSender in C#",
        ]
    );
    assert_eq!(
        edges(&g, "HttpClient."),
        ["Shop_Worker -> status-board x1 HttpClient.GetStringAsync (GET) in C#"]
    );
}

/// testdata/graph/csharp-program-referenced copied to a temporary folder,
/// the API's `Program.cs` replaced by `api` and `extra` files added.
fn referenced_copy(api: &str, extra: &[(&str, &str)]) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let from = PathBuf::from("testdata/graph/csharp-program-referenced");
    for p in ["Shop.Worker/WorkPublisher.cs", "Shop.Worker/Program.cs"]
        .iter()
        .chain(&["Shop.Worker/Shop.Worker.csproj", "Shop.Api/Shop.Api.csproj"])
    {
        let to = t.path().join(p);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from.join(p), to).unwrap();
    }
    for (p, text) in std::iter::once(&("Shop.Api/Program.cs", api)).chain(extra) {
        let to = t.path().join(p);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, text).unwrap();
    }
    t
}

fn sends(root: &std::path::Path, settings: &Settings) -> Vec<String> {
    let scan = retrylint::scan(&[root.to_path_buf()], settings).unwrap();
    let g = graph::build(&scan.files, settings);
    edges(&g, "ServiceBusSender")
}

const WORKER_ONLY: &str = "Shop_Worker -> work-items x4 ServiceBusSender in C#";

/// A referencing program's source the walk left out (`.gitignore`,
/// `--exclude`) is not read: the link step used to walk the program's
/// folder on disk itself and found the type there.
#[test]
fn a_referencing_programs_ignored_source_is_not_read() {
    let api = "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n";
    let uses = "class Queue(Shop.Worker.WorkPublisher p) { }\n";
    let t = referenced_copy(
        api,
        &[
            ("Shop.Api/Generated/Uses.cs", uses),
            ("Shop.Api/.gitignore", "Generated/\n"),
        ],
    );
    assert_eq!(sends(t.path(), &Settings::default()), [WORKER_ONLY]);
    // Not ignored, the same file is a use.
    std::fs::remove_file(t.path().join("Shop.Api/.gitignore")).unwrap();
    assert_eq!(sends(t.path(), &Settings::default()).len(), 2);
    let excluded = Settings {
        exclude: vec!["**/Generated/**".into()],
        ..Settings::default()
    };
    assert_eq!(sends(t.path(), &excluded), [WORKER_ONLY]);
}

/// A type named only in a comment or a string of the referencing program
/// is not a use of it.
#[test]
fn a_type_named_in_a_comment_or_string_is_not_used() {
    let api = "// the worker's WorkPublisher is not used here\n\
               var app = WebApplication.CreateBuilder(args).Build();\n\
               app.MapGet(\"/\", () => \"WorkPublisher\");\napp.Run();\n";
    let t = referenced_copy(api, &[]);
    assert_eq!(sends(t.path(), &Settings::default()), [WORKER_ONLY]);
}

/// .NET Aspire's EF Core integrations retry by default (dotnet/aspire
/// 251ff03: `EnableRetryOnFailure()` unless `DisableRetry`): the AppHost's
/// `WithReference` of the database takes the retry of the `DbContext` the
/// service opens on it by connection name; a retry turned off is none, an
/// options action's own `EnableRetryOnFailure(3)` wins; the handler on
/// every HTTP client is no layer of a database or broker call.
#[test]
fn aspire_db_contexts_retry_their_databases() {
    let (_, g) = build("testdata/graph/csharp-aspire-dbcontext");
    assert_eq!(
        edges(&g, "WithReference"),
        [
            "billing -> billingdb x1 WithReference in an Aspire AppHost",
            "billing -> bus x1 WithReference in an Aspire AppHost",
            "orders -> ordersdb x7 WithReference in an Aspire AppHost",
            "stock -> stockdb x4 WithReference in an Aspire AppHost",
        ]
    );
}

/// A queue named by another class's constant: of a library's file that
/// says nothing else (`Queues.Refunds`, read through the walk), or of
/// another file of the program (`InvoicePublisher.QueueName`, ThePlot's
/// shape); one found nowhere is no edge.
#[test]
fn service_bus_queues_named_by_other_classes_constants() {
    let (scan, g) = build("testdata/graph/csharp-service-bus-constants");
    assert_eq!(
        edges(&g, "ServiceBusSender"),
        [
            "Shop_Billing -> invoices x4 ServiceBusSender in C#",
            "Shop_Orders -> refunds x4 ServiceBusSender in C# (received by Shop_Billing)",
        ]
    );
    let unresolved: Vec<&str> = scan
        .files
        .iter()
        .flat_map(|f| &f.facts.unresolved)
        .map(|u| u.written.as_str())
        .collect();
    assert_eq!(
        unresolved,
        ["ServiceBusSender in C# to `Vendor.AuditQueue`"]
    );
}

/// The link step reads no C# file (issue 19): what it needs of a file
/// the scan did not keep (the types it names, the string constants it
/// declares) is a fact of its reading. Each file not kept is removed
/// between the reading and the link: the referenced program's class is
/// still found used, and the queue still named by the library's
/// constant.
#[test]
fn the_link_step_reads_no_csharp_file() {
    let uses = "class Queue(Shop.Worker.WorkPublisher p) { }\n";
    let api = "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n";
    let referenced = referenced_copy(api, &[("Shop.Api/Uses.cs", uses)]);
    let bus = tempfile::tempdir().unwrap();
    let from = PathBuf::from("testdata/graph/csharp-service-bus-constants");
    for e in walkdir(&from) {
        let to = bus.path().join(e.strip_prefix(&from).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&e, to).unwrap();
    }
    let settings = Settings::default();
    // The edges, with the files the scan did not keep removed before the
    // link step when `remove`: which ones.
    let linked = |root: &std::path::Path, remove: bool| {
        let roots = [root.to_path_buf()];
        let pipeline = retrylint::pipeline::Pipeline::new(&settings);
        let mut scan = pipeline.scan_unlinked(&roots).unwrap();
        let mut removed = Vec::new();
        if remove {
            let kept: Vec<PathBuf> = scan
                .files
                .iter()
                .map(|f| std::fs::canonicalize(root.join(&f.source.path)).unwrap_or_default())
                .collect();
            for e in walkdir(root) {
                if e.extension().is_some_and(|x| x == "cs")
                    && !kept.contains(&std::fs::canonicalize(&e).unwrap())
                {
                    std::fs::remove_file(&e).unwrap();
                    removed.push(e.file_name().unwrap().to_string_lossy().to_string());
                }
            }
            removed.sort();
        }
        retrylint::link_read(&mut scan, &roots, &settings);
        let g = graph::build(&scan.files, &settings);
        (edges(&g, "ServiceBusSender"), removed)
    };
    let (before, _) = linked(referenced.path(), false);
    // The worker's sender runs in the API too: the API's file names it.
    assert_eq!(before.len(), 2, "{before:?}");
    assert!(
        before[0].starts_with("Shop_Api -> work-items"),
        "{before:?}"
    );
    assert_eq!(before[1], WORKER_ONLY);
    let (after, removed) = linked(referenced.path(), true);
    assert_eq!(after, before);
    assert_eq!(removed, ["Program.cs", "Uses.cs"], "not kept");
    let (before, _) = linked(bus.path(), false);
    assert_eq!(
        before,
        [
            "Shop_Billing -> invoices x4 ServiceBusSender in C#",
            "Shop_Orders -> refunds x4 ServiceBusSender in C# (received by Shop_Billing)",
        ]
    );
    let (after, removed) = linked(bus.path(), true);
    assert_eq!(after, before);
    assert_eq!(removed, ["Queues.cs"], "not kept");
}

/// Every file under `dir`, sorted.
fn walkdir(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A connection string read by name in C# is an edge to the server the
/// program's appsettings give it (the base file first, else an
/// environment's; this machine is none), with the provider call's EF
/// Core retry or Aspire's `Enrich*DbContext<T>()` of its context (an
/// Aspire `Add*DbContext<T>("name")` reads the name itself); SQLite and a name no settings file sets are no edge, and
/// are not listed as unresolved.
#[test]
fn connection_strings_read_by_name_are_edges_to_their_servers() {
    let (scan, g) = build("testdata/graph/csharp-connection-strings");
    assert_eq!(
        edges(&g, "connection string"),
        [
            "Shop_Audit -> audit-db x1 connection string `AuditDb` read in C#",
            "Shop_Billing -> billing-pg x7 connection string `BillingDb` read in C#",
            "Shop_Orders -> orders-sql x4 connection string `OrdersDb` read in C#",
            "Shop_Payments -> payments-sql x7 connection string `PaymentsDb` read in C#",
            "Shop_Stock -> stock-pg x1 connection string `Stock` read in C#",
        ]
    );
    let sql = g
        .edges
        .iter()
        .filter(|e| e.via.starts_with("connection string"))
        .all(|e| e.protocol == Protocol::Sql);
    assert!(sql);
    let unresolved: Vec<&str> = scan
        .files
        .iter()
        .flat_map(|f| &f.facts.unresolved)
        .map(|u| u.written.as_str())
        .collect();
    assert!(unresolved.is_empty(), "{unresolved:?}");
}

/// An Aspire EF Core integration's retry turned off in the service's
/// appsettings (`DisableRetry: true`, Aspire 8's `Retry: false`; the
/// integration's section or its DbContext type's) makes one attempt; a
/// developer's file or another type's section leaves EF Core's 7, as does
/// `Enrich*DbContext<T>()` of a context registered on the reference's
/// connection.
#[test]
fn aspire_db_context_retries_turned_off_in_appsettings() {
    let (_, g) = build("testdata/graph/csharp-aspire-settings");
    assert_eq!(
        edges(&g, "WithReference"),
        [
            "audit -> auditdb x7 WithReference in an Aspire AppHost",
            "billing -> billingdb x7 WithReference in an Aspire AppHost",
            "ledger -> ledgerdb x7 WithReference in an Aspire AppHost",
            "orders -> ordersdb x1 WithReference in an Aspire AppHost",
            "stock -> stockdb x1 WithReference in an Aspire AppHost",
        ]
    );
}

/// A shared library that also holds its services' test helpers
/// (references xunit's extensibility packages, Testcontainers,
/// `Mvc.Testing`) is no test project when a program references it: its
/// Polly retry is read and judged (booking-microservices' BuildingBlocks
/// gave RL102 checked alone and nothing in the whole checkout).
#[test]
fn a_library_with_test_helpers_that_a_program_references_is_read() {
    let path = common::root().join("testdata/graph/csharp-shared-test-helpers");
    let (scan, findings) = common::run(&path, &["RL102"]);
    let text = common::concise(&scan, &findings);
    assert!(text.contains("Polly/Retries.cs"), "{text}");
    // Without the program, only a test project references it: test code.
    let t = tempfile::tempdir().unwrap();
    for p in [
        "src/Blocks/Blocks.csproj",
        "src/Blocks/Polly/Retries.cs",
        "tests/Flights.Tests/Flights.Tests.csproj",
    ] {
        let to = t.path().join(p);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(path.join(p), to).unwrap();
    }
    let (scan, findings) = common::run(t.path(), &["RL102"]);
    assert_eq!(common::concise(&scan, &findings), "", "only tests use it");
}

/// Polly pipelines registered by key in Program.cs and run in the typed
/// clients' files (`GetPipeline("stock-retry")` stored in a field, a
/// `[FromKeyedServices("stock-retry")]` parameter), and two pipelines built
/// in one file: each call inside an `ExecuteAsync` delegate carries the
/// pipeline that runs it, and no other call does. The pipeline holding
/// only a timeout adds no retry.
#[test]
fn pipelines_taken_by_key_reach_the_calls_they_run() {
    let (scan, g) = build("testdata/graph/csharp-pipeline-by-key");
    assert_eq!(
        edges(&g, "HttpClient."),
        [
            "Orders_Api -> audit-api x7 HttpClient.GetStringAsync (GET) in C#",
            "Orders_Api -> inventory-api x20 HttpClient.GetFromJsonAsync (GET) in C#",
            "Orders_Api -> prices-api x5 HttpClient.GetFromJsonAsync (GET) in C#",
            "Orders_Api -> stock-api x5 HttpClient.GetFromJsonAsync (GET) in C#",
        ]
    );
    // Each call, with the policies it carries, in its file.
    let mut calls: Vec<String> = Vec::new();
    for f in &scan.files {
        let file = f.source.path.file_name().unwrap().to_string_lossy();
        for e in &f.facts.edges {
            let layers: Vec<String> = e
                .policies
                .iter()
                .map(|&i| {
                    let p = &f.facts.policies[i];
                    format!(
                        "{}{}",
                        p.name.clone().unwrap_or_default(),
                        p.use_of
                            .as_ref()
                            .map(|u| format!(" through {u}"))
                            .unwrap_or_default()
                    )
                })
                .collect();
            calls.push(format!("{file}: {} {:?}", e.via, layers));
        }
    }
    calls.sort();
    assert_eq!(
        calls,
        [
            "AuditClient.cs: HttpClient.DeleteAsync (DELETE) in C# [\"Writes\"]",
            "AuditClient.cs: HttpClient.GetStringAsync (GET) in C# [\"Reads\"]",
            "AuditClient.cs: HttpClient.PutAsync (PUT) in C# [\"Writes\"]",
            "InventoryClient.cs: HttpClient.GetFromJsonAsync (GET) in C# [\"AddResiliencePipeline(\\\"stock-retry\\\") through pipelines.GetPipeline(\\\"stock-retry\\\")\"]",
            "InventoryClient.cs: HttpClient.GetStringAsync (GET) in C# []",
            "InventoryClient.cs: HttpClient.PostAsync (POST) in C# [\"AddResiliencePipeline(\\\"stock-retry\\\") through pipelines.GetPipeline(\\\"stock-retry\\\")\"]",
            "PricesClient.cs: HttpClient.GetFromJsonAsync (GET) in C# [\"AddResiliencePipeline(\\\"stock-retry\\\") through [FromKeyedServices(\\\"stock-retry\\\")]\"]",
            "PricesClient.cs: HttpClient.GetStringAsync (GET) in C# []",
            "StockClient.cs: HttpClient.GetFromJsonAsync (GET) in C# [\"AddResiliencePipeline(\\\"stock-retry\\\") through pipelines.GetPipeline(\\\"stock-retry\\\")\"]",
            "StockClient.cs: HttpClient.PostAsync (POST) in C# []",
        ],
        "{calls:#?}"
    );
    // The uses' settings are judged once, where the pipeline is registered.
    let (scan, findings) = common::run(
        std::path::Path::new("testdata/graph/csharp-pipeline-by-key"),
        &["RL102"],
    );
    let text = common::concise(&scan, &findings);
    assert_eq!(text.matches("RL102").count(), 3, "{text}");
    assert!(
        !text.contains("StockClient.cs") && !text.contains("PricesClient.cs"),
        "{text}"
    );
}
