//! The `queue.yaml` reader: one YAML document in, facts out. A document
//! whose top-level `queue` is a list of entries with a `name` is claimed;
//! each push queue (`mode: push`, the default) is one retry policy of the
//! task it runs:
//!
//! - attempts: `task_retry_limit` retries after the first run (no limit
//!   when neither it nor `task_age_limit` is written);
//! - overall time: `task_age_limit` (`2d`, `30m`, `45s`), from the first
//!   run;
//! - delay: `min_backoff_seconds`, doubled `max_doublings` times, then
//!   grown linearly, held at `max_backoff_seconds` (the linear middle is
//!   read as part of the doubling: the first delay, the growth and the
//!   cap are what the rules judge); with `max_doublings: 0` it grows
//!   linearly from the first; with the two bounds equal it is fixed;
//! - no jitter: the documented schedule is exact (10 s, 20 s, 40 s, ...);
//!   the queue dispatches what is due at its `rate`, so the backoff rules
//!   do not judge it (`platform_backoff`).
//!
//! A pull queue (`mode: pull`) is leased by its workers, which retry as
//! their code says: not a policy here. Defaults: [`crate::systems::cloud_tasks`].
//! Pure and bounded: reads only the document it is given.

use super as system;
use crate::diag::invalid_setting;
use crate::extract::{DocCtx, Facts, check_yaml_keys};
use crate::model::{AttemptCount, Attempts, Delay, Jitter, Located, RetryPolicy, System, Timeout};
use crate::yaml::Yaml;
use std::time::Duration;

/// The keys of a queue entry; any other is RL901.
const QUEUE_KEYS: &[&str] = &[
    "name",
    "rate",
    "bucket_size",
    "max_concurrent_requests",
    "mode",
    "target",
    "retry_parameters",
    "acl",
];

/// The keys of `retry_parameters`.
const RETRY_KEYS: &[&str] = &[
    "task_retry_limit",
    "task_age_limit",
    "min_backoff_seconds",
    "max_backoff_seconds",
    "max_doublings",
];

/// At most this many queue entries are read from one document.
const MAX_QUEUES: usize = 1_000;

/// Claims a `queue.yaml` document.
pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let Some(list) = root.get("queue").filter(|q| q.is_seq()) else {
        return false;
    };
    let entries = list.items();
    if entries.is_empty() || !entries.iter().all(|e| e.get("name").is_some()) {
        return false;
    }
    for e in entries.into_iter().take(MAX_QUEUES) {
        queue(ctx, e, facts);
    }
    true
}

