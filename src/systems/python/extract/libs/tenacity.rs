//! tenacity: `@retry(..)`, `Retrying(..)` / `AsyncRetrying(..)` and
//! their `stop=`, `wait=` and `retry=` strategies.

use super::super::eval::{self, resolve};
use super::super::{Args, Ctx, callee, field, policy, span};
use super::{attempts, default_attempts, exception_names, secs};
use crate::model::*;
use crate::systems::python as sys;
use std::time::Duration;
use tree_sitter::Node;

pub(super) fn tenacity_defaults(at: Node<'_>) -> RetryPolicy {
    let mut p = policy(
        "tenacity",
        span(at),
        default_attempts(
            AttemptCount::Unbounded,
            "no stop=: tenacity's default stop_never",
            at,
        ),
    );
    p.delay = Located::default_at(Delay::None, span(at));
    p.jitter = Located::default_at(Jitter::None, span(at));
    p.retry_on = Located::default_at(RetryOn::AllErrors, span(at));
    p
}

pub(super) fn tenacity_policy(ctx: &Ctx<'_>, call: Node<'_>, what: &str) -> RetryPolicy {
    let args = Args::of(ctx, call);
    let mut p = tenacity_defaults(call);
    if what != "retry" {
        p.name = Some(format!("{what}(..)"));
    }
    if let Some(s) = args.kw("stop") {
        let st = stop(ctx, s, 0);
        let count = if st.unknown {
            AttemptCount::Unknown
        } else {
            match st.attempts {
                Some(n) => AttemptCount::Finite(n),
                None => AttemptCount::Unbounded,
            }
        };
        p.attempts = attempts(count, format!("stop={}", ctx.text(s)), s);
        if let Some(d) = st.delay {
            p.overall_timeout = Some(Located::written(Timeout::after(d), span(s)));
        }
    }
    if let Some(w) = args.kw("wait") {
        let (delay, jitter) = wait(ctx, w, 0);
        p.delay = Located::written(delay, span(w));
        p.jitter = Located::written(jitter, span(w));
    }
    if let Some(r) = args.kw("retry") {
        let (on, ignores) = tenacity_retry_on(ctx, r, 0);
        p.retry_on = Located::written(on, span(r));
        p.ignores = ignores;
    }
    // `reraise` (tenacity `__init__.py`, `BaseRetrying(reraise=False)`):
    // what the caller sees after the last attempt, not how often or when
    // it retries. Stated for the reasons of the findings.
    p.why.push(match args.kw("reraise") {
        None => "no reraise=: tenacity raises RetryError after the last attempt (its default reraise=False)".into(),
        Some(r) => match eval::boolean(ctx, r) {
            Some(true) => "reraise=True: the last attempt's exception reaches the caller".into(),
            Some(false) => "reraise=False: tenacity raises RetryError after the last attempt".into(),
            None => format!("reraise={}: not known here", ctx.text(r)),
        },
    });
    p
}

#[derive(Default)]
struct Stop {
    attempts: Option<u64>,
    delay: Option<Duration>,
    unknown: bool,
}

fn stop(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Stop {
    let unknown = Stop {
        unknown: true,
        ..Stop::default()
    };
    if depth > super::super::MAX_DEPTH {
        return unknown;
    }
    let n = resolve(ctx, n);
    let either = |a: Stop, b: Stop| Stop {
        attempts: match (a.attempts, b.attempts) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        },
        delay: match (a.delay, b.delay) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        },
        unknown: a.unknown && b.unknown,
    };
    // `a & b` (tenacity `stop_all`, `stop.py`: `all(x(retry_state) for x
    // in self.stops)`): it stops once both would, so the later of the two.
    // Two counts give the larger, two delays the longer; a count and a
    // delay stop after both, a number of attempts that depends on the
    // waits (finite, not known here). Never stopping on one side is never.
    let both = |a: Stop, b: Stop| {
        let never = |s: &Stop| !s.unknown && s.attempts.is_none() && s.delay.is_none();
        if never(&a) || never(&b) {
            return Stop::default();
        }
        if a.unknown || b.unknown {
            return Stop {
                unknown: true,
                ..Stop::default()
            };
        }
        match (a.attempts, a.delay, b.attempts, b.delay) {
            (Some(x), None, Some(y), None) => Stop {
                attempts: Some(x.max(y)),
                ..Stop::default()
            },
            (None, Some(x), None, Some(y)) => Stop {
                delay: Some(x.max(y)),
                ..Stop::default()
            },
            _ => Stop {
                unknown: true,
                ..Stop::default()
            },
        }
    };
    match n.kind() {
        "identifier" | "attribute" if ctx.text(n).ends_with("stop_never") => Stop::default(),
        "binary_operator" => {
            let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
                return unknown;
            };
            let (a, b) = (stop(ctx, l, depth + 1), stop(ctx, r, depth + 1));
            match field(n, "operator").map_or("", |o| ctx.text(o)) {
                "|" => either(a, b),
                "&" => both(a, b),
                _ => unknown,
            }
        }
        "call" => {
            let (_, last) = callee(ctx, n);
            let args = Args::of(ctx, n);
            match last {
                "stop_after_attempt" => match args.get("max_attempt_number", 0) {
                    Some(a) => match eval::number(ctx, a) {
                        Some(v) if v >= 1.0 => Stop {
                            attempts: Some(v as u64),
                            ..Stop::default()
                        },
                        _ => unknown,
                    },
                    None => unknown,
                },
                "stop_after_delay" | "stop_before_delay" => {
                    match args.get("max_delay", 0).and_then(|a| eval::seconds(ctx, a)) {
                        Some(d) => Stop {
                            delay: Some(d),
                            ..Stop::default()
                        },
                        None => unknown,
                    }
                }
                "stop_any" => args
                    .positional
                    .iter()
                    .map(|a| stop(ctx, *a, depth + 1))
                    .reduce(either)
                    .unwrap_or(unknown),
                "stop_all" => args
                    .positional
                    .iter()
                    .map(|a| stop(ctx, *a, depth + 1))
                    .reduce(both)
                    .unwrap_or(unknown),
                _ => unknown,
            }
        }
        _ => unknown,
    }
}

