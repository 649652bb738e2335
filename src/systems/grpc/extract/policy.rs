//! The policies of one `methodConfig` entry: `maxAttempts` (capped at 5),
//! `retryPolicy`, `hedgingPolicy` and their status code lists, read and
//! validated as gRFC A6 and the clients implementing it do.

use super::*;

/// `maxAttempts`, capped at 5 (and reported when above).
fn max_attempts(
    e: Option<yaml::Entry<'_>>,
    what: &str,
    m: SpanMap<'_>,
    facts: &mut Facts,
) -> Result<(u64, Span, String), ()> {
    let Some(e) = e else {
        return Err(());
    };
    let text = e
        .value
        .as_str()
        .unwrap_or(e.value.kind_name())
        .trim()
        .to_string();
    let n = match number(e.value) {
        Some(x) if x.fract() == 0.0 && x >= 2.0 => x.min(1e9) as u64,
        _ => {
            facts.diagnostics.push(invalid_setting::value(
                m(e.value.span()),
                "maxAttempts",
                &text,
                &format!(
                    "a {what} needs a whole number of at least 2 (total attempts, the first included); grpc-go ignores the policy and grpc-java rejects the service config"
                ),
            ));
            return Err(());
        }
    };
    if n > MAX_ATTEMPTS_LIMIT {
        facts.diagnostics.push(invalid_setting::value(
            m(e.value.span()),
            "maxAttempts",
            &text,
            &format!(
                "gRPC clients treat any value above {MAX_ATTEMPTS_LIMIT} as {MAX_ATTEMPTS_LIMIT}, so the policy makes {MAX_ATTEMPTS_LIMIT} attempts"
            ),
        ));
        return Ok((
            MAX_ATTEMPTS_LIMIT,
            m(e.span()),
            format!("maxAttempts: {n}, treated as {MAX_ATTEMPTS_LIMIT}"),
        ));
    }
    Ok((n, m(e.span()), format!("maxAttempts: {n}")))
}

