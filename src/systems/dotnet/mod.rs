//! .NET: Polly's retry strategy and `Microsoft.Extensions.Http.Resilience`
//! (the standard resilience handler, built on Polly).

pub mod extract;
pub mod model;

use super::{Fixes, OpenCircuit, SystemSpec};
use crate::model::Layer;

/// RL105: Polly's asynchronous policies and pipelines await the delegate
/// (v7 `AsyncRetryPolicy.ExecuteAsync(Func<Task>)`, v8
/// `ResiliencePipeline.ExecuteAsync`); the synchronous ones return what
/// it returns, a task, without looking into it.
const BLIND: &str = "build the policy with `WaitAndRetryAsync` (or `RetryAsync`) and run the operation with `await policy.ExecuteAsync(..)` (Polly v8: `await pipeline.ExecuteAsync(..)`)";

const FIXES: Fixes = Fixes {
    jitter: "set `UseJitter: true` and `BackoffType: Exponential`",
    bound: "set `MaxRetryAttempts` to 3-5",
    blind: BLIND,
    edits: super::edit::FixEdits {
        jitter: Some(use_jitter),
        exponential: Some(exponential_backoff),
        per_try_timeout: Some(attempt_timeout),
        ..super::edit::FixEdits::NONE
    },
    ..Fixes::GENERIC
};

/// `UseJitter: true` in `appsettings*.json` (RL203): a written `false`
/// turned to `true`, else `"UseJitter": true` after the written
/// `BackoffType` (or `Delay`) of the retry options. Polly's
/// `RetryStrategyOptions.UseJitter` is a bool the configuration binder
/// reads from JSON `true`/`false` (App-vNext/Polly
/// `src/Polly.Core/Retry/RetryStrategyOptions.TResult.cs`). Not in C#
/// code, where the options are an object initialiser or a lambda.
fn use_jitter(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    use super::edit::{Format, Value, add_sibling};
    if Format::of(site.path) != Format::Json {
        return None;
    }
    let p = site.policy;
    if p.jitter.is_written() {
        let s = p.jitter.span;
        let written = site.text.get(s.start..s.end)?;
        let at = written.rfind("false")?;
        let span = crate::source::Span::new(s.start + at, s.start + at + "false".len());
        return Some(vec![crate::fix::Edit::new(site.file, span, "true")]);
    }
    if p.delay.provenance != crate::model::Provenance::Written {
        return None;
    }
    let edit = add_sibling(
        site.file,
        site.path,
        site.text,
        p.delay.span,
        "UseJitter",
        &Value::Bool(true),
    )?;
    Some(vec![edit])
}

/// `BackoffType: Exponential` in `appsettings*.json` (RL202): a written
/// `Constant` (or `0`, the enum's number) becomes `"Exponential"`, else
/// `"BackoffType": "Exponential"` is added after the written `Delay`.
/// `UseJitter` is kept, so the waits grow with Polly's decorrelated
/// jitter (App-vNext/Polly 156a9bb `src/Polly.Core/Retry/RetryHelper.cs`,
/// `DelayBackoffType.Exponential` with `UseJitter`). The configuration
/// binder reads the enum by name or number (Polly 243b044
/// `src/Polly.Core/DelayBackoffType.cs`: Constant, Linear, Exponential,
/// numbered 0, 1, 2 in that order). Not in C# code.
fn exponential_backoff(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    use super::edit::{Format, Value, add_sibling};
    if Format::of(site.path) != Format::Json {
        return None;
    }
    let p = site.policy;
    if p.delay.provenance != crate::model::Provenance::Written {
        return None;
    }
    let s = p.delay.span;
    let written = site.text.get(s.start..s.end)?;
    if let Some(key) = written.find("\"BackoffType\"") {
        // The value after the key's colon: a quoted name or a number.
        let after_key = key + "\"BackoffType\"".len();
        let rest = &written[after_key..];
        let colon = rest.find(':')?;
        if !rest[..colon].trim().is_empty() {
            return None;
        }
        let value = &rest[colon + 1..];
        let lead = value.len() - value.trim_start().len();
        let v = value.trim_start();
        let len = if let Some(inner) = v.strip_prefix('"') {
            inner.find('"')? + 2
        } else {
            v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len())
        };
        if len == 0 {
            return None;
        }
        let start = s.start + after_key + colon + 1 + lead;
        let span = crate::source::Span::new(start, start + len);
        return Some(vec![crate::fix::Edit::new(
            site.file,
            span,
            "\"Exponential\"",
        )]);
    }
    let edit = add_sibling(
        site.file,
        site.path,
        site.text,
        s,
        "BackoffType",
        &Value::Str("Exponential".to_string()),
    )?;
    Some(vec![edit])
}

