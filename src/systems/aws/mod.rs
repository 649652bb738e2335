//! The AWS SDKs' retry modes.

pub mod extract;
pub mod link;

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
    retry_quota: Some(RETRY_QUOTA),
    ..SystemSpec::plain("AWS SDK", Layer::Sdk)
};

/// The retry quota of the `standard` and `adaptive` modes, the same in
/// every SDK: 500 tokens, 5 per retry, 10 per retry after a timeout, 1
/// back per successful call (aws-sdk-go-v2 `aws/retry/standard.go`
/// `DefaultRetryRateTokens = 500`, `DefaultRetryCost = 5`,
/// `DefaultRetryTimeoutCost = 10`, `DefaultNoRetryIncrement = 1`, commit
/// 1489ddb; botocore `botocore/retries/quota.py` `INITIAL_CAPACITY = 500`
/// and `botocore/retries/standard.py` `_RETRY_COST = 5`,
/// `_TIMEOUT_RETRY_REQUEST = 10`, `_NO_RETRY_INCREMENT = 1`; smithy-rs
/// `rust-runtime/aws-smithy-runtime/src/client/retries/token_bucket.rs`
/// `DEFAULT_CAPACITY = 500`, `DEFAULT_RETRY_COST = 5`,
/// `DEFAULT_RETRY_TIMEOUT_COST = 10` (for transient errors, connection
/// failures too), `PERMIT_REGENERATION_AMOUNT = 1`).
pub const RETRY_QUOTA: super::RetryQuota = super::RetryQuota {
    capacity: 500.0,
    cost: 5.0,
    timeout_cost: 10.0,
    success_increment: 1.0,
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
