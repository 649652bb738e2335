use super::values::{Val, from_yaml, merge};
use super::*;

fn vals(y: &str) -> Val {
    from_yaml(&crate::yaml::parse(y), 0)
}

fn out(t: &str, y: &str) -> String {
    render(t, &vals(y)).expect("renders").text
}

#[test]
fn values_defaults_quote_int_and_nindent() {
    let y = "retries:\n  attempts: 5\n  perTryTimeout: 2s\ntimeout: \"\"\n";
    assert_eq!(out("a: {{ .Values.retries.attempts }}", y), "a: 5");
    assert_eq!(
        out("a: {{ .Values.timeout | default \"10s\" }}", y),
        "a: 10s"
    );
    assert_eq!(
        out("a: {{ .Values.retries.perTryTimeout | quote }}", y),
        "a: \"2s\""
    );
    assert_eq!(out("a: {{ int .Values.retries.attempts }}", y), "a: 5");
    assert_eq!(
        out("r:\n  {{- toYaml .Values.retries | nindent 2 }}\n", y),
        "r:\n  attempts: 5\n  perTryTimeout: 2s\n"
    );
    assert_eq!(out("a: {{ .Values.missing }}", y), "a: ");
}

#[test]
fn if_with_range_take_what_the_values_enable() {
    let y = "on: true\noff: false\nroutes:\n- name: a\n  n: 1\n- name: b\n  n: 2\n";
    let t = "{{- if .Values.off }}x{{ else if .Values.on }}y{{ else }}z{{ end }}";
    assert_eq!(out(t, y).trim(), "y");
    let t = "{{ range .Values.routes }}[{{ .name }}={{ .n }}]{{ end }}";
    assert_eq!(out(t, y), "[a=1][b=2]");
    let t = "{{ range $i, $r := .Values.routes }}{{ $i }}{{ $r.name }}{{ $.Values.on }} {{ end }}";
    assert_eq!(out(t, y), "0atrue 1btrue ");
    let t = "{{ with .Values.routes }}{{ len . }}{{ else }}none{{ end }}";
    assert_eq!(out(t, y), "2");
    let t = "{{ $r := index .Values \"routes\" 1 }}{{ $r.name }} {{ lookup \"v1\" }}";
    assert_eq!(out(t, y), format!("b {OPAQUE}"));
    let t = "{{ with .Values.nothing }}some{{ else }}none{{ end }}";
    assert_eq!(out(t, y), "none");
}

/// bitnami/charts (5165628ae0) writes a helper's block of labels after
/// the key on the key's line, then more labels under it: the stand-in
/// is a comment on a line of its own at the block's indent, so the
/// document still parses as `labels:` holding the labels after it.
#[test]
fn a_helper_block_after_its_key_leaves_the_mapping_whole() {
    let t = "metadata:\n  labels: {{- include \"common.labels.standard\" ( dict \"context\" $ ) | nindent 4 }}\n    app.kubernetes.io/component: worker\n";
    let r = render(t, &vals("a: 1")).unwrap();
    assert_eq!(
        r.text,
        "metadata:\n  labels:\n    # helm-unknown\n    app.kubernetes.io/component: worker\n"
    );
    let file = crate::yaml::parse(&r.text);
    assert!(file.errors.is_empty(), "{:?}", file.errors);
    let root = file.root(&file.documents[0]);
    assert_eq!(
        root.path(&["metadata", "labels", "app.kubernetes.io/component"])
            .and_then(|v| v.as_str()),
        Some("worker")
    );
}

#[test]
fn helpers_are_opaque_and_defines_are_left_out() {
    let t = "{{- define \"x.labels\" }}app: x{{ end }}\nmetadata:\n  name: {{ include \"x.name\" . }}\n  labels:\n    {{- include \"x.labels\" . | nindent 4 }}\n";
    let r = render(t, &vals("a: 1")).unwrap();
    assert_eq!(
        r.text,
        "\nmetadata:\n  name: helm-unknown\n  labels:\n    # helm-unknown\n"
    );
    assert_eq!(r.unknown.len(), 2);
}

