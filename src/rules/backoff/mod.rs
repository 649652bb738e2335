//! Rules of the `backoff` category (RL2xx): how often and how fast a policy
//! retries.

pub mod backoff_cap_too_small;
pub mod excessive_attempts;
pub mod fixed_delay;
pub mod jitter_clipped_by_cap;
pub mod missing_backoff;
pub mod retry_after_unbounded;
pub mod retry_window_too_short;
pub mod unbounded_retries;
pub mod unjittered_backoff;

use crate::model::{Condition, RetryOn};

/// Whether a policy retries write conflicts alone (a `409` or `412`, a
/// `Conflict`, optimistic-lock, stale-version or failed-condition error:
/// ZooKeeper's `BadVersionException`, DynamoDB's
/// `ConditionalCheckFailedException`): a loop that reads the object again
/// and writes once more. The conflict ends when the other writer is done,
/// not when an outage does, so a delay that stays short, or none, is right
/// there (stop 43 for RL202, stop 46 for RL201).
pub(crate) fn conflicts_only(on: &RetryOn) -> bool {
    let RetryOn::Listed { conditions } = on else {
        return false;
    };
    !conditions.is_empty()
        && conditions.iter().all(|c| match &c.value {
            Condition::Status { from, to } => from == to && matches!(from, 409 | 412),
            Condition::Exception(e) => {
                e.contains("Conflict")
                    || e.contains("OptimisticLock")
                    || e.contains("BadVersion")
                    || e.contains("StaleObjectState")
                    || e.contains("ConditionalCheckFailed")
                    || e.contains("PreconditionFailed")
                    // Postgres's `serialization_failure` (SQLSTATE 40001,
                    // "could not serialize access due to concurrent
                    // update": another transaction won), as diesel and
                    // sqlx name it; a write conflict of the same kind.
                    || e.contains("SerializationFailure")
                    || e.contains("WriteConflict")
                    || e.contains("StaleVersion")
            }
            _ => false,
        })
}
