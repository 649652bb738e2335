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

pub mod eval;
pub mod guard;
pub mod loops;

use super::Facts;
use crate::model::*;
use crate::rules::settings::unparsable_file;
use crate::source::{LineIndex, Span};
use memchr::memmem;
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use syn::spanned::Spanned;

/// The extractor's name in [`Facts::extractors`].
pub const NAME: &str = "rust";

/// Words that make a `.rs` file worth parsing.
const NEEDLES: &[&str] = &[
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
    NEEDLES
        .iter()
        .any(|n| memmem::find(bytes, n.as_bytes()).is_some())
}

/// A retry macro a file defines (`macro_rules!` whose body retries), for
/// call sites in other files; resolved by [`link_macros`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MacroDef {
    pub name: String,
    pub arms: Vec<loops::MacroArm>,
    pub span: Span,
}

/// A call of a macro that may be a retry macro defined in another file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MacroCall {
    pub name: String,
    pub span: Span,
    /// The top-level comma-separated arguments with their spans and their
    /// integer value when they are integer literals.
    pub args: Vec<loops::MacroArg>,
    /// The enclosing function, for the policy's name.
    pub within: Option<String>,
}

/// What a Rust file leaves for the link step.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RustFacts {
    /// The crate directory derived from the path ([`crate_dir`]).
    pub crate_dir: Option<String>,
    pub macro_defs: Vec<MacroDef>,
    pub macro_calls: Vec<MacroCall>,
}

impl RustFacts {
    pub fn is_empty(&self) -> bool {
        self.macro_defs.is_empty() && self.macro_calls.is_empty()
    }
}

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

/// Converts proc-macro2 spans (1-based line, 0-based char column) to byte
/// spans, through the one helper in [`crate::source`].
pub struct Spans<'a> {
    text: &'a str,
    lines: LineIndex,
}

impl<'a> Spans<'a> {
    pub fn new(text: &'a str) -> Self {
        Spans {
            text,
            lines: LineIndex::lf_only(text),
        }
    }

    pub fn of(&self, s: proc_macro2::Span) -> Span {
        let (a, b) = (s.start(), s.end());
        let start = self
            .lines
            .offset_of_char_column(self.text, a.line, a.column);
        let end = self
            .lines
            .offset_of_char_column(self.text, b.line, b.column);
        Span::new(start, end.max(start))
    }

    pub fn node<T: Spanned + ?Sized>(&self, n: &T) -> Span {
        self.of(n.span())
    }

    /// The source text of a node.
    pub fn text<T: Spanned + ?Sized>(&self, n: &T) -> &'a str {
        let s = self.node(n);
        self.text.get(s.start..s.end).unwrap_or("")
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
    facts.rust.crate_dir = crate_dir(path);
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
    let parsed = syn::parse_file(text);
    let spans = Spans::new(text);
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
            eval::read_file(&file, &spans, facts);
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
    proc_macro2::extra::invalidate_current_thread_spans();
}

/// Resolve retry-macro calls against the retry macros other files define,
/// adding the call sites' policies to the calling files. A call resolves to
/// the one definition of that name in the caller's crate directory, or else
/// to the only definition of that name anywhere.
pub fn link_macros(files: &mut [crate::ScannedFile]) {
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
            if let Some(p) = loops::instantiate(def, call, &f.source.text) {
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
        let inner = format!("1{}", " + 1".repeat(guard::MAX_NESTING / 2));
        let depth = guard::MAX_BRACKET_DEPTH - 2;
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
    fn uninteresting_files_are_not_wanted() {
        assert!(!wants(b"fn main() { println!(\"hi\"); }"));
        assert!(wants(b"use backon::ExponentialBuilder;"));
        assert!(wants(b"std::thread::sleep(d)"));
    }
}

#[cfg(test)]
mod read_tests {
    use super::*;

    fn read(src: &str) -> Facts {
        let mut f = Facts::default();
        extract(Path::new("svc/src/lib.rs"), src, &mut f);
        f
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
        let f = read(include_str!(
            "../../../testdata/rules/RL403/err/rust-aws-config-default.rs"
        ));
        assert_eq!(f.policies.len(), 1, "{:?}", f.diagnostics);
    }
}
