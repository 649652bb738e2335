//! Dramatiq actors (issue 28, polarsource/polar #8901): the `Retries`
//! middleware, on by default, retries a failed message with the actor's
//! options. Read where the actor's decorator writes one of them
//! (`@dramatiq.actor(max_retries=.., min_backoff=.., max_backoff=..,
//! retry_when=.., throws=..)`): a bare `@dramatiq.actor` is every default,
//! left alone like a Celery task without `autoretry_for`. An option the
//! actor does not set is the broker's `Retries(..)` middleware's when the
//! project's broker module sets it (`link::values`), else the default.
//! Defaults:
//! [`crate::systems::python`] (`DRAMATIQ_*`).

use super::super::eval;
use super::super::{Args, Ctx, callee, policy, span};
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

/// The options of the `Retries` middleware a broker may set for every
/// actor (`Retries(max_retries=.., min_backoff=.., max_backoff=..)`,
/// `dramatiq/middleware/retries.py` `__init__` at 848b35f2: an actor's own
/// option wins, else the middleware's, else the default).
const BROKER_OPTIONS: &[&str] = &["max_retries", "min_backoff", "max_backoff"];

/// The value the project's broker gives `Retries` option `option`, when
/// the link step found one (`link::values`); else `None`, the option
/// recorded for it.
fn broker(option: &str) -> Option<f64> {
    let key = format!("dramatiq Retries {option}");
    if let Some((v, _)) = crate::extract::values::given(&key) {
        return Some(v);
    }
    crate::extract::values::want(crate::model::values::ValueWant::DramatiqBroker {
        key,
        option: option.into(),
    });
    None
}

/// The options a module gives the `Retries` middleware of its broker
/// (`broker.add_middleware(Retries(max_retries=3, min_backoff=1000))`,
/// `middleware=[Retries(..)]`), as broker settings the link step gives
/// the actors of the project (`link::values`).
pub(in super::super) fn broker_settings(ctx: &Ctx<'_>, facts: &mut Facts) {
    if !ctx.src.contains("Retries(") || !ctx.src.contains("dramatiq") {
        return;
    }
    for n in &ctx.nodes {
        if n.kind() != "call" || callee(ctx, *n).1 != "Retries" {
            continue;
        }
        let args = Args::of(ctx, *n);
        for opt in BROKER_OPTIONS {
            if let Some(v) = args.kw(opt).and_then(|x| eval::number(ctx, x))
                && facts.broker_settings.len() < 64
            {
                facts.broker_settings.push(BrokerSetting {
                    system: "dramatiq".into(),
                    span: span(*n),
                    kind: BrokerSettingKind::RetryOption {
                        option: (*opt).into(),
                        value: v,
                    },
                });
            }
        }
    }
}

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
    } else if let Some(n) = broker("max_retries").filter(|n| (0.0..1e9).contains(n)) {
        p.attempts = attempts(
            AttemptCount::Finite(n as u64 + 1),
            format!("max_retries={n} (retries) on the broker's Retries middleware"),
            call,
        );
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
    let broker_ms = |o: &str| {
        broker(o)
            .filter(|v| (0.0..1e15).contains(v))
            .map(|v| Duration::from_secs_f64(v / 1000.0))
    };
    let cap = match args.kw("max_backoff") {
        Some(m) => millis(ctx, m),
        None => broker_ms("max_backoff"),
    }
    .map_or(sys::DRAMATIQ_MAX_BACKOFF, |c| {
        c.min(sys::DRAMATIQ_MAX_BACKOFF)
    });
    let delay = |base: Duration| Delay::Exponential {
        base,
        multiplier: 2.0,
        cap: Some(cap),
    };
    p.delay = match (base, broker_ms("min_backoff")) {
        (Some(b), _) => Located::written(millis(ctx, b).map_or(Delay::Unknown, delay), span(b)),
        (None, Some(b)) => Located::written(delay(b), at),
        (None, None) => Located::default_at(delay(sys::DRAMATIQ_MIN_BACKOFF), at),
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
