//! The .NET resilience options model shared by the `appsettings*.json`
//! reader ([`super::extract`]) and the C# reader
//! (`crate::systems::csharp`): what a retry-options object says, the
//! defaults of Polly v8 and of the standard HTTP resilience handler, and
//! the policy they make. Each default is checked against the library's own
//! source, cited next to it.

use crate::model::*;
use crate::source::Span;
use std::time::Duration;

/// Polly `RetryConstants.DefaultRetryCount = 3` (retries) and
/// `MaxRetryCount = int.MaxValue` (https://github.com/App-vNext/Polly,
/// `src/Polly.Core/Retry/RetryConstants.cs`, 8.x); the standard handler's
/// `HttpRetryStrategyOptions` derives from `RetryStrategyOptions` and
/// keeps it.
pub const DEFAULT_MAX_RETRY_ATTEMPTS: u64 = 3;
/// `int.MaxValue`: Polly's "retry for ever".
pub const INT_MAX: i64 = 2_147_483_647;
/// Polly `RetryConstants.DefaultBaseDelay = TimeSpan.FromSeconds(2)`.
pub const DEFAULT_DELAY: Duration = Duration::from_secs(2);
/// dotnet/extensions `HttpStandardResilienceOptions.AttemptTimeoutOptions`
/// `Timeout = TimeSpan.FromSeconds(10)`
/// (https://github.com/dotnet/extensions,
/// `src/Libraries/Microsoft.Extensions.Http.Resilience/Resilience/HttpStandardResilienceOptions.cs`).
pub const STANDARD_ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);
/// `TotalRequestTimeoutOptions = new HttpTimeoutStrategyOptions()`, whose
/// `Timeout` is 30 s (same file; `HttpTimeoutStrategyOptions`).
pub const STANDARD_TOTAL_TIMEOUT: Duration = Duration::from_secs(30);
/// What `HttpRetryStrategyOptionsExtensions.DisableForUnsafeHttpMethods`
/// leaves retried: it disables `DELETE, POST, PUT, CONNECT, PATCH`
/// (dotnet/extensions,
/// `src/Libraries/Microsoft.Extensions.Http.Resilience/Polly/HttpRetryStrategyOptionsExtensions.cs`).
pub const SAFE_AFTER_DISABLE: &[&str] = &["GET", "HEAD", "OPTIONS", "TRACE"];
/// Every method `DisableFor(..)` may take away from. Not CONNECT: the
/// tunnels to a proxy are sent by the primary handler
/// (`SocketsHttpHandler`), below the delegating handlers where the
/// resilience handler runs, so no CONNECT goes through the retry.
pub const HTTP_METHODS: &[&str] = &[
    "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE", "POST", "PATCH",
];

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Backoff {
    Constant,
    Linear,
    Exponential,
}

/// What a retry-options object says, before defaults.
#[derive(Default)]
pub struct RetryRead {
    pub attempts: Option<(AttemptCount, String, Span)>,
    pub backoff: Option<(Backoff, Span)>,
    pub jitter: Option<(bool, Span)>,
    pub delay: Option<(Duration, Span)>,
    pub max_delay: Option<(Duration, Span)>,
    /// `ShouldRetryAfterHeader` of `HttpRetryStrategyOptions`.
    pub retry_after: Option<(bool, Span)>,
}

/// Polly v8 `RetryStrategyOptions`: `BackoffType` Constant
/// (`RetryConstants.DefaultBackoffType`), `UseJitter` false.
pub const POLLY_DEFAULTS: Defaults = Defaults {
    system: System::Polly,
    backoff: Backoff::Constant,
    jitter: false,
};

/// `HttpRetryStrategyOptions()` sets `BackoffType = Exponential`,
/// `UseJitter = true`, `ShouldRetryAfterHeader = true` (dotnet/extensions,
/// `src/Libraries/Microsoft.Extensions.Http.Resilience/Polly/HttpRetryStrategyOptions.cs`).
pub const STANDARD_DEFAULTS: Defaults = Defaults {
    system: System::DotnetStandard,
    backoff: Backoff::Exponential,
    jitter: true,
};

