//! The body pruner changes no fact: every Java file of the fixtures, the
//! shared corpus and (by hand) a real checkout gives the same facts with
//! and without the bodies [`prune`] finds left out of the parse.

use super::*;

/// The `.java` files under `roots`.
fn java_files(roots: &[std::path::PathBuf]) -> Vec<std::path::PathBuf> {
    crate::systems::read::files_under(roots, |p| p.extension().is_some_and(|x| x == "java"))
}

/// Facts pruned and whole, compared on each file; returns the files
/// something was left out of the parse in, and the bytes left out (bodies
/// and comments) and read of the files the sniff takes.
fn compare(files: &[std::path::PathBuf]) -> (usize, usize, usize) {
    let (mut pruned_some, mut left_out, mut wanted) = (0, 0, 0);
    for f in files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let lits =
            crate::extract::calls::lex::lex(&text, crate::extract::calls::lex::Lang::Java).lits;
        let skip = prune::left_out(&text, &prune::Targets::new(&text, &lits));
        if !skip.is_empty() {
            pruned_some += 1;
        }
        if wants(text.as_bytes()) {
            wanted += text.len();
            left_out += skip.iter().map(|r| r.len()).sum::<usize>();
        }
        let (mut a, mut b) = (Facts::default(), Facts::default());
        extract_with(&text, &mut a, true);
        extract_with(&text, &mut b, false);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", f.display());
    }
    (pruned_some, left_out, wanted)
}

/// Every Java file of the fixtures, the bench generator's shapes and the
/// shared corpus: the facts are the same whether or not the bodies
/// [`prune`] finds are left out of the parse.
#[test]
fn pruning_changes_no_fact() {
    let roots = crate::extract::fixture_roots();
    let files = java_files(&roots);
    assert!(files.len() > 50, "{}", files.len());
    let (pruned_some, _, _) = compare(&files);
    assert!(pruned_some > 0, "{pruned_some}");
    // The shape the bench generator writes: one retry loop among plain
    // methods, which are skipped.
    let mut text = String::from(
        "package p;\nimport java.util.*;\npublic class S {\n  private final Repo repo;\n  public S(Repo repo) { this.repo = repo; }\n  public R call(Req r) throws Exception {\n    int attempt = 0;\n    while (true) {\n      try { return client.post(\"http://b:8080/api\", r); }\n      catch (Exception e) { if (++attempt >= 3) throw e; Thread.sleep(100); }\n    }\n  }\n",
    );
    for i in 0..20 {
        text.push_str(&format!("  public Optional<P> find{i}(long id) {{\n    if (id <= 0) {{ return Optional.empty(); }}\n    for (P item : repo.findAll(\"P\", id)) {{ if (item.isActive()) {{ return Optional.of(item); }} }}\n    return Optional.empty();\n  }}\n"));
    }
    text.push_str("}\n");
    assert_eq!(prune::skippable(&text).len(), 20);
    let (mut a, mut b) = (Facts::default(), Facts::default());
    extract_with(&text, &mut a, true);
    extract_with(&text, &mut b, false);
    assert_eq!(a.policies.len(), 1);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

/// The imports the lexer hands `Ctx` when they are left out of the parse
/// are the ones it reads from the tree's `import_declaration` nodes, on
/// every Java file of the fixtures and the corpus and on the shapes the
/// lexer must give up on (a comment or a non-ASCII name inside: parsed
/// as before) or pass over (an `import` word not at the top level).
#[test]
fn imports_from_the_lexer_are_the_trees() {
    let mut texts: Vec<String> = [
        "package p;\nimport a.b.C;\nimport static a.b.C.x;\nimport a.*;\nimport\ta . b\n.D ;\nclass X {}\n",
        "import a.B;import c.D;class X { void f() { int importX; } }",
        "/* x */import a.B; // y\nimport c.D;\nclass X {}",
        "import a./* c */B;\nclass X {}",
        "import a.Bé;\nclass X {}",
        "class X { void f() { String s = \"import a.B;\"; } }",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let roots = crate::extract::fixture_roots();
    texts.extend(
        java_files(&roots)
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok()),
    );
    let (mut left_out, mut given_up) = (0, 0);
    for text in &texts {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_java::LANGUAGE.into())
            .unwrap();
        let tree = parser.parse(text, None).unwrap();
        let from_tree = Ctx::new(text, tree.root_node()).imports;
        let lits =
            crate::extract::calls::lex::lex(text, crate::extract::calls::lex::Lang::Java).lits;
        let (skip, spans) =
            prune::left_out_and_imports(text, &prune::Targets::new(text, &lits), true);
        let Some(spans) = spans else {
            given_up += 1;
            continue;
        };
        let from_lexer: Vec<&str> = spans
            .iter()
            .map(|r| ctx::import_name(&text[r.clone()]))
            .collect();
        assert_eq!(from_lexer, from_tree, "{text}");
        // Each one is left out, and the parse of the rest has no import.
        assert!(
            spans
                .iter()
                .all(|r| skip.iter().any(|s| s.start <= r.start && r.end <= s.end))
        );
        if !spans.is_empty() {
            left_out += 1;
            parser
                .set_included_ranges(&prune::included(text, &skip))
                .unwrap();
            let pruned = parser.parse(text, None).unwrap();
            assert!(
                Ctx::new(text, pruned.root_node()).imports.is_empty(),
                "{text}"
            );
        }
    }
    assert!(left_out > 50, "{left_out}");
    // The comment, the non-ASCII name.
    assert!(given_up >= 2, "{given_up}");
}