fn queue(ctx: &DocCtx<'_>, q: Yaml<'_>, facts: &mut Facts) {
    check_yaml_keys(q, QUEUE_KEYS, "a `queue.yaml` queue", facts);
    if q.get("mode").and_then(|m| m.as_str()) == Some("pull") {
        return;
    }
    let name = q.get("name").and_then(|n| n.as_str()).unwrap_or("queue");
    let rp = q.get("retry_parameters");
    if let Some(rp) = rp {
        check_yaml_keys(rp, RETRY_KEYS, "a queue's `retry_parameters`", facts);
    }
    let anchor = rp.unwrap_or(q).span();
    let get = |k: &str| rp.and_then(|r| r.get(k));
    let text = |v: Yaml<'_>| ctx.text.get(v.span().start..v.span().end).unwrap_or("");

    // Attempts: `task_retry_limit` counts retries after the first run.
    let limit = match get("task_retry_limit") {
        Some(v) => match v.as_i64().filter(|n| *n >= 0) {
            Some(n) => Some((n as u64, v)),
            None => {
                facts.diagnostics.push(invalid_setting::value(
                    v.span(),
                    "task_retry_limit",
                    text(v),
                    "it counts retries after the first run: a whole number, 0 or more",
                ));
                return;
            }
        },
        None => system::DEFAULT_RETRY_LIMIT.map(|n| (n, q)),
    };
    let age = match get("task_age_limit") {
        Some(v) => match v.as_str().and_then(age_limit) {
            Some(d) => Some(Located::written(Timeout::Finite { after: d }, v.span())),
            None => {
                facts.diagnostics.push(invalid_setting::value(
                    v.span(),
                    "task_age_limit",
                    text(v),
                    "it is a number followed by a unit: `s`, `m`, `h` or `d` (`2d`)",
                ));
                return;
            }
        },
        None => None,
    };
    let attempts = match limit {
        Some((n, v)) => Located::written(
            Attempts {
                count: AttemptCount::Finite(n.saturating_add(1)),
                written_as: format!("task_retry_limit: {n}"),
            },
            v.span(),
        ),
        None if age.is_some() => Located::written(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: "no task_retry_limit: retried until task_age_limit passes".to_string(),
            },
            anchor,
        ),
        None => Located::default_at(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: "no task_retry_limit or task_age_limit: retried until it succeeds"
                    .to_string(),
            },
            anchor,
        ),
    };
    let mut p = RetryPolicy::new(System::CloudTasks, anchor, attempts);
    // The queue dispatches the tasks that are due at its `rate` (a token
    // bucket of `bucket_size`), whether first runs or retries: tasks that
    // failed together do not come back together, so the backoff rules
    // (RL201-RL204, RL207) do not apply.
    p.platform_backoff = true;
    p.name = Some(format!("queue {name}"));
    p.overall_timeout = age;

    // The delays.
    let mut bad = false;
    let mut secs = |k: &str, default: Duration| match get(k) {
        Some(v) => match v
            .as_f64()
            .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
        {
            Some(s) => (Duration::from_secs_f64(s), Some(v)),
            None => {
                facts.diagnostics.push(invalid_setting::value(
                    v.span(),
                    k,
                    text(v),
                    "it is a number of seconds, 0 or more",
                ));
                bad = true;
                (default, None)
            }
        },
        None => (default, None),
    };
    let (min, min_at) = secs("min_backoff_seconds", system::DEFAULT_MIN_BACKOFF);
    let (max, max_at) = secs("max_backoff_seconds", system::DEFAULT_MAX_BACKOFF);
    let doublings = match get("max_doublings") {
        Some(v) => match v.as_i64().filter(|n| (0..=1_000).contains(n)) {
            Some(n) => Some((n as u32, v)),
            None => {
                facts.diagnostics.push(invalid_setting::value(
                    v.span(),
                    "max_doublings",
                    text(v),
                    "it counts doublings: a whole number, 0 or more",
                ));
                bad = true;
                None
            }
        },
        None => None,
    };
    if bad {
        return;
    }
    let max = max.max(min);
    let delay = if min == max {
        Delay::Fixed { delay: min }
    } else if doublings.is_some_and(|(d, _)| d == 0) {
        Delay::Linear {
            base: min,
            cap: Some(max),
        }
    } else {
        Delay::Exponential {
            base: min,
            multiplier: 2.0,
            cap: Some(max),
        }
    };
    let written_at = min_at.or(doublings.map(|(_, v)| v)).or(max_at);
    p.delay = match written_at {
        Some(v) => Located::written(delay, v.span()),
        None => Located::default_at(delay, anchor),
    };
    p.jitter = match written_at {
        Some(v) => Located::written(Jitter::None, v.span()),
        None => Located::default_at(Jitter::None, anchor),
    };
    facts.policies.push(p);
}

/// `task_age_limit`: a number followed by `s`, `m`, `h` or `d`.
fn age_limit(s: &str) -> Option<Duration> {
    let s = s.trim();
    let unit = s.chars().last()?;
    let n: f64 = s[..s.len() - unit.len_utf8()].trim().parse().ok()?;
    let per = match unit {
        's' => 1.0,
        'm' => 60.0,
        'h' => 3_600.0,
        'd' => 86_400.0,
        _ => return None,
    };
    let v = n * per;
    (v.is_finite() && (0.0..1e10).contains(&v)).then(|| Duration::from_secs_f64(v))
}

#[cfg(test)]
mod tests {
    use super::age_limit;
    use std::time::Duration;

    #[test]
    fn reads_age_limits_in_each_unit() {
        assert_eq!(age_limit("2d"), Some(Duration::from_secs(172_800)));
        assert_eq!(age_limit("30m"), Some(Duration::from_secs(1_800)));
        assert_eq!(age_limit("1.5h"), Some(Duration::from_secs(5_400)));
        assert_eq!(age_limit("45s"), Some(Duration::from_secs(45)));
        assert_eq!(age_limit("45"), None);
        assert_eq!(age_limit("2w"), None);
        assert_eq!(age_limit(""), None);
    }
}
