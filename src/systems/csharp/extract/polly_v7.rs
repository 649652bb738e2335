//! Polly v7 retry policies: `Policy.Handle<T>().WaitAndRetryAsync(n,
//! attempt => ..)` with the sleep function evaluated, sleep-duration
//! arrays, `RetryForever`, `HandleTransientHttpError()`, and whether the
//! policy is an HttpClient's (`AddPolicyHandler`).

use super::eval::{self, delay_function, expression_body};
use super::resilience::{call_span, enclosing_name};
use super::{Ctx, args, chain, field, method, named_children, span, type_args};
use crate::model::*;
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

/// Polly v7: `Policy.Handle<T>().WaitAndRetryAsync(n, attempt => ..)`,
/// `.RetryAsync(n)`, `.RetryForever()`, on `Policy.Handle`/`HandleResult`
/// or `HttpPolicyExtensions.HandleTransientHttpError()`.
pub(super) fn retry(ctx: &Ctx<'_>, call: Node<'_>, name: &str, facts: &mut Facts) {
    let links = chain(call);
    let Some(first) = links.first() else { return };
    let root = field(*first, "function")
        .and_then(|f| field(f, "expression"))
        .map_or("", |r| ctx.text(r));
    let transient_http = links
        .iter()
        .any(|c| method(ctx, *c).is_some_and(|(m, _)| m == "HandleTransientHttpError"));
    // `RetryPolicy` derives from `Policy` and has its static `Handle`.
    let polly_root =
        matches!(root, "Policy" | "RetryPolicy" | "Polly.Policy") || root.starts_with("Policy<");
    if !(polly_root || transient_http) {
        return;
    }
    let anchor = call_span(call);
    let a = args(ctx, call);
    let forever = name.contains("Forever");
    let sleeps = a
        .iter()
        .find(|(k, v)| k.is_none_or(|k| k == "sleepDurations") && is_array(*v))
        .map(|(_, v)| array_items(*v));
    // Polly.Contrib.WaitAndRetry: `WaitAndRetryAsync(Backoff.X(..))`.
    let generated = a
        .iter()
        .find(|(k, v)| {
            k.is_none_or(|k| k == "sleepDurations") && v.kind_str() != "lambda_expression"
        })
        .and_then(|(_, v)| super::contrib::read(ctx, *v).map(|g| (g, span(*v))));
    let (count, written) = if let (false, Some((g, _))) = (forever, &generated) {
        (
            g.retries
                .map_or(AttemptCount::Unknown, |r| AttemptCount::Finite(r + 1)),
            format!("{name}({})", g.written),
        )
    } else if forever {
        (AttemptCount::Unbounded, format!("{name} (retry for ever)"))
    } else if let Some(items) = &sleeps {
        (
            AttemptCount::Finite(items.len() as u64 + 1),
            format!(
                "{name} with {} sleep durations: {} retries",
                items.len(),
                items.len()
            ),
        )
    } else {
        match a.iter().find(|(k, _)| k.is_none_or(|k| k == "retryCount")) {
            Some((_, n)) if n.kind_str() != "lambda_expression" => {
                let expr = super::one_line(ctx.text(*n));
                match eval::int(ctx, *n) {
                    Some(x) if x >= 0 && expr == x.to_string() => (
                        AttemptCount::Finite(x as u64 + 1),
                        format!("{name}({x}): {x} retries"),
                    ),
                    Some(x) if x >= 0 => (
                        AttemptCount::Finite(x as u64 + 1),
                        format!("{name}({expr}), {expr} = {x}: {x} retries"),
                    ),
                    _ => (AttemptCount::Unknown, format!("{name}({expr})")),
                }
            }
            // `Retry()` with no count retries once.
            _ => (AttemptCount::Finite(2), format!("{name}() (one retry)")),
        }
    };
    let attempts = Located::written(
        Attempts {
            count,
            written_as: written,
        },
        anchor,
    );
    let mut p = RetryPolicy::new(System::PollyDelayFunction, anchor, attempts);
    p.name = Some(enclosing_name(ctx, call).unwrap_or_else(|| "Polly v7 policy".into()));
    // The sleep-duration lambda: the first one taking the attempt number.
    // `Retry`'s lambdas are its `onRetry` callback, never a wait
    // (`Retry(3, (exception, retryCount, context) => log(..))` retries at once).
    let waits = name.starts_with("WaitAndRetry");
    let sleep = a
        .iter()
        .filter(|(k, _)| k.is_none_or(|k| !k.starts_with("onRetry")))
        .map(|(_, n)| *n)
        .find(|n| waits && n.kind_str() == "lambda_expression");
    let (delay, jitter, dspan) = match sleep.filter(|_| generated.is_none()) {
        Some(l) => {
            let read = (|| {
                let params = field(l, "parameters")?;
                let param = match params.kind_str() {
                    "implicit_parameter" | "identifier" => ctx.text(params),
                    _ => named_children(params)
                        .first()
                        .and_then(|x| field(*x, "name"))
                        .map(|x| ctx.text(x))?,
                };
                delay_function(ctx, param, expression_body(field(l, "body")?)?, 1.0)
            })();
            let (d, j) = read.unwrap_or((Delay::Custom, Jitter::Unknown));
            (d, j, span(l))
        }
        None if waits && generated.is_some() => match &generated {
            Some((g, at)) => (g.delay.clone(), g.jitter.clone(), *at),
            None => (Delay::Custom, Jitter::Unknown, anchor),
        },
        None if waits => match &sleeps {
            // `WaitAndRetry(new[] { TimeSpan.FromSeconds(1), .. })`.
            Some(items) => (listed_delays(ctx, items), Jitter::None, anchor),
            None => (Delay::Custom, Jitter::Unknown, anchor),
        },
        None => (Delay::None, Jitter::None, anchor),
    };
    p.delay = Located::written(delay, dspan);
    p.jitter = Located::written(jitter, dspan);
    if let (false, Some((g, _))) = (forever, &generated) {
        p.first_at_once = g.first_at_once;
    }
    let mut conditions = Vec::new();
    for c in &links {
        let Some((m, _)) = method(ctx, *c) else {
            continue;
        };
        let at = call_span(*c);
        match m {
            // `Handle<SqlException>(e => e.Number == 1205)`: a filter; one
            // that answers `true` whatever it is given filters nothing.
            "Handle" | "Or"
                if args(ctx, *c)
                    .first()
                    .is_some_and(|(_, f)| !always_true(ctx, *f)) =>
            {
                conditions.push(Located::written(Condition::Predicate, at))
            }
            "Handle" | "Or" => {
                let ts = type_args(ctx, *c);
                if ts.is_empty() {
                    conditions.push(Located::written(Condition::Predicate, at));
                }
                for t in ts {
                    if t == "Exception" || t == "System.Exception" {
                        p.retry_on = Located::written(RetryOn::AllErrors, at);
                    } else {
                        conditions.push(Located::written(Condition::Exception(t.into()), at));
                    }
                }
            }
            // `OrResult(r => r.StatusCode == HttpStatusCode.NotFound)`:
            // the statuses the lambda tests, as a v8 `ShouldHandle` is read.
            "HandleResult" | "OrResult" => match args(ctx, *c).first() {
                Some((_, l)) if l.kind_str() == "lambda_expression" => {
                    match super::should_handle::read(ctx, *l).value {
                        RetryOn::Listed { conditions: cs } => conditions.extend(cs),
                        RetryOn::Nothing => {}
                        _ => conditions.push(Located::written(Condition::Predicate, at)),
                    }
                }
                _ => conditions.push(Located::written(Condition::Predicate, at)),
            },
            "HandleTransientHttpError" => {
                // Polly.Extensions.Http `HttpPolicyExtensions.
                // HandleTransientHttpError()`: `HttpRequestException`, 5xx
                // and 408.
                for x in [
                    Condition::Exception("HttpRequestException".into()),
                    Condition::Status { from: 500, to: 599 },
                    Condition::status(408),
                ] {
                    conditions.push(Located::written(x, at));
                }
            }
            _ => {}
        }
    }
    if !matches!(p.retry_on.value, RetryOn::AllErrors) {
        p.retry_on = Located::written(RetryOn::Listed { conditions }, call_span(*first));
    }
    p.methods = if transient_http || added_as_http_handler(ctx, call) {
        Located::default_at(Methods::All, anchor)
    } else {
        Located::default_at(Methods::Unknown, anchor)
    };
    p.blind = super::blind::blind(ctx, call, name);
    facts.policies.push(p);
}

