//! Kubernetes Gateway API `HTTPRoute` retries.

pub mod extract;

use super::{Fixes, SystemSpec};
use crate::model::Layer;

// system: GatewayApi
pub static SPEC: SystemSpec = SystemSpec {
    fixes: Fixes {
        edits: super::edit::FixEdits {
            drop_conditions: Some(super::edit::drop_listed_in_config),
            per_try_timeout: Some(super::edit::set_written_per_try_go),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Gateway API", Layer::Proxy)
};

/// Gateway API routes (and Linkerd's policy resources on them).
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "gatewayapi",
    needles: &["gateway.networking.k8s.io", "policy.linkerd.io"],
    read: extract::extract,
    order: 40,
}];
