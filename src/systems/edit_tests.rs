use super::*;
use crate::fix::apply_edits;

fn add(path: &str, text: &str, at: &str, key: &str, value: Value) -> String {
    let start = text.find(at).expect("anchor in text");
    let span = Span::new(start, start + at.len());
    let edit = add_sibling(0, Path::new(path), text, span, key, &value).expect("an edit");
    apply_edits(text, [&edit]).unwrap()
}

#[test]
fn yaml_block_keeps_indentation_and_skips_nested_lines() {
    let text =
        "a:\n  b:\n    - c: 1\n      d: >-\n        long\n        text\n    # note\n  f: 3\n";
    assert_eq!(
        add("x.yaml", text, "d", "g", Value::Bool(true)),
        "a:\n  b:\n    - c: 1\n      d: >-\n        long\n        text\n      g: true\n    # note\n  f: 3\n"
    );
    // From a sequence item's first key: the item's column.
    assert_eq!(
        add("x.yml", "- c: 1\n", "c", "g", Value::Str("2s".into())),
        "- c: 1\n  g: 2s\n"
    );
}

#[test]
fn yaml_crlf_last_line_and_kebab_case() {
    assert_eq!(
        add(
            "x.yaml",
            "r:\r\n  wait-duration: 1s\r\n",
            "wait-duration",
            "enableRandomizedWait",
            Value::Bool(true)
        ),
        "r:\r\n  wait-duration: 1s\r\n  enable-randomized-wait: true\r\n"
    );
    assert_eq!(
        add("x.yaml", "r:\n  w: 1s", "w", "k", Value::Bool(true)),
        "r:\n  w: 1s\n  k: true"
    );
}

#[test]
fn yaml_flow_mapping_gets_an_entry() {
    assert_eq!(
        add(
            "x.yaml",
            "retries: {attempts: 3, retryOn: 5xx}\n",
            "attempts",
            "perTryTimeout",
            Value::Str("2s".into())
        ),
        "retries: {attempts: 3, perTryTimeout: 2s, retryOn: 5xx}\n"
    );
    assert_eq!(
        add(
            "x.yaml",
            "retries: {attempts: 3}\n",
            "attempts",
            "perTryTimeout",
            Value::Str("2s".into())
        ),
        "retries: {attempts: 3, perTryTimeout: 2s}\n"
    );
}

#[test]
fn properties_toml_json() {
    assert_eq!(
        add(
            "a.properties",
            "r.i.a.waitDuration = 1s\nx=1\n",
            "waitDuration",
            "enableRandomizedWait",
            Value::Bool(true)
        ),
        "r.i.a.waitDuration = 1s\nr.i.a.enableRandomizedWait = true\nx=1\n"
    );
    assert_eq!(
        add(
            "a.toml",
            "[r]\n  max_retries = 3 # c\n",
            "max_retries",
            "per_try",
            Value::Str("2s".into())
        ),
        "[r]\n  max_retries = 3 # c\n  per_try = \"2s\"\n"
    );
    assert_eq!(
        add(
            "a.json",
            "{\n  \"numRetries\": 3,\n  \"x\": 1\n}\n",
            "\"numRetries\"",
            "perTryTimeout",
            Value::Str("1s".into())
        ),
        "{\n  \"numRetries\": 3,\n  \"perTryTimeout\": \"1s\",\n  \"x\": 1\n}\n"
    );
}

#[test]
fn integers_and_words() {
    let text = "numRetries: 5 # was 3\nmaxAttempts(10)\nmax_retries_2: 7\n";
    let s = |a: &str| {
        let i = text.find(a).unwrap();
        Span::new(i, i + a.len())
    };
    assert_eq!(set_integer(0, text, s("numRetries: 5 # was 3"), 2), None);
    let e = set_integer(0, text, s("maxAttempts(10)"), 5).unwrap();
    assert_eq!(&text[e.span.start..e.span.end], "10");
    assert_eq!(integer_in(text, s("max_retries_2: 7")), Some(7));
    let line = "proxy_next_upstream error non_idempotent;";
    let i = line.find("non_idempotent").unwrap();
    let e = remove_word(0, line, Span::new(i, i + 14), "non_idempotent").unwrap();
    assert_eq!(
        apply_edits(line, [&e]).unwrap(),
        "proxy_next_upstream error;"
    );
    assert_eq!(go_duration(Duration::from_millis(2500)), "2500ms");
    assert_eq!(proto_duration(Duration::from_millis(2500)), "2.500s");
}

#[test]
fn no_sibling_beside_a_mapping_header() {
    let text = "a:\n  retries:  # the block\n    attempts: 2\n";
    let i = text.find("retries").unwrap();
    let span = Span::new(i, i + "retries".len());
    assert_eq!(
        add_sibling(0, Path::new("x.yaml"), text, span, "k", &Value::Bool(true)),
        None
    );
}

#[test]
fn set_value_replaces_one_scalar_word_and_keeps_its_quotes() {
    let set = |text: &str, at: &str, to: &str| {
        let start = text.find(at).expect("anchor in text");
        let span = Span::new(start, start + at.len());
        set_value(0, text, span, to).map(|e| apply_edits(text, [&e]).unwrap())
    };
    assert_eq!(
        set("r:\n  perTryTimeout: 5s\n", "perTryTimeout: 5s", "1900ms").as_deref(),
        Some("r:\n  perTryTimeout: 1900ms\n")
    );
    assert_eq!(
        set(
            "{\"per_try_timeout\": \"5s\"}",
            "\"per_try_timeout\": \"5s\"",
            "1.900s"
        )
        .as_deref(),
        Some("{\"per_try_timeout\": \"1.900s\"}")
    );
    assert_eq!(
        set("t: '0.5s'\n", "'0.5s'", "0.250s").as_deref(),
        Some("t: '0.250s'\n")
    );
    // A mapping or several words: no edit.
    assert_eq!(set("t: {seconds: 5}\n", "t: {seconds: 5}", "1s"), None);
    assert_eq!(set("t: 5 s\n", "t: 5 s", "1s"), None);
}
