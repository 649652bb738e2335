//! CloudFormation and SAM templates (YAML, with or without the short
//! `!GetAtt`/`!Ref` tags, and JSON): each `AWS::SQS::Queue` of
//! `Resources` (`VisibilityTimeout`, `MessageRetentionPeriod`,
//! `RedrivePolicy.maxReceiveCount`), and the Lambda functions the same
//! template subscribes to a queue: an `AWS::Lambda::EventSourceMapping`
//! whose `EventSourceArn` and `FunctionName` name a queue and a function
//! of the template, or a SAM function's `Events` entry of `Type: SQS`.
//! A function's `Timeout` is its own, or SAM's `Globals.Function.Timeout`.
//! A value that is a reference (`!Ref VisibilityParam`) is not read. A
//! queue that is a dead-letter or failure target of another resource of
//! the template (a queue's `deadLetterTargetArn`, a function's
//! `DeadLetterQueue` or `DestinationConfig.OnFailure`, a target's
//! `DeadLetterConfig`), that has a `RedriveAllowPolicy`, or whose name
//! says it is one (`dlq`, `deadletter`) is where failed work ends, not
//! retried work, and is not a policy. Pure and bounded: reads only the document it is given.

use super::queue::{self, CLOUDFORMATION, Queue, Raw, Redrive};
use crate::extract::{DocCtx, Facts};
use crate::model::Redelivery;
use crate::yaml::Yaml;

/// At most this many resources are read from one template.
const MAX_RESOURCES: usize = 5_000;

const QUEUE: &str = "AWS::SQS::Queue";
const FUNCTIONS: &[&str] = &["AWS::Lambda::Function", "AWS::Serverless::Function"];
const MAPPING: &str = "AWS::Lambda::EventSourceMapping";

