//! Rules of the `conditions` category.
pub mod retries_open_circuit;
