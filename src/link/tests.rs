use super::nginx::is_file_or_link;
use super::*;

#[test]
fn manifests_outside_the_roots_are_not_read() {
    let roots = [PathBuf::from("services/payments/src")];
    assert!(!inside(Path::new("services/payments/Cargo.toml"), &roots));
    let roots = [PathBuf::from("./services")];
    assert!(inside(Path::new("services/payments/Cargo.toml"), &roots));
    let roots = [PathBuf::from(".")];
    assert!(inside(Path::new("x/Cargo.toml"), &roots));
    let roots = [PathBuf::from("a")];
    assert!(!inside(Path::new("a/../b/Cargo.toml"), &roots));
}

fn nginx_file(path: &str, text: &str) -> ScannedFile {
    let mut facts = crate::model::Facts::default();
    crate::systems::nginx::extract::extract(text, &mut facts);
    ScannedFile {
        source: crate::source::SourceFile::new(path, text.to_string()),
        facts,
        syntax: Some(crate::model::Syntax::Nginx),
    }
}

fn java_file(path: &str, text: &str) -> ScannedFile {
    let mut facts = crate::model::Facts::default();
    crate::systems::java::extract::extract(text, &mut facts);
    ScannedFile {
        source: crate::source::SourceFile::new(path, text.to_string()),
        facts,
        syntax: Some(crate::model::Syntax::Java),
    }
}

#[test]
fn a_custom_retry_annotation_is_a_retry_where_it_is_used() {
    use crate::model::{AttemptCount, Provenance};
    let decl = "import org.springframework.retry.annotation.*;\n@Retryable(maxAttempts = 4, backoff = @Backoff(delay = 500, multiplier = 2))\npublic @interface RetryOnIo {}\n";
    let other = "import org.springframework.retry.annotation.*;\n@Retryable(maxAttempts = 2)\npublic @interface RetryOnIo {}\n";
    let user = "class C {\n  @RetryOnIo R a() { String idempotencyKey = UUID.randomUUID().toString(); return api.a(idempotencyKey); }\n  @RetryOnIo R b() { return api.b(); }\n  @Unrelated R c() { return api.c(); }\n}\n";
    let mut files = vec![
        java_file("svc/retry/RetryOnIo.java", decl),
        java_file("other/RetryOnIo.java", other),
        java_file("svc/api/C.java", user),
    ];
    java_retry_annotations(&mut files);
    // The nearest declaration wins; each use is a policy of its file,
    // at the annotation, with the key its method mints.
    let uses = &files[2].facts.policies;
    assert_eq!(uses.len(), 2, "{uses:#?}");
    assert_eq!(uses[0].name.as_deref(), Some("a"));
    assert_eq!(uses[0].use_of.as_deref(), Some("@RetryOnIo"));
    assert_eq!(uses[0].attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(uses[0].attempts.provenance, Provenance::Inherited);
    assert_eq!(&user[uses[0].span.start..uses[0].span.end], "@RetryOnIo");
    assert_eq!(uses[0].settings_from, ["svc/retry/RetryOnIo.java:2"]);
    assert_eq!(uses[0].idempotency.len(), 1);
    assert!(uses[1].idempotency.is_empty());
    // Two declarations equally near: no use is placed.
    let mut files = vec![
        java_file("a/RetryOnIo.java", decl),
        java_file("b/RetryOnIo.java", other),
        java_file("c/C.java", user),
    ];
    java_retry_annotations(&mut files);
    assert!(files[2].facts.policies.is_empty());
    // An import names the annotation: the declaration in that package,
    // however far, not a nearer one of the same name elsewhere.
    let a = format!("package com.a;\n{decl}");
    let b = format!("package com.b;\n{other}");
    let user = "package com.a.api;\nimport com.b.RetryOnIo;\nclass C {\n  @RetryOnIo R a() { return api.a(); }\n}\n";
    let mut files = vec![
        java_file("svc/com/a/RetryOnIo.java", &a),
        java_file("lib/com/b/RetryOnIo.java", &b),
        java_file("svc/com/a/api/C.java", user),
    ];
    java_retry_annotations(&mut files);
    let uses = &files[2].facts.policies;
    assert_eq!(uses.len(), 1);
    assert_eq!(uses[0].attempts.value.count, AttemptCount::Finite(2));
}

#[test]
fn a_snippet_hands_on_the_settings_of_the_snippets_it_includes() {
    use crate::model::AttemptCount;
    let main = "http {\n  upstream pay { server 10.0.0.1; server 10.0.0.2; server 10.0.0.3; }\n  server {\n    location /a { include snippets/outer.conf; proxy_pass http://pay; }\n  }\n}\n";
    let outer = "proxy_read_timeout 2s;\ninclude snippets/inner.conf;\n";
    let inner = "proxy_next_upstream error timeout;\nproxy_next_upstream_tries 2;\ninclude snippets/outer.conf;\n";
    let mut files = vec![
        nginx_file("n/nginx.conf", main),
        nginx_file("n/snippets/outer.conf", outer),
        nginx_file("n/snippets/inner.conf", inner),
    ];
    nginx_includes(&mut files, &[PathBuf::from("n")]);
    let a = files[0]
        .facts
        .policies
        .iter()
        .find(|p| p.scope.route.as_deref() == Some("location /a"))
        .unwrap();
    // The inner snippet's tries reach the location through the outer
    // one; the cycle back to outer.conf hands on nothing more.
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(2));
    assert!(
        a.settings_from
            .iter()
            .any(|s| s.path.starts_with("n/snippets/inner.conf")),
        "{:?}",
        a.settings_from
    );
    assert!(
        a.settings_from
            .iter()
            .any(|s| s.path.starts_with("n/snippets/outer.conf"))
    );
}

