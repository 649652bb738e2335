//! cenkalti/backoff's `Ticker`: `tick := backoff.NewTicker(b)` then a
//! loop that tries on each `<-tick.C` and leaves on success. The ticks
//! come at the times `b.NextBackOff()` gives, and the channel closes
//! when `b` says `Stop` (v5 `ticker.go` `send`: kubernetes/kubernetes
//! `vendor/github.com/cenkalti/backoff/v5/ticker.go`, commit
//! 10cd7f609f9454ca055a991ac1e1e251d64020cb; v4 the same, cenkalti/backoff
//! `ticker.go`, commit 720b789). v5's `ExponentialBackOff.NextBackOff`
//! never returns `Stop` (`exponential.go`, commit
//! d1a2be3dcd8d47fdbf23b160a6e9593e94b271c8: no elapsed time), so the
//! ticker ticks until the loop leaves; v4's stops after `MaxElapsedTime`.

use super::super::{
    Ctx, args, attempts, bound_name, default_attempts, enclosing_function, policy, span,
};
use super::{Shape, backoff_shape};
use crate::model::{AttemptCount, Located, RetryOn, RetryPolicy, Timeout};
use crate::systems::go::extract::KindName;
use std::time::Duration;
use tree_sitter::Node;

/// The policy of a ticker and the byte range of the loop that receives
/// its ticks (`None` when no loop of the function does: then it is no
/// retry this reader sees).
pub fn ticker(ctx: &Ctx<'_>, call: Node<'_>, v5: bool) -> Option<(RetryPolicy, (usize, usize))> {
    let b = *args(call).first()?;
    let name = bound_name(ctx, call)?;
    let func = enclosing_function(call)?;
    let (receive, ranged) = (format!("<-{name}.C"), format!("range {name}.C"));
    // The innermost `for` of the function after the call that receives
    // from the ticker (`<-tick.C`, `for range tick.C`).
    let from = ctx
        .nodes
        .partition_point(|n| n.start_byte() < call.end_byte());
    let lp = ctx.nodes[from..]
        .iter()
        .take_while(|n| n.start_byte() < func.end_byte())
        .filter(|n| n.kind_name() == "for_statement")
        .filter(|n| {
            let t = ctx.text(**n);
            t.contains(&receive) || t.contains(&ranged)
        })
        .last()
        .copied()?;
    let at = span(call);
    let shape: Shape = backoff_shape(ctx, b, v5, 0);
    let loop_text = ctx.text(lp);
    // `case <-ctx.Done(): return ..`: the context ends the loop.
    let cancelled = loop_text.contains(".Done():");
    let count = match shape.retries {
        Some((Some(n), s)) => attempts(
            AttemptCount::Finite(n.saturating_add(1)),
            &format!("{} retries", n),
            s,
        ),
        Some((None, s)) => attempts(AttemptCount::Unknown, "a limit not known here", s),
        None if cancelled => attempts(
            AttemptCount::Unknown,
            "until the loop leaves (`<-ctx.Done()`)",
            span(lp),
        ),
        None if shape.known => {
            default_attempts(AttemptCount::Unbounded, "ticks until the backoff stops", at)
        }
        None => default_attempts(AttemptCount::Unknown, "a backoff not known here", at),
    };
    let mut p = policy("backoff", at, count);
    p.name = Some("backoff.NewTicker".into());
    p.delay = shape.delay;
    p.jitter = shape.jitter;
    if let Some(e) = shape.elapsed {
        p.overall_timeout = Some(e.map(|d: Option<Duration>| match d {
            None => Timeout::Disabled,
            Some(Duration::MAX) => Timeout::Unknown,
            Some(d) => Timeout::after(d),
        }));
    }
    // What goes round is what the loop decides on each tick.
    p.retry_on = Located::default_at(RetryOn::Unknown, at);
    Some((p, (lp.start_byte(), lp.end_byte())))
}
