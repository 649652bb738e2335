//! Istio's default retry policy before 1.24 retried `503` (issue 28).
//!
//! istio/istio `pilot/pkg/networking/core/route/retry/retry.go`: the
//! default policy of a route that writes no `retries` had
//! `RetriableStatusCodes: []uint32{http.StatusServiceUnavailable}` with
//! `retriable-status-codes` in its `RetryOn`; commit 65aaaf4f8c5 ("exclude
//! unsafe 503 from default RetryPolicy", #52111, first in 1.24.0) made it
//! depend on the pilot flag `EXCLUDE_UNSAFE_503_FROM_DEFAULT_RETRY`
//! (default true), which the compatibility profiles of 1.23 and older set
//! to `"false"` (`manifests/helm-profiles/compatibility-version-1.23.yaml`:
//! `pilot.env.EXCLUDE_UNSAFE_503_FROM_DEFAULT_RETRY: "false"`); commit
//! 748c90d41d4 (#56023) removed the flag and the 1.23 profile again, so
//! from then on no install retries 503 by default.
//!
//! A mesh that says it runs the old behaviour (the flag written `false`,
//! `compatibilityVersion` 1.23 or older, or an IstioOperator `tag` or
//! values `global.tag` older than 1.24) gets that default as its
//! mesh-wide default: every route that writes no `retries` then retries
//! the overload signal, 503, twice, with no budget (RL403 says so).

use super::extract::default_retry_on;
use crate::extract::Facts;
use crate::model::*;
use crate::source::Span;
use crate::yaml::Yaml;

/// The pilot flag that kept 503 in the default (Istio 1.24 until its
/// removal).
pub const FLAG: &str = "EXCLUDE_UNSAFE_503_FROM_DEFAULT_RETRY";

/// The first Istio release whose default does not retry 503.
pub const FIXED_IN: (u32, u32) = (1, 24);

/// Read a document for the old default; push it as the mesh-wide default
/// (unless the document writes `defaultHttpRetryPolicy`, which replaces
/// it). Whether the document was one of Istio's install documents.
pub fn read(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let Some((at, why)) = old_default(root) else {
        return false;
    };
    if facts
        .mesh_defaults
        .iter()
        .any(|p| p.system == System::Istio)
    {
        return true;
    }
    let mut p = super::default_policy(at);
    if let RetryOn::Listed { conditions } = &mut p.retry_on.value {
        conditions.push(Located::default_at(Condition::status(503), at));
    } else {
        p.retry_on = Located::default_at(default_retry_on(at), at);
    }
    p.attempts.value.written_as = format!(
        "no retries block: Istio's default before 1.24 ({why}) retries `503`, the overload signal, {} times with no retry budget",
        super::DEFAULT_RETRIES
    );
    p.name = Some("Istio's default retry policy before 1.24".into());
    facts.mesh_defaults.push(p);
    true
}

/// `1.23`, `"1.22.3"`, `1.22.3-distroless`: before 1.24.
fn before_fix(v: &str) -> bool {
    let mut parts = v.trim().trim_matches('"').split(['.', '-']);
    let major = parts.next().and_then(|x| x.parse::<u32>().ok());
    let minor = parts.next().and_then(|x| x.parse::<u32>().ok());
    matches!((major, minor), (Some(a), Some(b)) if (a, b) < FIXED_IN)
}

fn is_false(y: Yaml<'_>) -> bool {
    y.as_bool() == Some(false)
}

/// Where and why a document says the mesh runs the old default.
fn old_default(root: Yaml<'_>) -> Option<(Span, String)> {
    let kind = root.get("kind").and_then(|k| k.as_str());
    let (values, tag) = match kind {
        Some("IstioOperator") => {
            let spec = root.get("spec")?;
            if let Some(v) = spec.get("compatibilityVersion")
                && v.as_str().is_some_and(before_fix)
            {
                return Some((v.span(), format!("`compatibilityVersion: {}`", v.as_str()?)));
            }
            (spec.get("values"), spec.get("tag"))
        }
        // Helm values of the istiod chart (or `base`'s): a root with
        // `pilot` or `meshConfig`.
        None if root.get("pilot").is_some() || root.get("meshConfig").is_some() => {
            (Some(root), root.path(&["global", "tag"]))
        }
        Some("Deployment") => {
            let containers = root.path(&["spec", "template", "spec", "containers"])?;
            for c in containers.items() {
                for e in c.get("env").map(|e| e.items()).unwrap_or_default() {
                    if e.get("name").and_then(|n| n.as_str()) == Some(FLAG)
                        && let Some(v) = e.get("value")
                        && is_false(v)
                    {
                        return Some((v.span(), format!("`{FLAG}=false` on istiod")));
                    }
                }
            }
            return None;
        }
        _ => return None,
    };
    if let Some(values) = values {
        if let Some(v) = values.path(&["pilot", "env", FLAG])
            && is_false(v)
        {
            return Some((v.span(), format!("`pilot.env.{FLAG}: \"false\"`")));
        }
        if let Some(v) = values.get("compatibilityVersion")
            && v.as_str().is_some_and(before_fix)
        {
            return Some((v.span(), format!("`compatibilityVersion: {}`", v.as_str()?)));
        }
        if let Some(v) = values.path(&["global", "tag"])
            && kind.is_some()
            && v.as_str().is_some_and(before_fix)
        {
            return Some((v.span(), format!("`global.tag: {}`", v.as_str()?)));
        }
    }
    let v = tag?;
    v.as_str()
        .filter(|t| before_fix(t))
        .map(|t| (v.span(), format!("`tag: {t}`")))
}

#[cfg(test)]
mod tests {
    #[test]
    fn versions_before_the_fix() {
        assert!(super::before_fix("1.23"));
        assert!(super::before_fix("1.22.3-distroless"));
        assert!(!super::before_fix("1.24.0"));
        assert!(!super::before_fix("1.30"));
        assert!(!super::before_fix("latest"));
    }
}
