//! OpenFeign's client retry (`feign.Retryer`): `new Retryer.Default(..)`,
//! and `Feign.builder()` chains, whose retryer nobody may have written.
//!
//! Semantics, from Feign's `Retryer.Default` and `BaseBuilder`:
//! `new Retryer.Default()` is `(100, SECONDS.toMillis(1), 5)`:
//! `maxAttempts` counts every attempt; the wait before retry n is
//! `period x 1.5^n` ms (the attempt counter is already incremented when it
//! is computed, so the first wait is 1.5 periods), capped at `maxPeriod`,
//! with no randomness (a `Retry-After` header replaces it). A
//! `Feign.builder()` without `.retryer(..)` uses `new Retryer.Default()`:
//! 5 attempts nobody wrote (read on a chain that builds the client, with
//! `target(..)` or `build()`). `Retryer.NEVER_RETRY` does not retry (Spring
//! Cloud OpenFeign's default bean). Feign retries a `RetryableException`,
//! which `SynchronousMethodHandler` throws for every `IOException` of the
//! call (read timeouts included) whatever the HTTP method, and
//! `ErrorDecoder.Default` for a response with `Retry-After`.
//!
//! A Spring Cloud OpenFeign `@FeignClient` interface is a call edge (see
//! [`feign_clients`]); Spring Cloud's default retryer bean is
//! `Retryer.NEVER_RETRY`, and `client.config.<client>.retryer` in the
//! service's configuration (`spring_boot_retry`) replaces it.

use super::ast::Kind as _;
use super::ast::{self, field, named_children, span};
use super::{Ctx, Out, RetryScope, attempts_default, attempts_written};
use crate::extract::Facts;
use crate::model::*;
use crate::source::Span;
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::Node;

const MS: Duration = Duration::from_millis(1);

/// The route of a retryer built in a `@Bean` method (for messages; the
/// graph reads [`ClientScope::Bean`]).
const BEAN: &str = Scope::BEAN_RETRYER;

/// `new Retryer.Default()`'s period, maximum period and attempts.
const DEFAULT: (u64, u64, u64) = (100, 1000, 5);

fn is_default_retryer(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    n.kind_str() == "object_creation_expression"
        && field(n, "type").is_some_and(|t| {
            let ty = ctx.text(t);
            ty == "Retryer.Default"
                || ty == "feign.Retryer.Default"
                || (ty == "Default" && ctx.imports("feign.Retryer.Default"))
        })
}

/// The policy of `new Retryer.Default(period, maxPeriod, maxAttempts)`
/// written in a file.
fn written_retryer(ctx: &Ctx<'_>, args: &[Node<'_>], at: Span) -> RetryPolicy {
    let (period, max_period, attempts) = match args {
        [p, m, a] => (millis(ctx, *p), millis(ctx, *m), count(ctx, *a)),
        _ => (None, None, None),
    };
    let count = attempts.map_or(AttemptCount::Unknown, |a| AttemptCount::Finite(a.max(1)));
    let t = args.get(2).map_or("", |a| ctx.text(*a));
    let mut p = policy(attempts_written(count, format!("maxAttempts {t}"), at), at);
    p.delay = Located::written(delay(period, max_period), at);
    p
}

/// The policy of `Retryer.Default` with its default values, at `at`:
/// `chosen` when a file asks for this retryer (`new Retryer.Default()`, a
/// `retryer: feign.Retryer.Default` property), not when a builder falls
/// back to it; `written_as` says which.
pub fn default_retryer(at: Span, chosen: bool, written_as: &str) -> RetryPolicy {
    let (period, max_period, attempts) = DEFAULT;
    let count = AttemptCount::Finite(attempts);
    let attempts = if chosen {
        attempts_written(count, written_as.to_string(), at)
    } else {
        attempts_default(count, written_as, at)
    };
    let mut p = policy(attempts, at);
    p.delay = Located::default_at(delay(Some(period), Some(max_period)), at);
    p
}

fn delay(period: Option<u64>, max_period: Option<u64>) -> Delay {
    match period.and_then(|p| ast::scale(MS, p as f64 * 1.5)) {
        Some(base) => Delay::Exponential {
            base,
            multiplier: 1.5,
            cap: max_period.and_then(|c| ast::scale(MS, c as f64)),
        },
        None => Delay::Unknown,
    }
}

/// What every Feign retryer shares: no jitter, every method, every I/O
/// error of the call.
fn policy(attempts: Located<Attempts>, at: Span) -> RetryPolicy {
    let mut p = RetryPolicy::new(System::Feign, at, attempts);
    p.jitter = Located::default_at(Jitter::None, at);
    p.methods = Located::default_at(Methods::All, at);
    p.retry_on = Located::default_at(
        RetryOn::Listed {
            conditions: vec![Located::default_at(
                Condition::Exception("IOException".into()),
                at,
            )],
        },
        at,
    );
    p
}

/// A count argument: a constant.
fn count(ctx: &Ctx<'_>, n: Node<'_>) -> Option<u64> {
    ctx.int(n).and_then(|v| u64::try_from(v).ok())
}

