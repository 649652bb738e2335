//! Settings rules (RL9xx): reported by extractors while they read a file.

pub mod invalid_setting;
pub mod unknown_setting;
pub mod unparsable_file;
pub mod unused_suppression;
