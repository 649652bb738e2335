//! Project Reactor retries on a `Mono`/`Flux` chain (typically a
//! `WebClient` call): `.retryWhen(Retry.backoff(..))`,
//! `.retryWhen(Retry.fixedDelay(..))`, `Retry.max(n)`, `Retry.indefinitely()`,
//! `.retry()` and `.retry(n)`.
//!
//! Semantics (reactor-core `reactor.util.retry.RetryBackoffSpec` /
//! `RetrySpec`): the number given is the number of retries (total = n + 1);
//! `backoff` doubles from `minBackoff` up to `maxBackoff` (default
//! `Long.MAX_VALUE` ms) with a jitter factor of 0.5 drawn inside
//! [minBackoff, maxBackoff]; `fixedDelay` is a backoff spec with jitter 0
//! and min = max; `max`/`maxInARow`/`.retry(n)` resubscribe at once;
//! `indefinitely()` and `.retry()` never stop; every error is retried
//! unless `filter(..)` narrows it. A `.timeout(..)` before the retry bounds
//! each attempt, one after it all of them. The HTTP method is read from the
//! `WebClient` chain (`.post()`, `.method(HttpMethod.PUT)`).
//!
//! On resubscription the upstream is re-run, but values computed while the
//! chain was assembled are not: an idempotency key passed to `.header(..)`
//! outside a lambda is the same for every attempt, one minted inside
//! `Mono.defer(() -> ..)` or a `flatMap` lambda is new each time.

use super::ast::Kind as _;
use super::ast::{self, field, named_children, span};
use super::{Ctx, Out, RetryScope, attempts_written};
use crate::extract::Facts;
use crate::model::*;
use crate::source::Span;
use std::time::Duration;
use tree_sitter::Node;

const MS: Duration = Duration::from_millis(1);
const REACTIVE: &[&str] = &[
    "retrieve",
    "bodyToMono",
    "bodyToFlux",
    "exchangeToMono",
    "exchangeToFlux",
    "flatMap",
    "onErrorResume",
    "switchIfEmpty",
    "subscribeOn",
    "publishOn",
    "doOnError",
    "toEntity",
];

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    if !(ctx.imports_prefix("reactor.") || ctx.imports_prefix("org.springframework.web.reactive")) {
        return;
    }
    for &n in &ctx.nodes {
        if n.kind_str() != "method_invocation" {
            continue;
        }
        let name = field(n, "name").map_or("", |x| ctx.text(x));
        if name != "retryWhen" && name != "retry" {
            continue;
        }
        let Some(upstream) = field(n, "object") else {
            continue;
        };
        let args = field(n, "arguments")
            .map(named_children)
            .unwrap_or_default();
        // The whole chain this call is a link of, and where it sits in it.
        let mut top = n;
        while ctx.is_chain_link(top) {
            match ctx.parent(top) {
                Some(p) => top = p,
                None => break,
            }
        }
        let chain = ast::chain(top, ctx.src);
        let Some(pos) = chain.calls.iter().position(|c| c.node.id() == n.id()) else {
            continue;
        };
        let before = &chain.calls[..pos];
        let after = &chain.calls[pos + 1..];
        let root = ast::last_segment(chain.root_text(ctx.src));
        let reactive = matches!(root, "Mono" | "Flux" | "webClient" | "WebClient")
            || before.iter().any(|c| REACTIVE.contains(&c.name.as_str()));
        let at = chain.calls[pos].span;
        let mut p = match (name, args.as_slice()) {
            ("retryWhen", [spec]) => match spec_policy(ctx, *spec, at) {
                Some(p) => p,
                None => continue,
            },
            ("retry", []) if reactive => {
                let mut p = RetryPolicy::new(
                    System::Reactor,
                    at,
                    attempts_written(AttemptCount::Unbounded, "retry()".into(), at),
                );
                p.delay = Located::written(Delay::None, at);
                p.jitter = Located::written(Jitter::None, at);
                p.retry_on = Located::default_at(RetryOn::AllErrors, at);
                p
            }
            ("retry", [n_arg]) if reactive => {
                let count = retries(ctx, *n_arg);
                let mut p = RetryPolicy::new(
                    System::Reactor,
                    at,
                    attempts_written(count, format!("retry({}) (retries)", ctx.text(*n_arg)), at),
                );
                p.delay = Located::written(Delay::None, at);
                p.jitter = Located::written(Jitter::None, at);
                p.retry_on = Located::default_at(RetryOn::AllErrors, at);
                p
            }
            _ => continue,
        };
        p.name = ctx.enclosing_method(n).map(|(_, m)| m);
        p.methods = http_methods(ctx, before, at);
        for c in before.iter().filter(|c| c.name == "timeout") {
            if let Some(d) = c.args.first().and_then(|a| ctx.duration(*a, MS)) {
                p.per_try_timeout = Some(Located::written(Timeout::after(d), c.span));
            }
        }
        if p.per_try_timeout.is_none() && after.iter().any(|c| c.name == "timeout") {
            // Reactor offers `.timeout(..)` before the retry for each attempt.
            p.per_try_timeout = Some(Located::default_at(Timeout::Disabled, at));
        }
        for c in after.iter().filter(|c| c.name == "timeout") {
            if let Some(d) = c.args.first().and_then(|a| ctx.duration(*a, MS)) {
                p.overall_timeout = Some(Located::written(Timeout::after(d), c.span));
            }
        }
        keys_at_assembly(ctx, upstream, &mut p);
        let idx = facts.policies.len();
        facts.policies.push(p);
        // Lambdas of the upstream run again on each resubscription.
        for d in ctx.descendants(upstream) {
            if d.kind_str() == "lambda_expression"
                && let Some(body) = field(d, "body")
            {
                out.scopes.push(RetryScope { body, policy: idx });
            }
        }
        out.call_scopes.push(RetryScope {
            body: upstream,
            policy: idx,
        });
    }
}

