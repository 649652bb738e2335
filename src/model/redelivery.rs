//! A message broker's redelivery timeout (issue 28, mozmeao/basket #474):
//! a message a consumer has taken and not yet acknowledged is handed to
//! another consumer once this long has passed. A task queue that holds a
//! retried task until its countdown is due keeps it unacknowledged all that
//! time, so a retry delay longer than the timeout makes the broker deliver
//! the task again while the first copy still waits (RL305).

use super::SettingPlace;
use crate::source::Span;
use serde::Serialize;
use std::time::Duration;

/// The redelivery timeout in force for a policy's consumers.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Redelivery {
    #[serde(with = "crate::duration::serde_ms")]
    pub after: Duration,
    /// The setting, in the system's own words, for messages and the fix
    /// (`broker_transport_options` `visibility_timeout`).
    pub setting: String,
    /// How the value was read: as written (`{"visibility_timeout": 3600}`)
    /// or the default the broker's library applies.
    pub written_as: String,
    /// Where it is written; `None` for a library default.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub place: Option<SettingPlace>,
}

/// A broker setting one file writes, joined to the retries of the same
/// program by its system's link step.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct BrokerSetting {
    /// The system whose consumers it is for (its [`super::System`] label
    /// key: `celery`).
    pub system: String,
    pub span: Span,
    pub kind: BrokerSettingKind,
}

kind_tagged! {
    "BrokerSettingKind";
    #[derive(Clone, Debug, PartialEq)]
    pub enum BrokerSettingKind {
        /// The transport the broker URL names (`redis`, `sqs`, `amqp`).
        Transport { name: String },
        /// A redelivery timeout as written, with its text.
        Timeout {
            #[serde(with = "crate::duration::serde_ms")]
            after: Duration,
            written_as: String,
        },
        /// An option of the broker's retry middleware, for every actor
        /// that does not set it (Dramatiq's `Retries(max_retries=3)`).
        RetryOption { option: String, value: f64 },
    }
}

/// Work sent to be run later (a Celery `apply_async(countdown=..)` or
/// `eta=`): the worker that takes it holds it unacknowledged until it is
/// due, as it holds a retry's countdown (RL305). Also a consumer that
/// holds a message while it runs, for as long as its own time limit
/// ([`DelayedSend::while_running`]: an SQS queue's Lambda function).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct DelayedSend {
    /// The system (its label key: `celery`).
    pub system: String,
    /// The send, for messages (`stack_calibrations.apply_async`).
    pub name: String,
    pub span: Span,
    #[serde(with = "crate::duration::serde_ms")]
    pub delay: Duration,
    /// The delay as written (`eta=eta`, `countdown=7200`).
    pub written_as: String,
    /// Set by the system's link step, as for a policy.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub redelivery: Option<Redelivery>,
    /// The delay is the time the consumer may run while it holds the
    /// message (an SQS queue's Lambda function and its `Timeout`), not a
    /// wait before it runs.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub while_running: bool,
    /// For a consumer run: the redelivery timeout its platform advises, as
    /// a multiple of its time limit.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub advised: Option<AdvisedMargin>,
}

/// A redelivery timeout a consumer's platform advises, as a multiple of
/// the consumer's time limit (AWS Lambda on SQS: six), in the system's
/// words for messages.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct AdvisedMargin {
    pub factor: u32,
    /// Who advises it, for messages (`AWS advises for a Lambda function`).
    pub by: String,
    /// What happens below it.
    pub why: String,
}