#[test]
fn spans_map_back_to_the_template_and_name_the_values_line() {
    let y = "attempts: 7\n";
    let t = "x: 1\nattempts: {{ .Values.attempts }}\ny: 2\n";
    let r = render(t, &vals(y)).unwrap();
    let at = r.text.find('7').unwrap();
    let s = Span::new(at, at + 1);
    assert_eq!(r.map(s), Span::new(15, 15 + "{{ .Values.attempts }}".len()));
    let after = r.text.find("y: 2").unwrap();
    assert_eq!(
        r.map(Span::new(after, after + 4)),
        Span::new(t.find("y: 2").unwrap(), t.find("y: 2").unwrap() + 4)
    );
    let o = r.origins(s);
    assert_eq!(o.len(), 1);
    assert_eq!(&y[o[0].1.start..o[0].1.end], "7");
}

#[test]
fn a_variant_is_merged_over_the_defaults() {
    let base = vals("r:\n  attempts: 2\n  timeout: 1s\n");
    let prod = from_yaml(&crate::yaml::parse("r:\n  attempts: 9\n"), 1);
    let m = merge(&base, &prod);
    let r = render("{{ .Values.r.attempts }} {{ .Values.r.timeout }}", &m).unwrap();
    assert_eq!(r.text, "9 1s");
    assert_eq!(r.origins(Span::new(0, 1))[0].0, 1);
    assert_eq!(r.origins(Span::new(2, 4))[0].0, 0);
}

#[test]
fn shapes_not_followed_are_refused_and_limits_hold() {
    assert!(render("{{ if .Values.a }}x", &vals("a: 1")).is_none());
    assert!(render("{{ end }}", &vals("a: 1")).is_none());
    // A range over a range over a long list stays bounded.
    let list: String = (0..3000).map(|i| format!("- {i}\n")).collect();
    let y = format!("l:\n{list}");
    let t = "{{ range .Values.l }}{{ range $.Values.l }}xxxxxxxxxxxxxxxxxxxx{{ end }}{{ end }}";
    assert!(render(t, &vals(&y)).is_none());
}

/// An inline `if`/`else` trimmed on both sides, as
/// prometheus-community/helm-charts' blackbox exporter writes its
/// ConfigMap's `data:` key (`{{ if .Values.secretConfig -}} stringData:
/// {{- else -}} data: {{- end }}`): the branch taken, its spaces trimmed.
#[test]
fn inline_if_else_trimmed_on_both_sides() {
    let y = "on: true\noff: false\n";
    let t = "{{ if .Values.off -}} stringData: {{- else -}} data: {{- end }}\n  k: v\n";
    assert_eq!(out(t, y), "data:\n  k: v\n");
    let t = "kind: {{ if .Values.on -}} Secret {{- else -}} ConfigMap {{- end }}\n";
    assert_eq!(out(t, y), "kind: Secret\n");
}

/// An unknown value after a left trim keeps a space before it, as Helm's
/// output of such a helper does (linkerd2's `- {{- include
/// "partials.proxy" $tree | indent 8 | trimPrefix (repeat 7 " ") }}`): the
/// list item stays a list item.
#[test]
fn an_unknown_value_after_a_left_trim_keeps_its_space() {
    let t = "containers:\n- {{- include \"partials.proxy\" . | indent 8 }}\n";
    assert_eq!(out(t, "a: 1"), format!("containers:\n- {OPAQUE}\n"));
}

/// Go's lexer ends a keyword at the first character that is no letter,
/// digit or `_`: `{{- with.Values.x }}` is `with` over `.Values.x`, as
/// Helm reads it (prometheus-community/helm-charts writes it so); other
/// words still end at whitespace.
#[test]
fn a_keyword_ends_where_go_ends_an_identifier() {
    assert_eq!(super::keyword("with.Values.x"), ("with", ".Values.x"));
    assert_eq!(super::keyword("if(eq .a 1)"), ("if", "(eq .a 1)"));
    assert_eq!(super::keyword("else if .a"), ("else", "if .a"));
    assert_eq!(super::keyword("end"), ("end", ""));
    assert_eq!(super::keyword("endpoint .x"), ("endpoint", ".x"));
    assert_eq!(super::keyword(".Values.a"), (".Values.a", ""));
    assert_eq!(super::keyword("include \"x\" ."), ("include", "\"x\" ."));
}
