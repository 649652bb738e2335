//! IBM/sarama (and its old path Shopify/sarama), the Kafka client: a
//! producer made with `sarama.NewAsyncProducer(brokers, cfg)` or
//! `NewSyncProducer` retries each message `cfg.Producer.Retry.Max` times,
//! `Producer.Retry.Backoff` apart (or what `BackoffFunc` returns), each
//! try up to `Net.WriteTimeout` to send and `Net.ReadTimeout` for the
//! broker's answer. A producer that is not `Producer.Idempotent` appends
//! a retried batch again when the first try was appended but timed out
//! (RL103); an asynchronous producer's retries run after `Input() <- m`
//! returned, so no caller waits for them (the policy is `detached`). The
//! call is an
//! edge to the brokers with the Kafka protocol, carrying that policy and
//! any retry around a send on the producer (`p.SendMessage(m)` inside
//! `retry.Do`): the attempts multiply. Defaults:
//! [`crate::systems::go`] (`SARAMA_*`, from sarama's `config.go`).
//!
//! A consumer or client (`NewConsumer`, `NewConsumerGroup`, `NewClient`)
//! is an edge to the brokers with no policy: a partition consumer's fetch
//! retried every `Consumer.Retry.Backoff` (2 s) for ever by default is a
//! poll of a subscription, not a retried request.
//!
//! Not read yet: `Consumer.Retry.*` as settings, `Metadata.Retry.*` (the
//! metadata refresh of every client), `Net.DialTimeout` (opening a
//! connection, not a request), and brokers passed through a parameter
//! from another file.

use super::super::eval;
use super::super::{
    Ctx, Pkg, RetryScope, args, attempts, bound_name, default_attempts, enclosing_function, field,
    named_children, policy, span,
};
use crate::extract::values::Given;
use crate::model::calls::Protocol;
use crate::model::{
    AttemptCount, BudgetSite, CallEdge, Condition, Delay, Facts, Jitter, Located, Methods, RetryOn,
    Timeout, UnresolvedCall,
};
use crate::systems::go as sys;
use crate::systems::go::extract::KindName;

#[path = "sarama_config.rs"]
mod config;
pub use config::function_fields as config_function_fields;
use tree_sitter::Node;

/// Brokers read from one expression, at most.
const MAX_BROKERS: usize = 16;

/// Every producer, consumer and client the file makes: a producer's
/// policy, and the edges to the brokers (or `env X` calls where the
/// brokers come from the environment).
pub(in super::super) fn extract(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &[RetryScope]) {
    for &n in &ctx.calls {
        let Some((
            Pkg::Sarama,
            name @ ("NewAsyncProducer" | "NewSyncProducer" | "NewConsumer" | "NewConsumerGroup"
            | "NewClient"),
        )) = ctx.pkg_call(n)
        else {
            continue;
        };
        let a = args(n);
        let Some(&brokers) = a.first() else {
            continue;
        };
        // A consumer or client: the edge alone. A partition consumer's
        // fetch retried every `Consumer.Retry.Backoff` for ever is a poll
        // of a subscription nobody waits on, not a retried request.
        let mut policies = Vec::new();
        if name.ends_with("Producer") {
            let Some(&cfg) = a.get(1) else {
                continue;
            };
            policies.push(facts.policies.len());
            facts
                .policies
                .push(producer(ctx, n, cfg, name == "NewAsyncProducer"));
            // The retries around a send on this producer repeat its own.
            if let Some(var) = bound_name(ctx, n) {
                policies.extend(sends(ctx, var, scopes));
            }
            policies.sort_unstable();
            policies.dedup();
        }
        let via = format!("sarama.{name}() in Go");
        push_kafka(facts, targets(ctx, brokers), &policies, &via);
    }
}

/// The retry scopes holding a send on the producer `var`
/// (`var.SendMessage(..)`, `var.SendMessages(..)`, `var.Input() <- m`).
fn sends(ctx: &Ctx<'_>, var: &str, scopes: &[RetryScope]) -> Vec<usize> {
    calls_on(ctx, var, &["SendMessage", "SendMessages", "Input"], scopes)
}

/// The retry scopes holding a call of one of `methods` on `var`.
pub(super) fn calls_on(
    ctx: &Ctx<'_>,
    var: &str,
    methods: &[&str],
    scopes: &[RetryScope],
) -> Vec<usize> {
    let mut out = Vec::new();
    for &n in &ctx.calls {
        let Some(f) = field(n, "function").filter(|f| f.kind_name() == "selector_expression")
        else {
            continue;
        };
        let (Some(recv), Some(m)) = (field(f, "operand"), field(f, "field")) else {
            continue;
        };
        if ctx.text(recv) != var || !methods.contains(&ctx.text(m)) {
            continue;
        }
        out.extend(
            scopes
                .iter()
                .filter(|s| s.start <= n.start_byte() && n.end_byte() <= s.end)
                .map(|s| s.policy),
        );
    }
    out
}

