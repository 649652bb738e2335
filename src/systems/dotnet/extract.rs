//! .NET `appsettings*.json`: sections bound to the standard HTTP resilience
//! handler's options (`HttpStandardResilienceOptions` of
//! Microsoft.Extensions.Http.Resilience), to the standard hedging handler's
//! (`HttpStandardHedgingResilienceOptions`, a `Hedging` or `Endpoint`
//! object; see [`hedging`]) and to Polly v8 `RetryStrategyOptions`.
//!
//! A section is read as standard-handler options when it has a `Retry`,
//! `AttemptTimeout`, `TotalRequestTimeout` or `CircuitBreaker` object with
//! that type's keys, and as Polly retry options when it has
//! `MaxRetryAttempts`, `BackoffType` or `UseJitter` itself. Comments and
//! trailing commas are allowed (the JSON configuration provider accepts
//! them).
//!
//! Binding follows `Microsoft.Extensions.Configuration.Binder`: keys match
//! properties case-insensitively; a key that matches no property is
//! silently skipped (RL901, with a did-you-mean: `Backoff` leaves
//! `BackoffType` at its default); a value that does not convert (`"2s"`
//! for a `TimeSpan`, `"Linar"` for an enum) throws at start-up (RL902).
//! `TimeSpan` values are read by `TimeSpan.Parse` with the invariant
//! culture: `[-][d.]hh:mm[:ss[.fffffff]]`, or a whole number of DAYS (`"2"`
//! is two days).
//!
//! Defaults:
//! - standard handler (dotnet/extensions `HttpStandardResilienceOptions`,
//!   `HttpRetryStrategyOptions`): `MaxRetryAttempts` 3 retries (4
//!   attempts), `BackoffType` Exponential, `UseJitter` true, `Delay` 2s,
//!   `MaxDelay` none, `ShouldRetryAfterHeader` true; `AttemptTimeout` 10s;
//!   `TotalRequestTimeout` 30s; retries `HttpRequestException`, timeouts,
//!   5xx, 408 and 429 (`HttpClientResiliencePredicates.IsTransientHttpOutcome`)
//!   for every HTTP method unless `DisableForUnsafeHttpMethods()` is called
//!   in code; `HttpStandardResilienceOptionsCustomValidator` rejects an
//!   attempt timeout above the total timeout, a circuit-breaker sampling
//!   duration below twice the attempt timeout, and retry delays that add up
//!   to more than the total timeout (checked here without jitter, where
//!   the sum is exact);
//! - Polly v8 (`RetryStrategyOptions<TResult>`, `RetryConstants`):
//!   `MaxRetryAttempts` 3 (0 to `int.MaxValue`, which is unbounded),
//!   `BackoffType` Constant, `UseJitter` false, `Delay` 2s (0 to 1 day),
//!   `MaxDelay` none, every exception but `OperationCanceledException`.
//!   Linear is `Delay x n` (the n-th retry); Exponential is `Delay x 2^n`;
//!   with jitter it is Polly's decorrelated
//!   jitter ("DecorrelatedJitterBackoffV2"); a constant or linear delay with
//!   jitter varies by ±25%; `MaxDelay` caps the delay after the jitter.
//!   `TimeoutStrategyOptions.Timeout` is 10 ms to 1 day.

use super::model::*;
use crate::diag::{invalid_setting, unknown_setting};
use crate::extract::{DocCtx, Facts};
use crate::keys::did_you_mean;
use crate::model::*;
use crate::source::Span;
use crate::yaml::{Entry, Yaml};
use std::time::Duration;

mod hedging;

use hedging::*;

/// Substrings that make a JSON file worth parsing for this extractor.
pub const NEEDLES: &[&str] = &[
    "MaxRetryAttempts",
    "BackoffType",
    "UseJitter",
    "AttemptTimeout",
    "TotalRequestTimeout",
    "\"Retry\"",
    "MaxHedgedAttempts",
    "\"Hedging\"",
];

