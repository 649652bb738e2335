//! Hand-written retry loops, `macro_rules!` retry macros and their call
//! sites, idempotency keys minted inside a retry, and URL literals.
//!
//! A loop (`loop`, `while`, `for`) is a retry loop when its body handles an
//! `Err` (a match arm, `is_ok()`/`is_err()`, `if let Ok`) and either sleeps
//! or goes round again, and leaves on success. Its bound is a counter
//! compared to a limit (with the check-before-increment off-by-one taken
//! into account), a range, or nothing (unbounded). Its delay is the
//! `sleep(..)` in its body: fixed, growing (a variable multiplied in the
//! loop) or randomised (`rand`, `jitter`).
//!
//! A `macro_rules!` macro whose arm contains such a loop is a retry macro:
//! its arms become templates in which the macro's parameters stand for the
//! attempts and the delay, instantiated at each call site with the call's
//! arguments (the spans of the policy are the arguments'). Calls in other
//! files are resolved after extraction ([`super::link_macros`]). An arm
//! whose attempts and delay are written in the macro, not handed in, makes
//! the same retry at every call: it is reported once, at its loop in the
//! definition (nineteenth pass: ockam's `retry!`, 95 calls, 191 findings).

use super::eval::{self, Eval, contains_word, pat_ident};
use super::{MacroCall, MacroDef, Spans};
use crate::extract::Facts;
pub use crate::model::rust_macros::{AttemptsT, DelayT, LoopT, MacroArg, MacroArm, Num};
use crate::model::*;
use crate::source::Span;
use proc_macro2::{Delimiter, TokenStream, TokenTree};
use std::time::Duration;
use syn::visit::Visit;
use syn::{Block, Expr, Item, Stmt};

mod bounds;
mod bounds_arms;
mod bounds_guard;
mod bounds_reads;
mod calls_into;
mod classify;
mod delay;
mod local_callee;
mod local_waits;
mod macros;
mod network;
mod policy;
mod policy_ends;
mod reach;
mod readiness;
mod remote;
mod remote_text;
mod shape;
mod shape_exits;
mod shape_words;
mod statuses;
mod waits;
mod walks;
use bounds::counters;
use delay::delegates_bound;
pub use macros::instantiate;
use macros::*;
use policy::loop_policy_local;

/// The prefix macro parameters get when a macro body is read as code.
const PARAM: &str = "__rl_p_";

impl MacroArm {
    fn params(&self) -> &[String] {
        match self {
            MacroArm::Loop { params, .. }
            | MacroArm::Forward { params, .. }
            | MacroArm::Other { params } => params,
        }
    }
}

