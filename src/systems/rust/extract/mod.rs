//! Rust source (`*.rs`), read with syn: the retry crates' builders and
//! middleware, `tower::retry::Policy` implementations, the AWS SDK's
//! `RetryConfig`, hand-written retry loops and `macro_rules!` retry
//! macros, idempotency keys minted inside a retry, and URL literals.
//!
//! Only files that mention a retry word are parsed ([`wants`]); a file that
//! does not parse, or nests deeper than syn can take on a worker's stack
//! ([`guard`]), is an RL903 finding and the scan goes on.
//!
//! Doc comments, `#[cfg(test)]` items and `#[test]` functions are not
//! production settings and are skipped (syn does not parse doc comments as
//! code, and test-only items are not walked).
//!
//! Each system is modelled with its documented defaults, checked against
//! upstream source (see [`eval`] for each crate's citations):
//! - reqwest-retry / retry-policies: `ExponentialBackoff::builder()`:
//!   bounds 1 s..30 min, base 2, `Jitter::Full`; `build_with_max_retries(n)`
//!   is n retries; the default strategy retries 5xx, 408, 429, timeouts and
//!   connect/reset errors for every method and ignores `Retry-After`.
//! - backon: builders default to 1 s (x2 up to 60 s for exponential), 3
//!   retries, no jitter (additive `[d, 2d)` when enabled), every error
//!   retried unless `.when(..)`.
//! - tokio-retry: `ExponentialBackoff::from_millis(b)` waits b, b², b³ ms,
//!   no jitter unless `.map(jitter)`, unbounded unless `.take(n)`.
//! - retry: `retry(delays, op)` with `Exponential::from_millis(b)` (b ms,
//!   x2, no cap), `Fixed`, `Fibonacci`, `NoDelay`, endless unless
//!   `.take(n)` (n retries); `.map(jitter)` is full jitter; a `Result`'s
//!   error always goes round, `OperationResult::Err` gives up (the predicate).
//! - backoff (unmaintained, RUSTSEC-2025-0012): 500 ms x1.5 up to 60 s,
//!   randomisation 0.5 applied after the cap, 15 min `max_elapsed_time`
//!   (`None` retries forever).
//! - tower: `ExponentialBackoffMaker` doubles from `min` and adds up to
//!   `jitter` x the base, clipped at `max`.
//! - aws-config / aws-smithy-types: `RetryConfig::standard()` 3 attempts,
//!   1 s initial, 20 s max, full jitter; an SDK config loaded with no retry
//!   setting gets that default.
//!
//! Identity: extractors see one file, so the Cargo package name is not read
//! here. [`crate_dir`] derives the crate directory from the path (the parent
//! of the nearest `src/`, `tests/`, `benches/` or `examples/` folder); the
//! link step can read `<crate dir>/Cargo.toml`'s `[package] name`.

mod clients;
pub mod eval;
mod fast_span;
pub mod guard;
mod literals;
pub mod loops;
pub mod prune;

use crate::diag::unparsable_file;
use crate::extract::Facts;
use crate::model::*;
use crate::source::{LineIndex, Span};
use std::collections::HashMap;
use std::path::Path;
use syn::spanned::Spanned;

/// The extractor's name in [`Facts::extractors`].
pub const NAME: &str = "rust";

/// Words that make a `.rs` file worth parsing.
pub const NEEDLES: &[&str] = &[
    "retry",
    "Retry",
    "backoff",
    "Backoff",
    "backon",
    "sleep",
    "Uuid",
    "RETRY",
    "retries",
    "aws_config",
];

/// Whether a Rust file mentions anything this extractor reads.
pub fn wants(bytes: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<crate::extract::Needles> =
        std::sync::LazyLock::new(|| crate::extract::Needles::new(NEEDLES.iter().copied()));
    FINDER.any_in(bytes)
}

pub use crate::model::rust_macros::{MacroCall, MacroDef, RustFacts};