fn is_array(n: Node<'_>) -> bool {
    matches!(
        n.kind_str(),
        "array_creation_expression"
            | "implicit_array_creation_expression"
            | "collection_expression"
    )
}

/// The elements of an array written in place.
fn array_items(n: Node<'_>) -> Vec<Node<'_>> {
    let init = match n.kind_str() {
        "collection_expression" => Some(n),
        _ => named_children(n)
            .into_iter()
            .find(|c| c.kind_str() == "initializer_expression"),
    };
    init.map(named_children)
        .unwrap_or_default()
        .into_iter()
        .map(|c| {
            if c.kind_str() == "collection_element" {
                named_children(c).into_iter().next().unwrap_or(c)
            } else {
                c
            }
        })
        .collect()
}

/// A list of sleep durations: one delay if all are equal, else growth by
/// the first step's ratio when every step has it, else as written (the
/// linter reads it as a custom delay).
fn listed_delays(ctx: &Ctx<'_>, items: &[Node<'_>]) -> Delay {
    let ds: Option<Vec<std::time::Duration>> =
        items.iter().map(|i| eval::duration(ctx, *i)).collect();
    let Some(ds) = ds.filter(|d| !d.is_empty()) else {
        return Delay::Unknown;
    };
    if ds.iter().all(|d| *d == ds[0]) {
        return if ds[0].is_zero() {
            Delay::None
        } else {
            Delay::Fixed { delay: ds[0] }
        };
    }
    Delay::Custom
}

