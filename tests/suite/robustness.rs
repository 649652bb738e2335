//! The fuzz targets of `src/robustness.rs` on the stable toolchain, in CI:
//! every target over the seed corpus (every file under testdata/, plus
//! each cut short and with bytes flipped), and proptest with a bounded
//! number of cases of arbitrary and structure-shaped bytes. Arbitrary
//! bytes in; a finding or nothing out; never a panic.
//!
//! `PROPTEST_CASES=100000 cargo test --test suite robustness::` runs longer; the
//! libFuzzer targets in `fuzz/` run the same functions (docs/FUZZING.md).

use proptest::prelude::*;
use retrylint::robustness::{self, TARGETS};
use std::path::Path;

fn target(name: &str) -> robustness::Target {
    TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .unwrap()
}

/// Every file under testdata/, by its path there, once per content (the
/// fix fixtures repeat files byte for byte), in path order: the same
/// seeds, mangled the same way, in any checkout.
fn seeds() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut out = Vec::new();
    let mut todo = vec![root.clone()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if let Ok(b) = std::fs::read(&p) {
                let rel = p.strip_prefix(&root).unwrap_or(&p);
                out.push((rel.to_string_lossy().into_owned(), b));
            }
        }
    }
    out.sort();
    let mut seen = std::collections::HashSet::new();
    out.retain(|(_, b)| seen.insert(b.clone()));
    assert!(out.len() > 300, "seed corpus: {} files", out.len());
    out
}

/// The targets that read a file of one syntax, and the extensions whose
/// seeds suit them; `extract` and `pipeline` get a syntax byte first.
fn targets_for(name: &str) -> Vec<&'static str> {
    let ext = name.rsplit('.').next().unwrap_or("");
    let mut t = vec!["extract", "pipeline"];
    t.extend(match ext {
        "yaml" | "yml" => &["yaml"][..],
        "json" => &["yaml", "jsonc"][..],
        "conf" => &["nginx", "nginx_lexer"][..],
        "properties" => &["properties"][..],
        "rs" => &["rust"][..],
        "java" => &["java"][..],
        "config" | "credentials" => &["ini"][..],
        "toml" => &["config"][..],
        _ => &[][..],
    });
    t
}

/// The byte that makes `extract` and `pipeline` read a seed as the
/// syntax its name says: the index in `pick_syntax`'s choices
/// (src/robustness.rs); anything else is read as YAML.
fn syntax_byte(name: &str) -> u8 {
    let file = name.rsplit('/').next().unwrap_or(name).to_ascii_lowercase();
    match file.rsplit('.').next().unwrap_or("") {
        _ if file == "pom.xml" => 17,
        _ if file == "libs.versions.toml" => 19,
        _ if file == "cargo.lock" => 20,
        _ if file == "queue.xml" => 12,
        "json" if file.contains("appsettings") => 4,
        "json" => 3,
        "properties" => 5,
        "config" => 6,
        "credentials" => 7,
        "conf" => 8,
        "rs" => 9,
        "java" => 10,
        "vcl" => 11,
        "tf" => 13,
        "py" => 14,
        "cs" => 15,
        "go" => 16,
        "gradle" | "kts" => 18,
        "csproj" | "props" => 21,
        _ => 0,
    }
}

/// The seeds whose index is `shard` modulo `SHARDS`, each through every
/// target that suits it: whole, cut short at a few points (as a
/// half-written file is), and with a few bytes flipped. The whole
/// pipeline (every rule and renderer) reads the whole seed and one cut;
/// `extract` reads every cut.
fn seed_shard(shard: usize) {
    for (name, bytes) in seeds().into_iter().skip(shard).step_by(SHARDS) {
        for t in targets_for(&name) {
            let run = |data: &[u8]| {
                if matches!(t, "extract" | "pipeline") {
                    let mut v = vec![syntax_byte(&name)];
                    v.extend_from_slice(data);
                    target(t)(&v)
                } else {
                    target(t)(data)
                }
            };
            run(&bytes);
            let cuts = if t == "pipeline" {
                &[9][..]
            } else {
                &[3, 5, 9][..]
            };
            for tenths in cuts {
                run(&bytes[..bytes.len() * tenths / 10]);
            }
            // A few bytes flipped, deterministically.
            if !bytes.is_empty() && t != "pipeline" {
                let mut m = bytes.clone();
                for k in 0..4 {
                    let i = (k * 7919 + name.len() * 31) % m.len();
                    m[i] ^= 0x20 | (k as u8);
                }
                run(&m);
            }
        }
    }
}

