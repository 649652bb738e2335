//! Failsafe retry policies (`dev.failsafe`, 3.x; `net.jodah.failsafe`,
//! 2.x): `RetryPolicy.builder()...build()`, `new RetryPolicy<>()...`,
//! `RetryPolicy.ofDefaults()`, and their composition in
//! `Failsafe.with(outer, .., inner)` / `.compose(inner)`.
//!
//! Semantics (Failsafe `RetryPolicyBuilder`): 2 retries (3 attempts) by
//! default, no delay, every exception handled; `withMaxRetries(-1)` /
//! `withMaxAttempts(-1)` retry forever; `withBackoff(delay, maxDelay)`
//! doubles by default; `withDelay(min, max)` draws uniformly; `withJitter`
//! randomises the computed delay (after the `maxDelay` cap);
//! `withMaxDuration` bounds all attempts together; `abortOn` stops retries.
//! In `Failsafe.with(a, b, c)` the first policy is the outermost.

use super::ast::Kind as _;
use super::ast::{self, field, span};
use super::{Ctx, Out, RetryScope, attempts_default, attempts_written};
use crate::extract::Facts;
use crate::model::*;
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::Node;

const MS: Duration = Duration::from_millis(1);

fn is_failsafe(ctx: &Ctx<'_>) -> bool {
    ctx.imports_prefix("dev.failsafe") || ctx.imports_prefix("net.jodah.failsafe")
}

