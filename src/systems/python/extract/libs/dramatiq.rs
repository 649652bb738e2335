//! Dramatiq actors (issue 28, polarsource/polar #8901): the `Retries`
//! middleware, on by default, retries a failed message with the actor's
//! options. Read where the actor's decorator writes one of them
//! (`@dramatiq.actor(max_retries=.., min_backoff=.., max_backoff=..,
//! retry_when=.., throws=..)`): a bare `@dramatiq.actor` is every default,
//! left alone like a Celery task without `autoretry_for`. Defaults:
//! [`crate::systems::python`] (`DRAMATIQ_*`).

use super::super::eval;
use super::super::{Args, Ctx, policy, span};
use super::{attempts, default_attempts, exception_names};
use crate::model::*;
use crate::systems::python as sys;
use std::time::Duration;
use tree_sitter::Node;

/// The actor options the `Retries` middleware reads (`actor_options`).
const OPTIONS: &[&str] = &[
    "max_retries",
    "min_backoff",
    "max_backoff",
    "retry_when",
    "throws",
];

/// A millisecond option as a duration (Dramatiq's backoffs are in ms).
fn millis(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Duration> {
    let v = eval::number(ctx, n)?;
    (0.0..1e15)
        .contains(&v)
        .then(|| Duration::from_secs_f64(v / 1000.0))
}

pub(in super::super) fn actor_policy(ctx: &Ctx<'_>, call: Node<'_>) -> Option<RetryPolicy> {
    let args = Args::of(ctx, call);
    if !OPTIONS.iter().any(|o| args.kw(o).is_some()) {
        return None;
    }
    let at = span(call);
    let mut p = policy(
        "dramatiq",
        at,
        default_attempts(
            AttemptCount::Finite(sys::DRAMATIQ_MAX_RETRIES + 1),
            "no max_retries: Dramatiq's default of 20 retries",
            call,
        ),
    );
    if let Some(m) = args.kw("max_retries") {
        p.attempts = super::max_retries(ctx, m);
    }
    // `retry_when` takes precedence over `max_retries`, and it decides
    // which failures go round: `Retries.after_process_message` fails the
    // message when `not retry_when(retries, exception)` (dramatiq
    // `dramatiq/middleware/retries.py` at 848b35f2f960457ff54a72f9edb3af0de754f72f).
    let retry_when = args.kw("retry_when");
    if let Some(w) = retry_when {
        p.attempts = attempts(
            AttemptCount::Unknown,
            format!("retry_when={}", ctx.text(w)),
            w,
        );
    }
    let base = args.kw("min_backoff");
    let cap = args
        .kw("max_backoff")
        .and_then(|m| millis(ctx, m))
        .map_or(sys::DRAMATIQ_MAX_BACKOFF, |c| {
            c.min(sys::DRAMATIQ_MAX_BACKOFF)
        });
    let delay = |base: Duration| Delay::Exponential {
        base,
        multiplier: 2.0,
        cap: Some(cap),
    };
    p.delay = match base {
        Some(b) => Located::written(millis(ctx, b).map_or(Delay::Unknown, delay), span(b)),
        None => Located::default_at(delay(sys::DRAMATIQ_MIN_BACKOFF), at),
    };
    // `compute_backoff(.., jitter=True)`: `int(backoff * uniform(1, 2))`,
    // the delay up to twice its base, brought back to 50-100% of
    // `max_backoff` past it (dramatiq `dramatiq/common.py` at
    // 848b35f2f960457ff54a72f9edb3af0de754f72f, since 2.0.0).
    p.jitter = Located::default_at(Jitter::Additive, at);
    p.retry_on = match retry_when {
        Some(w) => Located::written(
            RetryOn::Listed {
                conditions: vec![Located::written(Condition::Predicate, span(w))],
            },
            span(w),
        ),
        None => Located::default_at(RetryOn::AllErrors, at),
    };
    if let Some(t) = args.kw("throws") {
        p.ignores = exception_names(ctx, t).unwrap_or_default();
    }
    Some(p)
}
