//! One SQS queue and the Lambda functions subscribed to it, as any format
//! writes them, into facts: the queue's retry policy and each consumer's
//! time limit against the queue's visibility timeout. Shared by the
//! CloudFormation and Terraform readers; pure and bounded.

use crate::diag::invalid_setting;
use crate::duration::human;
use crate::model::{
    AdvisedMargin, AttemptCount, Attempts, Delay, DelayedSend, Facts, Jitter, Located, Redelivery,
    RetryPolicy, System, Timeout,
};
use crate::source::Span;
use std::time::Duration;

/// How a format names the settings.
pub(super) struct Words {
    pub visibility: &'static str,
    pub retention: &'static str,
    pub redrive: &'static str,
    pub timeout: &'static str,
    /// Between a key and its value as the format writes them.
    pub sep: &'static str,
}

pub(super) const CLOUDFORMATION: Words = Words {
    visibility: "VisibilityTimeout",
    retention: "MessageRetentionPeriod",
    redrive: "RedrivePolicy",
    timeout: "Timeout",
    sep: ": ",
};

pub(super) const TERRAFORM: Words = Words {
    visibility: "visibility_timeout_seconds",
    retention: "message_retention_seconds",
    redrive: "redrive_policy",
    timeout: "timeout",
    sep: " = ",
};

/// One written value: its text (quotes taken off) and where it is.
#[derive(Clone, Debug)]
pub(super) struct Raw {
    pub text: String,
    pub span: Span,
}

/// What the queue's redrive policy says of the receives.
pub(super) enum Redrive {
    /// No redrive policy.
    None,
    /// `maxReceiveCount`, as written.
    Count(Raw),
    /// Written, but its count is not read (a parameter, a variable).
    Unknown,
}

pub(super) struct Queue {
    pub words: &'static Words,
    pub name: String,
    /// Where the queue is declared (its resource's type or label).
    pub anchor: Span,
    pub visibility: Option<Raw>,
    pub retention: Option<Raw>,
    pub redrive: Redrive,
}

/// A whole number of seconds in `range`; `Err` for a number outside it or
/// not whole, `Ok(None)` for text that is no number (a reference).
fn seconds(v: &Raw, range: std::ops::RangeInclusive<u64>) -> Result<Option<u64>, ()> {
    let t = v.text.trim();
    match t.parse::<f64>() {
        Ok(f) if f.is_finite() && f.fract() == 0.0 && f >= 0.0 && range.contains(&(f as u64)) => {
            Ok(Some(f as u64))
        }
        Ok(_) => Err(()),
        Err(_) => Ok(None),
    }
}

