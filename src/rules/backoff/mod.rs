//! Rules of the `backoff` category (RL2xx): how often and how fast a policy
//! retries.

pub mod backoff_cap_too_small;
pub mod excessive_attempts;
pub mod fixed_delay;
pub mod jitter_clipped_by_cap;
pub mod missing_backoff;
pub mod retry_after_unbounded;
pub mod retry_window_too_short;
pub mod unbounded_retries;
pub mod unjittered_backoff;
