//! backoff: `@backoff.on_exception(..)` / `@backoff.on_predicate(..)`.

use super::super::eval;
use super::super::{Args, Ctx, policy, span};
use super::{attempts, default_attempts, exception_names, secs};
use crate::model::*;
use crate::systems::python as sys;
use tree_sitter::Node;

pub(super) fn backoff_policy(ctx: &Ctx<'_>, call: Node<'_>, what: &str) -> RetryPolicy {
    let args = Args::of(ctx, call);
    let mut p = policy(
        "backoff",
        span(call),
        default_attempts(
            AttemptCount::Unbounded,
            "no max_tries: backoff's default None, no limit",
            call,
        ),
    );
    if let Some(m) = args.kw("max_tries") {
        let count = match eval::number(ctx, m) {
            Some(v) if v >= 1.0 => AttemptCount::Finite(v as u64),
            _ => AttemptCount::Unknown,
        };
        p.attempts = attempts(count, format!("max_tries={}", ctx.text(m)), m);
    }
    if let Some(m) = args.kw("max_time") {
        let t = match eval::seconds(ctx, m) {
            Some(d) => Timeout::after(d),
            None => Timeout::Unknown,
        };
        p.overall_timeout = Some(Located::written(t, span(m)));
    }
    // The wait generator and its keyword arguments.
    let gen_node = args.get("wait_gen", 0);
    let gen_name = gen_node.map_or("", |g| ctx.text(g));
    let gen_name = gen_name.rsplit('.').next().unwrap_or(gen_name);
    let kw = |k: &str, d: f64| match args.kw(k) {
        Some(a) => eval::number(ctx, a),
        None => Some(d),
    };
    let max_value = args.kw("max_value").and_then(|a| eval::number(ctx, a));
    let delay = match gen_name {
        "expo" => match (
            kw("factor", sys::BACKOFF_EXPO_FACTOR),
            kw("base", sys::BACKOFF_EXPO_BASE),
        ) {
            (Some(f), Some(b)) => Delay::Exponential {
                base: secs(f),
                multiplier: b,
                cap: max_value.map(secs),
            },
            _ => Delay::Unknown,
        },
        "fibo" => Delay::Fibonacci {
            first: secs(sys::BACKOFF_FIBO_START),
            second: secs(sys::BACKOFF_FIBO_START),
            cap: max_value.map(secs),
        },
        "constant" => match kw("interval", sys::BACKOFF_CONSTANT_INTERVAL) {
            Some(i) => Delay::Fixed { delay: secs(i) },
            None => Delay::Unknown,
        },
        _ => Delay::Custom,
    };
    let gen_span = gen_node.map_or(span(call), span);
    p.delay = Located::written(delay, gen_span);
    p.jitter = match args.kw("jitter") {
        None => Located::default_at(Jitter::Full, span(call)),
        Some(j) => {
            let t = ctx.text(j);
            let v = if t == "None" {
                Jitter::None
            } else if t.ends_with("full_jitter") {
                Jitter::Full
            } else if t.ends_with("random_jitter") {
                Jitter::Additive
            } else {
                Jitter::Unknown
            };
            Located::written(v, span(j))
        }
    };
    p.retry_on = if what == "on_predicate" {
        Located::written(
            RetryOn::Listed {
                conditions: vec![Located::written(Condition::Predicate, span(call))],
            },
            span(call),
        )
    } else {
        match args.get("exception", 1) {
            Some(e) => match exception_names(ctx, e) {
                None if args.kw("giveup").is_none() => {
                    Located::written(RetryOn::AllErrors, span(e))
                }
                None => Located::written(
                    RetryOn::Listed {
                        conditions: vec![Located::written(Condition::Predicate, span(e))],
                    },
                    span(e),
                ),
                Some(c) => Located::written(RetryOn::Listed { conditions: c }, span(e)),
            },
            None => Located::written(RetryOn::Unknown, span(call)),
        }
    };
    p
}