/// `Duration` or `(long, ChronoUnit)` arguments starting at `i`.
fn duration_at(
    ctx: &Ctx<'_>,
    args: &[Node<'_>],
    i: usize,
    unit_at: Option<usize>,
) -> Option<Duration> {
    let a = *args.get(i)?;
    if let Some(u) = unit_at
        .and_then(|j| args.get(j))
        .and_then(|u| ast::time_unit(ctx.text(*u)))
    {
        let n = ctx.int(a)?;
        return (n >= 0).then(|| ast::scale(u, n as f64)).flatten();
    }
    ctx.duration(a, MS)
}

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    if !is_failsafe(ctx) {
        return;
    }
    let mut created: HashMap<usize, usize> = HashMap::new();
    for &n in &ctx.nodes {
        if n.kind_str() != "method_invocation" && n.kind_str() != "object_creation_expression" {
            continue;
        }
        if ctx.is_chain_link(n) {
            continue;
        }
        let c = ast::chain(n, ctx.src);
        let root = c.root.map(ast::unwrap_expr);
        let (calls, ok) = match root {
            Some(r) if r.kind_str() == "object_creation_expression" => (
                &c.calls[..],
                field(r, "type").is_some_and(|t| ast::simple_type(ctx.text(t)) == "RetryPolicy"),
            ),
            Some(r) if ast::last_segment(ctx.name_of(Some(r))) == "RetryPolicy" => (
                c.calls.get(1..).unwrap_or(&[]),
                matches!(
                    c.first().map(|f| f.name.as_str()),
                    Some("builder" | "ofDefaults")
                ),
            ),
            _ => (&c.calls[..], false),
        };
        if !ok {
            continue;
        }
        let at = span(n);
        let mut attempts =
            attempts_default(AttemptCount::Finite(3), "withMaxRetries(2) (default)", at);
        let mut delay = Located::default_at(Delay::None, at);
        let mut jitter = Located::default_at(Jitter::None, at);
        let mut conditions = Vec::new();
        let mut ignores = Vec::new();
        let mut overall = None;
        let mut jitter_call: Option<(Node<'_>, crate::source::Span)> = None;
        for call in calls {
            let args = &call.args;
            match call.name.as_str() {
                "withMaxRetries" | "withMaxAttempts" => {
                    let v = args.first().and_then(|a| ctx.int(*a));
                    let retries = call.name == "withMaxRetries";
                    let count = match v {
                        Some(-1) => AttemptCount::Unbounded,
                        Some(v) if v >= 0 => AttemptCount::Finite(if retries {
                            v as u64 + 1
                        } else {
                            v.max(1) as u64
                        }),
                        _ => AttemptCount::Unknown,
                    };
                    let t = args.first().map_or("", |a| ctx.text(*a));
                    attempts = attempts_written(count, format!("{}({t})", call.name), call.span);
                }
                "withDelay" if args.len() >= 2 => {
                    let unit = (args.len() >= 3).then_some(2);
                    let (lo, hi) = (
                        duration_at(ctx, args, 0, unit),
                        duration_at(ctx, args, 1, unit),
                    );
                    let (d, j, _) = match (lo, hi) {
                        (Some(lo), Some(hi)) => super::spring::uniform(
                            lo.as_secs_f64() * 1000.0,
                            hi.as_secs_f64() * 1000.0,
                        ),
                        _ => (Delay::Unknown, Jitter::Unknown, CapOrder::BeforeJitter),
                    };
                    delay = Located::written(d, call.span);
                    jitter = Located::written(j, call.span);
                }
                "withDelay" => {
                    let d = duration_at(ctx, args, 0, None);
                    delay = Located::written(
                        d.map_or(Delay::Unknown, |delay| Delay::Fixed { delay }),
                        call.span,
                    );
                }
                "withBackoff" => {
                    // (Duration, Duration[, factor]) or (long, long, ChronoUnit[, factor]).
                    let unit_at = args
                        .get(2)
                        .filter(|u| ast::time_unit(ctx.text(**u)).is_some())
                        .map(|_| 2);
                    let factor_at = if unit_at.is_some() { 3 } else { 2 };
                    let base = duration_at(ctx, args, 0, unit_at);
                    let cap = duration_at(ctx, args, 1, unit_at);
                    let m = args.get(factor_at).map_or(Some(2.0), |f| ctx.float(*f));
                    let d = match (base, m) {
                        (Some(base), Some(multiplier)) => Delay::Exponential {
                            base,
                            multiplier,
                            cap,
                        },
                        _ => Delay::Unknown,
                    };
                    delay = Located::written(d, call.span);
                }
                "withJitter" => {
                    if let Some(a) = args.first() {
                        jitter_call = Some((*a, call.span));
                    }
                }
                "withMaxDuration" => {
                    let d = duration_at(ctx, args, 0, None);
                    overall = Some(Located::written(
                        d.map_or(Timeout::Unknown, Timeout::after),
                        call.span,
                    ));
                }
                "handle" | "retryOn" => conditions.extend(
                    args.iter()
                        .flat_map(|a| ast::class_literals(*a, ctx.src))
                        .map(|(n, s)| Located::written(Condition::Exception(n), s)),
                ),
                "handleIf" | "handleResultIf" | "retryIf"
                    if args
                        .first()
                        .is_some_and(|a| super::predicates::accepts_all(ctx, *a)) =>
                {
                    conditions.push(super::predicates::catch_all(call.span));
                }
                "handleIf" | "handleResultIf" | "handleResult" | "retryIf" | "retryWhen" => {
                    conditions.push(Located::written(Condition::Predicate, call.span));
                }
                "abortOn" => ignores.extend(
                    args.iter()
                        .flat_map(|a| ast::class_literals(*a, ctx.src))
                        .map(|(n, s)| Located::written(Condition::Exception(n), s)),
                ),
                _ => {}
            }
        }
        if let Some((a, s)) = jitter_call {
            let base = delay.value.nominal(1);
            let j = if let Some(f) = ctx
                .float(a)
                .filter(|_| ctx.resolve(a).kind_str() == "decimal_floating_point_literal")
            {
                Jitter::Proportional { factor: f }
            } else if let (Some(d), Some(b)) = (ctx.duration(a, MS), base) {
                if b.is_zero() {
                    Jitter::Full
                } else {
                    Jitter::Proportional {
                        factor: d.as_secs_f64() / b.as_secs_f64(),
                    }
                }
            } else {
                Jitter::Unknown
            };
            jitter = Located::written(j, s);
        }
        let mut p = RetryPolicy::new(System::Failsafe, at, attempts);
        p.name = ctx.policy_name(n);
        p.delay = delay;
        p.jitter = jitter;
        p.overall_timeout = overall;
        p.methods = Located::default_at(Methods::All, at);
        p.retry_on = if conditions.is_empty() {
            Located::default_at(RetryOn::AllErrors, at)
        } else {
            let s = conditions
                .first()
                .map_or(at, |c: &Located<Condition>| c.span);
            Located::written(RetryOn::Listed { conditions }, s)
        };
        p.ignores = ignores;
        created.insert(n.id(), facts.policies.len());
        facts.policies.push(p);
    }
    if created.is_empty() {
        return;
    }
    compositions(ctx, facts, out, &created);
}

/// `Failsafe.with(a, b).compose(c).get(callable)`.
fn compositions<'a>(
    ctx: &Ctx<'a>,
    facts: &mut Facts,
    out: &mut Out<'a>,
    created: &HashMap<usize, usize>,
) {
    for (_, c) in ctx.chains("Failsafe", &["with"]) {
        // Policies, outermost first.
        let mut policies: Vec<Node<'a>> = Vec::new();
        let mut callable = None;
        for call in &c.calls {
            match call.name.as_str() {
                "with" | "compose" => policies.extend(call.args.iter().copied()),
                name if name.starts_with("get") || name.starts_with("run") || name == "call" => {
                    callable = call.args.first().copied();
                }
                _ => {}
            }
        }
        for (i, p) in policies.iter().enumerate() {
            let Some(idx) = created.get(&ctx.resolve(*p).id()).copied() else {
                continue;
            };
            for (j, other) in policies.iter().enumerate() {
                let r = ctx.resolve(*other);
                let oc = ast::chain(r, ctx.src);
                let root = ast::last_segment(oc.root_text(ctx.src));
                let ty = if other.kind_str() == "identifier" {
                    ctx.var(ctx.text(*other), *other)
                        .map_or("", |v| ast::simple_type(v.ty))
                } else {
                    ""
                };
                let Some(pol) = facts.policies.get_mut(idx) else {
                    continue;
                };
                if j > i && (root == "CircuitBreaker" || ty == "CircuitBreaker") {
                    let s = span(*p);
                    if !pol.wraps_breaker.contains(&s) {
                        pol.wraps_breaker.push(s);
                    }
                }
                if root == "Timeout" || ty == "Timeout" {
                    let t = oc
                        .first()
                        .filter(|f| f.name == "of" || f.name == "builder")
                        .and_then(|f| f.args.first())
                        .and_then(|a| ctx.duration(*a, MS));
                    let loc =
                        Located::written(t.map_or(Timeout::Unknown, Timeout::after), span(*other));
                    if j > i && pol.per_try_timeout.is_none() {
                        pol.per_try_timeout = Some(loc);
                    } else if j < i && pol.overall_timeout.is_none() {
                        pol.overall_timeout = Some(loc);
                    }
                }
            }
            if let Some(cb) = callable {
                for body in ctx.callable_bodies(cb) {
                    out.scopes.push(RetryScope { body, policy: idx });
                }
            }
        }
    }
}
