use super::*;

fn read(text: &str) -> Facts {
    let mut facts = Facts::default();
    let file = yaml::parse(text);
    assert!(file.errors.is_empty(), "{:?}", file.errors);
    for d in &file.documents {
        read_service_config(file.root(d), &|s| s, &mut facts);
    }
    facts
}

fn codes(f: &Facts) -> Vec<&'static str> {
    f.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

const RETRY: &str = r#"{
  "methodConfig": [{
    "name": [{"service": "pkg.Orders", "method": "Get"}, {"service": "pkg.Orders"}],
    "timeout": "2.5s",
    "retryPolicy": {
      "maxAttempts": 4,
      "initialBackoff": "0.1s",
      "maxBackoff": "1s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE", 4]
    }
  }],
  "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}
}"#;

#[test]
fn a_service_config_in_a_yaml_string_is_read_in_place() {
    use crate::extract::Syntax;
    use crate::systems::extract;
    // A block scalar: spans land on the JSON's own lines.
    let text = "kind: ConfigMap\ndata:\n  sc.json: |\n    {\"methodConfig\": [{\"name\": [{\"service\": \"a.B\"}],\n      \"retryPolicy\": {\"maxAttempts\": 9, \"initialBackoff\": \"1s\", \"maxBackoff\": \"2s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [\"UNAVAILABLE\"]}}]}\n";
    let f = extract(std::path::Path::new("cm.yaml"), text, Syntax::Yaml);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(
        &text[p.attempts.span.start..p.attempts.span.end],
        "\"maxAttempts\": 9"
    );
    // A double-quoted one with escapes: spans through the escapes (an
    // escaped quote's byte at its backslash).
    let text = "env:\n  - name: GRPC_SERVICE_CONFIG\n    value: \"{\\\"methodConfig\\\": [{\\\"name\\\": [{}], \\\"timeout\\\": \\\"x\\\"}]}\"\n";
    let f = extract(std::path::Path::new("deploy.yaml"), text, Syntax::Yaml);
    assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
    let s = f.diagnostics[0].span;
    assert!(
        text[s.start..s.end].contains("\\\"x\\\""),
        "{:?}",
        &text[s.start..s.end]
    );
    // Folded over two lines: no exact place, every span at the string.
    let text = "env:\n  - name: GRPC_SERVICE_CONFIG\n    value: \"{\\\"methodConfig\\\": [{\\\"name\\\": [{}],\n      \\\"timeout\\\": \\\"x\\\"}]}\"\n";
    let f = extract(std::path::Path::new("deploy.yaml"), text, Syntax::Yaml);
    assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
    let at = text.find("value: ").unwrap() + 7;
    assert_eq!(f.diagnostics[0].span.start, at);
}

#[test]
fn reads_a_retry_policy_with_throttling() {
    let f = read(RETRY);
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    let p = &f.policies[0];
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_millis(100),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(1))
        }
    );
    assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.2 });
    assert_eq!(
        p.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_millis(2500))
    );
    assert!(p.per_try_timeout.is_none());
    assert_eq!(
        p.methods.value,
        Methods::Set(vec!["pkg.Orders/Get".into(), "pkg.Orders/*".into()])
    );
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(
        conditions
            .iter()
            .map(|c| c.value.clone())
            .collect::<Vec<_>>(),
        [
            Condition::Grpc("UNAVAILABLE".into()),
            Condition::Grpc("DEADLINE_EXCEEDED".into())
        ]
    );
    assert_eq!(
        p.budget.as_ref().unwrap().value,
        Budget::TokenBucket {
            max_tokens: 10.0,
            token_ratio: 0.1
        }
    );
    assert_eq!(f.edges.len(), 1);
    assert_eq!(f.edges[0].callee, "pkg.Orders");
    let span = p.attempts.span;
    assert_eq!(&RETRY[span.start..span.end], "\"maxAttempts\": 4");
}

