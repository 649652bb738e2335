//! EF Core's retrying execution strategy: `EnableRetryOnFailure()`,
//! `EnableRetryOnFailure(maxRetryCount)`, `EnableRetryOnFailure(
//! maxRetryCount, maxRetryDelay, errorNumbersToAdd)` (SQL Server, Npgsql's
//! `errorCodesToAdd`). Defaults: [`crate::systems::csharp`].

use super::eval;
use super::{Ctx, args, span};
use crate::model::*;
use crate::systems::csharp::EF_CORE_MAX_RETRY_COUNT;
use tree_sitter::Node;

pub fn enable_retry_on_failure(ctx: &Ctx<'_>, call: Node<'_>, facts: &mut Facts) {
    let anchor = super::resilience::call_span(call);
    let a = args(ctx, call);
    let arg = |name: &str, i: usize| {
        a.iter()
            .find(|(k, _)| *k == Some(name))
            .or_else(|| a.get(i).filter(|(k, _)| k.is_none()))
            .map(|(_, v)| *v)
    };
    let attempts = super::retries_or_default(
        ctx,
        arg("maxRetryCount", 0).map(|n| (n, span(n))),
        ("maxRetryCount", ": "),
        EF_CORE_MAX_RETRY_COUNT,
        anchor,
        None,
        facts,
    );
    let mut p = RetryPolicy::new(System::EfCore, anchor, attempts);
    p.name = Some("EnableRetryOnFailure".into());
    // (2^n - 1) x 1 s with up to 10% added at random, capped at
    // `maxRetryDelay` (30 s by default): not one of the model's shapes.
    p.delay = match arg("maxRetryDelay", 1) {
        Some(d) if eval::duration(ctx, d).is_some() => Located::written(Delay::Custom, span(d)),
        Some(d) => Located::written(Delay::Unknown, span(d)),
        None => Located::default_at(Delay::Custom, anchor),
    };
    p.jitter = Located::default_at(Jitter::Unknown, anchor);
    // The provider's transient-error detector (SQL Server error numbers,
    // Npgsql `IsTransient`), plus any numbers added.
    p.retry_on = Located::default_at(
        RetryOn::Listed {
            conditions: vec![Located::default_at(
                Condition::Token("transient database errors".into()),
                anchor,
            )],
        },
        anchor,
    );
    p.methods = Located::default_at(Methods::Unknown, anchor);
    facts.policies.push(p);
}
