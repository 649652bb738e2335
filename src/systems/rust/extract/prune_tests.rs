//! Tests of [`super`]: the lexer, what is kept, and that the facts are
//! the same with and without pruning.

use super::*;

fn kept_text(src: &str) -> String {
    blanked(src).unwrap_or_else(|| src.to_string())
}

#[test]
fn plain_bodies_are_blanked_and_retry_bodies_kept() {
    let src = "use backon::ExponentialBuilder;\nfn a() -> u8 { let x = 1; x + 1 }\nfn b() { op.retry(ExponentialBuilder::default()) }\n";
    let out = kept_text(src);
    assert_eq!(out.len(), src.len());
    assert!(out.contains("fn a()       {                  }"), "{out}");
    assert!(out.contains("op.retry"));
}

#[test]
fn heads_of_blanked_functions_keep_their_first_token_name_and_brackets() {
    let src = "impl S {\n    #[inline]\n    /// doc\n    pub(crate) async fn a<F: Fn(u8) -> u8, 'x>(\n        &self,\n        f: F,\n    ) -> Result<u8, E>\n    where\n        F: Send,\n    {\n        f(1)\n    }\n    const fn r#type(x: u8) -> u8 { x }\n    extern \"C\" fn c() {}\n}\nfn b() -> B { ExponentialBuilder::default() }\n";
    let out = kept_text(src);
    assert_eq!(out.len(), src.len());
    let lines: Vec<&str> = out.lines().collect();
    let sp = |n: usize| " ".repeat(n);
    // `pub` over `#[inline]`, the doc comment blank, then `fn a`, the
    // parameter list's brackets and the body's braces where they were.
    assert_eq!(lines[1], format!("    pub{}", sp(6)), "{out}");
    assert_eq!(lines[2], sp(11), "{out}");
    assert_eq!(lines[3], format!("{}fn a{}(", sp(21), sp(21)), "{out}");
    assert_eq!(lines[6], format!("    ){}", sp(17)), "{out}");
    assert_eq!(lines[9], "    {", "{out}");
    assert!(
        out.contains("    const fn r#type(     )       {   }"),
        "{out}"
    );
    assert!(out.contains("    extern     fn c() {}"), "{out}");
    assert!(out.contains("fn b() -> B { ExponentialBuilder::default() }"));
    let file = syn::parse_file(&out).expect("the thinned heads parse");
    // Every item and function keeps the span the whole text gives it.
    let spans = super::super::Spans::new(src);
    let whole = syn::parse_file(src).unwrap();
    let fns = |f: &syn::File| -> Vec<(String, crate::source::Span, crate::source::Span)> {
        let mut v = Vec::new();
        for item in &f.items {
            match item {
                syn::Item::Impl(i) => {
                    for it in &i.items {
                        if let syn::ImplItem::Fn(f) = it {
                            v.push((
                                f.sig.ident.to_string(),
                                spans.node(f),
                                spans.block(&f.block),
                            ));
                        }
                    }
                }
                syn::Item::Fn(f) => v.push((
                    f.sig.ident.to_string(),
                    spans.node(f),
                    spans.block(&f.block),
                )),
                _ => {}
            }
        }
        v
    };
    assert_eq!(fns(&file), fns(&whole));
    assert_eq!(fns(&file).len(), 4);
}

#[test]
fn heads_that_may_be_test_only_are_kept() {
    for src in [
        "#[rstest]\nfn a(x: u8) { x; }\n",
        "#[cfg(feature = \"test-utils\")]\nfn a(x: u8) { x; }\n",
        "#[cfg(test)]\nfn a(x: u8) { x; }\n",
        "#[tokio::test]\nasync fn a(x: u8) { x; }\n",
    ] {
        let out = kept_text(src);
        assert!(out.contains("fn a(x: u8) {"), "{out}");
        let attr = src.lines().next().unwrap();
        assert!(out.starts_with(attr), "{out}");
    }
    // Anything odd keeps the head too: a comment before the name, an
    // attribute split after its `#`.
    for src in [
        "fn/**/a(x: u8) { x; }\n",
        "#\n[inline]\nfn a(x: u8) { x; }\n",
    ] {
        assert!(kept_text(src).contains("a(x: u8) {"), "{src}");
    }
}