/// Loops, macros, keys and URLs of every production function.
pub fn read<'b>(
    ev: &Eval<'_, '_>,
    bodies: &[(String, Option<&'b str>, &'b Block, Span)],
    macros: &[&syn::ItemMacro],
    facts: &mut Facts,
) {
    let spans = ev.spans;
    // Retry macros defined here.
    let mut defs: Vec<MacroDef> = Vec::new();
    for m in macros {
        let Some(name) = &m.ident else { continue };
        let arms = macro_arms(ev, &m.mac.tokens);
        if arms.iter().any(|a| matches!(a, MacroArm::Loop { .. })) {
            defs.push(MacroDef {
                name: name.to_string(),
                arms,
                span: spans.node(&m.mac),
            });
        }
    }
    // An arm that takes nothing from its call sites: once, here.
    for d in &defs {
        for mut p in at_definition(d) {
            p.name = Some(format!("{}! at every call", d.name));
            facts.policies.push(p);
        }
    }
    // A retry macro's own forwarding arm (`retry!($f) => retry!($f, 5,
    // 100)`) is a call site with literal arguments in this file.
    for d in &defs {
        for arm in &d.arms {
            if let MacroArm::Forward { target, args, .. } = arm
                && *target == d.name
                && args
                    .iter()
                    .filter(|a| a.param.is_none())
                    .all(|a| a.int.is_some())
            {
                let call = MacroCall {
                    name: d.name.clone(),
                    span: cover(args).unwrap_or(d.span),
                    args: args.clone(),
                    within: None,
                };
                if let Some(mut p) = instantiate(d, &call) {
                    p.name = Some(format!("{}! default arm", d.name));
                    facts.policies.push(p);
                }
            }
        }
    }
    // Names the file imports from network crates (`remote.rs`).
    let imports = remote_text::imports(spans.source());
    for (fname, impl_ty, block, fn_span) in bodies {
        let mut w = LoopFinder {
            ev,
            fname,
            impl_ty: *impl_ty,
            fn_start: spans.block(block).start,
            fn_span: *fn_span,
            bodies,
            imports: &imports,
            out: Vec::new(),
            calls: Vec::new(),
            inside: Vec::new(),
            not_taken: Vec::new(),
            under_timeout: 0,
        };
        w.visit_block(block);
        for p in w.out {
            facts.policies.push(p);
        }
        facts.loops_not_taken.append(&mut w.not_taken);
        for call in w.calls {
            match defs.iter().find(|d| d.name == call.name) {
                Some(d) => {
                    if let Some(p) = instantiate(d, &call) {
                        facts.policies.push(p);
                    }
                }
                None => facts.rust.macro_calls.push(call),
            }
        }
        urls(spans, block, facts);
    }
    // URL constants (`const LEDGER_URL: &str = "http://ledger:8080";`) are
    // calls too, wherever they are used.
    let mut consts: Vec<(&String, &&Expr)> = ev.ix.consts.iter().collect();
    consts.sort_by_key(|(name, _)| name.as_str());
    for (_, expr) in consts {
        if let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(l),
            ..
        }) = expr
        {
            url_edge(spans, l, facts);
        }
    }
    for d in defs {
        eval::macro_fact(d, facts);
    }
    calls_into::record(spans, bodies, facts);
}

struct LoopFinder<'e, 'a, 's, 'b, 'c> {
    ev: &'e Eval<'a, 's>,
    fname: &'b str,
    /// The type of the impl the function is in (what `self` is).
    impl_ty: Option<&'c str>,
    /// Where the function's body starts (the text a loop's function names
    /// before the loop: a loopback host).
    fn_start: usize,
    /// The whole function, signature included.
    fn_span: Span,
    /// The file's functions, for what an attempt calls (`remote.rs`).
    bodies: &'b [(String, Option<&'c str>, &'c Block, Span)],
    /// Names the file imports from network crates.
    imports: &'b [(String, String)],
    out: Vec<RetryPolicy>,
    calls: Vec<MacroCall>,
    /// Spans of retry loops already read (inner loops are not retries of
    /// their own).
    inside: Vec<Span>,
    /// Loops that looked like retries and were not taken, with why.
    not_taken: Vec<LoopNote>,
    /// Inside the future handed to a timeout (`timeout(d, async { loop
    /// {..} })`, `async { .. }.timeout(d)`): the time bounds its loops.
    under_timeout: u32,
}

