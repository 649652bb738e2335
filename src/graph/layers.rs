//! The retry layers of a call: a policy as a layer, and the mesh's
//! sidecar layer (its route policy, the mesh-wide default, or the mesh's
//! built-in default).

use super::*;

pub(super) fn layer_of(file: FileId, index: usize, p: &RetryPolicy) -> RetryLayer {
    let per_try = p.per_try_timeout.as_ref().and_then(|t| t.value.finite());
    let overall = p.overall_timeout.as_ref().and_then(|t| t.value.finite());
    let n = if p.retries() {
        p.attempts.value.count.finite().unwrap_or(1)
    } else {
        1
    };
    let backoff = p.delay.value.total_backoff(p.waits(n)).unwrap_or_default();
    RetryLayer {
        policy: Some((file, index)),
        system: p.system.clone(),
        kind: p.system.layer(),
        attempts: if p.retries() {
            p.attempts.value.count
        } else {
            AttemptCount::Finite(1)
        },
        per_try,
        overall,
        backoff,
        hedge_delay: p.hedge_delay(),
        implicit: p.attempts.provenance == Provenance::Default
            && p.system.layer() != LayerKind::Application,
        loc: Loc {
            file,
            span: p.attempts.span,
        },
        timeout_loc: p
            .per_try_timeout
            .iter()
            .chain(p.overall_timeout.iter())
            .find(|t| t.value.finite().is_some() && t.provenance != Provenance::Default)
            .map(|t| Loc { file, span: t.span }),
        label: p.describe(),
        setting: p.attempts.value.written_as.clone(),
    }
}

/// The mesh's retries when no route policy is written for a host (Istio:
/// no VirtualService), as its registry entry gives them.
pub(super) fn sidecar_default(
    (system, default): &(System, &systems::SidecarDefault),
    proof: Loc,
    host: &str,
) -> RetryLayer {
    let p = (default.policy)(proof.span);
    let mut l = layer_of(proof.file, 0, &p);
    l.policy = None;
    l.label = format!("{} default", system.label());
    l.setting = format!(
        "{} `{host}`: {} retries",
        default.uncovered, default.retries
    );
    l
}

/// Whether the file is program source, not configuration.
pub(super) fn is_source(f: &ScannedFile) -> bool {
    f.syntax.is_some_and(crate::model::Syntax::is_source)
}

/// The policies a file's own calls carry.
pub(super) fn used_by_calls(f: &ScannedFile) -> BTreeSet<usize> {
    f.facts
        .edges
        .iter()
        .flat_map(|e| e.policies.iter().copied())
        .collect()
}

/// The one application or SDK retry policy a source file builds that no
/// call of the file already carries, if there is exactly one.
pub(super) fn sole_client_policy(f: &ScannedFile) -> Option<usize> {
    if !is_source(f) {
        return None;
    }
    let used = used_by_calls(f);
    let mut candidates = f.facts.policies.iter().enumerate().filter(|(i, p)| {
        !used.contains(i)
            && matches!(p.system.layer(), LayerKind::Application | LayerKind::Sdk)
            && p.kind != crate::model::PolicyKind::Connect
            // A hand-written loop retries what its body calls: a call of
            // the file only if the body calls into the file at all (its
            // reader says, `extract::loop_calls`).
            && (!p.system.spec().loop_body || f.facts.loops_into_file.contains(&p.span))
            // A named client's policy is that client's calls' only (C#
            // `AddHttpClient<T>`, a Service Bus client's `RetryOptions`):
            // not a `new HttpClient()` call beside it.
            && !matches!(p.scope.client, Some(crate::model::ClientScope::Named(_)))
    });
    match (candidates.next(), candidates.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// The caller's sidecar layer for a call to `host`: the VirtualService's
/// route policy, unless it only has Istio's built-in default, in which case
/// (as when there is no VirtualService) the mesh-wide default applies, or
/// else Istio's built-in one.
pub(super) fn sidecar_layer(
    files: &[ScannedFile],
    route: Option<(FileId, usize)>,
    mesh: &(System, &systems::SidecarDefault),
    mesh_default: Option<(FileId, usize)>,
    proof: Loc,
    host: &str,
) -> RetryLayer {
    if let Some((pf, pi)) = route {
        let p = &files[pf].facts.policies[pi];
        if !(p.attempts.is_default() && p.system == mesh.0 && mesh_default.is_some()) {
            return layer_of(pf, pi, p);
        }
    }
    match mesh_default {
        Some((mf, mi)) => {
            let d = &files[mf].facts.mesh_defaults[mi];
            let mut l = layer_of(mf, mi, d);
            l.policy = None;
            l.implicit = true;
            l.label = format!("{} mesh default", d.system.label());
            l.setting = if d.attempts.is_default() {
                // The install's default (Istio before 1.24 retrying 503).
                format!("no retries for `{host}`: {}", d.attempts.value.written_as)
            } else {
                format!("no retries for `{host}`: meshConfig `defaultHttpRetryPolicy`")
            };
            l
        }
        None => sidecar_default(mesh, proof, host),
    }
}