/// The crate directory of a Rust file: the parent of its nearest `src`,
/// `tests`, `benches` or `examples` ancestor, `/`-separated.
pub fn crate_dir(path: &Path) -> Option<String> {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    let i = parts
        .iter()
        .rposition(|p| matches!(p.as_str(), "src" | "tests" | "benches" | "examples"))?;
    Some(parts[..i].join("/"))
}

/// Whether the file's module is named for inter-process communication: a
/// folder below the crate's `src/` or the file's own name has the word
/// `ipc` (`src/ipc.rs`, `src/ipc/windows.rs`, `src/ipc_server.rs`; without
/// a `src/`, the file and its folder). Found on firezone's GUI client and
/// rustdesk: `connect_to_socket(id)`, `conn.send(..)` there reach the
/// program's own service process (`docs/loop-review.md`, sixteenth pass).
pub fn ipc_module(path: &Path) -> bool {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    let from = parts
        .iter()
        .rposition(|p| p == "src")
        .map_or(parts.len().saturating_sub(2), |i| i + 1);
    parts.iter().skip(from).take(16).any(|p| {
        let stem = p.strip_suffix(".rs").unwrap_or(p);
        stem.split(['_', '-', '.'])
            .any(|w| w.eq_ignore_ascii_case("ipc"))
    })
}

/// Whether `path` is in a crate's `tests/`, `benches/` or `examples/`
/// folder: the last of `src`, `tests`, `benches`, `examples` in the path
/// is one of the three, with no `src` above it (`src/tests/` is a module
/// folder of the crate's own source).
pub fn cargo_target_outside_src(path: &Path) -> bool {
    let special: Vec<&std::ffi::OsStr> = path
        .components()
        .map(|c| c.as_os_str())
        .filter(|c| {
            ["src", "tests", "benches", "examples"]
                .iter()
                .any(|d| c == d)
        })
        .collect();
    special.last().is_some_and(|c| *c != "src") && !special.iter().any(|c| *c == "src")
}

/// Converts proc-macro2 spans (1-based line, 0-based char column) to byte
/// spans, through the one helper in [`crate::source`].
pub struct Spans<'a> {
    text: &'a str,
    lines: LineIndex,
    /// The lines left out of the text syn parsed ([`prune::Compact`]).
    shifts: Vec<(usize, usize)>,
}

impl<'a> Spans<'a> {
    pub fn new(text: &'a str) -> Self {
        Self::shifted(text, Vec::new())
    }

    /// Spans of a parse of `text` with lines left out ([`prune::Compact`]).
    pub fn shifted(text: &'a str, shifts: Vec<(usize, usize)>) -> Self {
        Spans {
            text,
            lines: LineIndex::lf_only(text),
            shifts,
        }
    }

    pub fn of(&self, s: proc_macro2::Span) -> Span {
        let (a, b) = (s.start(), s.end());
        let line = |l: usize| prune::Compact::line(&self.shifts, l);
        let start = self
            .lines
            .offset_of_char_column(self.text, line(a.line), a.column);
        let end = self
            .lines
            .offset_of_char_column(self.text, line(b.line), b.column);
        Span::new(start, end.max(start))
    }

    /// A node's span (expressions without printing them: [`fast_span`]).
    pub fn node<T: Spanned + std::any::Any>(&self, n: &T) -> Span {
        self.of(fast_span::span(n))
    }

    /// The source text of a node.
    pub fn text<T: Spanned + std::any::Any>(&self, n: &T) -> &'a str {
        let s = self.node(n);
        self.text.get(s.start..s.end).unwrap_or("")
    }

    /// A block's span from its braces (cheap: `Spanned::span` on a block
    /// turns its whole body into tokens to join their spans).
    pub fn block(&self, b: &syn::Block) -> Span {
        self.of(b.brace_token.span.join())
    }

    pub fn block_text(&self, b: &syn::Block) -> &'a str {
        self.slice(self.block(b))
    }

    pub fn slice(&self, s: Span) -> &'a str {
        self.text.get(s.start..s.end).unwrap_or("")
    }

    pub fn source(&self) -> &'a str {
        self.text
    }
}

