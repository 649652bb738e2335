//! Envoy `retry_policy` (route or virtual host): its fields, `retry_on`
//! conditions, status codes, back-off, the methods `retriable_request_headers`
//! allow, and what a route inherits from its virtual host.

use super::*;

/// A parsed `retry_policy` with the methods its
/// `retriable_request_headers` allow, if they restrict them.
#[derive(Clone)]
pub(super) struct Parsed {
    pub(super) policy: RetryPolicy,
    pub(super) request_methods: Option<Located<Methods>>,
}

pub(super) fn parse_retry(e: Entry<'_>, facts: &mut Facts) -> Option<Parsed> {
    let rp = e.value;
    if !rp.is_map() {
        if !rp.is_null() {
            facts.diagnostics.push(invalid_setting::wrong_shape(
                e.span(),
                e.key,
                "a retry policy mapping",
                rp.kind_name(),
                "write `retry_on`, `num_retries` and the other retry settings under it",
            ));
        }
        return None;
    }
    check_keys(rp, RETRY_POLICY_KEYS, "an Envoy `retry_policy`", facts);
    let attempts = match field(rp, "num_retries") {
        Some(n) => {
            let count = match n.value.as_i64() {
                Some(k) if (0..=u32::MAX as i64).contains(&k) => AttemptCount::Finite(k as u64 + 1),
                _ => {
                    facts.diagnostics.push(invalid_setting::value(
                        n.value.span(),
                        n.key,
                        n.value.as_str().unwrap_or(""),
                        "not a non-negative whole number",
                    ));
                    AttemptCount::Unknown
                }
            };
            Located::written(
                Attempts {
                    count,
                    written_as: format!("{}: {}", n.key, n.value.as_str().unwrap_or("")),
                },
                n.span(),
            )
        }
        // The policy is written; only its count is Envoy's default.
        None => Located::written(
            Attempts {
                count: AttemptCount::Finite(2),
                written_as: "num_retries unset: Envoy's default of 1 retry".into(),
            },
            e.key_span,
        ),
    };
    let mut p = RetryPolicy::new(System::Envoy, e.key_span, attempts);
    let codes = status_codes(rp, facts);
    p.retry_on = match field(rp, "retry_on") {
        Some(ro) => {
            let (on, only_codes) = retry_on(ro.value, &codes, facts);
            let empty = ro.value.as_str().is_some_and(|t| t.trim().is_empty());
            if matches!(on, RetryOn::Nothing) && empty {
                facts.diagnostics.push(invalid_setting::inert(
                    ro.span(),
                    "this Envoy `retry_policy`",
                    "`retry_on` is empty, so only a request carrying `x-envoy-retry-on` or `x-envoy-retry-grpc-on` is retried",
                    "list the conditions to retry in `retry_on` (for example `connect-failure,refused-stream,unavailable`)",
                ));
            }
            if matches!(on, RetryOn::Nothing) && only_codes {
                facts.diagnostics.push(invalid_setting::inert(
                    e.key_span,
                    "this Envoy `retry_policy`",
                    "`retry_on` is only `retriable-status-codes` and `retriable_status_codes` lists no status",
                    "list the statuses to retry in `retriable_status_codes`, or add other `retry_on` conditions",
                ));
            }
            Located::written(on, ro.span())
        }
        None => {
            facts.diagnostics.push(invalid_setting::inert(
                e.key_span,
                "this Envoy `retry_policy`",
                "it sets no `retry_on`, so only a request carrying `x-envoy-retry-on` or `x-envoy-retry-grpc-on` is retried",
                "add `retry_on` with the conditions to retry (for example `connect-failure,refused-stream,unavailable`)",
            ));
            Located::written(RetryOn::Nothing, e.key_span)
        }
    };
    p.per_try_timeout = Some(match field(rp, "per_try_timeout") {
        Some(t) => Located::written(timeout_of(duration(t.value, t.key, facts)), t.span()),
        None => match rp.entry("per_try_timeout_ms") {
            Some(t) => Located::written(timeout_of(millis(t.value, t.key, facts)), t.span()),
            // Bounded only by the route timeout.
            None => Located::default_at(Timeout::Disabled, e.key_span),
        },
    });
    if let Some(t) = field(rp, "per_try_idle_timeout") {
        duration(t.value, t.key, facts);
    }
    p.delay = match field(rp, "retry_back_off") {
        Some(b) => match backoff(b, facts) {
            Some(d) => Located::written(d, b.span()),
            None => Located::written(Delay::Unknown, b.span()),
        },
        None => Located::default_at(crate::systems::envoy::default_backoff(), e.key_span),
    };
    // Envoy draws each wait uniformly from [0, min(cap, base x (2^n - 1))].
    p.jitter = Located::default_at(Jitter::Full, p.delay.span);
    p.cap_order = CapOrder::BeforeJitter;
    p.platform_backoff = true;
    if let Some(rl) = field(rp, "rate_limited_retry_back_off")
        && rl.value.is_map()
    {
        check_keys(
            rl.value,
            RATE_LIMITED_BACKOFF_KEYS,
            "an Envoy `rate_limited_retry_back_off`",
            facts,
        );
        match field(rl.value, "reset_headers") {
            Some(h) if !h.value.items().is_empty() => {}
            _ => facts.diagnostics.push(invalid_setting::value(
                rl.key_span,
                rl.key,
                "",
                "`reset_headers` must list at least one header",
            )),
        }
        if let Some(m) = field(rl.value, "max_interval") {
            duration(m.value, m.key, facts);
        }
    }
    if let Some(h) = field(rp, "host_selection_retry_max_attempts")
        && h.value.as_i64().is_none()
    {
        facts.diagnostics.push(invalid_setting::value(
            h.value.span(),
            h.key,
            h.value.as_str().unwrap_or(""),
            "not a whole number",
        ));
    }
    let request_methods = field(rp, "retriable_request_headers")
        .and_then(|h| header_methods(h.value).map(|m| Located::written(m, h.span())));
    Some(Parsed {
        policy: p,
        request_methods,
    })
}

