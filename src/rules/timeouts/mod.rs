//! Rules of the `timeouts` category (RL3xx).

pub mod missing_per_try_timeout;
pub mod missing_timeout;
pub mod retries_exceed_timeout;
