//! Linkerd's retries (ServiceProfile routes and their `retryBudget`).

pub mod extract;

use super::{Fixes, SystemSpec};
use crate::model::Layer;

// system: Linkerd
pub static SPEC: SystemSpec = SystemSpec {
    offers_budget: true,
    fixes: Fixes {
        budget: "set `retryBudget` on the ServiceProfile (`retryRatio`, `minRetriesPerSecond`, `ttl`)",
        edits: super::edit::FixEdits {
            per_try_timeout: Some(super::edit::set_written_per_try_go),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Linkerd", Layer::Mesh)
};

/// Linkerd ServiceProfiles and annotations.
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "linkerd",
    needles: &["linkerd.io"],
    read: extract::extract,
    order: 50,
}];