/// A path's segments as written (`fs::read_to_string` gives `fs`,
/// `read_to_string`).
fn segments(p: &syn::Path) -> Vec<String> {
    p.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// `timeout(..)`, `tokio::time::timeout(..)`: a call that bounds the
/// future it is handed by time.
fn is_timeout_call(c: &syn::ExprCall) -> bool {
    matches!(&*c.func, Expr::Path(p)
        if p.path.segments.last().is_some_and(|s| s.ident == "timeout"))
        && c.args.len() == 2
}

/// Code that serves tests or the build, not the service: a `test_util`
/// (`test_utils`, `testing`, `testutil`) module folder or file, the
/// `xtask` crate of the cargo-xtask convention (build and dev commands),
/// and fuzz or test crates (`fuzz/`, `tests-fuzz/`, `integration-tests/`),
/// a workspace's test-harness crate (`core/integration/`, `e2e/`, a
/// `*-logictest/` runner, `benchmarks/`) and its
/// example programs (`examples/autojoin/src/main.rs`: crates of their own,
/// so not under a crate's `examples/` target folder). `integration`, `e2e`
/// and `examples` name a crate folder only (a `src/` below them): a
/// service's own `src/integration.rs` or `src/integration/` module is read.
pub fn test_support(path: &std::path::Path) -> bool {
    let parts: Vec<_> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    parts.iter().enumerate().any(|(i, c)| {
        let stem = c.strip_suffix(".rs").unwrap_or(c);
        matches!(
            stem,
            "test_util" | "test_utils" | "testing" | "testutil" | "testutils" | "xtask" | "fuzz"
        ) || stem.starts_with("tests-")
            || stem.ends_with("-tests")
            || ((matches!(&**c, "integration" | "e2e" | "examples" | "benchmarks")
                // (a logic-test runner: readyset's `readyset-logictest/`;
                // a stress tool is a client of a real deployment and read)
                || c.ends_with("-logictest"))
                && parts[i + 1..].iter().any(|p| p == "src"))
    })
}

#[cfg(test)]
#[test]
fn harness_and_example_crates_are_test_support_and_modules_of_that_name_are_not() {
    use std::path::Path;
    for yes in [
        "core/integration/src/lib.rs",
        "e2e/src/main.rs",
        "examples/autojoin/src/main.rs",
        "benchmarks/src/utils/mod.rs",
        "readyset-logictest/src/in_process_readyset.rs",
        "fuzz/src/lib.rs",
        "src/test_utils.rs",
    ] {
        assert!(test_support(Path::new(yes)), "{yes}");
    }
    for no in [
        "src/integration.rs",
        "payments/src/integration/mod.rs",
        "src/e2e.rs",
        "src/examples/mod.rs",
        "walrus-stress/src/generator.rs",
        "server/src/lib.rs",
    ] {
        assert!(!test_support(Path::new(no)), "{no}");
    }
}

/// Words that make an error check a predicate rather than "any error".
const PREDICATE_WORDS: &[&str] = &[
    "retryable",
    "transient",
    "temporary",
    "is_timeout",
    "is_connect",
    ".kind()",
    "status()",
    "should_retry",
];

pub(crate) const STD_MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "write",
    "writeln",
    "vec",
    "panic",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "matches",
    "todo",
    "unreachable",
    "unimplemented",
    "format_args",
    "concat",
    "stringify",
    "include_str",
    "env",
    "dbg",
    "info",
    "warn",
    "error",
    "debug",
    "trace",
    "json",
    "bail",
    "anyhow",
    "ensure",
];

impl<'a> Visit<'a> for LoopFinder<'_, '_, '_, '_, '_> {
    fn visit_item(&mut self, _: &'a Item) {}

    fn visit_block(&mut self, b: &'a Block) {
        // Loops with the statements before them in this block.
        let mut before: Vec<&'a Stmt> = Vec::new();
        for s in &b.stmts {
            self.visit_stmt_with(s, &before);
            before.push(s);
        }
    }

    fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
        let t = is_timeout_call(c);
        self.under_timeout += u32::from(t);
        syn::visit::visit_expr_call(self, c);
        self.under_timeout -= u32::from(t);
    }

    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        let t = m.method == "timeout" && m.args.len() == 1;
        self.under_timeout += u32::from(t);
        syn::visit::visit_expr_method_call(self, m);
        self.under_timeout -= u32::from(t);
    }

    fn visit_macro(&mut self, m: &'a syn::Macro) {
        let name = m
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if STD_MACROS.contains(&name.as_str()) {
            return;
        }
        let lower = name.to_ascii_lowercase();
        let args = split_args(self.ev.spans, &m.tokens);
        // Retry-looking names, or calls with literal counts that a retry
        // macro in another file may take.
        if lower.contains("retry")
            || lower.contains("backoff")
            || (args.len() >= 2 && args.iter().any(|a| a.int.is_some()))
        {
            let span = self.ev.spans.node(m);
            self.calls.push(MacroCall {
                name,
                span,
                args,
                within: (!self.fname.is_empty()).then(|| self.fname.to_string()),
            });
        }
    }
}

