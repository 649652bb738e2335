//! Celery's redelivery of a task whose worker died: with late
//! acknowledgement (`task_acks_late`) and `task_reject_on_worker_lost`,
//! a task whose worker process exits abruptly (an OOM kill, a node
//! eviction) is put back on the queue and run again, by the same worker
//! or another, with no limit and no delay: a task that kills its worker on
//! every run loops for ever (issue 28, freelabz/secator PR #1199). Celery
//! (`celery/app/task.py` `Task.reject_on_worker_lost`, and
//! `docs/userguide/configuration.rst` `task_reject_on_worker_lost`,
//! "Default: Disabled"): "Even if acks_late is enabled, the worker will
//! acknowledge tasks when the worker process executing them abruptly
//! exits .. Setting this to true allows the message to be re-queued
//! instead, so that the task will execute again by the same worker, or
//! another worker. Warning: Enabling this can cause message loops"; it
//! means nothing without late acknowledgement (without it the message
//! was acknowledged before the task ran).
//!
//! Read where one file sets both to `True`: the settings module's names
//! (`task_acks_late`, Django's `CELERY_TASK_ACKS_LATE`, the old
//! `CELERY_ACKS_LATE`), `app.conf.task_acks_late = True`, keyword
//! arguments (`app.conf.update(task_acks_late=True, ..)`,
//! `@app.task(acks_late=True, reject_on_worker_lost=True)`).

use super::{Ctx, field, policy, span};
use crate::model::{AttemptCount, Attempts, Condition, Delay, Facts, Jitter, Located, RetryOn};
use crate::systems::python::extract::Kind as _;
use tree_sitter::Node;

/// The setting a name stands for, if one of the two: `task_acks_late`,
/// `CELERY_TASK_ACKS_LATE`, `acks_late` (a task option) and the same for
/// `reject_on_worker_lost`.
fn setting(name: &str) -> Option<bool> {
    let n = name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase();
    let n = n.strip_prefix("celery_").unwrap_or(&n);
    let n = n.strip_prefix("task_").unwrap_or(n);
    match n {
        "acks_late" => Some(false),
        "reject_on_worker_lost" => Some(true),
        _ => None,
    }
}

pub(super) fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    let mut acks_late = false;
    let mut reject: Option<Node<'_>> = None;
    for n in &ctx.nodes {
        let (name, value) = match n.kind_str() {
            "assignment" => (field(*n, "left"), field(*n, "right")),
            "keyword_argument" => (field(*n, "name"), field(*n, "value")),
            _ => continue,
        };
        let (Some(name), Some(value)) = (name, value) else {
            continue;
        };
        if value.kind_str() != "true" {
            continue;
        }
        match setting(ctx.text(name)) {
            Some(false) => acks_late = true,
            Some(true) => reject = reject.or(Some(*n)),
            None => {}
        }
    }
    let (true, Some(at)) = (acks_late, reject) else {
        return;
    };
    let mut p = policy(
        "celery",
        span(at),
        Located::written(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: format!(
                    "{} with late acknowledgement: a task whose worker dies is delivered again, with no limit",
                    super::one_line(ctx.text(at))
                ),
            },
            span(at),
        ),
    );
    p.name = Some("Celery redelivery of a task whose worker was lost".into());
    p.delay = Located::written(Delay::None, span(at));
    p.jitter = Located::written(Jitter::None, span(at));
    p.retry_on = Located::written(
        RetryOn::Listed {
            conditions: vec![Located::written(
                Condition::Exception("WorkerLostError".into()),
                span(at),
            )],
        },
        span(at),
    );
    facts.policies.push(p);
}
