//! Amazon SQS: a message a consumer received and did not delete is
//! received again once the queue's visibility timeout has passed, as many
//! times as the queue's redrive policy allows (`maxReceiveCount`), and
//! with no redrive policy until the message expires. Read from
//! CloudFormation/SAM templates (`AWS::SQS::Queue`, YAML or JSON,
//! [`cloudformation`]) and Terraform (`aws_sqs_queue`, [`terraform`]): each
//! queue is one retry policy of the work its consumers do, and a Lambda
//! function the same template subscribes to the queue is judged against
//! the queue's visibility timeout (RL305). Everything of the system is in
//! this folder: what it is ([`SPEC`]), its defaults, each with the page of
//! AWS's documentation that states it, and its readers. Queues made in
//! code (`create_queue`) and consumers outside the template are not read.
//!
//! A Lambda stream event source mapping (Kinesis, DynamoDB Streams,
//! Kafka: [`streams`]) is read here too, as its own system
//! ([`STREAM_SPEC`]): a failing batch is retried, holding its shard, until
//! `MaximumRetryAttempts` or the records expire (RL205 when neither is
//! set).
//!
//! Which rules judge a queue (issue 28):
//! - attempts: `maxReceiveCount` receives, the first included; no
//!   `RedrivePolicy` is no limit but the message's expiry, 4 days by
//!   default, longer than RL205's one-day deadline: RL205;
//! - delay: the visibility timeout, the same for every receive and
//!   applied per message as each one's timeout ends, so the backoff
//!   rules do not judge it (`platform_backoff`, as a task queue's);
//! - a consumer whose own time limit (a Lambda function's `Timeout`) is
//!   longer than the visibility timeout is handed the same message again
//!   while it still runs: RL305, with the visibility timeout as the
//!   redelivery timeout; a visibility timeout below the six times a
//!   Lambda function's timeout that AWS advises is RL305 too (messages
//!   come back while Lambda still retries a throttled batch, and each
//!   return counts towards `maxReceiveCount`).

pub mod cloudformation;
mod queue;
mod streams;
pub mod terraform;

use super::{Fixes, SystemSpec};
use crate::extract::DocReader;
use crate::model::Layer;
use std::time::Duration;

// system: Sqs - Amazon SQS queues (`AWS::SQS::Queue` `RedrivePolicy`, Terraform `aws_sqs_queue`).
pub static SPEC: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "give the queue a redrive policy (`RedrivePolicy` with `deadLetterTargetArn` and `maxReceiveCount`; Terraform `redrive_policy`), so that a message that keeps failing is moved to a dead-letter queue you watch instead of being received again until it expires",
        explicit: "write the queue's `VisibilityTimeout` and `RedrivePolicy` explicitly, so that they are visible and counted",
        ..Fixes::GENERIC
    },
    // No caller waits on a queued message: a message whose last receive
    // fails is moved to the dead-letter queue (or deleted when it
    // expires), and nothing retries it unless someone redrives it. A
    // caller's deadline (RL304) does not apply. RL209 takes the retention
    // period (the policy's overall timeout) as the window, so it does not
    // report a queue: a message past its last receive is parked, not
    // dropped.
    background: true,
    ..SystemSpec::plain("Amazon SQS", Layer::Application)
};

// system: LambdaStream - AWS Lambda stream event source mappings (Kinesis, DynamoDB Streams, Kafka).
pub static STREAM_SPEC: SystemSpec = SystemSpec {
    fixes: Fixes {
        bound: "set `MaximumRetryAttempts` (Terraform `maximum_retry_attempts`) to a few retries, with `BisectBatchOnFunctionError` and an on-failure destination, so that a record the function always fails on does not hold its shard until it expires",
        explicit: "write the mapping's `MaximumRetryAttempts` and `MaximumRecordAgeInSeconds` explicitly, so that they are visible and counted",
        ..Fixes::GENERIC
    },
    // No caller waits on a stream record; a failing batch holds its shard.
    background: true,
    ..SystemSpec::plain("AWS Lambda stream mapping", Layer::Application)
};