#[test]
fn an_included_file_inherits_the_settings_in_force_at_its_include() {
    use crate::model::{AttemptCount, Methods, Provenance, Timeout};
    let main = "http {\n  upstream pay { server 10.0.0.1; server 10.0.0.2; server 10.0.0.3; }\n  proxy_next_upstream error timeout non_idempotent;\n  proxy_next_upstream_tries 0;\n  include conf.d/*.conf;\n  proxy_read_timeout 5s;\n}\n";
    let site = "server {\n  location /a { proxy_pass http://pay; }\n  location /b { proxy_next_upstream error; proxy_read_timeout 1s; proxy_pass http://pay; }\n  include snippets/c.conf;\n}\n";
    let snippet = "location /c { proxy_next_upstream_tries 2; proxy_pass http://pay; }\n";
    let mut files = vec![
        nginx_file("n/conf.d/site.conf", site),
        nginx_file("n/nginx.conf", main),
        nginx_file("n/snippets/c.conf", snippet),
    ];
    nginx_includes(&mut files, &[PathBuf::from("n")]);
    let policy = |f: usize, route: &str| {
        files[f]
            .facts
            .policies
            .iter()
            .find(|p| p.scope.route.as_deref() == Some(route))
            .unwrap()
            .clone()
    };
    // Every setting from nginx.conf, wherever it is written there; the
    // upstream's three servers bound `tries 0`.
    let a = policy(0, "location /a");
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(a.attempts.provenance, Provenance::Included);
    assert!(matches!(a.methods.value, Methods::Set(_)));
    assert_eq!(
        a.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(std::time::Duration::from_secs(65))
    );
    assert_eq!(
        a.settings_from,
        ["n/nginx.conf:3", "n/nginx.conf:4", "n/nginx.conf:6"]
    );
    assert!(
        a.describe()
            .contains("with settings from `n/nginx.conf` lines 3-4, 6")
    );
    // What the site writes replaces what it inherits.
    let b = policy(0, "location /b");
    assert_eq!(b.methods.value, Methods::IdempotentOnly);
    assert_eq!(
        b.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(std::time::Duration::from_secs(61))
    );
    assert!(b.methods.is_written());
    // Two includes down, from the main file's folder.
    let c = policy(2, "location /c");
    assert_eq!(c.attempts.value.count, AttemptCount::Finite(2));
    assert!(c.attempts.is_written());
    assert!(matches!(c.methods.value, Methods::Set(_)));
    assert!(files.iter().all(|f| f.facts.diagnostics.is_empty()));
}

#[test]
fn an_upstream_of_a_sibling_file_is_seen_by_the_sites() {
    use crate::model::AttemptCount;
    // conf.d/upstreams.conf defines `pay`; conf.d/site.conf calls it.
    let main = "http {\n  include conf.d/*.conf;\n}\n";
    let ups = "upstream pay { server 10.0.0.1; server 10.0.0.2; server 10.0.0.3 down; }\n";
    let site = "server { location / { proxy_next_upstream_tries 0; proxy_pass http://pay; } }\n";
    let mut files = vec![
        nginx_file("n/conf.d/site.conf", site),
        nginx_file("n/conf.d/upstreams.conf", ups),
        nginx_file("n/nginx.conf", main),
    ];
    assert_eq!(files[1].facts.upstreams.len(), 1);
    nginx_includes(&mut files, &[PathBuf::from("n")]);
    let p = &files[0].facts.policies[0];
    // Two live servers: `tries 0` is bounded by them.
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
    assert_eq!(files[0].facts.edges[0].callee, "pay");
}

