//! Java source: retry policies written in code, read with tree-sitter.
//!
//! - Resilience4j programmatic configuration ([`r4j`]): `RetryConfig`
//!   builders, `Retry.of`, registry lookups, `@Retry`, and how a retry is
//!   composed with circuit breakers and time limiters.
//! - Spring Retry and Spring Framework 7 `@Retryable`, Spring Retry
//!   `RetryTemplate` builders ([`spring`]).
//! - Spring Framework 7 `RetryPolicy` and `RetryTemplate`
//!   ([`core_retry`]).
//! - Failsafe `RetryPolicy` builders ([`failsafe`]).
//! - guava-retrying `RetryerBuilder` chains ([`guava_retrying`]).
//! - OpenFeign `Retryer.Default` and `Feign.builder()` ([`feign`]).
//! - Reactor `retryWhen(..)` / `.retry(n)` on `Mono`/`Flux` chains
//!   ([`reactor`]).
//! - Spring Cloud Gateway routes built with `RouteLocatorBuilder` and
//!   their `retry` filters ([`gateway_routes`]).
//! - Hand-written retry loops ([`loops`]).
//! - Idempotency keys minted inside a retry scope, and URL literals as call
//!   edges (here).
//!
//! A file is parsed only when a cheap sniff ([`wants`]) finds a word that
//! retry code uses; a parse error is tolerated (what parses is read).
//! Nothing here recurses on the tree's depth: traversals use explicit
//! stacks, and helpers that follow variables stop at [`ast::MAX_DEPTH`].

pub mod apache_retry;
pub mod ast;
pub mod aws_sdk;
pub mod clients;
pub mod concat;
pub mod core_retry;
pub mod failsafe;
pub mod feign;
pub mod gateway_routes;
pub mod guava_retrying;
pub mod intervals;
pub mod loops;
pub mod predicates;
pub mod prune;
pub mod r4j;
pub mod reactor;
pub mod spring;

use crate::extract::Facts;
use crate::model::*;
use crate::source::Span;
use ast::{Kind, MAX_DEPTH, field, named_children, span, text, unwrap_expr};
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::{Node, Parser};

mod ctx;
mod tree_index;
mod unbounded_clients;

pub use ctx::{Ctx, Var};

/// Words that make a Java file worth parsing.
const SNIFF: &[&str] = &[
    "retry",
    "Retry",
    "RETRY",
    "retries",
    "Retries",
    "RETRIES",
    "Failsafe",
    // A Feign client retries 5 times unless told otherwise; a Spring
    // Cloud one is a call.
    "Feign.builder",
    "FeignClient",
    "sleep",
    "parkNanos",
    "UUID",
    // Counters, not the word "attempt" of comments ("attempt to ..").
    "attempts",
    "Attempts",
    "ATTEMPTS",
    "attempt++",
    "attempt <",
    "backoff",
    "Backoff",
    "BackOff",
    // A loop with no way out but success: the shape of a retry at once
    // with no retry word in it (issue 28, EBS 2011). 3-7% more files
    // parsed on dubbo, rocketmq and nacos.
    "while (true)",
    "for (;;)",
    "methodConfig",
    // Apache HttpClient retries by itself unless told not to.
    "HttpClients.",
    "HttpClientBuilder.create",
    // AWS SDK for Java 2.x clients (`aws_sdk`).
    "software.amazon.awssdk",
    // Spring HTTP interfaces: their methods' paths pick a gateway's
    // routes (`clients`).
    "@HttpExchange",
    "@GetExchange",
    "@PostExchange",
    "@PutExchange",
    "@PatchExchange",
    "@DeleteExchange",
];

/// Whether a `.java` file's bytes are worth parsing.
pub fn wants(bytes: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<crate::extract::Needles> =
        std::sync::LazyLock::new(|| crate::extract::Needles::new(SNIFF.iter().copied()));
    FINDER.any_in(bytes)
}

/// A retry scope: code that runs once per attempt of policy `policy`.
#[derive(Clone, Copy, Debug)]
pub struct RetryScope<'a> {
    pub body: Node<'a>,
    pub policy: usize,
}