#[test]
fn called_helpers_and_read_fields_are_kept() {
    let src = "fn n() -> u32 { 5 }\nfn c() -> C { C { b: make() } }\nfn make() -> B { B::new() }\nimpl S { fn r(&self) { x.retry(self.b).times(n()) } }\nfn other() { 7 }\n";
    let out = kept_text(src);
    assert!(out.contains("{ 5 }"), "{out}");
    assert!(out.contains("C { b: make() }"), "{out}");
    assert!(out.contains("B::new()"), "{out}");
    assert!(!out.contains("{ 7 }"), "{out}");
}

#[test]
fn test_code_is_blanked_even_with_retry_words() {
    let src = "fn f() {}\n#[cfg(test)]\nmod tests {\n  fn t() { retry(3) }\n}\nmod m {\n#[tokio::test]\nasync fn t2() { retry(1) }\n}\n#[cfg(any(test, feature = \"x\"))]\nfn t3() { retry(1) }\n#[cfg(not(test))]\nfn t4() { retry(2) }\n";
    let out = kept_text(src);
    assert!(!out.contains("retry(3)"), "{out}");
    assert!(!out.contains("retry(1)"), "{out}");
    assert!(out.contains("retry(2)"), "{out}");
    assert_eq!(out.lines().count(), src.lines().count());
}

#[test]
fn macros_strings_and_lifetimes_do_not_confuse_the_lexer() {
    let src = "macro_rules! m { () => { fn g() { 1 } } }\nfn a<'a>(x: &'a str) -> char { let c = '}'; let s = \"}\"; let r = r#\"}\"#; c }\nfn b() { custom!(x, 3, 100) }\nfn c() { /* } /* nested */ */ let b = b'}'; }\n";
    let out = kept_text(src);
    assert!(out.contains("fn g() { 1 }"), "{out}");
    assert!(out.contains("custom!(x, 3, 100)"), "{out}");
    assert!(!out.contains("let c"), "{out}");
    assert!(!out.contains("nested"), "{out}");
    assert!(syn::parse_file(&out).is_ok(), "{out}");
}

#[test]
fn only_macros_a_retry_macro_may_take_keep_a_body() {
    let src = "fn a() { tokio::select! { v = rx.recv() => {} } }\n\
        fn b() { let m = hashmap!(k => v); }\n\
        fn c() { my_repeat!(op) }\n\
        fn d() { custom!(connect(), 3) }\n\
        fn e() { outer!(inner!(x, 2)) }\n\
        fn f() { info!(\"{} {}\", a, 5); vec![1, 2]; }\n\
        fn g() { again!(x, y) }\n";
    let out = kept_text(src);
    assert!(!out.contains("select"), "{out}");
    assert!(!out.contains("hashmap"), "{out}");
    assert!(!out.contains("my_repeat"), "{out}");
    assert!(out.contains("custom!(connect(), 3)"), "{out}");
    assert!(out.contains("inner!(x, 2)"), "{out}");
    assert!(!out.contains("info!"), "{out}");
    assert!(!out.contains("again!"), "{out}");
    // A name that says retry keeps the body whatever its arguments.
    assert!(kept_text("fn h() { with_Retries!(op) }").contains("with_Retries!(op)"));
}

