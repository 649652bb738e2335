//! Calls to other services (`requests`, `httpx`, `aiohttp`, sessions and
//! clients, one level of local wrapper functions, `grpc.*_channel`) with
//! their method and timeout; hand-written retry loops; idempotency keys
//! minted inside a retry. Calls inside a [`RetryScope`] carry its policy,
//! and set its per-try timeout.

use super::eval::{self, resolve};
use super::{Args, Ctx, RetryScope, callee, field, named_children, policy, span};
use crate::model::*;
use std::time::Duration;
use tree_sitter::Node;

#[path = "statuses.rs"]
mod statuses;

/// HTTP verbs of the clients' call methods.
const VERBS: &[&str] = &[
    "get", "post", "put", "patch", "delete", "head", "options", "request", "stream",
];

/// httpx's default timeout, each of connect, read, write and pool:
/// encode/httpx `httpx/_config.py`, `DEFAULT_TIMEOUT_CONFIG =
/// Timeout(timeout=5.0)` (checked in the source, 0.2x; the docs' "5
/// seconds of network inactivity", docs/advanced/timeouts.md).
const HTTPX_DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);
/// aiohttp's default total timeout of a `ClientSession` request:
/// aio-libs/aiohttp `aiohttp/client.py`, `DEFAULT_TIMEOUT:
/// Final[ClientTimeout] = ClientTimeout(total=5 * 60, sock_connect=30)`
/// (3.x; earlier 3.x releases have `total=5 * 60` alone), checked in the
/// source.
const AIOHTTP_DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// One HTTP or gRPC call the file makes.
struct Call<'a> {
    node: Node<'a>,
    /// How the call is shown (`requests.get`).
    what: String,
    /// Upper-case HTTP method, when known.
    method: Option<String>,
    url: Option<Node<'a>>,
    timeout: Located<Timeout>,
    /// Made through a session or client object (adapters mounted on it
    /// apply): the receiver, and the call it is the receiver of (a
    /// wrapper's inner call).
    via_session: Option<(Node<'a>, Node<'a>)>,
    grpc: bool,
}

/// The client library a receiver name or expression stands for.
fn client_lib(ctx: &Ctx<'_>, recv: Node<'_>) -> Option<&'static str> {
    let t = ctx.text(recv);
    match t {
        "requests" => return Some("requests"),
        "httpx" => return Some("httpx"),
        _ => {}
    }
    let r = resolve(ctx, recv);
    if r.kind() == "call" {
        let (full, _) = callee(ctx, r);
        if full.contains("requests.Session")
            || full.contains("requests.session")
            || full == "Session"
        {
            return Some("requests");
        }
        if full.contains("httpx.") {
            return Some("httpx");
        }
        if full.contains("ClientSession") || full.contains("RetryClient") {
            return Some("aiohttp");
        }
    }
    let lower = t.to_ascii_lowercase();
    let last = lower.rsplit('.').next().unwrap_or(&lower);
    if last.contains("session") || last == "client" || last.ends_with("_client") || last == "http" {
        if ctx.imports("requests") {
            return Some("requests");
        }
        if ctx.imports("httpx") {
            return Some("httpx");
        }
        if ctx.imports("aiohttp") || ctx.imports("aiohttp_retry") {
            return Some("aiohttp");
        }
    }
    None
}

/// The library of a call shown as `requests.get` or `session.get`.
fn lib_of(what: &str) -> &'static str {
    if what.starts_with("httpx") {
        "httpx"
    } else {
        "requests"
    }
}

fn default_timeout(lib: &str, at: Node<'_>) -> Located<Timeout> {
    let t = match lib {
        "httpx" => Timeout::after(HTTPX_DEFAULT_TIMEOUT),
        "aiohttp" => Timeout::after(AIOHTTP_DEFAULT_TIMEOUT),
        // requests has no default: a call without `timeout=` waits for ever.
        _ => Timeout::Disabled,
    };
    Located::default_at(t, span(at))
}

