//! The standard hedging handler written in C#:
//! `AddStandardHedgingHandler()` on a client (or every client through
//! `ConfigureHttpClientDefaults`), with its options set in a
//! `.Configure(o => { o.Hedging.MaxHedgedAttempts = 3; o.Hedging.Delay =
//! ..; o.Endpoint.Timeout.Timeout = ..; })` after it. Defaults:
//! [`crate::systems::dotnet::model`] (the same as the `appsettings*.json`
//! reader's).

use super::eval;
use super::resilience::{call_span, client_scope, lambda_param, timeout};
use super::{Ctx, field, span};
use crate::diag::invalid_setting;
use crate::model::*;
use crate::systems::csharp::extract::Kind as _;
use crate::systems::dotnet::model::*;
use std::time::Duration;
use tree_sitter::Node;

pub fn standard_hedging(ctx: &Ctx<'_>, call: Node<'_>, facts: &mut Facts) {
    let anchor = call_span(call);
    // The options lambdas: `.Configure(o => ..)` right after the call
    // (the call's own argument configures the routing, not the options).
    let lambdas = super::resilience::configure_lambdas(ctx, call);
    let mut attempts = None;
    let mut delay = None;
    let mut per_copy = None;
    let mut total = None;
    for lambda in lambdas {
        let param = lambda_param(ctx, lambda).unwrap_or("");
        for &n in ctx.subtree(lambda) {
            if n.kind_str() != "assignment_expression" {
                continue;
            }
            let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
                continue;
            };
            let path: Vec<&str> = ctx.text(l).split('.').map(str::trim).collect();
            if path.first() != Some(&param) {
                continue;
            }
            let at = span(l).cover(span(r));
            match &path[1..] {
                ["Hedging", "MaxHedgedAttempts"] => {
                    let written = super::one_line(ctx.text(r));
                    let count = match eval::int(ctx, r) {
                        Some(k) if (1..=10).contains(&k) => AttemptCount::Finite(k as u64 + 1),
                        Some(k) => {
                            facts.diagnostics.push(invalid_setting::value(
                                span(r),
                                "MaxHedgedAttempts",
                                &k.to_string(),
                                "must be from 1 to 10 (it counts the copies sent besides the first); options validation fails at start-up",
                            ));
                            AttemptCount::Unknown
                        }
                        None => AttemptCount::Unknown,
                    };
                    attempts = Some(Located::written(
                        Attempts {
                            count,
                            written_as: format!("MaxHedgedAttempts = {written} (hedged copies)"),
                        },
                        at,
                    ));
                }
                ["Hedging", "Delay"] => delay = Some((eval::duration(ctx, r), at)),
                ["Endpoint", "Timeout", "Timeout"] => per_copy = Some(timeout(ctx, r)),
                ["TotalRequestTimeout", "Timeout"] => total = Some(timeout(ctx, r)),
                _ => {}
            }
        }
    }
    let attempts = attempts.unwrap_or_else(|| {
        Located::default_at(
            Attempts {
                count: AttemptCount::Finite(STANDARD_HEDGED_ATTEMPTS + 1),
                written_as: "MaxHedgedAttempts: 1 (the default, hedged copies)".into(),
            },
            anchor,
        )
    });
    let mut p = RetryPolicy::new(System::DotnetStandard, anchor, attempts);
    p.kind = PolicyKind::Hedge;
    p.name = Some(client_scope(ctx, call).unwrap_or_else(|| "AddStandardHedgingHandler".into()));
    let human = crate::duration::human;
    let (d, when) = match delay {
        Some((Some(d), at)) if d.is_zero() => (
            Located::written(Delay::None, at),
            "at once (`Delay` zero)".to_string(),
        ),
        Some((Some(d), at)) => (
            Located::written(Delay::Fixed { delay: d }, at),
            format!("no response within `{}`", human(d)),
        ),
        Some((None, at)) => (
            Located::written(Delay::Unknown, at),
            "no response within `Delay`".to_string(),
        ),
        None => (
            Located::default_at(
                Delay::Fixed {
                    delay: STANDARD_HEDGING_DELAY,
                },
                anchor,
            ),
            format!(
                "no response within `{}` (the default)",
                human(STANDARD_HEDGING_DELAY)
            ),
        ),
    };
    p.delay = d;
    p.jitter = Located::default_at(Jitter::None, anchor);
    // Hedged copies are not a back-off: the backoff rules do not apply.
    p.platform_backoff = true;
    let default_timeout = |t: Duration| Located::default_at(Timeout::after(t), anchor);
    p.per_try_timeout =
        Some(per_copy.unwrap_or_else(|| default_timeout(STANDARD_HEDGING_ENDPOINT_TIMEOUT)));
    p.overall_timeout = Some(total.unwrap_or_else(|| default_timeout(STANDARD_TOTAL_TIMEOUT)));
    p.retry_on = standard_hedge_on(anchor, when);
    p.methods = Located::default_at(Methods::All, anchor);
    facts.policies.push(p);
}
