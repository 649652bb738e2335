//! Resilience4j's `Retry` (`io.github.resilience4j.retry`).

pub mod extract;

use super::{Fixes, OpenCircuit, SystemSpec};
use crate::model::Layer;
use std::time::Duration;

// system: Resilience4j
pub static SPEC: SystemSpec = SystemSpec {
    fixes: Fixes {
        jitter: "set `enableRandomizedWait: true` (with `randomizedWaitFactor`, default 0.5) and `enableExponentialBackoff: true`",
        bound: "set `maxAttempts` to 3-5 (it counts the first call)",
        predicate: "list the transient failures in `retryExceptions` (e.g. `java.io.IOException`, `java.util.concurrent.TimeoutException`) or set `retryExceptionPredicate`",
        edits: super::edit::FixEdits {
            jitter: Some(jitter_edits),
            predicate: Some(predicate_edits),
            exponential: Some(exponential_edits),
            drop_conditions: Some(super::edit::drop_listed_in_config),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    // `CircuitBreaker` throws `CallNotPermittedException` (a
    // `RuntimeException`) while open.
    open_circuit: Some(OpenCircuit {
        error: "CallNotPermittedException",
        supertypes: &["RuntimeException", "Exception", "Throwable"],
    }),
    named_instances: true,
    ..SystemSpec::plain("Resilience4j", Layer::Application)
};

/// A `CircuitBreaker`'s settings when none are configured (resilience4j
/// `resilience4j-circuitbreaker/src/main/java/io/github/resilience4j/circuitbreaker/CircuitBreakerConfig.java`,
/// commit 027f1a9: `DEFAULT_FAILURE_RATE_THRESHOLD = 50` (percent),
/// `DEFAULT_MINIMUM_NUMBER_OF_CALLS = 100`, `DEFAULT_SLIDING_WINDOW_SIZE =
/// 100` with `DEFAULT_SLIDING_WINDOW_TYPE = COUNT_BASED`,
/// `DEFAULT_WAIT_DURATION_IN_OPEN_STATE = 60` seconds,
/// `DEFAULT_PERMITTED_CALLS_IN_HALF_OPEN_STATE = 10`).
pub const BREAKER_DEFAULTS: crate::model::BreakerSettings = crate::model::BreakerSettings {
    failure_ratio: 0.5,
    min_calls: 100,
    window: crate::model::BreakerWindow::Calls { count: 100 },
    open_for: Duration::from_secs(60),
    half_open_calls: 10,
};

/// `maxAttempts` when none is set, the first call included (resilience4j
/// `resilience4j-retry/src/main/java/io/github/resilience4j/retry/RetryConfig.java`:
/// `DEFAULT_MAX_ATTEMPTS = 3`).
pub const DEFAULT_MAX_ATTEMPTS: u64 = 3;

/// The words of a defaulted `maxAttempts`, in both the configuration and
/// the code.
pub fn default_attempts_text() -> String {
    format!("maxAttempts: {DEFAULT_MAX_ATTEMPTS} (default)")
}

/// The fixed wait when no `waitDuration` is set (the same file:
/// `DEFAULT_WAIT_DURATION = 500`, milliseconds; also
/// `IntervalFunction.DEFAULT_INITIAL_INTERVAL`).
pub const DEFAULT_WAIT: Duration = Duration::from_millis(500);

/// The exponential back-off's multiplier when none is set (resilience4j
/// `resilience4j-core/src/main/java/io/github/resilience4j/core/IntervalFunction.java`:
/// `DEFAULT_MULTIPLIER = 1.5`).
pub const DEFAULT_MULTIPLIER: f64 = 1.5;

/// The randomised wait's factor when none is set (the same file:
/// `DEFAULT_RANDOMIZATION_FACTOR = 0.5`): waits are uniform in
/// `[d(1-f), d(1+f)]`.
pub const DEFAULT_RANDOMIZATION_FACTOR: f64 = 0.5;

/// Resilience4j's properties are read by the Spring reader.
pub const DOC_READERS: &[crate::extract::DocReader] = &[];

/// Turn on the randomised wait: `enableRandomizedWait: false` becomes
/// `true`, or the key is added next to the written wait (`waitDuration`,
/// `enableExponentialBackoff`) in the file's format. The reader takes
/// exponential backoff with `enableRandomizedWait` as the exponential
/// random backoff (`IntervalFunction.ofExponentialRandomBackoff`).
fn jitter_edits(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    use super::edit::{Value, add_sibling};
    let p = site.policy;
    if p.jitter.is_written() {
        let s = p.jitter.span;
        let written = site.text.get(s.start..s.end)?;
        // `enableRandomizedWait: false`; in code the jitter is the
        // interval function, handled below.
        if let Some(at) = written.rfind("false") {
            let span = crate::source::Span::new(s.start + at, s.start + at + "false".len());
            return Some(vec![crate::fix::Edit::new(site.file, span, "true")]);
        }
    }
    if p.delay.is_default() || p.delay.provenance != crate::model::Provenance::Written {
        return None;
    }
    if site.path.extension().is_some_and(|e| e == "java") {
        return java_random_backoff(site);
    }
    let edit = add_sibling(
        site.file,
        site.path,
        site.text,
        p.delay.span,
        "enableRandomizedWait",
        &Value::Bool(true),
    )?;
    Some(vec![edit])
}

/// Grow the written constant wait: `enableExponentialBackoff: true` next
/// to it (YAML or properties, in the key's spelling). Resilience4j then
/// multiplies the wait by `DEFAULT_MULTIPLIER` each attempt and, with
/// `enableRandomizedWait` on, randomises it
/// (`IntervalFunction.ofExponentialRandomBackoff`). Not made where the
/// file writes the key already (`enableExponentialBackoff: false` in
/// another block or profile: which one is meant is a guess) nor in code.
fn exponential_edits(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    use super::edit::{Value, add_sibling};
    let p = site.policy;
    if p.delay.provenance != crate::model::Provenance::Written
        || site.path.extension().is_some_and(|e| e == "java")
    {
        return None;
    }
    let squashed: String = site
        .text
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    if squashed.contains("enableexponentialbackoff") {
        return None;
    }
    let edit = add_sibling(
        site.file,
        site.path,
        site.text,
        p.delay.span,
        "enableExponentialBackoff",
        &Value::Bool(true),
    )?;
    Some(vec![edit])
}

/// The exceptions the predicate fix retries: failures to connect or read
/// and timeouts, as the `predicate` fix text names them.
pub const TRANSIENT_EXCEPTIONS: &[&str] = &[
    "java.io.IOException",
    "java.util.concurrent.TimeoutException",
];

/// Add `retryExceptions` (the transient failures) beside the written
/// attempts or wait: Resilience4j then retries only those
/// (`RetryConfig.retryExceptions`: "Configures a list of error classes
/// that are recorded as a failure and thus are retried").
fn predicate_edits(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    use super::edit::{Value, add_sibling};
    use crate::model::Provenance;
    let p = site.policy;
    let at = if p.attempts.provenance == Provenance::Written {
        p.attempts.span
    } else if p.delay.provenance == Provenance::Written {
        p.delay.span
    } else {
        return None;
    };
    let list = Value::List(TRANSIENT_EXCEPTIONS.iter().map(|s| s.to_string()).collect());
    Some(vec![add_sibling(
        site.file,
        site.path,
        site.text,
        at,
        "retryExceptions",
        &list,
    )?])
}

/// In code: `IntervalFunction.ofExponentialBackoff(..)` with at most two
/// arguments becomes `ofExponentialRandomBackoff(..)`, which has the same
/// overloads (`()`, `(long|Duration)`, `(long|Duration, double)`) and
/// randomises each wait by `DEFAULT_RANDOMIZATION_FACTOR` (resilience4j
/// `resilience4j-core/src/main/java/io/github/resilience4j/core/IntervalFunction.java`).
/// The three-argument form's third is a maximum interval there and a
/// randomisation factor here, so it is left alone.
fn java_random_backoff(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    const OLD: &str = "ofExponentialBackoff";
    let s = site.policy.delay.span;
    let written = site.text.get(s.start..s.end)?;
    let at = written.find(&format!("{OLD}("))?;
    let args = &written[at + OLD.len() + 1..];
    let (mut depth, mut commas, mut closed) = (0i32, 0, false);
    for c in args.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                closed = true;
                break;
            }
            ')' => depth -= 1,
            ',' if depth == 0 => commas += 1,
            _ => {}
        }
    }
    if !closed || commas > 1 {
        return None;
    }
    let span = crate::source::Span::new(s.start + at, s.start + at + OLD.len());
    Some(vec![crate::fix::Edit::new(
        site.file,
        span,
        "ofExponentialRandomBackoff",
    )])
}
