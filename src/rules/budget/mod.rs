//! Rules of the `budget` category (RL6xx): whether retries are held to a
//! share of the traffic.

pub mod excessive_retry_budget;
pub mod missing_retry_budget;
pub mod retries_overload_without_budget;
