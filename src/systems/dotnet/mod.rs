//! .NET: Polly's retry strategy and `Microsoft.Extensions.Http.Resilience`
//! (the standard resilience handler, built on Polly).

pub mod extract;
pub mod model;

use super::{Fixes, OpenCircuit, SystemSpec};
use crate::model::Layer;

const FIXES: Fixes = Fixes {
    jitter: "set `UseJitter: true` and `BackoffType: Exponential`",
    bound: "set `MaxRetryAttempts` to 3-5",
    ..Fixes::GENERIC
};

// system: Polly
pub static POLLY: SystemSpec = SystemSpec {
    fixes: FIXES,
    // An open breaker throws `BrokenCircuitException` (App-vNext/Polly,
    // `src/Polly.Core/CircuitBreaker/BrokenCircuitException.cs`: `class
    // BrokenCircuitException : ExecutionRejectedException`); the retry's
    // default `ShouldHandle` retries every exception but
    // `OperationCanceledException` (`src/Polly.Core/Retry/
    // RetryStrategyOptions.TResult.cs`, `DefaultPredicates.HandleOutcome`),
    // so a retry outside a breaker retries it.
    open_circuit: Some(OpenCircuit {
        error: "BrokenCircuitException",
        supertypes: &["ExecutionRejectedException", "Exception"],
    }),
    ..SystemSpec::plain("Polly", Layer::Application)
};

// system: DotnetStandard
pub static STANDARD: SystemSpec = SystemSpec {
    fixes: FIXES,
    // dotnet/extensions `Microsoft.Extensions.Http.Resilience`,
    // `AddStandardResilienceHandler`: the pipeline is rate limiter, total
    // timeout, retry, circuit breaker (`HttpStandardResilienceOptions.
    // CircuitBreaker`), attempt timeout: the retry always wraps a breaker.
    retries_limited_by_default: true,
    ..SystemSpec::plain(".NET standard resilience", Layer::Application)
};

/// .NET `appsettings*.json` resilience settings.
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "dotnet",
    needles: extract::NEEDLES,
    read: extract::extract_doc,
    order: 90,
}];
