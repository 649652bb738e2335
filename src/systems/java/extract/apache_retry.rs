//! Apache HttpClient's own retries (issue 28): a client built with
//! `HttpClients.createDefault()`, `HttpClients.createSystem()`,
//! `HttpClients.custom()...build()` or `HttpClientBuilder.create()...build()`
//! without `.disableAutomaticRetries()` retries by itself, under whatever
//! retry the code writes around its calls.
//!
//! 4.x (`org.apache.http`, httpcomponents-client `rel/v4.5.14`):
//! `HttpClientBuilder.build()` takes `DefaultHttpRequestRetryHandler.INSTANCE`
//! when no `setRetryHandler(..)` is given and retries are not disabled
//! (`impl/client/HttpClientBuilder.java`, `if (!automaticRetriesDisabled)`);
//! `new DefaultHttpRequestRetryHandler()` is `this(3, false)`: 3 retries
//! (4 attempts), `requestSentRetryEnabled` false, at once (no wait), of an
//! `IOException` other than `InterruptedIOException` (so no read
//! timeout: `SocketTimeoutException` is one), `UnknownHostException`,
//! `ConnectException`, `NoRouteToHostException`, `SSLException`; a
//! request with an entity (POST, PUT, PATCH) only when it was not fully
//! sent (`handleAsIdempotent`: `!(request instanceof
//! HttpEntityEnclosingRequest)`), so a sent POST is never retried
//! (`impl/client/DefaultHttpRequestRetryHandler.java`).
//!
//! 5.x (`org.apache.hc.client5`, httpcomponents-client `rel/v5.6.4`):
//! `HttpClientBuilder.build()` takes `DefaultHttpRequestRetryStrategy.INSTANCE`
//! (`impl/classic/HttpClientBuilder.java`, `if (!automaticRetriesDisabled)`);
//! `new DefaultHttpRequestRetryStrategy()` is `this(1, TimeValue.ofSeconds(1L))`:
//! 1 retry (2 attempts) after 1 s, of an I/O error of an idempotent
//! request (`Method.isIdempotent`) other than `InterruptedIOException`,
//! `UnknownHostException`, `ConnectException`, `ConnectionClosedException`,
//! `NoRouteToHostException`, `SSLException`, and of a response `429` or
//! `503` whatever its method (`retryRequest(HttpResponse, ..)` does not
//! ask `handleAsIdempotent`; `HttpRequestRetryExec` copies the original
//! request and sends it again), waiting the response's `Retry-After`
//! when it has one, with no upper bound
//! (`impl/DefaultHttpRequestRetryStrategy.java`, `getRetryInterval`).
//!
//! The client's retries apply to the calls made through it: the URL
//! literals of the class (a client held in a field) or of the method (a
//! local client) that builds it.

use super::ast::Kind as _;
use super::ast::{self, span};
use super::{Ctx, Out, RetryScope, attempts_default, attempts_written};
use crate::extract::Facts;
use crate::model::backoff::ServerDelay;
use crate::model::*;
use crate::source::Span;
use std::time::Duration;