#[test]
fn items_no_reader_reads_are_blanked_whole() {
    let src = "#![cfg(feature = \"x\")]\n\
        use a::{b, c};\n\
        #[derive(Debug)]\n\
        pub(crate) struct S { a: u8 }\n\
        struct P(u8, Vec<u8>);\n\
        enum E { A { x: u8 }, B }\n\
        pub unsafe trait T { fn f() { retry() } }\n\
        type A = [u8; { 1 }];\n\
        extern crate x;\n\
        extern \"C\" { fn k(); }\n\
        lazy_static! { static ref X: u8 = 1; }\n\
        thread_local!(static Y: u8 = 2);\n\
        macro_rules! m { () => {} }\n\
        const C: u8 = S { a: 1 }.a;\n\
        impl S { type O = u8; const D: u8 = 2; fn g(&self) { retry(C) } }\n";
    let out = kept_text(src);
    assert_eq!(out.len(), src.len());
    assert_eq!(out.lines().count(), src.lines().count());
    for gone in [
        "use",
        "derive",
        "struct",
        "enum",
        "trait",
        "type",
        "extern",
        "lazy_static",
        "thread_local",
    ] {
        assert!(!out.contains(gone), "{gone}: {out}");
    }
    for kept in [
        "#![cfg(feature = \"x\")]",
        "macro_rules! m { () => {} }",
        "const C: u8 = S { a: 1 }.a;",
        "impl S {",
        "const D: u8 = 2;",
        "fn g(&self) { retry(C) }",
    ] {
        assert!(out.contains(kept), "{kept}: {out}");
    }
    assert!(syn::parse_file(&out).is_ok(), "{out}");
}

#[test]
fn a_url_in_a_comment_leaves_nothing_to_read() {
    let licence =
        "// Licensed under http://www.apache.org/licenses/LICENSE-2.0\n/** see https://x.io */\n";
    let plain = format!("{licence}fn a() {{ tidy() }}\n");
    assert!(pruned(&plain).1, "{plain}");
    for reads in [
        format!("{licence}const U: &str = \"http://orders:8080\";\nfn a() {{ 1 }}\n"),
        format!("{licence}macro_rules! m {{ () => {{}} }}\nfn a() {{ 1 }}\n"),
        format!("{licence}fn a() {{ std::thread::sleep(d) }}\n"),
    ] {
        assert!(!pruned(&reads).1, "{reads}");
    }
    // A URL in a blanked body or test module is not read either.
    let blanked = format!(
        "{licence}fn a() {{ let x = 1; }}\n#[cfg(test)]\nmod t {{ const U: &str = \"http://x\"; }}\n"
    );
    assert!(pruned(&blanked).1, "{blanked}");
}

/// `retr` opening `retrieve` is no retry word, and a URL in a comment no
/// URL literal: neither keeps a body (nor an `impl` named `Retriever`);
/// `retry`, a URL in a string and `Retry` in a header still do.
#[test]
fn retrieve_and_a_url_in_a_comment_keep_no_body() {
    let src = "fn a(p: &P) -> R { p.retrieve(ids) }\n\
        impl Retriever for S {\n    fn get(&self) -> u8 { self.n }\n}\n\
        fn b() { // see https://github.com/x/y\n    x(RETRIEVAL)\n}\n\
        fn c() -> &'static str { \"http://svc\" }\n\
        fn d() { p.retry(ExponentialBuilder::default()) }\n\
        impl RetryCounter for S {\n    fn bump(&self) -> u8 { self.m }\n}\n";
    let out = kept_text(src);
    assert_eq!(out.len(), src.len());
    for gone in ["p.retrieve(ids)", "self.n", "x(RETRIEVAL)"] {
        assert!(!out.contains(gone), "{gone} in {out}");
    }
    for kept in ["\"http://svc\"", "p.retry(", "self.m"] {
        assert!(out.contains(kept), "{kept} not in {out}");
    }
    // `retries`, `Retried`, and `retr` at the end of the text still keep.
    for src in [
        "fn a() { x.retries }",
        "fn a() { Retried }",
        "fn a() { retr }",
    ] {
        assert_eq!(kept_text(src), src);
    }
}

/// A test module's calls (blanked whole, never parsed) keep no body
/// they name; the same call from a kept body still does.
#[test]
fn calls_from_a_test_module_keep_no_body() {
    let src = "impl S {\n    pub fn from_memory(m: u8) -> S { S { m, n: m + 1 } }\n}\n\
        fn plain(x: u8) -> u8 { x * 2 + 1 }\n\
        #[cfg(test)]\nmod tests {\n    fn t() { let s = S::from_memory(1); plain(2); }\n}\n";
    let out = kept_text(src);
    assert_eq!(out.len(), src.len());
    for gone in ["S { m, n: m + 1 }", "x * 2 + 1", "S::from_memory(1)"] {
        assert!(!out.contains(gone), "{gone} in {out}");
    }
    let src = "impl S {\n    pub fn from_memory(m: u8) -> S { S { m, n: m + 1 } }\n}\n\
        fn b() { op.retry(S::from_memory(1)) }\n";
    assert!(kept_text(src).contains("S { m, n: m + 1 }"));
}

