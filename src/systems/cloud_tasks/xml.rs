//! The `queue.xml` reader (App Engine Java): `<queue-entries>` with one
//! `<queue>` per queue and its `<retry-parameters>`, the same settings as
//! `queue.yaml` under hyphenated names (`task-retry-limit`,
//! `task-age-limit`, `min-backoff-seconds`, `max-backoff-seconds`,
//! `max-doublings`), read into the same policy (`extract::policy`). Pure
//! and bounded: one file in, facts out.

use super::extract::{Format, Queue, Raw, policy};
use crate::extract::build::xml::{Element, parse_checked};
use crate::model::Facts;
use crate::source::Span;

const XML: Format = Format {
    limit: "task-retry-limit",
    limit_counts_attempts: false,
    age: "task-age-limit",
    min: "min-backoff-seconds",
    max: "max-backoff-seconds",
    doublings: "max-doublings",
    seconds_suffix: false,
    unset: "no task-retry-limit or task-age-limit: retried until it succeeds",
    sep: ": ",
};

/// At most this many queues are read from one file.
const MAX_QUEUES: usize = 1_000;

/// Whether a file is read as a `queue.xml`: an `.xml` file named for
/// queues (App Engine reads `WEB-INF/queue.xml`) whose root is
/// `<queue-entries>`.
pub fn claims(name: &str, bytes: &[u8]) -> bool {
    name.ends_with(".xml")
        && name.contains("queue")
        && memchr::memmem::find(bytes, b"<queue-entries").is_some()
}

pub fn extract(text: &str, facts: &mut Facts) {
    let (root, problem) = parse_checked(text);
    // A file that is not well-formed XML is not read (App Engine rejects
    // it too): what was read of it could be a wrong reading.
    if let Some((at, why)) = problem {
        facts.diagnostics.push(super::not_read(text, at, &why));
        return;
    }
    let Some(entries) = root.child("queue-entries") else {
        return;
    };
    facts.claimed_by("cloud_tasks");
    for q in entries.children_named("queue").take(MAX_QUEUES) {
        if q.text_of("mode").trim() == "pull" {
            continue;
        }
        let rp = q.child("retry-parameters");
        let get = |k: &str| rp.and_then(|r| r.child(k)).map(|e| raw(text, e));
        let name = q.text_of("name").trim();
        policy(
            Queue {
                format: &XML,
                name: if name.is_empty() { "queue" } else { name }.to_string(),
                anchor: tag(text, rp.unwrap_or(q)),
                limit: get("task-retry-limit"),
                age: get("task-age-limit"),
                min: get("min-backoff-seconds"),
                max: get("max-backoff-seconds"),
                doublings: get("max-doublings"),
            },
            facts,
        );
    }
}

/// The span of an element's start tag.
fn tag(text: &str, e: &Element) -> Span {
    let end = text
        .get(e.start..)
        .and_then(|r| r.find('>'))
        .map_or(text.len(), |k| e.start + k + 1);
    Span::new(e.start, end)
}

/// An element's text and where it is (between its tags, trimmed).
fn raw(text: &str, e: &Element) -> Raw {
    let open = tag(text, e).end;
    let close = text
        .get(open..)
        .and_then(|r| r.find('<'))
        .map_or(text.len(), |k| open + k);
    let inner = text.get(open..close).unwrap_or("");
    let lead = inner.len() - inner.trim_start().len();
    let t = inner.trim();
    Raw {
        text: t.to_string(),
        span: Span::new(open + lead, open + lead + t.len()),
    }
}
