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

use super::{Ctx, eval, field, named_children, one_line, span};
use crate::model::{BrokerSetting, BrokerSettingKind, Facts};

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
        let (name, value) = match n.kind() {
            "assignment" => (field(*n, "left"), field(*n, "right")),
            "keyword_argument" => (field(*n, "name"), field(*n, "value")),
            "pair" => (field(*n, "key"), field(*n, "value")),
            _ => continue,
        };
        let (Some(name), Some(value)) = (name, value) else {
            continue;
        };
        let name = match n.kind() {
            "pair" => match eval::string(ctx, name) {
                Some(s) => s,
                None => continue,
            },
            _ => ctx.text(name).to_string(),
        };
        match setting(&name) {
            Some(false) => {
                // `Celery("x", broker=..)` only as a keyword of a call.
                if name == "broker" && n.kind() != "keyword_argument" {
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
                if dict.kind() != "dictionary" {
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
    if facts.broker_settings.len() != before {
        facts.claimed_by(super::NAME);
    }
}