/// Only the identifier `Policy` in an `impl` header keeps its functions
/// (tower's trait, the impl the evaluator reads), not `policy` inside
/// another name.
#[test]
fn policy_inside_a_name_keeps_no_impl() {
    let src = "impl Default for BuildPolicy {\n    fn default() -> Self { Self { n: 3, m: 4 } }\n}\n\
        impl<E> Policy<Req, Res, E> for Attempts {\n    fn clone_request(&self, r: &Req) -> Option<Req> { Some(r.clone()) }\n}\n";
    let out = kept_text(src);
    assert_eq!(out.len(), src.len());
    assert!(!out.contains("Self { n: 3, m: 4 }"), "{out}");
    assert!(out.contains("Some(r.clone())"), "{out}");
}

/// A file with a test function at its top (read by the evaluator not at
/// all) or in a test crate keeps no body, words or not; a test function
/// in a module does not make the file a test file.
#[test]
fn a_test_file_keeps_no_body() {
    for attr in [
        "#[test]",
        "#[rstest]",
        "#[tokio::test(flavor = \"multi_thread\")]",
    ] {
        let src = format!(
            "fn b() {{ op.retry(ExponentialBuilder::default()) }}\n{attr}\nfn t() {{ b() }}\n"
        );
        let (_, nothing) = pruned(&src);
        assert!(nothing, "{attr}");
        assert!(!kept_text(&src).contains("op.retry"), "{attr}");
    }
    let src = "fn b() { op.retry(ExponentialBuilder::default()) }\nmod m {\n    #[test]\n    fn t() { b() }\n}\n";
    assert!(kept_text(src).contains("op.retry"));
    let src = "fn b() { op.retry(ExponentialBuilder::default()) }\n";
    assert!(skippable_and_kept_for(src, false).nothing_to_read);
    assert!(!skippable_and_kept_for(src, true).nothing_to_read);
}

#[test]
fn doubt_blanks_nothing() {
    for src in ["fn a() { \"x }", "fn a() { 1 ", "fn a() { 1 }}", "/* x"] {
        assert!(blanked(src).is_none(), "{src}");
    }
}

#[test]
fn non_ascii_keeps_columns() {
    let src = "fn a() { let s = \"Grüße 重试\"; }\nfn b() -> B { ExponentialBuilder::default() }\n";
    let out = kept_text(src);
    assert_eq!(out.lines().nth(1), src.lines().nth(1));
    assert_eq!(
        out.lines().next().unwrap().chars().count(),
        src.lines().next().unwrap().chars().count()
    );
}

fn rust_files(roots: &[std::path::PathBuf]) -> Vec<std::path::PathBuf> {
    crate::systems::read::files_under(roots, |p| p.extension().is_some_and(|x| x == "rs"))
}

/// The facts of `files` with and without pruning; the number of files
/// where something was blanked.
fn compare(files: &[std::path::PathBuf], root: &std::path::Path) -> usize {
    use crate::extract::Facts;
    use crate::systems::rust::extract::{extract_with, wants};
    let mut pruned_some = 0;
    for f in files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if !wants(text.as_bytes()) {
            continue;
        }
        let skip = skippable(&text);
        if !skip.is_empty() {
            pruned_some += 1;
        }
        let rel = f.strip_prefix(root).unwrap_or(f);
        let (mut a, mut b) = (Facts::default(), Facts::default());
        let t0 = std::time::Instant::now();
        extract_with(rel, &text, &mut a, true);
        let t1 = std::time::Instant::now();
        extract_with(rel, &text, &mut b, false);
        let t2 = std::time::Instant::now();
        if std::env::var_os("RETRYLINT_PRUNE_DIR").is_some() {
            println!(
                "{} {} {} {:?} {:?}",
                f.display(),
                text.len(),
                skip.iter().map(|r| r.len()).sum::<usize>(),
                t1 - t0,
                t2 - t1
            );
        }
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", f.display());
        compact_lines_match(&text);
        // The spans the readers take without printing nodes are syn's.
        let (_, diff) = crate::systems::rust::extract::fast_span::tests::differences(&text);
        assert!(diff.is_empty(), "{}: {diff:?}", f.display());
    }
    pruned_some
}

