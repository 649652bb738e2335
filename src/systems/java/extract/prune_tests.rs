use super::*;

/// [`top_level`] as it was, a character at a time: the byte-wise one
/// must give the same on every header.
fn top_level_chars(header: &str) -> (String, bool) {
    let mut out = String::new();
    let mut depth = 0i32;
    let mut eq = false;
    let mut chars = header.char_indices().peekable();
    while let Some((k, c)) = chars.next() {
        match c {
            '/' if header[k..].starts_with("//") => {
                while chars.peek().is_some_and(|(_, c)| *c != '\n') {
                    chars.next();
                }
            }
            '/' if header[k..].starts_with("/*") => {
                let end = header[k + 2..]
                    .find("*/")
                    .map_or(header.len(), |e| k + 2 + e + 2);
                while chars.peek().is_some_and(|(j, _)| *j < end) {
                    chars.next();
                }
            }
            '(' | '<' => {
                depth += 1;
                if depth == 1 {
                    out.push(c);
                }
            }
            ')' | '>' => {
                depth -= 1;
                if depth == 0 {
                    out.push(c);
                }
            }
            '=' if depth == 0 => {
                eq = true;
                out.push(c);
            }
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    (out, eq)
}

#[test]
fn byte_wise_top_level_is_the_character_one() {
    let mut headers: Vec<String> = [
        "/** Docs { é } */ public <T> Map<K, V> f(int a) throws E",
        "// only a comment\n  int x = 1, y",
        "@A(\"é\") /* open",
        "f(a)) = (b",
        "ünïcode<ä> = ö // tail",
        "/",
        "a /* b */ c // d",
        "",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Every header of the Java fixtures and corpus files: the text
    // between two of `;`, `{` and `}`.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in [root.join("testdata"), root.join("../shared/corpus")] {
        for e in ignore::WalkBuilder::new(dir).build().flatten() {
            if e.path().extension().is_some_and(|x| x == "java")
                && let Ok(t) = std::fs::read_to_string(e.path())
            {
                headers.extend(t.split([';', '{', '}']).map(str::to_string));
            }
        }
    }
    assert!(headers.len() > 100, "{}", headers.len());
    for h in &headers {
        assert_eq!(top_level(h), top_level_chars(h), "{h:?}");
    }
    // Outside a type body, `classify` tells a block from a type by the
    // header's own words: the same as by the words `top_level` keeps.
    headers.extend(
        [
            "if (a /* */) ",
            "cl/**/ass X ",
            "if (s.equals(\"class\")) ",
            "@interface A ",
        ]
        .map(str::to_string),
    );
    for h in &headers {
        let (top, _) = top_level(h);
        let mut ws = words(&top).peekable();
        let mut full = (Brace::Other, String::new());
        while let Some(w) = ws.next() {
            if matches!(w, "class" | "interface" | "enum" | "record" | "@interface") {
                full = (
                    Brace::Type,
                    ws.peek().map_or(String::new(), |n| n.to_string()),
                );
                break;
            }
        }
        for parent in [None, Some(Brace::Other), Some(Brace::Member)] {
            assert_eq!(classify(h, parent), full, "{h:?}");
        }
    }
}

fn skipped(src: &str) -> Vec<&str> {
    skippable(src).into_iter().map(|r| src[r].trim()).collect()
}

#[test]
fn plain_method_bodies_are_skipped_and_the_rest_kept() {
    let src = r#"class A {
  A(Repo r) { repo = r; }
  int plain(int x) { return x + 1; }
  String s() throws IOException { return "{"; }
  void loop() { for (int i = 0; i < 3; i++) { call(); } }
  void guarded() { try { call(); } catch (Exception e) {} }
  @Retryable void annotated() { call(); }
  @Target({ElementType.METHOD}) void arrayed() { call(); }
  @SuppressWarnings({"x"}) int after() { return 9; }
  @Override public int hashCode() { return 1; }
  void referenced() { call(); }
  Runnable r = () -> { call(); };
  Object o = new Object() { int inner() { return 2; } };
  void retrying() { retry.run(this::referenced); }
  static { init(); }
  record R(int a) { int twice() { return a * 2; } }
  enum E { X; int e() { return 3; } }
}"#;
    assert_eq!(
        skipped(src),
        [
            "return x + 1;",
            "return \"{\";",
            "for (int i = 0; i < 3; i++) { call(); }",
            // A `try` outside a loop starts no reader.
            "try { call(); } catch (Exception e) {}",
            "return 1;",
            "return a * 2;",
            "return 3;"
        ]
    );
}

#[test]
fn a_body_that_sets_a_field_is_kept() {
    let src = "class A {\n  void set() { waitMs = 500; }\n  void inc() { ++count; }\n  void add() { spare *= 2; }\n  void test() { if (waitMs == 1) { call(); } }\n  void local() { int other = 1; }\n  void shift() { count >>>= 1; }\n  void through() { this.count >>>= 1; }\n  private long waitMs = 100, spare;\n  int count;\n  abstract void f(int x);\n}";
    // `>>>=` (Java's unsigned shift assignment) writes the field too.
    assert_eq!(
        skipped(src),
        ["if (waitMs == 1) { call(); }", "int other = 1;"]
    );
}

/// Work grows with the file, not with methods x fields or methods x
/// method references (a generated class of 20,000 of each would take
/// minutes otherwise).
#[test]
fn a_huge_class_is_lexed_in_one_pass() {
    let mut src = String::from("class Big {\n");
    for i in 0..20_000 {
        src.push_str(&format!(
            "  int f{i};\n  int m{i}(int x) {{ return x + f{}; }}\n  Runnable r{i} = this::m{};\n",
            i / 2,
            i * 2 % 20_000
        ));
    }
    src.push_str("}\n");
    let skipped = skippable(&src);
    // A method some `::m..` names is kept; the others are skipped.
    assert!(
        !skipped.is_empty() && skipped.len() < 20_000,
        "{}",
        skipped.len()
    );
}

#[test]
fn doubt_prunes_nothing() {
    assert!(skippable("class A { int f() { return 1; }").is_empty());
    assert!(skippable("class A { int f() { return \"x; } }").is_empty());
    assert!(skippable("class A { int f() { /* x } }").is_empty());
    assert!(skippable("}").is_empty());
}

#[test]
fn comments_and_text_blocks_hide_braces() {
    let src = "class A {\n  // {\n  /* } */\n  String t() { return \"\"\"\n  }\n  \"\"\"; }\n  char c() { return '}'; }\n}";
    assert_eq!(skipped(src).len(), 2);
}

/// The writes to the file's fields told by searching for each name
/// ([`body_words::FieldWrites`]) are, body by body, what the search of
/// each body's own words found: on every Java fixture and corpus file
/// (with the searches of up to eight names and the word pass of more).
#[test]
fn field_writes_by_name_are_each_bodys() {
    let roots = crate::extract::fixture_roots();
    let files =
        crate::systems::read::files_under(&roots, |p| p.extension().is_some_and(|x| x == "java"));
    let mut bodies = 0usize;
    for f in &files {
        let Ok(src) = std::fs::read_to_string(f) else {
            continue;
        };
        let Some(lexed) = lex(&src) else {
            continue;
        };
        let names = body_words::Names::new(lexed.fields.iter().copied());
        let few = body_words::FieldWrites::new(&lexed.fields);
        // More than eight names take the word pass: the same answers.
        let mut more = lexed.fields.clone();
        more.extend([
            "zz0", "zz1", "zz2", "zz3", "zz4", "zz5", "zz6", "zz7", "zz8",
        ]);
        let many = body_words::FieldWrites::new(&more);
        for m in &lexed.members {
            let body = &lexed.code[m.body.clone()];
            let own = names.in_text(body).any(|w| body_words::assigns(body, &w));
            let at = format!("{} body at {}", f.display(), m.body.start);
            assert_eq!(few.in_body(&lexed.code, &m.body), own, "{at}");
            assert_eq!(many.in_body(&lexed.code, &m.body), own, "{at}");
            bodies += 1;
        }
    }
    assert!(bodies > 300, "only {bodies} bodies");
}
