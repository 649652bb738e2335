//! pika, the RabbitMQ client (issue 20): `pika.ConnectionParameters(host=..)`
//! and `pika.URLParameters("amqp://..")` name the broker a program
//! publishes to and consumes from, an AMQP edge (an `env X` call where the
//! host comes from the environment alone). `connection_attempts` above 1
//! repeats the connect, not the calls (architecture: connections that
//! recover are not call retries): a policy of kind `Connect`, on no call
//! edge, judged by its count.
//!
//! Defaults (pika/pika, commit 2126d43a76c14fb8d365d96bd1bdcef13dad75b5,
//! `pika/connection.py` `Parameters`): `DEFAULT_HOST = 'localhost'`,
//! `DEFAULT_CONNECTION_ATTEMPTS = 1`, `DEFAULT_RETRY_DELAY = 2.0` (seconds
//! between attempts, fixed), `DEFAULT_SOCKET_TIMEOUT = 10.0` (the socket's
//! connect), `DEFAULT_STACK_TIMEOUT = 15.0` (TCP, TLS and AMQP bring-up
//! together: the bound of one attempt), `DEFAULT_BLOCKED_CONNECTION_TIMEOUT
//! = None` (a publish on a connection the broker blocked waits for ever).

use super::super::Kind as _;
use super::super::eval;
use super::super::{Args, Ctx, callee, policy, span};
use crate::model::calls::{CallEdge, Protocol, UnresolvedCall, short_host};
use crate::model::*;
use std::time::Duration;
use tree_sitter::Node;

/// pika's `DEFAULT_RETRY_DELAY`.
const RETRY_DELAY: Duration = Duration::from_secs(2);
/// pika's `DEFAULT_STACK_TIMEOUT`: one attempt's bound.
const STACK_TIMEOUT: Duration = Duration::from_secs(15);

/// Whether the call is pika's `ConnectionParameters(..)` or
/// `URLParameters(..)` (`pika.`, `pika.connection.` or imported bare).
pub(super) fn is_parameters(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    if !ctx.imports("pika") {
        return false;
    }
    let (full, last) = callee(ctx, call);
    matches!(last, "ConnectionParameters" | "URLParameters")
        && (full == last || full.starts_with("pika."))
}

/// How long a publish of this file may wait on a connection the broker
/// blocked (a resource alarm: memory or disk): the file's pika parameters'
/// `blocked_connection_timeout`, pika's `None` (for ever) when none of
/// them sets it. Only a `BlockingConnection` waits (its `basic_publish`
/// returns when the broker unblocks it); `None` when the file opens none
/// or builds no parameters (the connection is made elsewhere).
pub(in super::super) fn blocked_publish_timeout(ctx: &Ctx<'_>) -> Option<Located<Timeout>> {
    if !ctx.imports("pika") || !ctx.src.contains("BlockingConnection") {
        return None;
    }
    let mut found: Option<Located<Timeout>> = None;
    for &c in ctx
        .nodes
        .iter()
        .filter(|c| c.kind_str() == "call" && is_parameters(ctx, **c))
    {
        let args = Args::of(ctx, c);
        let t = match args.kw("blocked_connection_timeout") {
            Some(v) if ctx.text(v) == "None" => Located::written(Timeout::Disabled, span(v)),
            Some(v) => Located::written(
                eval::seconds(ctx, v).map_or(Timeout::Unknown, Timeout::after),
                span(v),
            ),
            // `URLParameters("amqp://..?blocked_connection_timeout=30")`.
            None if callee(ctx, c).1 == "URLParameters" => {
                Located::default_at(Timeout::Unknown, span(c))
            }
            None => Located::default_at(Timeout::Disabled, span(c)),
        };
        // Parameters that disagree: not known which one the publish uses.
        found = match found {
            None => Some(t),
            Some(f) if f.value == t.value => Some(f),
            Some(f) => Some(Located::default_at(Timeout::Unknown, f.span)),
        };
    }
    found
}