pub use crate::model::java_annotations::{AnnotationUse, JavaFacts, RetryAnnotation};

/// Annotations of these packages are never a project's own retry
/// annotation.
const FOREIGN_ANNOTATIONS: &[&str] = &[
    "java.",
    "javax.",
    "jakarta.",
    "org.springframework.",
    "org.junit.",
    "lombok.",
    "com.fasterxml.",
    "io.swagger.",
    "org.mockito.",
    "io.micrometer.",
    "io.github.resilience4j.",
    "org.jetbrains.",
    "org.checkerframework.",
    "edu.umd.cs.findbugs.",
    "com.google.",
];

/// `java.lang` annotations, used without an import.
const JAVA_LANG_ANNOTATIONS: &[&str] = &[
    "Override",
    "Deprecated",
    "SuppressWarnings",
    "FunctionalInterface",
    "SafeVarargs",
];

/// Methods and classes carrying an annotation that may be a project's own
/// retry annotation: one not of a well-known package (by its import or
/// qualified name) nor of `java.lang`.
fn annotation_uses(ctx: &Ctx<'_>, facts: &mut Facts) {
    let mints = may_mint(ctx.src);
    for &m in &ctx.nodes {
        if !matches!(m.kind_str(), "method_declaration" | "class_declaration") {
            continue;
        }
        for (name, a) in r4j::method_annotations(ctx, m) {
            if !name.starts_with(|c: char| c.is_ascii_uppercase())
                || JAVA_LANG_ANNOTATIONS.contains(&name)
                || matches!(name, "Retryable" | "Retry" | "Backoff" | "Recover")
            {
                continue;
            }
            let written = field(a, "name").map_or("", |n| ctx.text(n));
            let suffix = format!(".{name}");
            let foreign = |path: &str| FOREIGN_ANNOTATIONS.iter().any(|p| path.starts_with(p));
            if written.contains('.') && foreign(written) {
                continue;
            }
            if ctx
                .imports
                .iter()
                .any(|i| i.ends_with(&suffix) && foreign(i))
            {
                continue;
            }
            let Some(target) = field(m, "name").map(|n| ctx.text(n).to_string()) else {
                continue;
            };
            let keys = field(m, "body")
                .filter(|_| mints)
                .map(|b| keys_in(ctx, b))
                .unwrap_or_default();
            let qualified = if written.contains('.') {
                Some(written.to_string())
            } else if let Some(i) = ctx.imports.iter().find(|i| i.ends_with(&suffix)) {
                Some(i.to_string())
            } else if ctx.imports.iter().any(|i| i.ends_with(".*")) {
                None
            } else {
                Some(ctx.qualified(name))
            };
            facts.java.annotation_uses.push(AnnotationUse {
                annotation: name.to_string(),
                qualified,
                span: span(a),
                target,
                keys,
            });
        }
    }
}

/// What the extractors of one file share besides [`Facts`].
#[derive(Default)]
pub struct Out<'a> {
    /// Code that runs again on each attempt (idempotency keys, URL edges).
    pub scopes: Vec<RetryScope<'a>>,
    /// Code whose calls a retry repeats although it does not run again
    /// (a Reactor chain re-subscribed with the request built once): URL
    /// edges only.
    pub call_scopes: Vec<RetryScope<'a>>,
}

/// Read one Java file (a file without retry words is read by
/// `extract::calls` instead: see `extract::extract_with_outer`).
pub fn extract(text: &str, facts: &mut Facts) {
    extract_with(text, facts, true)
}

/// Read one Java file, skipping the method bodies no reader needs when
/// `prune` (see [`prune`]; tests compare both ways).
pub fn extract_with(text: &str, facts: &mut Facts, prune: bool) {
    read(text, facts, prune, false)
}

/// [`extract`] of the file at `path`: a module folder named for tests
/// (`temporal-testing/`, see [`loops::test_module`]) holds test support,
/// whose hand-written loops are not read.
pub fn extract_at(path: &std::path::Path, text: &str, facts: &mut Facts) {
    read(text, facts, true, loops::test_module(path))
}

