//! Spring Retry `@Retryable` / `@Backoff`, Spring Framework 7
//! `@Retryable` (`org.springframework.resilience.annotation`), and Spring
//! Retry `RetryTemplate.builder()` chains. Spring Framework 7's
//! programmatic `RetryPolicy` / `RetryTemplate` are read by
//! [`super::core_retry`].
//!
//! Which `@Retryable` it is comes from the imports (or a fully qualified
//! name); without either, from attributes only one of them has.
//!
//! Spring Retry semantics (spring-retry 2.x `Retryable`, `Backoff`,
//! `AnnotationAwareRetryOperationsInterceptor`, `BackOffPolicyBuilder`):
//! `maxAttempts` 3 total; the delay is `delay` or else `value` (1000 ms);
//! `multiplier > 0` gives `ExponentialBackOffPolicy` (multiplier below 1
//! is raised to 1, `maxDelay` below the delay means 30 s) and with `random`
//! `ExponentialRandomBackOffPolicy`, which draws from [d, d x multiplier]
//! and caps after the draw; otherwise `maxDelay > delay` gives a uniform
//! random delay between the two, and anything else a fixed delay; every
//! exception is retried when `retryFor`/`include`/`value` and
//! `noRetryFor`/`exclude` are empty. `*Expression` attributes are read as
//! unknown values, never guessed.
//!
//! Spring Framework 7 semantics (`org.springframework.resilience.annotation.
//! Retryable`): `maxRetries` 3 retries = 4 attempts; `delay` 1000 ms,
//! `jitter` 0 (a +/- amount, scaled with the multiplier, clamped to
//! [delay, maxDelay]), `multiplier` 1.0, `maxDelay` unlimited, `timeUnit`
//! milliseconds, `timeout` 0 = none (7.0.2+) covering all attempts.
//!
//! `RetryTemplate.builder()` (spring-retry `RetryTemplateBuilder`): 3
//! attempts and no back-off unless set; every exception retried unless
//! `retryOn` lists some. `new RetryTemplate()` with `setRetryPolicy` /
//! `setBackOffPolicy` (the same defaults: `SimpleRetryPolicy` 3 attempts,
//! `NoBackOffPolicy`) is read from the setter calls on its variable.

use super::ast::Kind as _;
use super::ast::{self, field, named_children, span};
use super::r4j::{annotation_args, method_annotations};
use super::{Ctx, Out, RetryScope, attempts_default, attempts_written};
use crate::duration::parse_spring;
use crate::extract::Facts;
use crate::model::*;
use crate::source::Span;
use crate::systems::spring::retry;
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::Node;

mod templates;

use templates::*;
pub(super) use templates::{callbacks, constructed};

const MS: Duration = Duration::from_millis(1);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Flavour {
    SpringRetry,
    Framework,
}

fn flavour(ctx: &Ctx<'_>, ann: Node<'_>, keys: &[&str]) -> Option<Flavour> {
    let name = field(ann, "name").map_or("", |n| ctx.text(n));
    if name.starts_with("org.springframework.resilience") {
        return Some(Flavour::Framework);
    }
    if name.starts_with("org.springframework.retry") {
        return Some(Flavour::SpringRetry);
    }
    let f7 = ctx.imports("org.springframework.resilience.annotation.Retryable");
    let sr = ctx.imports("org.springframework.retry.annotation.Retryable");
    match (sr, f7) {
        (true, false) => return Some(Flavour::SpringRetry),
        (false, true) => return Some(Flavour::Framework),
        _ => {}
    }
    const F7_ONLY: &[&str] = &[
        "maxRetries",
        "maxRetriesString",
        "includes",
        "excludes",
        "jitter",
        "jitterString",
        "delayString",
        "timeUnit",
        "timeout",
        "predicate",
    ];
    const SR_ONLY: &[&str] = &[
        "maxAttempts",
        "maxAttemptsExpression",
        "backoff",
        "retryFor",
        "noRetryFor",
        "include",
        "exclude",
        "exceptionExpression",
        "recover",
    ];
    if keys.iter().any(|k| F7_ONLY.contains(k)) {
        Some(Flavour::Framework)
    } else if keys.iter().any(|k| SR_ONLY.contains(k)) {
        Some(Flavour::SpringRetry)
    } else {
        None
    }
}