fn status_codes(rp: Yaml<'_>, facts: &mut Facts) -> Vec<Located<Condition>> {
    let mut out = Vec::new();
    let Some(list) = field(rp, "retriable_status_codes") else {
        return out;
    };
    for c in list.value.items() {
        match c.as_i64() {
            Some(n) if (100..600).contains(&n) => {
                out.push(Located::written(Condition::status(n as u16), c.span()))
            }
            _ => facts.diagnostics.push(invalid_setting::value(
                c.span(),
                "retriable_status_codes",
                c.as_str().unwrap_or(""),
                "not an HTTP status code (100-599), so it never matches",
            )),
        }
    }
    out
}

/// The conditions of a `retry_on` string, and whether it named only
/// `retriable-status-codes`.
pub(super) fn retry_on(
    v: Yaml<'_>,
    codes: &[Located<Condition>],
    facts: &mut Facts,
) -> (RetryOn, bool) {
    if v.as_str().is_none() {
        return (RetryOn::Unknown, false);
    }
    let mut conditions = Vec::new();
    let mut tokens = Vec::new();
    for (token, span) in v.tokens(',') {
        if !RETRY_ON_TOKENS.contains(&token) {
            facts.diagnostics.push(invalid_setting::unknown_token(
                span,
                "retry_on",
                token,
                RETRY_ON_TOKENS.iter().copied(),
            ));
            continue;
        }
        tokens.push(token);
        if token == "retriable-status-codes" {
            conditions.extend(codes.iter().cloned());
            continue;
        }
        for c in conditions_of(token) {
            conditions.push(Located::written(c, span));
        }
    }
    let only_codes = !tokens.is_empty() && tokens.iter().all(|t| *t == "retriable-status-codes");
    if conditions.is_empty() {
        (RetryOn::Nothing, only_codes)
    } else {
        (RetryOn::Listed { conditions }, only_codes)
    }
}

fn conditions_of(token: &str) -> Vec<Condition> {
    conditions(token)
}

