//! Circuit breakers a retry is composed around, as far as their settings
//! are read (the simulation uses them).

use super::Located;
use serde::Serialize;
use std::time::Duration;

/// A circuit breaker's settings, its system's defaults filled in.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct BreakerSettings {
    /// The failure share that opens it, 0 to 1.
    pub failure_ratio: f64,
    /// Calls its window must hold before it judges.
    pub min_calls: u64,
    pub window: BreakerWindow,
    /// How long it stays open.
    pub open_for: Duration,
    /// Calls it lets through half-open before it closes or opens again.
    pub half_open_calls: u64,
}

kind_tagged! {
    "BreakerWindow";
    /// What a circuit breaker judges: its last calls, or the last stretch of
    /// time.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub enum BreakerWindow {
        Calls { count: u64 },
        Time { length: Duration },
    }
}

/// The circuit breaker a retry is composed around (the retry outside).
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct WrappedBreaker {
    /// Its instance name where its settings are configured by name
    /// (`@CircuitBreaker(name = "payments")`): the link stage fills
    /// `settings` from the configuration.
    pub name: Option<String>,
    pub settings: Option<Located<BreakerSettings>>,
}