fn is_expression(s: &str) -> bool {
    s.contains("${") || s.contains("#{")
}

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    if ctx.src.contains("Retryable") {
        annotations(ctx, facts, out);
    }
    if super::core_retry::wanted(ctx) {
        super::core_retry::extract(ctx, facts, out);
    }
    // `RetryTemplate` is Spring Retry's unless the file uses Spring
    // Framework 7's.
    if ctx.src.contains("RetryTemplate") && !super::core_retry::core_template(ctx) {
        templates(ctx, facts, out);
    }
}

fn annotations<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    for &m in &ctx.nodes {
        let is_method = m.kind_str() == "method_declaration";
        let is_annotation_type = m.kind_str() == "annotation_type_declaration";
        if !is_method
            && !is_annotation_type
            && !matches!(m.kind_str(), "class_declaration" | "interface_declaration")
        {
            continue;
        }
        let anns = method_annotations(ctx, m);
        let Some((_, ann)) = anns.iter().find(|(n, _)| *n == "Retryable") else {
            continue;
        };
        let args = annotation_args(ctx, *ann);
        let keys: Vec<&str> = args.iter().map(|(k, ..)| *k).collect();
        let Some(fl) = flavour(ctx, *ann, &keys) else {
            continue;
        };
        let simple = field(m, "name").map(|n| ctx.text(n).to_string());
        // A custom annotation meta-annotated with `@Retryable`: its uses,
        // in any file, are the retries (`link::java_retry_annotations`).
        let name = match &simple {
            Some(n) if is_annotation_type => Some(format!("@{n}")),
            _ => simple.clone(),
        };
        let p = match fl {
            Flavour::SpringRetry => spring_retry(ctx, *ann, &args, name),
            Flavour::Framework => framework(ctx, *ann, &args, name),
        };
        let idx = facts.policies.len();
        facts.policies.push(p);
        if is_annotation_type {
            if let Some(n) = simple {
                facts.java.retry_annotations.push(super::RetryAnnotation {
                    qualified: Some(ctx.qualified(&n)),
                    name: n,
                    policy: idx,
                });
            }
            continue;
        }
        let body = field(m, "body");
        if let Some(body) = body {
            out.scopes.push(RetryScope { body, policy: idx });
        }
    }
}

type Args<'a> = [(&'a str, Node<'a>, Span)];

fn get<'a>(args: &Args<'a>, keys: &[&str]) -> Option<(Node<'a>, Span)> {
    args.iter()
        .rev()
        .find(|(k, ..)| keys.contains(k))
        .map(|(_, v, s)| (*v, *s))
}

fn classes(ctx: &Ctx<'_>, args: &Args<'_>, keys: &[&str]) -> Vec<Located<Condition>> {
    args.iter()
        .filter(|(k, ..)| keys.contains(k))
        .flat_map(|(_, v, _)| ast::class_literals(*v, ctx.src))
        .map(|(n, s)| Located::written(Condition::Exception(n), s))
        .collect()
}

pub(super) fn retry_on(
    conditions: Vec<Located<Condition>>,
    predicate: Option<Span>,
    at: Span,
) -> Located<RetryOn> {
    let mut conditions = conditions;
    if let Some(s) = predicate {
        conditions.push(Located::written(Condition::Predicate, s));
    }
    if conditions.is_empty() {
        Located::default_at(RetryOn::AllErrors, at)
    } else {
        let s = conditions.first().map_or(at, |c| c.span);
        Located::written(RetryOn::Listed { conditions }, s)
    }
}

/// A string attribute: `Some(Err(()))` when it is an expression.
fn string_attr(ctx: &Ctx<'_>, args: &Args<'_>, key: &str) -> Option<(Result<String, ()>, Span)> {
    let (v, s) = get(args, &[key])?;
    let t = ctx.string(v);
    match t {
        Some(t) if t.is_empty() => None,
        Some(t) if is_expression(&t) => Some((Err(()), s)),
        Some(t) => Some((Ok(t), s)),
        None => Some((Err(()), s)),
    }
}

