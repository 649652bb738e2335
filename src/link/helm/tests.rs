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

/// A rendered document that does not parse is reported (RL903 at `info`)
/// even where no reader would read it: istio's gateway ServiceAccount
/// templates (86c9f01, `manifests/charts/gateways/istio-ingress`) render
/// labels at the wrong indent. The workload reader's gate rejects a
/// ServiceAccount, so with the gates on the rendered stream the document
/// would be blanked before the parse and its error never seen: the
/// rendered text is read with its errors first (`extract_rendered`).
#[test]
fn a_rendered_document_that_does_not_parse_is_reported_whatever_reads_it() {
    let template = "{{ $gateway := index .Values \"gateways\" \"istio-ingressgateway\" }}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ $gateway.name }}-service-account
  namespace: {{ .Release.Namespace | quote }}
  labels:
{{ $gateway.labels | toYaml | trim | indent 4 }}
    release: {{ .Release.Name }}
    istio.io/rev: {{ .Values.revision | default \"default\" | quote }}
";
    // As in istio's chart, the gateway is not at `.Values.gateways`
    // (under `_internal_defaults_do_not_set`): its labels are unknown, and
    // the stand-in at column 0 ends the `labels` mapping.
    let values = "_internal_defaults_do_not_set:\n  gateways: {}\nrevision: \"\"\n";
    let dir = "charts/istio-ingress";
    let mut files = vec![
        file(
            &format!("{dir}/Chart.yaml"),
            "apiVersion: v2\nname: istio-ingress\nversion: 1.0.0\n",
        ),
        file(&format!("{dir}/values.yaml"), values),
        file(&format!("{dir}/templates/serviceaccount.yaml"), template),
    ];
    assert!(files[2].syntax.is_some(), "the template is scanned");
    // Read with the root-key gates, its document is left out.
    let r = helm::render(template, &values::from_yaml(&crate::yaml::parse(values), 1)).unwrap();
    let gated = crate::systems::extract(Path::new("t.yaml"), &r.text, Syntax::Yaml);
    assert!(gated.diagnostics.is_empty(), "{:?}", gated.diagnostics);
    helm_charts(&mut files);
    let d: Vec<&crate::diag::Diagnostic> = files[2]
        .facts
        .diagnostics
        .iter()
        .filter(|d| d.code == unparsable_file::CODE)
        .collect();
    assert_eq!(d.len(), 1, "{:?}", files[2].facts.diagnostics);
    assert_eq!(d[0].severity, Some(crate::diag::Severity::Info));
    assert!(
        d[0].message
            .contains("1 document did not parse once rendered"),
        "{}",
        d[0].message
    );
}