thread_local! {
    /// The thread's Java parser, made once: a new one per file was a
    /// parser's allocations and the grammar's set-up each time.
    static PARSER: std::cell::RefCell<Option<Parser>> = const { std::cell::RefCell::new(None) };
}

fn read(text: &str, facts: &mut Facts, prune: bool, test_module: bool) {
    // Taken out while in use (a parse stopped on the scan's deadline
    // unwinds and drops it).
    let parser = PARSER.with(|p| p.borrow_mut().take()).or_else(|| {
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_java::LANGUAGE.into())
            .ok()
            .map(|_| parser)
    });
    let Some(mut parser) = parser else {
        return;
    };
    read_with(&mut parser, text, facts, prune, test_module);
    // As a new one: the whole file, no parse under way.
    parser.reset();
    if parser.set_included_ranges(&[]).is_ok() {
        PARSER.with(|p| *p.borrow_mut() = Some(parser));
    }
}

fn read_with(parser: &mut Parser, text: &str, facts: &mut Facts, prune: bool, test_module: bool) {
    // The literals as the call-site pre-pass lexes them, once for the
    // pruner and the readers below.
    let lexed = crate::extract::calls::lex::lex(text, crate::extract::calls::lex::Lang::Java);
    // With `prune`, the import declarations are left out too and read
    // from the lexer's spans (`prune::left_out_and_imports`).
    let mut imports = None;
    if prune {
        let targets = prune::Targets::new(text, &lexed.lits);
        let (skip, spans) = prune::left_out_and_imports(text, &targets, true);
        imports = spans;
        if !skip.is_empty()
            && parser
                .set_included_ranges(&prune::included(text, &skip))
                .is_err()
        {
            let _ = parser.set_included_ranges(&[]);
            imports = None;
        }
    }
    let Some(mut tree) =
        crate::extract::tree_sitter::parse(parser, text, "Java", "compile", "java", facts)
    else {
        return;
    };
    // A file that does not parse: its imports as the parser reads them
    // (in an error one may be no declaration).
    if imports.as_ref().is_some_and(|i| !i.is_empty()) && tree.root_node().has_error() {
        let skip = prune::left_out(text, &prune::Targets::new(text, &lexed.lits));
        let _ = parser.set_included_ranges(&prune::included(text, &skip));
        imports = None;
        match crate::extract::tree_sitter::parse(parser, text, "Java", "compile", "java", facts) {
            Some(t) => tree = t,
            None => return,
        }
    }
    let imports = imports.map(|spans| {
        spans
            .into_iter()
            .map(|r| ctx::import_name(&text[r]))
            .collect()
    });
    let ctx = Ctx::with_imports(text, tree.root_node(), imports);
    let mut out = Out::default();
    let before = facts.policies.len();
    r4j::extract(&ctx, facts, &mut out);
    spring::extract(&ctx, facts, &mut out);
    failsafe::extract(&ctx, facts, &mut out);
    guava_retrying::extract(&ctx, facts, &mut out);
    aws_sdk::extract(&ctx, facts);
    feign::extract(&ctx, facts, &mut out);
    reactor::extract(&ctx, facts, &mut out);
    gateway_routes::extract(&ctx, facts, &mut out);
    apache_retry::extract(&ctx, facts, &mut out);
    if !test_module {
        loops::extract(&ctx, facts, &mut out);
    }
    crate::extract::loop_calls::record(
        tree.root_node(),
        text,
        &crate::extract::loop_calls::JAVA,
        before,
        facts,
    );
    unbounded_clients::extract(&ctx, facts, &out);
    idempotency_keys(&ctx, facts, &out);
    annotation_uses(&ctx, facts);
    url_edges(&ctx, facts, &out, &lexed);
    clients::extract(&ctx, facts);
    intervals::extract(&ctx, facts);
    if text.contains("@ConfigurationProperties") {
        for (span, written) in
            crate::extract::calls::properties::configuration_properties(text, &lexed.lits)
        {
            facts.unresolved.push(UnresolvedCall::new(span, written));
        }
    }
    if text.contains("@Bean") {
        facts.java.client_beans = crate::extract::calls::beans::property_refs(text, &lexed.lits);
    }
    if crate::extract::calls::clients::builds_clients(text) {
        facts.java.client_uses = crate::extract::calls::clients::client_uses(text, &lexed.lits);
    }
    // Resilience4j, Failsafe and Reactor bound single attempts with a composed
    // TimeLimiter / Timeout: when only the whole is bounded, the per-try
    // timeout is missing, not unknown.
    for p in &mut facts.policies[before..] {
        if matches!(
            p.system,
            System::Resilience4j | System::Failsafe | System::Reactor
        ) && p.overall_timeout.is_some()
            && p.per_try_timeout.is_none()
        {
            p.per_try_timeout = Some(Located::default_at(Timeout::Disabled, p.span));
        }
    }
    if facts.policies.len() > before
        || !facts.edges.is_empty()
        || !facts.unresolved.is_empty()
        || !facts.diagnostics.is_empty()
        || !facts.java.client_interfaces.is_empty()
        || !facts.java.client_uses.is_empty()
        || !facts.java.client_beans.is_empty()
        || !facts.java.server_delay_classes.is_empty()
        || !facts.java.doc_keys.is_empty()
    {
        facts.claimed_by("java");
    }
}

