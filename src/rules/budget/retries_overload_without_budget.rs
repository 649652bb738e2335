//! RL603 retries-overload-without-budget: a layer retries the overload
//! signal (503, 429, `RESOURCE_EXHAUSTED`) and nothing limits its retries
//! as a whole: no retry budget, no retry circuit breaker, no outlier
//! ejection. Registered by rules/RL603-retries-overload-without-budget.md.
//!
//! A graph rule: the limit may be written in another file (an Istio
//! DestinationRule for the host, `Facts::protections`).

use crate::graph::GraphCtx;
use crate::model::{AttemptCount, Budget, BudgetSite, Condition, Located, Provenance, RetryPolicy};
use crate::rules::conditions::{condition_text, listed, simple_name};
use crate::rules::{Check, Emitter};

pub const CHECK: Check = Check::Graph(check);

/// Concurrent retries from which a retry circuit breaker limits nothing:
/// Envoy's default `max_requests`, the requests a cluster lets run at once
/// (envoyproxy/envoy `api/envoy/config/cluster/v3/circuit_breaker.proto`,
/// `Thresholds.max_requests`: "If not specified, the default is 1024").
/// With at least as many retries as requests allowed in flight, the
/// breaker never opens before the requests' own limit does; Istio's
/// sidecars are Envoy, and Istio's default `maxRetries` (4294967295) is
/// far above it.
pub const LIMITS_NOTHING_AT: u64 = 1024;

