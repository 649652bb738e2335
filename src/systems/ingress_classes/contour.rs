//! Contour's retry and timeout annotations on an Ingress (issue 17, stop
//! 45). Contour serves an Ingress through Envoy; it writes a route retry
//! policy only when `projectcontour.io/retry-on` is set and not empty
//! (projectcontour/contour `internal/dag/policy.go`, `ingressRetryPolicy`,
//! at 31c4bb38), with:
//! - `projectcontour.io/num-retries`: absent, unparsable, `0`, `1` or a
//!   negative number other than `-1` give Envoy's default of 1 retry, `-1`
//!   gives none, any other number that many
//!   (`internal/annotation/annotations.go`, `NumRetries`, at 31c4bb38);
//! - `projectcontour.io/per-try-timeout`: a Go duration, `infinity` or
//!   `infinite` for none, empty or `0s` for Envoy's default
//!   (`internal/timeout/timeout.go`, `Parse`, at 31c4bb38);
//! - `projectcontour.io/response-timeout` (or the older
//!   `request-timeout`): the route's timeout, parsed the same way.
//!
//! Contour writes no back-off (`internal/envoy/v3/route.go`, `retryPolicy`,
//! at 31c4bb38, sets `RetryOn`, `NumRetries` and `PerTryTimeout` only), so
//! Envoy's own applies: 25 ms doubling up to 250 ms, fully jittered. Envoy
//! retries any method its `retry_on` allows.

use crate::model::*;
use crate::source::Span;
use crate::yaml::Entry;
use std::time::Duration;

const PREFIX: &str = "projectcontour.io/";

/// The annotation `projectcontour.io/<key>` of an Ingress, with the span of
/// its value.
fn annotation<'f>(entries: &[Entry<'f>], key: &str) -> Option<(&'f str, Span)> {
    entries.iter().find_map(|e| {
        (e.key.strip_prefix(PREFIX) == Some(key))
            .then(|| e.value.as_str().map(|s| (s.trim(), e.value.span())))
            .flatten()
    })
}

/// A Contour timeout annotation's value: `None` where the value leaves
/// Envoy's default in place.
fn timeout(value: &str) -> Option<Timeout> {
    match value {
        "" => None,
        "infinity" | "infinite" => Some(Timeout::Disabled),
        v => match crate::duration::parse_go(v) {
            Ok(d) if d == Duration::ZERO => None,
            Ok(d) => Some(Timeout::after(d)),
            Err(_) => Some(Timeout::Unknown),
        },
    }
}

/// The retries of an Ingress's routes, or `None` when no
/// `projectcontour.io/retry-on` enables them.
pub(super) fn policy(entries: &[Entry<'_>], name: &str, anchor: Span) -> Option<RetryPolicy> {
    let (on, on_span) = annotation(entries, "retry-on").filter(|(v, _)| !v.is_empty())?;
    let attempts = match annotation(entries, "num-retries") {
        Some((v, span)) => {
            let retries = match v.parse::<i64>() {
                Ok(-1) => 0,
                Ok(n) if n > 1 => n as u64,
                _ => 1,
            };
            Located::written(
                Attempts {
                    count: AttemptCount::Finite(retries + 1),
                    written_as: format!("projectcontour.io/num-retries: {v}"),
                },
                span,
            )
        }
        None => Located::default_at(
            Attempts {
                count: AttemptCount::Finite(2),
                written_as: "projectcontour.io/num-retries unset: Envoy's default of 1 retry"
                    .into(),
            },
            on_span,
        ),
    };
    let mut p = RetryPolicy::new(System::Contour, anchor, attempts);
    p.name = Some(name.to_string());
    p.retry_on = Located::written(
        RetryOn::Listed {
            conditions: on
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .flat_map(crate::systems::envoy::extract::conditions)
                .map(|c| Located::written(c, on_span))
                .collect(),
        },
        on_span,
    );
    p.methods = Located::default_at(Methods::All, on_span);
    p.delay = Located::default_at(crate::systems::envoy::default_backoff(), on_span);
    p.jitter = Located::default_at(Jitter::Full, on_span);
    p.platform_backoff = true;
    // An Ingress's annotations offer no retry budget (Contour's HTTPProxy
    // and Envoy's cluster circuit breakers are other resources).
    p.budget_site = BudgetSite::NotOffered;
    if let Some((v, span)) = annotation(entries, "per-try-timeout")
        && let Some(t) = timeout(v)
    {
        p.per_try_timeout = Some(Located::written(t, span));
    }
    if let Some((v, span)) =
        annotation(entries, "response-timeout").or_else(|| annotation(entries, "request-timeout"))
        && let Some(t) = timeout(v)
    {
        p.overall_timeout = Some(Located::written(t, span));
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contour_timeouts_follow_its_parse() {
        assert_eq!(timeout(""), None);
        assert_eq!(timeout("0s"), None);
        assert_eq!(timeout("infinity"), Some(Timeout::Disabled));
        assert_eq!(timeout("2s"), Some(Timeout::after(Duration::from_secs(2))));
        assert_eq!(timeout("2 seconds"), Some(Timeout::Unknown));
    }
}