/// Whether a call passes `**kwargs`.
fn has_splat(call: Node<'_>) -> bool {
    field(call, "arguments").is_some_and(|a| {
        named_children(a)
            .iter()
            .any(|c| c.kind() == "dictionary_splat")
    })
}

/// The direct HTTP call `call` is, if any.
fn http_call<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> Option<Call<'a>> {
    let f = field(call, "function")?;
    let (full, last) = callee(ctx, call);
    if f.kind() == "attribute"
        && let Some(recv) = field(f, "object")
    {
        if matches!(last, "insecure_channel" | "secure_channel") {
            let args = Args::of(ctx, call);
            return Some(Call {
                node: call,
                what: full.to_string(),
                method: None,
                url: args.get("target", 0),
                timeout: Located::default_at(Timeout::Unknown, span(call)),
                via_session: None,
                grpc: true,
            });
        }
        if !VERBS.contains(&last) {
            return None;
        }
        let lib = client_lib(ctx, recv)?;
        let args = Args::of(ctx, call);
        let (method, url) = if last == "request" {
            (
                args.get("method", 0).and_then(|m| eval::string(ctx, m)),
                args.get("url", 1),
            )
        } else {
            (Some(last.to_string()), args.get("url", 0))
        };
        let module = matches!(ctx.text(recv), "requests" | "httpx");
        return Some(Call {
            node: call,
            what: full.to_string(),
            method: method.map(|m| m.to_ascii_uppercase()),
            url,
            timeout: match args.kw("timeout") {
                Some(t) => super::timeout_at(ctx, t),
                // `**kwargs` may hold the timeout.
                None if has_splat(call) => Located::default_at(Timeout::Unknown, span(call)),
                None => default_timeout(lib, call),
            },
            via_session: (!module).then_some((recv, call)),
            grpc: false,
        });
    }
    None
}

/// Local functions that pass their first parameter on as the URL of an
/// HTTP call (`def send_request(url, **kwargs): return requests.get(url,
/// **kwargs)`): name, the inner call's library and method.
fn wrappers<'a>(ctx: &Ctx<'a>) -> Vec<(&'a str, Call<'a>)> {
    let mut out = Vec::new();
    for &n in &ctx.nodes {
        if n.kind() != "function_definition" || out.len() >= 64 {
            continue;
        }
        let (Some(name), Some(params), Some(body)) =
            (field(n, "name"), field(n, "parameters"), field(n, "body"))
        else {
            continue;
        };
        let Some(first) = named_children(params).into_iter().find(|p| {
            let t = ctx.text(*p);
            t != "self" && t != "cls"
        }) else {
            continue;
        };
        let param = ctx
            .text(first)
            .split([':', '='])
            .next()
            .unwrap_or("")
            .trim();
        // Only short bodies: a wrapper, not a handler.
        if body.named_child_count() > 6 {
            continue;
        }
        let inner = ctx
            .subtree(body)
            .iter()
            .filter(|c| c.kind() == "call")
            .filter_map(|c| http_call(ctx, *c))
            .find(|c| !c.grpc && c.url.is_some_and(|u| ctx.text(u) == param));
        if let Some(c) = inner {
            out.push((ctx.text(name), c));
        }
    }
    out
}