/// Each line of the compact text is the blanked text's line
/// [`Compact::line`] names, and no other line of the blanked text holds
/// anything but blank space.
fn compact_lines_match(src: &str) {
    let (Some(c), Some(full)) = (pruned_compact(src).0, blanked(src)) else {
        return;
    };
    let full: Vec<&str> = full.split('\n').collect();
    let mut seen = vec![false; full.len()];
    for (k, line) in c.text.split('\n').enumerate() {
        let at = Compact::line(&c.shifts, k + 1) - 1;
        assert_eq!(Some(&line), full.get(at), "line {}", k + 1);
        seen[at] = true;
    }
    for (l, s) in full.iter().zip(&seen) {
        assert!(*s || l.trim().is_empty(), "{l}");
    }
}

#[test]
fn blank_lines_of_blanked_bodies_are_left_out_and_columns_kept() {
    let src = "const U: &str = \"a\n\n\nb\";\nfn a() {\n    let x = 1;\n\n    x\n}\nfn b() -> B {\n    ExponentialBuilder::default()\n}\n/// doc\n/// more\nfn c() { 2 }\n";
    let c = pruned_compact(src).0.expect("bodies blanked");
    // The literal's blank lines stay; the body's three inner lines go.
    assert!(
        c.text
            .starts_with("const U: &str = \"a\n\n\nb\";\nfn a() {\n}\n"),
        "{}",
        c.text
    );
    assert_eq!(
        c.text.lines().count(),
        src.lines().count() - 3,
        "{}",
        c.text
    );
    compact_lines_match(src);
    // Every span of the compact parse, mapped back, is the whole parse's.
    let whole = syn::parse_file(&blanked(src).unwrap()).unwrap();
    let spans = super::super::Spans::new(src);
    let w: Vec<_> = whole.items.iter().map(|i| spans.node(i)).collect();
    let part = syn::parse_file(&c.text).unwrap();
    let spans = super::super::Spans::shifted(src, c.shifts);
    let p: Vec<_> = part.items.iter().map(|i| spans.node(i)).collect();
    assert_eq!(w, p);
}

/// Every Rust file of the fixtures and the shared corpus: the facts are
/// the same whether or not the bodies [`skippable`] finds are blanked.
#[test]
fn pruning_changes_no_fact() {
    let roots = crate::extract::fixture_roots();
    let files = rust_files(&roots);
    assert!(files.len() > 30, "{}", files.len());
    assert!(compare(&files, std::path::Path::new("")) > 0);
}

/// The same over a real checkout: `RETRYLINT_PRUNE_DIR=/path cargo test
/// --lib prune_real -- --ignored`.
#[test]
#[ignore = "needs RETRYLINT_PRUNE_DIR=<a checkout>"]
fn prune_real() {
    let root = crate::systems::read::real_checkout("RETRYLINT_PRUNE_DIR");
    let files = rust_files(std::slice::from_ref(&root));
    let n = compare(&files, &root);
    println!("{} Rust files, {n} pruned, facts identical", files.len());
}