fn wait(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> (Delay, Jitter) {
    if depth > super::super::MAX_DEPTH {
        return (Delay::Unknown, Jitter::Unknown);
    }
    let n = resolve(ctx, n);
    let num = |args: &Args<'_>, k: &str, i: usize, d: f64| match args.get(k, i) {
        Some(a) => eval::number(ctx, a),
        None => Some(d),
    };
    match n.kind() {
        "binary_operator" if field(n, "operator").is_some_and(|o| ctx.text(o) == "+") => {
            let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
                return (Delay::Unknown, Jitter::Unknown);
            };
            let (a, b) = (wait(ctx, l, depth + 1), wait(ctx, r, depth + 1));
            // A random part added to a steady one jitters it.
            let random = |j: &Jitter| !j.is_none();
            match (a, b) {
                ((d, ja), (Delay::None, jb)) | ((Delay::None, jb), (d, ja)) => {
                    (d, if random(&jb) { Jitter::Additive } else { ja })
                }
                ((d, ja), (_, jb)) if random(&ja) || random(&jb) => (d, Jitter::Additive),
                ((d, ja), _) => (d, ja),
            }
        }
        "call" => {
            let (_, last) = callee(ctx, n);
            let args = Args::of(ctx, n);
            let exponential =
                |mult: Option<f64>, base: Option<f64>, max: Option<f64>, min: Option<f64>| match (
                    mult, base, min,
                ) {
                    (Some(m), Some(b), Some(lo)) => Delay::Exponential {
                        base: secs(m.max(lo)),
                        multiplier: b,
                        cap: max.map(secs),
                    },
                    _ => Delay::Unknown,
                };
            let max = args.kw("max").and_then(|a| eval::number(ctx, a));
            match last {
                "wait_none" => (Delay::None, Jitter::None),
                "wait_fixed" => match args.get("wait", 0).and_then(|a| eval::seconds(ctx, a)) {
                    Some(d) => (Delay::Fixed { delay: d }, Jitter::None),
                    None => (Delay::Unknown, Jitter::None),
                },
                "wait_random" => {
                    let lo = num(&args, "min", 0, 0.0);
                    let hi = num(&args, "max", 1, sys::TENACITY_RANDOM_MAX);
                    match (lo, hi) {
                        (Some(0.0), Some(hi)) => (Delay::Fixed { delay: secs(hi) }, Jitter::Full),
                        (Some(lo), Some(hi)) if hi > 0.0 && hi >= lo => (
                            Delay::Fixed {
                                delay: secs((lo + hi) / 2.0),
                            },
                            Jitter::Proportional {
                                factor: (hi - lo) / (hi + lo),
                            },
                        ),
                        _ => (Delay::Unknown, Jitter::Full),
                    }
                }
                "wait_exponential" | "wait_random_exponential" | "wait_full_jitter" => {
                    let d = exponential(
                        num(&args, "multiplier", 0, sys::TENACITY_EXP_MULTIPLIER),
                        num(&args, "exp_base", 3, sys::TENACITY_EXP_BASE),
                        max,
                        num(&args, "min", 2, 0.0),
                    );
                    let j = if last == "wait_exponential" {
                        Jitter::None
                    } else {
                        Jitter::Full
                    };
                    (d, j)
                }
                "wait_exponential_jitter" => {
                    let d = exponential(
                        num(&args, "initial", 0, sys::TENACITY_EXP_JITTER_INITIAL),
                        num(&args, "exp_base", 2, sys::TENACITY_EXP_BASE),
                        max,
                        Some(0.0),
                    );
                    let none = args
                        .get("jitter", 3)
                        .and_then(|a| eval::number(ctx, a))
                        .is_some_and(|j| j == 0.0);
                    (d, if none { Jitter::None } else { Jitter::Additive })
                }
                "wait_incrementing" => match num(&args, "increment", 1, 100.0) {
                    Some(inc) => (
                        Delay::Linear {
                            base: secs(inc),
                            cap: max.map(secs),
                        },
                        Jitter::None,
                    ),
                    None => (Delay::Unknown, Jitter::None),
                },
                // tenacity `wait_chain(*strategies)` waits with strategy n
                // before attempt n + 1 and with the last one for every
                // retry after (`wait.py`: `strategies[min(attempt,
                // len) - 1]`): the waits of a long outage are the last's.
                "wait_chain" => {
                    let last = ctx
                        .subtree(n)
                        .iter()
                        .skip(1)
                        .rev()
                        .find(|c| c.kind() == "call" && callee(ctx, **c).1.starts_with("wait_"))
                        .copied();
                    match last {
                        Some(l) => wait(ctx, l, depth + 1),
                        None => (Delay::Custom, Jitter::Unknown),
                    }
                }
                "wait_combine" => (Delay::Custom, Jitter::Unknown),
                _ => (Delay::Custom, Jitter::Unknown),
            }
        }
        _ => (Delay::Custom, Jitter::Unknown),
    }
}