fn spring_retry(
    ctx: &Ctx<'_>,
    ann: Node<'_>,
    args: &Args<'_>,
    name: Option<String>,
) -> RetryPolicy {
    let at = span(ann);
    let interceptor = get(args, &["interceptor"]).is_some();
    let attempts =
        if let Some((Err(()) | Ok(_), s)) = string_attr(ctx, args, "maxAttemptsExpression") {
            let (v, _) = get(args, &["maxAttemptsExpression"]).unwrap_or((ann, s));
            let parsed = ctx.string(v).and_then(|t| t.trim().parse::<u64>().ok());
            attempts_written(
                parsed.map_or(AttemptCount::Unknown, AttemptCount::Finite),
                format!("maxAttemptsExpression = {}", ctx.text(v)),
                s,
            )
        } else if let Some((v, s)) = get(args, &["maxAttempts"]) {
            let count = ctx.int(v).map_or(AttemptCount::Unknown, |n| {
                AttemptCount::Finite(n.max(1) as u64)
            });
            attempts_written(count, format!("maxAttempts = {}", ctx.text(v)), s)
        } else if interceptor {
            attempts_default(AttemptCount::Unknown, "set by the interceptor bean", at)
        } else {
            attempts_default(
                AttemptCount::Finite(retry::MAX_ATTEMPTS),
                &format!("maxAttempts = {} (default)", retry::MAX_ATTEMPTS),
                at,
            )
        };
    let mut p = RetryPolicy::new(System::SpringRetry, at, attempts);
    p.name = name;
    // One Java method is retried; which HTTP method it sends, if any, is
    // not visible here.
    p.methods = Located::default_at(Methods::Unknown, at);
    let (delay, jitter, order) = match get(args, &["backoff"]) {
        _ if interceptor => (
            Located::default_at(Delay::Unknown, at),
            Located::default_at(Jitter::Unknown, at),
            CapOrder::BeforeJitter,
        ),
        Some((b, bs)) if matches!(b.kind_str(), "annotation" | "marker_annotation") => {
            let bargs = annotation_args(ctx, b);
            let (d, j, o) = backoff(ctx, &bargs);
            let written = !bargs.is_empty();
            if written {
                (Located::written(d, bs), Located::written(j, bs), o)
            } else {
                (Located::default_at(d, at), Located::default_at(j, at), o)
            }
        }
        _ => {
            let (d, j, o) = backoff(ctx, &[]);
            (Located::default_at(d, at), Located::default_at(j, at), o)
        }
    };
    p.delay = delay;
    p.jitter = jitter;
    p.cap_order = order;
    let conditions = classes(ctx, args, &["value", "retryFor", "include"]);
    let predicate = get(args, &["exceptionExpression"]).map(|(_, s)| s);
    p.retry_on = retry_on(conditions, predicate, at);
    p.ignores = classes(ctx, args, &["noRetryFor", "exclude"]);
    p
}