/// Whether a v7 policy is given to `AddPolicyHandler` in the same
/// expression (`.AddPolicyHandler(Policy.Handle..)`).
fn added_as_http_handler(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    let mut cur = ctx.parent(call);
    for _ in 0..8 {
        let Some(c) = cur else { return false };
        if c.kind_str() == "invocation_expression"
            && method(ctx, c).is_some_and(|(m, _)| m == "AddPolicyHandler")
        {
            return true;
        }
        cur = ctx.parent(c);
    }
    false
}

/// Whether a filter lambda answers `true` whatever it is given: its body
/// is `true`, or every `return` of its block returns `true` (EdwinVW/pitstop
/// c1991d98: `Handle<Exception>(ex => { log(ex); return true; })`).
fn always_true(ctx: &Ctx<'_>, f: Node<'_>) -> bool {
    if f.kind_str() != "lambda_expression" {
        return false;
    }
    let Some(body) = field(f, "body") else {
        return false;
    };
    if body.kind_str() != "block" {
        return ctx.text(body).trim() == "true";
    }
    let inner = ctx.subtree(body);
    // A nested function's returns are its own: not judged here.
    if inner.iter().skip(1).any(|n| {
        matches!(
            n.kind_str(),
            "lambda_expression" | "local_function_statement" | "anonymous_method_expression"
        )
    }) {
        return false;
    }
    let returns: Vec<_> = inner
        .iter()
        .filter(|n| n.kind_str() == "return_statement")
        .collect();
    !returns.is_empty()
        && returns.iter().all(|r| {
            named_children(**r)
                .first()
                .is_some_and(|v| ctx.text(*v).trim() == "true")
        })
}
