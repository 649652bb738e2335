use super::*;

/// Every file `classify` claims is wanted by name: checked on the
/// fixtures and the test trees, so that a new format's name rule
/// cannot be missed here.
#[test]
fn classify_never_claims_a_file_not_wanted_by_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut stack = vec![root];
    let mut claimed = 0;
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(bytes) = std::fs::read(&p)
                && classify(&p, &bytes).is_some()
            {
                claimed += 1;
                assert!(wanted_by_name(&p), "{}", p.display());
            }
        }
    }
    assert!(claimed > 100, "{claimed}");
    for (p, want) in [
        ("docs/readme.md", false),
        ("img/a.png", false),
        ("Cargo.lock", true),
        ("Cargo.toml", false),
        ("svc/pom.xml", true),
        ("gradle/libs.versions.toml", true),
        ("src/Main.java", true),
        ("src/Main.kt", false),
        ("etc/nginx/sites-enabled/default", true),
        ("etc/nginx/snippets/proxy_params", true),
        ("nginx/snippets/retry_params", true),
        ("home/.aws/config", true),
        ("ci/aws-config.ini", true),
        ("deploy/nginx.conf", true),
        ("a/appsettings.Production.json", true),
    ] {
        assert_eq!(wanted_by_name(Path::new(p)), want, "{p}");
    }
}

/// A JSON file is claimed for the readers that read JSON only: an OpenAPI
/// description that says "retry" is no Spring configuration, while a YAML
/// file with the same words still is, and a JSON Envoy or gRPC config is.
#[test]
fn json_files_are_not_claimed_for_spring_words() {
    let openapi =
        br#"{"paths": {"/points": {"post": {"description": "Retry the request on conflict"}}}}"#;
    assert_eq!(
        classify(Path::new("docs/redoc/openapi.json"), openapi),
        None
    );
    let yaml = b"spring:\n  cloud:\n    gateway:\n      default-filters:\n        - name: Retry\n";
    assert_eq!(
        classify(Path::new("config/gateway.yml"), yaml),
        Some(Syntax::Yaml)
    );
    let grpc = br#"{"methodConfig": [{"retryPolicy": {"maxAttempts": 4}}]}"#;
    assert_eq!(
        classify(Path::new("svc/retries.json"), grpc),
        Some(Syntax::Json)
    );
    let envoy = br#"{"static_resources": {"clusters": []}}"#;
    assert_eq!(classify(Path::new("envoy.json"), envoy), Some(Syntax::Json));
}

/// A `snippets/` folder of code samples is no nginx include folder: a
/// Python sample there is read as Python (googleapis/python-pubsub
/// `samples/snippets/publisher.py` was read as nginx and reported RL903),
/// while a Debian include without an extension still is nginx.
#[test]
fn code_in_snippets_folders_is_not_nginx() {
    let py = b"\"\"\"Publish.\"\"\"\nimport time\n\ndef publish(client):\n    future = client.publish(topic, data);\n    time.sleep(1)\n    proxy_pass = 'x'\n";
    assert_eq!(
        classify(Path::new("samples/snippets/publisher.py"), py),
        Some(Syntax::Python)
    );
    let include = b"proxy_next_upstream error timeout;\nproxy_pass http://app;\n";
    assert_eq!(
        classify(Path::new("etc/nginx/snippets/proxy_params"), include),
        Some(Syntax::Nginx)
    );
}

/// The one automaton for `.rs` files claims what the Rust reader's and
/// the call lexer's sniffs claimed, one or the other.
#[test]
fn a_rust_file_is_claimed_for_either_readers_words() {
    let p = Path::new("svc/src/lib.rs");
    for text in [
        "fn f() { std::thread::sleep(d) }",
        "fn f() { let u = \"http://orders:8080\"; }",
        "fn f() { reqwest::get(u) }",
        "fn f() {}\n#[cfg(test)]\nmod tests;\n",
        "fn f() { println!(\"hi\") }",
        "",
    ] {
        let b = text.as_bytes();
        let before = (rust::wants(b) || calls::wants(b)).then_some(Syntax::Rust);
        assert_eq!(classify(p, b), before, "{text}");
    }
    assert_eq!(classify(p, b"fn f() {}"), None);
}
