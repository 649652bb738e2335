//! Rules of the `idempotency` category.