/// The seed corpus in shards, so that the test threads share it.
const SHARDS: usize = 4;

#[test]
fn every_target_reads_the_seed_corpus_whole_cut_and_mangled_0() {
    seed_shard(0);
}

#[test]
fn every_target_reads_the_seed_corpus_whole_cut_and_mangled_1() {
    seed_shard(1);
}

#[test]
fn every_target_reads_the_seed_corpus_whole_cut_and_mangled_2() {
    seed_shard(2);
}

#[test]
fn every_target_reads_the_seed_corpus_whole_cut_and_mangled_3() {
    seed_shard(3);
}

/// The byte `link` picks a file's name with (`LINKED` in
/// src/robustness.rs), from a fixture file's path.
fn link_pick(path: &str, conf_seen: &mut u8, java_seen: &mut u8) -> u8 {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == "nginx.conf" {
        0
    } else if path.contains("/snippets/") {
        3
    } else if name.ends_with(".conf") {
        *conf_seen += 1;
        if *conf_seen == 1 { 1 } else { 2 }
    } else if name.starts_with("application") {
        6
    } else if name.contains("configmap") || name.contains("controller") {
        5
    } else if name.ends_with(".yaml") || name.ends_with(".yml") {
        4
    } else if name.ends_with(".java") {
        *java_seen += 1;
        if *java_seen == 1 { 7 } else { 8 }
    } else {
        9
    }
}

#[test]
fn the_link_target_reads_every_multi_file_fixture() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/rules");
    let mut dirs = Vec::new();
    for code in std::fs::read_dir(&rules).unwrap().flatten() {
        for kind in ["err", "ok"] {
            for e in std::fs::read_dir(code.path().join(kind))
                .into_iter()
                .flatten()
                .flatten()
            {
                if e.path().is_dir() {
                    dirs.push(e.path());
                }
            }
        }
    }
    assert!(dirs.len() >= 5, "{dirs:?}");
    for dir in dirs {
        let mut files = Vec::new();
        let mut todo = vec![dir.clone()];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                if e.path().is_dir() {
                    todo.push(e.path());
                } else {
                    files.push(e.path());
                }
            }
        }
        files.sort();
        let mut input = Vec::new();
        let (mut conf_seen, mut java_seen) = (0, 0);
        for f in files.iter().take(8) {
            if !input.is_empty() {
                input.extend_from_slice(robustness::LINK_SEPARATOR);
            }
            input.push(link_pick(
                &f.to_string_lossy(),
                &mut conf_seen,
                &mut java_seen,
            ));
            input.extend(std::fs::read(f).unwrap());
        }
        robustness::link(&input);
        // Cut short, as a half-written change is.
        robustness::link(&input[..input.len() / 2]);
    }
}

/// Inputs shaped like config files: the punctuation and keywords the
/// parsers branch on, in random order.
fn structured() -> impl Strategy<Value = Vec<u8>> {
    let atoms = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ":",
        ": ",
        ",",
        ";",
        "\n",
        "\r\n",
        "\r",
        "  ",
        "-",
        "- ",
        "&a ",
        "*a",
        "<<: ",
        "!!str ",
        "\"",
        "'",
        "\\",
        "#",
        "//",
        "/*",
        "*/",
        "=",
        "\\u12",
        "${x}",
        "{{ v }}",
        "---\n",
        "retries:",
        "attempts: ",
        "maxAttempts",
        "retry",
        "http {",
        "location / {",
        "proxy_next_upstream_tries ",
        "proxy_pass http://a;",
        "upstream u {",
        "server 1.2.3.4;",
        "include x;",
        "include conf.d/*.conf;",
        "\n\u{0}\n",
        "nginx.ingress.kubernetes.io/proxy-next-upstream-tries: ",
        "retry-non-idempotent: \"true\"",
        "content_by_lua_block {",
        "[profile a]",
        "max_attempts = ",
        "retry_mode = ",
        "fn ",
        "loop {",
        "sleep(",
        ".retry(",
        "Duration::",
        "1",
        "0",
        "-1",
        "1e999",
        "99999999999999999999",
        "1.5s",
        "500ms",
        "é",
        "\u{0}",
        "\u{feff}",
        "apiVersion: networking.istio.io/v1\nkind: VirtualService\n",
        "resilience4j.retry.instances.a.",
        "methodConfig",
        "retryPolicy",
    ]);
    prop::collection::vec(atoms, 0..120).prop_map(|v| v.concat().into_bytes())
}

