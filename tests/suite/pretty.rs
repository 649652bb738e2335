//! The full pretty rendering of a handful of rule fixtures, chosen to cover
//! what the renderer does: several findings in one output, labels on
//! several spans of one snippet, related locations in other files, each
//! severity's mark, help text wrapped at the width, a message wrapped over
//! lines, source lines longer than the width, and findings of one cause
//! in one file shown once with their places. Every other fixture's
//! snapshot holds its concise lines only (`tests/rules.rs`), so a change to
//! a help text or to the renderer rewrites these few snapshots.

use crate::common;

use std::path::Path;

/// (rule, fixture below `testdata/rules/RULE/err/`, what it shows)
const RENDERED: &[(&str, &str, &str)] = &[
    (
        "RL103",
        "nginx-includes",
        "two findings; related locations in other files (Advice); a wrapped message",
    ),
    (
        "RL103",
        "ingressnginx-non-idempotent.yaml",
        "several labels in one snippet; a source line longer than the width",
    ),
    (
        "RL101",
        "envoy-retriable-4xx-and-404.yaml",
        "error mark; a primary and a secondary label; help wrapped over three lines",
    ),
    (
        "RL101",
        "grpc-configmap-service-config.yaml",
        "a label far right on a long line",
    ),
    (
        "RL901",
        "ingressnginx-misspelled-and-misplaced.yaml",
        "warning mark; five findings with did-you-mean helps",
    ),
    ("RL403", "istio-no-retries-block.yaml", "info (advice) mark"),
    (
        "RL304",
        "linkerd-routes-without-timeout.yaml",
        "one cause on three routes of one file: one finding listing the other places",
    ),
    (
        "RL903",
        "rust-deep-nesting.rs",
        "a label past column 100 of a line far wider than the output",
    ),
];

#[test]
fn pretty_renderings() {
    for (code, fixture, shows) in RENDERED {
        let rel = Path::new("testdata/rules")
            .join(code)
            .join("err")
            .join(fixture);
        assert!(
            rel.exists(),
            "{} is gone: pick another fixture that {shows}",
            rel.display()
        );
        let (scan, findings) = common::run(&rel, &[code]);
        assert!(!findings.is_empty(), "{} no longer fires", rel.display());
        let pretty = common::pretty(&scan, &findings);
        insta::with_settings!({ input_file => &rel, omit_expression => true, description => *shows }, {
            insta::assert_snapshot!(format!("{code}__err__{fixture}"), pretty);
        });
    }
}
