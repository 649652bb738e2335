//! Celery's broker settings, for the redelivery timeout a retried task is
//! held under (issue 28, mozmeao/basket #474): the transport the broker
//! URL names and `broker_transport_options` `visibility_timeout`. A task
//! retried with a countdown stays unacknowledged in the worker until it is
//! due; on the Redis and SQS transports the broker hands a message that
//! has not been acknowledged within the visibility timeout to another
//! worker (Celery `docs/getting-started/backends-and-brokers/redis.rst`,
//! "Visibility timeout": "If a task isn't acknowledged within the
//! Visibility Timeout the task will be redelivered to another worker and
//! executed"; the same for countdowns and ETAs past it). Joined to the
//! tasks of the same program by `systems::python::link`.
//!
//! Read wherever a file writes them: a settings module's names
//! (`broker_url`, Django's `CELERY_BROKER_URL`, the old `BROKER_URL`;
//! `broker_transport_options`, `CELERY_BROKER_TRANSPORT_OPTIONS`),
//! `app.conf.broker_url = ..`, keyword arguments (`Celery("x",
//! broker="redis://..")`, `app.conf.update(broker_transport_options=..)`),
//! and the keys of a dictionary (`app.config_from_object({"BROKER_URL":
//! ..})`). A URL that cannot be read (an environment variable without a
//! default) names no transport.

use super::Kind as _;
use super::{Args, Ctx, callee, eval, field, named_children, one_line, span};
use crate::model::{BrokerSetting, BrokerSettingKind, Facts};
use std::time::Duration;
use tree_sitter::Node;

/// Which of the two settings a name stands for: `Some(false)` the broker
/// URL, `Some(true)` the transport options.
fn setting(name: &str) -> Option<bool> {
    let n = name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase();
    let n = n.strip_prefix("celery_").unwrap_or(&n);
    match n {
        "broker_url" | "broker" => Some(false),
        "broker_transport_options" => Some(true),
        _ => None,
    }
}

/// The transport a broker URL names, by its scheme (kombu's aliases:
/// `rediss`, `redis+socket`, `sentinel` are Redis; `sqs` is SQS).
fn transport(url: &str) -> Option<&'static str> {
    let (scheme, _) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    Some(match scheme.as_str() {
        "redis" | "rediss" | "redis+socket" | "sentinel" => "redis",
        "sqs" => "sqs",
        "amqp" | "amqps" | "pyamqp" | "librabbitmq" => "amqp",
        s if s.contains(eval::UNKNOWN) || s.is_empty() => return None,
        _ => "other",
    })
}

pub(super) fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    let before = facts.broker_settings.len();
    // Bounded by the file's nodes (`Ctx::nodes`).
    for n in &ctx.nodes {
        let (name, value) = match n.kind_str() {
            "assignment" => (field(*n, "left"), field(*n, "right")),
            "keyword_argument" => (field(*n, "name"), field(*n, "value")),
            "pair" => (field(*n, "key"), field(*n, "value")),
            _ => continue,
        };
        let (Some(name), Some(value)) = (name, value) else {
            continue;
        };
        let name = match n.kind_str() {
            "pair" => match eval::string(ctx, name) {
                Some(s) => s,
                None => continue,
            },
            _ => ctx.text(name).to_string(),
        };
        match setting(&name) {
            Some(false) => {
                // `Celery("x", broker=..)` only as a keyword of a call.
                if name == "broker" && n.kind_str() != "keyword_argument" {
                    continue;
                }
                let Some(url) = eval::string(ctx, value) else {
                    continue;
                };
                if let Some(t) = transport(&url) {
                    facts.broker_settings.push(BrokerSetting {
                        system: "celery".into(),
                        span: span(value),
                        kind: BrokerSettingKind::Transport { name: t.into() },
                    });
                }
            }
            Some(true) => {
                let dict = eval::resolve(ctx, value);
                if dict.kind_str() != "dictionary" {
                    continue;
                }
                for pair in named_children(dict) {
                    let (Some(k), Some(v)) = (field(pair, "key"), field(pair, "value")) else {
                        continue;
                    };
                    if eval::string(ctx, k).as_deref() != Some("visibility_timeout") {
                        continue;
                    }
                    if let Some(after) = eval::seconds(ctx, v) {
                        facts.broker_settings.push(BrokerSetting {
                            system: "celery".into(),
                            span: span(pair),
                            kind: BrokerSettingKind::Timeout {
                                after,
                                written_as: format!("`{}`", one_line(ctx.text(pair))),
                            },
                        });
                    }
                }
            }
            None => {}
        }
    }
    // `countdown=` and `eta=` are Celery's: a module that imports only
    // the task (`from shop.tasks import remind; remind.apply_async(..)`)
    // sends it as well as one importing Celery.
    delayed_sends(ctx, facts);
    if facts.broker_settings.len() != before || !facts.delayed_sends.is_empty() {
        facts.claimed_by(super::NAME);
    }
}

