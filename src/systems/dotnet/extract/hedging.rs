//! The standard hedging handler (`AddStandardHedgingHandler` options):
//! its hedged attempts, delay and per-endpoint and total timeouts.

use super::*;

/// The standard hedging handler's options (dotnet/extensions
/// `HttpStandardHedgingResilienceOptions`, Polly `HedgingStrategyOptions`):
/// `Hedging.MaxHedgedAttempts` 1 (1 to 10) more copies of the request, the
/// next one sent when the previous has not answered within `Hedging.Delay`
/// (2s; zero sends them all at once, a negative one only on failure) or at
/// once when it failed with a transient outcome (5xx, 408, 429,
/// `HttpRequestException`, timeouts, an open breaker); each copy bounded by
/// `Endpoint.Timeout` (10s), all of them by `TotalRequestTimeout` (30s);
/// every HTTP method.
pub(super) fn hedging(entries: &[Entry<'_>], path: &str, key_span: Span, facts: &mut Facts) {
    const WHAT: &str = "the standard hedging handler";
    for e in entries {
        if !is_key(e.key, HEDGING_OPTIONS_KEYS)
            && e.value.is_map()
            && let Some(s) = did_you_mean(e.key, HEDGING_OPTIONS_KEYS.iter().copied())
        {
            facts.diagnostics.push(unknown_setting::unknown_key(
                e.key_span,
                e.key,
                "standard hedging handler options",
                [s],
            ));
        }
    }
    let hedge = find(entries, "Hedging").filter(|e| e.value.is_map());
    let anchor = hedge.map_or(key_span, |e| e.key_span);
    let inner = hedge.map(|e| e.value.entries()).unwrap_or_default();
    check_keys(
        &inner,
        HEDGING_KEYS,
        "`Hedging` of the standard hedging handler (`HttpHedgingStrategyOptions`)",
        facts,
    );
    let attempts = match find(&inner, "MaxHedgedAttempts") {
        Some(e) => match text(e.value).unwrap_or("").parse::<i64>() {
            Ok(n) if (1..=10).contains(&n) => Located::written(
                Attempts {
                    count: AttemptCount::Finite(n as u64 + 1),
                    written_as: format!("{}: {n} (hedged copies)", e.key),
                },
                e.span(),
            ),
            Ok(_) => {
                bad(
                    facts,
                    &e,
                    "must be from 1 to 10 (it counts the copies sent besides the first); options validation fails at start-up",
                );
                Located::written(
                    Attempts {
                        count: AttemptCount::Unknown,
                        written_as: format!("{}: (rejected)", e.key),
                    },
                    e.span(),
                )
            }
            Err(_) => {
                bad(
                    facts,
                    &e,
                    "not a whole number: the configuration binder throws at start-up",
                );
                Located::written(
                    Attempts {
                        count: AttemptCount::Unknown,
                        written_as: format!("{}: (rejected)", e.key),
                    },
                    e.span(),
                )
            }
        },
        None => Located::default_at(
            Attempts {
                count: AttemptCount::Finite(STANDARD_HEDGED_ATTEMPTS + 1),
                written_as: "MaxHedgedAttempts: 1 (the default, hedged copies)".into(),
            },
            anchor,
        ),
    };
    let mut p = RetryPolicy::new(System::DotnetStandard, anchor, attempts);
    p.kind = PolicyKind::Hedge;
    p.name = Some(if path.is_empty() { "(root)" } else { path }.to_string());
    // When the next copy goes out: after `Delay` without an answer.
    let (delay, when) = match find(&inner, "Delay") {
        Some(e) if text(e.value).is_some_and(|t| t.starts_with('-')) => (
            Located::written(Delay::None, e.span()),
            "a transient failure only (negative `Delay`)".to_string(),
        ),
        Some(e) => match timespan(&e, (Duration::ZERO, Duration::from_secs(86_400)), facts) {
            Some(d) if d.is_zero() => (
                Located::written(Delay::None, e.span()),
                "at once (`Delay` zero)".to_string(),
            ),
            Some(d) => (
                Located::written(Delay::Fixed { delay: d }, e.span()),
                format!("no response within `{}`", crate::duration::human(d)),
            ),
            None => (
                Located::written(Delay::Unknown, e.span()),
                "no response within `Delay`".to_string(),
            ),
        },
        None => (
            Located::default_at(
                Delay::Fixed {
                    delay: STANDARD_HEDGING_DELAY,
                },
                anchor,
            ),
            "no response within `2s` (the default)".to_string(),
        ),
    };
    p.delay = delay;
    p.jitter = Located::default_at(Jitter::None, anchor);
    // Hedged copies are not a back-off: the backoff rules do not apply.
    p.platform_backoff = true;
    let endpoint = find(entries, "Endpoint").filter(|e| e.value.is_map());
    let endpoint_entries = endpoint.map(|e| e.value.entries()).unwrap_or_default();
    if endpoint.is_some() {
        check_keys(
            &endpoint_entries,
            ENDPOINT_KEYS,
            "`Endpoint` of the standard hedging handler (`HedgingEndpointOptions`)",
            facts,
        );
        if let Some(cb) = find(&endpoint_entries, "CircuitBreaker").filter(|e| e.value.is_map()) {
            check_keys(
                &cb.value.entries(),
                BREAKER_KEYS,
                "`Endpoint:CircuitBreaker` of the standard hedging handler",
                facts,
            );
        }
    }
    let per_copy = timeout_of(
        &endpoint_entries,
        "Timeout",
        STANDARD_HEDGING_ENDPOINT_TIMEOUT,
        &format!("`Endpoint` of {WHAT}"),
        endpoint.map_or(anchor, |e| e.key_span),
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
    p.per_try_timeout = Some(per_copy);
    p.overall_timeout = Some(total);
    p.retry_on = standard_hedge_on(anchor, when);
    p.methods = Located::default_at(Methods::All, anchor);
    facts.policies.push(p);
}
