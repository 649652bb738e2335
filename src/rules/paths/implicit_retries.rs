//! RL403 implicit-retries: a hop retries only because of a platform default
//! nobody wrote: a policy whose attempts are a platform's default (an
//! Istio route with no `retries`, an AWS client with no retry setting), or
//! a sidecar layer the graph adds to a call where no VirtualService exists.

use crate::graph::{GraphCtx, Loc, MeshEvidence};
use crate::model::{Layer, Provenance};
use crate::rules::{Check, Emitter, Related};
use crate::source::{SourceFile, Span};
use std::collections::{BTreeMap, BTreeSet};

pub const CHECK: Check = Check::Graph(check);

/// Routes of one file with the same implicit default: (file, system,
/// what, attempts, the mesh-wide default that applies) -> (span, route).
type Quiet = BTreeMap<(usize, String, String, u64, Option<(usize, usize)>), Vec<(Span, String)>>;

fn check(ctx: &GraphCtx<'_>, out: &mut Emitter<'_>) {
    let mut seen = BTreeSet::new();
    let mut quiet: Quiet = BTreeMap::new();
    for (id, f) in ctx.files.iter().enumerate() {
        // The route's folder, for the mesh-wide default of its project
        // (where the scan has one).
        let folder = if ctx.graph.mesh_defaults.is_empty() {
            String::new()
        } else {
            let path = f.source.display_path();
            path.rsplit_once('/')
                .map_or(String::new(), |(d, _)| format!("{d}/"))
        };
        for p in &f.facts.policies {
            if p.attempts.provenance != Provenance::Default
                || p.system.layer() == Layer::Application
            {
                continue;
            }
            // A mesh-wide default (of the route's system, in the route's
            // project) replaces the built-in one wherever a route writes
            // no `retries`.
            let at = ctx
                .graph
                .mesh_default_in(ctx.files, &p.system, &[folder.as_str()]);
            let mesh = at.map(|(mf, mi)| (mf, &ctx.files[mf].facts.mesh_defaults[mi]));
            let mesh_applies = mesh.is_some();
            let (retries, n, what) = match mesh {
                Some((_, md)) if mesh_applies => (
                    md.retries(),
                    md.attempts.value.count.finite().unwrap_or(0),
                    // A default the install chose (Istio before 1.24
                    // retrying 503) says which; a written one is the
                    // mesh config's.
                    if md.attempts.is_default() {
                        md.attempts.value.written_as.clone()
                    } else {
                        "no retries block: the mesh-wide defaultHttpRetryPolicy applies".to_string()
                    },
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
                None => {
                    // The same default on several routes of one file is
                    // one finding.
                    quiet
                        .entry((id, p.system.label(), what, n, at))
                        .or_default()
                        .push((p.attempts.span, p.describe()));
                    continue;
                }
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
    for ((id, _, what, n, at), routes) in quiet {
        let mesh = at.map(|(mf, mi)| (mf, &ctx.files[mf].facts.mesh_defaults[mi]));
        let Some(&(span, ref first)) = routes.first() else {
            continue;
        };
        let Some(system) = ctx.files[id]
            .facts
            .policies
            .iter()
            .find(|p| p.attempts.span == span)
            .map(|p| p.system.clone())
        else {
            continue;
        };
        let message = if routes.len() == 1 {
            format!("{first} retries although nothing here asks for it: {what} (`{n}` attempts)")
        } else {
            let names: Vec<&str> = routes.iter().take(4).map(|(_, d)| d.as_str()).collect();
            let more = if routes.len() > 4 {
                format!(" and {} more", routes.len() - 4)
            } else {
                String::new()
            };
            format!(
                "{} routes of this file retry although nothing here asks for it ({}{more}): {what} (`{n}` attempts each)",
                routes.len(),
                names.join(", ")
            )
        };
        let finding = out.emit_at(id, span, message, system.spec().fixes.explicit);
        for (at, d) in routes.iter().skip(1) {
            finding.related.push(Related {
                file: id,
                span: *at,
                message: format!("{d}, the same default"),
            });
        }
        if let Some((mf, md)) = mesh {
            finding.related.push(Related {
                file: mf,
                span: md.attempts.span,
                message: "the mesh-wide default".into(),
            });
        }
    }
    // One finding per implicit default and deployment variant: every call
    // it covers is named (up to a few) and kept as a related location.
    let g = ctx.graph;
    let mut groups: BTreeMap<(String, String, Loc), Vec<(usize, usize)>> = BTreeMap::new();
    for (ei, e) in g.edges.iter().enumerate() {
        for (li, l) in e.layers.iter().enumerate() {
            if !(l.implicit && l.policy.is_none() && l.retries()) {
                continue;
            }
            if seen.contains(&(e.proof.file, e.proof.span)) {
                continue;
            }
            let default_at = if l.loc == e.proof {
                Loc::default()
            } else {
                l.loc
            };
            let variant = e
                .mesh
                .as_ref()
                .and_then(|m| m.variant.clone())
                .unwrap_or_default();
            groups
                .entry((l.system.label().to_string(), variant, default_at))
                .or_default()
                .push((ei, li));
        }
    }
    for (_, calls) in groups {
        let Some(&(first, li)) = calls.iter().min_by_key(|(e, _)| g.edges[*e].proof) else {
            continue;
        };
        let e = &g.edges[first];
        let l = &e.layers[li];
        let by = if l.loc == e.proof {
            "by default"
        } else {
            "by the mesh-wide default"
        };
        const SHOWN: usize = 4;
        let mut pairs: Vec<String> = calls
            .iter()
            .map(|&(c, _)| {
                let edge = &g.edges[c];
                format!(
                    "`{} -> {}`",
                    g.service_name(edge.from),
                    g.service_name(edge.to)
                )
            })
            .collect();
        pairs.sort();
        pairs.dedup();
        let n = pairs.len();
        let mut who = pairs
            .iter()
            .take(SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        if n > SHOWN {
            who.push_str(&format!(" and {} more", n - SHOWN));
        }
        let (what, verb) = if n == 1 {
            (format!("the call {who}"), "is")
        } else {
            (format!("{n} calls ({who})"), "are")
        };
        let callees: BTreeSet<&str> = calls
            .iter()
            .map(|&(c, _)| g.service_name(g.edges[c].to))
            .collect();
        let hosts = callees
            .iter()
            .take(SHOWN)
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ");
        // Where membership is assumed, the finding says so and names the
        // file the assumption rests on.
        let assumed = calls.iter().find_map(|&(c, _)| {
            g.edges[c]
                .mesh
                .as_ref()
                .filter(|m| m.how == MeshEvidence::Assumed)
        });
        let assumption = match assumed {
            Some(m) => format!(
                "; the sidecar is assumed: `{}` declares {} resources and no injection setting says whether the caller runs in the mesh",
                ctx.files
                    .get(m.loc.file)
                    .map(|f| f.source.display_path())
                    .unwrap_or_default(),
                m.mesh.label()
            ),
            None => String::new(),
        };
        let variant = calls
            .iter()
            .find_map(|&(c, _)| g.edges[c].mesh.as_ref().and_then(|m| m.variant.clone()))
            .map(|v| format!(" in the deployment variant `{v}`"))
            .unwrap_or_default();
        let f = out.emit_at(
            e.proof.file,
            e.proof.span,
            format!(
                "{what}{variant} {verb} retried by the caller's {} sidecar {by}: `{}` attempts{} that no route policy states{assumption}",
                l.system.label(),
                l.factor(),
                if n > 1 { " each" } else { "" },
            ),
            format!(
                "write a VirtualService for {hosts}{} with the retries you want (`attempts: 0` to leave retries to the application){}",
                if callees.len() > SHOWN { " and the other callees" } else { "" },
                if assumed.is_some() {
                    ", or set `mesh` in .retrylint.toml if the callers do not run in the mesh"
                } else {
                    ""
                }
            ),
        );
        if l.loc != e.proof {
            f.related.push(Related {
                file: l.loc.file,
                span: l.loc.span,
                message: "the mesh-wide default".into(),
            });
        }
        if let Some(m) = assumed {
            f.related.push(Related {
                file: m.loc.file,
                span: m.loc.span,
                message: format!(
                    "the {} resource the sidecar is assumed from",
                    m.mesh.label()
                ),
            });
        }
        for &(c, _) in &calls {
            let edge = &g.edges[c];
            if c == first {
                continue;
            }
            f.related.push(Related {
                file: edge.proof.file,
                span: edge.proof.span,
                message: format!(
                    "{} -> {}, also retried by this default",
                    g.service_name(edge.from),
                    g.service_name(edge.to)
                ),
            });
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
    // people write it; a token that stands for several conditions
    // (Envoy's `gateway-error`: 502-504, resets, connect failures) once.
    let mut texts: Vec<String> = Vec::new();
    for c in conditions {
        let written = file.slice(c.span).trim().trim_matches(['"', '\'', ',']);
        let t = if c.is_written() && !written.is_empty() {
            written.to_string()
        } else {
            condition_text(&c.value)
        };
        if !texts.contains(&t) {
            texts.push(t);
        }
    }
    let text = texts.join(" ");
    Some(format!("`{text}`"))
}
