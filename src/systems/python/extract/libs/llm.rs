//! The OpenAI and Anthropic Python SDKs: a client (`OpenAI(..)`,
//! `AsyncOpenAI`, `AzureOpenAI`, `AsyncAzureOpenAI`, `Anthropic(..)`,
//! `AsyncAnthropic`) retries every request by itself, `max_retries` times
//! (2 by default), on connection errors, timeouts and 408/409/429/5xx,
//! with a jittered exponential backoff: a client retry layer on the call
//! to the API host, as botocore's is. `client.with_options(max_retries=..,
//! timeout=..)` is a copy of the client with those overridden. Defaults:
//! [`crate::systems::python`] (`LLM_SDK_*`).

use super::super::eval;
use super::super::{Args, Ctx, callee, field, named_children, span};
use crate::model::backoff::ServerDelay;
use crate::model::*;
use crate::systems::python as sys;
use tree_sitter::Node;

/// The SDK (its module's name) whose client class a call to `full` (last
/// name `last`) builds, when the file imports that module. openai-python
/// also exports the classes as `openai.Client` / `openai.AsyncClient`.
pub(crate) fn client_lib(ctx: &Ctx<'_>, full: &str, last: &str) -> Option<&'static str> {
    match last {
        "Client" | "AsyncClient" if full == format!("openai.{last}") && ctx.imports("openai") => {
            Some("openai")
        }
        "OpenAI" | "AsyncOpenAI" | "AzureOpenAI" | "AsyncAzureOpenAI" if ctx.imports("openai") => {
            Some("openai")
        }
        "Anthropic" | "AsyncAnthropic" if ctx.imports("anthropic") => Some("anthropic"),
        _ => None,
    }
}

/// The host a client built at `call` sends to: its `base_url=` (Azure:
/// `azure_endpoint=`) when the file spells it, else the SDK's own API
/// host (also when the URL is read from elsewhere: the retries are the
/// same whichever host answers).
pub(crate) fn client_host(ctx: &Ctx<'_>, call: Node<'_>, lib: &str) -> String {
    let args = Args::of(ctx, call);
    let written = args
        .kw("base_url")
        .or_else(|| args.kw("azure_endpoint"))
        .and_then(|u| eval::string(ctx, u))
        .and_then(|u| eval::url_host(&u));
    written.unwrap_or_else(|| match lib {
        "anthropic" => sys::ANTHROPIC_API_HOST.into(),
        _ => sys::OPENAI_API_HOST.into(),
    })
}

/// The retry policy of the client built at `call` (`lib` as
/// [`client_lib`] gives it).
pub(crate) fn client_policy(ctx: &Ctx<'_>, call: Node<'_>, lib: &str) -> RetryPolicy {
    let at = span(call);
    let (_, last) = callee(ctx, call);
    let mut p = RetryPolicy::new(
        System::PythonLib(lib.into()),
        at,
        Located::default_at(
            Attempts {
                count: AttemptCount::Finite(sys::LLM_SDK_MAX_RETRIES + 1),
                written_as: format!(
                    "no max_retries: the SDK's default of {} retries",
                    sys::LLM_SDK_MAX_RETRIES
                ),
            },
            at,
        ),
    );
    p.name = Some(format!("{last}(..)"));
    // `sleep_seconds x (1 - 0.25 x random())`: uniform in [0.75 d, d],
    // the band of width 1/7 on either side of 0.875 d.
    p.delay = Located::default_at(
        Delay::Exponential {
            base: sys::LLM_SDK_INITIAL_DELAY.mul_f64(0.875),
            multiplier: 2.0,
            cap: Some(sys::LLM_SDK_MAX_DELAY.mul_f64(0.875)),
        },
        at,
    );
    p.jitter = Located::default_at(Jitter::Proportional { factor: 1.0 / 7.0 }, at);
    p.cap_order = CapOrder::BeforeJitter;
    let mut conditions: Vec<Located<Condition>> = sys::LLM_SDK_RETRY_STATUSES
        .iter()
        .map(|&(from, to)| Located::default_at(Condition::Status { from, to }, at))
        .collect();
    for t in ["connection", "timeout"] {
        conditions.push(Located::default_at(Condition::Transport(t.into()), at));
    }
    p.retry_on = Located::default_at(RetryOn::Listed { conditions }, at);
    // 409 is retried too: the API answers it on a lock timeout, a
    // transient conflict, not a request that fails the same way again
    // (RL101's client error), so it is stated, not listed.
    p.why
        .push("also retries `409` (the API's lock timeout)".into());
    // Every request but a GET carries one `Idempotency-Key` for all its
    // attempts (`_base_client.py` `_idempotency_key`).
    p.idempotency.push(IdempotencyKey {
        span: at,
        created_by: "the SDK's Idempotency-Key header".into(),
        inside_retry: false,
    });
    p.server_delay = Some(Located::default_at(
        ServerDelay {
            header: "Retry-After".into(),
            capped: true,
            jittered: false,
            by: format!("the {} SDK", sys::lib_label(lib)),
            ignored: None,
        },
        at,
    ));
    p.per_try_timeout = Some(Located::default_at(
        Timeout::after(sys::LLM_SDK_TIMEOUT),
        at,
    ));
    apply_options(ctx, call, &mut p);
    splat_options(ctx, call, &mut p);
    p
}

/// `Client(**client_kw)` with no `max_retries=` / `timeout=` keyword: the
/// dictionary may hold them (`client_kw["max_retries"] = 0`, `{"max_retries":
/// 0}` bound to the name, as nanobot builds its clients). Read where the
/// file writes them into that name; else not known (not the default).
fn splat_options(ctx: &Ctx<'_>, call: Node<'_>, p: &mut RetryPolicy) {
    let Some(splat) = field(call, "arguments").and_then(|a| {
        named_children(a)
            .into_iter()
            .find(|c| c.kind() == "dictionary_splat")
    }) else {
        return;
    };
    let args = Args::of(ctx, call);
    let name = named_children(splat).first().map(|n| ctx.text(*n));
    for (key, set) in [
        ("max_retries", args.kw("max_retries").is_some()),
        ("timeout", args.kw("timeout").is_some()),
    ] {
        if set {
            continue;
        }
        let value = name.and_then(|name| written_key(ctx, name, key));
        // A dictionary this file builds and never gives the key leaves
        // the SDK's default; one from elsewhere (`**kwargs`) may hold it.
        let built_here = name
            .and_then(|name| ctx.binding(name, splat.start_byte()))
            .is_some_and(|v| v.kind() == "dictionary");
        if value.is_none() && built_here {
            continue;
        }
        match (key, value) {
            ("max_retries", Some(v)) => {
                let count = match eval::number(ctx, v) {
                    Some(x) if x >= 0.0 => AttemptCount::Finite(x as u64 + 1),
                    _ => AttemptCount::Unknown,
                };
                p.attempts =
                    super::attempts(count, format!("max_retries={} (retries)", ctx.text(v)), v);
            }
            ("max_retries", None) => {
                p.attempts = Located::written(
                    Attempts {
                        count: AttemptCount::Unknown,
                        written_as: format!(
                            "`{}` may hold max_retries",
                            super::super::one_line(ctx.text(splat))
                        ),
                    },
                    span(splat),
                );
            }
            (_, Some(v)) => p.per_try_timeout = Some(timeout(ctx, v)),
            (_, None) => p.per_try_timeout = Some(Located::written(Timeout::Unknown, span(splat))),
        }
    }
}

/// The value written under `key` into the dictionary `name`: `name["key"]
/// = v`, or a `{"key": v}` literal bound to `name`.
fn written_key<'a>(ctx: &Ctx<'a>, name: &str, key: &str) -> Option<Node<'a>> {
    for &n in &ctx.nodes {
        if n.kind() != "assignment" {
            continue;
        }
        let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
            continue;
        };
        if l.kind() == "subscript"
            && field(l, "value").is_some_and(|v| ctx.text(v) == name)
            && field(l, "subscript")
                .and_then(|k| eval::string(ctx, k))
                .as_deref()
                == Some(key)
        {
            return Some(r);
        }
        if l.kind() == "identifier" && ctx.text(l) == name && r.kind() == "dictionary" {
            for pair in named_children(r).into_iter().filter(|c| c.kind() == "pair") {
                if field(pair, "key")
                    .and_then(|k| eval::string(ctx, k))
                    .as_deref()
                    == Some(key)
                {
                    return field(pair, "value");
                }
            }
        }
    }
    None
}