/// The queue's policy, pushed to `facts`; returns the visibility timeout
/// its consumers are held to (`None` when it is not read).
pub(super) fn read(q: &Queue, facts: &mut Facts) -> Option<Redelivery> {
    let w = q.words;
    let bad = |facts: &mut Facts, v: &Raw, key: &str, why: &str| {
        facts
            .diagnostics
            .push(invalid_setting::value(v.span, key, &v.text, why));
    };
    let visibility = match &q.visibility {
        Some(v) => match seconds(v, 0..=super::MAX_VISIBILITY_TIMEOUT.as_secs()) {
            Ok(Some(s)) => Some((Duration::from_secs(s), Some(v))),
            Ok(None) => None,
            Err(()) => {
                bad(
                    facts,
                    v,
                    w.visibility,
                    "it is a whole number of seconds from 0 to 43200 (12 hours)",
                );
                return None;
            }
        },
        None => Some((super::DEFAULT_VISIBILITY_TIMEOUT, None)),
    };
    let retention = match &q.retention {
        Some(v) => match seconds(v, 60..=1_209_600) {
            Ok(Some(s)) => Some((Duration::from_secs(s), Some(v))),
            Ok(None) => None,
            Err(()) => {
                bad(
                    facts,
                    v,
                    w.retention,
                    "it is a whole number of seconds from 60 to 1209600 (14 days)",
                );
                return None;
            }
        },
        None => Some((super::DEFAULT_RETENTION, None)),
    };
    let attempts = match &q.redrive {
        Redrive::Count(v) => match seconds(v, 1..=super::MAX_RECEIVE_COUNT) {
            Ok(Some(n)) => Some(Located::written(
                Attempts {
                    count: AttemptCount::Finite(n),
                    written_as: format!("maxReceiveCount{}{n}", w.sep),
                },
                v.span,
            )),
            Ok(None) => None,
            Err(()) => {
                bad(
                    facts,
                    v,
                    "maxReceiveCount",
                    "it is a whole number of receives from 1 to 1000",
                );
                return None;
            }
        },
        Redrive::None => Some(Located::default_at(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: format!(
                    "no {}: received again until the message expires ({})",
                    w.redrive,
                    retention.map_or_else(|| w.retention.to_string(), |(d, _)| human(d)),
                ),
            },
            q.anchor,
        )),
        Redrive::Unknown => None,
    };
    if let Some(attempts) = attempts {
        let mut p = RetryPolicy::new(System::Sqs, q.anchor, attempts);
        p.name = Some(format!("queue {}", q.name));
        // Each message is received again when its own visibility timeout
        // ends, counted from its own receive: messages that failed at
        // different times come back at different times, and the delay is
        // the queue's, the same for every receive. The backoff rules do
        // not judge it (as a task queue's schedule).
        p.platform_backoff = true;
        if let Some((d, at)) = visibility {
            p.delay = match at {
                Some(v) => Located::written(Delay::Fixed { delay: d }, v.span),
                None => Located::default_at(Delay::Fixed { delay: d }, q.anchor),
            };
            p.jitter = Located::default_at(Jitter::None, p.delay.span);
        }
        // The message is deleted when it has been kept this long, however
        // often it was received.
        p.overall_timeout = retention.map(|(d, at)| match at {
            Some(v) => Located::written(Timeout::Finite { after: d }, v.span),
            None => Located::default_at(Timeout::Finite { after: d }, q.anchor),
        });
        facts.policies.push(p);
    }
    let (after, at) = visibility?;
    Some(Redelivery {
        after,
        setting: format!("the queue's `{}`", w.visibility),
        written_as: match at {
            Some(v) => format!(
                "`{}{}{}` of queue `{}`",
                w.visibility, w.sep, v.text, q.name
            ),
            None => format!("none set on queue `{}`: SQS's default of 30 s", q.name),
        },
        place: None,
    })
}

/// A Lambda function that receives the queue's messages: its time limit
/// (`timeout`, `None` when not written) against the queue's visibility
/// timeout. A message whose run outlasts it is received again by another
/// run while the first still works on it (RL305).
pub(super) fn consumer(
    words: &'static Words,
    function: &str,
    timeout: Option<&Raw>,
    anchor: Span,
    queue: &Redelivery,
    facts: &mut Facts,
) {
    let (delay, span, written_as) = match timeout {
        Some(v) => match seconds(v, 1..=900) {
            Ok(Some(s)) => (
                Duration::from_secs(s),
                v.span,
                format!("{}{}{}", words.timeout, words.sep, v.text),
            ),
            Ok(None) => return,
            Err(()) => {
                facts.diagnostics.push(invalid_setting::value(
                    v.span,
                    words.timeout,
                    &v.text,
                    "it is a whole number of seconds from 1 to 900",
                ));
                return;
            }
        },
        None => (
            super::DEFAULT_LAMBDA_TIMEOUT,
            anchor,
            format!("no {}: Lambda's default of 3 s", words.timeout),
        ),
    };
    facts.delayed_sends.push(DelayedSend {
        system: "sqs".into(),
        name: format!("function {function}"),
        span,
        delay,
        written_as,
        redelivery: Some(queue.clone()),
        while_running: true,
        advised: Some(AdvisedMargin {
            factor: super::LAMBDA_VISIBILITY_FACTOR,
            by: "AWS advises for a Lambda function".into(),
            why: "Lambda holds a batch while it retries a throttled run, and a message that becomes visible meanwhile is received again, each time counting towards `maxReceiveCount`".into(),
        }),
    });
}
