//! Resilience4j's `Retry` (`io.github.resilience4j.retry`).

use super::{Fixes, OpenCircuit, SystemSpec};
use crate::model::Layer;

pub static SPEC: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `enableRandomizedWait: true` (with `randomizedWaitFactor`, default 0.5) and `enableExponentialBackoff: true`",
        bound: "set `maxAttempts` to 3-5 (it counts the first call)",
        predicate: "list the transient failures in `retryExceptions` (e.g. `java.io.IOException`, `java.util.concurrent.TimeoutException`) or set `retryExceptionPredicate`",
        ..Fixes::GENERIC
    },
    // `CircuitBreaker` throws `CallNotPermittedException` (a
    // `RuntimeException`) while open.
    open_circuit: Some(OpenCircuit {
        error: "CallNotPermittedException",
        supertypes: &["RuntimeException", "Exception", "Throwable"],
    }),
    ..SystemSpec::plain("Resilience4j", Layer::Application)
};