/// Attempts written in the file.
pub fn attempts_written(count: AttemptCount, written_as: String, span: Span) -> Located<Attempts> {
    Located::written(Attempts { count, written_as }, span)
}

/// Attempts that are the system's default.
pub fn attempts_default(count: AttemptCount, written_as: &str, span: Span) -> Located<Attempts> {
    Located::default_at(
        Attempts {
            count,
            written_as: written_as.to_string(),
        },
        span,
    )
}

/// Whether a name (of a header, field, variable or setter) names an
/// idempotency or request key.
pub fn names_key(name: &str) -> bool {
    let n: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect();
    n.contains("idempot")
        || n.contains("requestid")
        || n.contains("requestkey")
        || n.contains("dedup")
        || n.contains("clienttoken")
}

/// What mints a random id, as written (`UUID.randomUUID()`).
pub(crate) fn random_id(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    if n.kind_str() != "method_invocation" {
        return false;
    }
    let name = field(n, "name").map_or("", |x| ctx.text(x));
    let obj = ctx.name_of(field(n, "object"));
    matches!(
        (ast::last_segment(obj), name),
        ("UUID", "randomUUID")
            | ("UlidCreator", "getUlid" | "getMonotonicUlid")
            | (
                "RandomStringUtils",
                "randomAlphanumeric" | "randomAlphabetic" | "random"
            )
            | ("NanoIdUtils", "randomNanoId")
            | ("ObjectId", "get")
            | ("KsuidGenerator" | "Ksuid", "generate")
    ) || (obj.is_empty() && name == "randomUUID")
}

/// Whether the random id at `n` ends up as an idempotency or request key:
/// an argument next to a key-named string (`header("Idempotency-Key",
/// ..)`), of a key-named setter (`setIdempotencyKey(..)`), or assigned to
/// a key-named variable or field.
pub(crate) fn used_as_key(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    let mut cur = n;
    for _ in 0..8 {
        let Some(p) = ctx.parent(cur) else {
            return false;
        };
        match p.kind_str() {
            "argument_list" => {
                for a in named_children(p) {
                    if let Some(s) = ast::string_literal(a, ctx.src)
                        && names_key(s)
                    {
                        return true;
                    }
                }
                if let Some(call) = ctx.parent(p)
                    && let Some(name) = field(call, "name")
                    && names_key(ctx.text(name))
                {
                    return true;
                }
                cur = ctx.parent(p).unwrap_or(p);
            }
            "variable_declarator" => {
                return field(p, "name").is_some_and(|x| names_key(ctx.text(x)));
            }
            "assignment_expression" => {
                return field(p, "left").is_some_and(|x| names_key(ctx.text(x)));
            }
            "element_value_pair" | "pair" => {
                return field(p, "key").is_some_and(|x| names_key(ctx.text(x)));
            }
            "method_invocation"
            | "parenthesized_expression"
            | "cast_expression"
            | "binary_expression" => {
                cur = p;
            }
            _ => return false,
        }
    }
    false
}