/// The producer's retry policy: sarama's defaults, then the fields the
/// file sets on the config variable passed (`nil` is `NewConfig()`,
/// sarama `client.go` `NewClient`).
fn producer(
    ctx: &Ctx<'_>,
    call: Node<'_>,
    cfg: Node<'_>,
    detached: bool,
) -> crate::model::RetryPolicy {
    let at = span(call);
    let mut p = policy(
        "sarama",
        at,
        default_attempts(
            AttemptCount::Finite(sys::SARAMA_PRODUCER_RETRY_MAX + 1),
            "Producer.Retry.Max 3 (the default): 4 attempts",
            at,
        ),
    );
    p.name = bound_name(ctx, call).map(str::to_string);
    p.delay = Located::default_at(
        Delay::Fixed {
            delay: sys::SARAMA_PRODUCER_RETRY_BACKOFF,
        },
        at,
    );
    p.jitter = Located::default_at(Jitter::None, at);
    // Each try: the write deadline, then the read deadline (`broker.go`).
    p.per_try_timeout = Some(Located::default_at(
        Timeout::after(sys::SARAMA_NET_WRITE_TIMEOUT + sys::SARAMA_NET_READ_TIMEOUT),
        at,
    ));
    p.retry_on = Located::default_at(retried(at, true), at);
    // A produce request appends; not idempotent unless the producer is.
    p.methods = Located::default_at(Methods::Set(vec!["Produce".into()]), at);
    p.scope.detached = detached;
    // Sarama has no retry budget to set.
    p.budget_site = BudgetSite::NotOffered;
    let var = (cfg.kind_name() == "identifier").then(|| ctx.text(cfg));
    let mut set = Settings {
        backoff_func: false,
        write: (Some(sys::SARAMA_NET_WRITE_TIMEOUT), None),
        read: (Some(sys::SARAMA_NET_READ_TIMEOUT), None),
    };
    // A config a function of the package builds (`cfg := newConfig()`):
    // the fields it sets, then those set here.
    config::from_function(ctx, cfg, &mut |field, value, written, at| {
        set.apply(&mut p, field, value, written, at);
    });
    if let Some(var) = var {
        // The config's fields, where the variable is made.
        let within = ctx
            .binding(var, cfg.start_byte())
            .and_then(enclosing_function)
            .or_else(|| enclosing_function(call));
        for f in ctx.fields_of(var, within) {
            let written = format!("{} = {}", f.field, ctx.text(f.value));
            let value = config::value_of(ctx, f.field, f.value);
            set.apply(&mut p, f.field, value, &written, span(f.value));
        }
    }
    let (write, read) = (set.write, set.read);
    // The per-try time, where either deadline is written (a zero one is
    // invalid: `Validate` rejects it).
    if let Some(at) = read.1.or(write.1) {
        let t = match (write.0, read.0) {
            (Some(w), Some(r)) if !w.is_zero() && !r.is_zero() => Timeout::after(w + r),
            _ => Timeout::Unknown,
        };
        p.per_try_timeout = Some(Located::written(t, at));
    }
    p
}

/// The deadlines and backoff read so far, as fields are applied in order.
struct Settings {
    backoff_func: bool,
    /// The write and read deadlines as written (`None`: unknown).
    write: (Option<std::time::Duration>, Option<crate::source::Span>),
    read: (Option<std::time::Duration>, Option<crate::source::Span>),
}

impl Settings {
    /// One field of the config set to `value` ([`config::value_of`]: NaN
    /// when not known), written as `written` at `at`.
    fn apply(
        &mut self,
        p: &mut crate::model::RetryPolicy,
        field: &str,
        value: Given,
        written: &str,
        at: crate::source::Span,
    ) {
        let (v, _) = value;
        let known = v.is_finite();
        let dur = || (known && v >= 0.0).then(|| std::time::Duration::from_nanos(v as u64));
        match field {
            "Producer.Retry.Max" => {
                let count = if known && v >= 0.0 {
                    AttemptCount::Finite((v as u64).saturating_add(1))
                } else {
                    AttemptCount::Unknown
                };
                p.attempts = attempts(count, written, at);
            }
            "Producer.Retry.Backoff" if !self.backoff_func => {
                let d = match dur() {
                    Some(d) if d.is_zero() => Delay::None,
                    Some(d) => Delay::Fixed { delay: d },
                    None => Delay::Unknown,
                };
                p.delay = Located::written(d, at);
                p.jitter = Located::written(Jitter::None, at);
            }
            // `BackoffFunc` takes precedence over `Backoff` (sarama
            // `async_producer.go` `backoff`).
            "Producer.Retry.BackoffFunc" => {
                self.backoff_func = true;
                p.delay = Located::written(Delay::Custom, at);
                p.jitter = Located::written(Jitter::Unknown, at);
            }
            "Net.ReadTimeout" => self.read = (dur(), Some(at)),
            "Net.WriteTimeout" => self.write = (dur(), Some(at)),
            "Producer.Idempotent" => {
                let m = match (known, v) {
                    (true, 1.0) => Methods::IdempotentOnly,
                    (true, _) => Methods::Set(vec!["Produce".into()]),
                    _ => Methods::Unknown,
                };
                p.methods = Located::written(m, at);
            }
            // No response: nothing times out waiting for the broker.
            "Producer.RequiredAcks" if known && v == 0.0 => {
                p.retry_on = Located::written(retried(at, false), at);
            }
            _ => {}
        }
    }
}