/// `max_retries=` and `timeout=` written at `call` (a constructor or
/// `with_options(..)`), over what `p` holds.
pub(crate) fn apply_options(ctx: &Ctx<'_>, call: Node<'_>, p: &mut RetryPolicy) {
    let args = Args::of(ctx, call);
    if let Some(m) = args.kw("max_retries") {
        let count = match eval::number(ctx, m) {
            Some(v) if v >= 0.0 => AttemptCount::Finite(v as u64 + 1),
            _ => AttemptCount::Unknown,
        };
        p.attempts = super::attempts(count, format!("max_retries={} (retries)", ctx.text(m)), m);
    }
    if let Some(t) = args.kw("timeout") {
        p.per_try_timeout = Some(timeout(ctx, t));
    }
}

/// A client's `timeout=`: seconds, `None` (no timeout), or
/// `httpx.Timeout(total, connect=..)` / `Timeout(read=..)`, whose read
/// timeout bounds an answer.
fn timeout(ctx: &Ctx<'_>, t: Node<'_>) -> Located<Timeout> {
    let r = eval::resolve(ctx, t);
    if r.kind() == "call" && callee(ctx, r).1 == "Timeout" {
        let args = Args::of(ctx, r);
        return match args.kw("read").or_else(|| args.get("timeout", 0)) {
            Some(v) => super::super::timeout_at(ctx, v),
            None => Located::written(Timeout::Unknown, span(t)),
        };
    }
    super::super::timeout_at(ctx, t)
}

/// Whether a method called on a client is a request to the API (not a
/// copy of the client, its close, or a view of its raw responses).
pub(crate) fn sends(last: &str) -> bool {
    !matches!(
        last,
        "with_options"
            | "copy"
            | "close"
            | "aclose"
            | "get_paginator"
            | "get_waiter"
            | "can_paginate"
            | "generate_presigned_url"
            | "generate_presigned_post"
    )
}
