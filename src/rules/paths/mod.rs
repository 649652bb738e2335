//! Rules of the `paths` category (RL4xx): what retries add up to along a
//! call path.

pub mod implicit_retries;
