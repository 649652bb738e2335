//! Rules of the `budget` category (RL6xx): whether retries are held to a
//! share of the traffic.

pub mod excessive_retry_budget;
pub mod missing_retry_budget;

use crate::model::System;

/// How to add a retry budget in this system's own words.
pub fn budget_fix(system: &System) -> &'static str {
    match system {
        System::Envoy => {
            "add `retry_budget` to the cluster's `circuit_breakers.thresholds` (for example `budget_percent: {value: 20}` and `min_retry_concurrency: 3`), so retries stay a fraction of the active requests"
        }
        System::Grpc => {
            "add `retryThrottling` (`maxTokens`, `tokenRatio`) to the service config, so retries stop while most calls fail"
        }
        System::AwsSdk => {
            "use the `standard` or `adaptive` retry mode, whose retry quota stops retries while most calls fail"
        }
        System::Linkerd => {
            "set `retryBudget` on the ServiceProfile (`retryRatio`, `minRetriesPerSecond`, `ttl`)"
        }
        _ => "limit retries to a fraction of the requests with a retry budget or token bucket",
    }
}