fn check(ctx: &GraphCtx<'_>, out: &mut Emitter<'_>) {
    // A fixture folder's limits (`Facts::test_input`) are a test's: they
    // protect the policies of their own folder only.
    let folder = |f: &crate::model::ScannedFile| {
        let p = f.source.display_path();
        p.rsplit_once('/')
            .map_or(String::new(), |(d, _)| d.to_string())
    };
    let protections: Vec<_> = ctx
        .files
        .iter()
        .flat_map(|f| {
            let fixture = f.facts.test_input.then(|| folder(f));
            f.facts
                .protections
                .iter()
                .map(move |p| (p, fixture.clone()))
        })
        .collect();
    for (id, f) in ctx.files.iter().enumerate() {
        let here =
            (f.facts.test_input && protections.iter().any(|(_, d)| d.is_some())).then(|| folder(f));
        for (index, p) in f.facts.policies.iter().enumerate() {
            // Retries nobody wrote are RL403's; a use of a retry declared
            // elsewhere is judged where it is declared.
            if !p.retries()
                || p.attempts.provenance != Provenance::Written
                || p.use_of.is_some()
                || crate::rules::budget::proportional(&p.budget)
                || !p.wraps_breaker.is_empty()
                // A retry of a process on this machine (a child server it
                // polls until it listens) loads no shared service.
                || p.scope.this_machine
            {
                continue;
            }
            // A retry circuit breaker limits the retries unless it lets
            // through as many as the requests themselves.
            let breaker = match p.budget.as_ref().map(|b| (&b.value, b)) {
                Some((Budget::Concurrency { max }, _)) if *max < LIMITS_NOTHING_AT => continue,
                Some((Budget::Concurrency { max }, b)) => Some((*max, b)),
                _ => None,
            };
            // The budget belongs in a block this file does not show; or
            // the system limits retries even when nothing is written (an
            // Envoy cluster's `max_retries` circuit breaker, 3 concurrent
            // retries by default, where RL601 reports a missing budget;
            // nginx's passive ejection of failing servers).
            if breaker.is_none()
                && (matches!(p.budget_site, BudgetSite::Unseen)
                    || p.system.spec().retries_limited_by_default)
            {
                continue;
            }
            let signals = overload(p, f.syntax.is_some_and(|s| s.is_source()));
            let Some(first) = signals.first() else {
                continue;
            };
            // The hosts the retries go to: the destinations of the calls
            // the policy is a layer of (a gateway route's), else its callee.
            let mut targets: Vec<String> = f
                .facts
                .edges
                .iter()
                .filter(|e| e.policies.contains(&index))
                .map(|e| crate::model::calls::short_host(&e.callee))
                .collect();
            targets.sort();
            targets.dedup();
            if targets.is_empty() {
                targets.extend(
                    p.scope
                        .callee
                        .as_ref()
                        .map(|c| crate::model::calls::short_host(&c.value)),
                );
            }
            // Outlier ejection, or a retry circuit breaker that limits.
            let protected = |host: &String| {
                protections.iter().any(|(pr, fixture)| {
                    (fixture.is_none() || *fixture == here)
                        && pr.system == p.system
                        && (pr.host == *host || pr.host == "*")
                        && pr.max_retries.is_none_or(|n| n < LIMITS_NOTHING_AT)
                })
            };
            if !targets.is_empty() && targets.iter().all(protected) {
                continue;
            }
            let texts: Vec<String> = signals
                .iter()
                .map(|c| format!("`{}`", condition_text(&c.value)))
                .collect();
            let more = match p.attempts.value.count {
                AttemptCount::Finite(n) => format!("up to `{}` more times", n.saturating_sub(1)),
                _ => "again and again".to_string(),
            };
            let whom = if targets.is_empty() {
                "the service".to_string()
            } else {
                targets
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            // A condition written in another file (a Helm values file) is
            // shown where it applies, as a written one is.
            let span = if first.is_written() || first.provenance == Provenance::Included {
                first.span
            } else {
                p.attempts.span
            };
            let limit = match breaker {
                Some((max, b)) => format!(
                    "with no retry budget or outlier ejection, and a retry circuit breaker of `{max}` concurrent retries{}, no fewer than the {LIMITS_NOTHING_AT} requests Envoy lets run at once by default, so it never opens",
                    if b.provenance == Provenance::Default {
                        " (the default)"
                    } else {
                        ""
                    }
                ),
                None => "with no retry budget, retry circuit breaker or outlier ejection".into(),
            };
            let message = format!(
                "{} retries the overload signal {} (`{}`) {limit}: when {whom} is overloaded (it sheds load or answers too late), every failed request comes back {more}, adding load exactly when there is too much",
                p.describe(),
                texts.join(", "),
                p.attempts.value.written_as,
            );
            // A system with a budget of its own names it; others say how
            // to limit the retries in their words.
            let spec = p.system.spec();
            let fix = if spec.offers_budget {
                spec.fixes.budget
            } else {
                spec.fixes.overload
            };
            let finding = out.emit_at(id, span, message, fix);
            if span != p.attempts.span {
                Emitter::relate(finding, p.attempts.span, "retries are configured here");
            }
            if let Some((_, b)) = breaker
                && b.is_written()
                && b.span != span
            {
                Emitter::relate(finding, b.span, "the retry circuit breaker is set here");
            }
        }
    }
}

/// The conditions of `p` that are a service saying it is overloaded: 503
/// (or a range holding it: `5xx`, Envoy's `gateway-error`), 429, gRPC
/// `RESOURCE_EXHAUSTED`, an exception named for one of them; and, for a
/// retry written in program source (`in_code`), a timeout (issue 28: a
/// saturated service answers too late before it refuses anything): gRPC
/// `DEADLINE_EXCEEDED`, a timeout exception (`SocketTimeoutException`,
/// Polly's `TimeoutRejectedException`, `requests.Timeout`), a transport
/// timeout (a Go `net.Error` whose `Timeout()` holds). A retry in a
/// configuration file (a Resilience4j instance, a gRPC service config)
/// is composed with its circuit breaker, if any, in code the file does not
/// show, and retrying a timeout there is the usual choice: not judged.
/// gRPC `UNAVAILABLE` is left out: it is mostly a failed connection, which
/// an overloaded service does not cause.
fn overload(p: &RetryPolicy, in_code: bool) -> Vec<&Located<Condition>> {
    listed(&p.retry_on.value)
        .iter()
        .filter(|c| match &c.value {
            Condition::Status { from, to } => {
                (*from..=*to).contains(&503) || (*from..=*to).contains(&429)
            }
            Condition::Grpc(code) => {
                code == "RESOURCE_EXHAUSTED" || (in_code && code == "DEADLINE_EXCEEDED")
            }
            Condition::Exception(name) => {
                let s = simple_name(name);
                s.contains("ServiceUnavailable")
                    || s.contains("TooManyRequests")
                    || s.contains("Throttl")
                    || s.contains("ResourceExhausted")
                    || (in_code && (s.contains("Timeout") || s.contains("TimedOut")))
            }
            Condition::Transport(t) => {
                let t = t.to_ascii_lowercase();
                in_code && (t.contains("timeout") || t.contains("timed"))
            }
            _ => false,
        })
        .collect()
}
