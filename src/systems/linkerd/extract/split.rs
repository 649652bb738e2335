//! An SMI `TrafficSplit` (`split.smi-spec.io`, implemented by Linkerd's
//! SMI extension; issue 17, stop 46): the clients of the root Service
//! (`spec.service`, which selects no pods of its own) are sent to the
//! `backends` Services by weight. Each backend with a weight other than
//! zero is a hop from the root Service, with no retries of its own (the
//! caller's proxy picks the backend; the retries are those of the call to
//! the root). SMI spec `traffic-split/v1alpha4.md` ("service", "backends",
//! "weight"), servicemeshinterface/smi-spec.

use crate::extract::{DocCtx, Facts};
use crate::model::CallEdge;

/// The API group.
pub const API_GROUP: &str = "split.smi-spec.io/";

/// At most this many backends are read from one split.
const MAX_BACKENDS: usize = 64;

/// Read a `TrafficSplit`; `false` when the document is none.
pub fn traffic_split(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let api = root
        .get("apiVersion")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    if !api.starts_with(API_GROUP)
        || root.get("kind").and_then(|v| v.as_str()) != Some("TrafficSplit")
    {
        return false;
    }
    let name = root
        .path(&["metadata", "name"])
        .and_then(|v| v.as_str())
        .unwrap_or("unnamed");
    let Some(apex) = root
        .path(&["spec", "service"])
        .and_then(|v| v.as_str())
        .map(str::trim)
        .filter(|s| !s.is_empty())
    else {
        return false;
    };
    let mut drew = false;
    for b in root
        .path(&["spec", "backends"])
        .map(|b| b.items())
        .unwrap_or_default()
        .into_iter()
        .take(MAX_BACKENDS)
    {
        let Some(service) = b.get("service") else {
            continue;
        };
        let Some(callee) = service.as_str().map(str::trim).filter(|s| !s.is_empty()) else {
            continue;
        };
        // A weight of zero sends it nothing; the root as its own backend
        // is its own pods, no hop.
        let zero = b
            .get("weight")
            .and_then(|w| w.as_str())
            .is_some_and(|w| matches!(w.trim(), "0" | "0m"));
        if zero || callee == apex {
            continue;
        }
        facts.edges.push(CallEdge {
            client: None,
            caller: Some(apex.to_string()),
            callee: callee.to_string(),
            span: service.span(),
            policies: Vec::new(),
            via: format!("SMI TrafficSplit `{name}`"),
            protocol: None,
        });
        drew = true;
    }
    drew
}