/// A stream mapping's retries when `MaximumRetryAttempts` is not set:
/// none but the records' expiry. The Lambda API model (botocore
/// `botocore/data/lambda/2015-03-31/service-2.json`, as vendored in
/// aws-samples/serverless-patterns@fb7b5d0), `CreateEventSourceMapping`'s
/// `MaximumRetryAttempts`: "(Kinesis and DynamoDB Streams only) Discard
/// records after the specified number of retries. The default value is
/// -1, which sets the maximum number of retries to infinite. When
/// MaximumRetryAttempts is infinite, Lambda retries failed records until
/// the record expires in the event source"; `MaximumRecordAgeInSeconds`
/// likewise defaults to -1, infinite.
pub const DEFAULT_STREAM_RETRIES: Option<u64> = None;

/// The largest `MaximumRetryAttempts` of a stream mapping: 10,000 (same
/// page, "Maximum value of 10000").
pub const MAX_STREAM_RETRIES: i64 = 10_000;

/// The largest `MaximumRecordAgeInSeconds`: 604,800 s (same page).
pub const MAX_RECORD_AGE_SECONDS: i64 = 604_800;

/// The visibility timeout of a queue that does not set one: 30 s. AWS SQS
/// API Reference, `CreateQueue`, attribute `VisibilityTimeout`: "Valid
/// values: An integer from 0 to 43,200 (12 hours). Default: 30"; the
/// CloudFormation `AWS::SQS::Queue` `VisibilityTimeout` and the Terraform
/// `aws_sqs_queue` `visibility_timeout_seconds` (default 30) pass it on.
pub const DEFAULT_VISIBILITY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a message is kept when `MessageRetentionPeriod` is not set:
/// 345,600 s (4 days). Same page, `MessageRetentionPeriod`: "from 60
/// seconds (1 minute) to 1,209,600 seconds (14 days). Default: 345,600 (4
/// days)"; Terraform's `message_retention_seconds` default is the same.
pub const DEFAULT_RETENTION: Duration = Duration::from_secs(345_600);

/// The most receives a redrive policy allows: 1,000 (SQS Developer Guide,
/// "Using dead-letter queues": `maxReceiveCount` is 1 to 1,000).
pub const MAX_RECEIVE_COUNT: u64 = 1_000;

/// The largest visibility timeout: 12 hours (`CreateQueue`, above).
pub const MAX_VISIBILITY_TIMEOUT: Duration = Duration::from_secs(43_200);

/// A Lambda function's time limit when `Timeout` (Terraform `timeout`) is
/// not set: 3 s. CloudFormation `AWS::Lambda::Function` `Timeout`: "The
/// amount of time (in seconds) that Lambda allows a function to run
/// before stopping it. The default is 3 seconds. The maximum allowed value
/// is 900 seconds"; SAM's `AWS::Serverless::Function` and Terraform's
/// `aws_lambda_function` `timeout` (default 3) take the same.
pub const DEFAULT_LAMBDA_TIMEOUT: Duration = Duration::from_secs(3);

/// The visibility timeout AWS advises for a queue a Lambda function
/// consumes, as a multiple of the function's timeout: six. AWS Lambda
/// Developer Guide, "Using Lambda with Amazon SQS" (configuring a queue):
/// "set the source queue's visibility timeout to at least six times the
/// timeout that you configure on your function", which leaves Lambda time
/// to retry a batch whose invocation was throttled.
pub const LAMBDA_VISIBILITY_FACTOR: u32 = 6;

/// The CloudFormation reader: templates that declare an `AWS::SQS::Queue`
/// or a stream event source (`StartingPosition`).
pub const DOC_READERS: &[DocReader] = &[DocReader {
    name: "sqs",
    needles: &["AWS::SQS::Queue", "StartingPosition"],
    read: cloudformation::extract,
    order: 120,
}];
