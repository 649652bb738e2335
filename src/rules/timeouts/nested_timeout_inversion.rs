//! RL303 nested-timeout-inversion: across a hop, the callee's worst-case
//! time (its own attempts x per-try timeout + backoff, recursively) is at
//! or above the caller's timeout for that call.

use crate::duration::human;
use crate::graph::GraphCtx;
use crate::rules::{Check, Emitter, Related};

pub const CHECK: Check = Check::Graph(check);

fn check(ctx: &GraphCtx<'_>, out: &mut Emitter<'_>) {
    let g = ctx.graph;
    let worst = g.worst_time();
    for e in &g.edges {
        // The caller's timeout for this call: the tightest per-try, else
        // the tightest overall timeout, of the layers on the edge.
        let Some((limit, layer)) = e
            .layers
            .iter()
            .filter_map(|l| l.per_try.or(l.overall).map(|t| (t, l)))
            .min_by_key(|(t, _)| *t)
        else {
            continue;
        };
        let Some(callee) = worst[e.to] else { continue };
        if callee < limit {
            continue;
        }
        let at = layer.timeout_loc.unwrap_or(e.proof);
        let f = out.emit_at(
            at.file,
            at.span,
            format!(
                "`{}` gives `{}` up to `{}` per call, but `{}`'s own retries can take `{}`: the caller abandons work the callee keeps doing, and every abandoned attempt is retried again",
                g.service_name(e.from),
                g.service_name(e.to),
                human(limit),
                g.service_name(e.to),
                human(callee)
            ),
            format!(
                "make `{}`'s retries finish within `{}` (fewer attempts, shorter per-try timeouts) or give the call a longer timeout: deadlines must shrink at each hop",
                g.service_name(e.to),
                human(limit)
            ),
        );
        f.related.push(Related {
            file: e.proof.file,
            span: e.proof.span,
            message: format!("the call, via {}", e.via),
        });
        for d in g.forward(e.to) {
            for l in g.edges[d].layers.iter().filter(|l| l.retries()) {
                f.related.push(Related {
                    file: l.loc.file,
                    span: l.loc.span,
                    message: g.layer_note(d, l),
                });
            }
        }
    }
}