/// The delay of `@Backoff(..)` attributes (empty for the default).
fn backoff(ctx: &Ctx<'_>, args: &Args<'_>) -> (Delay, Jitter, CapOrder) {
    let num = |key: &str| get(args, &[key]).map(|(v, _)| ctx.float(v));
    let expr = |key: &str| {
        get(args, &[key]).is_some_and(|(v, _)| ctx.string(v).is_none_or(|s| !s.is_empty()))
    };
    let unknown_delay = expr("delayExpression") || expr("maxDelayExpression");
    let unknown_mult = expr("multiplierExpression");
    let unknown_random = expr("randomExpression");
    let delay = match (num("delay"), num("value")) {
        (Some(Some(d)), _) if d != 0.0 => Some(d),
        (Some(None), _) => None,
        (_, Some(v)) => v,
        _ => Some(retry::BACKOFF_MS),
    };
    let max = match num("maxDelay") {
        Some(v) => v,
        None => Some(0.0),
    };
    let mult = match num("multiplier") {
        Some(v) => v,
        None => Some(0.0),
    };
    let random = get(args, &["random"]).map(|(v, _)| ctx.text(v).trim() == "true");
    if unknown_mult {
        return (Delay::Unknown, Jitter::Unknown, CapOrder::BeforeJitter);
    }
    let ms = |v: f64| ast::scale(MS, v.max(0.0));
    let Some(m) = mult else {
        return (Delay::Unknown, Jitter::Unknown, CapOrder::BeforeJitter);
    };
    if m > 0.0 {
        let m = m.max(1.0);
        let random = random.unwrap_or(false) && !unknown_random;
        let jitter = if unknown_random {
            Jitter::Unknown
        } else if random && m > 1.0 {
            Jitter::Additive
        } else {
            Jitter::None
        };
        let order = if matches!(jitter, Jitter::Additive) {
            CapOrder::AfterJitter
        } else {
            CapOrder::BeforeJitter
        };
        if unknown_delay {
            return (Delay::Unknown, jitter, order);
        }
        let (Some(d), Some(mx)) = (delay, max) else {
            return (Delay::Unknown, jitter, order);
        };
        let cap = if mx > d {
            mx
        } else {
            retry::EXPONENTIAL_MAX_MS
        };
        return match (ms(d), ms(cap)) {
            (Some(base), Some(cap)) => (
                Delay::Exponential {
                    base,
                    multiplier: m,
                    cap: Some(cap),
                },
                jitter,
                order,
            ),
            _ => (Delay::Unknown, jitter, order),
        };
    }
    if unknown_delay {
        // The kind of back-off depends on values the file does not hold.
        let jitter = if expr("maxDelayExpression") || get(args, &["maxDelay"]).is_some() {
            Jitter::Unknown
        } else {
            Jitter::None
        };
        return (Delay::Unknown, jitter, CapOrder::BeforeJitter);
    }
    let (Some(d), Some(mx)) = (delay, max) else {
        return (Delay::Unknown, Jitter::Unknown, CapOrder::BeforeJitter);
    };
    if mx > d {
        return uniform(d, mx);
    }
    match ms(d) {
        Some(delay) => (Delay::Fixed { delay }, Jitter::None, CapOrder::BeforeJitter),
        None => (Delay::Unknown, Jitter::None, CapOrder::BeforeJitter),
    }
}

/// A uniform random delay in [min, max] ms: its midpoint, jittered by the
/// half-width.
pub fn uniform(min: f64, max: f64) -> (Delay, Jitter, CapOrder) {
    let mid = (min + max) / 2.0;
    let factor = if mid > 0.0 {
        (max - min) / (max + min)
    } else {
        0.0
    };
    match ast::scale(MS, mid) {
        Some(delay) => (
            Delay::Fixed { delay },
            Jitter::Proportional { factor },
            CapOrder::BeforeJitter,
        ),
        None => (Delay::Unknown, Jitter::Unknown, CapOrder::BeforeJitter),
    }
}

