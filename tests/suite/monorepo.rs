//! testdata/monorepo: the call path worked out in its README, asserted and
//! snapshotted (graph as JSON and Mermaid, findings).

use crate::common;

use retrylint::config::Settings;
use retrylint::graph;
use std::path::PathBuf;

fn scan() -> (retrylint::Scan, graph::Graph) {
    let settings = Settings::default();
    let scan = retrylint::scan(&[PathBuf::from("testdata/monorepo")], &settings).unwrap();
    let g = graph::build(&scan.files, &settings);
    (scan, g)
}

#[test]
fn the_path_multiplies_as_the_readme_works_out() {
    let (_, g) = scan();
    let hops: Vec<(String, String, u64)> = g
        .edges
        .iter()
        .map(|e| {
            (
                g.service_name(e.from).to_string(),
                g.service_name(e.to).to_string(),
                e.factor(),
            )
        })
        .collect();
    for (from, to, n) in [
        ("gateway", "orders", 9),
        ("orders", "payments", 9),
        ("payments", "ledger", 9),
        ("ledger", "aws", 3),
    ] {
        assert!(
            hops.contains(&(from.to_string(), to.to_string(), n)),
            "{from} -> {to} x{n} in {hops:?}"
        );
    }
    let paths = g.worst_paths();
    assert_eq!(paths.len(), 1, "one entry point: the gateway");
    assert_eq!(g.service_name(paths[0].entry), "gateway");
    assert_eq!(paths[0].attempts, 2187);
    let through: Vec<&str> = paths[0]
        .edges
        .iter()
        .map(|&e| g.service_name(g.edges[e].to))
        .collect();
    assert_eq!(through, ["orders", "payments", "ledger", "aws"]);
}

#[test]
fn graph_snapshots() {
    let (scan, g) = scan();
    insta::assert_snapshot!(
        "monorepo_graph_mermaid",
        retrylint::render::graph::mermaid(&g)
    );
    insta::assert_snapshot!(
        "monorepo_graph_json",
        retrylint::render::graph::json(&scan, &g)
    );
}

#[test]
fn findings_snapshot() {
    let (scan, findings) = common::run(std::path::Path::new("testdata/monorepo"), &[]);
    let concise = common::concise(&scan, &findings);
    assert!(
        concise.contains("RL401") && concise.contains("`2187`"),
        "{concise}"
    );
    insta::assert_snapshot!("monorepo_findings", concise);
}

/// A custom annotation meta-annotated with `@Retryable`, declared once and
/// used on several methods: its settings are reported once, at the
/// declaration, and only the key a use mints is reported at the use.
#[test]
fn a_custom_retry_annotation_is_judged_once_and_its_uses_for_their_keys() {
    let dir = tempfile::tempdir().unwrap();
    let retry = dir.path().join("retry");
    let api = dir.path().join("api");
    std::fs::create_dir_all(&retry).unwrap();
    std::fs::create_dir_all(&api).unwrap();
    std::fs::write(
        retry.join("RetryOnIo.java"),
        "import org.springframework.retry.annotation.*;\n@Retryable(backoff = @Backoff(delay = 500, multiplier = 2))\npublic @interface RetryOnIo {}\n",
    )
    .unwrap();
    std::fs::write(
        api.join("Client.java"),
        "class Client {\n  @RetryOnIo R a() { String idempotencyKey = UUID.randomUUID().toString(); return api.a(idempotencyKey); }\n  @RetryOnIo R b() { return api.b(); }\n}\n",
    )
    .unwrap();
    let (scan, findings) = common::run(dir.path(), &[]);
    let at: Vec<(&str, String)> = findings
        .iter()
        .map(|f| {
            let path = scan.files[f.file].source.path.to_string_lossy().to_string();
            (f.rule.code, path.rsplit('/').next().unwrap().to_string())
        })
        .collect();
    // RL102 (every error) and RL203 (no jitter) once each, at the
    // declaration; RL501 at the use that mints a key.
    assert_eq!(
        at,
        [
            ("RL501", "Client.java".to_string()),
            ("RL102", "RetryOnIo.java".to_string()),
            ("RL203", "RetryOnIo.java".to_string()),
        ],
        "{}",
        common::concise(&scan, &findings)
    );
}