/// Read one Rust file. Never panics; problems become RL903.
pub fn extract(path: &Path, text: &str, facts: &mut Facts) {
    extract_with(path, text, facts, !*NO_PRUNE)
}

/// `RETRYLINT_NO_RUST_PRUNE=1` parses whole files, as before [`prune`]:
/// for measuring what pruning saves with one build (PERFORMANCE.md), and
/// a way out should a pruned body ever be missed. The facts are the same
/// either way (tests compare them).
static NO_PRUNE: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
    std::env::var_os("RETRYLINT_NO_RUST_PRUNE").is_some_and(|v| v == "1")
});

/// [`extract`], with the bodies no reader needs blanked before the parse
/// when `prune` (see [`prune`]; tests compare both ways).
pub fn extract_with(path: &Path, text: &str, facts: &mut Facts, prune: bool) {
    facts.rust.crate_dir = crate_dir(path);
    // Cargo builds a crate's `tests/`, `benches/` and `examples/` only for
    // `cargo test`, `cargo bench` and `--example`: their calls and retries
    // are not the service's.
    if cargo_target_outside_src(path) || loops::test_support(path) {
        return;
    }
    // The pruner's lexer and item scan loop over tokens (no recursion),
    // so any nesting is safe for them.
    // A test crate's files are left unread by the evaluator
    // (`eval::read_file`): no body of them is kept.
    let evaluated = !facts
        .rust
        .crate_dir
        .as_deref()
        .and_then(|d| d.rsplit('/').next())
        .is_some_and(eval::is_test_crate);
    let (compact, nothing_to_read) = if prune {
        prune::pruned_compact_for(text, evaluated)
    } else {
        (None, false)
    };
    // No function body is kept: the tree's readers would find nothing
    // but `macro_rules!` retry macros and URL constants, so without
    // either outside the blanked text (a `Uuid` or a retry word only in
    // comments, logs or tests, a URL only in a comment) the file is not
    // parsed. The one difference: a syntax error (or nesting too deep
    // for syn) outside its bodies is not reported, as in a file without
    // retry words (tests compare the facts with and without pruning).
    if nothing_to_read {
        crate::extract::calls::extract(text, crate::extract::calls::lex::Lang::Rust, facts);
        return;
    }
    if let Err(e) = guard::check(text) {
        facts.diagnostics.push(unparsable_file::nested_too_deep(
            Span::new(e.offset, (e.offset + 1).min(text.len())),
            e.what,
            e.limit,
        ));
        facts.claimed_by(NAME);
        return;
    }
    // Spans of a previous file on this thread are not needed any more, and
    // proc-macro2 keeps every parsed text until told so.
    proc_macro2::extra::invalidate_current_thread_spans();
    // The blanked text has the same character columns, and its lines are
    // the source's less those left out (`Compact`), so syn's spans are
    // read against the original text. A syntax error is reported from a
    // parse of the blanked text with every line, as before it was
    // compacted (the error's span may be past the last line).
    let (parsed, spans) = match compact {
        None => (syn::parse_file(text), Spans::new(text)),
        Some(c) => match syn::parse_file(&c.text) {
            Ok(file) => (Ok(file), Spans::shifted(text, c.shifts)),
            Err(_) => {
                proc_macro2::extra::invalidate_current_thread_spans();
                let blanked = prune::blanked(text);
                (
                    syn::parse_file(blanked.as_deref().unwrap_or(text)),
                    Spans::new(text),
                )
            }
        },
    };
    match parsed {
        Err(e) => {
            let at = spans.of(e.span());
            let lines = LineIndex::new(text);
            let line = lines.line_text(text, lines.line_of(at.start.min(text.len())));
            facts
                .diagnostics
                .push(unparsable_file::rust_syntax(at, &e.to_string(), line));
            facts.claimed_by(NAME);
        }
        Ok(file) => {
            let before = facts.policies.len() + facts.edges.len();
            let before_edges = facts.edges.len();
            eval::read_file(&file, &spans, facts, ipc_module(path));
            // Layers stacked in one file need a caller even where the path
            // names no crate: the file itself.
            if facts.rust.crate_dir.is_none()
                && let Some(stem) = path.file_stem().map(|s| s.to_string_lossy().to_string())
            {
                for e in facts.edges.iter_mut().skip(before_edges) {
                    if e.caller.is_none() && e.policies.len() > 1 {
                        e.caller = Some(stem.clone());
                    }
                }
            }
            if facts.policies.len() + facts.edges.len() > before || !facts.rust.is_empty() {
                facts.claimed_by(NAME);
            }
        }
    }
    // Call sites outside the retry code (and test modules declared in
    // their own file), as in a file without retry code.
    crate::extract::calls::extract(text, crate::extract::calls::lex::Lang::Rust, facts);
    proc_macro2::extra::invalidate_current_thread_spans();
}