fn framework(ctx: &Ctx<'_>, ann: Node<'_>, args: &Args<'_>, name: Option<String>) -> RetryPolicy {
    let at = span(ann);
    let unit = get(args, &["timeUnit"])
        .and_then(|(v, _)| ast::time_unit(ctx.text(v)))
        .unwrap_or(MS);
    // A duration attribute: the `*String` form wins when non-empty.
    let dur = |key: &str, string_key: &str| -> Option<(Option<Duration>, Span)> {
        if let Some((s, sp)) = string_attr(ctx, args, string_key) {
            return Some((s.ok().and_then(|s| parse_spring(&s, unit).ok()), sp));
        }
        get(args, &[key]).map(|(v, s)| {
            (
                ctx.int(v)
                    .and_then(|n| (n >= 0).then(|| ast::scale(unit, n as f64)).flatten()),
                s,
            )
        })
    };
    let attempts = if let Some((s, sp)) = string_attr(ctx, args, "maxRetriesString") {
        let n = s.ok().and_then(|t| t.trim().parse::<u64>().ok());
        attempts_written(
            n.map_or(AttemptCount::Unknown, |n| AttemptCount::Finite(n + 1)),
            format!(
                "maxRetriesString = \"{}\"",
                n.map_or("..".to_string(), |n| n.to_string())
            ),
            sp,
        )
    } else if let Some((v, s)) = get(args, &["maxRetries"]) {
        let count = ctx.int(v).map_or(AttemptCount::Unknown, |n| {
            AttemptCount::Finite(n.max(0) as u64 + 1)
        });
        attempts_written(count, format!("maxRetries = {} (retries)", ctx.text(v)), s)
    } else {
        attempts_default(
            AttemptCount::Finite(4),
            "maxRetries = 3 (default, retries)",
            at,
        )
    };
    let mut p = RetryPolicy::new(System::SpringFramework, at, attempts);
    p.name = name;
    p.methods = Located::default_at(Methods::Unknown, at);
    let delay = dur("delay", "delayString");
    let jitter = dur("jitter", "jitterString");
    let max = dur("maxDelay", "maxDelayString");
    let mult = if let Some((s, _)) = string_attr(ctx, args, "multiplierString") {
        s.ok().and_then(|t| t.trim().parse::<f64>().ok())
    } else {
        get(args, &["multiplier"]).map_or(Some(1.0), |(v, _)| ctx.float(v))
    };
    let d = delay
        .as_ref()
        .map_or(Some(Duration::from_secs(1)), |(d, _)| *d);
    let j = jitter.as_ref().map_or(Some(Duration::ZERO), |(d, _)| *d);
    let cap = max.as_ref().and_then(|(d, _)| *d);
    let span_of = |x: &Option<(Option<Duration>, Span)>| x.as_ref().map(|(_, s)| *s);
    let delay_span = span_of(&delay)
        .into_iter()
        .chain(span_of(&max))
        .chain(get(args, &["multiplier", "multiplierString"]).map(|(_, s)| s))
        .reduce(Span::cover);
    let (value, jv, order) = framework_backoff(d, j, mult, cap);
    p.delay = match delay_span {
        Some(s) => Located::written(value, s),
        None => Located::default_at(value, at),
    };
    p.cap_order = order;
    p.jitter = match span_of(&jitter) {
        Some(s) => Located::written(jv, s),
        None => Located::default_at(jv, at),
    };
    p.overall_timeout = Some(match dur("timeout", "timeoutString") {
        Some((Some(t), s)) if !t.is_zero() => Located::written(Timeout::after(t), s),
        Some((Some(_), s)) => Located::written(Timeout::Disabled, s),
        Some((None, s)) => Located::written(Timeout::Unknown, s),
        None => Located::default_at(Timeout::Disabled, at),
    });
    let conditions = classes(ctx, args, &["value", "includes"]);
    let predicate = get(args, &["predicate"]).map(|(_, s)| s);
    p.retry_on = retry_on(conditions, predicate, at);
    p.ignores = classes(ctx, args, &["excludes"]);
    p
}

/// Spring Framework 7's back-off from its options (the `@Retryable`
/// attributes and `RetryPolicy.builder()` share them, `RetryPolicy.Builder
/// .build`): `delay` (1000 ms) multiplied by `multiplier` (1.0: fixed) up
/// to `maxDelay` (unlimited), with a +/- `jitter` (0) scaled like the delay
/// and clamped to [delay, maxDelay]. `None` in = not known.
pub(super) fn framework_backoff(
    d: Option<Duration>,
    j: Option<Duration>,
    mult: Option<f64>,
    cap: Option<Duration>,
) -> (Delay, Jitter, CapOrder) {
    let value = match (d, mult) {
        (Some(d), _) if d.is_zero() && j == Some(Duration::ZERO) => Delay::None,
        (Some(base), Some(m)) if m > 1.0 => Delay::Exponential {
            base,
            multiplier: m,
            cap,
        },
        (Some(delay), Some(_)) => Delay::Fixed { delay },
        _ => Delay::Unknown,
    };
    let jv = match (j, d) {
        (Some(j), _) if j.is_zero() => Jitter::None,
        (Some(j), Some(d)) if !d.is_zero() => Jitter::Proportional {
            factor: j.as_secs_f64() / d.as_secs_f64(),
        },
        (Some(_), Some(_)) => Jitter::Full,
        _ => Jitter::Unknown,
    };
    let order = if !matches!(jv, Jitter::None) && cap.is_some() {
        CapOrder::AfterJitter
    } else {
        CapOrder::BeforeJitter
    };
    (value, jv, order)
}