/// Claims a template that declares an SQS queue.
pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let Some(resources) = root.get("Resources").filter(|r| r.is_map()) else {
        return false;
    };
    let entries: Vec<_> = resources
        .entries()
        .into_iter()
        .take(MAX_RESOURCES)
        .collect();
    let kind = |v: Yaml<'_>| v.get("Type").and_then(|t| t.as_str()).map(str::to_string);
    let streams = stream_mappings(ctx, &entries, facts);
    if !entries
        .iter()
        .any(|e| kind(e.value).as_deref() == Some(QUEUE))
    {
        return streams > 0;
    }
    // The queues something sends what failed to: another queue's redrive
    // policy (`deadLetterTargetArn`), a function's `DeadLetterQueue` or
    // `DestinationConfig.OnFailure`, a rule target's `DeadLetterConfig`.
    let mut targets: Vec<String> = Vec::new();
    for e in &entries {
        if let Some(p) = props_of(e.value) {
            failure_targets(p, false, 0, &mut targets);
        }
    }
    let mut queues: Vec<(String, Redelivery)> = Vec::new();
    for e in entries
        .iter()
        .filter(|e| kind(e.value).as_deref() == Some(QUEUE))
    {
        let p = props_of(e.value);
        let name = p
            .and_then(|p| p.get("QueueName"))
            .and_then(|n| n.as_str())
            // `!Sub ${Environment}-jobs`: the logical id names it better.
            .filter(|n| !n.is_empty() && !n.contains("${"))
            .unwrap_or(e.key);
        if targets.iter().any(|t| t == e.key)
            || p.is_some_and(|p| p.get("RedriveAllowPolicy").is_some())
            || names_dead_letter(e.key)
            || names_dead_letter(name)
        {
            continue;
        }
        let get = |k: &str| p.and_then(|p| p.get(k)).map(|v| raw(ctx, v));
        let redrive = match p.and_then(|p| p.get("RedrivePolicy")) {
            None => Redrive::None,
            Some(rp) => match rp.get("maxReceiveCount") {
                Some(v) if v.as_str().is_some() => Redrive::Count(raw(ctx, v)),
                _ => Redrive::Unknown,
            },
        };
        let q = Queue {
            words: &CLOUDFORMATION,
            name: name.to_string(),
            anchor: e.key_span,
            visibility: get("VisibilityTimeout"),
            retention: get("MessageRetentionPeriod"),
            redrive,
        };
        if let Some(r) = queue::read(&q, facts) {
            queues.push((e.key.to_string(), r));
        }
    }
    if queues.is_empty() {
        return true;
    }
    let global_timeout = root
        .path(&["Globals", "Function", "Timeout"])
        .map(|v| raw(ctx, v));
    let queue_of = |v: Yaml<'_>| {
        let id = logical_id(v)?;
        queues.iter().find(|(q, _)| *q == id).map(|(_, r)| r)
    };
    let function = |id: &str| {
        entries
            .iter()
            .find(|e| e.key == id && kind(e.value).is_some_and(|k| FUNCTIONS.contains(&k.as_str())))
    };
    for e in &entries {
        let Some(k) = kind(e.value) else {
            continue;
        };
        if FUNCTIONS.contains(&k.as_str()) {
            // SAM: `Events: { Jobs: { Type: SQS, Properties: { Queue: !GetAtt Q.Arn } } }`.
            let Some(events) = props_of(e.value).and_then(|p| p.get("Events")) else {
                continue;
            };
            for ev in events.entries() {
                if ev.value.get("Type").and_then(|t| t.as_str()) != Some("SQS") {
                    continue;
                }
                let Some(r) = ev.value.path(&["Properties", "Queue"]).and_then(queue_of) else {
                    continue;
                };
                let timeout = props_of(e.value)
                    .and_then(|p| p.get("Timeout"))
                    .map(|v| raw(ctx, v))
                    .or_else(|| global_timeout.clone());
                queue::consumer(
                    &CLOUDFORMATION,
                    e.key,
                    timeout.as_ref(),
                    e.key_span,
                    r,
                    facts,
                );
            }
        } else if k == MAPPING {
            let Some(p) = props_of(e.value) else {
                continue;
            };
            let Some(r) = p.get("EventSourceArn").and_then(queue_of) else {
                continue;
            };
            let Some(f) = p
                .get("FunctionName")
                .and_then(logical_id)
                .and_then(|id| function(&id))
            else {
                continue;
            };
            let timeout = props_of(f.value)
                .and_then(|p| p.get("Timeout"))
                .map(|v| raw(ctx, v))
                .or_else(|| global_timeout.clone());
            queue::consumer(
                &CLOUDFORMATION,
                f.key,
                timeout.as_ref(),
                f.key_span,
                r,
                facts,
            );
        }
    }
    true
}

