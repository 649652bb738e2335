//! gRPC's service-config retry policy.

pub mod extract;
pub mod link;

use super::{Fixes, SystemSpec};
use crate::model::Layer;

// system: Grpc
pub static SPEC: SystemSpec = SystemSpec {
    offers_budget: true,
    fixes: Fixes {
        jitter: "gRPC jitters its back-off already",
        budget: "add `retryThrottling` (`maxTokens`, `tokenRatio`) to the service config, so retries stop while most calls fail",
        edits: super::edit::FixEdits {
            drop_conditions: Some(super::edit::drop_listed_in_config),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("gRPC", Layer::Sdk)
};

/// gRPC service configs (`methodConfig`).
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "grpc",
    needles: &["methodConfig", "methodconfig", "MethodConfig"],
    read: extract::extract_doc,
    order: 80,
}];
