//! Fuzz targets: one function per parser and extractor entry point, each
//! taking arbitrary bytes. They are shared by the cargo-fuzz crate in
//! `fuzz/` (libFuzzer, see docs/FUZZING.md) and by the stable harness in
//! `tests/suite/robustness.rs` (proptest and the seed corpus), so that what CI
//! runs and what the fuzzers run is the same code.
//!
//! Each target checks more than "no panic": every span a parser or
//! extractor reports lies inside the text, on character boundaries, so
//! that no renderer can be handed an impossible position. A violation
//! panics, which both harnesses report as a failure.

pub mod numbers;

use crate::extract::{Facts, Syntax};
use crate::model::versions::BuildKind;
use crate::source::Span;
use crate::systems;
use std::path::Path;

/// A fuzz target: arbitrary bytes in, a panic only on a bug.
pub type Target = fn(&[u8]);

/// Every target, by name, for the stable harness.
pub const TARGETS: &[(&str, Target)] = &[
    ("yaml", yaml),
    ("jsonc", jsonc),
    ("nginx_lexer", nginx_lexer),
    ("nginx", nginx),
    ("properties", properties),
    ("ini", ini),
    ("rust", rust),
    ("java", java),
    ("config", config),
    ("extract", extract_any),
    ("pipeline", pipeline),
    ("link", link),
    ("numbers", numbers::fuzz),
];

/// Bytes as the scanner would hand them to a parser: UTF-8 only (the
/// reader rejects or re-decodes anything else first).
fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

fn span_ok(text: &str, s: Span, what: &str) {
    assert!(
        s.start <= s.end && s.end <= text.len(),
        "{what}: span {s:?} outside a text of {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(s.start) && text.is_char_boundary(s.end),
        "{what}: span {s:?} splits a character"
    );
}

/// The invariants every extractor's output must hold.
pub fn check_facts(text: &str, facts: &Facts) {
    for d in &facts.diagnostics {
        span_ok(text, d.span, d.code.as_str());
        for (s, _) in &d.related {
            span_ok(text, *s, d.code.as_str());
        }
    }
    for p in &facts.policies {
        span_ok(text, p.span, "policy");
        span_ok(text, p.attempts.span, "attempts");
        span_ok(text, p.delay.span, "delay");
        span_ok(text, p.jitter.span, "jitter");
        span_ok(text, p.retry_on.span, "retry_on");
        if let crate::model::RetryOn::Listed { conditions } = &p.retry_on.value {
            for c in conditions {
                span_ok(text, c.span, "condition");
            }
        }
        span_ok(text, p.methods.span, "methods");
        for t in p.per_try_timeout.iter().chain(&p.overall_timeout) {
            span_ok(text, t.span, "policy timeout");
        }
        for c in &p.ignores {
            span_ok(text, c.span, "ignored condition");
        }
        for s in &p.wraps_breaker {
            span_ok(text, *s, "wraps_breaker");
        }
        for k in &p.idempotency {
            span_ok(text, k.span, "idempotency key");
        }
    }
    for a in &facts.java.retry_annotations {
        assert!(
            a.policy < facts.policies.len(),
            "retry annotation of a missing policy"
        );
    }
    for u in &facts.java.annotation_uses {
        span_ok(text, u.span, "annotation use");
        for k in &u.keys {
            span_ok(text, k.span, "annotation use key");
        }
    }
    for e in &facts.edges {
        span_ok(text, e.span, "edge");
    }
    for t in &facts.timeouts {
        span_ok(text, t.timeout.span, "timeout");
    }
}

/// The YAML layer: parse, then walk every document through the lookup API
/// (entries with merge keys, aliases, items, scalars).
pub fn yaml(data: &[u8]) {
    let text = text(data);
    let file = crate::yaml::parse(&text);
    for e in &file.errors {
        span_ok(&text, e.span, "yaml error");
    }
    for doc in &file.documents {
        span_ok(&text, doc.span, "document");
        // A bounded walk: aliases may make the tree a DAG with many paths.
        let mut todo = vec![file.root(doc)];
        let mut seen = 0usize;
        while let Some(n) = todo.pop() {
            seen += 1;
            if seen > 10_000 {
                break;
            }
            span_ok(&text, n.span(), "node");
            let _ = (n.as_i64(), n.as_f64(), n.as_bool());
            for e in n.entries() {
                span_ok(&text, e.key_span, "key");
                let _ = n.get(e.key);
                todo.push(e.value);
            }
            todo.extend(n.items());
        }
    }
}

/// JSON with comments (.NET appsettings): comment stripping keeps offsets.
pub fn jsonc(data: &[u8]) {
    let text = text(data);
    let clean = crate::yaml::strip_jsonc(&text);
    assert_eq!(clean.len(), text.len(), "strip_jsonc changed the length");
    let facts = systems::extract(Path::new("appsettings.json"), &text, Syntax::Jsonc);
    check_facts(&text, &facts);
}

