//! Rules of the `idempotency` category.
pub mod idempotency_key_in_retry;
