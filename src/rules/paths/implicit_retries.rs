//! RL403 implicit-retries: a hop retries only because of a platform default
//! nobody wrote: a policy whose attempts are a platform's default (an
//! Istio route with no `retries`, an AWS client with no retry setting), or
//! a sidecar layer the graph adds to a call where no VirtualService exists.

use crate::graph::GraphCtx;
use crate::model::{Layer, Provenance};
use crate::rules::{Check, Finding, Related, rule};
use std::collections::BTreeSet;

pub const CHECK: Check = Check::Graph(check);

fn check(ctx: &GraphCtx<'_>, out: &mut Vec<Finding>) {
    let me = rule("RL403");
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
            let mut finding = Finding::new(
                me,
                id,
                p.attempts.span,
                format!(
                    "{} retries although nothing here asks for it: {what} (`{n}` attempts)",
                    p.describe(),
                ),
                p.system.spec().fixes.explicit.into(),
            );
            if let Some((mf, md)) = mesh.filter(|_| mesh_applies) {
                finding.related.push(Related {
                    file: mf,
                    span: md.attempts.span,
                    message: "the mesh-wide default".into(),
                });
            }
            out.push(finding);
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
            let mut f = Finding::new(
                me,
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
            out.push(f);
        }
    }
}
