//! Polly v8's circuit breaker options (`AddCircuitBreaker(new
//! CircuitBreakerStrategyOptions { .. })`): the settings of the breaker a
//! retry added before it is composed around (the simulation reads them).

use super::eval;
use crate::model::{BreakerSettings, BreakerWindow, Located};
use crate::source::Span;
use crate::systems::csharp::extract::Kind as _;
use std::time::Duration;
use tree_sitter::Node;

/// `CircuitBreakerStrategyOptions` when nothing is set (App-vNext/Polly
/// `src/Polly.Core/CircuitBreaker/CircuitBreakerConstants.cs`:
/// `DefaultFailureRatio = 0.1`, `DefaultMinimumThroughput = 100`,
/// `DefaultSamplingDuration = 30` s, `DefaultBreakDuration = 5` s; the
/// `HttpCircuitBreakerStrategyOptions` of Microsoft.Extensions.Http.Resilience
/// keep them). Half-open, one call probes the service
/// (`Controller/CircuitStateController.cs`: the first execution in
/// `HalfOpen` moves on, the others are rejected until it ends).
pub const POLLY_BREAKER_DEFAULTS: BreakerSettings = BreakerSettings {
    failure_ratio: 0.1,
    min_calls: 100,
    window: BreakerWindow::Time {
        length: Duration::from_secs(30),
    },
    open_for: Duration::from_secs(5),
    half_open_calls: 1,
};

/// The settings of `AddCircuitBreaker(options)`, Polly's defaults where
/// the options object does not set them (or is built elsewhere).
pub(super) fn settings<'a>(
    ctx: &super::Ctx<'a>,
    options: Option<Node<'a>>,
    at: Span,
) -> Located<BreakerSettings> {
    let mut s = POLLY_BREAKER_DEFAULTS;
    let mut written = false;
    let init = options.and_then(|o| super::field(o, "initializer"));
    for e in init.map(super::named_children).unwrap_or_default() {
        if e.kind_str() != "assignment_expression" {
            continue;
        }
        let (Some(l), Some(r)) = (super::field(e, "left"), super::field(e, "right")) else {
            continue;
        };
        match ctx.text(l).trim() {
            "FailureRatio" => {
                if let Some(x) = ctx
                    .text(r)
                    .trim()
                    .trim_end_matches(['d', 'D'])
                    .parse::<f64>()
                    .ok()
                    && (0.0..=1.0).contains(&x)
                {
                    s.failure_ratio = x;
                    written = true;
                }
            }
            "MinimumThroughput" => {
                if let Some(n) = eval::int(ctx, r).filter(|n| *n >= 2) {
                    s.min_calls = n as u64;
                    written = true;
                }
            }
            "SamplingDuration" => {
                if let Some(d) = eval::duration(ctx, r) {
                    s.window = BreakerWindow::Time { length: d };
                    written = true;
                }
            }
            "BreakDuration" => {
                if let Some(d) = eval::duration(ctx, r) {
                    s.open_for = d;
                    written = true;
                }
            }
            _ => {}
        }
    }
    if written {
        Located::written(s, at)
    } else {
        Located::default_at(s, at)
    }
}
