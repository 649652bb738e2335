//! The Dapr `Resiliency` reader: one YAML document in, facts out. Each
//! app target (`spec.targets.apps.<id>`) is a policy on the invocations
//! of that app id (`scope.callee`), made of the retry and the timeout it
//! names in `spec.policies`; `DefaultAppRetryPolicy` (or
//! `DefaultRetryPolicy`) with its timeout is a policy on the apps no
//! target names (no callee). A resource with `scopes` applies to the
//! sidecars of those app ids only (`scope.caller`, a policy per scope).
//!
//! Pure and bounded: reads only the document it is given, at most
//! [`MAX_ENTRIES`] of each map.

use super::*;
use crate::diag::invalid_setting;
use crate::extract::check_yaml_keys;
use crate::model::*;
use crate::source::Span;
use crate::yaml::Yaml;

/// Words that make a file worth parsing for this reader.
pub const NEEDLES: &[&str] = &["kind: Resiliency"];

/// The most entries read from one map (targets, policies, scopes).
const MAX_ENTRIES: usize = 256;

const RETRY_KEYS: &[&str] = &[
    "policy",
    "duration",
    "maxInterval",
    "maxRetries",
    "matching",
];
const TARGET_KEYS: &[&str] = &[
    "retry",
    "timeout",
    "circuitBreaker",
    "circuitBreakerCacheSize",
];

/// Read one document; `false` when it is not a Dapr `Resiliency`.
pub fn extract(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let api = root
        .get("apiVersion")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    let kind = root.get("kind").and_then(|v| v.as_str()).unwrap_or("");
    if !api.starts_with("dapr.io/") || kind != "Resiliency" {
        return false;
    }
    let Some(spec) = root.get("spec") else {
        return true;
    };
    let scopes: Vec<String> = root
        .get("scopes")
        .map(|s| s.items())
        .unwrap_or_default()
        .into_iter()
        .take(MAX_ENTRIES)
        .filter_map(|s| s.as_str().map(|s| s.trim().to_string()))
        .filter(|s| !s.is_empty())
        .collect();
    let timeouts = spec
        .path(&["policies", "timeouts"])
        .map(|t| t.entries())
        .unwrap_or_default();
    let retries = spec
        .path(&["policies", "retries"])
        .map(|r| r.entries())
        .unwrap_or_default();
    let timeout_named = |name: &str, facts: &mut Facts| -> Option<Located<Timeout>> {
        let e = timeouts.iter().take(MAX_ENTRIES).find(|e| e.key == name)?;
        duration(e.value, e.key, facts).map(|d| Located::written(Timeout::after(d), e.value.span()))
    };
    let retry_named = |name: &str| {
        retries
            .iter()
            .take(MAX_ENTRIES)
            .find(|e| e.key == name)
            .map(|e| (e.key, e.value))
    };
    let add = |p: RetryPolicy, facts: &mut Facts| {
        if scopes.is_empty() {
            facts.policies.push(p);
        } else {
            for s in &scopes {
                let mut q = p.clone();
                q.scope.caller = Some(s.clone());
                facts.policies.push(q);
            }
        }
    };
    let apps = spec
        .path(&["targets", "apps"])
        .map(|a| a.entries())
        .unwrap_or_default();
    for t in apps.into_iter().take(MAX_ENTRIES) {
        check_yaml_keys(t.value, TARGET_KEYS, "Dapr resiliency app target", facts);
        let anchor = t.key_span;
        let retry = match t.value.get("retry") {
            Some(v) => {
                let name = v.as_str().unwrap_or("").trim();
                match retry_named(name) {
                    Some(r) => Some(r),
                    None => {
                        facts.diagnostics.push(invalid_setting::value(
                            v.span(),
                            "retry",
                            name,
                            "no retry policy of that name in `spec.policies.retries`: Dapr rejects the resource",
                        ));
                        continue;
                    }
                }
            }
            None => None,
        };
        let timeout = match t.value.get("timeout") {
            Some(v) => {
                let name = v.as_str().unwrap_or("").trim();
                match timeout_named(name, facts) {
                    Some(d) => Some(d),
                    None if timeouts.iter().any(|e| e.key == name) => None,
                    None => {
                        facts.diagnostics.push(invalid_setting::value(
                            v.span(),
                            "timeout",
                            name,
                            "no timeout of that name in `spec.policies.timeouts`: Dapr rejects the resource",
                        ));
                        None
                    }
                }
            }
            None => None,
        };
        if retry.is_none() && timeout.is_none() {
            continue;
        }
        let mut p = policy(retry, timeout, anchor, facts);
        p.name = Some(format!("targets.apps.{}", t.key));
        p.scope.callee = Some(Located::written(t.key.to_string(), anchor));
        add(p, facts);
    }
    // The defaults, for the apps no target names.
    let retry = DEFAULT_RETRY_NAMES.iter().find_map(|n| retry_named(n));
    let timeout = DEFAULT_TIMEOUT_NAMES
        .iter()
        .find_map(|n| timeout_named(n, facts));
    if retry.is_some() || timeout.is_some() {
        let anchor = retry
            .map(|(_, v)| v.span())
            .or(timeout.as_ref().map(|t| t.span))
            .unwrap_or(spec.span());
        let mut p = policy(retry, timeout, anchor, facts);
        p.name = Some(retry.map_or("default timeout", |(n, _)| n).to_string());
        add(p, facts);
    }
    true
}