/// The one-pass word test answers what the three matchers it replaced
/// (code words in the code; text words, or `continue` + `await` + a
/// retry word, in the raw text) answered, on every function-sized piece
/// of the Rust fixtures and corpus and on shapes at the edges (a word in
/// a string or comment only, split by a literal, in another case).
#[test]
fn one_pass_word_test_is_the_three_matchers() {
    let m = |w: &[&str]| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(w)
            .unwrap()
    };
    let (code_w, text_w, again, awaits, says) = (
        m(CODE_WORDS),
        m(TEXT_WORDS),
        m(LOOP_AGAIN),
        m(LOOP_AWAIT),
        m(LOOP_SAYS),
    );
    // A code word but `retr` opening `retrieve`; a text word, `://` only
    // outside comments.
    let reference = |code: &[u8], bare: &[u8], raw: &[u8]| {
        code_w.find_overlapping_iter(code).any(|m| {
            !(code[m.range()].eq_ignore_ascii_case(b"retr")
                && raw
                    .get(m.end()..m.end() + 3)
                    .is_some_and(|x| x.eq_ignore_ascii_case(b"iev")))
        }) || text_w
            .find_overlapping_iter(raw)
            .any(|m| &raw[m.range()] != b"://")
            || memchr::memmem::find(bare, b"://").is_some()
            || (again.is_match(raw) && awaits.is_match(raw) && says.is_match(raw))
    };
    let mut texts: Vec<String> = [
        "fn a() { let s = \"retry\"; }",
        "fn a() { // Retry later\n x }",
        "fn a() { RETRY_LIMIT }",
        "fn a() { re\"\"try }",
        "fn a() { loop { continue; } x.await; /* attempt */ }",
        "fn a() { loop { continue; } x.await; }",
        "fn a() { let u = \"http://x\"; }",
        "fn a() { Backoff::new() }",
        "fn a() { tokio::time::sleep(d).await }",
        "fn a() { \"aws_config\" }",
        "fn a() { p.retrieve(x) }",
        "fn a() { p.Retrieve(x); retry() }",
        "fn a() { // https://x.io\n }",
        "fn a() { /* https://x.io */ \"http://y\" }",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in [root.join("testdata"), root.join("../shared/corpus")] {
        for e in ignore::WalkBuilder::new(dir).build().flatten() {
            if e.path().extension().is_some_and(|x| x == "rs")
                && let Ok(t) = std::fs::read_to_string(e.path())
            {
                texts.push(t);
            }
        }
    }
    let mut pieces = 0;
    for src in &texts {
        let Some(lexed) = lex(src) else { continue };
        let t = lexed.toks;
        let (code, bare) = code_only(src, &t, &lexed.comments);
        // Every span from one `fn` token to each later `}`: what the
        // pruner asks about and much more.
        for (i, x) in t.iter().enumerate() {
            if &src[x.s..x.e] != "fn" {
                continue;
            }
            for y in t[i..].iter().filter(|y| y.k == K::Punct(b'}')) {
                let (a, b) = (x.s, y.e);
                pieces += 1;
                assert_eq!(
                    wanted_text(&code[a..b], &bare[a..b], &src.as_bytes()[a..b]),
                    reference(&code[a..b], &bare[a..b], &src.as_bytes()[a..b]),
                    "{}",
                    &src[a..b]
                );
            }
        }
    }
    assert!(pieces > 100, "{pieces}");
}

/// The code-only text differs from the one built a token at a time (every
/// byte outside a token other than a literal a space) only where that one
/// has a space and the source blank space or a raw identifier's `r#`:
/// bytes no keep word holds.
#[test]
fn code_only_keeps_every_token_outside_literals() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts = vec!["fn r#type() { /* c */ let r = r#\"x\"#; // d\n\tx }".to_string()];
    for dir in [root.join("testdata"), root.join("../shared/corpus")] {
        for e in ignore::WalkBuilder::new(dir).build().flatten() {
            if e.path().extension().is_some_and(|x| x == "rs")
                && let Ok(t) = std::fs::read_to_string(e.path())
            {
                texts.push(t);
            }
        }
    }
    let mut compared = 0;
    for src in &texts {
        let Some(lexed) = lex(src) else { continue };
        let mut by_token = vec![b' '; src.len()];
        for x in lexed.toks.iter().filter(|x| x.k != K::Lit) {
            by_token[x.s..x.e].copy_from_slice(&src.as_bytes()[x.s..x.e]);
        }
        let (code, bare) = code_only(src, &lexed.toks, &lexed.comments);
        assert_eq!(code.len(), src.len());
        assert_eq!(bare.len(), src.len());
        for (i, (&a, &b)) in code.iter().zip(&by_token).enumerate() {
            assert!(
                a == b || (b == b' ' && (a.is_ascii_whitespace() || a == b'r' || a == b'#')),
                "byte {i} of {src}"
            );
        }
        compared += 1;
    }
    assert!(compared > 10, "{compared}");
}
