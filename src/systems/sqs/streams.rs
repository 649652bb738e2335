//! Lambda's stream event sources (Kinesis, DynamoDB Streams, Kafka): an
//! event source mapping with a starting position reads a shard in order
//! and, when the function fails, retries the same batch, holding the
//! shard, as often as `MaximumRetryAttempts` allows (`-1`, the default:
//! until the records expire from the stream), or until they are older
//! than `MaximumRecordAgeInSeconds` (`-1`, the default: no limit). A
//! record the function always fails on stops its shard until it expires
//! (the "poison pill"; 24 hours at a Kinesis stream's default retention).
//! Read from CloudFormation (`AWS::Lambda::EventSourceMapping` with a
//! `StartingPosition`, SAM `Events` of `Type: Kinesis`, `DynamoDB`, `MSK`
//! or `SelfManagedKafka`) and Terraform (`aws_lambda_event_source_mapping`
//! with a `starting_position`). Pure and bounded.

use super::queue::Raw;
use crate::diag::invalid_setting;
use crate::model::{AttemptCount, Attempts, Facts, Located, RetryPolicy, System, Timeout};
use crate::source::Span;
use std::time::Duration;

/// How a format names the two settings.
pub(super) struct Keys {
    pub retries: &'static str,
    pub age: &'static str,
    pub sep: &'static str,
}

pub(super) const CLOUDFORMATION: Keys = Keys {
    retries: "MaximumRetryAttempts",
    age: "MaximumRecordAgeInSeconds",
    sep: ": ",
};

pub(super) const TERRAFORM: Keys = Keys {
    retries: "maximum_retry_attempts",
    age: "maximum_record_age_in_seconds",
    sep: " = ",
};

/// One stream mapping's retry policy, pushed to `facts`.
pub(super) fn mapping(
    keys: &'static Keys,
    name: &str,
    anchor: Span,
    retries: Option<&Raw>,
    age: Option<&Raw>,
    facts: &mut Facts,
) {
    let int = |v: &Raw| v.text.trim().parse::<i64>().ok();
    let bad = |facts: &mut Facts, v: &Raw, key: &str, why: &str| {
        facts
            .diagnostics
            .push(invalid_setting::value(v.span, key, &v.text, why));
    };
    // A reference or a variable: not known here.
    if retries.is_some_and(|v| int(v).is_none()) || age.is_some_and(|v| int(v).is_none()) {
        return;
    }
    let age = match age {
        Some(v) => match int(v) {
            Some(-1) => None,
            Some(s) if (60..=super::MAX_RECORD_AGE_SECONDS).contains(&s) => Some(Located::written(
                Timeout::Finite {
                    after: Duration::from_secs(s as u64),
                },
                v.span,
            )),
            _ => {
                bad(
                    facts,
                    v,
                    keys.age,
                    "it is -1 (no limit) or a whole number of seconds from 60 to 604800",
                );
                return;
            }
        },
        None => None,
    };
    let attempts = match retries {
        Some(v) => match int(v) {
            Some(-1) => Located::written(
                Attempts {
                    count: AttemptCount::Unbounded,
                    written_as: format!("{}{}-1", keys.retries, keys.sep),
                },
                v.span,
            ),
            Some(n) if (0..=super::MAX_STREAM_RETRIES).contains(&n) => Located::written(
                Attempts {
                    count: AttemptCount::Finite(n as u64 + 1),
                    written_as: format!("{}{}{n} (retries)", keys.retries, keys.sep),
                },
                v.span,
            ),
            _ => {
                bad(
                    facts,
                    v,
                    keys.retries,
                    "it is -1 (no limit) or a whole number of retries from 0 to 10000",
                );
                return;
            }
        },
        None => Located::default_at(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: format!(
                    "no {}: Lambda retries a failing batch until its records expire from the stream, holding its shard",
                    keys.retries
                ),
            },
            anchor,
        ),
    };
    let mut p = RetryPolicy::new(System::LambdaStream, anchor, attempts);
    p.name = Some(format!("event source mapping {name}"));
    // Lambda's own schedule, not the file's: the backoff rules do not
    // judge it.
    p.platform_backoff = true;
    p.overall_timeout = age;
    facts.policies.push(p);
}