/// A task sent to run later: `task.apply_async(.., countdown=N)` or
/// `eta=<now> + timedelta(..)` (directly, or through a name bound to it).
/// The worker that takes it holds it unacknowledged until it is due
/// (Celery "Using Redis", Caveats: ETA and countdown tasks are held past
/// the visibility timeout). An `eta` that is not a `timedelta` added to a
/// time (a date from the database) is not read.
fn delayed_sends(ctx: &Ctx<'_>, facts: &mut Facts) {
    for n in ctx.nodes.iter().filter(|n| n.kind_str() == "call") {
        let (full, last) = callee(ctx, *n);
        if last != "apply_async" {
            continue;
        }
        let args = Args::of(ctx, *n);
        let (delay, written) = if let Some(c) = args.kw("countdown") {
            (eval::seconds(ctx, c), c)
        } else if let Some(e) = args.kw("eta") {
            (timedelta_added(ctx, e), e)
        } else {
            continue;
        };
        let Some(delay) = delay else {
            continue;
        };
        facts.delayed_sends.push(crate::model::DelayedSend {
            system: "celery".into(),
            name: full.to_string(),
            span: span(written),
            delay,
            written_as: one_line(ctx.text(written.parent().unwrap_or(written))),
            redelivery: None,
            while_running: false,
            advised: None,
        });
    }
}

/// The `timedelta(..)` added in `<time> + timedelta(hours=3, minutes=30)`,
/// following one name; `None` for anything else.
fn timedelta_added(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Duration> {
    let n = eval::resolve(ctx, n);
    if n.kind_str() != "binary_operator" || field(n, "operator").map(|o| ctx.text(o)) != Some("+") {
        return None;
    }
    [field(n, "left")?, field(n, "right")?]
        .into_iter()
        .find_map(|side| timedelta(ctx, eval::resolve(ctx, side)))
}

/// `timedelta(days=.., hours=.., minutes=.., seconds=..)` (or the first
/// positional, days), in seconds.
fn timedelta(ctx: &Ctx<'_>, call: Node<'_>) -> Option<Duration> {
    if call.kind_str() != "call" || callee(ctx, call).1 != "timedelta" {
        return None;
    }
    let args = Args::of(ctx, call);
    let mut secs = 0.0;
    for (unit, scale) in [
        ("weeks", 604_800.0),
        ("days", 86_400.0),
        ("hours", 3_600.0),
        ("minutes", 60.0),
        ("seconds", 1.0),
    ] {
        let v = match unit {
            "days" => args.get(unit, 0),
            _ => args.kw(unit),
        };
        if let Some(v) = v {
            secs += eval::number(ctx, v)? * scale;
        }
    }
    (0.0..1e12)
        .contains(&secs)
        .then(|| Duration::from_secs_f64(secs))
}