#[test]
fn more_than_five_attempts_are_five_and_said_so() {
    let f = read(&RETRY.replace("\"maxAttempts\": 4", "\"maxAttempts\": 9"));
    assert_eq!(codes(&f), ["RL902"]);
    assert!(f.diagnostics[0].message.contains("treat"));
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(5));
}

#[test]
fn invalid_policies_are_reported_and_dropped() {
    for (from, to) in [
        ("\"maxAttempts\": 4", "\"maxAttempts\": 1"),
        ("\"maxAttempts\": 4", "\"maxAttempts\": \"4\""),
        ("\"initialBackoff\": \"0.1s\"", "\"initialBackoff\": \"0s\""),
        ("\"backoffMultiplier\": 2", "\"backoffMultiplier\": 0"),
        ("[\"UNAVAILABLE\", 4]", "[]"),
    ] {
        let f = read(&RETRY.replace(from, to));
        assert_eq!(codes(&f), ["RL902"], "{to}");
        assert!(f.policies.is_empty(), "{to}");
    }
}

#[test]
fn bad_durations_codes_and_throttling_reject_the_config() {
    for (from, to) in [
        ("\"maxBackoff\": \"1s\"", "\"maxBackoff\": \"1m\""),
        ("\"UNAVAILABLE\"", "\"unavailable\""),
        ("4]", "17]"),
        ("\"maxTokens\": 10", "\"maxTokens\": 1001"),
        ("\"tokenRatio\": 0.1", "\"tokenRatio\": 0"),
    ] {
        let f = read(&RETRY.replace(from, to));
        assert_eq!(codes(&f), ["RL902"], "{to}");
        assert!(f.policies.is_empty(), "{to}");
    }
    let f = read(&RETRY.replace("\"UNAVAILABLE\"", "\"unavailable\""));
    assert!(
        f.diagnostics[0]
            .message
            .contains("did you mean `UNAVAILABLE`")
    );
}

#[test]
fn keys_differing_in_case_are_read_and_reported() {
    let f = read(&RETRY.replace("\"maxAttempts\"", "\"MaxAttempts\""));
    assert_eq!(codes(&f), ["RL901"]);
    assert!(f.diagnostics[0].message.contains("maxAttempts"));
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(4));
    let f = read(&RETRY.replace("\"maxBackoff\"", "\"maxBackof\""));
    assert!(codes(&f).contains(&"RL901"));
    assert!(f.policies.is_empty());
}

#[test]
fn hedging_policy() {
    let f = read(
        r#"{"methodConfig": [{"name": [{"service": "a.B", "method": "PublishX"}],
              "hedgingPolicy": {"maxAttempts": 3, "hedgingDelay": "0.5s",
                                "nonFatalStatusCodes": ["UNAVAILABLE"]}}]}"#,
    );
    assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
    let p = &f.policies[0];
    assert_eq!(p.kind, PolicyKind::Hedge);
    assert!(p.platform_backoff);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_millis(500)
        }
    );
    assert!(p.budget.is_none());
    assert_eq!(p.overall_timeout.as_ref().unwrap().value, Timeout::Disabled);
}

#[test]
fn retry_and_hedging_together_and_duplicate_names_are_invalid() {
    let f = read(
        r#"{"methodConfig": [{"name": [{"service": "a.B"}],
              "hedgingPolicy": {"maxAttempts": 3},
              "retryPolicy": {"maxAttempts": 3}}]}"#,
    );
    assert_eq!(codes(&f), ["RL902"]);
    let f = read(
        r#"{"methodConfig": [
              {"name": [{"service": "a.B"}], "timeout": "1s"},
              {"name": [{"service": "a.B"}], "timeout": "2s"}]}"#,
    );
    assert_eq!(codes(&f), ["RL902"]);
}