/// A retry count: `Long.MAX_VALUE` is unbounded.
fn retries(ctx: &Ctx<'_>, n: Node<'_>) -> AttemptCount {
    match ctx.int(n) {
        Some(v) if v >= i32::MAX as i128 => AttemptCount::Unbounded,
        Some(v) if v >= 0 => AttemptCount::Finite(v as u64 + 1),
        _ => AttemptCount::Unknown,
    }
}

/// The policy of a `Retry` spec expression.
fn spec_policy<'a>(ctx: &Ctx<'a>, spec: Node<'a>, at: Span) -> Option<RetryPolicy> {
    let mut r = ctx.resolve(spec);
    // A helper method of the class that returns the spec
    // (`.retryWhen(retrySpec(url))`, `Retry retrySpec(String u) { return
    // Retry.backoff(..); }`): Reactor retries what it returns, as if written
    // here. Followed a few methods deep, each declared once in the file with
    // one `return`.
    for _ in 0..HELPER_DEPTH {
        match returned_by_helper(ctx, r) {
            Some(v) => r = ctx.resolve(v),
            None => break,
        }
    }
    if r.kind_str() != "method_invocation" {
        return None;
    }
    let c = ast::chain(r, ctx.src);
    if ast::last_segment(c.root_text(ctx.src)) != "Retry" {
        return None;
    }
    let first = c.first()?;
    let arg = |i: usize| first.args.get(i).copied();
    let spec_span = first.span;
    let (count, mut delay, mut jitter, written) = match first.name.as_str() {
        "backoff" => {
            let d = arg(1).and_then(|a| ctx.duration(a, MS));
            (
                arg(0).map_or(AttemptCount::Unknown, |a| retries(ctx, a)),
                d.map_or(Delay::Unknown, |base| Delay::Exponential {
                    base,
                    multiplier: 2.0,
                    cap: None,
                }),
                Jitter::Proportional { factor: 0.5 },
                format!(
                    "Retry.backoff({}, ..) (retries)",
                    arg(0).map_or("", |a| ctx.text(a))
                ),
            )
        }
        "fixedDelay" => {
            let d = arg(1).and_then(|a| ctx.duration(a, MS));
            (
                arg(0).map_or(AttemptCount::Unknown, |a| retries(ctx, a)),
                d.map_or(Delay::Unknown, |delay| Delay::Fixed { delay }),
                Jitter::None,
                format!(
                    "Retry.fixedDelay({}, ..) (retries)",
                    arg(0).map_or("", |a| ctx.text(a))
                ),
            )
        }
        "max" | "maxInARow" => (
            arg(0).map_or(AttemptCount::Unknown, |a| retries(ctx, a)),
            Delay::None,
            Jitter::None,
            format!(
                "Retry.{}({}) (retries)",
                first.name,
                arg(0).map_or("", |a| ctx.text(a))
            ),
        ),
        "indefinitely" => (
            AttemptCount::Unbounded,
            Delay::None,
            Jitter::None,
            "Retry.indefinitely()".into(),
        ),
        "from" | "withThrowable" => (
            AttemptCount::Unknown,
            Delay::Custom,
            Jitter::Unknown,
            format!("Retry.{}(..)", first.name),
        ),
        _ => return None,
    };
    let mut p = RetryPolicy::new(
        System::Reactor,
        at,
        attempts_written(count, written, spec_span),
    );
    let mut delay_span = spec_span;
    let mut conditions: Vec<Located<Condition>> = Vec::new();
    for call in &c.calls[1..] {
        let a = call.args.first().copied();
        match call.name.as_str() {
            "maxAttempts" => {
                if let Some(a) = a {
                    p.attempts = attempts_written(
                        retries(ctx, a),
                        format!("maxAttempts({}) (retries)", ctx.text(a)),
                        call.span,
                    );
                }
            }
            "minBackoff" => {
                if let (Some(d), Delay::Exponential { base, .. }) =
                    (a.and_then(|a| ctx.duration(a, MS)), &mut delay)
                {
                    *base = d;
                    delay_span = delay_span.cover(call.span);
                }
            }
            "maxBackoff" => {
                if let (Some(d), Delay::Exponential { cap, .. }) =
                    (a.and_then(|a| ctx.duration(a, MS)), &mut delay)
                {
                    *cap = Some(d);
                    delay_span = delay_span.cover(call.span);
                }
            }
            "jitter" => {
                jitter = match a.and_then(|a| ctx.float(a)) {
                    Some(f) if f > 0.0 => Jitter::Proportional { factor: f },
                    Some(_) => Jitter::None,
                    None => Jitter::Unknown,
                };
                delay_span = delay_span.cover(call.span);
            }
            "filter" => conditions.extend(filter_conditions(ctx, a, call.span)),
            _ => {}
        }
    }
    p.delay = Located::written(delay, delay_span);
    p.jitter = Located::written(jitter, delay_span);
    p.retry_on = if conditions.is_empty() {
        Located::default_at(RetryOn::AllErrors, spec_span)
    } else {
        let s = conditions.first().map_or(spec_span, |c| c.span);
        Located::written(RetryOn::Listed { conditions }, s)
    };
    Some(p)
}