/// The stream event source mappings of the template (a mapping with a
/// `StartingPosition`, a SAM function's `Kinesis` or `DynamoDB` event),
/// each a policy ([`super::streams`]); how many were read.
fn stream_mappings(
    ctx: &DocCtx<'_>,
    entries: &[crate::yaml::Entry<'_>],
    facts: &mut Facts,
) -> usize {
    let mut n = 0;
    let get = |p: Yaml<'_>, k: &str| p.get(k).map(|v| raw(ctx, v));
    for e in entries {
        let Some(k) = e.value.get("Type").and_then(|t| t.as_str()) else {
            continue;
        };
        let Some(p) = props_of(e.value) else {
            continue;
        };
        if k == MAPPING && p.get("StartingPosition").is_some() {
            super::streams::mapping(
                &super::streams::CLOUDFORMATION,
                e.key,
                e.key_span,
                get(p, "MaximumRetryAttempts").as_ref(),
                get(p, "MaximumRecordAgeInSeconds").as_ref(),
                facts,
            );
            n += 1;
        } else if FUNCTIONS.contains(&k)
            && let Some(events) = p.get("Events")
        {
            for ev in events.entries() {
                if !matches!(
                    ev.value.get("Type").and_then(|t| t.as_str()),
                    Some("Kinesis" | "DynamoDB")
                ) {
                    continue;
                }
                let Some(ep) = props_of(ev.value) else {
                    continue;
                };
                super::streams::mapping(
                    &super::streams::CLOUDFORMATION,
                    &format!("{} {}", e.key, ev.key),
                    ev.key_span,
                    get(ep, "MaximumRetryAttempts").as_ref(),
                    get(ep, "MaximumRecordAgeInSeconds").as_ref(),
                    facts,
                );
                n += 1;
            }
        }
    }
    n
}

/// The resources named under a key that says it is where failed work
/// goes (`deadLetterTargetArn`, `DeadLetterQueue`, `DeadLetterConfig`,
/// `OnFailure`), at any depth up to 16 and 1,000 names.
fn failure_targets(v: Yaml<'_>, inside: bool, depth: usize, out: &mut Vec<String>) {
    if depth > 16 || out.len() >= 1_000 {
        return;
    }
    if inside && let Some(id) = logical_id(v) {
        out.push(id);
        return;
    }
    for e in v.entries() {
        let k = e.key.to_ascii_lowercase();
        let failed = inside || k.contains("deadletter") || k.contains("onfailure");
        failure_targets(e.value, failed, depth + 1, out);
    }
    for i in v.items() {
        failure_targets(i, inside, depth + 1, out);
    }
}

/// A scalar's text, or the empty text for anything else (a reference
/// written as a map: `{"Ref": "Param"}`), with its span.
fn raw(ctx: &DocCtx<'_>, v: Yaml<'_>) -> Raw {
    let _ = ctx;
    Raw {
        text: v.as_str().unwrap_or("").trim().to_string(),
        span: v.span(),
    }
}

/// The resource a value names: `!GetAtt Jobs.Arn` (read as `Jobs.Arn`, the
/// tag dropped), `!Ref Jobs`, `!GetAtt [Jobs, Arn]`, and JSON's
/// `{"Fn::GetAtt": ["Jobs", "Arn"]}` and `{"Ref": "Jobs"}`.
fn logical_id(v: Yaml<'_>) -> Option<String> {
    if let Some(s) = v.as_str() {
        let id = s.split('.').next().unwrap_or(s).trim();
        return (!id.is_empty() && !id.contains([':', '/', '$', ' '])).then(|| id.to_string());
    }
    if v.is_seq() {
        return v.items().first().copied().and_then(logical_id);
    }
    let inner = v.get("Fn::GetAtt").or_else(|| v.get("Ref"))?;
    logical_id(inner)
}

/// A name that says the queue is a dead-letter queue.
pub(super) fn names_dead_letter(name: &str) -> bool {
    let n = name.to_ascii_lowercase().replace(['-', '_'], "");
    n.contains("dlq") || n.contains("deadletter")
}

/// A resource's `Properties`.
fn props_of(v: Yaml<'_>) -> Option<Yaml<'_>> {
    v.get("Properties")
}

#[cfg(test)]
mod tests {
    use super::{logical_id, names_dead_letter};

    #[test]
    fn names_the_resource_in_each_spelling() {
        let text = "a: !GetAtt Jobs.Arn\nb: !Ref Jobs\nc: !GetAtt [Jobs, Arn]\nd:\n  Fn::GetAtt:\n    - Jobs\n    - Arn\ne: {\"Ref\": \"Jobs\"}\nf: arn:aws:sqs:eu-west-1:1:jobs\n";
        let file = crate::yaml::parse(text);
        let root = file.root(&file.documents[0]);
        for k in ["a", "b", "c", "d", "e"] {
            assert_eq!(
                logical_id(root.get(k).unwrap()).as_deref(),
                Some("Jobs"),
                "{k}"
            );
        }
        assert_eq!(logical_id(root.get("f").unwrap()), None);
    }

    #[test]
    fn dead_letter_names() {
        assert!(names_dead_letter("OrdersDLQ"));
        assert!(names_dead_letter("orders-dead-letter"));
        assert!(!names_dead_letter("orders"));
    }
}
