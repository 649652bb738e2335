//! The AWS SDKs' retry modes.

pub mod extract;

use super::{Endpoint, Fixes, SystemSpec};
use crate::model::Layer;

// system: AwsSdk
pub static SPEC: SystemSpec = SystemSpec {
    offers_budget: true,
    fixes: Fixes {
        budget: "use the `standard` or `adaptive` retry mode, whose retry quota stops retries while most calls fail",
        explicit: "set `retry_mode` (`standard`) and `max_attempts` in the profile (`max_attempts = 1` turns the SDK's retries off), so that they are visible and counted",
        ..Fixes::GENERIC
    },
    endpoint: Some(&ENDPOINT),
    ..SystemSpec::plain("AWS SDK", Layer::Sdk)
};

/// AWS: every `*.amazonaws.com` host, and every SDK client.
pub static ENDPOINT: Endpoint = Endpoint {
    service: "aws",
    host_suffix: ".amazonaws.com",
    via: "AWS SDK client",
};

/// AWS SDK settings in workload environments (`AWS_MAX_ATTEMPTS`, ...).
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "aws",
    needles: extract::ENV_NEEDLES,
    read: extract::extract_env_doc,
    order: 100,
}];