const STANDARD_KEYS: &[&str] = &[
    "RateLimiter",
    "TotalRequestTimeout",
    "Retry",
    "CircuitBreaker",
    "AttemptTimeout",
];
const RETRY_KEYS: &[&str] = &[
    "MaxRetryAttempts",
    "BackoffType",
    "UseJitter",
    "Delay",
    "MaxDelay",
    "ShouldRetryAfterHeader",
    "Name",
];
const POLLY_MARKERS: &[&str] = &["MaxRetryAttempts", "BackoffType", "UseJitter"];
const TIMEOUT_KEYS: &[&str] = &["Timeout", "Name"];
const BREAKER_KEYS: &[&str] = &[
    "FailureRatio",
    "MinimumThroughput",
    "SamplingDuration",
    "BreakDuration",
    "Name",
];
const RATE_LIMITER_KEYS: &[&str] = &["DefaultRateLimiterOptions", "Name"];
/// `HttpStandardHedgingResilienceOptions` (`AddStandardHedgingHandler`).
const HEDGING_OPTIONS_KEYS: &[&str] = &["TotalRequestTimeout", "Hedging", "Endpoint"];
/// `HttpHedgingStrategyOptions` (Polly `HedgingStrategyOptions`).
const HEDGING_KEYS: &[&str] = &["MaxHedgedAttempts", "Delay", "Name"];
/// `HedgingEndpointOptions`.
const ENDPOINT_KEYS: &[&str] = &["RateLimiter", "CircuitBreaker", "Timeout"];

/// `int.MaxValue`: Polly's "retry for ever".
const MAX_DEPTH: usize = 64;

/// Whether a file name is an `appsettings*.json` (lower-cased name;
/// `orders.appsettings.json` too).
pub fn is_appsettings(name: &str) -> bool {
    name.contains("appsettings") && name.ends_with(".json")
}

pub fn extract_doc(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let name = ctx
        .path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if !is_appsettings(&name) {
        return false;
    }
    let root = ctx.root();
    let mut found = false;
    // Depth-first over the objects, with their configuration paths.
    let mut stack: Vec<(Yaml<'_>, String, Span, usize)> =
        vec![(root, String::new(), root.span(), 0)];
    while let Some((node, path, key_span, depth)) = stack.pop() {
        if !node.is_map() || depth > MAX_DEPTH {
            continue;
        }
        let entries = node.entries();
        if is_hedging(&entries) {
            hedging(&entries, &path, key_span, facts);
            found = true;
            continue;
        }
        if is_standard(&entries) {
            standard(&entries, &path, key_span, facts);
            found = true;
            continue;
        }
        if !path.is_empty()
            && entries.iter().any(|e| is_key(e.key, POLLY_MARKERS))
            && !foreign(&entries, RETRY_KEYS)
        {
            polly(&entries, &path, key_span, facts);
            found = true;
            continue;
        }
        for e in entries.iter().rev() {
            if e.value.is_map() {
                let p = if path.is_empty() {
                    e.key.to_string()
                } else {
                    format!("{path}:{}", e.key)
                };
                stack.push((e.value, p, e.key_span, depth + 1));
            }
        }
    }
    found
}

fn is_key(key: &str, known: &[&str]) -> bool {
    known.iter().any(|k| k.eq_ignore_ascii_case(key))
}

pub(crate) fn find<'f>(entries: &[Entry<'f>], key: &str) -> Option<Entry<'f>> {
    // The configuration keeps the last of keys that differ only in case.
    entries
        .iter()
        .rev()
        .find(|e| e.key.eq_ignore_ascii_case(key))
        .copied()
}