proptest! {
    // Bounded so that `cargo test` stays fast on two loaded cores.
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..512)) {
        for (_, t) in TARGETS {
            t(&data);
        }
    }

    #[test]
    fn config_shaped_bytes_never_panic(data in structured(), pick in any::<u8>()) {
        for (name, t) in TARGETS {
            if matches!(*name, "extract" | "pipeline") {
                let mut v = vec![pick];
                v.extend_from_slice(&data);
                t(&v);
            } else {
                t(&data);
            }
        }
    }
}

/// Inputs shaped like Java: the braces, headers, literals and comments the
/// body pruner lexes, in random order (mostly broken Java).
fn java_shaped() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "class A {",
        "record R(int a) {",
        "enum E { X;",
        "interface I {",
        "@interface T {",
        "{",
        "}",
        "void f() {",
        "int g(int x) throws IOException {",
        "A() {",
        "@Retryable(maxAttempts = 3) ",
        "@Override ",
        "@A({1, 2}) ",
        "return 1;",
        "call();",
        "retry.run(this::g);",
        "String k = UUID.randomUUID().toString();",
        "try { call(); } catch (Exception e) {}",
        "for (int i = 0; i < 3; i++) {",
        "Object o = new Object() {",
        "Runnable r = () -> {",
        "\"}\"",
        "'{'",
        "\"\"\"\n}\n\"\"\"",
        "// }\n",
        "/* { */",
        "\"http://b:8080\"",
        "(",
        ")",
        ";",
        "=",
        "\n",
        " ",
        "é",
    ]);
    prop::collection::vec(atoms, 0..80).prop_map(|v| v.concat())
}

/// Whole Java classes: members drawn from the shapes retry code and plain
/// code take, with names that meet (a method reference, a constructor, a
/// field set in a plain method), so that some bodies are pruned and others
/// must not be.
fn java_classes() -> impl Strategy<Value = String> {
    let names = prop::sample::select(vec!["a", "b", "c", "Svc"]);
    let statements = prop::sample::select(vec![
        "return;",
        "call();",
        "int x = 1;",
        "for (int i = 0; i < 3; i++) { call(); }",
        "if (ok) { call(); } else { other(); }",
        "String s = \"}{\";",
        "char c = '}';",
        "// }\n",
        "/* { */",
        "delay = Duration.ofMillis(200);",
        "maxAttempts = 4;",
        "waitMs = 500;",
        "count++;",
        "spare += 2;",
        "list.forEach(v -> { use(v); });",
        "new Thread(new Runnable() { public void run() { call(); } }).start();",
        "String key = UUID.randomUUID().toString(); api.post(\"/x\", Map.of(\"Idempotency-Key\", key));",
        "String id = RandomStringUtils.randomAlphanumeric(8); api.post(\"/x\", Map.of(\"Idempotency-Key\", id));",
        "api.get(\"http://payments:8080/x\");",
        "try { return; } catch (IOException e) { log(e); }",
    ]);
    let body = prop::collection::vec(statements, 0..4).prop_map(|v| v.join(" "));
    let member = (0..10u8, names, body).prop_map(|(kind, name, body)| match kind {
        0 => format!("  void {name}() {{ {body} }}\n"),
        1 => format!("  @Override public int {name}() {{ {body} return 1; }}\n"),
        2 => format!("  @Retryable(maxAttempts = 3) void {name}() {{ {body} }}\n"),
        3 => format!("  @RetryOnIo void {name}() {{ {body} }}\n"),
        4 => format!("  Svc() {{ {body} }}\n"),
        5 => format!("  void {name}Loop() {{ for (int i = 0; i < 3; i++) {{ try {{ call(); return; }} catch (IOException e) {{ Thread.sleep(100); }} }} }}\n"),
        6 => format!("  void retrying() {{ retry.executeRunnable(this::{name}); }}\n"),
        7 => "  private Duration delay;\n  private int maxAttempts;\n  private long waitMs = 100, spare;\n  int count;\n".to_string(),
        8 => "  RetryConfig config = RetryConfig.custom().maxAttempts(maxAttempts).waitDuration(delay).build();\n  RetryConfig other = RetryConfig.custom().waitDuration(Duration.ofMillis(waitMs)).build();\n".to_string(),
        _ => format!("  static class Inner {{ int {name}() {{ {body} return 2; }} }}\n"),
    });
    prop::collection::vec(member, 0..12).prop_map(|ms| {
        format!(
            "import io.github.resilience4j.retry.*;\nimport org.springframework.retry.annotation.Retryable;\nimport java.time.Duration;\nclass Svc {{\n{}}}\n",
            ms.concat()
        )
    })
}