/// What the standard handler retries: `HttpClientResiliencePredicates.
/// IsTransient`: `HttpRequestException`, timeouts, 5xx, 408 and 429.
pub fn standard_retry_on(anchor: Span) -> Located<RetryOn> {
    let transient = [
        Condition::Status { from: 500, to: 599 },
        Condition::status(408),
        Condition::status(429),
        Condition::Exception("HttpRequestException".into()),
        Condition::Exception("TimeoutRejectedException".into()),
    ];
    Located::default_at(
        RetryOn::Listed {
            conditions: transient
                .into_iter()
                .map(|c| Located::default_at(c, anchor))
                .collect(),
        },
        anchor,
    )
}

/// Defaults of the two option types.
pub struct Defaults {
    pub system: System,
    pub backoff: Backoff,
    pub jitter: bool,
}

pub fn policy(r: &RetryRead, d: &Defaults, name: &str, anchor: Span) -> RetryPolicy {
    let attempts = match &r.attempts {
        Some((count, written_as, span)) => Located::written(
            Attempts {
                count: *count,
                written_as: written_as.clone(),
            },
            *span,
        ),
        None => Located::default_at(
            Attempts {
                count: AttemptCount::Finite(DEFAULT_MAX_RETRY_ATTEMPTS + 1),
                written_as: "MaxRetryAttempts: 3 (the default, retries)".into(),
            },
            anchor,
        ),
    };
    let mut p = RetryPolicy::new(d.system.clone(), anchor, attempts);
    p.name = Some(name.to_string());
    let backoff = r.backoff.map_or(d.backoff, |(b, _)| b);
    let base = r.delay.map_or(DEFAULT_DELAY, |(x, _)| x);
    let cap = r.max_delay.map(|(x, _)| x);
    let jitter = r.jitter.map_or(d.jitter, |(j, _)| j);
    let delay = if base.is_zero() {
        Delay::None
    } else {
        match backoff {
            Backoff::Constant => Delay::Fixed {
                delay: cap.map_or(base, |c| base.min(c)),
            },
            Backoff::Linear => Delay::Linear { base, cap },
            Backoff::Exponential => Delay::Exponential {
                base,
                multiplier: 2.0,
                cap,
            },
        }
    };
    // The delay is written where its type or base is.
    let delay_span = match (r.backoff, r.delay) {
        (Some((_, a)), Some((_, b))) => Some(a.cover(b)),
        (Some((_, a)), None) | (None, Some((_, a))) => Some(a),
        (None, None) => None,
    };
    p.delay = match delay_span {
        Some(s) => Located::written(delay, s),
        None => Located::default_at(delay, anchor),
    };
    let jitter_model = match (jitter, backoff) {
        (false, _) => Jitter::None,
        (true, Backoff::Exponential) => Jitter::Decorrelated,
        (true, _) => Jitter::Proportional { factor: 0.25 },
    };
    p.jitter = match r.jitter {
        Some((_, s)) => Located::written(jitter_model, s),
        None => Located::default_at(jitter_model, anchor),
    };
    if cap.is_some() && jitter {
        p.cap_order = CapOrder::AfterJitter;
    }
    p
}

/// The standard hedging handler's defaults (dotnet/extensions
/// `HttpStandardHedgingResilienceOptions`, Polly `HedgingStrategyOptions`,
/// `HedgingConstants`): `MaxHedgedAttempts` 1 (1 to 10) copies besides
/// the first, the next sent after `Delay` 2 s without an answer.
pub const STANDARD_HEDGED_ATTEMPTS: u64 = 1;
pub const STANDARD_HEDGING_DELAY: Duration = Duration::from_secs(2);
/// `HedgingEndpointOptions.Timeout.Timeout` 10 s: each copy's bound.
pub const STANDARD_HEDGING_ENDPOINT_TIMEOUT: Duration = Duration::from_secs(10);

/// What makes the standard hedging handler send the next copy: `when`
/// (no answer within the delay), or at once a transient outcome (5xx,
/// 408, 429, `HttpRequestException`, timeouts, an open breaker).
pub fn standard_hedge_on(anchor: Span, when: String) -> Located<RetryOn> {
    let mut conditions = vec![Located::default_at(Condition::Token(when), anchor)];
    conditions.extend(
        [
            Condition::Status { from: 500, to: 599 },
            Condition::status(408),
            Condition::status(429),
            Condition::Exception("HttpRequestException".into()),
            Condition::Exception("TimeoutRejectedException".into()),
            Condition::Exception("BrokenCircuitException".into()),
        ]
        .into_iter()
        .map(|c| Located::default_at(c, anchor)),
    );
    Located::default_at(RetryOn::Listed { conditions }, anchor)
}

