//! Google Cloud Tasks (and App Engine task queues): the retries a push
//! queue makes of a task whose handler failed, as `queue.yaml` writes them
//! (`queue:` entries with `retry_parameters`), App Engine Java's
//! `queue.xml` ([`xml`]) and Terraform's `google_cloud_tasks_queue`
//! `retry_config` ([`terraform`]). Everything of the system is in this
//! folder: what it is ([`SPEC`]), its defaults, each with the upstream
//! source it comes from, and its readers. Queues made through the Cloud
//! Tasks API in code are not read.

pub mod extract;
pub mod terraform;
pub mod xml;

use super::{Fixes, SystemSpec};
use crate::extract::DocReader;
use crate::model::Layer;
use std::time::Duration;

// system: CloudTasks - Google Cloud Tasks / App Engine push queues (`queue.yaml` `retry_parameters`).
pub static SPEC: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "set `task_retry_limit` or `task_age_limit` in the queue's `retry_parameters` (a task is retried for ever by default), and send what is left to a place you look at",
        explicit: "write the queue's `retry_parameters` explicitly (`task_retry_limit`, `task_age_limit`, `min_backoff_seconds`, `max_backoff_seconds`, `max_doublings`), so that they are visible and counted",
        ..Fixes::GENERIC
    },
    // A task whose last retry fails is deleted (Cloud Tasks
    // `RetryConfig.max_attempts`: "no further attempts are made, and the
    // task is deleted"): no caller waits on it or sees the error.
    background: true,
    ..SystemSpec::plain("Cloud Tasks", Layer::Application)
};

/// The first retry's delay when `min_backoff_seconds` is not written: 0.1 s.
/// App Engine SDK `google/appengine/api/taskqueue/taskqueue_service_pb.py`,
/// `TaskQueueRetryParameters.min_backoff_sec_ = 0.1` (the field's default,
/// restored by `clear_min_backoff_sec`); Cloud Tasks' `RetryConfig.min_backoff`
/// "has the same meaning as min_backoff_seconds in queue.yaml/xml".
pub const DEFAULT_MIN_BACKOFF: Duration = Duration::from_millis(100);

/// The largest delay when `max_backoff_seconds` is not written: 3600 s. Same
/// file, `max_backoff_sec_ = 3600.0`; App Engine's "Retrying failed push
/// tasks" page: by default retries "recur at a maximum of once per hour
/// until the task succeeds".
pub const DEFAULT_MAX_BACKOFF: Duration = Duration::from_secs(3600);

/// How many times the delay doubles when `max_doublings` is not written:
/// 16. Same file, `max_doublings_ = 16`.
pub const DEFAULT_MAX_DOUBLINGS: u32 = 16;

/// Retries when neither `task_retry_limit` nor `task_age_limit` is
/// written: no limit. Same file, `retry_limit` and `age_limit_sec` have no
/// default (`has_retry_limit_ = 0`); the page above: App Engine "retries the
/// task until it succeeds".
pub const DEFAULT_RETRY_LIMIT: Option<u64> = None;

/// Its document reader: a `queue.yaml` (a top-level `queue:` list whose
/// entries have a `name`), offered after the other readers.
pub const DOC_READERS: &[DocReader] = &[DocReader {
    name: "cloud_tasks",
    needles: &["queue:"],
    read: extract::extract,
    order: 1000,
}];

/// RL903 for a `queue.xml` or Terraform file that is not well-formed:
/// `why` at byte `at`, with the text of its line.
pub(crate) fn not_read(text: &str, at: usize, why: &str) -> crate::diag::Diagnostic {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let start = text[..at].rfind('\n').map_or(0, |k| k + 1);
    let end = text[at..].find('\n').map_or(text.len(), |k| at + k);
    crate::diag::unparsable_file::syntax(
        crate::source::Span::new(at, end.max(at)),
        why,
        &text[start..end],
        "fix the syntax so that the queues' retry settings in this file can be checked",
    )
}
