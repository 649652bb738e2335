use super::*;

fn one(text: &str) -> (YamlFile, Document) {
    let f = parse(text);
    assert!(f.errors.is_empty(), "{:?}", f.errors);
    let d = f.documents[0].clone();
    (f, d)
}

#[test]
fn scalar_offsets_follow_block_and_plain_values() {
    let text =
        "data:\n  cfg: |\n    {\n      \"a\": 1\n    }\n  b: plain value\n  c: \"esc\\\"aped\"\n";
    let (f, d) = one(text);
    let root = f.root(&d).get("data").unwrap();
    let cfg = root.get("cfg").unwrap();
    let v = cfg.as_str().unwrap();
    let o = scalar_offsets(text, cfg.span(), v).unwrap();
    let a = v.find("\"a\"").unwrap();
    assert_eq!(&text[o[a]..o[a] + 3], "\"a\"");
    assert_eq!(o.len(), v.len() + 1);
    let b = root.get("b").unwrap();
    let o = scalar_offsets(text, b.span(), b.as_str().unwrap()).unwrap();
    assert_eq!(&text[o[0]..o[5]], "plain");
    let c = root.get("c").unwrap();
    // An escape's byte is placed at its backslash.
    let o = scalar_offsets(text, c.span(), c.as_str().unwrap()).unwrap();
    assert_eq!(&text[o[3]..o[4]], "\\\"");
    assert_eq!(&text[o[0]..o[7]], "esc\\\"ape");
}

#[test]
fn spans_cover_keys_and_values() {
    let text = "a:\n  b: 12\n  c: [x, 'y']\n";
    let (f, d) = one(text);
    let root = f.root(&d);
    let a = root.get("a").unwrap();
    let b = a.entry("b").unwrap();
    assert_eq!(&text[b.key_span.start..b.key_span.end], "b");
    assert_eq!(&text[b.value.span().start..b.value.span().end], "12");
    assert_eq!(b.value.as_i64(), Some(12));
    let c = a.get("c").unwrap().items();
    assert_eq!(c[1].as_str(), Some("y"));
    assert!(c[1].is_quoted());
}

#[test]
fn multi_document_recovers_after_a_broken_document() {
    let text = "a: 1\n---\nb: [1, 2\n---\nc: 3\n";
    let f = parse(text);
    assert_eq!(f.errors.len(), 1);
    assert_eq!(f.errors[0].document, 1);
    let keys: Vec<_> = f
        .documents
        .iter()
        .map(|d| f.root(d).entries()[0].key.to_string())
        .collect();
    assert_eq!(keys, ["a", "c"]);
}

#[test]
fn aliases_and_merge_keys_resolve_by_reference() {
    let text = "base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\nref: *b\n";
    let (f, d) = one(text);
    let root = f.root(&d);
    let derived = root.get("derived").unwrap();
    assert_eq!(derived.get("x").unwrap().as_i64(), Some(1));
    assert_eq!(derived.get("y").unwrap().as_i64(), Some(3));
    assert_eq!(root.path(&["ref", "y"]).unwrap().as_i64(), Some(2));
}

#[test]
fn alias_bomb_is_reported_not_expanded() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let prev = i - 1;
        text.push_str(&format!(
                "a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"
            ));
    }
    text.push_str("---\nok: 1\n");
    let f = parse(&text);
    assert_eq!(f.errors.len(), 1, "{:?}", f.errors);
    assert!(f.errors[0].message.contains("alias bomb"));
    assert_eq!(f.documents.len(), 1);
    // Past 2^64 expanded nodes the count saturates: still a bomb, not
    // an alias inside its own anchor.
    for i in 12..25 {
        let prev = i - 1;
        text.insert_str(
            text.find("---").unwrap(),
            &format!(
                "a{i}: &a{i} [{}]\n",
                vec![format!("*a{prev}"); 10].join(", ")
            ),
        );
    }
    let f = parse(&text);
    assert!(f.errors[0].message.contains("alias bomb"), "{:?}", f.errors);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let text = "[".repeat(100_000);
    let f = parse(&text);
    assert_eq!(f.errors.len(), 1);
    let text = (0..3000)
        .map(|i| format!("{}k:\n", " ".repeat(i)))
        .collect::<String>();
    let f = parse(&text);
    assert!(!f.errors.is_empty());
}

#[test]
fn json_and_jsonc() {
    let text = "{\n  // comment\n  \"a\": {\"b\": \"5\",},\n  /* x */ \"c\": [1,2,],\n}\n";
    let clean = strip_jsonc(text);
    assert_eq!(clean.len(), text.len());
    let (f, d) = one(&clean);
    let root = f.root(&d);
    assert_eq!(root.path(&["a", "b"]).unwrap().as_i64(), Some(5));
    assert_eq!(root.get("c").unwrap().items().len(), 2);
}

#[test]
fn null_and_booleans() {
    let (f, d) = one("a:\nb: ~\nc: on\nd: 'null'\n");
    let root = f.root(&d);
    assert!(root.get("a").unwrap().is_null());
    assert!(root.get("b").unwrap().is_null());
    assert_eq!(root.get("c").unwrap().as_bool(), Some(true));
    assert_eq!(root.get("d").unwrap().as_str(), Some("null"));
}
