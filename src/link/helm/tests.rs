use super::*;
use crate::source::SourceFile;

fn file(path: &str, text: &str) -> ScannedFile {
    let syntax = crate::systems::classify(Path::new(path), text.as_bytes());
    let facts = syntax
        .map(|s| crate::systems::extract(Path::new(path), text, s))
        .unwrap_or_default();
    ScannedFile {
        source: SourceFile::new(path, text.to_string()),
        facts,
        syntax,
    }
}

fn chart(dir: &str) -> Vec<ScannedFile> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out = Vec::new();
    for rel in [
        "Chart.yaml",
        "values.yaml",
        "values-prod.yaml",
        "values-nightly.yaml",
        "templates/virtualservice.yaml",
    ] {
        let text = std::fs::read_to_string(root.join(rel)).unwrap();
        out.push(file(&format!("{dir}/{rel}"), &text));
    }
    out
}

#[test]
fn a_template_is_read_with_its_charts_values() {
    let mut files = chart("testdata/templates/helm-chart");
    assert!(
        files.iter().all(|f| f.syntax.is_some()),
        "chart files are claimed"
    );
    helm_charts(&mut files);
    let t = &files[4];
    assert!(
        t.facts
            .diagnostics
            .iter()
            .all(|d| d.severity == Some(crate::diag::Severity::Info)),
        "{:?}",
        t.facts.diagnostics
    );
    // Two routes from values.yaml, and the prod variant's two.
    let attempts: Vec<u64> = t
        .facts
        .policies
        .iter()
        .filter_map(|p| p.attempts.value.count.finite())
        .collect();
    assert_eq!(attempts, [3, 3, 6, 6], "{:#?}", t.facts.policies);
    let p = &t.facts.policies[0];
    assert_eq!(
        t.source.slice(p.attempts.span),
        "attempts: {{ $.Values.retries.attempts | int }}"
    );
    assert!(
        p.settings_from
            .iter()
            .any(|s| *s == "testdata/templates/helm-chart/values.yaml:3"),
        "{:?}",
        p.settings_from
    );
    assert!(
        t.facts.policies[2]
            .settings_from
            .iter()
            .any(|s| *s == "testdata/templates/helm-chart/values-prod.yaml:4"),
        "{:?}",
        t.facts.policies[2].settings_from
    );
}
