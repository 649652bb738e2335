//! guava-retrying (`com.github.rholder.retry`, 2.0): a
//! `RetryerBuilder.newBuilder()...build()` chain and the `Retryer` it makes
//! (`retryer.call(callable)`, `retryer.wrap(callable)`).
//!
//! Semantics, from the library's `RetryerBuilder` and `WaitStrategies`:
//! without `withStopStrategy` a retryer never stops
//! (`StopStrategies.neverStop()`), without `withWaitStrategy` it retries at
//! once (`noWait()`), and without a `retryIf..` call it retries nothing (its
//! rejection predicate is `alwaysFalse`): such a chain is no retry policy.
//! `stopAfterAttempt(n)` makes n attempts in all; `stopAfterDelay` bounds
//! the time, not the count. `exponentialWait(m, max, unit)` waits
//! `m x 2^n` ms after attempt n (so `2m` first), capped at `max`, with no
//! jitter; `randomWait` and `randomExponentialWait` draw uniformly;
//! `fibonacciWait(m, max, unit)` waits `m x fib(n)` ms after attempt n
//! (`fib(1) = fib(2) = 1`; `m` 1 and `max` `Long.MAX_VALUE` ms when not
//! given), held at `max` (rholder/guava-retrying 2.0.0
//! `WaitStrategies.java`, `FibonacciWaitStrategy.computeSleepTime`);
//! `incrementingWait`, `exceptionWait` and `join` are read as delays that
//! grow in a way the linter does not time.
//! `retryIfException()` retries every `Exception` (read as
//! `Exception.class`), `retryIfRuntimeException()` every `RuntimeException`.
//! Only a chain that ends in `build()` is read: a builder kept in a
//! variable may get its strategies later.

use super::ast::Kind as _;
use super::ast::{self, field, span};
use super::{Ctx, Out, RetryScope, attempts_default, attempts_written};
use crate::extract::Facts;
use crate::model::*;
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::Node;

const MS: Duration = Duration::from_millis(1);

fn is_guava_retrying(ctx: &Ctx<'_>) -> bool {
    ctx.imports_prefix("com.github.rholder.retry")
}

/// `(long, TimeUnit)` at `i` and `i + 1`.
fn long_and_unit(ctx: &Ctx<'_>, args: &[Node<'_>], i: usize) -> Option<Duration> {
    let n = ctx.int(*args.get(i)?)?;
    let unit = ast::time_unit(ctx.text(*args.get(i + 1)?))?;
    (n >= 0).then(|| ast::scale(unit, n as f64)).flatten()
}

/// The strategy factory call an argument is (`StopStrategies.x(..)`,
/// `WaitStrategies.x(..)`, or `x(..)` imported statically), followed
/// through variables.
fn factory<'a>(ctx: &Ctx<'a>, arg: Node<'a>, class: &str) -> Option<ast::Call<'a>> {
    let n = ctx.resolve(arg);
    if n.kind_str() != "method_invocation" {
        return None;
    }
    let c = ast::chain(n, ctx.src);
    let root = c.root_text(ctx.src);
    let ok = (c.root.is_none() || ast::last_segment(root) == class) && c.calls.len() == 1;
    ok.then(|| c.calls.into_iter().next()).flatten()
}