/// A Dapr duration: an integer is milliseconds, else Go's syntax
/// (dapr/dapr d8450742ce `pkg/resiliency/resiliency.go` `parseDuration`).
fn duration(v: Yaml<'_>, key: &str, facts: &mut Facts) -> Option<std::time::Duration> {
    if let Some(ms) = v.as_i64() {
        return u64::try_from(ms).ok().map(std::time::Duration::from_millis);
    }
    crate::extract::go_duration(v, key, facts)
}

/// The policy of a target: its retry (`name`, definition) and timeout.
fn policy(
    retry: Option<(&str, Yaml<'_>)>,
    timeout: Option<Located<Timeout>>,
    anchor: Span,
    facts: &mut Facts,
) -> RetryPolicy {
    let none = Attempts {
        count: AttemptCount::Finite(1),
        written_as: "no retry policy: one attempt".into(),
    };
    let mut p = RetryPolicy::new(
        System::DaprResiliency,
        anchor,
        Located::written(none, anchor),
    );
    p.per_try_timeout = timeout;
    p.methods = Located::default_at(Methods::All, anchor);
    p.budget_site = BudgetSite::NotOffered;
    let Some((name, r)) = retry else {
        p.retry_on = Located::default_at(RetryOn::Nothing, anchor);
        return p;
    };
    check_yaml_keys(r, RETRY_KEYS, "Dapr retry policy", facts);
    let at = r.span();
    p.scope.route = Some(format!("retry `{name}`"));
    let exponential = match r.get("policy") {
        Some(v) => match v
            .as_str()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
            .as_str()
        {
            "constant" => false,
            "exponential" => true,
            other => {
                facts.diagnostics.push(invalid_setting::value(
                    v.span(),
                    "policy",
                    other,
                    "Dapr knows `constant` and `exponential`",
                ));
                !DEFAULT_POLICY_CONSTANT
            }
        },
        None => !DEFAULT_POLICY_CONSTANT,
    };
    let policy_at = r.get("policy").map_or(at, |v| v.span());
    p.attempts = match r.get("maxRetries") {
        Some(v) => match v.as_i64() {
            Some(n) if n >= 0 => Located::written(
                Attempts {
                    count: AttemptCount::Finite((n as u64).saturating_add(1)),
                    written_as: format!("maxRetries: {n}"),
                },
                v.span(),
            ),
            Some(n) => Located::written(
                Attempts {
                    count: AttemptCount::Unbounded,
                    written_as: format!("maxRetries: {n}"),
                },
                v.span(),
            ),
            None => {
                facts.diagnostics.push(invalid_setting::value(
                    v.span(),
                    "maxRetries",
                    v.as_str().unwrap_or(""),
                    "Dapr expects a whole number (-1: no limit)",
                ));
                Located::written(
                    Attempts {
                        count: AttemptCount::Unknown,
                        written_as: "maxRetries not read".into(),
                    },
                    v.span(),
                )
            }
        },
        // Dapr's default count, but of a retry the resource writes for
        // the target: asked for (no RL403), its bound left out (RL205).
        None => Located::written(
            Attempts {
                count: if DEFAULT_MAX_RETRIES < 0 {
                    AttemptCount::Unbounded
                } else {
                    AttemptCount::Finite(DEFAULT_MAX_RETRIES as u64 + 1)
                },
                written_as: format!("retry {name} without maxRetries: Dapr's default -1, no limit"),
            },
            at,
        ),
    };
    if exponential {
        let cap = r
            .get("maxInterval")
            .and_then(|v| duration(v, "maxInterval", facts).map(|d| (d, v.span())));
        let delay = Delay::Exponential {
            base: EXPONENTIAL_INITIAL,
            multiplier: EXPONENTIAL_MULTIPLIER,
            cap: Some(cap.map_or(DEFAULT_MAX_INTERVAL, |(d, _)| d)),
        };
        p.delay = match cap {
            Some((_, s)) => Located::written(delay, s),
            None => Located::default_at(delay, policy_at),
        };
        p.jitter = Located::default_at(
            Jitter::Proportional {
                factor: EXPONENTIAL_RANDOMIZATION,
            },
            policy_at,
        );
        p.cap_order = CapOrder::BeforeJitter;
        p.overall_timeout = Some(Located::default_at(
            Timeout::after(EXPONENTIAL_MAX_ELAPSED),
            policy_at,
        ));
    } else {
        p.delay = match r.get("duration") {
            Some(v) => match duration(v, "duration", facts) {
                Some(d) => Located::written(Delay::Fixed { delay: d }, v.span()),
                None => Located::written(Delay::Unknown, v.span()),
            },
            None => Located::default_at(
                Delay::Fixed {
                    delay: DEFAULT_DURATION,
                },
                policy_at,
            ),
        };
        p.jitter = Located::default_at(Jitter::None, policy_at);
    }
    p.retry_on = match r.get("matching") {
        Some(m) => Located::written(matching(m), m.span()),
        // Every failed invocation, any response outside 200-399 included
        // (`pkg/api/http/directmessaging.go`).
        None => Located::default_at(RetryOn::AllErrors, at),
    };
    p
}

/// `matching.httpStatusCodes` and `gRPCStatusCodes`: comma-separated codes
/// and ranges (`500,502-504`). A list that is not read is unknown.
fn matching(m: Yaml<'_>) -> RetryOn {
    let mut conditions = Vec::new();
    for (key, grpc) in [("httpStatusCodes", false), ("gRPCStatusCodes", true)] {
        let Some(v) = m.get(key) else {
            continue;
        };
        let text = v
            .as_str()
            .map(str::to_string)
            .or_else(|| v.as_i64().map(|n| n.to_string()));
        let Some(text) = text else {
            return RetryOn::Unknown;
        };
        for part in text.split(',').take(MAX_ENTRIES) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (from, to) = match part.split_once('-') {
                Some((a, b)) => (a.trim().parse::<u16>(), b.trim().parse::<u16>()),
                None => (part.parse::<u16>(), part.parse::<u16>()),
            };
            let (Ok(from), Ok(to)) = (from, to) else {
                return RetryOn::Unknown;
            };
            if grpc {
                for c in from..=to.min(16) {
                    if let Some(n) = crate::extract::grpc_code_test::CODES.get(c as usize) {
                        conditions.push(Located::written(Condition::Grpc(n.to_string()), v.span()));
                    }
                }
            } else {
                conditions.push(Located::written(Condition::Status { from, to }, v.span()));
            }
        }
    }
    RetryOn::Listed { conditions }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn read(text: &str) -> Facts {
        let file = crate::yaml::parse(text);
        let mut facts = Facts::default();
        for doc in &file.documents {
            extract(file.root(doc), &mut facts);
        }
        facts
    }

    const HEAD: &str = "apiVersion: dapr.io/v1alpha1\nkind: Resiliency\nmetadata: {name: r}\n";

    #[test]
    fn a_target_takes_its_retry_and_timeout_with_daprs_defaults() {
        let f = read(&format!(
            "{HEAD}spec:\n  policies:\n    timeouts: {{general: 1500}}\n    retries:\n      c: {{policy: constant}}\n      e: {{policy: exponential, maxRetries: 3}}\n  targets:\n    apps:\n      orders: {{retry: c, timeout: general}}\n      basket: {{retry: e}}\n"
        ));
        assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
        let [c, e] = &f.policies[..] else {
            panic!("{:?}", f.policies)
        };
        assert_eq!(c.scope.callee.as_ref().unwrap().value, "orders");
        // No maxRetries: -1, for ever; constant 5 s, no randomness.
        assert_eq!(c.attempts.value.count, AttemptCount::Unbounded);
        assert!(c.attempts.value.written_as.contains("without maxRetries"));
        assert_eq!(
            c.delay.value,
            Delay::Fixed {
                delay: Duration::from_secs(5)
            }
        );
        assert_eq!(c.jitter.value, Jitter::None);
        assert!(c.overall_timeout.is_none());
        // An integer duration is milliseconds, the timeout per attempt.
        assert_eq!(
            c.per_try_timeout.as_ref().unwrap().value,
            Timeout::after(Duration::from_millis(1500))
        );
        assert_eq!(c.retry_on.value, RetryOn::AllErrors);
        assert_eq!(e.attempts.value.count, AttemptCount::Finite(4));
        assert_eq!(
            e.delay.value,
            Delay::Exponential {
                base: Duration::from_millis(500),
                multiplier: 1.5,
                cap: Some(Duration::from_secs(60)),
            }
        );
        assert_eq!(e.jitter.value, Jitter::Proportional { factor: 0.5 });
        assert_eq!(
            e.overall_timeout.as_ref().unwrap().value,
            Timeout::after(Duration::from_secs(900))
        );
        assert!(e.per_try_timeout.is_none());
    }

    #[test]
    fn defaults_scopes_matching_and_rejected_names() {
        let f = read(&format!(
            "{HEAD}scopes: [web, admin]\nspec:\n  policies:\n    retries:\n      DefaultAppRetryPolicy: {{maxRetries: 2, matching: {{httpStatusCodes: \"500,502-504\", gRPCStatusCodes: \"14\"}}}}\n  targets:\n    apps:\n      orders: {{retry: missing}}\n      basket: {{retry: DefaultAppRetryPolicy, timeout: nope}}\n"
        ));
        let codes: Vec<&str> = f.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["RL902", "RL902"], "{:?}", f.diagnostics);
        // basket (scoped twice), then the default for the others (twice).
        assert_eq!(f.policies.len(), 4);
        let callers: Vec<_> = f
            .policies
            .iter()
            .map(|p| p.scope.caller.as_deref())
            .collect();
        assert_eq!(
            callers,
            [Some("web"), Some("admin"), Some("web"), Some("admin")]
        );
        let d = &f.policies[2];
        assert!(d.scope.callee.is_none());
        assert_eq!(d.attempts.value.count, AttemptCount::Finite(3));
        let RetryOn::Listed { conditions } = &d.retry_on.value else {
            panic!("{:?}", d.retry_on)
        };
        let got: Vec<&Condition> = conditions.iter().map(|c| &c.value).collect();
        assert_eq!(
            got,
            [
                &Condition::status(500),
                &Condition::Status { from: 502, to: 504 },
                &Condition::Grpc("UNAVAILABLE".into())
            ]
        );
        // Not Dapr's: not read.
        assert!(
            read("apiVersion: v1\nkind: Resiliency\nspec: {}\n")
                .policies
                .is_empty()
        );
    }
}
