//! Terraform's `google_cloud_tasks_queue`: the `retry_config` block of
//! each such resource (`max_attempts`, `max_retry_duration`,
//! `min_backoff`, `max_backoff`, `max_doublings`), read into the same
//! policy as `queue.yaml` (`extract::policy`). Cloud Tasks' own names and
//! units: `max_attempts` counts attempts including the first (`-1`: no
//! limit), durations are seconds with an `s` (`"3600s"`), and a
//! `max_retry_duration` of zero is no age limit (Cloud Tasks
//! `RetryConfig`). A setting left out is "picked by Cloud Tasks when the
//! queue is created": the delays then take the queue.yaml defaults
//! (`RetryConfig.min_backoff` and the others "have the same meaning as"
//! queue.yaml's, [`crate::systems::cloud_tasks`]); the attempt count is
//! not known (no public source states the default). Pure and bounded.

use super::extract::{Format, Queue, Raw, policy};
use crate::extract::hcl::{Attr, Block};
use crate::model::Facts;

const TERRAFORM: Format = Format {
    limit: "max_attempts",
    limit_counts_attempts: true,
    age: "max_retry_duration",
    min: "min_backoff",
    max: "max_backoff",
    doublings: "max_doublings",
    seconds_suffix: true,
    unset: "no max_attempts: Cloud Tasks picks the count when the queue is created",
    sep: " = ",
};

const RESOURCE: &str = "google_cloud_tasks_queue";

/// Whether a file is read as Terraform with Cloud Tasks queues.
pub fn claims(name: &str, bytes: &[u8]) -> bool {
    name.ends_with(".tf") && memchr::memmem::find(bytes, RESOURCE.as_bytes()).is_some()
}

/// The Cloud Tasks queues of a parsed Terraform file (parsed and checked
/// once for every Terraform reader: `systems::read`).
pub fn extract(blocks: &[Block], facts: &mut Facts) {
    for r in blocks
        .iter()
        .filter(|b| b.kind == "resource" && b.labels.first().map(String::as_str) == Some(RESOURCE))
    {
        facts.claimed_by("cloud_tasks");
        queue(r, facts);
    }
}

fn queue(r: &Block, facts: &mut Facts) {
    let rc = r.block("retry_config");
    // A value that is an expression (`var.attempts`, `local.x`) is not
    // known here: the queue's policy is not read rather than guessed.
    if rc.is_some_and(|b| b.attrs.iter().any(|a| !literal(&a.value))) {
        return;
    }
    let get = |k: &str| rc.and_then(|b| b.attr(k)).map(raw);
    let name = r
        .attr("name")
        .map(|a| a.unquoted())
        .filter(|n| !n.contains(['"', '$', '.', '(']))
        .or(r.labels.get(1).map(String::as_str))
        .unwrap_or("queue");
    let anchor = rc.unwrap_or(r).span;
    let anchor = crate::source::Span::new(
        anchor.start,
        (anchor.start + rc.map_or("resource", |_| "retry_config").len()).min(anchor.end),
    );
    policy(
        Queue {
            format: &TERRAFORM,
            name: name.to_string(),
            anchor,
            limit: get("max_attempts"),
            age: get("max_retry_duration"),
            min: get("min_backoff"),
            max: get("max_backoff"),
            doublings: get("max_doublings"),
        },
        facts,
    );
}

fn raw(a: &Attr) -> Raw {
    Raw {
        text: a.unquoted().to_string(),
        span: a.span,
    }
}

/// A number or a plain quoted string.
fn literal(v: &str) -> bool {
    let plain = v
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .is_some_and(|s| !s.contains(['"', '$', '%']));
    plain || v.parse::<f64>().is_ok()
}