/// The words every call [`random_id`] takes has in its text (a class or
/// a method name): a file with none of them mints no key, and
/// [`keys_in`] need not walk a body of it.
const MINTING_WORDS: &[&str] = &[
    "randomUUID",
    "UlidCreator",
    "RandomStringUtils",
    "NanoIdUtils",
    "ObjectId",
    "Ksuid",
];

/// Whether `src` may mint a random id ([`MINTING_WORDS`]).
fn may_mint(src: &str) -> bool {
    static FINDER: std::sync::LazyLock<crate::extract::Needles> =
        std::sync::LazyLock::new(|| crate::extract::Needles::new(MINTING_WORDS.iter().copied()));
    FINDER.any_in(src.as_bytes())
}

/// Attach idempotency keys to the policy whose scope uses them: minted
/// inside the scope (`inside_retry`), or minted once before it and used as
/// a key inside.
fn idempotency_keys(ctx: &Ctx<'_>, facts: &mut Facts, out: &Out<'_>) {
    if !may_mint(ctx.src) {
        return;
    }
    let mut seen = std::collections::HashSet::new();
    for s in &out.scopes {
        let Some(p) = facts.policies.get_mut(s.policy) else {
            continue;
        };
        for key in keys_in(ctx, s.body) {
            if seen.insert((s.policy, key.span.start)) {
                p.idempotency.push(key);
            }
        }
    }
}

/// Idempotency keys a retry of `body` sends: minted inside it (a new key
/// per attempt), or minted outside and used in it (`inside_retry` false).
fn keys_in(ctx: &Ctx<'_>, body: Node<'_>) -> Vec<IdempotencyKey> {
    let mut keys = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for n in ctx.descendants(body) {
        if n.kind_str() == "identifier"
            && let Some(v) = ctx.var(ctx.text(n), n)
            && !ast::within(v.node, body)
            && let Some(value) = v.value
            && (names_key(ctx.text(n)) || used_as_key(ctx, n))
            && let Some(minted) = ctx
                .descendants(value)
                .into_iter()
                .find(|d| random_id(ctx, *d))
        {
            if seen.insert(minted.start_byte()) {
                keys.push(IdempotencyKey {
                    span: span(minted),
                    created_by: ctx.text(minted).to_string(),
                    inside_retry: false,
                });
            }
            continue;
        }
        if random_id(ctx, n) && used_as_key(ctx, n) && seen.insert(n.start_byte()) {
            keys.push(IdempotencyKey {
                span: span(n),
                created_by: ctx.text(n).to_string(),
                inside_retry: true,
            });
        }
    }
    keys
}

/// Hosts that name a schema or a standard, not a service.
const NOT_SERVICES: &[&str] = &[
    "www.w3.org",
    "w3.org",
    "java.sun.com",
    "xmlns.jcp.org",
    "xml.org",
    "www.apache.org",
    "apache.org",
    "json-schema.org",
    "schemas.xmlsoap.org",
    "www.springframework.org",
    "example.com",
    "www.example.com",
];

/// The host of the first URL in a string: `http://payments:8080/x` ->
/// `payments:8080`.
pub fn url_host(s: &str) -> Option<&str> {
    let i = s.find("://")?;
    let scheme = s[..i]
        .rsplit(|c: char| !c.is_ascii_alphanumeric() && c != '+')
        .next()?;
    if !matches!(
        scheme.to_ascii_lowercase().as_str(),
        "http" | "https" | "grpc" | "grpcs" | "h2c" | "ws" | "wss" | "lb"
    ) {
        return None;
    }
    let rest = &s[i + 3..];
    let end = rest
        .find(['/', '?', '#', '"', '\'', '}', ' ', '$'])
        .unwrap_or(rest.len());
    let host = &rest[..end];
    let bare = host.rsplit('@').next().unwrap_or(host);
    let name = bare.split(':').next().unwrap_or(bare);
    if name.is_empty()
        || NOT_SERVICES.contains(&name)
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    {
        return None;
    }
    Some(bare)
}

