//! segmentio/kafka-go, the other Go Kafka client (issue 21): a
//! `kafka.Writer{Addr: kafka.TCP(brokers..), ..}` (or the deprecated
//! `kafka.NewWriter(kafka.WriterConfig{Brokers: ..})`) retries each batch
//! up to `MaxAttempts` times, `n x n x WriteBackoffMin` apart at most
//! `WriteBackoffMax` (a quadratic delay, no jitter), each try up to `WriteTimeout` to send and
//! `ReadTimeout` for the answer. kafka-go has no idempotent producer:
//! a batch whose answer timed out may have been appended, and its retry
//! appends it again (RL103), unless no answer is asked for
//! (`RequiredAcks: kafka.RequireNone`, a `Writer{}`'s default). An
//! `Async: true` writer retries after `WriteMessages` returned: nobody
//! waits for it (`detached`). The writer is an edge to each broker with
//! the Kafka protocol, carrying its policy and any retry around a
//! `WriteMessages` on it.
//!
//! A reader (`kafka.NewReader(kafka.ReaderConfig{Brokers: ..})`) is an
//! edge to its brokers with no policy: its fetch loop is a poll of a
//! subscription, not a retried request. Defaults: [`crate::systems::go`]
//! (`KAFKA_GO_*`, from kafka-go's `writer.go`).
//!
//! Fields set on the writer after it is made, in the same function
//! (`w.MaxAttempts = 3`), are read as its own. Not read yet: a
//! `RequiredAcks` constant of another file, `kafka.Dial*` connections, a
//! `Transport` of the writer's own.

use super::super::eval;
use super::super::{
    Ctx, Pkg, RetryScope, args, attempts, bound_name, composite, default_attempts,
    enclosing_function, field, keyed, named_children, policy, span,
};
use super::sarama::{Target, calls_on, one, push_kafka, retried, targets};
use crate::model::{
    AttemptCount, BudgetSite, Delay, Facts, Jitter, Located, Methods, RetryPolicy, Timeout,
};
use crate::systems::go as sys;
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// Brokers read from one writer or reader, at most.
const MAX_BROKERS: usize = 16;

/// Every writer and reader the file makes.
pub(in super::super) fn extract(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &[RetryScope]) {
    if !ctx.imports(Pkg::KafkaGo) {
        return;
    }
    for &n in &ctx.nodes {
        if n.kind_name() == "composite_literal"
            && field(n, "type").is_some_and(|t| type_is(ctx, t, "Writer"))
        {
            let fields = keyed(ctx, n);
            let brokers = fields
                .iter()
                .find(|(k, _)| *k == "Addr")
                .map(|(_, v)| addr(ctx, *v))
                .unwrap_or_default();
            let p = writer(ctx, n, &fields, false);
            push(ctx, facts, n, brokers, Some(p), "kafka.Writer", scopes);
            continue;
        }
        let Some((Pkg::KafkaGo, name @ ("NewWriter" | "NewReader"))) = ctx.pkg_call(n) else {
            continue;
        };
        let Some(config) = args(n).first().and_then(|&a| composite(a)) else {
            continue;
        };
        let fields = keyed(ctx, config);
        let brokers = fields
            .iter()
            .find(|(k, _)| *k == "Brokers")
            .map(|(_, v)| targets(ctx, *v))
            .unwrap_or_default();
        let p = (name == "NewWriter").then(|| writer(ctx, n, &fields, true));
        push(
            ctx,
            facts,
            n,
            brokers,
            p,
            &format!("kafka.{name}()"),
            scopes,
        );
    }
}