#[test]
fn not_a_service_config() {
    let f = read(r#"{"loadBalancingPolicy": "round_robin"}"#);
    assert!(f.diagnostics.is_empty() && f.policies.is_empty());
    let f = read("[1, 2]");
    assert!(f.diagnostics.is_empty());
}

#[test]
fn proto_durations() {
    assert_eq!(
        parse_proto_duration("0.100s").unwrap(),
        Duration::from_millis(100)
    );
    assert_eq!(
        parse_proto_duration("60s").unwrap(),
        Duration::from_secs(60)
    );
    assert_eq!(
        parse_proto_duration("1.000000001s").unwrap(),
        Duration::new(1, 1)
    );
    for bad in ["1m", "1", "1.5", "s", ".5s", "-1s", "1.0000000001s", "1 s"] {
        assert!(parse_proto_duration(bad).is_err(), "{bad}");
    }
}

#[test]
fn literals_map_spans_into_the_host() {
    let host = "String c = \"{\\\"methodConfig\\\": [{\\\"name\\\": [{\\\"service\\\": \\\"x.Y\\\"}], \\\"retryPolicy\\\": {\\\"maxAttempts\\\": 3, \\\"initialBackoff\\\": \\\"1s\\\", \\\"maxBackoff\\\": \\\"2s\\\", \\\"backoffMultiplier\\\": 2, \\\"retryableStatusCodes\\\": [\\\"UNAVAILABLE\\\"]}}]}\";";
    let start = host.find('"').unwrap() + 1;
    let end = host.rfind('"').unwrap();
    let mut facts = Facts::default();
    assert!(extract_json_literal(
        host,
        Span::new(start, end),
        &mut facts
    ));
    assert!(facts.diagnostics.is_empty(), "{:?}", facts.diagnostics);
    let p = &facts.policies[0];
    let s = p.attempts.span;
    assert_eq!(&host[s.start..s.end], "\\\"maxAttempts\\\": 3");
    // Not a service config.
    let host = "let s = r#\"{\"a\": 1}\"#;";
    let mut facts = Facts::default();
    assert!(!extract_raw_json_literal(
        host,
        Span::new(11, 19),
        &mut facts
    ));
    // A broken one is reported at the literal.
    let host = "x = r#\"{\"methodConfig\": [\"#;";
    let mut facts = Facts::default();
    assert!(extract_raw_json_literal(host, Span::new(7, 25), &mut facts));
    assert_eq!(codes(&facts), ["RL903"]);
    let d = facts.diagnostics[0].span;
    assert!(d.start >= 7 && d.end <= 25);
}

#[test]
fn unescape_maps_every_byte() {
    let (s, o) = unescape(r#"a\"b\u00e9\n"#, 10);
    assert_eq!(s, "a\"bé\n");
    assert_eq!(o.len(), s.len() + 1);
    assert_eq!(o[1], 11);
    assert_eq!(o[3], 14);
    assert_eq!(*o.last().unwrap(), 10 + 12);
}

#[test]
fn never_panics_on_odd_input() {
    for text in [
        "{\"methodConfig\": 5}",
        "{\"methodConfig\": [null, 1, {\"name\": 5}]}",
        "{\"methodConfig\": [{\"name\": [{\"method\": \"x\"}], \"retryPolicy\": []}]}",
        "{\"methodConfig\": [], \"retryThrottling\": []}",
        "{\"methodConfig\": [{\"name\": [{}], \"hedgingPolicy\": {\"maxAttempts\": 2, \"hedgingDelay\": 5}}]}",
    ] {
        let _ = read(text);
    }
    let (s, _) = unescape("\\u{zz}\\x\\", 0);
    assert!(!s.is_empty());
    for odd in ["\\x€€", "\\u€€€", "\\uu€", "\\u{€", "é\\", "\\\né"] {
        let (s, o) = unescape(odd, 0);
        assert_eq!(o.len(), s.len() + 1, "{odd}");
    }
}

proptest::proptest! {
    #[test]
    fn literals_and_durations_never_panic(s in "(?s).{0,200}", a in 0usize..220, b in 0usize..220) {
        let _ = unescape(&s, 0);
        let _ = parse_proto_duration(&s);
        let (lo, hi) = (a.min(b), a.max(b));
        let mut facts = Facts::default();
        let _ = extract_json_literal(&s, Span::new(lo, hi), &mut facts);
        let _ = extract_raw_json_literal(&s, Span::new(lo, hi), &mut facts);
    }
}
