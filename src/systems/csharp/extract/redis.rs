//! StackExchange.Redis's initial connect retry, written in C#: `ConnectRetry`
//! of a `ConfigurationOptions` (`new ConfigurationOptions { ConnectRetry =
//! 5 }`, `options.ConnectRetry = 5;`, `o => o.ConnectRetry = 5` handed to
//! an Aspire `AddRedisClient`) or `connectRetry=` of a connection string
//! (`ConnectionMultiplexer.Connect("redis:6379,connectRetry=5")`), with the
//! `ConnectTimeout` and `SyncTimeout` of the same options. It repeats the
//! connect, not the calls ([`PolicyKind::Connect`]): one policy where
//! `ConnectRetry` is written, judged by its count (RL206) and a negative
//! count (RL902). Defaults and sources: [`crate::systems::csharp`].

use super::{Ctx, MAX_DEPTH, args, eval, field, method, named_children, span};
use crate::diag::invalid_setting;
use crate::model::*;
use crate::source::Span;
use crate::systems::csharp::extract::Kind as _;
use crate::systems::csharp::{REDIS_MIN_CONNECT_TIMEOUT, REDIS_SYNC_TIMEOUT};
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::Node;

/// The option keys read, as the properties spell them; the connection
/// string's keys are the same, compared ignoring case.
const KEYS: [&str; 3] = ["ConnectRetry", "ConnectTimeout", "SyncTimeout"];

/// At most this many options groups are read in one file.
const MAX_GROUPS: usize = 256;

/// A setting as written: a C# expression, or a connection string's value.
#[derive(Clone, Copy)]
enum Written<'a> {
    Code(Node<'a>),
    Text(&'a str),
}

/// One options object's settings: key, value, the span of the setting.
struct Group<'a> {
    anchor: Span,
    settings: Vec<(&'static str, Written<'a>, Span)>,
}

/// Whether a file speaks of StackExchange.Redis options in code (a
/// connection string's `connectRetry=` is read in any file).
fn mentions_redis(src: &str) -> bool {
    [
        "ConnectionMultiplexer",
        "ConfigurationOptions",
        "StackExchange.Redis",
        "AddRedis",
    ]
    .iter()
    .any(|w| src.contains(w))
}

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    let code = mentions_redis(ctx.src);
    let mut groups: Vec<Group<'_>> = Vec::new();
    // The node that makes an options object (or its connection string) ->
    // its group.
    let mut origin: HashMap<usize, usize> = HashMap::new();
    for &n in &ctx.nodes {
        if groups.len() >= MAX_GROUPS {
            break;
        }
        match n.kind_str() {
            "object_creation_expression" if code => {
                let is_options = field(n, "type")
                    .is_some_and(|t| eval::last_name(ctx, t) == "ConfigurationOptions");
                let Some(init) = field(n, "initializer").filter(|_| is_options) else {
                    continue;
                };
                let mut g = Group {
                    anchor: span(n),
                    settings: Vec::new(),
                };
                for a in named_children(init) {
                    if a.kind_str() != "assignment_expression" {
                        continue;
                    }
                    let (Some(l), Some(r)) = (field(a, "left"), field(a, "right")) else {
                        continue;
                    };
                    if let Some(key) = KEYS.iter().find(|k| ctx.text(l).trim() == **k) {
                        g.settings.push((key, Written::Code(r), span(a)));
                    }
                }
                origin.insert(n.id(), groups.len());
                groups.push(g);
            }
            "string_literal"
            | "verbatim_string_literal"
            | "raw_string_literal"
            | "interpolated_string_expression" => {
                let g = connection_string(ctx, n);
                if g.settings.iter().any(|(k, _, _)| *k == "ConnectRetry") {
                    origin.insert(n.id(), groups.len());
                    groups.push(g);
                }
            }
            _ => {}
        }
    }
    if !code && groups.is_empty() {
        return;
    }
    // `ConfigurationOptions.Parse(cs)`, `ConnectionMultiplexer.Connect(cs)`:
    // the object made from a connection string is that string's group.
    for &n in &ctx.nodes {
        if n.kind_str() != "invocation_expression" {
            continue;
        }
        if !matches!(
            method(ctx, n),
            Some(("Parse" | "Connect" | "ConnectAsync", _))
        ) {
            continue;
        }
        let Some((_, a)) = args(ctx, n).into_iter().next() else {
            continue;
        };
        if let Some(g) = resolve(ctx, a, &origin) {
            origin.insert(n.id(), g);
        }
    }
    // `options.ConnectRetry = 5;`: the object the receiver is bound to,
    // else the receiver in its block or lambda (`o => o.ConnectRetry = 5`).
    let mut by_receiver: HashMap<(usize, &str), usize> = HashMap::new();
    for &n in ctx.nodes.iter().filter(|_| code) {
        if n.kind_str() != "assignment_expression" || groups.len() >= MAX_GROUPS {
            continue;
        }
        let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
            continue;
        };
        if l.kind_str() != "member_access_expression" {
            continue;
        }
        let (Some(recv), Some(name)) = (field(l, "expression"), field(l, "name")) else {
            continue;
        };
        let Some(key) = KEYS.iter().find(|k| ctx.text(name) == **k) else {
            continue;
        };
        let at = span(l).cover(span(r));
        let bound = (recv.kind_str() == "identifier")
            .then(|| resolve(ctx, recv, &origin))
            .flatten();
        let g = match bound {
            Some(g) => g,
            None => {
                let scope = enclosing_scope(n).map_or(0, |s| s.id());
                *by_receiver
                    .entry((scope, ctx.text(recv).trim()))
                    .or_insert_with(|| {
                        groups.push(Group {
                            anchor: at,
                            settings: Vec::new(),
                        });
                        groups.len() - 1
                    })
            }
        };
        groups[g].settings.push((key, Written::Code(r), at));
    }
    for g in &groups {
        policy(ctx, g, facts);
    }
}