#[test]
fn a_snippet_s_settings_apply_in_the_block_that_includes_it() {
    use crate::model::{AttemptCount, Provenance};
    // A site scanned without its nginx.conf: the snippet is looked up
    // from the site's folder upwards.
    let site = "server {\n  location /a {\n    include snippets/retry.conf;\n    proxy_pass http://api;\n  }\n  location /b {\n    include snippets/retry.conf;\n    proxy_next_upstream_tries 2;\n    proxy_pass http://api;\n  }\n}\n";
    let snippet = "# Included inside a location.\nproxy_next_upstream error timeout;\nproxy_next_upstream_tries 4;\n";
    let mut files = vec![
        nginx_file("n/sites-enabled/site", site),
        nginx_file("n/snippets/retry.conf", snippet),
    ];
    assert_eq!(files[1].facts.top_level.len(), 2);
    nginx_includes(&mut files, &[PathBuf::from("n")]);
    let route = |r: &str| {
        files[0]
            .facts
            .policies
            .iter()
            .find(|p| p.scope.route.as_deref() == Some(r))
            .unwrap()
            .clone()
    };
    let a = route("location /a");
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(a.attempts.provenance, Provenance::Included);
    // At the `include` line of the site.
    assert_eq!(files[0].source.line_col(a.attempts.span.start).line, 3);
    assert_eq!(
        a.settings_from,
        ["n/snippets/retry.conf:2", "n/snippets/retry.conf:3"]
    );
    assert!(a.describe().contains("`n/snippets/retry.conf` lines 2-3"));
    // The block's own setting wins over the snippet's.
    let b = route("location /b");
    assert_eq!(b.attempts.value.count, AttemptCount::Finite(2));
    assert!(b.attempts.is_written());
    assert!(files.iter().all(|f| f.facts.diagnostics.is_empty()));
}

#[test]
fn include_cycles_end_and_each_file_is_read_again_once() {
    // a includes b, b includes a and itself: no loop, one cycle report
    // per include that comes back.
    let a = "http {\n  proxy_next_upstream_tries 7;\n  include b.conf;\n}\n";
    let b = "include a.conf;\ninclude b.conf;\nserver { location / { proxy_pass http://x; } }\n";
    let mut files = vec![nginx_file("n/a.conf", a), nginx_file("n/b.conf", b)];
    nginx_includes(&mut files, &[PathBuf::from("n")]);
    let cycles = |f: &ScannedFile| {
        f.facts
            .diagnostics
            .iter()
            .filter(|d| d.message.contains("recurses"))
            .count()
    };
    assert_eq!(cycles(&files[0]), 1);
    assert_eq!(cycles(&files[1]), 2);
    // Both files are included by another, so neither is the top of the
    // tree and nothing is inherited: the cycle is the finding.
    let p = &files[1].facts.policies[0];
    assert!(p.settings_from.is_empty());
}

#[test]
fn files_that_all_include_each_other_cost_little_and_are_reported_once() {
    // 400 files, each including all of them: 160,000 include edges.
    // Cycles are found once (components), not by a walk per edge, and
    // each file's one `include` is reported once.
    let text = "http {\n  upstream u { server 10.0.0.1; }\n  include *.conf;\n  server { location / { proxy_pass http://u; } }\n}\n";
    let mut files: Vec<ScannedFile> = (0..400)
        .map(|i| nginx_file(&format!("n/f{i:03}.conf"), text))
        .collect();
    nginx_includes(&mut files, &[PathBuf::from("n")]);
    for f in &files {
        assert_eq!(f.facts.diagnostics.len(), 1, "{:?}", f.facts.diagnostics);
        assert!(f.facts.diagnostics[0].message.contains("recurses"));
    }
}

#[test]
fn a_fragment_alone_says_nothing_of_includes_it_cannot_place() {
    let site = "server {\n  include snippets/absent.conf;\n}\n";
    let mut files = vec![nginx_file("n/conf.d/site.conf", site)];
    nginx_includes(&mut files, &[PathBuf::from("n/conf.d")]);
    assert!(files[0].facts.diagnostics.is_empty());
    // A main file's missing include is reported.
    let main = "http {\n  include absent.conf;\n}\n";
    let mut files = vec![nginx_file("n/nginx.conf", main)];
    nginx_includes(&mut files, &[PathBuf::from("n")]);
    assert_eq!(files[0].facts.diagnostics.len(), 1);
}

#[test]
fn an_ingress_takes_the_nearest_controller_configmap_and_no_ambiguous_one() {
    use crate::extract::Syntax;
    use crate::systems::extract;
    let yaml = |path: &str, text: &str| ScannedFile {
        source: crate::source::SourceFile::new(path, text.to_string()),
        facts: extract(Path::new(path), text, Syntax::Yaml),
        syntax: Some(Syntax::Yaml),
    };
    let cm = |tries: u32| {
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ingress-nginx-controller\ndata:\n  proxy-next-upstream-tries: \"{tries}\"\n"
        )
    };
    let ing = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: shop\nspec:\n  ingressClassName: nginx\n";
    let tries = |f: &ScannedFile| f.facts.policies[0].attempts.value.count;
    let mut files = vec![
        yaml("prod/controller.yaml", &cm(5)),
        yaml("dev/controller.yaml", &cm(2)),
        yaml("prod/app/ingress.yaml", ing),
        yaml("other/ingress.yaml", ing),
    ];
    ingress_configmaps(&mut files);
    assert_eq!(tries(&files[2]), crate::model::AttemptCount::Finite(5));
    assert_eq!(
        files[2].facts.policies[0].settings_from,
        ["prod/controller.yaml:6"]
    );
    // Equally far from both: which controller serves it is not known.
    assert_eq!(tries(&files[3]), crate::model::AttemptCount::Finite(3));
    assert!(files[3].facts.policies[0].attempts.is_default());
}