/// The nginx lexer on its own: tokens come in order, inside the text.
pub fn nginx_lexer(data: &[u8]) {
    let text = text(data);
    let mut lexer = systems::nginx::extract::lexer::Lexer::new(&text);
    let mut last = 0;
    loop {
        match lexer.next_token() {
            Ok(Some(t)) => {
                span_ok(&text, t.span, "token");
                assert!(t.span.start >= last, "tokens went backwards");
                assert!(t.span.end > t.span.start, "an empty token never ends");
                last = t.span.end;
            }
            Ok(None) => break,
            Err(e) => {
                span_ok(&text, e.span, "lex error");
                break;
            }
        }
    }
}

/// The nginx parser and extractor.
pub fn nginx(data: &[u8]) {
    let text = text(data);
    if let Err(e) = systems::nginx::extract::parser::parse(&text) {
        span_ok(&text, e.span, "parse error");
    }
    let facts = systems::extract(Path::new("nginx.conf"), &text, Syntax::Nginx);
    check_facts(&text, &facts);
}

/// Java `.properties` (Spring configuration).
pub fn properties(data: &[u8]) {
    let text = text(data);
    let parsed = systems::spring::properties::parse(&text, true);
    for (s, _) in &parsed.errors {
        span_ok(&text, *s, "properties error");
    }
    let facts = systems::extract(
        Path::new("application.properties"),
        &text,
        Syntax::Properties,
    );
    check_facts(&text, &facts);
}

/// AWS shared config (INI), redaction first as the scanner does.
pub fn ini(data: &[u8]) {
    let text = text(data);
    let redacted = systems::aws::extract::redact(&text);
    assert_eq!(redacted.len(), text.len(), "redaction changed the length");
    let facts = systems::extract(Path::new(".aws/config"), &redacted, Syntax::Ini);
    check_facts(&redacted, &facts);
}

/// Rust sources (the depth guard, then syn and the evaluator). Run on a
/// thread with the stack of a rayon worker, as in a scan.
pub fn rust(data: &[u8]) {
    let text = text(data).into_owned();
    let run = move || {
        let facts = systems::extract(Path::new("svc/src/lib.rs"), &text, Syntax::Rust);
        check_facts(&text, &facts);
    };
    on_worker_stack(run);
}

/// Java sources (tree-sitter and the Java extractor), on a worker's stack.
pub fn java(data: &[u8]) {
    let text = text(data).into_owned();
    on_worker_stack(move || {
        let facts = systems::extract(Path::new("src/main/java/A.java"), &text, Syntax::Java);
        check_facts(&text, &facts);
    });
}

/// `.retrylint.toml`: a bad file is an error with a position, never a panic.
pub fn config(data: &[u8]) {
    let text = text(data);
    let mut settings = crate::config::Settings::default();
    if let Err(e) = crate::config_file::parse(&text, ".retrylint.toml", &mut settings) {
        assert!(e.line >= 1 && e.column >= 1, "error position {e:?}");
        let _ = e.to_string();
    }
    let _ = crate::config_file::effective_toml(&settings);
}

/// Any extractor: the first byte picks the syntax (and, for YAML, the file
/// name that decides which document extractors are offered it).
pub fn extract_any(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (path, syntax) = pick_syntax(pick);
    let text = text(rest).into_owned();
    on_worker_stack(move || {
        let facts = systems::extract(Path::new(path), &text, syntax);
        check_facts(&text, &facts);
    });
}

fn pick_syntax(pick: u8) -> (&'static str, Syntax) {
    const CHOICES: &[(&str, Syntax)] = &[
        ("deploy/vs.yaml", Syntax::Yaml),
        ("application.yml", Syntax::Yaml),
        ("docker-compose.yml", Syntax::Yaml),
        ("service_config.json", Syntax::Json),
        ("appsettings.json", Syntax::Jsonc),
        ("application.properties", Syntax::Properties),
        (".aws/config", Syntax::Ini),
        (".aws/credentials", Syntax::Ini),
        ("nginx.conf", Syntax::Nginx),
        ("svc/src/lib.rs", Syntax::Rust),
        ("src/main/java/A.java", Syntax::Java),
        ("varnish/default.vcl", Syntax::Vcl),
        ("WEB-INF/queue.xml", Syntax::QueueXml),
        ("infra/tasks.tf", Syntax::Terraform),
        // Appended, so that the bytes of earlier regressions keep their
        // choice.
        ("svc/client.py", Syntax::Python),
        ("Svc/Client.cs", Syntax::CSharp),
        ("svc/client.go", Syntax::Go),
        ("pom.xml", Syntax::Build(BuildKind::Maven)),
        ("build.gradle", Syntax::Build(BuildKind::Gradle)),
        (
            "gradle/libs.versions.toml",
            Syntax::Build(BuildKind::GradleCatalog),
        ),
        ("Cargo.lock", Syntax::Build(BuildKind::CargoLock)),
        ("Svc/Svc.csproj", Syntax::Build(BuildKind::MsBuild)),
    ];
    CHOICES[pick as usize % CHOICES.len()]
}