fn within(n: Node<'_>, outer: Node<'_>) -> bool {
    outer.start_byte() <= n.start_byte() && n.end_byte() <= outer.end_byte()
}

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) {
    loops(ctx, facts, scopes);
    let wrapped = wrappers(ctx);
    let mut calls: Vec<Call<'_>> = Vec::new();
    for &n in &ctx.nodes {
        if n.kind() != "call" {
            continue;
        }
        if let Some(c) = http_call(ctx, n) {
            calls.push(c);
            continue;
        }
        let (full, _) = callee(ctx, n);
        if let Some((_, inner)) = wrapped.iter().find(|(w, _)| *w == full) {
            let args = Args::of(ctx, n);
            calls.push(Call {
                node: n,
                what: format!("{full} ({})", inner.what),
                method: inner.method.clone(),
                url: args.get("url", 0),
                timeout: match args.kw("timeout") {
                    Some(t) => super::timeout_at(ctx, t),
                    None if has_splat(n) => Located::default_at(Timeout::Unknown, span(n)),
                    None => default_timeout(lib_of(&inner.what), n),
                },
                via_session: inner.via_session,
                grpc: false,
            });
        }
    }
    // Calls in retried scopes: their methods and timeouts.
    let mut per_scope: Vec<(usize, Vec<&Call<'_>>)> = Vec::new();
    for s in scopes.iter() {
        let inside: Vec<&Call<'_>> = calls
            .iter()
            .filter(|c| s.start <= c.node.start_byte() && c.node.end_byte() <= s.end)
            .collect();
        per_scope.push((s.policy, inside));
    }
    for (i, (pi, inside)) in per_scope.iter().enumerate() {
        let s = scopes[i];
        let Some(p) = facts.policies.get_mut(*pi) else {
            continue;
        };
        let http: Vec<&&Call<'_>> = inside.iter().filter(|c| !c.grpc).collect();
        if http.is_empty() {
            continue;
        }
        let ms: Vec<String> = http.iter().filter_map(|c| c.method.clone()).collect();
        if ms.len() == http.len() && p.methods.value == Methods::Unknown {
            let mut ms = ms;
            ms.sort();
            ms.dedup();
            p.methods = Located::default_at(Methods::Set(ms), p.span);
        }
        if !s.per_call {
            continue;
        }
        // The slowest call bounds a try; one without a timeout leaves it
        // unbounded.
        let worst = http
            .iter()
            .map(|c| &c.timeout)
            .max_by_key(|t| match t.value {
                Timeout::Disabled => (2, Duration::ZERO),
                Timeout::Unknown => (0, Duration::ZERO),
                Timeout::Finite { after } => (1, after),
            });
        if let Some(t) = worst
            && p.per_try_timeout.is_none()
        {
            p.per_try_timeout = Some(t.clone());
            if t.value == Timeout::Disabled && p.overall_timeout.is_none() {
                p.overall_timeout = Some(Located::default_at(Timeout::Disabled, t.span));
            }
        }
    }
    idempotency_keys(ctx, facts, scopes);
    let sessions = super::sessions::Sessions::new(ctx, facts);
    narrow_methods(&sessions, ctx, facts, &calls);
    for c in &calls {
        let Some(url) = c.url else { continue };
        let Some(s) = eval::string(ctx, url) else {
            continue;
        };
        let host = if c.grpc {
            eval::host_of(s.trim_start_matches("dns:///"))
        } else {
            eval::url_host(&s)
        };
        let Some(host) = host else { continue };
        let mut policies: Vec<usize> = scopes
            .iter()
            .filter(|s| s.start <= c.node.start_byte() && c.node.end_byte() <= s.end)
            .map(|s| s.policy)
            .collect();
        // Adapters mounted on this session, the transport of this client.
        if let Some((recv, at)) = c.via_session {
            policies.extend(super::sessions::policies_for(
                &sessions,
                ctx,
                facts,
                recv,
                at,
                Some(&s),
            ));
        }
        policies.sort_unstable();
        policies.dedup();
        facts.edges.push(CallEdge {
            caller: None,
            callee: crate::model::calls::short_host(&host),
            span: span(c.node),
            policies,
            via: format!("{}() in Python", c.what),
            client: None,
            protocol: None,
        });
    }
}

/// A session's or client's policy whose methods are its library's default
/// (aiohttp_retry: every method) retries, in this file, only the methods
/// of the calls made through it: narrowed to those when all are known and
/// within the default (a method the default leaves out stays out).
fn narrow_methods(
    sessions: &super::sessions::Sessions<'_>,
    ctx: &Ctx<'_>,
    facts: &mut Facts,
    calls: &[Call<'_>],
) {
    let mut through: std::collections::BTreeMap<usize, Vec<Option<String>>> =
        std::collections::BTreeMap::new();
    for c in calls {
        let Some((recv, at)) = c.via_session else {
            continue;
        };
        let url = c.url.and_then(|u| eval::string(ctx, u));
        for i in super::sessions::policies_for(sessions, ctx, facts, recv, at, url.as_deref()) {
            through.entry(i).or_default().push(c.method.clone());
        }
    }
    for (i, ms) in through {
        let Some(p) = facts.policies.get_mut(i) else {
            continue;
        };
        let Methods::Set(default) = &p.methods.value else {
            continue;
        };
        let Some(mut ms) = ms.into_iter().collect::<Option<Vec<String>>>() else {
            continue;
        };
        ms.sort();
        ms.dedup();
        if p.methods.is_default() && ms.iter().all(|m| default.contains(m)) {
            p.methods = Located::default_at(Methods::Set(ms), p.methods.span);
        }
    }
}

/// `uuid.uuid4()` and the like, minted inside a retried scope where the
/// line names a key or request id.
fn idempotency_keys(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &[RetryScope]) {
    const MINTS: &[&str] = &["uuid4", "uuid1", "token_hex", "token_urlsafe"];
    const KEYISH: &[&str] = &["idempot", "key", "request_id", "requestid", "request-id"];
    for &n in &ctx.nodes {
        if n.kind() != "call" {
            continue;
        }
        let (full, last) = callee(ctx, n);
        if !MINTS.contains(&last) {
            continue;
        }
        let line_start = ctx.src[..n.start_byte()].rfind('\n').map_or(0, |i| i + 1);
        let line_end = ctx.src[n.end_byte()..]
            .find('\n')
            .map_or(ctx.src.len(), |i| n.end_byte() + i);
        let line = ctx.src[line_start..line_end].to_ascii_lowercase();
        if !KEYISH.iter().any(|k| line.contains(k)) {
            continue;
        }
        for s in scopes {
            if s.start <= n.start_byte()
                && n.end_byte() <= s.end
                && let Some(p) = facts.policies.get_mut(s.policy)
            {
                p.idempotency.push(IdempotencyKey {
                    span: span(n),
                    created_by: format!("{full}()"),
                    inside_retry: true,
                });
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Hand-written loops

/// `for _ in range(n):` / `while ...:` around a `try`/`except` that leaves
/// the loop on success (`return` or `break`): a retry loop.
fn loops(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) {
    for &n in &ctx.nodes {
        let (count, written) = match n.kind() {
            "for_statement" => {
                let Some(right) = field(n, "right") else {
                    continue;
                };
                if right.kind() != "call" || callee(ctx, right).0 != "range" {
                    continue;
                }
                let rt = ctx.text(right);
                if rt.contains("len(") {
                    continue;
                }
                let args = Args::of(ctx, right);
                let count = match args.positional.as_slice() {
                    [n] => eval::number(ctx, *n).map(|v| v.max(0.0) as u64),
                    [a, b] | [a, b, _] if args.positional.len() == 2 => {
                        match (eval::number(ctx, *a), eval::number(ctx, *b)) {
                            (Some(a), Some(b)) => Some((b - a).max(0.0) as u64),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                (
                    count.map_or(AttemptCount::Unknown, AttemptCount::Finite),
                    format!("for .. in {}", super::one_line(rt)),
                )
            }
            "while_statement" => {
                let Some(cond) = field(n, "condition") else {
                    continue;
                };
                let forever = matches!(ctx.text(cond), "True" | "1");
                (
                    if forever {
                        AttemptCount::Unbounded
                    } else {
                        AttemptCount::Unknown
                    },
                    format!("while {}", super::one_line(ctx.text(cond))),
                )
            }
            _ => continue,
        };
        let Some(body) = field(n, "body") else {
            continue;
        };
        // The loop's own statements, not those of nested functions or loops.
        let own: Vec<Node<'_>> = ctx
            .subtree(body)
            .iter()
            .copied()
            .filter(|c| owner_loop(*c) == Some(n.id()))
            .collect();
        let try_stmt = own.iter().find(|c| c.kind() == "try_statement").copied();
        let excepts: Vec<Node<'_>> = (try_stmt.map(named_children).unwrap_or_default().into_iter())
            .filter(|c| c.kind() == "except_clause")
            .collect();
        // Clauses that leave the loop (`except Exception: log(..); break`)
        // do not retry what they catch.
        let retried: Vec<Node<'_>> = excepts
            .iter()
            .copied()
            .filter(|e| !leaves_loop(*e))
            .collect();
        // Response statuses that go round (issue 28): a loop with no `try`
        // is a retry when a status test sends it round.
        let try_body = try_stmt.and_then(|t| field(t, "body"));
        let statuses = statuses::retried(ctx, n, &own, &excepts, &retried, try_body);
        if retried.is_empty() && statuses.is_empty() {
            continue;
        }
        // A loop over data (`for channel in range(1, 12)` passing `channel`
        // on) is not a retry: the variable is used by the tried code.
        if let Some(var) = field(n, "left").filter(|l| l.kind() == "identifier")
            && uses_as_data(ctx, body, ctx.text(var))
        {
            continue;
        }
        let in_except = |c: Node<'_>| excepts.iter().any(|e| within(c, *e));
        let exits = own
            .iter()
            .any(|c| matches!(c.kind(), "return_statement" | "break_statement") && !in_except(*c));
        if !exits {
            continue;
        }
        let sleeps: Vec<Node<'_>> = own
            .iter()
            .copied()
            .filter(|c| c.kind() == "call" && callee(ctx, *c).1 == "sleep")
            .collect();
        // `while` loops retry with a wait (else event or read loops), or at
        // once when an `except` sends round an HTTP or gRPC call of the `try`.
        let sub = |b| ctx.subtree(b).iter().any(|c| http_call(ctx, *c).is_some());
        if (n.kind() == "while_statement" || retried.is_empty())
            && sleeps.is_empty()
            && (retried.is_empty() || !try_body.is_some_and(sub))
        {
            continue;
        }
        // Every failure ends the loop: the except clauses re-raise at once.
        let count = if count == AttemptCount::Unbounded
            && own
                .iter()
                .any(|c| c.kind() == "raise_statement" && in_except(*c))
        {
            AttemptCount::Unknown
        } else {
            count
        };
        let header = Node::start_byte(&n)..body.start_byte();
        let at =
            crate::source::Span::new(header.start, header.end.saturating_sub(1).max(header.start));
        let mut p = policy(
            "loop",
            at,
            Located::written(
                Attempts {
                    count,
                    written_as: written,
                },
                at,
            ),
        );
        p.name = super::enclosing_function(ctx, n).map(|(f, _)| format!("retry loop in {f}"));
        let (delay, jitter) = match sleeps.first() {
            None => (Delay::None, Jitter::None),
            Some(s) => sleep_delay(
                ctx,
                *s,
                field(n, "left").map(|l| ctx.text(l)),
                range_start(ctx, n),
            ),
        };
        let dspan = sleeps.first().map_or(at, |s| span(*s));
        p.delay = Located::written(delay, dspan);
        p.jitter = Located::written(jitter, dspan);
        p.retry_on = except_conditions(ctx, &retried);
        if !statuses.is_empty() {
            p.retry_on =
                crate::extract::status_test::listed_with(p.retry_on, &statuses, "Exception");
        }
        // A wait read from `Retry-After` in the loop (RL208).
        if let Some((s, e, d)) =
            crate::model::backoff::ServerDelay::in_source(ctx.text(body), "a hand-written loop")
        {
            let b = body.start_byte();
            p.server_delay = Some(Located::written(d, crate::source::Span::new(b + s, b + e)));
        }
        facts.policies.push(p);
        scopes.push(RetryScope {
            policy: facts.policies.len() - 1,
            start: body.start_byte(),
            end: body.end_byte(),
            per_call: true,
        });
    }
}

/// Whether an except clause always leaves the loop: its block's own
/// statements (not those under an `if`) include a `break`, `return` or
/// `raise`.
fn leaves_loop(clause: Node<'_>) -> bool {
    named_children(clause)
        .into_iter()
        .filter(|c| c.kind() == "block")
        .flat_map(named_children)
        .any(|s| {
            matches!(
                s.kind(),
                "break_statement" | "return_statement" | "raise_statement"
            )
        })
}

/// Whether `var` is passed to a call in `body` (other than a log, print
/// or sleep call) or indexes something: data, not an attempt counter
/// (which is compared, counted and logged).
fn uses_as_data(ctx: &Ctx<'_>, body: Node<'_>, var: &str) -> bool {
    const QUIET: &[&str] = &[
        "debug",
        "info",
        "warning",
        "warn",
        "error",
        "exception",
        "critical",
        "log",
        "print",
        "sleep",
    ];
    const ARITH: &[&str] = &[
        "min", "max", "pow", "int", "float", "round", "abs", "uniform", "randint", "random",
    ];
    if var == "_" {
        return false;
    }
    ctx.subtree(body)
        .iter()
        .filter(|i| i.kind() == "identifier" && ctx.text(**i) == var)
        .any(|i| {
            let mut cur = i.parent();
            while let Some(c) = cur {
                if c.id() == body.id() {
                    return false;
                }
                match c.kind() {
                    // A value computed from the variable (`min(30, 2 ** i)`,
                    // `pow(2, i)`, `random.uniform(0, 2 ** i)`) goes to
                    // the call that takes it.
                    "call" if ARITH.contains(&callee(ctx, c).1) => {}
                    "call" => return !QUIET.contains(&callee(ctx, c).1),
                    "subscript" => return true,
                    _ => {}
                }
                cur = c.parent();
            }
            false
        })
}

/// The innermost loop or function a node belongs to.
fn owner_loop(n: Node<'_>) -> Option<usize> {
    let mut cur = n.parent();
    for _ in 0..10_000 {
        let c = cur?;
        match c.kind() {
            "for_statement" | "while_statement" => return Some(c.id()),
            "function_definition" | "lambda" | "class_definition" => return None,
            _ => cur = c.parent(),
        }
    }
    None
}

/// The first value of a `for` loop's variable over `range(..)`: 0, or the
/// range's start where it is a number.
fn range_start(ctx: &Ctx<'_>, n: Node<'_>) -> Option<f64> {
    let right = field(n, "right").filter(|r| r.kind() == "call")?;
    if callee(ctx, right).1 != "range" {
        return None;
    }
    match Args::of(ctx, right).positional.as_slice() {
        [_] => Some(0.0),
        [a, ..] => eval::number(ctx, *a),
        _ => None,
    }
}

/// A wait written in the loop variable (`2 ** (i - 1)`, `0.5 * 2 ** i`,
/// `1 << i`, `pow(2, i)`, `min(30, 2 ** i)`, `(i + 1) * 2`), read from its
/// values at the loop's first three values: the wait before the first
/// retry is the expression at the variable's first value (`2 ** (i - 1)`
/// over `range(n)` waits 0.5 s, then 1 s, 2 s ...), its growth the ratio
/// (or difference) of consecutive values, a cap the value far along.
fn growth_in(ctx: &Ctx<'_>, arg: Node<'_>, var: &str, start: f64) -> Option<Delay> {
    let at = |k: f64| eval::number_at(ctx, arg, var, start + k);
    let (f0, f1, f2) = (at(0.0)?, at(1.0)?, at(2.0)?);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
    if !(0.0..1e9).contains(&f0) || !f1.is_finite() || !f2.is_finite() {
        return None;
    }
    let secs = |v: f64| Duration::from_secs_f64(v.clamp(0.0, 1e9));
    if close(f0, f1) && close(f1, f2) {
        return Some(Delay::Fixed { delay: secs(f0) });
    }
    if f0 > 0.0 && f1 > f0 && close(f2 / f1, f1 / f0) {
        // Rounded: `0.1 * 3 ** i` gives 3.0000000000000004.
        let m = ((f1 / f0) * 1e6).round() / 1e6;
        // A cap (`min(30, 2 ** i)`): the value far along, when below the
        // uncapped growth.
        let cap = at(40.0)
            .filter(|c| c.is_finite() && *c < f0 * m.powi(40) * 0.999)
            .map(secs);
        return Some(Delay::Exponential {
            base: secs(f0),
            multiplier: m,
            cap,
        });
    }
    // `(i + 1) * 2` over `range(n)`: `base x n` before retry n.
    let d = f1 - f0;
    if d > 0.0 && close(f2 - f1, d) && close(f0, d) {
        let cap = at(40.0)
            .filter(|c| c.is_finite() && *c < 41.0 * d * 0.999)
            .map(secs);
        return Some(Delay::Linear { base: secs(d), cap });
    }
    None
}

/// The wait of `sleep(x)`: a constant, growth with the loop variable `i`
/// (read from its values, [`growth_in`], else `c * b ** i` from the text),
/// and `random`/`uniform` jitter.
fn sleep_delay(
    ctx: &Ctx<'_>,
    s: Node<'_>,
    var: Option<&str>,
    start: Option<f64>,
) -> (Delay, Jitter) {
    let Some(arg) = Args::of(ctx, s).positional.first().copied() else {
        return (Delay::Unknown, Jitter::Unknown);
    };
    let arg_r = resolve(ctx, arg);
    let t = ctx.text(arg_r);
    let jitter = if t.contains("random") || t.contains("uniform") || t.contains("jitter") {
        Jitter::Full
    } else {
        Jitter::None
    };
    if let (Some(v), Some(start)) = (var, start)
        && let Some(d) = growth_in(ctx, arg_r, v, start)
    {
        return (d, jitter);
    }
    if let Some(d) = eval::seconds(ctx, arg_r) {
        return (Delay::Fixed { delay: d }, jitter);
    }
    if t.contains("**") || t.contains("pow(") || t.contains("<<") {
        // `c * b ** i`: read c and b where they are literals.
        let base = t
            .split("**")
            .next()
            .and_then(|l| l.trim().trim_start_matches('(').rsplit(['*', '(']).next())
            .and_then(|b| b.trim().parse::<f64>().ok())
            .unwrap_or(2.0);
        let factor = t
            .split('*')
            .next()
            .filter(|_| t.matches('*').count() >= 3)
            .and_then(|c| c.trim().trim_start_matches('(').parse::<f64>().ok())
            .unwrap_or(1.0);
        let uses_var = var.is_some_and(|v| t.contains(v));
        if uses_var || var.is_none() || var == Some("_") {
            return (
                Delay::Exponential {
                    base: Duration::from_secs_f64(factor.clamp(0.0, 1e9)),
                    multiplier: base,
                    cap: None,
                },
                jitter,
            );
        }
    }
    // A setting (`CONF.retry_interval`): not known here.
    (Delay::Unknown, jitter)
}

/// What the except clauses catch: a bare `except:`, `Exception` or
/// `BaseException` is every error.
fn except_conditions(ctx: &Ctx<'_>, excepts: &[Node<'_>]) -> Located<RetryOn> {
    let mut conditions = Vec::new();
    let first = excepts
        .first()
        .map_or(crate::source::Span::new(0, 0), |e| span(*e));
    for e in excepts {
        // The caught types: the clause's first named child that is not its
        // block.
        let caught = named_children(*e).into_iter().find(|c| c.kind() != "block");
        let Some(caught) = caught else {
            return Located::written(RetryOn::AllErrors, span(*e));
        };
        let caught = if caught.kind() == "as_pattern" {
            named_children(caught).first().copied().unwrap_or(caught)
        } else {
            caught
        };
        let items = if matches!(caught.kind(), "tuple" | "parenthesized_expression") {
            named_children(caught)
        } else {
            vec![caught]
        };
        for i in items {
            let name = ctx.text(i);
            let simple = name.rsplit('.').next().unwrap_or(name);
            if matches!(simple, "Exception" | "BaseException") {
                return Located::written(RetryOn::AllErrors, span(i));
            }
            conditions.push(Located::written(Condition::Exception(name.into()), span(i)));
        }
    }
    Located::written(RetryOn::Listed { conditions }, first)
}