/// A milliseconds argument: a constant, or `TimeUnit.X.toMillis(n)`.
fn millis(ctx: &Ctx<'_>, n: Node<'_>) -> Option<u64> {
    if let Some(v) = count(ctx, n) {
        return Some(v);
    }
    let n = ctx.resolve(n);
    if n.kind_str() != "method_invocation" {
        return None;
    }
    let c = ast::chain(n, ctx.src);
    let call = c
        .last()
        .filter(|k| k.name == "toMillis" && c.calls.len() == 1)?;
    let unit = ast::time_unit(c.root_text(ctx.src))?;
    let d = ast::scale(unit, count(ctx, *call.args.first()?)? as f64)?;
    u64::try_from(d.as_millis()).ok()
}

/// Spring Cloud OpenFeign's `@FeignClient` on an interface: a call to
/// the `url`'s host, or to the service the `name` (or `value`) names,
/// made through the client `contextId` (else the name), whose
/// `client.config.<client>` settings apply to it.
fn feign_clients(ctx: &Ctx<'_>, facts: &mut Facts) {
    for &n in &ctx.nodes {
        if n.kind_str() != "interface_declaration" {
            continue;
        }
        for (name, a) in super::r4j::method_annotations(ctx, n) {
            if name != "FeignClient" {
                continue;
            }
            let args = super::r4j::annotation_args(ctx, a);
            let string = |keys: &[&str]| {
                args.iter()
                    .find(|(k, ..)| keys.contains(k))
                    .and_then(|(_, v, _)| ctx.string(*v))
                    .filter(|s| !s.is_empty() && !s.contains("${"))
            };
            let service = string(&["name", "value"]);
            let url = string(&["url"]);
            // `url = "${rates.url}"`: Feign calls what the property holds,
            // and its `name` through the load balancer when that is empty;
            // the link step resolves it from the service's configuration.
            if let Some((_, v, _)) = args.iter().find(|(k, ..)| *k == "url")
                && let Some(written) = ctx.string(*v).filter(|s| s.contains("${"))
            {
                let mut u = UnresolvedCall::new(span(*v), written);
                u.if_empty = service.clone();
                u.client = string(&["contextId"]).or_else(|| service.clone());
                facts.unresolved.push(u);
                continue;
            }
            let callee = match url.as_deref().and_then(super::url_host) {
                Some(host) => host.to_string(),
                None => match &service {
                    Some(s) => s.clone(),
                    None => continue,
                },
            };
            let client = string(&["contextId"]).or_else(|| service.clone());
            facts.edges.push(CallEdge {
                client,
                caller: None,
                callee,
                span: span(a),
                policies: Vec::new(),
                via: format!("`@FeignClient` `{}`", service.as_deref().unwrap_or("(url)")),
                protocol: None,
            });
        }
    }
}

/// Whether a string literal is an attribute of a `@FeignClient` (its edge
/// is the annotation's, not a URL literal's).
pub fn in_feign_client(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    ctx.ancestor(n, &["annotation"])
        .and_then(|a| field(a, "name"))
        .is_some_and(|name| ast::last_segment(ctx.text(name)) == "FeignClient")
}

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    if ctx.imports_prefix("org.springframework.cloud.openfeign") {
        feign_clients(ctx, facts);
    }
    if !ctx.imports_prefix("feign.") {
        return;
    }
    let mut created: HashMap<usize, usize> = HashMap::new();
    for &n in &ctx.nodes {
        if !is_default_retryer(ctx, n) {
            continue;
        }
        let args = field(n, "arguments")
            .map(named_children)
            .unwrap_or_default();
        let mut p = if args.is_empty() {
            default_retryer(span(n), true, "new Retryer.Default(): 5 attempts")
        } else {
            written_retryer(ctx, &args, span(n))
        };
        p.name = ctx.policy_name(n);
        // A `@Bean` method's retryer is the one Spring Cloud OpenFeign
        // gives the service's clients (see the graph).
        if ctx.enclosing_method(n).is_some_and(|(m, _)| {
            super::r4j::method_annotations(ctx, m)
                .iter()
                .any(|(a, _)| *a == "Bean")
        }) {
            p.scope.route = Some(BEAN.to_string());
            p.scope.client = Some(ClientScope::Bean);
        }
        created.insert(n.id(), facts.policies.len());
        facts.policies.push(p);
    }
    for (n, c) in ctx.chains("Feign", &["builder"]) {
        let idx = match c.calls.iter().find(|k| k.name == "retryer") {
            Some(k) => k
                .args
                .first()
                .and_then(|a| created.get(&ctx.resolve(*a).id()).copied()),
            // A builder kept and configured elsewhere may get its retryer
            // there: only a chain that builds the client falls back here.
            None if !c
                .calls
                .iter()
                .any(|k| matches!(k.name.as_str(), "target" | "build")) =>
            {
                None
            }
            None => {
                // `Feign.builder()` itself: where the default comes from.
                let at = c.first().map_or(span(n), |f| f.span);
                let mut p = default_retryer(
                    at,
                    false,
                    "no .retryer(..) on Feign.builder(), so Retryer.Default",
                );
                p.name = ctx.policy_name(n);
                facts.policies.push(p);
                Some(facts.policies.len() - 1)
            }
        };
        // The URL the chain targets is called through that retryer.
        if let Some(policy) = idx {
            out.call_scopes.push(RetryScope { body: n, policy });
        }
    }
}