/// Whether an object has a key that is neither one of `known` nor a
/// near-miss of one: then it binds to some application class, not to the
/// resilience options, and is left alone.
fn foreign(entries: &[Entry<'_>], known: &[&str]) -> bool {
    entries
        .iter()
        .any(|e| !is_key(e.key, known) && did_you_mean(e.key, known.iter().copied()).is_none())
}

/// Whether `key` holds an object of `inner`'s keys (and no other).
fn has_object(entries: &[Entry<'_>], key: &str, inner: &[&str]) -> bool {
    find(entries, key).is_some_and(|e| {
        let fields = e.value.entries();
        e.value.is_map() && fields.iter().any(|x| is_key(x.key, inner)) && !foreign(&fields, inner)
    })
}

/// A `HttpStandardHedgingResilienceOptions`-shaped object: a `Hedging` or
/// an `Endpoint` of their own keys (a `TotalRequestTimeout` alone is the
/// standard handler's as much as the hedging handler's).
fn is_hedging(entries: &[Entry<'_>]) -> bool {
    has_object(entries, "Hedging", HEDGING_KEYS) || has_object(entries, "Endpoint", ENDPOINT_KEYS)
}

/// A `HttpStandardResilienceOptions`-shaped object.
fn is_standard(entries: &[Entry<'_>]) -> bool {
    let has = |key: &str, inner: &[&str]| has_object(entries, key, inner);
    has("Retry", RETRY_KEYS)
        || has("AttemptTimeout", &["Timeout"])
        || has("TotalRequestTimeout", &["Timeout"])
        || (has("CircuitBreaker", BREAKER_KEYS) && find(entries, "Retry").is_some())
}

/// Report keys of an object that bind to nothing.
fn check_keys(entries: &[Entry<'_>], known: &[&str], what: &str, facts: &mut Facts) {
    for e in entries {
        if !is_key(e.key, known) {
            facts.diagnostics.push(unknown_setting::unknown_key(
                e.key_span,
                e.key,
                what,
                known.iter().copied(),
            ));
        }
    }
}

/// A scalar as the binder sees it (JSON numbers and booleans as text).
fn text<'f>(v: Yaml<'f>) -> Option<&'f str> {
    v.as_str().map(str::trim)
}

fn bad(facts: &mut Facts, e: &Entry<'_>, why: &str) {
    facts.diagnostics.push(invalid_setting::value(
        e.value.span(),
        e.key,
        text(e.value).unwrap_or(e.value.kind_name()),
        why,
    ));
}

fn boolean(e: &Entry<'_>, facts: &mut Facts) -> Option<bool> {
    match text(e.value).map(str::to_ascii_lowercase).as_deref() {
        Some("true") => Some(true),
        Some("false") => Some(false),
        _ => {
            bad(
                facts,
                e,
                "not `true` or `false`: the configuration binder throws at start-up",
            );
            None
        }
    }
}

/// A `TimeSpan` within `range`, or a report.
fn timespan(e: &Entry<'_>, range: (Duration, Duration), facts: &mut Facts) -> Option<Duration> {
    let t = text(e.value).unwrap_or("");
    match parse_timespan(t) {
        Ok(d) if d < range.0 || d > range.1 => {
            bad(
                facts,
                e,
                &format!(
                    "`{t}` reads as {}, outside the allowed {} to {}: options validation fails at start-up",
                    crate::duration::human(d),
                    crate::duration::human(range.0),
                    crate::duration::human(range.1)
                ),
            );
            None
        }
        Ok(d) => Some(d),
        Err(why) => {
            bad(facts, e, &why);
            None
        }
    }
}

pub use crate::duration::parse_dotnet_timespan as parse_timespan;

fn read_retry(entries: &[Entry<'_>], what: &str, facts: &mut Facts) -> RetryRead {
    check_keys(entries, RETRY_KEYS, what, facts);
    let mut r = RetryRead {
        attempts: None,
        backoff: None,
        jitter: None,
        delay: None,
        max_delay: None,
        retry_after: None,
    };
    if let Some(e) = find(entries, "MaxRetryAttempts") {
        let t = text(e.value).unwrap_or("");
        match t.parse::<i64>() {
            Ok(n) if n == INT_MAX => {
                r.attempts = Some((
                    AttemptCount::Unbounded,
                    format!("{}: {n} (int.MaxValue: retry for ever)", e.key),
                    e.span(),
                ))
            }
            Ok(n) if (1..INT_MAX).contains(&n) => {
                r.attempts = Some((
                    AttemptCount::Finite(n as u64 + 1),
                    format!("{}: {n} (retries)", e.key),
                    e.span(),
                ))
            }
            // Polly 8 validates `[Range(0, RetryConstants.MaxRetryCount)]`
            // (App-vNext/Polly, `src/Polly.Core/Retry/
            // RetryStrategyOptions.TResult.cs`, 8.x): 0 is the first call
            // alone.
            Ok(0) => {
                r.attempts = Some((
                    AttemptCount::Finite(1),
                    format!("{}: 0 (no retry)", e.key),
                    e.span(),
                ))
            }
            Ok(_) => bad(
                facts,
                &e,
                "must be from 0 to `int.MaxValue` (it counts retries); options validation fails at start-up",
            ),
            Err(_) => bad(
                facts,
                &e,
                "not a whole number: the configuration binder throws at start-up",
            ),
        }
    }
    if let Some(e) = find(entries, "BackoffType") {
        let t = text(e.value).unwrap_or("");
        let b = match t.to_ascii_lowercase().as_str() {
            "constant" | "0" => Some(Backoff::Constant),
            "linear" | "1" => Some(Backoff::Linear),
            "exponential" | "2" => Some(Backoff::Exponential),
            _ => None,
        };
        match b {
            Some(b) => r.backoff = Some((b, e.span())),
            None => bad(
                facts,
                &e,
                "not `Constant`, `Linear` or `Exponential`: the configuration binder throws at start-up",
            ),
        }
    }
    if let Some(e) = find(entries, "UseJitter")
        && let Some(b) = boolean(&e, facts)
    {
        r.jitter = Some((b, e.span()));
    }
    let day = (Duration::ZERO, Duration::from_secs(86_400));
    if let Some(e) = find(entries, "Delay")
        && let Some(d) = timespan(&e, day, facts)
    {
        r.delay = Some((d, e.span()));
    }
    if let Some(e) = find(entries, "MaxDelay")
        && let Some(d) = timespan(&e, day, facts)
    {
        r.max_delay = Some((d, e.span()));
    }
    if let Some(e) = find(entries, "ShouldRetryAfterHeader")
        && let Some(b) = boolean(&e, facts)
    {
        r.retry_after = Some((b, e.span()));
    }
    r
}

fn standard(entries: &[Entry<'_>], path: &str, key_span: Span, facts: &mut Facts) {
    // Keys next to the strategies: only near-misses are reported, as the
    // object may hold settings of the application too.
    for e in entries {
        if !is_key(e.key, STANDARD_KEYS)
            && e.value.is_map()
            && let Some(s) = did_you_mean(e.key, STANDARD_KEYS.iter().copied())
        {
            facts.diagnostics.push(unknown_setting::unknown_key(
                e.key_span,
                e.key,
                "standard resilience handler options",
                [s],
            ));
        }
    }
    let retry = find(entries, "Retry");
    let retry_entries = retry.map(|e| e.value.entries()).unwrap_or_default();
    let read = read_retry(
        &retry_entries,
        "`Retry` of the standard resilience handler (`HttpRetryStrategyOptions`)",
        facts,
    );
    let anchor = retry.map_or(key_span, |e| e.key_span);
    let name = if path.is_empty() { "(root)" } else { path };
    let mut p = policy(&read, &STANDARD_DEFAULTS, name, anchor);
    const WHAT: &str = "the standard resilience handler";
    let attempt = timeout_of(
        entries,
        "AttemptTimeout",
        STANDARD_ATTEMPT_TIMEOUT,
        WHAT,
        anchor,
        facts,
    );
    let total = timeout_of(
        entries,
        "TotalRequestTimeout",
        STANDARD_TOTAL_TIMEOUT,
        WHAT,
        anchor,
        facts,
    );
    if let (Some(a), Some(t)) = (attempt.value.finite(), total.value.finite())
        && a > t
    {
        let (span, other, key, why) = if attempt.is_written() {
            (
                attempt.span,
                total.span,
                "AttemptTimeout",
                format!(
                    "it reads as {}, longer than the total request timeout of `{}`",
                    crate::duration::human(a),
                    crate::duration::human(t)
                ),
            )
        } else {
            (
                total.span,
                attempt.span,
                "TotalRequestTimeout",
                format!(
                    "it reads as {}, shorter than the attempt timeout of `{}`",
                    crate::duration::human(t),
                    crate::duration::human(a)
                ),
            )
        };
        let inner = find(entries, key)
            .map(|e| e.value.entries())
            .unwrap_or_default();
        let written = find(&inner, "Timeout")
            .and_then(|e| text(e.value).map(str::to_string))
            .unwrap_or_default();
        facts.diagnostics.push(
            invalid_setting::value(
                span,
                key,
                &written,
                &format!("{why}: `HttpStandardResilienceOptions` validation fails at start-up"),
            )
            .with_related(other, "the other timeout"),
        );
    }
    // The validator adds up the retry delays (`ValidationHelper.
    // GetAggregatedDelay`); without jitter the sum is exact here.
    if let (Jitter::None, Some(t), AttemptCount::Finite(n)) = (
        &p.jitter.value,
        total.value.finite(),
        p.attempts.value.count,
    ) {
        let sum = p
            .delay
            .value
            .total_backoff(n.saturating_sub(1))
            .unwrap_or_default();
        if sum > t {
            let mut d = invalid_setting::value(
                p.attempts.span,
                "MaxRetryAttempts",
                &(n - 1).to_string(),
                &format!(
                    "the retries wait `{}` in all, longer than the total request timeout of `{}`: `HttpStandardResilienceOptions` validation fails at start-up",
                    crate::duration::human(sum),
                    crate::duration::human(t)
                ),
            );
            if p.delay.is_written() {
                d = d.with_related(p.delay.span, "the delay");
            }
            facts
                .diagnostics
                .push(d.with_related(total.span, "the total request timeout"));
        }
    }
    // The header's reading where the section writes it (the default is
    // the handler's, read where the handler is added in code).
    if read.retry_after.is_some() {
        p.server_delay = Some(crate::systems::dotnet::model::retry_after(
            &read,
            Some(&total),
            anchor,
        ));
    }
    if let Some(cb) = find(entries, "CircuitBreaker").filter(|e| e.value.is_map()) {
        let inner = cb.value.entries();
        check_keys(
            &inner,
            BREAKER_KEYS,
            "`CircuitBreaker` of the standard resilience handler",
            facts,
        );
        let range = (Duration::from_millis(500), Duration::from_secs(86_400));
        let sampling = find(&inner, "SamplingDuration")
            .and_then(|e| timespan(&e, range, facts).map(|d| (d, e.span())));
        if let Some(e) = find(&inner, "BreakDuration") {
            let _ = timespan(&e, range, facts);
        }
        let sampling_d = sampling.map_or(Duration::from_secs(30), |(d, _)| d);
        if let Some(a) = attempt.value.finite()
            && sampling_d < a * 2
            && (sampling.is_some() || attempt.is_written())
        {
            let span = sampling.map_or(attempt.span, |(_, s)| s);
            facts.diagnostics.push(invalid_setting::value(
                span,
                "SamplingDuration",
                &crate::duration::human(sampling_d),
                &format!(
                    "the circuit breaker's sampling duration must be at least twice the attempt timeout (`{}`): `HttpStandardResilienceOptions` validation fails at start-up",
                    crate::duration::human(a)
                ),
            ));
        }
    }
    if let Some(rl) = find(entries, "RateLimiter").filter(|e| e.value.is_map()) {
        check_keys(
            &rl.value.entries(),
            RATE_LIMITER_KEYS,
            "`RateLimiter` of the standard resilience handler",
            facts,
        );
    }
    p.per_try_timeout = Some(attempt);
    p.overall_timeout = Some(total);
    p.retry_on = standard_retry_on(anchor);
    // `DisableForUnsafeHttpMethods()` exists only in code.
    p.methods = Located::default_at(Methods::All, anchor);
    facts.policies.push(p);
}

/// The `Timeout` of a timeout-strategy object under `key` (10 ms to a
/// day), or `default`.
fn timeout_of(
    entries: &[Entry<'_>],
    key: &str,
    default: Duration,
    what: &str,
    anchor: Span,
    facts: &mut Facts,
) -> Located<Timeout> {
    let Some(e) = find(entries, key) else {
        return Located::default_at(Timeout::after(default), anchor);
    };
    if !e.value.is_map() {
        return Located::default_at(Timeout::after(default), e.key_span);
    }
    let inner = e.value.entries();
    check_keys(
        &inner,
        TIMEOUT_KEYS,
        &format!("`{}` of {what}", e.key),
        facts,
    );
    match find(&inner, "Timeout") {
        Some(t) => {
            let range = (Duration::from_millis(10), Duration::from_secs(86_400));
            let v = timespan(&t, range, facts).map_or(Timeout::Unknown, Timeout::after);
            Located::written(v, t.span())
        }
        None => Located::default_at(Timeout::after(default), e.key_span),
    }
}

fn polly(entries: &[Entry<'_>], path: &str, key_span: Span, facts: &mut Facts) {
    let read = read_retry(
        entries,
        "Polly retry options (`RetryStrategyOptions`)",
        facts,
    );
    let mut p = policy(&read, &POLLY_DEFAULTS, path, key_span);
    // ShouldHandle cannot be bound from configuration: Polly's default
    // handles every exception but OperationCanceledException.
    p.retry_on = Located::default_at(RetryOn::AllErrors, key_span);
    p.methods = Located::default_at(Methods::All, key_span);
    // Timeouts are separate strategies, composed in code.
    facts.policies.push(p);
}

#[cfg(test)]
mod tests;
