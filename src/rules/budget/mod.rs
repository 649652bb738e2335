//! Rules of the `budget` category (RL6xx): whether retries are held to a
//! share of the traffic.

pub mod excessive_retry_budget;
pub mod missing_retry_budget;
pub mod retries_overload_without_budget;

use crate::model::{Budget, Located};

/// Whether `budget` holds the retries to a share of the traffic (a ratio,
/// a token bucket, a retry quota). A retry circuit breaker
/// (`Budget::Concurrency`, a fixed number of retries in flight) is no such
/// budget: RL601 and RL207 judge a policy under one as having none, and
/// RL603 judges its size.
pub fn proportional(budget: &Option<Located<Budget>>) -> bool {
    budget
        .as_ref()
        .is_some_and(|b| !matches!(b.value, Budget::Concurrency { .. }))
}