/// Two left-out ranges with only blanks between them are one: the
/// licence, the imports and the comments between them at the top of a
/// file are a single range, a body's braces keep it apart.
#[test]
fn left_out_ranges_join_over_blanks() {
    let text = "/* licence */\npackage p;\n\n// a\nimport a.B;\n\nimport c.D;\n/** doc */\nclass X {\n  /** f */\n  void f() { g(); }\n  // two\n  // lines\n  void h() { g(); }\n}\n";
    let lits = crate::extract::calls::lex::lex(text, crate::extract::calls::lex::Lang::Java).lits;
    let (skip, _) = prune::left_out_and_imports(text, &prune::Targets::new(text, &lits), true);
    let out: Vec<&str> = skip.iter().map(|r| &text[r.clone()]).collect();
    assert_eq!(
        out,
        [
            "/* licence */",
            "// a\nimport a.B;\n\nimport c.D;\n/** doc */",
            "/** f */",
            " g(); ",
            "// two\n  // lines",
            " g(); ",
        ]
    );
    // A comment of a local class in a skipped body goes with the body.
    let text = "class A {\n  void f() {\n    class L {\n      // c\n      void g() { h(); }\n    }\n    new L().g();\n  }\n}\n";
    let lits = crate::extract::calls::lex::lex(text, crate::extract::calls::lex::Lang::Java).lits;
    let (skip, _) = prune::left_out_and_imports(text, &prune::Targets::new(text, &lits), true);
    let out: Vec<&str> = skip.iter().map(|r| &text[r.clone()]).collect();
    assert_eq!(out, [&text[22..text.len() - 4]]);
    let (mut a, mut b) = (Facts::default(), Facts::default());
    extract_with(text, &mut a, true);
    extract_with(text, &mut b, false);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

/// A field written through `this.` in a method (a field the file does not
/// declare: inherited) is a value `Ctx::value_of` takes, so that body is
/// kept; a `try` keeps a body beside a loop (a hand-written retry's
/// shape), not alone nor inside a longer name (`entry`, `tryLock`); a
/// call through a timeout name keeps it, a timeout variable does not.
#[test]
fn narrow_keep_words_keep_what_the_readers_read() {
    let src = "class A extends B {
  void setUrl() { this.url = \"u\"; }
  void set2() { this.cfg.url = \"v\"; }
  void bump() { this.n++; }
  void reads() { use(this.url); this.cfg.call(); }
  void entries() { for (Entry e : registry.entries()) { tryLock(e); } }
  void guarded() { try { call(); } catch (Exception e) { log(e); } }
  void looped() { for (int i = 0; i < 3; i++) { try { call(); return; } catch (Exception e) { log(e); } } }
  void eq() { if (this.url == null) { call(); } }
  int held() { return sessionTimeout + 1; }
  void sets() { b.setConnectTimeout(5); }
  void of() { x = Timeout.of(d); }
}\n";
    let skipped: Vec<&str> = prune::skippable(src)
        .into_iter()
        .map(|r| src[r].trim())
        .collect();
    assert_eq!(
        skipped,
        [
            "use(this.url); this.cfg.call();",
            "for (Entry e : registry.entries()) { tryLock(e); }",
            "try { call(); } catch (Exception e) { log(e); }",
            "if (this.url == null) { call(); }",
            "return sessionTimeout + 1;",
        ]
    );
    let (mut a, mut b) = (Facts::default(), Facts::default());
    extract_with(src, &mut a, true);
    extract_with(src, &mut b, false);
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

/// The same over a real checkout: `RETRYLINT_PRUNE_DIR=/path cargo test
/// --lib java_prune_real -- --ignored --nocapture`.
#[test]
#[ignore = "needs RETRYLINT_PRUNE_DIR=<a checkout>"]
fn java_prune_real() {
    let dir = crate::systems::read::real_checkout("RETRYLINT_PRUNE_DIR");
    let files = java_files(&[dir]);
    let (pruned, left_out, wanted) = compare(&files);
    println!(
        "{} Java files, {pruned} pruned, facts identical; of the {wanted} bytes of files \
         the sniff takes, {left_out} left out of the parse",
        files.len()
    );
}

/// Where a real checkout's wanted Java goes, per reason a body is kept:
/// the bytes outside member bodies (always parsed), each kept body under
/// the reason that kept it (the first keep word, or the test), and the
/// bodies left out; test sources are left aside as the scan leaves them:
/// `RETRYLINT_PRUNE_DIR=/path cargo test --lib java_keep_words_real --
/// --ignored --nocapture` (PERFORMANCE.md). It asserts that the bodies it
/// counts as left out are the ones [`prune::skippable`] gives.
#[test]
#[ignore = "needs RETRYLINT_PRUNE_DIR=<a checkout>"]
fn java_keep_words_real() {
    let dir = crate::systems::read::real_checkout("RETRYLINT_PRUNE_DIR");
    let mut per: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let (mut wanted, mut outside, mut left_out, mut files) = (0usize, 0usize, 0usize, 0usize);
    for f in java_files(std::slice::from_ref(&dir)) {
        let relative = f.strip_prefix(&dir).unwrap_or(&f).to_string_lossy();
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        if crate::extract::test_code::is_test_source(&relative) || !wants(text.as_bytes()) {
            continue;
        }
        files += 1;
        wanted += text.len();
        let lits =
            crate::extract::calls::lex::lex(&text, crate::extract::calls::lex::Lang::Java).lits;
        let targets = prune::Targets::new(&text, &lits);
        let skip = prune::skippable_with(&text, &targets);
        left_out += skip.iter().map(|r| r.len()).sum::<usize>();
        let Some(lexed) = prune::lex(&text) else {
            outside += text.len();
            continue;
        };
        // Outermost members only: an inner one is inside its holder.
        let mut outer: Vec<&prune::Member> = Vec::new();
        for m in lexed.members.iter().rev() {
            if outer.last().is_none_or(|o| m.body.end <= o.body.start) {
                outer.push(m);
            }
        }
        outside += text.len() - outer.iter().map(|m| m.body.len()).sum::<usize>();
        let mut referenced = None;
        for m in outer {
            let key = match prune::keep(&text, m, &lexed, &targets, &mut referenced) {
                Some(prune::Keep::Word(w)) => format!("word {w:?}"),
                Some(k) => format!("{k:?}"),
                None if skip.contains(&m.body) => continue,
                None => "(assigns a field, or an inner body kept)".to_string(),
            };
            let e = per.entry(key).or_default();
            e.0 += 1;
            e.1 += m.body.len();
        }
    }
    println!("{files} files wanted, {wanted} B: outside bodies {outside} B, left out {left_out} B");
    let mut v: Vec<_> = per.into_iter().collect();
    v.sort_by_key(|(_, (_, b))| std::cmp::Reverse(*b));
    for (w, (n, b)) in v.iter().take(30) {
        println!("{b:>10} B {n:>5} bodies  {w}");
    }
}
