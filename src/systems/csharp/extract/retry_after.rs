//! What a C# HTTP retry does with the server's `Retry-After` (RL208):
//! `HttpRetryStrategyOptions` (the standard handler's `Retry`, or
//! `AddRetry(new HttpRetryStrategyOptions { .. })`) waits it as it is by
//! default (`ShouldRetryAfterHeader`, [`crate::systems::dotnet::model::retry_after`]);
//! `ShouldRetryAfterHeader = false` ignores it; a `DelayGenerator` written
//! after it replaces the header's reading: one that reads the header is
//! judged for its cap and jitter, one that never looks at the outcome
//! (only `args.AttemptNumber`) ignores the header.

use super::resilience::lambda_param;
use super::{Ctx, field, span};
use crate::model::backoff::ServerDelay;
use crate::model::{Located, Timeout};
use crate::source::Span;
use crate::systems::csharp::extract::Kind as _;
use crate::systems::dotnet::model::{RetryRead, retry_after};
use tree_sitter::Node;

/// The retry's server delay: `http` for `HttpRetryStrategyOptions` (whose
/// default reads the header), `generator` the `DelayGenerator` written,
/// `total` a timeout around the whole retry.
pub(super) fn server_delay(
    ctx: &Ctx<'_>,
    read: &RetryRead,
    generator: Option<Node<'_>>,
    http: bool,
    total: Option<&Located<Timeout>>,
    anchor: Span,
) -> Option<Located<ServerDelay>> {
    // The later of `ShouldRetryAfterHeader` and `DelayGenerator` decides:
    // the first's setter assigns the second.
    let generator = generator.filter(|g| {
        read.retry_after
            .is_none_or(|(_, s)| g.start_byte() > s.start)
    });
    match generator {
        Some(g) => generated(ctx, g, http, total),
        None => http.then(|| retry_after(read, total, anchor)),
    }
}

fn generated(
    ctx: &Ctx<'_>,
    g: Node<'_>,
    http: bool,
    total: Option<&Located<Timeout>>,
) -> Option<Located<ServerDelay>> {
    let text = ctx.text(g);
    let lower = text.to_ascii_lowercase();
    let by = "the `DelayGenerator`".to_string();
    if text.contains("RetryAfter") || lower.contains("\"retry-after\"") {
        let capped = text.contains("Math.Min(")
            || text.contains(".Min(")
            || (lower.contains(" > ") && lower.contains("max"))
            || total.is_some_and(|t| t.value.finite().is_some());
        let d = ServerDelay {
            header: "Retry-After".into(),
            capped,
            jittered: lower.contains("random") || lower.contains("jitter"),
            by,
            ignored: None,
        };
        return Some(Located::written(d, span(g)));
    }
    // A generator in place of the standard one that never looks at the
    // outcome (`args => .. args.AttemptNumber ..`) cannot wait the header.
    if !http || g.kind_str() != "lambda_expression" {
        return None;
    }
    let param = lambda_param(ctx, g)?;
    let body = field(g, "body")?;
    let looks_at_outcome = ctx.subtree(body).iter().any(|n| {
        n.kind_str() == "identifier"
            && ctx.text(*n) == param
            && !n.parent().is_some_and(|m| {
                m.kind_str() == "member_access_expression"
                    && field(m, "name")
                        .is_some_and(|x| matches!(ctx.text(x), "AttemptNumber" | "Context"))
            })
    });
    if looks_at_outcome {
        return None;
    }
    let d = ServerDelay {
        header: "Retry-After".into(),
        capped: false,
        jittered: false,
        by,
        ignored: Some(
            "read `Retry-After` in the `DelayGenerator` (`args.Outcome.Result?.Headers.RetryAfter`), or remove it: `ShouldRetryAfterHeader`, true by default, then waits the header"
                .into(),
        ),
    };
    Some(Located::written(d, span(g)))
}
