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
        edits: super::edit::FixEdits {
            budget: Some(standard_mode),
            budget_title: Some(
                "use the `standard` retry mode (its retry quota stops retries while most calls fail; its default attempts and delays differ from legacy's)",
            ),
            ..super::edit::FixEdits::NONE
        },
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

/// The written `legacy` retry mode replaced by `standard` (RL601), where
/// the policy's mode is written as the word `legacy` (a profile's
/// `retry_mode = legacy`, `AWS_RETRY_MODE=legacy` in a Dockerfile, a
/// compose file or a workload's env, botocore's `{'mode': 'legacy'}`).
/// Standard mode has the retry quota ([`RETRY_QUOTA`]); it also changes
/// the default attempts (3, where legacy's are SDK-specific: botocore's 5)
/// and delays, which the fix's title says. `None` where no mode is
/// written (adding one is a new setting in a file of its own kind) or the
/// span holds the word other than once.
fn standard_mode(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    // The mode's place: the delay is anchored at it (`extract::policy`).
    let s = site.policy.delay.span;
    let written = site.text.get(s.start..s.end)?;
    let word = |i: usize, len: usize| {
        let b = written.as_bytes();
        let glued = |c: Option<&u8>| c.is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
        let before = i.checked_sub(1).and_then(|j| b.get(j));
        !glued(before) && !glued(b.get(i + len))
    };
    let found: Vec<usize> = written
        .match_indices("legacy")
        .map(|(i, _)| i)
        .filter(|&i| word(i, "legacy".len()))
        .collect();
    let &[at] = found.as_slice() else {
        return None;
    };
    let span = crate::source::Span::new(s.start + at, s.start + at + "legacy".len());
    Some(vec![crate::fix::Edit::new(site.file, span, "standard")])
}