/// What the producer retries (sarama `async_producer.go`: a failed
/// connection or request, and the answers `handleSuccess` takes as
/// retriable; with no response asked for, only a failed connection).
/// `REQUEST_TIMED_OUT` is a timeout: the broker may have appended the
/// batch.
pub(super) fn retried(at: crate::source::Span, answers: bool) -> RetryOn {
    let c = |c| Located::default_at(c, at);
    let mut conditions = vec![c(Condition::Transport("broker connection error".into()))];
    if !answers {
        return RetryOn::Listed { conditions };
    }
    conditions.push(c(Condition::Transport("REQUEST_TIMED_OUT".into())));
    conditions.extend(
        [
            "UNKNOWN_TOPIC_OR_PARTITION",
            "LEADER_NOT_AVAILABLE",
            "NOT_LEADER_FOR_PARTITION",
            "NOT_ENOUGH_REPLICAS",
            "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
            "KAFKA_STORAGE_ERROR",
            "INVALID_MESSAGE",
        ]
        .map(|t| c(Condition::Token(t.into()))),
    );
    RetryOn::Listed { conditions }
}

/// Kafka edges to each broker (an `env X` broker list an unresolved call),
/// every one carrying the client's retry policies (indices into
/// `facts.policies`): sarama's and kafka-go's clients alike.
pub(super) fn push_kafka(
    facts: &mut Facts,
    targets: impl IntoIterator<Item = Target>,
    policies: &[usize],
    via: &str,
) {
    for target in targets {
        match target {
            Target::Host(host, at) => facts.edges.push(CallEdge {
                caller: None,
                callee: crate::model::calls::short_host(&host),
                span: at,
                policies: policies.to_vec(),
                via: via.to_string(),
                client: None,
                protocol: Some(Protocol::Kafka),
            }),
            Target::Env(env, at) => {
                let mut u = UnresolvedCall::new(at, format!("env {env}"));
                u.policies = policies.to_vec();
                u.protocol = Some(Protocol::Kafka);
                facts.unresolved.push(u);
            }
            Target::Field(name, written, at) => {
                facts.go_fields.push(crate::model::GoField {
                    field: name,
                    kind: crate::model::GoFieldKind::Target {
                        unresolved: facts.unresolved.len(),
                    },
                });
                let mut u = UnresolvedCall::new(at, written);
                u.policies = policies.to_vec();
                u.protocol = Some(Protocol::Kafka);
                facts.unresolved.push(u);
            }
        }
    }
}

pub(super) enum Target {
    Host(String, crate::source::Span),
    Env(String, crate::source::Span),
    /// `cfg.Brokers` of a struct another file of the module fills: the
    /// field's name and the text as written (`link::go_fields` gives it
    /// the variable that fills it).
    Field(String, String, crate::source::Span),
}

/// The brokers of `sarama.NewXxx(brokers, ..)`: a `[]string{..}` literal's
/// elements, a name bound to one, `strings.Split(os.Getenv("X"), ",")`.
pub(super) fn targets(ctx: &Ctx<'_>, brokers: Node<'_>) -> Vec<Target> {
    let mut out = Vec::new();
    let mut n = brokers;
    for _ in 0..super::super::MAX_DEPTH {
        match n.kind_name() {
            "identifier" => match ctx.binding(ctx.text(n), n.start_byte()) {
                Some(v) if v.id() != n.id() => n = v,
                _ => return out,
            },
            "composite_literal" => {
                let Some(body) = field(n, "body") else {
                    return out;
                };
                for e in named_children(body).into_iter().take(MAX_BROKERS) {
                    let e = named_children(e).into_iter().next().unwrap_or(e);
                    out.extend(one(ctx, e));
                }
                return out;
            }
            "call_expression" => {
                // `strings.Split(list, ",")`: the list's variable.
                if field(n, "function").is_some_and(|f| ctx.text(f) == "strings.Split")
                    && let Some(&list) = args(n).first()
                {
                    out.extend(one(ctx, list));
                }
                return out;
            }
            "selector_expression" => {
                out.extend(one(ctx, n));
                return out;
            }
            _ => return out,
        }
    }
    out
}

/// One broker address: `"kafka:9092"`, `os.Getenv("KAFKA_ADDR")`, a name
/// bound to either.
pub(super) fn one(ctx: &Ctx<'_>, e: Node<'_>) -> Option<Target> {
    if let Some(s) = eval::string(ctx, e)
        && let Some(host) = eval::host_of(s.split(',').next().unwrap_or(&s))
    {
        return Some(Target::Host(host, span(e)));
    }
    if let Some(env) = super::super::envs::getenv(ctx, e) {
        return Some(Target::Env(env, span(e)));
    }
    super::super::calls::other_files_field(ctx, e)
        .map(|name| Target::Field(name.to_string(), ctx.text(e).to_string(), span(e)))
}
