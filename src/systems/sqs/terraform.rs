//! Terraform's `aws_sqs_queue` (`visibility_timeout_seconds`,
//! `message_retention_seconds`, `redrive_policy`, written with
//! `jsonencode({ .. maxReceiveCount = 4 })`, as a JSON string or a
//! heredoc), a separate `aws_sqs_queue_redrive_policy` naming its queue
//! (`queue_url = aws_sqs_queue.jobs.id`), and the Lambda functions the same
//! file subscribes to a queue (`aws_lambda_event_source_mapping` with
//! `event_source_arn = aws_sqs_queue.jobs.arn` and `function_name =
//! aws_lambda_function.worker.arn`) with their `timeout`. The file is
//! parsed once for every Terraform reader ([`crate::systems::read`]); a
//! value that is an expression (`var.visibility`) is not read. Dead-letter
//! and failure queues (named in a redrive policy, a `dead_letter_config`
//! or `on_failure` block, or by their name) are left out as in
//! [`super::cloudformation`]. Pure and bounded.

use super::queue::{self, Queue, Raw, Redrive, TERRAFORM};
use crate::extract::hcl::{Attr, Block};
use crate::model::{Facts, Redelivery};
use crate::source::Span;

const QUEUE: &str = "aws_sqs_queue";
const REDRIVE: &str = "aws_sqs_queue_redrive_policy";
const MAPPING: &str = "aws_lambda_event_source_mapping";
const FUNCTION: &str = "aws_lambda_function";

/// Whether a file is read as Terraform with SQS queues.
pub fn claims(name: &str, bytes: &[u8]) -> bool {
    name.ends_with(".tf")
        && (memchr::memmem::find(bytes, QUEUE.as_bytes()).is_some()
            || memchr::memmem::find(bytes, b"starting_position").is_some())
}

fn resources<'b>(blocks: &'b [Block], kind: &'b str) -> impl Iterator<Item = &'b Block> + 'b {
    blocks
        .iter()
        .filter(move |b| b.kind == "resource" && b.labels.first().map(String::as_str) == Some(kind))
}

fn label(b: &Block) -> &str {
    b.labels.get(1).map_or("", String::as_str)
}

/// The queues and consumers of a parsed Terraform file.
pub fn extract(blocks: &[Block], facts: &mut Facts) {
    // Stream event source mappings (`starting_position`): their own
    // policies ([`super::streams`]).
    for m in resources(blocks, MAPPING).filter(|m| m.attr("starting_position").is_some()) {
        facts.claimed_by("sqs");
        let anchor = Span::new(
            m.span.start,
            (m.span.start + "resource".len()).min(m.span.end),
        );
        super::streams::mapping(
            &super::streams::TERRAFORM,
            label(m),
            anchor,
            m.attr("maximum_retry_attempts").map(raw).as_ref(),
            m.attr("maximum_record_age_in_seconds").map(raw).as_ref(),
            facts,
        );
    }
    if resources(blocks, QUEUE).next().is_none() {
        return;
    }
    facts.claimed_by("sqs");
    // Redrive policies by queue label: each queue's own, then the
    // separate resources naming theirs.
    let mut redrives: Vec<(String, &Attr)> = resources(blocks, QUEUE)
        .filter_map(|q| Some((label(q).to_string(), q.attr("redrive_policy")?)))
        .collect();
    for r in resources(blocks, REDRIVE) {
        if let (Some(q), Some(p)) = (
            r.attr("queue_url")
                .and_then(|a| referenced(&a.value, QUEUE)),
            r.attr("redrive_policy"),
        ) {
            redrives.push((q, p));
        }
    }
    // The queues something sends what failed to: a redrive policy's
    // `deadLetterTargetArn`, a `dead_letter_config` or `on_failure` block
    // (a function, a scheduler or rule target), an SNS subscription's
    // `redrive_policy`.
    let mut targets: Vec<String> = redrives
        .iter()
        .filter_map(|(_, p)| referenced(&p.value, QUEUE))
        .collect();
    for b in blocks.iter().filter(|b| b.kind == "resource") {
        failure_targets(b, false, 0, &mut targets);
    }
    let mut queues: Vec<(String, Redelivery)> = Vec::new();
    for q in resources(blocks, QUEUE) {
        let id = label(q);
        let name = q
            .attr("name")
            .map(Attr::unquoted)
            .filter(|n| !n.is_empty() && !n.contains(['"', '$', '(']) && !n.starts_with("var."))
            .unwrap_or(id);
        if targets.iter().any(|t| t == id)
            || q.attr("redrive_allow_policy").is_some()
            || super::cloudformation::names_dead_letter(id)
            || super::cloudformation::names_dead_letter(name)
        {
            continue;
        }
        let redrive = match redrives.iter().find(|(l, _)| l == id) {
            None => Redrive::None,
            Some((_, p)) => match receive_count(p) {
                Some(r) => Redrive::Count(r),
                None => Redrive::Unknown,
            },
        };
        let anchor = Span::new(
            q.span.start,
            (q.span.start + "resource".len()).min(q.span.end),
        );
        let queue = Queue {
            words: &TERRAFORM,
            name: name.to_string(),
            anchor,
            visibility: q.attr("visibility_timeout_seconds").map(raw),
            retention: q.attr("message_retention_seconds").map(raw),
            redrive,
        };
        if let Some(r) = queue::read(&queue, facts) {
            queues.push((id.to_string(), r));
        }
    }
    for m in resources(blocks, MAPPING) {
        let Some(r) = m
            .attr("event_source_arn")
            .and_then(|a| referenced(&a.value, QUEUE))
            .and_then(|q| queues.iter().find(|(l, _)| *l == q).map(|(_, r)| r))
        else {
            continue;
        };
        let Some(f) = m
            .attr("function_name")
            .and_then(|a| referenced(&a.value, FUNCTION))
            .and_then(|f| resources(blocks, FUNCTION).find(|b| label(b) == f))
        else {
            continue;
        };
        let anchor = Span::new(
            f.span.start,
            (f.span.start + "resource".len()).min(f.span.end),
        );
        let timeout = f.attr("timeout").map(raw);
        queue::consumer(&TERRAFORM, label(f), timeout.as_ref(), anchor, r, facts);
    }
}