fn tenacity_retry_on(
    ctx: &Ctx<'_>,
    n: Node<'_>,
    depth: usize,
) -> (RetryOn, Vec<Located<Condition>>) {
    if depth > super::super::MAX_DEPTH {
        return (RetryOn::Unknown, Vec::new());
    }
    let n = resolve(ctx, n);
    let pred = |at: Node<'_>| RetryOn::Listed {
        conditions: vec![Located::written(Condition::Predicate, span(at))],
    };
    match n.kind() {
        "binary_operator" => {
            let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
                return (RetryOn::Unknown, Vec::new());
            };
            if field(n, "operator").is_some_and(|o| ctx.text(o) == "&") {
                return (pred(n), Vec::new());
            }
            let (a, ia) = tenacity_retry_on(ctx, l, depth + 1);
            let (b, ib) = tenacity_retry_on(ctx, r, depth + 1);
            let on = match (a, b) {
                (RetryOn::AllErrors, _) | (_, RetryOn::AllErrors) => RetryOn::AllErrors,
                (RetryOn::Listed { conditions: mut x }, RetryOn::Listed { conditions: y }) => {
                    x.extend(y);
                    RetryOn::Listed { conditions: x }
                }
                _ => RetryOn::Unknown,
            };
            let mut ignores = ia;
            ignores.extend(ib);
            (on, ignores)
        }
        "call" => {
            let (_, last) = callee(ctx, n);
            let args = Args::of(ctx, n);
            match last {
                "retry_if_exception_type" => match args.get("exception_types", 0) {
                    None => (RetryOn::AllErrors, Vec::new()),
                    Some(a) => match exception_names(ctx, a) {
                        None => (RetryOn::AllErrors, Vec::new()),
                        Some(c) => (RetryOn::Listed { conditions: c }, Vec::new()),
                    },
                },
                "retry_if_not_exception_type" => {
                    let ignores = args
                        .get("exception_types", 0)
                        .and_then(|a| exception_names(ctx, a))
                        .unwrap_or_default();
                    (RetryOn::AllErrors, ignores)
                }
                "retry_any" => {
                    let mut all = false;
                    let mut conditions = Vec::new();
                    for a in &args.positional {
                        match tenacity_retry_on(ctx, *a, depth + 1).0 {
                            RetryOn::AllErrors => all = true,
                            RetryOn::Listed { conditions: c } => conditions.extend(c),
                            _ => conditions.push(Located::written(Condition::Predicate, span(*a))),
                        }
                    }
                    if all {
                        (RetryOn::AllErrors, Vec::new())
                    } else {
                        (RetryOn::Listed { conditions }, Vec::new())
                    }
                }
                "retry_always" => (RetryOn::AllErrors, Vec::new()),
                "retry_never" => (RetryOn::Nothing, Vec::new()),
                _ => (pred(n), Vec::new()),
            }
        }
        "identifier" | "attribute" if ctx.text(n).ends_with("retry_always") => {
            (RetryOn::AllErrors, Vec::new())
        }
        _ => (pred(n), Vec::new()),
    }
}