/// A standard resilience handler's attempt timeout of `each` in
/// `appsettings*.json` (RL301, RL302): the written `AttemptTimeout`'s
/// `Timeout` set to it, or `"AttemptTimeout": { "Timeout": ".." }` added
/// after the handler's `Retry` options. The value is a `TimeSpan` as the
/// configuration binder parses it (`hh:mm:ss[.fff]`, the form the
/// handler's own `appsettings` examples use; dotnet/extensions
/// `HttpTimeoutStrategyOptions.Timeout`, a `TimeSpan`).
fn attempt_timeout(
    site: &super::edit::Site<'_>,
    each: std::time::Duration,
) -> Option<Vec<crate::fix::Edit>> {
    use super::edit::{Format, Value, add_sibling};
    let p = site.policy;
    if Format::of(site.path) != Format::Json || p.system != crate::model::System::DotnetStandard {
        return None;
    }
    let t = p.per_try_timeout.as_ref()?;
    let value = timespan(each);
    if t.is_written() {
        // `"Timeout": "00:00:10"`: the quoted string after the key's colon
        // (a TimeSpan's own colons rule out the generic value setter).
        let written = site.text.get(t.span.start..t.span.end)?;
        let after = written.strip_prefix("\"Timeout\"")?.trim_start();
        let quoted = after.strip_prefix(':')?.trim();
        let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
        if inner.is_empty() || inner.contains(['"', '\\']) {
            return None;
        }
        // The string ends the entry: its text ends one byte before the
        // closing quote.
        let at = t.span.start + written.trim_end().len() - 1 - inner.len();
        let span = crate::source::Span::new(at, at + inner.len());
        return Some(vec![crate::fix::Edit::new(site.file, span, value)]);
    }
    // Beside the handler's `Retry` (the policy's anchor), where no
    // `AttemptTimeout` is written (one without `Timeout` is left alone).
    let at = p.span;
    if !site
        .text
        .get(at.start..at.end)?
        .trim_matches('"')
        .eq("Retry")
        || t.span != at
    {
        return None;
    }
    let edit = add_sibling(
        site.file,
        site.path,
        site.text,
        at,
        "AttemptTimeout",
        &Value::Raw(format!("{{ \"Timeout\": \"{value}\" }}")),
    )?;
    Some(vec![edit])
}

/// A `TimeSpan` as `hh:mm:ss`, with milliseconds where there are any
/// (`00:00:03.400`).
fn timespan(d: std::time::Duration) -> String {
    let ms = d.as_millis();
    let s = ms / 1000;
    let base = format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if ms.is_multiple_of(1000) {
        base
    } else {
        format!("{base}.{:03}", ms % 1000)
    }
}

/// An open breaker throws `BrokenCircuitException` (App-vNext/Polly,
/// `src/Polly.Core/CircuitBreaker/BrokenCircuitException.cs`: `class
/// BrokenCircuitException : ExecutionRejectedException`); the retry's
/// default `ShouldHandle` retries every exception but
/// `OperationCanceledException` (`src/Polly.Core/Retry/
/// RetryStrategyOptions.TResult.cs`, `DefaultPredicates.HandleOutcome`), so
/// a retry outside a breaker retries it.
const POLLY_OPEN_CIRCUIT: Option<OpenCircuit> = Some(OpenCircuit {
    error: "BrokenCircuitException",
    supertypes: &["ExecutionRejectedException", "Exception"],
});

// system: Polly
pub static POLLY: SystemSpec = SystemSpec {
    fixes: FIXES,
    open_circuit: POLLY_OPEN_CIRCUIT,
    ..SystemSpec::plain("Polly", Layer::Application)
};

// system: PollyDelayFunction
/// Polly whose waits a function of the attempt computes: a v7
/// `WaitAndRetry(n, attempt => ..)` sleep-duration function, or a v8
/// `DelayGenerator`, which takes precedence over `BackoffType`, `Delay`
/// and `UseJitter` and is not capped by `MaxDelay`
/// (App-vNext/Polly `src/Polly.Core/Retry/RetryStrategyOptions.TResult.cs`,
/// 8.x: "The generator can override the delay generated by the retry
/// strategy"). Jitter is then added in that function, not by `UseJitter`.
pub static POLLY_DELAY_FUNCTION: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "compute a randomised, growing wait in the delay function (v7 `WaitAndRetry(n, attempt => ..)`, v8 `DelayGenerator`): Polly.Contrib.WaitAndRetry's `Backoff.DecorrelatedJitterBackoffV2`, or a random share of the backoff; or drop the function and use Polly v8's `BackoffType = DelayBackoffType.Exponential` with `UseJitter = true`",
        bound: "pass a small retry count (3-5): `MaxRetryAttempts` in Polly v8, the count of `WaitAndRetry(..)`/`Retry(..)` in v7",
        blind: BLIND,
        ..Fixes::GENERIC
    },
    open_circuit: POLLY_OPEN_CIRCUIT,
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