impl<'a> LoopFinder<'_, '_, '_, '_, '_> {
    fn visit_stmt_with(&mut self, s: &'a Stmt, before: &[&'a Stmt]) {
        struct Top<'x> {
            loops: Vec<&'x Expr>,
        }
        impl<'x> Visit<'x> for Top<'x> {
            fn visit_item(&mut self, _: &'x Item) {}
            fn visit_block(&mut self, _: &'x Block) {}
            fn visit_expr(&mut self, e: &'x Expr) {
                if matches!(e, Expr::Loop(_) | Expr::While(_) | Expr::ForLoop(_)) {
                    self.loops.push(e);
                    return;
                }
                syn::visit::visit_expr(self, e);
            }
        }
        // Loops directly in this statement (not in nested blocks, which
        // visit_block reaches with their own `before`).
        let mut top = Top { loops: Vec::new() };
        top.visit_stmt(s);
        for e in &top.loops {
            let span = self.ev.spans.node(*e);
            let nested = self
                .inside
                .iter()
                .any(|c| c.start <= span.start && span.end <= c.end);
            if nested {
                continue;
            }
            let t = match self.analyze(e, before) {
                // A loop in a future handed to a timeout stops when the
                // time is up: bounded, by a count the clock decides.
                Ok(mut t) if self.under_timeout > 0 => {
                    if let AttemptsT::Unbounded { span } = t.attempts {
                        t.attempts = AttemptsT::Unknown { span };
                    }
                    t
                }
                Ok(t) => t,
                Err(why) => {
                    if let Some(why) = why {
                        let head = match e {
                            Expr::Loop(l) => self.ev.spans.node(&l.loop_token),
                            Expr::While(w) => self
                                .ev
                                .spans
                                .node(&w.while_token)
                                .cover(self.ev.spans.node(&*w.cond)),
                            Expr::ForLoop(f) => self
                                .ev
                                .spans
                                .node(&f.for_token)
                                .cover(self.ev.spans.node(&*f.expr)),
                            _ => span,
                        };
                        self.not_taken.push(LoopNote {
                            span: head,
                            reasons: vec![why],
                        });
                    }
                    continue;
                }
            };
            self.inside.push(span);
            let mut p = loop_policy_local(&t);
            p.name = Some(format!("retry loop in {}", self.fname));
            // A wait read from `Retry-After` in the loop (RL208).
            if let Some(text) = self.ev.spans.source().get(span.start..span.end)
                && let Some((s, e, d)) =
                    crate::model::backoff::ServerDelay::in_source(text, "a hand-written loop")
            {
                p.server_delay = Some(Located::written(
                    d,
                    Span::new(span.start + s, span.end.min(span.start + e)),
                ));
            }
            // The HTTP method of the retried call, where the loop names one.
            if let Some(m) = crate::extract::http_method::of_call(self.ev.spans.source(), span) {
                p.methods = m;
            }
            p.idempotency = keys(self.ev.spans, span);
            // A reqwest call through a client with no timeout (RL304).
            super::clients::unbounded_try(self.ev, span, &mut p);
            // Keys minted before the loop, once for every attempt.
            for st in before.iter() {
                let s = self.ev.spans.node(*st);
                p.idempotency
                    .extend(keys_used_until(self.ev.spans, s, span.end).into_iter().map(
                        |mut k| {
                            k.inside_retry = false;
                            k
                        },
                    ));
            }
            self.out.push(p);
        }
        syn::visit::visit_stmt(self, s);
    }
}

/// Idempotency keys minted inside `scope` (a loop or retry closure) and
/// used as a key-like header or field.
pub fn keys(spans: &Spans<'_>, scope: Span) -> Vec<IdempotencyKey> {
    keys_used_until(spans, scope, scope.end)
}