/// The queues named in the attributes and blocks of `b` whose name says
/// failed work goes there (`dead_letter_config`, `on_failure`,
/// `redrive_policy`), at any depth up to 16 and 1,000 names.
fn failure_targets(b: &Block, inside: bool, depth: usize, out: &mut Vec<String>) {
    if depth > 16 || out.len() >= 1_000 {
        return;
    }
    let failed =
        |k: &str| k.contains("dead_letter") || k.contains("on_failure") || k == "redrive_policy";
    for a in &b.attrs {
        if (inside || failed(&a.key))
            && let Some(q) = referenced(&a.value, QUEUE)
        {
            out.push(q);
        }
    }
    for c in &b.blocks {
        failure_targets(c, inside || failed(&c.kind), depth + 1, out);
    }
}

fn raw(a: &Attr) -> Raw {
    Raw {
        text: a.unquoted().to_string(),
        span: a.span,
    }
}

/// The label of the `kind` resource an expression names:
/// `aws_sqs_queue.jobs.arn` -> `jobs` (also inside `${..}`).
fn referenced(value: &str, kind: &str) -> Option<String> {
    let at = value.find(&format!("{kind}."))? + kind.len() + 1;
    let rest = &value[at..];
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    (end > 0).then(|| rest[..end].to_string())
}

/// `maxReceiveCount` in a redrive policy however it is written
/// (`maxReceiveCount = 4` in `jsonencode`, `\"maxReceiveCount\":4` in a
/// string, `"maxReceiveCount": 4` in a heredoc), with the span of its
/// number; `None` when it is not written as a number.
fn receive_count(a: &Attr) -> Option<Raw> {
    const KEY: &str = "maxReceiveCount";
    let v = a.value.as_str();
    let at = v.find(KEY)? + KEY.len();
    let rest = &v[at..];
    let skip = rest
        .find(|c: char| !matches!(c, '"' | '\\' | ' ' | '\t' | '=' | ':'))
        .unwrap_or(rest.len());
    let digits = &rest[skip..];
    let len = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    if len == 0 || len > 9 {
        return None;
    }
    // The attribute's span starts at its value (its text trimmed).
    let start = a.span.start + at + skip;
    Some(Raw {
        text: digits[..len].to_string(),
        span: Span::new(start, start + len),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attr(value: &str) -> Attr {
        Attr {
            key: "redrive_policy".into(),
            value: value.into(),
            span: Span::new(100, 100 + value.len()),
        }
    }

    #[test]
    fn reads_the_receive_count_in_each_spelling() {
        for v in [
            "jsonencode({\n  deadLetterTargetArn = aws_sqs_queue.dlq.arn\n  maxReceiveCount     = 4\n})",
            "\"{\\\"deadLetterTargetArn\\\":\\\"${aws_sqs_queue.dlq.arn}\\\",\\\"maxReceiveCount\\\":4}\"",
            "<<EOF\n{\"maxReceiveCount\": 4}\nEOF",
        ] {
            let r = receive_count(&attr(v)).unwrap();
            assert_eq!(r.text, "4", "{v}");
            assert_eq!(&v[r.span.start - 100..r.span.end - 100], "4");
        }
        assert!(receive_count(&attr("jsonencode({ maxReceiveCount = var.n })")).is_none());
        assert!(receive_count(&attr("var.redrive")).is_none());
    }

    #[test]
    fn names_the_referenced_resource() {
        assert_eq!(
            referenced("aws_sqs_queue.jobs_dlq.arn", QUEUE).as_deref(),
            Some("jobs_dlq")
        );
        assert_eq!(
            referenced("\"${aws_sqs_queue.jobs.arn}\"", QUEUE).as_deref(),
            Some("jobs")
        );
        assert_eq!(referenced("var.queue_arn", QUEUE), None);
    }
}