/// 4.x `DefaultHttpRequestRetryHandler()`: retries (`this(3, false)`).
pub const V4_RETRIES: u64 = 3;
/// 5.x `DefaultHttpRequestRetryStrategy()`: retries and their wait
/// (`this(1, TimeValue.ofSeconds(1L))`).
pub const V5_RETRIES: u64 = 1;
pub const V5_INTERVAL: Duration = Duration::from_secs(1);
/// 5.x: the statuses retried whatever the method
/// (`HttpStatus.SC_TOO_MANY_REQUESTS`, `HttpStatus.SC_SERVICE_UNAVAILABLE`).
pub const V5_STATUSES: [u16; 2] = [429, 503];
/// The I/O errors neither version retries.
const NOT_RETRIED_4: &[&str] = &[
    "InterruptedIOException",
    "UnknownHostException",
    "ConnectException",
    "NoRouteToHostException",
    "SSLException",
];
const NOT_RETRIED_5: &[&str] = &[
    "InterruptedIOException",
    "UnknownHostException",
    "ConnectException",
    "ConnectionClosedException",
    "NoRouteToHostException",
    "SSLException",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Version {
    V4,
    V5,
}

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    let version = if ctx.imports_prefix("org.apache.hc.client5") {
        Version::V5
    } else if ctx.imports_prefix("org.apache.http.") {
        Version::V4
    } else {
        return;
    };
    let mut chains = ctx.chains("HttpClients", &["createDefault", "createSystem", "custom"]);
    chains.extend(ctx.chains("HttpClientBuilder", &["create"]));
    for (n, c) in chains {
        let first = c.first().map(|f| f.name.as_str()).unwrap_or("");
        // A builder kept to be configured elsewhere may be told there.
        let builds = matches!(first, "createDefault" | "createSystem")
            || c.calls.iter().any(|k| k.name == "build");
        if !builds || c.calls.iter().any(|k| k.name == "disableAutomaticRetries") {
            continue;
        }
        let set = c
            .calls
            .iter()
            .find(|k| matches!(k.name.as_str(), "setRetryHandler" | "setRetryStrategy"));
        let at = c.first().map_or(span(n), |f| f.span);
        let mut p = match set {
            None => default_policy(version, at),
            Some(k) => match k.args.first().and_then(|a| written(ctx, version, *a)) {
                Some(p) => p,
                // A handler of the project's own: not read.
                None => continue,
            },
        };
        p.name = ctx.policy_name(n);
        // Where the calls through the client are: its class (a field) or
        // its method (a local).
        let field = ctx.ancestor(n, &["field_declaration"]).is_some();
        let scope = if field {
            ctx.ancestor(n, &["class_body"])
        } else {
            ctx.enclosing_method(n).map(|(m, _)| m)
        };
        if version == Version::V5
            && let Some(s) = scope
            && let Some(m) = crate::extract::http_method::of_call(ctx.src, span(s))
        {
            p.methods = m;
        }
        facts.policies.push(p);
        if let Some(body) = scope {
            out.call_scopes.push(RetryScope {
                body,
                policy: facts.policies.len() - 1,
            });
        }
    }
}

/// The retries a builder makes when it is told nothing.
fn default_policy(v: Version, at: Span) -> RetryPolicy {
    let (retries, by) = match v {
        Version::V4 => (V4_RETRIES, "DefaultHttpRequestRetryHandler"),
        Version::V5 => (V5_RETRIES, "DefaultHttpRequestRetryStrategy"),
    };
    let attempts = attempts_default(
        AttemptCount::Finite(retries + 1),
        &format!(
            "no retry handler on the client builder: Apache HttpClient's {by}, {retries} retries"
        ),
        at,
    );
    let mut p = RetryPolicy::new(System::ApacheHttpClient, at, attempts);
    shared(&mut p, v, at, false);
    p
}

/// Where `p` repeats the defaults of version `v` other than the count:
/// wait, conditions, methods, `Retry-After`.
fn shared(p: &mut RetryPolicy, v: Version, at: Span, sent_too: bool) {
    fn dd<T>(x: T, at: Span) -> Located<T> {
        Located::default_at(x, at)
    }
    p.jitter = dd(Jitter::None, at);
    // The wait is the library's: 4.x has no setting for one (its retries
    // mend a stale pooled connection at once), 5.x's default waits 1 s or
    // `Retry-After`. A 5.x strategy written with its own interval is
    // judged (`written`).
    p.platform_backoff = v == Version::V4 || !p.attempts.is_written();
    match v {
        Version::V4 => {
            p.delay = dd(Delay::None, at);
            p.methods = dd(
                if sent_too {
                    Methods::All
                } else {
                    Methods::IdempotentOnly
                },
                at,
            );
            p.retry_on = dd(
                RetryOn::Listed {
                    conditions: vec![dd(Condition::Exception("IOException".into()), at)],
                },
                at,
            );
            p.ignores = NOT_RETRIED_4
                .iter()
                .map(|e| dd(Condition::Exception((*e).into()), at))
                .collect();
        }
        Version::V5 => {
            if p.delay.value == Delay::Unknown {
                p.delay = dd(Delay::Fixed { delay: V5_INTERVAL }, at);
            }
            // A `POST` is retried on these statuses too; read from the
            // calls when they show one (`extract`).
            p.methods = dd(Methods::Unknown, at);
            let mut conditions: Vec<_> = V5_STATUSES
                .iter()
                .map(|c| dd(Condition::status(*c), at))
                .collect();
            // The I/O errors of idempotent requests (a stale keep-alive
            // connection): not ambiguous for a POST, which is not retried
            // on them.
            conditions.push(dd(
                Condition::Exception("NoHttpResponseException".into()),
                at,
            ));
            p.retry_on = dd(RetryOn::Listed { conditions }, at);
            p.ignores = NOT_RETRIED_5
                .iter()
                .map(|e| dd(Condition::Exception((*e).into()), at))
                .collect();
            p.server_delay = Some(dd(
                ServerDelay {
                    header: "Retry-After".into(),
                    capped: false,
                    jittered: false,
                    by: "Apache HttpClient's DefaultHttpRequestRetryStrategy".into(),
                    ignored: None,
                },
                at,
            ));
        }
    }
}