pub(super) fn retry_policy(
    r: yaml::Entry<'_>,
    m: SpanMap<'_>,
    facts: &mut Facts,
    rejected: &mut bool,
) -> Option<RetryPolicy> {
    let f = Fields::read(r.value, RETRY_KEYS, "a gRPC `retryPolicy`", m, facts);
    let root = m(r.key_span);
    let mut valid = true;
    let attempts = match f.get("maxAttempts") {
        None => {
            facts.diagnostics.push(invalid_setting::value(
                root,
                "retryPolicy",
                "no `maxAttempts`",
                "`maxAttempts` is required; grpc-go ignores the policy and grpc-java rejects the service config",
            ));
            valid = false;
            None
        }
        e => max_attempts(e, "retry policy", m, facts).ok(),
    };
    let mut backoff = |key: &str, facts: &mut Facts| -> Option<(Duration, Span)> {
        match f.get(key) {
            None => {
                facts.diagnostics.push(invalid_setting::value(
                    root,
                    "retryPolicy",
                    &format!("no `{key}`"),
                    &format!("`{key}` is required; grpc-go ignores the policy and grpc-java rejects the service config"),
                ));
                valid = false;
                None
            }
            Some(e) => match proto_duration(e.value) {
                Ok(d) if !d.is_zero() => Some((d, m(e.span()))),
                Ok(_) => {
                    facts.diagnostics.push(invalid_setting::value(
                        m(e.value.span()),
                        key,
                        e.value.as_str().unwrap_or(""),
                        "must be above 0; grpc-go ignores the policy and grpc-java rejects the service config",
                    ));
                    valid = false;
                    None
                }
                Err(why) => {
                    facts.diagnostics.push(invalid_setting::value(
                        m(e.value.span()),
                        key,
                        e.value.as_str().unwrap_or(e.value.kind_name()),
                        &why,
                    ));
                    *rejected = true;
                    valid = false;
                    None
                }
            },
        }
    };
    let initial = backoff("initialBackoff", facts);
    let max = backoff("maxBackoff", facts);
    let multiplier = match f.get("backoffMultiplier") {
        None => {
            facts.diagnostics.push(invalid_setting::value(
                root,
                "retryPolicy",
                "no `backoffMultiplier`",
                "`backoffMultiplier` is required; grpc-go ignores the policy and grpc-java rejects the service config",
            ));
            valid = false;
            None
        }
        Some(e) => match number(e.value) {
            Some(x) if x > 0.0 => Some((x, m(e.span()))),
            _ => {
                facts.diagnostics.push(invalid_setting::value(
                    m(e.value.span()),
                    "backoffMultiplier",
                    e.value.as_str().unwrap_or(e.value.kind_name()),
                    "must be a number above 0; grpc-go ignores the policy and grpc-java rejects the service config",
                ));
                valid = false;
                None
            }
        },
    };
    let codes = match f.get("retryableStatusCodes") {
        Some(e) => {
            let c = status_codes(e, m, facts, rejected);
            if c.is_empty() && e.value.items().is_empty() {
                facts.diagnostics.push(invalid_setting::value(
                    m(e.value.span()),
                    "retryableStatusCodes",
                    "[]",
                    "must name at least one status code; grpc-go ignores the policy and grpc-java rejects the service config",
                ));
                valid = false;
            }
            Some((c, m(e.span())))
        }
        None => {
            facts.diagnostics.push(invalid_setting::value(
                root,
                "retryPolicy",
                "no `retryableStatusCodes`",
                "`retryableStatusCodes` is required; grpc-go ignores the policy and grpc-java rejects the service config",
            ));
            valid = false;
            None
        }
    };
    let per_try = f.get("perAttemptRecvTimeout").map(|e| {
        let t = match proto_duration(e.value) {
            Ok(d) if !d.is_zero() => Timeout::after(d),
            Ok(_) => {
                facts.diagnostics.push(invalid_setting::value(
                    m(e.value.span()),
                    "perAttemptRecvTimeout",
                    e.value.as_str().unwrap_or(""),
                    "must be above 0",
                ));
                Timeout::Unknown
            }
            Err(why) => {
                facts.diagnostics.push(invalid_setting::value(
                    m(e.value.span()),
                    "perAttemptRecvTimeout",
                    e.value.as_str().unwrap_or(e.value.kind_name()),
                    &why,
                ));
                Timeout::Unknown
            }
        };
        Located::written(t, m(e.span()))
    });
    let (
        Some((n, attempts_span, written_as)),
        Some((base, base_span)),
        Some((cap, _)),
        Some((mult, _)),
        Some((codes, codes_span)),
    ) = (attempts, initial, max, multiplier, codes)
    else {
        return None;
    };
    if !valid {
        return None;
    }
    let mut p = RetryPolicy::new(
        System::Grpc,
        root,
        Located::written(
            Attempts {
                count: AttemptCount::Finite(n),
                written_as,
            },
            attempts_span,
        ),
    );
    p.delay = Located::written(
        Delay::Exponential {
            base,
            multiplier: mult,
            cap: Some(cap),
        },
        base_span,
    );
    p.jitter = Located::default_at(Jitter::Proportional { factor: 0.2 }, root);
    p.cap_order = CapOrder::BeforeJitter;
    p.per_try_timeout = per_try;
    p.retry_on = if codes.is_empty() {
        Located::written(RetryOn::Nothing, codes_span)
    } else {
        Located::written(RetryOn::Listed { conditions: codes }, codes_span)
    };
    Some(p)
}

