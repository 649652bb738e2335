//! Calls to other services (`requests`, `httpx`, `aiohttp`, sessions and
//! clients, one level of local wrapper functions, `grpc.*_channel`) with
//! their method and timeout (hand-written retry loops: `loops.rs`); idempotency keys
//! minted inside a retry. Calls inside a [`RetryScope`] carry its policy,
//! and set its per-try timeout.

use super::Kind as _;
use super::eval::{self, resolve};
use super::{Args, Ctx, RetryScope, callee, field, named_children, span};
use crate::model::*;
use std::time::Duration;
use tree_sitter::Node;

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
pub(super) struct Call<'a> {
    node: Node<'a>,
    /// How the call is shown (`requests.get`).
    what: String,
    /// Upper-case HTTP method, when known.
    method: Option<String>,
    pub(super) url: Option<Node<'a>>,
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
    if r.kind_str() == "call" {
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
            .any(|c| c.kind_str() == "dictionary_splat")
    })
}

/// Database and cache driver modules: a call through one goes to another
/// process (issue 28, Facebook 2010: a loop re-querying MySQL at once).
/// Their connect functions and DB-API round trips
/// ([`DB_ROUND_TRIPS`]) are remote calls, as an HTTP call is.
pub(super) const DB_DRIVERS: &[&str] = &[
    "pymysql", "psycopg", "psycopg2", "MySQLdb", "mysql", "asyncpg", "pymongo", "redis",
];

/// DB-API 2.0 (PEP 249) cursor and connection methods that go to the
/// server (`execute`, `executemany`, `callproc`, `commit`), and asyncpg's
/// (`fetch`, `fetchrow`, `fetchval`): `fetchone` after a buffered
/// `execute` reads what the client already holds, and is left out.
const DB_ROUND_TRIPS: &[&str] = &[
    "execute",
    "executemany",
    "callproc",
    "commit",
    "fetch",
    "fetchrow",
    "fetchval",
];

/// Whether `call` goes to a database or cache server through a driver the
/// file imports: a function of the driver's module (`pymysql.connect(..)`,
/// `redis.Redis(..).get(..)`), a DB-API round trip (`cur.execute(..)`), or
/// any method of a name bound to a redis-py client (`r = redis.Redis(..)`;
/// `r.get(k)`).
pub(super) fn db_call(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    if call.kind_str() != "call" {
        return false;
    }
    if !DB_DRIVERS.iter().any(|d| ctx.imports(d)) {
        return false;
    }
    let (full, last) = callee(ctx, call);
    let root = |t: &str| {
        let first = t.split(['.', '(']).next().unwrap_or("");
        DB_DRIVERS.contains(&first) && ctx.imports(first)
    };
    if root(full) || DB_ROUND_TRIPS.contains(&last) {
        return true;
    }
    // A method of a client the file made from the driver.
    let Some(recv) = field(call, "function")
        .filter(|f| f.kind_str() == "attribute")
        .and_then(|f| field(f, "object"))
    else {
        return false;
    };
    let made = resolve(ctx, recv);
    ctx.imports("redis") && made.kind_str() == "call" && root(callee(ctx, made).0)
}

/// The direct HTTP call `call` is, if any.
pub(super) fn http_call<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> Option<Call<'a>> {
    let f = field(call, "function")?;
    let (full, last) = callee(ctx, call);
    if f.kind_str() == "attribute"
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
        if n.kind_str() != "function_definition" || out.len() >= 64 {
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
            .filter(|c| c.kind_str() == "call")
            .filter_map(|c| http_call(ctx, *c))
            .find(|c| !c.grpc && c.url.is_some_and(|u| ctx.text(u) == param));
        if let Some(c) = inner {
            out.push((ctx.text(name), c));
        }
    }
    out
}

pub(super) fn within(n: Node<'_>, outer: Node<'_>) -> bool {
    outer.start_byte() <= n.start_byte() && n.end_byte() <= outer.end_byte()
}

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) {
    super::loops::loops(ctx, facts, scopes);
    let wrapped = wrappers(ctx);
    let mut calls: Vec<Call<'_>> = Vec::new();
    for &n in &ctx.nodes {
        if n.kind_str() != "call" {
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
    let helpers = eval::env_helpers(ctx);
    for c in &calls {
        let Some(url) = c.url else { continue };
        let s = eval::string(ctx, url);
        let host = s.as_deref().and_then(|s| {
            if c.grpc {
                eval::host_of(s)
            } else {
                eval::url_host(s)
            }
        });
        // The target's host from an environment variable (`env X`): the
        // link step joins it to the workload that sets it; a default
        // (`os.getenv('USER_HOST', 'user')`) is called where none does.
        let env = eval::env_host(ctx, url, &helpers);
        if env.is_none() && host.is_none() {
            continue;
        }
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
                s.as_deref(),
            ));
        }
        policies.sort_unstable();
        policies.dedup();
        if let Some(var) = env {
            let mut u = crate::model::calls::UnresolvedCall::new(span(url), format!("env {var}"));
            u.policies = policies;
            u.if_unset = host.as_deref().map(crate::model::calls::short_host);
            // The default's scheme is what the client speaks
            // (`os.getenv('PAYMENT_GATEWAY', 'https://paypal.com/')`).
            if host.is_some() {
                u.protocol = s
                    .as_deref()
                    .and_then(crate::model::calls::Protocol::of_target);
            }
            facts.unresolved.push(u);
            continue;
        }
        let Some(host) = host else { continue };
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
        if n.kind_str() != "call" {
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
    sent_keys(ctx, facts, scopes, MINTS);
}

/// A key the retried calls send that no attempt mints: an
/// `Idempotency-Key` header (`{"Idempotency-Key": order_id}`) or an
/// `idempotency_key=` argument whose value is the caller's (an argument,
/// an id), so every attempt sends the same key. A value minted in place
/// is a new key per attempt, and a policy already holding a key minted
/// inside the retry keeps RL501's reading.
fn sent_keys(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &[RetryScope], mints: &[&str]) {
    const HEADERS: &[&str] = &["idempotency-key", "x-idempotency-key"];
    for &n in &ctx.nodes {
        let value = match n.kind_str() {
            "pair" => field(n, "key")
                .filter(|k| k.kind_str() == "string")
                .filter(|k| {
                    // The literal's prefix (`b`, `r`, `f`), then its quotes.
                    let name = ctx
                        .text(*k)
                        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                        .trim_matches(|c| matches!(c, '"' | '\''));
                    HEADERS.iter().any(|h| name.eq_ignore_ascii_case(h))
                })
                .and_then(|_| field(n, "value")),
            "keyword_argument" => field(n, "name")
                .filter(|k| ctx.text(*k) == "idempotency_key")
                .and_then(|_| field(n, "value")),
            _ => None,
        };
        let Some(value) = value else {
            continue;
        };
        let text = ctx.text(value);
        if text == "None" || mints.iter().any(|m| text.contains(m)) {
            continue;
        }
        for s in scopes {
            if s.start <= n.start_byte()
                && n.end_byte() <= s.end
                && let Some(p) = facts.policies.get_mut(s.policy)
                && !p.idempotency.iter().any(|k| k.inside_retry)
            {
                p.idempotency.push(IdempotencyKey {
                    span: span(value),
                    created_by: super::one_line(text),
                    inside_retry: false,
                });
            }
        }
    }
}
