//! Rules of the `timeouts` category (RL3xx).

pub mod missing_per_try_timeout;
pub mod missing_timeout;
pub mod nested_timeout_inversion;
pub mod retries_exceed_timeout;
