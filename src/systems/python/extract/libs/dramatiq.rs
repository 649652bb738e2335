//! Dramatiq actors (issue 28, polarsource/polar #8901): the `Retries`
//! middleware, on by default, retries a failed message with the actor's
//! options. Read where the actor's decorator writes one of them
//! (`@dramatiq.actor(max_retries=.., min_backoff=.., max_backoff=..,
//! retry_when=.., throws=..)`): a bare `@dramatiq.actor` is every default,
//! left alone like a Celery task without `autoretry_for`. Defaults:
//! [`crate::systems::python`] (`DRAMATIQ_*`).

use super::super::eval::{self, resolve};
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
        let c = match resolve(ctx, m).kind() {
            // `retries >= max_retries` is tested only when it is not None.
            "none" => AttemptCount::Unbounded,
            _ => match eval::number(ctx, m) {
                Some(v) if v >= 0.0 => AttemptCount::Finite(v as u64 + 1),
                _ => AttemptCount::Unknown,
            },
        };
        p.attempts = attempts(c, format!("max_retries={} (retries)", ctx.text(m)), m);
    }
    // `retry_when` takes precedence over `max_retries`.
    if let Some(w) = args.kw("retry_when") {
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
    // `compute_backoff(.., jitter=True)`: half the delay, plus a uniform
    // draw of up to the other half.
    p.jitter = Located::default_at(Jitter::Equal, at);
    p.retry_on = Located::default_at(RetryOn::AllErrors, at);
    if let Some(t) = args.kw("throws") {
        p.ignores = exception_names(ctx, t).unwrap_or_default();
    }
    Some(p)
}
