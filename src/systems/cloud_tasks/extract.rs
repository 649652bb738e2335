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
use crate::source::Span;
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
    let get = |k: &str| {
        rp.and_then(|r| r.get(k)).map(|v| {
            let t = ctx.text.get(v.span().start..v.span().end).unwrap_or("");
            Raw {
                text: t.trim().trim_matches(|c| c == '"' || c == '\'').to_string(),
                span: v.span(),
            }
        })
    };
    policy(
        Queue {
            format: &YAML,
            name: name.to_string(),
            anchor: rp.unwrap_or(q).span(),
            limit: get("task_retry_limit"),
            age: get("task_age_limit"),
            min: get("min_backoff_seconds"),
            max: get("max_backoff_seconds"),
            doublings: get("max_doublings"),
        },
        facts,
    );
}

/// One written value: its text (quotes taken off) and where it is.
pub(super) struct Raw {
    pub text: String,
    pub span: Span,
}

/// How a format names and writes the retry settings of a queue.
pub(super) struct Format {
    pub limit: &'static str,
    /// The limit counts attempts including the first (Cloud Tasks'
    /// `max_attempts`, `-1` no limit), not retries after it.
    pub limit_counts_attempts: bool,
    pub age: &'static str,
    pub min: &'static str,
    pub max: &'static str,
    pub doublings: &'static str,
    /// Backoffs written as durations with an `s` (`"2.5s"`), not numbers.
    pub seconds_suffix: bool,
    /// What a queue with no limit of either kind does.
    pub unset: &'static str,
    /// Between a key and its value as the format writes them.
    pub sep: &'static str,
}

pub(super) const YAML: Format = Format {
    limit: "task_retry_limit",
    limit_counts_attempts: false,
    age: "task_age_limit",
    min: "min_backoff_seconds",
    max: "max_backoff_seconds",
    doublings: "max_doublings",
    seconds_suffix: false,
    unset: "no task_retry_limit or task_age_limit: retried until it succeeds",
    sep: ": ",
};

/// One push queue, as any format writes it.
pub(super) struct Queue {
    pub format: &'static Format,
    pub name: String,
    /// Where the policy is reported when a setting is not written.
    pub anchor: Span,
    pub limit: Option<Raw>,
    pub age: Option<Raw>,
    pub min: Option<Raw>,
    pub max: Option<Raw>,
    pub doublings: Option<Raw>,
}

/// The retry policy of one push queue.
pub(super) fn policy(q: Queue, facts: &mut Facts) {
    let f = q.format;
    let anchor = q.anchor;
    let bad = |facts: &mut Facts, v: &Raw, key: &str, why: &str| {
        facts
            .diagnostics
            .push(invalid_setting::value(v.span, key, &v.text, why));
    };
    // Attempts: retries after the first run (queue.yaml/xml), or attempts
    // including it (Cloud Tasks' `max_attempts`, -1 for no limit).
    let limit = match &q.limit {
        Some(v) => match v.text.parse::<i64>().ok() {
            Some(-1) if f.limit_counts_attempts => None,
            Some(n) if n >= 0 && !(f.limit_counts_attempts && n == 0) => Some((n as u64, v)),
            _ => {
                let why = if f.limit_counts_attempts {
                    "it counts attempts including the first: a whole number, 1 or more, or -1 for no limit"
                } else {
                    "it counts retries after the first run: a whole number, 0 or more"
                };
                bad(facts, v, f.limit, why);
                return;
            }
        },
        None => None,
    };
    let age = match &q.age {
        Some(v) => match age_limit(&v.text) {
            // Cloud Tasks' `max_retry_duration` of zero: no age limit.
            Some(d) if d.is_zero() && f.limit_counts_attempts => None,
            Some(d) => Some(Located::written(Timeout::Finite { after: d }, v.span)),
            None => {
                let why = if f.seconds_suffix {
                    "it is a number of seconds followed by `s` (`3600s`)"
                } else {
                    "it is a number followed by a unit: `s`, `m`, `h` or `d` (`2d`)"
                };
                bad(facts, v, f.age, why);
                return;
            }
        },
        None => None,
    };
    let attempts = match (limit, &q.limit) {
        (Some((n, v)), _) => {
            let count = if f.limit_counts_attempts {
                n
            } else {
                n.saturating_add(1)
            };
            Located::written(
                Attempts {
                    count: AttemptCount::Finite(count),
                    written_as: format!("{}{}{n}", f.limit, f.sep),
                },
                v.span,
            )
        }
        // `max_attempts = -1`.
        (None, Some(v)) => Located::written(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: format!("{}{}{}", f.limit, f.sep, v.text),
            },
            v.span,
        ),
        (None, None) if age.is_some() => Located::written(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: format!("no {}: retried until {} passes", f.limit, f.age),
            },
            anchor,
        ),
        (None, None) if f.limit_counts_attempts => Located::default_at(
            Attempts {
                count: AttemptCount::Unknown,
                written_as: f.unset.to_string(),
            },
            anchor,
        ),
        (None, None) => Located::default_at(
            Attempts {
                count: system::DEFAULT_RETRY_LIMIT
                    .map_or(AttemptCount::Unbounded, |n| AttemptCount::Finite(n + 1)),
                written_as: f.unset.to_string(),
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
    p.name = Some(format!("queue {}", q.name));
    p.overall_timeout = age;

    // The delays.
    let mut failed = false;
    let mut secs = |v: &Option<Raw>, key: &str, default: Duration, facts: &mut Facts| match v {
        Some(v) => {
            let t = if f.seconds_suffix {
                v.text.strip_suffix('s')
            } else {
                Some(v.text.as_str())
            };
            match t
                .and_then(|t| t.trim().parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
            {
                Some(s) => (Duration::from_secs_f64(s), Some(v.span)),
                None => {
                    let why = if f.seconds_suffix {
                        "it is a number of seconds followed by `s` (`0.1s`)"
                    } else {
                        "it is a number of seconds, 0 or more"
                    };
                    bad(facts, v, key, why);
                    failed = true;
                    (default, None)
                }
            }
        }
        None => (default, None),
    };
    let (min, min_at) = secs(&q.min, f.min, system::DEFAULT_MIN_BACKOFF, facts);
    let (max, max_at) = secs(&q.max, f.max, system::DEFAULT_MAX_BACKOFF, facts);
    let doublings = match &q.doublings {
        Some(v) => match v
            .text
            .parse::<i64>()
            .ok()
            .filter(|n| (0..=1_000).contains(n))
        {
            Some(n) => Some((n as u32, v.span)),
            None => {
                bad(
                    facts,
                    v,
                    f.doublings,
                    "it counts doublings: a whole number, 0 or more",
                );
                return;
            }
        },
        None => None,
    };
    if failed {
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
        Some(v) => Located::written(delay, v),
        None => Located::default_at(delay, anchor),
    };
    p.jitter = match written_at {
        Some(v) => Located::written(Jitter::None, v),
        None => Located::default_at(Jitter::None, anchor),
    };
    facts.policies.push(p);
}

/// `task_age_limit`: a number followed by `s`, `m`, `h` or `d`.
pub(super) fn age_limit(s: &str) -> Option<Duration> {
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