pub(super) fn hedging_policy(
    h: yaml::Entry<'_>,
    m: SpanMap<'_>,
    facts: &mut Facts,
    rejected: &mut bool,
) -> Option<RetryPolicy> {
    let f = Fields::read(h.value, HEDGING_KEYS, "a gRPC `hedgingPolicy`", m, facts);
    let root = m(h.key_span);
    let attempts = match f.get("maxAttempts") {
        None => {
            facts.diagnostics.push(invalid_setting::value(
                root,
                "hedgingPolicy",
                "no `maxAttempts`",
                "`maxAttempts` is required; grpc-java rejects the service config",
            ));
            None
        }
        e => max_attempts(e, "hedging policy", m, facts).ok(),
    };
    let delay = match f.get("hedgingDelay") {
        None => Some(Located::default_at(Delay::None, root)),
        Some(e) => match proto_duration(e.value) {
            Ok(d) if d.is_zero() => Some(Located::written(Delay::None, m(e.span()))),
            Ok(d) => Some(Located::written(Delay::Fixed { delay: d }, m(e.span()))),
            Err(why) => {
                facts.diagnostics.push(invalid_setting::value(
                    m(e.value.span()),
                    "hedgingDelay",
                    e.value.as_str().unwrap_or(e.value.kind_name()),
                    &why,
                ));
                *rejected = true;
                None
            }
        },
    };
    let (Some((n, attempts_span, written_as)), Some(delay)) = (attempts, delay) else {
        return None;
    };
    let mut p = RetryPolicy::new(
        System::Grpc,
        root,
        Located::written(
            Attempts {
                count: AttemptCount::Finite(n),
                written_as,
            },
            attempts_span,
        ),
    );
    p.kind = PolicyKind::Hedge;
    let when = match &delay.value {
        Delay::Fixed { delay } => format!("no response within `{}`", human(*delay)),
        _ => "at once (no `hedgingDelay`)".to_string(),
    };
    p.delay = delay;
    p.jitter = Located::default_at(Jitter::None, root);
    // Hedged copies are not a back-off: the backoff rules do not apply.
    p.platform_backoff = true;
    let mut conditions = vec![Located::default_at(Condition::Token(when), root)];
    if let Some(e) = f.get("nonFatalStatusCodes") {
        conditions.extend(status_codes(e, m, facts, rejected));
    }
    p.retry_on = Located::written(RetryOn::Listed { conditions }, root);
    Some(p)
}

/// Status codes as names or numbers; anything else is reported.
fn status_codes(
    e: yaml::Entry<'_>,
    m: SpanMap<'_>,
    facts: &mut Facts,
    rejected: &mut bool,
) -> Vec<Located<Condition>> {
    let mut out = Vec::new();
    if !e.value.is_seq() {
        facts.diagnostics.push(invalid_setting::value(
            m(e.value.span()),
            e.key,
            e.value.as_str().unwrap_or(e.value.kind_name()),
            "must be a list of status codes",
        ));
        *rejected = true;
        return out;
    }
    for item in e.value.items() {
        let span = m(item.span());
        let text = item.as_str().unwrap_or("").trim();
        let code = if item.is_quoted() {
            STATUS_CODES.iter().find(|c| **c == text).copied()
        } else {
            text.parse::<usize>()
                .ok()
                .and_then(|i| STATUS_CODES.get(i).copied())
        };
        match code {
            Some(c) => out.push(Located::written(Condition::Grpc(c.to_string()), span)),
            None => {
                let hint = match crate::keys::did_you_mean(text, STATUS_CODES.iter().copied()) {
                    Some(c) if item.is_quoted() => {
                        format!(" (did you mean `{c}`? names are upper case)")
                    }
                    _ => String::new(),
                };
                facts.diagnostics.push(invalid_setting::value(
                    span,
                    e.key,
                    if text.is_empty() { item.kind_name() } else { text },
                    &format!(
                        "not a gRPC status code name or number 0-16{hint}: grpc-go and grpc-java reject the whole service config"
                    ),
                ));
                // grpc-go and grpc-java both fail to parse the config.
                *rejected = true;
            }
        }
    }
    out
}