/// The group of the options object or connection string `n` is, or is a
/// name bound to.
fn resolve(ctx: &Ctx<'_>, n: Node<'_>, origin: &HashMap<usize, usize>) -> Option<usize> {
    let mut cur = n;
    for _ in 0..MAX_DEPTH {
        if let Some(&g) = origin.get(&cur.id()) {
            return Some(g);
        }
        match cur.kind_str() {
            "identifier" => cur = ctx.binding(ctx.text(cur), cur.start_byte())?,
            "parenthesized_expression" | "await_expression" => {
                cur = *named_children(cur).first()?;
            }
            _ => return None,
        }
    }
    None
}

fn enclosing_scope(n: Node<'_>) -> Option<Node<'_>> {
    let mut cur = n.parent();
    for _ in 0..super::MAX_CLIMB {
        let c = cur?;
        if matches!(
            c.kind_str(),
            "block" | "lambda_expression" | "arrow_expression_clause" | "initializer_expression"
        ) {
            return Some(c);
        }
        cur = c.parent();
    }
    None
}

/// The StackExchange.Redis options a connection string writes
/// (`redis:6379,connectRetry=5,connectTimeout=10000`): comma-separated
/// `key=value` options, keys compared ignoring case
/// (`ConfigurationOptions.DoParse`). Each setting's span is its own
/// option inside the literal.
fn connection_string<'a>(ctx: &Ctx<'a>, n: Node<'_>) -> Group<'a> {
    let text = ctx.text(n);
    let start = n.start_byte();
    let mut g = Group {
        anchor: span(n),
        settings: Vec::new(),
    };
    // Only strings that may be connection strings: no line breaks or `;`
    // (ADO.NET connection strings separate options with `;`).
    if !text.to_ascii_lowercase().contains("connectretry") || text.contains(';') {
        return g;
    }
    let mut offset = 0;
    for part in text.split(',') {
        let here = offset;
        offset += part.len() + 1;
        let Some((k, v)) = part.split_once('=') else {
            continue;
        };
        let k = k.trim().trim_start_matches(['$', '@', '"']).trim();
        let Some(key) = KEYS.iter().find(|key| key.eq_ignore_ascii_case(k)) else {
            continue;
        };
        let v = v.trim().trim_end_matches('"').trim();
        let lead = part.len() - part.trim_start_matches(['$', '@', '"', ' ']).len();
        let end = here + part.trim_end_matches(['"', ' ']).len();
        g.settings.push((
            key,
            Written::Text(v),
            Span::new(start + here + lead, start + end),
        ));
    }
    g
}

fn setting<'a>(g: &Group<'a>, key: &str) -> Option<(Written<'a>, Span)> {
    g.settings
        .iter()
        .rev()
        .find(|(k, _, _)| *k == key)
        .map(|(_, v, s)| (*v, *s))
}

