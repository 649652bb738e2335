//! RL303 nested-timeout-inversion: across a hop, the callee's worst-case
//! time (its own attempts x per-try timeout + backoff, recursively) is at
//! or above the caller's timeout for that call; or the platform that runs
//! the callee lets it work on a request longer than a caller that retries
//! waits for one attempt (a Knative revision's `timeoutSeconds`).

use crate::duration::human;
use crate::graph::{Edge, GraphCtx};
use crate::model::Timeout;
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
        let Some(callee) = worst[e.to].filter(|c| *c >= limit) else {
            request_timeout(ctx, e, out);
            continue;
        };
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

/// The callee's platform lets it work on one request for longer than a
/// layer of the caller that retries waits for an attempt: each attempt it
/// abandons keeps running while the next one starts.
fn request_timeout(ctx: &GraphCtx<'_>, e: &Edge, out: &mut Emitter<'_>) {
    let g = ctx.graph;
    let name = g.service_name(e.to);
    let Some((limit, layer)) = e
        .layers
        .iter()
        .filter(|l| l.retries())
        .filter_map(|l| l.per_try.map(|t| (t, l)))
        .min_by_key(|(t, _)| *t)
    else {
        return;
    };
    let declared = ctx.files.iter().enumerate().find_map(|(id, f)| {
        f.facts.services.iter().find_map(|s| {
            let t = s.request_timeout.as_ref()?;
            let Timeout::Finite { after } = t.value else {
                return None;
            };
            (s.name == name).then_some((id, t.span, after, &s.source))
        })
    });
    let Some((file, span, allowed, source)) = declared else {
        return;
    };
    if allowed < limit {
        return;
    }
    let at = layer.timeout_loc.unwrap_or(e.proof);
    let f = out.emit_at(
        at.file,
        at.span,
        format!(
            "`{}` gives `{name}` up to `{}` per attempt and retries ({}), but `{name}` may work on a request for up to `{}` ({source}): the caller abandons work the callee keeps doing, and every abandoned attempt is retried again",
            g.service_name(e.from),
            human(limit),
            layer.label,
            human(allowed),
        ),
        format!(
            "give each attempt longer than `{name}`'s request timeout, or lower that timeout below `{}` so the callee stops when the caller gives up",
            human(limit)
        ),
    );
    f.related.push(Related {
        file,
        span,
        message: format!("`{name}`'s request timeout"),
    });
    f.related.push(Related {
        file: e.proof.file,
        span: e.proof.span,
        message: format!("the call, via {}", e.via),
    });
}