/// Resolve retry-macro calls against the retry macros other files define,
/// adding the call sites' policies to the calling files. A call resolves to
/// the one definition of that name in the caller's crate directory, or else
/// to the only definition of that name anywhere.
pub fn link_macros(files: &mut [crate::model::ScannedFile]) {
    let mut defs: HashMap<&str, Vec<(Option<&str>, &MacroDef)>> = HashMap::new();
    for f in files.iter() {
        for d in &f.facts.rust.macro_defs {
            defs.entry(d.name.as_str())
                .or_default()
                .push((f.facts.rust.crate_dir.as_deref(), d));
        }
    }
    let mut added: Vec<(usize, Vec<RetryPolicy>)> = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let mut out = Vec::new();
        for call in &f.facts.rust.macro_calls {
            let Some(cands) = defs.get(call.name.as_str()) else {
                continue;
            };
            let same: Vec<&MacroDef> = cands
                .iter()
                .filter(|(dir, _)| *dir == f.facts.rust.crate_dir.as_deref())
                .map(|(_, d)| *d)
                .collect();
            let def = match (same.as_slice(), cands.as_slice()) {
                ([d], _) => *d,
                ([], [(_, d)]) => *d,
                _ => continue,
            };
            if let Some(p) = loops::instantiate(def, call) {
                out.push(p);
            }
        }
        if !out.is_empty() {
            added.push((i, out));
        }
    }
    for (i, ps) in added {
        let facts = &mut files[i].facts;
        facts.policies.extend(ps);
        facts.claimed_by(NAME);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(src: &str) -> Facts {
        let mut f = Facts::default();
        extract(Path::new("svc/src/lib.rs"), src, &mut f);
        f
    }

    #[test]
    fn the_crate_directory_comes_from_the_path() {
        assert_eq!(
            crate_dir(Path::new("a/rs/src/db.rs")).as_deref(),
            Some("a/rs")
        );
        assert_eq!(
            crate_dir(Path::new("w/crates/x/src/bin/src/m.rs")).as_deref(),
            Some("w/crates/x/src/bin")
        );
        assert_eq!(crate_dir(Path::new("main.rs")), None);
    }

    #[test]
    fn a_file_that_does_not_parse_is_rl903_and_reading_goes_on() {
        let f = read("fn retry( {\n");
        assert_eq!(f.diagnostics.len(), 1);
        assert_eq!(f.diagnostics[0].code, "RL903");
        assert!(
            f.diagnostics[0].message.contains("Rust"),
            "{}",
            f.diagnostics[0].message
        );
    }

    #[test]
    fn pathological_nesting_is_refused_before_syn_sees_it() {
        let src = format!(
            "fn retry() {{ let x = {}1{}; }}",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        let f = read(&src);
        assert_eq!(f.diagnostics.len(), 1);
        assert_eq!(f.diagnostics[0].code, "RL903");
        let src = format!("fn retry() {{ let x = 1{}; }}", " + 1".repeat(100_000));
        assert_eq!(read(&src).diagnostics[0].code, "RL903");
    }

    #[test]
    fn the_deepest_accepted_source_parses_on_a_small_stack() {
        // At the guard's limits syn must still fit on a 2 MiB worker stack.
        let depth = guard::MAX_BRACKET_DEPTH - 2;
        let inner = format!(
            "ExponentialBuilder::default(){}",
            ".with_jitter()".repeat(guard::MAX_NESTING - depth - 10)
        );
        let src = format!(
            "fn retry() {{ let x = {}{inner}{}; }}",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        let src = src.as_str().to_owned();
        let h = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || read(&src).diagnostics.len())
            .unwrap();
        assert_eq!(h.join().unwrap(), 0);
    }

    #[test]
    fn the_longest_accepted_chains_are_read_on_a_small_stack() {
        // Method chains and operator chains are left-nested trees that syn,
        // its drop and the evaluator all walk recursively.
        let n = guard::MAX_NESTING - 10;
        let chain = format!(
            "let b = ExponentialBuilder::default(){};",
            ".with_jitter()".repeat(n)
        );
        let ops = format!("let x = 1{};", " + 1".repeat(n));
        for body in [chain, ops] {
            let src = format!("fn retry() {{ {body} }}");
            assert!(guard::check(&src).is_ok());
            let h = std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn(move || read(&src).diagnostics.len())
                .unwrap();
            assert_eq!(h.join().unwrap(), 0);
        }
    }

    #[test]
    fn uninteresting_files_are_not_wanted() {
        assert!(!wants(b"fn main() { println!(\"hi\"); }"));
        assert!(wants(b"use backon::ExponentialBuilder;"));
        assert!(wants(b"std::thread::sleep(d)"));
    }
}

#[cfg(test)]
mod read_tests {
    use super::*;
    use std::time::Duration;

    fn read(src: &str) -> Facts {
        let mut f = Facts::default();
        extract(Path::new("svc/src/lib.rs"), src, &mut f);
        f
    }

    fn only(src: &str) -> RetryPolicy {
        let f = read(src);
        assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
        assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
        f.policies.into_iter().next().unwrap()
    }

    fn at(src: &str, s: Span) -> &str {
        &src[s.start..s.end]
    }

    #[test]
    fn an_aws_config_loaded_without_retry_settings_gets_the_sdk_default() {
        let f = read(
            "async fn c() -> Client {\n    let config = aws_config::load_defaults(BehaviorVersion::latest()).await;\n    Client::new(&config)\n}\n",
        );
        assert_eq!(f.policies.len(), 1, "{:?}", f.diagnostics);
        let p = &f.policies[0];
        assert_eq!(p.system, System::AwsSdk);
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
        assert!(p.attempts.is_default());
        let p = only(
            "async fn c() { let conf = aws_config::defaults(V).retry_config(RetryConfig::standard().with_max_attempts(5)).load().await; }",
        );
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
        assert!(p.attempts.is_written());
        assert_eq!(p.jitter.value, Jitter::Full);
    }

    #[test]
    fn a_backon_builder_in_a_struct_field_is_followed_to_its_uses() {
        let src = "struct L { b: ExponentialBuilder }\n\
            impl Default for L { fn default() -> Self { Self { b: ExponentialBuilder::default().with_jitter() } } }\n\
            impl L {\n\
              async fn get(&self) -> R { (|| self.fetch()).retry(self.b).when(|e| e.is_temporary()).await }\n\
              async fn put(&self) -> R { (|| self.store()).retry(self.b).await }\n\
            }\n";
        let p = only(src);
        assert_eq!(p.system, System::RustCrate("backon".into()));
        // The policy is where the builder is made.
        assert_eq!(at(src, p.span), "ExponentialBuilder::default()");
        assert_eq!(p.jitter.value, Jitter::Additive);
        // One use has no `.when`: every error is retried there.
        assert_eq!(p.retry_on.value, RetryOn::AllErrors);
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    }

    #[test]
    fn a_reqwest_retry_policy_is_followed_through_functions_constants_and_reassignment() {
        let src = "const RETRIES: u32 = 4;\n\
            fn policy(n: u32, fast: bool) -> ExponentialBackoff {\n\
              let mut b = ExponentialBackoff::builder();\n\
              if fast { b = b.retry_bounds(Duration::from_millis(0), Duration::from_millis(0)); }\n\
              else { b = b.jitter(Jitter::None).retry_bounds(Duration::from_millis(250), Duration::from_secs(8)); }\n\
              b.build_with_max_retries(n)\n\
            }\n\
            fn client() -> C { ClientBuilder::new(reqwest::Client::new()).with(RetryTransientMiddleware::new_with_policy(policy(RETRIES, false))).build() }\n";
        let p = only(src);
        assert_eq!(p.system, System::RustCrate("reqwest-retry".into()));
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
        assert_eq!(p.jitter.value, Jitter::None);
        assert_eq!(
            p.delay.value,
            Delay::Exponential {
                base: Duration::from_millis(250),
                multiplier: 2.0,
                cap: Some(Duration::from_secs(8))
            }
        );
        assert_eq!(p.methods.value, Methods::All);
        // reqwest has no timeout unless the client sets one.
        assert_eq!(
            p.per_try_timeout.as_ref().map(|t| (t.value, t.provenance)),
            Some((Timeout::Disabled, Provenance::Default))
        );
    }

    #[test]
    fn tokio_retry_strategies_are_powers_of_the_base_and_endless_without_take() {
        let p = only(
            "async fn f() { Retry::spawn(ExponentialBackoff::from_millis(100).factor(2).max_delay(Duration::from_secs(5)), op).await }",
        );
        assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
        assert_eq!(
            p.delay.value,
            Delay::Exponential {
                base: Duration::from_millis(200),
                multiplier: 100.0,
                cap: Some(Duration::from_secs(5))
            }
        );
        assert_eq!(p.retry_on.value, RetryOn::AllErrors);
        let p = only(
            "async fn f() { RetryIf::spawn(FixedInterval::from_millis(50).map(jitter).take(2), op, |e: &E| e.transient()).await }",
        );
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
        assert_eq!(p.jitter.value, Jitter::Full);
        assert!(matches!(p.retry_on.value, RetryOn::Listed { .. }));
    }

    #[test]
    fn the_backoff_crate_randomises_after_the_cap_and_stops_at_max_elapsed_time() {
        let p = only(
            "use backoff::ExponentialBackoff;\nasync fn f() { let b = ExponentialBackoff { initial_interval: Duration::from_millis(100), max_elapsed_time: Some(Duration::from_secs(60)), ..Default::default() }; backoff::future::retry(b, op).await }",
        );
        assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.5 });
        assert_eq!(p.cap_order, CapOrder::BeforeJitter);
        assert_eq!(
            p.overall_timeout.as_ref().map(|t| t.value),
            Some(Timeout::after(Duration::from_secs(60)))
        );
        assert!(matches!(p.attempts.value.count, AttemptCount::Finite(n) if n > 5));
        // `use backoff::retry;` then a bare `retry(..)`: the 15 min default
        // bounds the attempts; `?` makes every error transient.
        let p = only(
            "use backoff::{retry, ExponentialBackoff};\nfn f() -> R { retry(ExponentialBackoff::default(), || Ok(get()?)) }",
        );
        assert_eq!(p.retry_on.value, RetryOn::AllErrors);
        assert_eq!(
            p.overall_timeout.as_ref().map(|t| t.value),
            Some(Timeout::after(Duration::from_secs(900)))
        );
        assert!(p.attempts.is_default());
    }

    #[test]
    fn loop_bounds_count_attempts_with_their_off_by_ones() {
        let body = "match client.call() { Ok(v) => return Ok(v), Err(_) => std::thread::sleep(Duration::from_millis(10)) }";
        let cases = [
            (
                format!("let mut n = 0; while n < 3 {{ n += 1; {body} }}"),
                3,
            ),
            (format!("for _ in 1..=4 {{ {body} }}"), 4),
            (format!("for _ in 0..4 {{ {body} }}"), 4),
            // Checked before the increment: `n > 2` stops on the 4th try.
            (
                "let mut n = 0; loop { match client.call() { Ok(v) => return Ok(v), Err(e) => { if n > 2 { return Err(e); } n += 1; sleep(Duration::from_secs(1)); } } }".to_string(),
                4,
            ),
            // Incremented first: `n >= 3` stops on the 3rd.
            (
                "let mut n = 0; loop { match client.call() { Ok(v) => return Ok(v), Err(e) => { n += 1; if n >= 3 { return Err(e); } sleep(Duration::from_secs(1)); } } }".to_string(),
                3,
            ),
        ];
        for (b, want) in cases {
            let src = format!("fn f() -> Result<u8, E> {{ {b} Err(E) }}");
            let p = only(&src);
            assert_eq!(p.system, System::RustLoop);
            assert_eq!(p.attempts.value.count, AttemptCount::Finite(want), "{b}");
        }
        let p = only(
            "fn f() { loop { if let Ok(v) = client.call() { break v; } std::thread::sleep(Duration::from_secs(1)); } }",
        );
        assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
        assert_eq!(
            p.delay.value,
            Delay::Fixed {
                delay: Duration::from_secs(1)
            }
        );
        assert_eq!(p.jitter.value, Jitter::None);
    }

    #[test]
    fn iterating_over_work_is_not_a_retry_loop() {
        let f = read(
            "fn f(items: &[I]) { for i in items { match send(i) { Ok(_) => continue, Err(e) => { log(e); sleep(Duration::from_secs(1)); } } } }",
        );
        assert!(f.policies.is_empty(), "{:?}", f.policies);
    }

    #[test]
    fn a_growing_randomised_delay_in_a_loop_is_jittered_backoff() {
        let p = only(
            "async fn f() { let mut delay = Duration::from_millis(100); for _ in 0..5 { match client.call().await { Ok(v) => return v, Err(_) => { tokio::time::sleep(delay + jitter()).await; delay *= 2; } } } }",
        );
        assert!(matches!(
            p.delay.value,
            Delay::Custom | Delay::Exponential { .. }
        ));
        assert_ne!(p.jitter.value, Jitter::None);
    }

    #[test]
    fn test_code_doc_comments_and_comments_are_not_read() {
        let f = read(
            "/// let b = ExponentialBuilder::default(); \"http://docs:1/x\"\n\
             fn f() { // ExponentialBuilder::default()\n }\n\
             #[cfg(test)]\nmod tests { fn t() { let b = ExponentialBuilder::default(); let u = \"http://orders:8080\"; } }\n\
             #[test]\nfn t2() { let b = ConstantBuilder::default(); }\n",
        );
        assert!(f.policies.is_empty(), "{:?}", f.policies);
        assert!(f.edges.is_empty(), "{:?}", f.edges);
    }

    #[test]
    fn url_literals_are_call_edges() {
        let src = "fn c() -> R { reqwest::get(\"http://payments:8080/api/charge\") }\nfn d() { let a = \"http://localhost:3000\"; }";
        let f = read(src);
        assert_eq!(f.edges.len(), 1);
        assert_eq!(f.edges[0].callee, "payments");
        assert_eq!(
            at(src, f.edges[0].span),
            "\"http://payments:8080/api/charge\""
        );
    }

    #[test]
    fn spans_stay_right_after_non_ascii_text() {
        let src = "// Grüße, 重试 — 𝄞\nfn f() { let s = \"é\"; let b = ExponentialBuilder::default().with_max_times(9); }";
        let p = only(src);
        assert_eq!(at(src, p.attempts.span), "with_max_times(9)");
        assert_eq!(at(src, p.span), "ExponentialBuilder::default()");
    }

    #[test]
    fn idempotency_keys_minted_inside_a_retry_are_marked() {
        let inside = only(
            "async fn f() { for _ in 0..3 { let key = Uuid::new_v4(); match client.post(u).header(\"Idempotency-Key\", key.to_string()).send().await { Ok(r) => return r, Err(_) => sleep(Duration::from_secs(1)).await } } }",
        );
        assert_eq!(inside.idempotency.len(), 1);
        assert!(inside.idempotency[0].inside_retry);
        let outside = only(
            "async fn f() { let key = Uuid::new_v4(); for _ in 0..3 { match client.post(u).header(\"Idempotency-Key\", key.to_string()).send().await { Ok(r) => return r, Err(_) => sleep(Duration::from_secs(1)).await } } }",
        );
        assert_eq!(outside.idempotency.len(), 1);
        assert!(!outside.idempotency[0].inside_retry);
        // A random value that is not a key is not one.
        let other = only(
            "async fn f() { for _ in 0..3 { let n = rand::random::<u8>(); match client.get(n).await { Ok(r) => return r, Err(_) => sleep(Duration::from_secs(1)).await } } }",
        );
        assert!(other.idempotency.is_empty());
        // Inside a backon closure.
        let backon = only(
            "async fn f() { (|| async { let request_id = Uuid::new_v4(); send(request_id).await }).retry(ConstantBuilder::default()).when(|e| e.t()).await }",
        );
        assert_eq!(backon.idempotency.len(), 1);
    }

    #[test]
    fn retry_macros_resolve_across_files() {
        let def = "#[macro_export]\nmacro_rules! again {\n ($f:expr, $n:expr, $ms:expr) => {{ let mut i = 0; loop { let r = $f; if r.is_ok() { break r; } else if i >= $n { break r; } else { i += 1; std::thread::sleep(std::time::Duration::from_millis($ms)); } } }};\n}\n";
        let call = "fn g() -> R { crate::again!(connect(), 2, 250) }\n";
        let mut files = Vec::new();
        for (path, text) in [("a/src/m.rs", def), ("a/src/g.rs", call)] {
            let mut facts = Facts::default();
            extract(Path::new(path), text, &mut facts);
            files.push(crate::model::ScannedFile {
                source: crate::source::SourceFile::new(path, text.to_string()),
                facts,
                syntax: Some(Syntax::Rust),
            });
        }
        assert!(files[1].facts.policies.is_empty());
        link_macros(&mut files);
        let p = &files[1].facts.policies[0];
        // `i >= $n` checked before the increment: $n + 1 attempts.
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
        assert_eq!(at(call, p.attempts.span), "2");
        assert_eq!(at(call, p.delay.span), "250");
        assert_eq!(
            p.delay.value,
            Delay::Fixed {
                delay: Duration::from_millis(250)
            }
        );
    }
}

#[cfg(test)]
mod cargo_target_tests {
    use super::cargo_target_outside_src;
    use std::path::Path;

    #[test]
    fn tests_benches_and_examples_are_not_the_service() {
        for (path, outside) in [
            ("orders/tests/cluster.rs", true),
            ("orders/benches/load.rs", true),
            ("orders/examples/demo.rs", true),
            ("orders/src/main.rs", false),
            ("orders/src/tests/helpers.rs", false),
            ("tests/fixtures/app/src/lib.rs", false),
            ("lib.rs", false),
        ] {
            assert_eq!(cargo_target_outside_src(Path::new(path)), outside, "{path}");
        }
    }
}

/// Code text with every whitespace character removed, for the textual
/// tests (`backoff.next()`, `n+=1`): rustfmt splits a method chain or an
/// expression over lines, and the same code must read the same way.
pub(crate) fn squash(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}
