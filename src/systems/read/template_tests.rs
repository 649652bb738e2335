use super::*;

fn run(text: &str) -> Facts {
    extract(Path::new("values.yaml"), text, Syntax::Yaml)
}

fn codes(f: &Facts) -> Vec<&'static str> {
    f.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

const VS: &str = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: \"{{ .Release.Name }}-ratings\"\nspec:\n  hosts: [ratings]\n  http:\n  - route:\n    - destination: {host: ratings}\n    timeout: \"{{ .Values.timeout }}\"\n    retries:\n      attempts: 3\n      perTryTimeout: 2s\n";

#[test]
fn template_values_are_not_findings_and_are_reported_once() {
    let f = run(VS);
    assert_eq!(codes(&f), ["RL903"], "{:?}", f.diagnostics);
    assert!(
        f.diagnostics[0]
            .message
            .starts_with("templated file: 1 setting is set by template expressions")
    );
    // What parses is read.
    assert_eq!(f.policies.len(), 1);
    assert_eq!(
        f.policies[0].attempts.value.count,
        crate::model::AttemptCount::Finite(4)
    );
}

#[test]
fn templates_outside_settings_cost_nothing() {
    let f = run(&VS.replace("\"{{ .Values.timeout }}\"", "5s"));
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    assert_eq!(f.policies.len(), 1);
}

#[test]
fn unparsable_templated_documents_are_one_finding() {
    let text = format!(
        "{{{{- if .Values.enabled }}}}\n{VS}    {{{{- with .Values.retries }}}}\n    {{{{ toYaml . | indent 4 }}}}\n    {{{{- end }}}}\n{{{{- end }}}}\n---\n{}",
        VS.replace("{{ .Release.Name }}", "x")
            .replace("\"{{ .Values.timeout }}\"", "1s")
    );
    let f = run(&text);
    assert_eq!(codes(&f), ["RL903"], "{:?}", f.diagnostics);
    assert!(f.diagnostics[0].message.contains("templated file"));
}

#[test]
fn hash_brace_tokens_are_templates() {
    let text = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {name: r}\nspec:\n  http:\n  - retries:\n      attempts: #{Retries}\n";
    let f = run(text);
    assert_eq!(codes(&f), ["RL903"], "{:?}", f.diagnostics);
    assert_eq!(template_regions(text).len(), 1);
}

#[test]
fn template_regions_are_found() {
    let r = template_regions("a: {{ x }}\nb: #{y}\nc: {{ unclosed");
    assert_eq!(r, vec![Span::new(3, 10), Span::new(14, 18)]);
    assert!(template_regions("a: {b: c}\n# {not}").is_empty());
}
