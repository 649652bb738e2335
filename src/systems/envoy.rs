//! Envoy's route retry policy.

use super::{Fixes, SystemSpec};
use crate::model::Layer;

pub static SPEC: SystemSpec = SystemSpec {
    offers_budget: true,
    fixes: Fixes {
        budget: "add `retry_budget` to the cluster's `circuit_breakers.thresholds` (for example `budget_percent: {value: 20}` and `min_retry_concurrency: 3`), so retries stay a fraction of the active requests",
        unbudgeted: "only the `max_retries` circuit breaker (a fixed number of concurrent retries, 3 by default) limits them, however much of the traffic fails",
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Envoy", Layer::Proxy)
};