/// The expression a literal is the value of: `&kafka.Writer{..}`.
fn outer(n: Node<'_>) -> Node<'_> {
    match n.parent() {
        Some(p) if p.kind_name() == "unary_expression" => p,
        _ => n,
    }
}

/// Whether type node `t` is kafka-go's `name` (`kafka.Writer`).
fn type_is(ctx: &Ctx<'_>, t: Node<'_>, name: &str) -> bool {
    ctx.text(t)
        .split_once('.')
        .is_some_and(|(pkg, n)| n == name && ctx.pkg(pkg) == Some(Pkg::KafkaGo))
}

/// The brokers of `Addr: kafka.TCP("a:9092", "b:9092")` (or
/// `kafka.TCP(brokers...)`).
fn addr(ctx: &Ctx<'_>, v: Node<'_>) -> Vec<Target> {
    let Some((Pkg::KafkaGo, "TCP")) = ctx.pkg_call(v) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for a in args(v).into_iter().take(MAX_BROKERS) {
        if a.kind_name() == "variadic_argument" {
            if let Some(&inner) = named_children(a).first() {
                out.extend(targets(ctx, inner));
            }
        } else {
            out.extend(one(ctx, a));
        }
    }
    out
}

/// One edge per broker (an `env X` call for one from the environment),
/// with the writer's policy and the retries around its writes.
fn push(
    ctx: &Ctx<'_>,
    facts: &mut Facts,
    at: Node<'_>,
    brokers: Vec<Target>,
    writer: Option<RetryPolicy>,
    via: &str,
    scopes: &[RetryScope],
) {
    let mut policies = Vec::new();
    if let Some(p) = writer {
        policies.push(facts.policies.len());
        facts.policies.push(p);
        if let Some(var) = bound_name(ctx, outer(at)) {
            policies.extend(calls_on(ctx, var, &["WriteMessages"], scopes));
        }
        policies.sort_unstable();
        policies.dedup();
    }
    let via = format!("{via} in Go");
    push_kafka(
        facts,
        brokers.into_iter().take(MAX_BROKERS),
        &policies,
        &via,
    );
}

/// The writer's policy: kafka-go's defaults, then the fields written in
/// the literal (`config`: a `WriterConfig` given to `NewWriter`, whose
/// `RequiredAcks` 0 is `RequireAll`), then those set on the writer after
/// it is made in the same function (`w.MaxAttempts = 5`: a field of the
/// `Writer`, where 0 acks is `RequireNone` whatever made it).
fn writer(ctx: &Ctx<'_>, at: Node<'_>, fields: &[(&str, Node<'_>)], config: bool) -> RetryPolicy {
    let here = span(at);
    let mut p = policy(
        "kafka-go",
        here,
        default_attempts(
            AttemptCount::Finite(sys::KAFKA_GO_MAX_ATTEMPTS),
            "MaxAttempts 10 (the default)",
            here,
        ),
    );
    p.name = bound_name(ctx, outer(at)).map(str::to_string);
    // n x n x WriteBackoffMin, at most WriteBackoffMax, no jitter.
    let mut backoff = Backoff {
        min: Some(sys::KAFKA_GO_WRITE_BACKOFF_MIN),
        max: Some(sys::KAFKA_GO_WRITE_BACKOFF_MAX),
        at: None,
    };
    p.jitter = Located::default_at(Jitter::None, here);
    p.per_try_timeout = Some(Located::default_at(
        Timeout::after(sys::KAFKA_GO_WRITE_TIMEOUT + sys::KAFKA_GO_READ_TIMEOUT),
        here,
    ));
    // An answer is waited for (`RequireAll`) from a `WriterConfig`, none
    // (`RequireNone`) from a `Writer{}`.
    p.retry_on = Located::default_at(retried(here, config), here);
    p.methods = Located::default_at(Methods::Set(vec!["Produce".into()]), here);
    p.budget_site = BudgetSite::NotOffered;
    let mut write = (Some(sys::KAFKA_GO_WRITE_TIMEOUT), None);
    let mut read = (Some(sys::KAFKA_GO_READ_TIMEOUT), None);
    let later: Vec<(&str, Node<'_>)> = match p.name.as_deref() {
        Some(var) => ctx
            .fields_of(var, enclosing_function(at))
            .into_iter()
            .filter(|f| f.value.start_byte() >= at.end_byte())
            .map(|f| (f.field, f.value))
            .collect(),
        None => Vec::new(),
    };
    let written = fields.iter().map(|&f| (f, config));
    for ((k, v), config) in written.chain(later.into_iter().map(|f| (f, false))) {
        match k {
            // 0 or less is the default (`maxAttempts()`).
            "MaxAttempts" => {
                let count = match eval::count(ctx, v) {
                    Some(0) => AttemptCount::Finite(sys::KAFKA_GO_MAX_ATTEMPTS),
                    Some(n) => AttemptCount::Finite(n),
                    None => AttemptCount::Unknown,
                };
                p.attempts = attempts(count, &format!("MaxAttempts: {}", ctx.text(v)), span(v));
            }
            // 0 or less is the default (`writeBackoffMin()`, `..Max()`).
            "WriteBackoffMin" => {
                backoff.min =
                    eval::duration(ctx, v).map(|d| positive_or(d, sys::KAFKA_GO_WRITE_BACKOFF_MIN));
                backoff.at = Some(span(v));
                p.jitter = Located::written(Jitter::None, span(v));
            }
            "WriteBackoffMax" => {
                backoff.max =
                    eval::duration(ctx, v).map(|d| positive_or(d, sys::KAFKA_GO_WRITE_BACKOFF_MAX));
                backoff.at = Some(span(v));
                p.jitter = Located::written(Jitter::None, span(v));
            }
            "ReadTimeout" => read = (eval::duration(ctx, v), Some(span(v))),
            "WriteTimeout" => write = (eval::duration(ctx, v), Some(span(v))),
            "RequiredAcks" => {
                let none = match ctx.pkg_ref(v) {
                    Some((Pkg::KafkaGo, name)) => name == "RequireNone",
                    _ => eval::num(ctx, v).is_some_and(|n| n.value == 0.0) && !config,
                };
                p.retry_on = Located::written(retried(span(v), !none), span(v));
            }
            "Async" => p.scope.detached = ctx.text(v) == "true",
            _ => {}
        }
    }
    let delay = match (backoff.min, backoff.max) {
        (Some(base), Some(cap)) => Delay::Quadratic {
            base,
            cap: Some(cap),
        },
        _ => Delay::Unknown,
    };
    p.delay = match backoff.at {
        Some(at) => Located::written(delay, at),
        None => Located::default_at(delay, here),
    };
    // A zero timeout is the default (`readTimeout()`, `writeTimeout()`).
    if let Some(at) = read.1.or(write.1) {
        let t = match (write.0, read.0) {
            (Some(w), Some(r)) => Timeout::after(
                positive_or(w, sys::KAFKA_GO_WRITE_TIMEOUT)
                    + positive_or(r, sys::KAFKA_GO_READ_TIMEOUT),
            ),
            _ => Timeout::Unknown,
        };
        p.per_try_timeout = Some(Located::written(t, at));
    }
    p
}

/// The writer's backoff bounds as read (`None`: not known) and where one
/// was written.
struct Backoff {
    min: Option<std::time::Duration>,
    max: Option<std::time::Duration>,
    at: Option<crate::source::Span>,
}

/// `d`, or kafka-go's `default` for a zero one.
fn positive_or(d: std::time::Duration, default: std::time::Duration) -> std::time::Duration {
    if d.is_zero() { default } else { d }
}