/// `new DefaultHttpRequestRetryHandler(3, true)` (4.x),
/// `new StandardHttpRequestRetryHandler(..)`,
/// `new DefaultHttpRequestRetryStrategy(2, TimeValue.ofSeconds(2))` (5.x),
/// or the shared `INSTANCE`; `None` for anything else.
fn written(ctx: &Ctx<'_>, v: Version, a: tree_sitter::Node<'_>) -> Option<RetryPolicy> {
    let a = ctx.resolve(a);
    let at = span(a);
    let text = ctx.text(a);
    if text.ends_with("DefaultHttpRequestRetryHandler.INSTANCE")
        || text.ends_with("DefaultHttpRequestRetryStrategy.INSTANCE")
    {
        let mut p = default_policy(v, at);
        p.attempts.provenance = Provenance::Written;
        return Some(p);
    }
    if a.kind_str() != "object_creation_expression" {
        return None;
    }
    let ty = ast::simple_type(ctx.text(ast::field(a, "type")?));
    let args = ast::field(a, "arguments")
        .map(ast::named_children)
        .unwrap_or_default();
    let known = matches!(
        (v, ty),
        (
            Version::V4,
            "DefaultHttpRequestRetryHandler" | "StandardHttpRequestRetryHandler"
        ) | (Version::V5, "DefaultHttpRequestRetryStrategy")
    );
    if !known {
        return None;
    }
    let retries = match args.first() {
        None => match v {
            Version::V4 => Some(V4_RETRIES),
            Version::V5 => Some(V5_RETRIES),
        },
        Some(n) => ctx.int(*n).and_then(|x| u64::try_from(x).ok()),
    };
    let count = retries.map_or(AttemptCount::Unknown, |r| AttemptCount::Finite(r + 1));
    let mut p = RetryPolicy::new(
        System::ApacheHttpClient,
        at,
        attempts_written(count, format!("new {ty}({})", one_line(&args, ctx)), at),
    );
    // 4.x: the second argument, `requestSentRetryEnabled`, retries a sent
    // POST too; `StandardHttpRequestRetryHandler` retries the RFC 2616
    // idempotent methods (PUT and DELETE with GET).
    let sent_too = v == Version::V4
        && ty == "DefaultHttpRequestRetryHandler"
        && args.get(1).is_some_and(|b| ctx.text(*b) == "true");
    if v == Version::V5
        && let Some(i) = args.get(1)
    {
        p.delay = Located::written(
            interval(ctx, *i).map_or(Delay::Unknown, |delay| Delay::Fixed { delay }),
            span(*i),
        );
    }
    shared(&mut p, v, at, sent_too);
    // 5.x `(maxRetries, interval, nonRetriableIOExceptionClasses, codes)`:
    // the codes written replace 429 and 503.
    if v == Version::V5
        && let Some(codes) = args.get(3)
    {
        let mut conditions: Vec<_> = match crate::extract::status_test::listed(ctx.text(*codes)) {
            Some(s) => crate::extract::status_test::conditions_at(&[(s, span(*codes))]),
            None => vec![Located::written(Condition::Predicate, span(*codes))],
        };
        conditions.push(Located::default_at(
            Condition::Exception("NoHttpResponseException".into()),
            at,
        ));
        p.retry_on = Located::written(RetryOn::Listed { conditions }, span(*codes));
    }
    if sent_too {
        p.methods = Located::written(Methods::All, span(args[1]));
    }
    Some(p)
}

fn one_line(args: &[tree_sitter::Node<'_>], ctx: &Ctx<'_>) -> String {
    args.iter()
        .map(|a| {
            ctx.text(*a)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `TimeValue.ofSeconds(2)`, `TimeValue.ofMilliseconds(500)`.
fn interval(ctx: &Ctx<'_>, n: tree_sitter::Node<'_>) -> Option<Duration> {
    let c = ast::chain(n, ctx.src);
    let k = c.last()?;
    let v = u64::try_from(ctx.int(*k.args.first()?)?).ok()?;
    match k.name.as_str() {
        "ofSeconds" => Some(Duration::from_secs(v)),
        "ofMilliseconds" => Some(Duration::from_millis(v)),
        "ofMinutes" => Some(Duration::from_secs(v.saturating_mul(60))),
        _ => None,
    }
}