/// A whole number as written: a C# expression evaluated, a connection
/// string's digits; `Err` with the text when it is not one.
fn int<'a>(ctx: &Ctx<'a>, w: Written<'a>) -> Result<Option<i64>, &'a str> {
    match w {
        Written::Code(n) => Ok(eval::int(ctx, n)),
        // A hole of an interpolated string (`{retries}`) is not known.
        Written::Text(t) if t.contains('{') => Ok(None),
        Written::Text(t) => t.parse::<i64>().map(Some).map_err(|_| t),
    }
}

fn shown<'a>(ctx: &Ctx<'a>, w: Written<'a>) -> String {
    match w {
        Written::Code(n) => super::one_line(ctx.text(n)),
        Written::Text(t) => t.to_string(),
    }
}

/// One options object's connect retry, where `ConnectRetry` is written.
fn policy(ctx: &Ctx<'_>, g: &Group<'_>, facts: &mut Facts) {
    let Some((retry, retry_at)) = setting(g, "ConnectRetry") else {
        return;
    };
    let count = match int(ctx, retry) {
        Ok(Some(n)) if n >= 1 => AttemptCount::Finite(n as u64),
        Ok(Some(0)) => AttemptCount::Finite(1),
        Ok(Some(n)) => {
            facts.diagnostics.push(invalid_setting::value(
                retry_at,
                "ConnectRetry",
                &n.to_string(),
                "it counts connect cycles, the first included: a negative count makes one cycle, as 0 does",
            ));
            AttemptCount::Finite(1)
        }
        Ok(None) => AttemptCount::Unknown,
        Err(t) => {
            facts.diagnostics.push(invalid_setting::value(
                retry_at,
                "connectRetry",
                t,
                "it must be a whole number: `ConfigurationOptions.Parse` throws `ArgumentOutOfRangeException`",
            ));
            return;
        }
    };
    let attempts = Located::written(
        Attempts {
            count,
            written_as: format!(
                "ConnectRetry = {} (connect cycles, the first included)",
                shown(ctx, retry)
            ),
        },
        retry_at,
    );
    let mut p = RetryPolicy::new(System::RedisConnect, g.anchor, attempts);
    p.kind = PolicyKind::Connect;
    p.name = Some("ConnectRetry".into());
    // Milliseconds, in code as in the connection string.
    let ms = |key: &str| -> Option<(Option<Duration>, Span)> {
        let (w, at) = setting(g, key)?;
        let v = int(ctx, w).ok().flatten();
        Some((
            v.filter(|n| *n >= 0)
                .map(|n| Duration::from_millis(n as u64)),
            at,
        ))
    };
    let sync = match ms("SyncTimeout") {
        Some((v, _)) => v,
        None => Some(REDIS_SYNC_TIMEOUT),
    };
    // `ConnectTimeout` unset: `Math.Max(5000, SyncTimeout)`.
    let (connect, connect_at) = match ms("ConnectTimeout") {
        Some((v, at)) => (v, Some(at)),
        None => (sync.map(|s| s.max(REDIS_MIN_CONNECT_TIMEOUT)), None),
    };
    let per_try = connect.map_or(Timeout::Unknown, Timeout::after);
    p.per_try_timeout = Some(match connect_at {
        Some(at) => Located::written(per_try, at),
        None => Located::default_at(per_try, g.anchor),
    });
    // Every cycle ends when `ConnectTimeout` has passed since it began:
    // the cycles together wait at most their count times it.
    p.overall_timeout = match (connect, count) {
        (Some(t), AttemptCount::Finite(n)) => Some(Located::default_at(
            Timeout::after(t.saturating_mul(n.min(u64::from(u32::MAX)) as u32)),
            g.anchor,
        )),
        _ => None,
    };
    // The next cycle begins at once after the last has waited its timeout.
    p.delay = Located::default_at(Delay::None, g.anchor);
    p.jitter = Located::default_at(Jitter::None, g.anchor);
    p.platform_backoff = true;
    p.retry_on = Located::default_at(
        RetryOn::Listed {
            conditions: vec![Located::default_at(
                Condition::Token("no Redis server answering within `ConnectTimeout`".into()),
                g.anchor,
            )],
        },
        g.anchor,
    );
    p.budget_site = BudgetSite::NotOffered;
    facts.policies.push(p);
}