pub(super) fn backoff(b: Entry<'_>, facts: &mut Facts) -> Option<Delay> {
    if !b.value.is_map() {
        return None;
    }
    check_keys(b.value, BACKOFF_KEYS, "an Envoy `retry_back_off`", facts);
    let Some(base_e) = field(b.value, "base_interval") else {
        facts.diagnostics.push(invalid_setting::value(
            b.key_span,
            b.key,
            "",
            "`base_interval` is required",
        ));
        return None;
    };
    let base = duration(base_e.value, base_e.key, facts)?;
    if base.is_zero() {
        facts.diagnostics.push(invalid_setting::value(
            base_e.value.span(),
            base_e.key,
            base_e.value.as_str().unwrap_or(""),
            "must be greater than zero",
        ));
        return None;
    }
    let base = base.max(Duration::from_millis(1));
    let cap = match field(b.value, "max_interval") {
        Some(m) => {
            let max = duration(m.value, m.key, facts)?;
            if max < base {
                facts.diagnostics.push(invalid_setting::value(
                    m.value.span(),
                    m.key,
                    m.value.as_str().unwrap_or(""),
                    "must be at least `base_interval`",
                ));
                return None;
            }
            Some(max)
        }
        None => None,
    };
    Some(crate::systems::envoy::backoff(base, cap))
}

/// The methods a list of header matchers restricts requests to, or `None`
/// when no matcher names `:method`.
pub(super) fn header_methods(headers: Yaml<'_>) -> Option<Methods> {
    for h in headers.items() {
        if h.get("name").and_then(|n| n.as_str()) != Some(":method") {
            continue;
        }
        if field(h, "invert_match")
            .and_then(|e| e.value.as_bool())
            .unwrap_or(false)
        {
            return Some(Methods::Unknown);
        }
        if field(h, "present_match").is_some() {
            return Some(Methods::All);
        }
        let exact = field(h, "exact_match")
            .map(|e| e.value)
            .or_else(|| field(h, "string_match").and_then(|s| s.value.get("exact")))
            // v1: `{name: ":method", value: "GET"}`
            .or_else(|| h.get("value"));
        if let Some(x) = exact.and_then(|x| x.as_str()) {
            return Some(Methods::Set(vec![x.to_ascii_uppercase()]));
        }
        let regex = field(h, "safe_regex_match")
            .and_then(|e| e.value.get("regex"))
            .or_else(|| {
                field(h, "string_match")
                    .and_then(|s| field(s.value, "safe_regex"))
                    .and_then(|e| e.value.get("regex"))
            })
            .or_else(|| field(h, "regex_match").map(|e| e.value));
        if let Some(r) = regex.and_then(|r| r.as_str()) {
            return Some(regex_methods(r));
        }
        return Some(Methods::Unknown);
    }
    None
}

/// `GET|HEAD`, `^(GET|HEAD)$` and the like; anything fancier is unknown.
fn regex_methods(r: &str) -> Methods {
    let body = r.trim_start_matches('^').trim_end_matches('$');
    let body = body
        .strip_prefix('(')
        .and_then(|b| b.strip_suffix(')'))
        .unwrap_or(body);
    let body = body.strip_prefix("?:").unwrap_or(body);
    let parts: Vec<&str> = body.split('|').collect();
    if parts
        .iter()
        .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphabetic()))
    {
        Methods::Set(parts.iter().map(|p| p.to_ascii_uppercase()).collect())
    } else {
        Methods::Unknown
    }
}

/// The retry policy of a virtual host, as its routes inherit it.
pub(super) fn inherited(p: &Parsed) -> Parsed {
    fn inh<T: Clone>(l: &Located<T>) -> Located<T> {
        if l.is_written() {
            Located::inherited(l.value.clone(), l.span)
        } else {
            l.clone()
        }
    }
    let mut q = p.clone();
    q.policy.attempts = inh(&p.policy.attempts);
    q.policy.delay = inh(&p.policy.delay);
    q.policy.jitter = inh(&p.policy.jitter);
    q.policy.retry_on = inh(&p.policy.retry_on);
    q.policy.per_try_timeout = p.policy.per_try_timeout.as_ref().map(inh);
    q.request_methods = p.request_methods.as_ref().map(inh);
    q
}