/// Keys minted in `scope` and used as a key up to `used_until`.
pub fn keys_used_until(spans: &Spans<'_>, scope: Span, used_until: usize) -> Vec<IdempotencyKey> {
    const MAKERS: &[&str] = &[
        "Uuid::new_v4()",
        "Uuid::now_v7()",
        "Ulid::new()",
        "nanoid!(",
        "rand::random",
        "thread_rng()",
        "rand::rng()",
    ];
    const KEYISH: &[&str] = &[
        "idempot",
        "requestid",
        "request_id",
        "request-id",
        "dedup",
        "idemkey",
    ];
    let text = spans.source();
    let region = spans.slice(scope);
    let mut out = Vec::new();
    for m in MAKERS {
        let mut from = 0;
        while let Some(i) = region[from..].find(m) {
            let at = scope.start + from + i;
            from += i + m.len();
            // The statement around it.
            let s = text[..at].rfind([';', '{']).map_or(0, |k| k + 1);
            let e = text[at..].find(';').map_or(text.len(), |k| at + k);
            let stmt = &text[s..e];
            let lower = stmt.to_ascii_lowercase();
            let mut keyish = KEYISH.iter().any(|k| lower.contains(k));
            // `let key = Uuid::new_v4();` then `.header("Idempotency-Key", key)`.
            if !keyish
                && let Some(name) = stmt.trim_start().strip_prefix("let ").map(|r| {
                    r.trim_start_matches("mut ")
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect::<String>()
                })
                && !name.is_empty()
            {
                let rest = &text[e..used_until.max(e).min(text.len())];
                keyish = rest.split([';', '\n']).any(|l| {
                    contains_word(l, &name)
                        && KEYISH.iter().any(|k| l.to_ascii_lowercase().contains(k))
                });
            }
            if keyish {
                out.push(IdempotencyKey {
                    span: Span::new(at, at + m.len()),
                    created_by: m.trim_end_matches('(').to_string(),
                    inside_retry: true,
                });
            }
        }
    }
    out
}

/// URL literals (`"http://payments:8080/api"`) in code (not in comments or
/// doc comments) as call edges.
fn urls(spans: &Spans<'_>, block: &Block, facts: &mut Facts) {
    struct Strs<'s, 'f> {
        spans: &'s Spans<'s>,
        facts: &'f mut Facts,
    }
    impl<'a> Visit<'a> for Strs<'_, '_> {
        fn visit_item(&mut self, _: &'a Item) {}
        fn visit_lit_str(&mut self, l: &'a syn::LitStr) {
            url_edge(self.spans, l, self.facts);
        }
    }
    Strs { spans, facts }.visit_block(block);
}

/// A call edge for a string literal that is an HTTP URL of a real host.
fn url_edge(spans: &Spans<'_>, l: &syn::LitStr, facts: &mut Facts) {
    let v = l.value();
    let Some((_, rest)) = v.split_once("://") else {
        return;
    };
    if !(v.starts_with("http://") || v.starts_with("https://")) {
        return;
    }
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let bare = host.rsplit_once(':').map_or(host, |(h, _)| h);
    if bare.is_empty()
        || matches!(bare, "localhost" | "127.0.0.1" | "0.0.0.0" | "[::1]")
        || bare.starts_with("example.")
        || bare.ends_with(".example.com")
        || bare.contains(['{', '}', ' '])
    {
        return;
    }
    let span = spans.node(l);
    // A link for people (`issue_link: "https://.."`), as the call pre-pass
    // decides it.
    if crate::extract::calls::documentation_field(spans.source(), span.start) {
        return;
    }
    facts.edges.push(CallEdge {
        client: None,
        caller: None,
        callee: crate::extract::short_host(host),
        span,
        policies: Vec::new(),
        via: "URL literal".into(),
        protocol: None,
    });
}