/// One file through the whole pipeline: extract, check, suppress, and
/// every renderer. Catches spans the renderers cannot place.
pub fn pipeline(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (path, syntax) = pick_syntax(pick);
    let text = text(rest).into_owned();
    on_worker_stack(move || {
        let facts = systems::extract(Path::new(path), &text, syntax);
        check_facts(&text, &facts);
        let mut scan = crate::Scan::default();
        scan.files.push(crate::ScannedFile {
            source: crate::source::SourceFile::new(path, text),
            facts,
            syntax: Some(syntax),
        });
        let settings = crate::config::Settings::default();
        let crate::pipeline::Run { scan, report, .. } =
            crate::pipeline::Pipeline::new(&settings).after_scan(scan, |_| true);
        use crate::render;
        let _ = render::pretty::render(&scan, &report.findings, true, 100);
        let _ = render::concise(&scan, &report.findings);
        let _ = render::json::render(&scan, &report.findings);
        // SARIF's rule catalogue is the same whatever the file: only a
        // result or a notice places anything from it (and serialising the
        // catalogue is most of a debug build's run here).
        if !(report.findings.is_empty() && report.suppressed.is_empty() && scan.notices.is_empty())
        {
            let _ = render::sarif::render(&scan, &report, &Default::default());
        }
        let gh = render::github::render(&scan, &report, &settings);
        // One workflow command per finding, whatever the file said.
        assert_eq!(gh.lines().count(), report.findings.len(), "{gh}");
        let _ = render::markdown::render(&scan, &report, &settings);
    });
}

/// Files that link steps join, by the byte that picks them.
const LINKED: &[(&str, Syntax)] = &[
    ("n/nginx.conf", Syntax::Nginx),
    ("n/conf.d/a.conf", Syntax::Nginx),
    ("n/conf.d/b.conf", Syntax::Nginx),
    ("n/snippets/c.conf", Syntax::Nginx),
    ("k/ingress.yaml", Syntax::Yaml),
    ("k/controller/configmap.yaml", Syntax::Yaml),
    ("s/src/main/resources/application.yml", Syntax::Yaml),
    ("s/src/main/java/A.java", Syntax::Java),
    ("s/src/main/java/retry/B.java", Syntax::Java),
    ("r/src/lib.rs", Syntax::Rust),
    ("r/src/retry.rs", Syntax::Rust),
];

/// The separator between the files of a `link` input.
pub const LINK_SEPARATOR: &[u8] = b"\n\x00\n";

/// Several files through extraction, every link step ([`crate::link::all`]:
/// nginx includes, ingress ConfigMaps, Resilience4j instances, Java retry
/// annotations, Rust macros) and the rules:
/// the input is up to eight files separated by [`LINK_SEPARATOR`], the
/// first byte of each picking its name. Besides no panic, every span of
/// every file's facts must still lie in that file after linking (a setting
/// joined from another file must not bring its spans along).
pub fn link(data: &[u8]) {
    let mut files = Vec::new();
    let mut rest = data;
    while files.len() < 8 && !rest.is_empty() {
        let (chunk, next) = match memchr::memmem::find(rest, LINK_SEPARATOR) {
            Some(i) => (&rest[..i], &rest[i + LINK_SEPARATOR.len()..]),
            None => (rest, &[][..]),
        };
        rest = next;
        let Some((&pick, body)) = chunk.split_first() else {
            continue;
        };
        let (path, syntax) = LINKED[pick as usize % LINKED.len()];
        files.push((path, syntax, text(body).into_owned()));
    }
    on_worker_stack(move || {
        let mut scan = crate::Scan::default();
        for (path, syntax, text) in files {
            let facts = systems::extract(Path::new(path), &text, syntax);
            scan.files.push(crate::ScannedFile {
                source: crate::source::SourceFile::new(path, text),
                facts,
                syntax: Some(syntax),
            });
        }
        // Roots that exist nowhere: the link steps' looks at the disk
        // find nothing.
        let roots = [std::path::PathBuf::from("/nonexistent/retrylint-fuzz")];
        crate::link::all(&mut scan.files, &roots);
        for f in &scan.files {
            check_facts(&f.source.text, &f.facts);
        }
        let settings = crate::config::Settings::default();
        let crate::pipeline::Run { scan, report, .. } =
            crate::pipeline::Pipeline::new(&settings).after_scan(scan, |_| true);
        let _ = crate::render::concise(&scan, &report.findings);
        let _ = crate::render::sarif::render(&scan, &report, &Default::default());
        let gh = crate::render::github::render(&scan, &report, &settings);
        assert_eq!(gh.lines().count(), report.findings.len(), "{gh}");
    });
}

/// Run `f` on a thread with a 2 MiB stack, the size of a rayon worker's
/// (so a recursion that would overflow in a scan overflows here too).
pub fn on_worker_stack(f: impl FnOnce() + Send + 'static) {
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn");
    if let Err(panic) = handle.join() {
        std::panic::resume_unwind(panic);
    }
}