/// URL literals as call edges, with the retry policies whose scope holds
/// them.
fn url_edges(
    ctx: &Ctx<'_>,
    facts: &mut Facts,
    out: &Out<'_>,
    lexed: &crate::extract::calls::lex::Lexed,
) {
    // String literals that are parts of a `+` concatenation: read joined,
    // never piece by piece.
    let mut joined: std::collections::HashSet<usize> = std::collections::HashSet::new();
    for &n in &ctx.nodes {
        if n.kind_str() != "binary_expression"
            || !concat::is_top(ctx, n)
            || !ctx.text(n).contains("ethodConfig")
        {
            continue;
        }
        let mut cursor = n.walk();
        let mut stack = vec![n];
        while let Some(m) = stack.pop() {
            if m.kind_str() == "string_literal" {
                joined.insert(m.id());
            } else if matches!(
                m.kind_str(),
                "binary_expression" | "parenthesized_expression"
            ) {
                stack.extend(m.named_children(&mut cursor));
            }
        }
        // A part that is not a literal: the value is unknown, not an error.
        if let Some(pieces) = concat::literal_pieces(n, ctx) {
            let spans: Vec<Span> = pieces.iter().map(|p| concat::content(ctx, *p)).collect();
            crate::systems::grpc::extract::extract_json_pieces(ctx.src, &spans, facts);
        }
    }
    // The same question the call-site pre-pass asks of every literal
    // (a log message or an exception's URL is no call).
    // `@Value` fields that only document the API (an OpenAPI server).
    let documented = crate::extract::calls::doc_fields::documentation_only(ctx.src, &lexed.lits);
    facts.java.doc_keys =
        crate::extract::calls::doc_fields::doc_keys(ctx.src, &lexed.lits, &documented);
    // Public sites' URLs written as data (a profile's links, sample rows).
    let data = crate::extract::calls::data_urls::data_urls(ctx.src, &lexed.lits);
    for &n in &ctx.nodes {
        if n.kind_str() != "string_literal"
            || documented.contains(&span(n).start)
            || data.contains(&span(n).start)
        {
            continue;
        }
        let Some(s) = ast::string_literal(n, ctx.src) else {
            continue;
        };
        // A gRPC service config written as a Java string (`"{\"methodConfig\"
        // ..."` or a text block): the gRPC reader, with spans mapped back here.
        if s.contains("methodConfig") && !joined.contains(&n.id()) {
            crate::systems::grpc::extract::extract_json_literal(
                ctx.src,
                concat::content(ctx, n),
                facts,
            );
        }
        if feign::in_feign_client(ctx, n) {
            continue;
        }
        let host = match crate::extract::calls::lit_at(&lexed.lits, span(n))
            .map(|l| crate::extract::calls::target(ctx.src, l))
        {
            Some(crate::extract::calls::Target::Host(h)) => h,
            Some(crate::extract::calls::Target::Unresolved(written)) => {
                facts.unresolved.push(UnresolvedCall::new(span(n), written));
                continue;
            }
            Some(crate::extract::calls::Target::None) => continue,
            // The lexer and the parser disagree (a syntax error): as before.
            None => match url_host(s) {
                Some(h) => h.to_string(),
                None => continue,
            },
        };
        let policies: Vec<usize> = out
            .scopes
            .iter()
            .chain(&out.call_scopes)
            .filter(|sc| ast::within(n, sc.body))
            .map(|sc| sc.policy)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        facts.edges.push(CallEdge {
            client: None,
            caller: None,
            callee: host,
            span: span(n),
            policies,
            via: "URL literal in Java".into(),
            protocol: None,
        });
    }
    crate::extract::calls::env_defaults(
        ctx.src,
        &lexed.lits,
        &mut facts.unresolved,
        &mut facts.edges,
    );
}

#[cfg(test)]
mod tests;