fn wait(ctx: &Ctx<'_>, arg: Node<'_>) -> (Delay, Jitter) {
    let Some(f) = factory(ctx, arg, "WaitStrategies") else {
        return (Delay::Unknown, Jitter::Unknown);
    };
    let a = &f.args;
    let ms = |n: i128| ast::scale(MS, n as f64);
    let exponential = |multiplier_ms: Option<i128>, cap: Option<Duration>| match multiplier_ms
        .filter(|m| *m > 0)
        .and_then(|m| ms(2 * m))
    {
        Some(base) => Delay::Exponential {
            base,
            multiplier: 2.0,
            cap,
        },
        None => Delay::Unknown,
    };
    match (f.name.as_str(), a.len()) {
        ("noWait", _) => (Delay::None, Jitter::None),
        ("fixedWait", 2) => match long_and_unit(ctx, a, 0) {
            Some(delay) => (Delay::Fixed { delay }, Jitter::None),
            None => (Delay::Unknown, Jitter::None),
        },
        ("randomWait", 2 | 4) => {
            let (lo, hi) = if a.len() == 2 {
                (Some(Duration::ZERO), long_and_unit(ctx, a, 0))
            } else {
                (long_and_unit(ctx, a, 0), long_and_unit(ctx, a, 2))
            };
            match (lo, hi) {
                (Some(lo), Some(hi)) => {
                    let (d, j, _) = super::spring::uniform(
                        lo.as_secs_f64() * 1000.0,
                        hi.as_secs_f64() * 1000.0,
                    );
                    (d, j)
                }
                _ => (Delay::Unknown, Jitter::Unknown),
            }
        }
        ("exponentialWait", 0) => (exponential(Some(1), None), Jitter::None),
        ("exponentialWait", 2) => (exponential(Some(1), long_and_unit(ctx, a, 0)), Jitter::None),
        ("exponentialWait", 3) => (
            exponential(ctx.int(a[0]), long_and_unit(ctx, a, 1)),
            Jitter::None,
        ),
        // The bound grows as 2^n x multiplier; the wait is uniform below it.
        ("randomExponentialWait", 0) => (exponential(Some(1), None), Jitter::Full),
        ("randomExponentialWait", 2) => {
            (exponential(Some(1), long_and_unit(ctx, a, 0)), Jitter::Full)
        }
        ("randomExponentialWait", 4) => {
            (exponential(Some(1), long_and_unit(ctx, a, 2)), Jitter::Full)
        }
        ("randomExponentialWait", 5) => (
            exponential(ctx.int(a[0]), long_and_unit(ctx, a, 3)),
            Jitter::Full,
        ),
        ("fibonacciWait", 0 | 2 | 3) => {
            let (m, max) = match a.len() {
                0 => (Some(1), None),
                2 => (Some(1), long_and_unit(ctx, a, 0)),
                _ => (ctx.int(a[0]), long_and_unit(ctx, a, 1)),
            };
            match m.filter(|m| *m > 0).and_then(ms) {
                Some(first) => (
                    Delay::Fibonacci {
                        first,
                        second: first,
                        cap: max,
                    },
                    Jitter::None,
                ),
                None => (Delay::Unknown, Jitter::None),
            }
        }
        ("incrementingWait" | "fibonacciWait" | "exceptionWait" | "join", _) => {
            (Delay::Custom, Jitter::None)
        }
        _ => (Delay::Unknown, Jitter::Unknown),
    }
}

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    if !is_guava_retrying(ctx) {
        return;
    }
    let mut created: HashMap<usize, usize> = HashMap::new();
    for (n, c) in ctx.chains("RetryerBuilder", &["newBuilder"]) {
        let at = span(n);
        let mut attempts = attempts_default(
            AttemptCount::Unbounded,
            "StopStrategies.neverStop() (default)",
            at,
        );
        let mut delay = Located::default_at(Delay::None, at);
        let mut jitter = Located::default_at(Jitter::None, at);
        let mut per_try = None;
        let mut overall = None;
        let mut conditions = Vec::new();
        let mut callable = None;
        let mut built = false;
        for call in &c.calls[1..] {
            let args = &call.args;
            match call.name.as_str() {
                "withStopStrategy" => {
                    let Some(a) = args.first() else { continue };
                    let f = factory(ctx, *a, "StopStrategies");
                    let count = match f.as_ref().map(|f| (f.name.as_str(), &f.args[..])) {
                        Some(("neverStop", _)) => AttemptCount::Unbounded,
                        Some(("stopAfterAttempt", [n])) => match ctx.int(*n) {
                            Some(n) if n >= 1 => AttemptCount::Finite(n as u64),
                            _ => AttemptCount::Unknown,
                        },
                        Some(("stopAfterDelay", d)) => {
                            let after = match d {
                                [ms] => ctx.int(*ms).and_then(|n| ast::scale(MS, n as f64)),
                                _ => long_and_unit(ctx, d, 0),
                            };
                            overall = Some(Located::written(
                                after.map_or(Timeout::Unknown, Timeout::after),
                                call.span,
                            ));
                            AttemptCount::Unbounded
                        }
                        _ => AttemptCount::Unknown,
                    };
                    attempts = attempts_written(count, ctx.text(*a).to_string(), call.span);
                }
                "withWaitStrategy" => {
                    let Some(a) = args.first() else { continue };
                    let (d, j) = wait(ctx, *a);
                    delay = Located::written(d, call.span);
                    jitter = Located::written(j, call.span);
                }
                "withAttemptTimeLimiter" => {
                    let Some(a) = args.first() else { continue };
                    let t = match factory(ctx, *a, "AttemptTimeLimiters") {
                        Some(f) if f.name == "noTimeLimit" => Timeout::Disabled,
                        Some(f) if f.name == "fixedTimeLimit" => {
                            long_and_unit(ctx, &f.args, 0).map_or(Timeout::Unknown, Timeout::after)
                        }
                        _ => Timeout::Unknown,
                    };
                    per_try = Some(Located::written(t, call.span));
                }
                // `Exception.class` and `RuntimeException.class` predicates.
                "retryIfException" if args.is_empty() => conditions.push(Located::written(
                    Condition::Exception("Exception".into()),
                    call.span,
                )),
                "retryIfRuntimeException" => conditions.push(Located::written(
                    Condition::Exception("RuntimeException".into()),
                    call.span,
                )),
                "retryIfExceptionOfType" => conditions.extend(
                    args.iter()
                        .flat_map(|a| ast::class_literals(*a, ctx.src))
                        .map(|(n, s)| Located::written(Condition::Exception(n), s)),
                ),
                "retryIfException" | "retryIfResult"
                    if args
                        .first()
                        .is_some_and(|a| super::predicates::accepts_all(ctx, *a)) =>
                {
                    conditions.push(super::predicates::catch_all(call.span));
                }
                "retryIfException" | "retryIfResult" => {
                    conditions.push(Located::written(Condition::Predicate, call.span));
                }
                "build" => built = true,
                "call" | "wrap" if built => callable = args.first().copied(),
                _ => {}
            }
        }
        // No `retryIf..`: the retryer retries nothing. A builder kept in
        // a variable and built elsewhere may get its strategies there:
        // what this chain says is not the whole policy.
        if conditions.is_empty() || !built {
            continue;
        }
        let mut p = RetryPolicy::new(System::GuavaRetrying, at, attempts);
        p.name = ctx.policy_name(n);
        p.delay = delay;
        p.jitter = jitter;
        p.per_try_timeout = per_try;
        p.overall_timeout = overall;
        p.methods = Located::default_at(Methods::All, at);
        let s = conditions[0].span;
        p.retry_on = Located::written(RetryOn::Listed { conditions }, s);
        let idx = facts.policies.len();
        facts.policies.push(p);
        created.insert(n.id(), idx);
        if let Some(cb) = callable {
            for body in ctx.callable_bodies(cb) {
                out.scopes.push(RetryScope { body, policy: idx });
            }
        }
    }
    if created.is_empty() {
        return;
    }
    // `retryer.call(callable)` on a retryer built above.
    for &n in &ctx.nodes {
        if n.kind_str() != "method_invocation" {
            continue;
        }
        let is_call = field(n, "name").is_some_and(|m| matches!(ctx.text(m), "call" | "wrap"));
        let Some(obj) = field(n, "object").filter(|o| o.kind_str() == "identifier") else {
            continue;
        };
        if !is_call {
            continue;
        }
        let Some(&idx) = created.get(&ctx.resolve(obj).id()) else {
            continue;
        };
        let args = field(n, "arguments")
            .map(ast::named_children)
            .unwrap_or_default();
        if let Some(cb) = args.first() {
            for body in ctx.callable_bodies(*cb) {
                out.scopes.push(RetryScope { body, policy: idx });
            }
        }
    }
}