/// The broker edge of the parameters, and their connect retry when
/// `connection_attempts` is written above 1.
pub(super) fn parameters(ctx: &Ctx<'_>, call: Node<'_>, facts: &mut Facts) {
    let (_, last) = callee(ctx, call);
    let args = Args::of(ctx, call);
    let target = if last == "URLParameters" {
        args.get("url", 0)
    } else {
        args.get("host", 0)
    };
    let via = format!("pika.{last}() in Python");
    if let Some(t) = target {
        let host = eval::string(ctx, t).and_then(|s| {
            let rest = if last == "URLParameters" {
                let r = s
                    .strip_prefix("amqp://")
                    .or_else(|| s.strip_prefix("amqps://"))?;
                // The credentials before the host (`user:pass@host`).
                let authority = r.split(['/', '?', '#']).next().unwrap_or("");
                let at = authority.rfind('@').map_or(0, |i| i + 1);
                &r[at..]
            } else {
                s.as_str()
            };
            eval::host_of(rest).map(|h| short_host(&h))
        });
        // `os.getenv('AMQP_HOST', 'rabbitmq')`: the workload's entry, else
        // the default.
        let env = eval::env_host(ctx, t, &[]);
        match host {
            Some(h) if env.is_none() => facts.edges.push(CallEdge {
                caller: None,
                callee: h,
                span: span(call),
                policies: Vec::new(),
                via,
                client: None,
                protocol: Some(Protocol::Amqp),
            }),
            h => {
                if let Some(var) = env {
                    let mut u = UnresolvedCall::new(span(t), format!("env {var}"));
                    u.protocol = Some(Protocol::Amqp);
                    u.if_unset = h;
                    facts.unresolved.push(u);
                }
            }
        }
    }
    if last == "ConnectionParameters"
        && let Some(p) = connect_retry(ctx, call, &args)
    {
        facts.policies.push(p);
    }
}

/// `connection_attempts=N` (N > 1 or unknown): N connects, `retry_delay`
/// apart, each bounded by `stack_timeout`.
fn connect_retry(ctx: &Ctx<'_>, call: Node<'_>, args: &Args<'_>) -> Option<RetryPolicy> {
    let n = args.kw("connection_attempts")?;
    let count = match eval::number(ctx, n) {
        Some(v) if v >= 1.0 && v.fract() == 0.0 && v < 1e18 => AttemptCount::Finite(v as u64),
        Some(_) => return None,
        None if ctx.text(n) == "None" => return None,
        None => AttemptCount::Unknown,
    };
    if count == AttemptCount::Finite(1) {
        return None;
    }
    let here = span(call);
    let mut p = policy(
        "pika",
        here,
        super::attempts(
            count,
            format!(
                "connection_attempts={} (connects, the first included)",
                ctx.text(n)
            ),
            n,
        ),
    );
    p.kind = PolicyKind::Connect;
    p.name = Some("connection_attempts".into());
    p.delay = match args.kw("retry_delay") {
        Some(d) => Located::written(
            eval::seconds(ctx, d).map_or(Delay::Unknown, |delay| Delay::Fixed { delay }),
            span(d),
        ),
        None => Located::default_at(Delay::Fixed { delay: RETRY_DELAY }, here),
    };
    p.jitter = Located::default_at(Jitter::None, here);
    // A connect retry is judged by its count alone (architecture:
    // connections that recover are not call retries).
    p.platform_backoff = true;
    p.per_try_timeout = Some(match args.kw("stack_timeout") {
        Some(t) => Located::written(
            eval::seconds(ctx, t).map_or(Timeout::Unknown, Timeout::after),
            span(t),
        ),
        None => Located::default_at(Timeout::after(STACK_TIMEOUT), here),
    });
    p.retry_on = Located::default_at(
        RetryOn::Listed {
            conditions: vec![Located::default_at(
                Condition::Token("no RabbitMQ broker answering the connect".into()),
                here,
            )],
        },
        here,
    );
    p.budget_site = BudgetSite::NotOffered;
    Some(p)
}
