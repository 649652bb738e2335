//! RL403 implicit-retries: a hop retries only because of a platform default
//! nobody wrote: a policy whose attempts are a platform's default (an
//! Istio route with no `retries`, an AWS client with no retry setting), or
//! a sidecar layer the graph adds to a call where no VirtualService exists.

use crate::graph::GraphCtx;
use crate::model::{Layer, Provenance};
use crate::rules::{Check, Emitter, Related};
use crate::source::SourceFile;
use std::collections::BTreeSet;

pub const CHECK: Check = Check::Graph(check);

fn check(ctx: &GraphCtx<'_>, out: &mut Emitter<'_>) {
    let mut seen = BTreeSet::new();
    // A mesh-wide default replaces Istio's built-in one wherever a route
    // writes no `retries`.
    let mesh = crate::graph::mesh_default(ctx.files)
        .map(|(mf, mi)| (mf, &ctx.files[mf].facts.mesh_defaults[mi]));
    for (id, f) in ctx.files.iter().enumerate() {
        for p in &f.facts.policies {
            if p.attempts.provenance != Provenance::Default
                || p.system.layer() == Layer::Application
            {
                continue;
            }
            // The mesh default replaces only its own system's default.
            let mesh_applies = mesh.is_some_and(|(_, md)| md.system == p.system);
            let (retries, n, what) = match mesh {
                Some((_, md)) if mesh_applies => (
                    md.retries(),
                    md.attempts.value.count.finite().unwrap_or(0),
                    "no retries block: the mesh-wide defaultHttpRetryPolicy applies".to_string(),
                ),
                _ => (
                    p.retries(),
                    p.attempts.value.count.finite().unwrap_or(0),
                    p.attempts.value.written_as.clone(),
                ),
            };
            if !retries || !seen.insert((id, p.attempts.span)) {
                continue;
            }
            // Conditions written (or inherited from a written setting)
            // ask for retries; only their number is the default.
            let on = written_conditions(p, &f.source).filter(|_| !mesh_applies);
            let message = match &on {
                Some(on) => format!(
                    "{} retries on {on}, as written, but how many times is not written: {what} (`{n}` attempts)",
                    p.describe(),
                ),
                None => format!(
                    "{} retries although nothing here asks for it: {what} (`{n}` attempts)",
                    p.describe(),
                ),
            };
            let finding = out.emit_at(id, p.attempts.span, message, p.system.spec().fixes.explicit);
            if on.is_some() && p.retry_on.is_written() && p.retry_on.span != p.attempts.span {
                finding.related.push(Related {
                    file: id,
                    span: p.retry_on.span,
                    message: "the retry conditions, written here".into(),
                });
            }
            if let Some((mf, md)) = mesh.filter(|_| mesh_applies) {
                finding.related.push(Related {
                    file: mf,
                    span: md.attempts.span,
                    message: "the mesh-wide default".into(),
                });
            }
        }
    }
    let g = ctx.graph;
    for e in &g.edges {
        for l in e
            .layers
            .iter()
            .filter(|l| l.implicit && l.policy.is_none() && l.retries())
        {
            if !seen.insert((e.proof.file, e.proof.span)) {
                continue;
            }
            let by = if l.loc == e.proof {
                "by default".to_string()
            } else {
                "by the mesh-wide default".to_string()
            };
            let f = out.emit_at(
                e.proof.file,
                e.proof.span,
                format!(
                    "the call from `{}` to `{}` is retried by the caller's {} sidecar {by}: `{}` attempts that no VirtualService for `{}` states",
                    g.service_name(e.from),
                    g.service_name(e.to),
                    l.system.label(),
                    l.factor(),
                    g.service_name(e.to),
                ),
                format!(
                    "write a VirtualService for `{}` with the retries you want (`attempts: 0` to leave retries to the application)",
                    g.service_name(e.to)
                ),
            );
            if l.loc != e.proof {
                f.related.push(Related {
                    file: l.loc.file,
                    span: l.loc.span,
                    message: "the mesh-wide default".into(),
                });
            }
        }
    }
}

/// The retry conditions of `p` when someone wrote them (here, in a block
/// above, or in a file that includes or configures this one), as a
/// message shows them; `None` when they are the system's default too.
fn written_conditions(p: &crate::model::RetryPolicy, file: &SourceFile) -> Option<String> {
    use crate::model::RetryOn;
    use crate::rules::conditions::{condition_text, listed};
    if p.retry_on.is_default() || matches!(p.retry_on.value, RetryOn::Nothing) {
        return None;
    }
    let conditions = listed(&p.retry_on.value);
    if conditions.iter().all(|c| c.is_default()) {
        return None;
    }
    // Each condition as written where it is written here, else as
    // people write it.
    let text = conditions
        .iter()
        .map(|c| {
            let written = file.slice(c.span).trim().trim_matches(['"', '\'', ',']);
            if c.is_written() && !written.is_empty() {
                written.to_string()
            } else {
                condition_text(&c.value)
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    Some(format!("`{text}`"))
}