/// How many helper methods deep a spec is followed.
const HELPER_DEPTH: usize = 3;

/// The expression returned by the helper method `call` invokes, when it is
/// a call without receiver (or on `this`) of the one method of that name
/// declared in the file, whose body's one `return` (outside lambdas and
/// nested classes) returns it.
fn returned_by_helper<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> Option<Node<'a>> {
    if call.kind_str() != "method_invocation" {
        return None;
    }
    if field(call, "object").is_some_and(|o| ctx.text(o) != "this") {
        return None;
    }
    let name = ctx.text(field(call, "name")?);
    let [decl] = ctx.methods_named(name) else {
        return None;
    };
    let body = field(*decl, "body")?;
    let returns: Vec<Node<'a>> = ctx
        .descendants_until(body, |x| {
            matches!(
                x.kind_str(),
                "lambda_expression" | "class_body" | "method_declaration"
            )
        })
        .into_iter()
        .filter(|x| x.kind_str() == "return_statement")
        .collect();
    let [ret] = returns[..] else {
        return None;
    };
    named_children(ret).into_iter().next()
}

/// `filter(e -> e instanceof IOException || e instanceof TimeoutException)`
/// names exception types; any other predicate is opaque.
fn filter_conditions(ctx: &Ctx<'_>, pred: Option<Node<'_>>, at: Span) -> Vec<Located<Condition>> {
    let Some(pred) = pred else {
        return Vec::new();
    };
    if super::predicates::accepts_all(ctx, pred) {
        return vec![super::predicates::catch_all(at)];
    }
    let pred = ctx.resolve(pred);
    let body = if pred.kind_str() == "lambda_expression" {
        field(pred, "body")
    } else {
        None
    };
    let Some(body) = body.filter(|b| b.kind_str() != "block") else {
        return vec![Located::written(Condition::Predicate, at)];
    };
    let mut out = Vec::new();
    let mut other = false;
    let mut stack = vec![ast::unwrap_expr(body)];
    while let Some(e) = stack.pop() {
        match e.kind_str() {
            "binary_expression" if field(e, "operator").is_some_and(|o| ctx.text(o) == "||") => {
                stack.extend(field(e, "left").map(ast::unwrap_expr));
                stack.extend(field(e, "right").map(ast::unwrap_expr));
            }
            "instanceof_expression" => match field(e, "right") {
                Some(t) => out.push(Located::written(
                    Condition::Exception(ctx.text(t).to_string()),
                    span(t),
                )),
                None => other = true,
            },
            _ => other = true,
        }
        if out.len() > 64 {
            break;
        }
    }
    if other {
        out.push(Located::written(Condition::Predicate, at));
    }
    out.sort_by_key(|c| c.span.start);
    out
}

/// The HTTP method of a `WebClient` chain, when it names one.
fn http_methods(ctx: &Ctx<'_>, calls: &[ast::Call<'_>], at: Span) -> Located<Methods> {
    for c in calls {
        let m = match c.name.as_str() {
            "get" | "post" | "put" | "patch" | "delete" | "head" | "options"
                if c.args.is_empty() =>
            {
                c.name.to_ascii_uppercase()
            }
            "method" => match c.args.first() {
                Some(a) => ast::last_segment(ctx.text(*a)).to_ascii_uppercase(),
                None => continue,
            },
            _ => continue,
        };
        if m.chars().all(|ch| ch.is_ascii_uppercase()) && !m.is_empty() {
            return Located::written(Methods::Set(vec![m]), c.span);
        }
    }
    Located::default_at(Methods::Unknown, at)
}

/// Keys minted while the chain is assembled (outside any lambda): the same
/// value goes out with every resubscription.
fn keys_at_assembly(ctx: &Ctx<'_>, upstream: Node<'_>, p: &mut RetryPolicy) {
    for d in ctx.descendants_until(upstream, |x| x.kind_str() == "lambda_expression") {
        if super::random_id(ctx, d) && super::used_as_key(ctx, d) {
            p.idempotency.push(IdempotencyKey {
                span: span(d),
                created_by: ctx.text(d).to_string(),
                inside_retry: false,
            });
        }
    }
}