fn check_pruning(src: &str) -> Result<bool, TestCaseError> {
    use retrylint::systems::java::extract::{extract_with, prune};
    let ranges = prune::skippable(src);
    let mut last = 0;
    for r in &ranges {
        prop_assert!(r.start >= last && r.start <= r.end && r.end <= src.len());
        prop_assert!(src.is_char_boundary(r.start) && src.is_char_boundary(r.end));
        prop_assert_eq!(&src[r.start - 1..r.start], "{");
        prop_assert_eq!(&src[r.end..r.end + 1], "}");
        last = r.end;
    }
    let clean = {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_java::LANGUAGE.into()).unwrap();
        !p.parse(src, None).unwrap().root_node().has_error()
    };
    if clean {
        let mut a = retrylint::extract::Facts::default();
        let mut b = retrylint::extract::Facts::default();
        extract_with(src, &mut a, true);
        extract_with(src, &mut b, false);
        prop_assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", src);
    }
    Ok(clean && !ranges.is_empty())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// The pruner's ranges are in order, apart and inside braces on any
    /// input, and a clean file's facts are the same with and without them.
    #[test]
    fn java_pruning_is_sound_on_broken_java(src in java_shaped()) {
        check_pruning(&src)?;
    }

    #[test]
    fn java_pruning_changes_no_fact_of_a_class(src in java_classes()) {
        check_pruning(&src)?;
    }
}

/// Issue 16: every setting's file is read (with an ordinary value it
/// yields a policy), so that the extremes below reach the arithmetic.
#[test]
fn every_numeric_setting_template_is_read() {
    use retrylint::robustness::numbers::{SETTINGS, scan};
    for s in SETTINGS {
        let out = scan(s, s.normal);
        assert!(out.policies > 0, "{}: no policy read", s.name);
        assert!(out.internal.is_empty(), "{}: {:?}", s.name, out.internal);
    }
}

/// Issue 16: the extremes of every numeric type (0, 1, -1, each integer
/// type's limits and one past them, huge numbers and strings, `1e309`,
/// `NaN`, `9999999999999999s` ...) in every numeric setting of every
/// format, through the `numbers` fuzz target's harness: each scan ends
/// without an internal error and in under its time limit (2 s; a typical
/// one takes milliseconds, and `model::backoff`'s tests check the
/// arithmetic itself deterministically).
#[test]
fn the_extremes_of_every_numeric_setting_scan_quickly() {
    use retrylint::robustness::numbers::{SETTINGS, extremes, fuzz};
    let values = extremes();
    for (i, _) in SETTINGS.iter().enumerate() {
        for v in &values {
            let mut data = vec![i as u8];
            data.extend_from_slice(v.as_bytes());
            fuzz(&data);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Arbitrary number-like values in arbitrary settings.
    #[test]
    fn number_like_values_in_any_setting_scan_quickly(
        pick in 0u8..=255,
        value in "[-+0-9eE.xXnaNifINFtyPTDHMSms:_ ]{0,40}",
    ) {
        let mut data = vec![pick];
        data.extend_from_slice(value.as_bytes());
        retrylint::robustness::numbers::fuzz(&data);
    }
}