/// What `HttpRetryStrategyOptions` does with `Retry-After`:
/// `ShouldRetryAfterHeader` is true by default (the constructor sets it),
/// and its setter installs a `DelayGenerator` that returns the header's
/// wait as it is (a date in the past as zero; no cap, no jitter), or
/// removes the generator when set to false (dotnet/extensions,
/// `src/Libraries/Microsoft.Extensions.Http.Resilience/Polly/HttpRetryStrategyOptions.cs`
/// and `Internal/RetryAfterHelper.cs`, commit 5862342c9a). Polly takes a
/// generated delay in place of the back-off without applying `MaxDelay`
/// (App-vNext/Polly, `src/Polly.Core/Retry/RetryResilienceStrategy.cs`,
/// commit 173d6d1d), so the only bound on the wait is a total timeout
/// around the retry, which cancels it: `total` (the standard handler's
/// `TotalRequestTimeout`) counts as the cap when it is finite.
pub fn retry_after(
    r: &RetryRead,
    total: Option<&Located<Timeout>>,
    anchor: Span,
) -> Located<backoff::ServerDelay> {
    let on = r.retry_after.is_none_or(|(b, _)| b);
    let d = backoff::ServerDelay {
        header: "Retry-After".into(),
        capped: on && total.is_some_and(|t| t.value.finite().is_some()),
        jittered: false,
        by: if on {
            "`ShouldRetryAfterHeader` of `HttpRetryStrategyOptions` (Microsoft.Extensions.Http.Resilience)"
        } else {
            "`HttpRetryStrategyOptions` (Microsoft.Extensions.Http.Resilience)"
        }
        .into(),
        ignored: (!on).then(|| "set `ShouldRetryAfterHeader = true` (its default)".to_string()),
    };
    match r.retry_after {
        Some((_, s)) => Located::written(d, s),
        None => Located::default_at(d, anchor),
    }
}

/// Gives `p` (a handler's policy) the settings `d` writes (options bound
/// to it from elsewhere: a configuration section, `ConfigureAll`, a named
/// `Configure`). What `p` writes itself stays unless `over` (a
/// `PostConfigure`, which runs after every `Configure` of the name).
/// A setting counts as set when it is not the library's default: written,
/// or taken from elsewhere. From the same file `d`'s values keep their
/// places (findings point at the options where they are written); from
/// another they are placed at `p`, [`Provenance::Included`] (the caller
/// names the file in `p.settings_from`).
pub fn overlay(p: &mut RetryPolicy, d: &RetryPolicy, over: bool, same_file: bool) {
    let r = if same_file {
        d.clone()
    } else {
        let mut r = d.rebased(p.span);
        r.attempts.provenance = Provenance::Included;
        r.delay.provenance = Provenance::Included;
        r.jitter.provenance = Provenance::Included;
        r.methods.provenance = Provenance::Included;
        r.retry_on.provenance = Provenance::Included;
        for t in [&mut r.per_try_timeout, &mut r.overall_timeout]
            .into_iter()
            .flatten()
        {
            t.provenance = Provenance::Included;
        }
        r
    };
    let take = |mine: bool, theirs: bool| theirs && (over || !mine);
    fn is_set<T>(l: &Located<T>) -> bool {
        !l.is_default()
    }
    if take(is_set(&p.attempts), is_set(&d.attempts)) {
        p.attempts = r.attempts.clone();
    }
    if take(is_set(&p.delay), is_set(&d.delay)) {
        p.delay = r.delay.clone();
        p.cap_order = r.cap_order;
    }
    if take(is_set(&p.jitter), is_set(&d.jitter)) {
        p.jitter = r.jitter.clone();
    }
    let written = |t: &Option<Located<Timeout>>| t.as_ref().is_some_and(is_set);
    if take(written(&p.per_try_timeout), written(&d.per_try_timeout)) {
        p.per_try_timeout = r.per_try_timeout.clone();
    }
    if take(written(&p.overall_timeout), written(&d.overall_timeout)) {
        p.overall_timeout = r.overall_timeout.clone();
    }
    if take(is_set(&p.retry_on), is_set(&d.retry_on)) {
        p.retry_on = r.retry_on.clone();
    }
    if take(is_set(&p.methods), is_set(&d.methods)) {
        p.methods = r.methods.clone();
    }
    if d.server_delay.is_some() && (over || p.server_delay.is_none()) {
        p.server_delay = r.server_delay.clone();
    }
}
