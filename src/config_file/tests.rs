use super::*;

fn parse_str(text: &str) -> Result<Settings, ConfigError> {
    let mut s = Settings::default();
    parse(text, ".retrylint.toml", &mut s)?;
    Ok(s)
}

#[test]
fn a_full_file_is_read_into_the_types() {
    let s = parse_str(
        r#"
select = ["RL2", "RL9"]
ignore = ["RL206"]
exclude = ["vendor/**"]
max-file-size = 1_000
mesh = "istio"
entry-points = ["gateway"]

[severity]
unjittered-backoff = "error"

[thresholds]
max-attempts = 4
amplification = 20

[[overrides]]
paths = ["legacy/**"]
ignore = ["RL203"]
severity = { RL206 = "info" }

[[per-file-ignores]]
paths = ["*.json"]
codes = ["RL203"]
reason = "generated"

[[services]]
name = "orders"
paths = ["services/orders/**"]
aliases = ["orders.prod.svc.cluster.local"]

[[edges]]
from = "gateway"
to = "orders"
via = "nginx"
"#,
    )
    .unwrap();
    assert_eq!(s.select, ["RL2", "RL9"]);
    assert_eq!(s.ignore, ["RL206"]);
    assert_eq!(s.max_file_size, 1000);
    assert_eq!(s.graph.mesh, Mesh::Istio);
    assert_eq!(s.severity.get("RL203"), Some(&Severity::Error));
    assert_eq!(s.thresholds.max_attempts, 4);
    assert_eq!(s.thresholds.amplification, 20);
    assert!(s.overrides[0].paths.is_match("legacy/a/b.yml"));
    assert!(!s.overrides[0].paths.is_match("src/legacy.yml"));
    assert!(s.per_file_ignores[0].paths.is_match("deep/dir/x.json"));
    assert_eq!(s.per_file_ignores[0].reason.as_deref(), Some("generated"));
    assert_eq!(
        s.graph.services[0].aliases,
        ["orders.prod.svc.cluster.local"]
    );
    assert_eq!(s.graph.services[0].paths, ["services/orders/**"]);
    assert_eq!(s.graph.edges[0].via.as_deref(), Some("nginx"));
    assert_eq!(s.graph.entry_points, ["gateway"]);
    let rl203 = rules::Code::RL203.rule();
    assert!(!s.is_enabled_at(rl203, "legacy/x.yml"));
    assert!(s.is_enabled_at(rl203, "src/x.yml"));
    assert_eq!(
        s.severity_at(rules::Code::RL206.rule(), "legacy/x.yml"),
        Some(Severity::Info)
    );
}

#[test]
fn override_selection_replaces_the_runs_and_later_overrides_win() {
    let s = parse_str(
        "ignore = [\"RL203\"]\n[[overrides]]\npaths = [\"legacy/**\"]\nselect = [\"RL2\"]\n[[overrides]]\npaths = [\"legacy/vendor/\"]\nignore = [\"RL2\"]\n",
    )
    .unwrap();
    let rl203 = rules::Code::RL203.rule();
    let rl901 = rules::Code::RL901.rule();
    assert!(!s.is_enabled_at(rl203, "src/a.yml"));
    assert!(s.is_enabled_at(rl901, "src/a.yml"));
    // The override's own selection re-enables RL203 and drops RL901.
    assert!(s.is_enabled_at(rl203, "legacy/a.yml"));
    assert!(!s.is_enabled_at(rl901, "legacy/a.yml"));
    // A later, narrower override ignores it again.
    assert!(!s.is_enabled_at(rl203, "legacy/vendor/a.yml"));
}

#[test]
fn unknown_keys_name_line_column_and_a_suggestion() {
    let e = parse_str("select = []\nignroe = [\"RL203\"]\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
    assert!(e.message.contains("did you mean `ignore`?"), "{e}");
    let e = parse_str("[thresholds]\nmax_attempt = 3\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
    assert!(e.message.contains("`max-attempts`"), "{e}");
    let e = parse_str("[[services]]\nname = \"a\"\nalias = []\n").unwrap_err();
    assert!(e.message.contains("did you mean `aliases`?"), "{e}");
}

#[test]
fn bad_values_are_errors_with_positions() {
    let e = parse_str("mesh = \"istoi\"\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 8));
    assert!(e.message.contains("did you mean `istio`?"), "{e}");
    let e = parse_str("[severity]\nRL203 = \"eror\"\n").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("did you mean `error`?"), "{e}");
    let e = parse_str("select = [\"RL999\"]\n").unwrap_err();
    assert!(e.message.contains("matches no rule"), "{e}");
    let e = parse_str("[thresholds]\nmax-attempts = 0\n").unwrap_err();
    assert!(e.message.contains("at least 1"), "{e}");
    let e = parse_str("max-file-size = \"big\"\n").unwrap_err();
    assert!(e.message.contains("integer"), "{e}");
    let e = parse_str("[[edges]]\nfrom = \"a\"\n").unwrap_err();
    assert!(e.message.contains("needs `to`"), "{e}");
    let e = parse_str("[[services]]\nname = \"a\"\n[[services]]\nname = \"a\"\n").unwrap_err();
    assert_eq!(e.line, 4);
    let e = parse_str("select = [\n").unwrap_err();
    assert!(e.line >= 1 && !e.message.is_empty());
    let e = parse_str("[[per-file-ignores]]\npaths = [\"a[\"]\ncodes = [\"RL203\"]\n").unwrap_err();
    assert!(e.message.contains("bad glob"), "{e}");
}

#[test]
fn the_effective_configuration_parses_back() {
    let s = parse_str(
        "select = [\"RL2\"]\nmesh = \"none\"\n[[per-file-ignores]]\npaths = [\"a.json\"]\ncodes = [\"RL203\"]\n",
    )
    .unwrap();
    let text = effective_toml(&s);
    let back = parse_str(&text).unwrap();
    assert_eq!(back.select, s.select);
    assert_eq!(back.graph.mesh, s.graph.mesh);
    assert_eq!(back.per_file_ignores[0].paths, s.per_file_ignores[0].paths);
    assert_eq!(back.per_file_ignores[0].codes, s.per_file_ignores[0].codes);
    assert_eq!(back.severity.len(), RULES.len());
}
