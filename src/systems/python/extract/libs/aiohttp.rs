//! aiohttp_retry: the retry options objects (`ExponentialRetry`,
//! `JitterRetry`, `RandomRetry`, `ListRetry`, `FibonacciRetry`, the
//! deprecated `RetryOptions`) and a `RetryClient` built without options
//! (its default `ExponentialRetry()`). Defaults and semantics:
//! [`crate::systems::python`] (`AIOHTTP_RETRY_*`). The calls made through
//! a `RetryClient` are tied to its options by `sessions`.

use super::super::eval::{self, resolve};
use super::super::{Args, Ctx, named_children, policy, span};
use super::{attempts, default_attempts, exception_names, secs};
use crate::model::*;
use crate::systems::python as sys;
use tree_sitter::Node;

/// The options classes and the first wait they give.
pub(super) const OPTIONS: &[&str] = &[
    "ExponentialRetry",
    "JitterRetry",
    "RandomRetry",
    "ListRetry",
    "FibonacciRetry",
    "RetryOptions",
];

/// The policy of `RetryClient(..)` at `call` when it is given no
/// `retry_options` (the third positional argument): `ExponentialRetry()`.
pub(super) fn client_default(ctx: &Ctx<'_>, call: Node<'_>) -> Option<RetryPolicy> {
    let args = Args::of(ctx, call);
    if args.get("retry_options", 2).is_some() {
        return None;
    }
    let mut p = options_policy(ctx, call, "ExponentialRetry", true);
    p.name = Some("RetryClient() (default ExponentialRetry())".into());
    Some(p)
}