#[cfg(unix)]
#[test]
fn an_include_is_looked_up_without_following_links() {
    let outside = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("real.conf"), "").unwrap();
    std::os::unix::fs::symlink(outside.path(), d.join("out")).unwrap();
    assert!(is_file_or_link(d, "real.conf"));
    assert!(!is_file_or_link(d, "absent.conf"));
    // Through a link nothing is resolved: whether `out/x.conf` exists
    // (it does not) is never asked.
    assert!(is_file_or_link(d, "out/x.conf"));
    assert!(is_file_or_link(d, "out/../real.conf"));
}

fn yaml_file(path: &str, text: &str) -> ScannedFile {
    let facts = crate::systems::extract(Path::new(path), text, crate::model::Syntax::Yaml);
    ScannedFile {
        source: crate::source::SourceFile::new(path, text.to_string()),
        facts,
        syntax: Some(crate::model::Syntax::Yaml),
    }
}

/// A DestinationRule's `maxRetries` (or an Envoy cluster's `max_retries`)
/// written in another file becomes the concurrency budget of the routes
/// that send to its host, naming the file; two rules for one host leave it
/// unknown.
#[test]
fn retry_circuit_breakers_are_the_budget_of_the_routes_to_their_host() {
    use crate::model::{Budget, Provenance};
    let vs = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: catalog}\nspec:\n  hosts: [catalog]\n  http:\n  - route:\n    - destination: {host: catalog.shop.svc.cluster.local}\n    retries: {attempts: 3, retryOn: 5xx}\n";
    let dr = |n: u64| {
        format!(
            "apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {{name: catalog}}\nspec:\n  host: catalog.shop.svc.cluster.local\n  trafficPolicy:\n    connectionPool:\n      http: {{maxRetries: {n}}}\n"
        )
    };
    let mut files = vec![yaml_file("vs.yaml", vs), yaml_file("dr.yaml", &dr(10))];
    retry_limits(&mut files);
    let p = &files[0].facts.policies[0];
    let b = p.budget.as_ref().unwrap();
    assert_eq!(b.value, Budget::Concurrency { max: 10 });
    assert_eq!(b.provenance, Provenance::Included);
    assert_eq!(p.settings_from, ["dr.yaml:8"]);
    // In the same file: written, at the limit.
    let text = format!("{vs}---\n{}", dr(10));
    let mut files = vec![yaml_file("both.yaml", &text)];
    retry_limits(&mut files);
    let b = files[0].facts.policies[0].budget.clone().unwrap();
    assert!(b.is_written());
    assert_eq!(&text[b.span.start..b.span.end], "10");
    // Two rules for the host: which one applies is not known.
    let mut files = vec![
        yaml_file("vs.yaml", vs),
        yaml_file("dr.yaml", &dr(10)),
        yaml_file("dr2.yaml", &dr(20)),
    ];
    retry_limits(&mut files);
    assert!(files[0].facts.policies[0].budget.is_none());
    // An Envoy route whose cluster is declared in another file.
    let routes = "static_resources:\n  listeners:\n  - name: l\n    filter_chains:\n    - filters:\n      - name: envoy.filters.network.http_connection_manager\n        typed_config:\n          route_config:\n            virtual_hosts:\n            - name: vh\n              domains: [\"*\"]\n              routes:\n              - match: {prefix: \"/\"}\n                route:\n                  cluster: inventory\n                  retry_policy: {retry_on: 5xx, num_retries: 2}\n";
    let clusters = "static_resources:\n  clusters:\n  - name: inventory\n    connect_timeout: 1s\n    circuit_breakers:\n      thresholds:\n      - max_retries: 64\n";
    let mut files = vec![
        yaml_file("routes.yaml", routes),
        yaml_file("clusters.yaml", clusters),
    ];
    assert!(files[0].facts.policies[0].budget.is_none());
    retry_limits(&mut files);
    let p = &files[0].facts.policies[0];
    assert_eq!(
        p.budget.as_ref().unwrap().value,
        Budget::Concurrency { max: 64 }
    );
    assert_eq!(p.settings_from, ["clusters.yaml:7"]);
}