/// The policy an options object `what(..)` at `call` builds. With
/// `implicit`, `call` is a `RetryClient(..)` and every value is the
/// default.
pub(super) fn options_policy(
    ctx: &Ctx<'_>,
    call: Node<'_>,
    what: &str,
    implicit: bool,
) -> RetryPolicy {
    let args = if implicit {
        Args {
            positional: Vec::new(),
            keywords: Vec::new(),
        }
    } else {
        Args::of(ctx, call)
    };
    let at = span(call);
    let num = |k: &str, i: Option<usize>, d: f64| -> Option<f64> {
        match i.map_or_else(|| args.kw(k), |i| args.get(k, i)) {
            Some(a) => eval::number(ctx, a),
            None => Some(d),
        }
    };
    // `ListRetry(timeouts)`: as many attempts as waits listed.
    let list = (what == "ListRetry")
        .then(|| args.get("timeouts", 0).map(|t| resolve(ctx, t)))
        .flatten();
    let count = match (what, list) {
        ("ListRetry", Some(l)) if matches!(l.kind(), "list" | "tuple") => {
            let n = named_children(l).len() as u64;
            Some(attempts(
                AttemptCount::Finite(n),
                format!(
                    "timeouts={} ({n} attempts)",
                    super::super::one_line(ctx.text(l))
                ),
                l,
            ))
        }
        ("ListRetry", _) => Some(attempts(AttemptCount::Unknown, "timeouts=..".into(), call)),
        _ => args.get("attempts", 0).map(|a| {
            let c = match eval::number(ctx, a) {
                Some(v) if v >= 1.0 => AttemptCount::Finite(v as u64),
                _ => AttemptCount::Unknown,
            };
            attempts(c, format!("attempts={} (attempts)", ctx.text(a)), a)
        }),
    };
    let count = count.unwrap_or_else(|| {
        default_attempts(
            AttemptCount::Finite(sys::AIOHTTP_RETRY_ATTEMPTS),
            "no attempts=: aiohttp_retry's default of 3 attempts",
            call,
        )
    });
    let mut p = policy("aiohttp_retry", at, count);
    p.name = Some(format!("{what}(..)"));
    let written = |d: Delay, j: Jitter| {
        if implicit || args.keywords.is_empty() && args.positional.is_empty() {
            (Located::default_at(d, at), Located::default_at(j, at))
        } else {
            (Located::written(d, at), Located::written(j, at))
        }
    };
    (p.delay, p.jitter) = match what {
        "ExponentialRetry" | "RetryOptions" | "JitterRetry" => {
            let start = num("start_timeout", Some(1), sys::AIOHTTP_RETRY_START);
            let max = num("max_timeout", Some(2), sys::AIOHTTP_RETRY_MAX);
            let factor = num("factor", Some(3), sys::AIOHTTP_RETRY_FACTOR);
            let delay = match (start, factor) {
                // The first retry waits `start x factor`.
                (Some(s), Some(f)) => Delay::Exponential {
                    base: secs(s * f),
                    multiplier: f,
                    cap: max.map(secs),
                },
                _ => Delay::Unknown,
            };
            let jitter = if what == "JitterRetry" {
                match num(
                    "random_interval_size",
                    None,
                    sys::AIOHTTP_RETRY_JITTER_INTERVAL,
                ) {
                    Some(v) if v <= 0.0 => Jitter::None,
                    Some(_) => Jitter::Additive,
                    None => Jitter::Unknown,
                }
            } else {
                Jitter::None
            };
            written(delay, jitter)
        }
        "RandomRetry" => {
            let lo = num("min_timeout", None, sys::AIOHTTP_RETRY_RANDOM_MIN);
            let hi = num("max_timeout", None, sys::AIOHTTP_RETRY_RANDOM_MAX);
            match (lo, hi) {
                (Some(lo), Some(hi)) if hi > 0.0 && hi >= lo && lo >= 0.0 => written(
                    Delay::Fixed {
                        delay: secs((lo + hi) / 2.0),
                    },
                    Jitter::Proportional {
                        factor: (hi - lo) / (hi + lo),
                    },
                ),
                _ => written(Delay::Unknown, Jitter::Full),
            }
        }
        "FibonacciRetry" => {
            let m = num("multiplier", Some(1), 1.0);
            let max = num("max_timeout", None, sys::AIOHTTP_RETRY_FIBO_MAX);
            match m {
                // inyutin/aiohttp_retry 4d336bd `retry_options.py`: the
                // steps start at 1.0, 1.0 and each call returns
                // `multiplier x (prev + current)`: 2m, 3m, 5m, ...
                Some(m) => written(
                    Delay::Fibonacci {
                        first: secs(2.0 * m),
                        second: secs(3.0 * m),
                        cap: max.map(secs),
                    },
                    Jitter::None,
                ),
                None => written(Delay::Unknown, Jitter::None),
            }
        }
        // `ListRetry`: the listed waits (the first is never used: retry k
        // waits `timeouts[k]`).
        _ => {
            let waits: Option<Vec<f64>> = list
                .filter(|l| matches!(l.kind(), "list" | "tuple"))
                .and_then(|l| {
                    named_children(l)
                        .iter()
                        .skip(1)
                        .map(|x| eval::number(ctx, *x))
                        .collect::<Option<Vec<f64>>>()
                });
            match waits.as_deref() {
                Some([]) => written(Delay::None, Jitter::None),
                Some([first, rest @ ..]) if rest.iter().all(|w| w == first) => written(
                    if *first <= 0.0 {
                        Delay::None
                    } else {
                        Delay::Fixed {
                            delay: secs(*first),
                        }
                    },
                    Jitter::None,
                ),
                _ => written(Delay::Custom, Jitter::None),
            }
        }
    };
    // What is retried: 5xx unless `retry_all_server_errors=False`, the
    // listed statuses and exceptions, a response callback.
    let mut conditions = Vec::new();
    let all_5xx = args.kw("retry_all_server_errors");
    if all_5xx.and_then(|v| eval::boolean(ctx, v)) != Some(false) {
        let c = Condition::Status { from: 500, to: 599 };
        conditions.push(match all_5xx {
            Some(v) => Located::written(c, span(v)),
            None => Located::default_at(c, at),
        });
    }
    if let Some(list) = args.kw("statuses") {
        let list = resolve(ctx, list);
        if matches!(list.kind(), "list" | "tuple" | "set") {
            for s in named_children(list) {
                if let Some(v) = eval::number(ctx, s).filter(|v| (100.0..600.0).contains(v)) {
                    conditions.push(Located::written(Condition::status(v as u16), span(s)));
                }
            }
        } else {
            conditions.push(Located::written(Condition::Predicate, span(list)));
        }
    }
    let mut every = false;
    if let Some(e) = args.kw("exceptions") {
        match exception_names(ctx, e) {
            None => every = true,
            Some(c) => conditions.extend(c),
        }
    }
    if let Some(cb) = args.kw("evaluate_response_callback") {
        conditions.push(Located::written(Condition::Predicate, span(cb)));
    }
    p.retry_on = if every {
        Located::written(RetryOn::AllErrors, at)
    } else {
        Located::written(RetryOn::Listed { conditions }, at)
    };
    p.methods = match args.kw("methods") {
        // Given to something other than a `RetryClient` of this file (a
        // subclass such as dvc-http's `ReadOnlyRetryClient`, which sends
        // POST and PUT with `attempts=1` options): what it retries is not
        // known here.
        None if !implicit && !given_to_client(ctx, call) => {
            Located::default_at(Methods::Unknown, at)
        }
        None => Located::default_at(
            Methods::Set(
                sys::AIOHTTP_RETRY_METHODS
                    .iter()
                    .map(|m| m.to_string())
                    .collect(),
            ),
            at,
        ),
        Some(m) => {
            let r = resolve(ctx, m);
            let v = if matches!(r.kind(), "list" | "tuple" | "set") {
                named_children(r)
                    .iter()
                    .map(|i| eval::string(ctx, *i).map(|s| s.to_ascii_uppercase()))
                    .collect::<Option<Vec<String>>>()
                    .map_or(Methods::Unknown, Methods::Set)
            } else {
                Methods::Unknown
            };
            Located::written(v, span(m))
        }
    };
    p
}

/// Whether the options built at `call` are given to a `RetryClient(..)`
/// of this file (inline, or through the name they are bound to), or to a
/// request's own `retry_options=` (`client.get(url, retry_options=..)`).
fn given_to_client(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    let name = call
        .parent()
        .filter(|p| p.kind() == "assignment")
        .and_then(|p| super::super::field(p, "left"))
        .map(|l| ctx.text(l));
    let is_it = |a: Node<'_>| a.id() == call.id() || name.is_some_and(|n| ctx.text(a) == n);
    ctx.nodes.iter().any(|c| {
        if c.kind() != "call" {
            return false;
        }
        let args = Args::of(ctx, *c);
        match super::super::callee(ctx, *c).1 {
            "RetryClient" => args.get("retry_options", 2).is_some_and(is_it),
            "get" | "post" | "put" | "patch" | "delete" | "head" | "options" | "request" => {
                args.kw("retry_options").is_some_and(is_it)
            }
            _ => false,
        }
    })
}
