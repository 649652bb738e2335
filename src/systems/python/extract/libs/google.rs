//! google-api-core `Retry`/`AsyncRetry` (the retry object Google's
//! generated Python clients take as `retry=`), and gRPC channel options
//! that carry a service config (`("grpc.service_config", json.dumps({..}))`)
//! or turn retries off (`("grpc.enable_retries", 0)`).

use super::super::eval::{self, resolve};
use super::super::{Args, Ctx, callee, named_children, policy, span};
use super::{default_attempts, secs};
use crate::model::*;
use crate::systems::python as sys;
use tree_sitter::Node;

/// Keywords only google-api-core's `Retry` takes (urllib3's has none of
/// them).
const KEYWORDS: &[&str] = &[
    "initial",
    "maximum",
    "multiplier",
    "predicate",
    "deadline",
    "on_error",
];

/// Whether the call `Retry(..)` / `retry.Retry(..)` at `call` is
/// google-api-core's: the file imports `google.api_core` and the call
/// either takes one of its own keywords or is not urllib3's (the file does
/// not import urllib3 or requests, or names the module: `retry.Retry`,
/// `retries.Retry`, `api_core.retry.Retry`).
pub(super) fn is_api_core_retry(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    if !ctx.imports("api_core") {
        return false;
    }
    let (full, _) = callee(ctx, call);
    let args = Args::of(ctx, call);
    KEYWORDS.iter().any(|k| args.kw(k).is_some())
        || full.contains("api_core")
        || matches!(
            full,
            "retry.Retry" | "retry.AsyncRetry" | "retries.Retry" | "retries.AsyncRetry"
        )
        || !(ctx.imports("urllib3") || ctx.imports("requests"))
}

/// A google-api-core `Retry(initial, maximum, multiplier, predicate,
/// timeout/deadline)`: exponential with full jitter, no attempt limit,
/// bounded by its timeout.
pub(super) fn api_core_policy(ctx: &Ctx<'_>, call: Node<'_>) -> RetryPolicy {
    let args = Args::of(ctx, call);
    let at = span(call);
    let mut p = policy(
        "google-api-core",
        at,
        default_attempts(
            AttemptCount::Unbounded,
            "no attempt limit: google-api-core retries until its `timeout`",
            call,
        ),
    );
    // Named by the variable it is bound to (`DEFAULT_RETRY = Retry(..)`).
    let (_, last) = callee(ctx, call);
    p.name = Some(
        match call
            .parent()
            .filter(|a| a.kind() == "assignment")
            .and_then(|a| a.child_by_field_name("left"))
        {
            Some(var) => format!("{} = {last}(..)", ctx.text(var)),
            None => format!("{last}(..)"),
        },
    );
    let num = |k: &str, i: usize, d: f64| match args.get(k, i) {
        Some(a) => eval::number(ctx, a),
        None => Some(d),
    };
    // `Retry(predicate, initial, maximum, multiplier, timeout, on_error)`.
    let (initial, maximum, multiplier) = (
        num("initial", 1, sys::GOOGLE_INITIAL),
        num("maximum", 2, sys::GOOGLE_MAXIMUM),
        num("multiplier", 3, sys::GOOGLE_MULTIPLIER),
    );
    let delay = match (initial, maximum, multiplier) {
        (Some(i), Some(m), Some(x)) => Delay::Exponential {
            base: secs(i.min(m)),
            multiplier: x,
            cap: Some(secs(m)),
        },
        _ => Delay::Unknown,
    };
    let written = ["initial", "maximum", "multiplier"]
        .iter()
        .find_map(|k| args.kw(k))
        .or_else(|| args.positional.get(1).copied());
    p.delay = match written {
        Some(w) => Located::written(delay, span(w)),
        None => Located::default_at(delay, at),
    };
    p.jitter = Located::default_at(Jitter::Full, at);
    let timeout = args
        .kw("timeout")
        .or_else(|| args.kw("deadline"))
        .or_else(|| args.positional.get(4).copied());
    p.overall_timeout = match timeout {
        Some(t) => match eval::seconds_or_none(ctx, t) {
            eval::Secs::Value(d) => Some(Located::written(Timeout::after(d), span(t))),
            eval::Secs::None => None,
            eval::Secs::Unknown => Some(Located::written(Timeout::Unknown, span(t))),
        },
        None => Some(Located::default_at(Timeout::after(sys::GOOGLE_TIMEOUT), at)),
    };
    if let Some(t) = timeout
        && p.overall_timeout.is_none()
    {
        p.attempts = super::attempts(
            AttemptCount::Unbounded,
            format!("timeout={} (no attempt limit)", ctx.text(t)),
            t,
        );
    }
    p.retry_on = match args.get("predicate", 0) {
        None => Located::default_at(transient(at), at),
        Some(pr) => Located::written(predicate(ctx, pr), span(pr)),
    };
    p
}

/// `if_transient_error`: HTTP 500, 429, 503 and connection errors.
fn transient(at: crate::source::Span) -> RetryOn {
    let mut conditions: Vec<Located<Condition>> = sys::GOOGLE_TRANSIENT_STATUSES
        .iter()
        .map(|&c| Located::default_at(Condition::status(c), at))
        .collect();
    conditions.push(Located::default_at(
        Condition::Transport("connection".into()),
        at,
    ));
    RetryOn::Listed { conditions }
}

/// A `predicate=`: `if_transient_error`, `if_exception_type(A, B)`, or a
/// function the reader cannot see into.
fn predicate(ctx: &Ctx<'_>, n: Node<'_>) -> RetryOn {
    let r = resolve(ctx, n);
    let text = ctx.text(r);
    if text.ends_with("if_transient_error") {
        return transient(span(n));
    }
    if r.kind() == "call" && callee(ctx, r).1 == "if_exception_type" {
        let mut conditions = Vec::new();
        for a in Args::of(ctx, r).positional {
            let name = ctx.text(a);
            conditions.push(Located::written(Condition::Exception(name.into()), span(a)));
        }
        return RetryOn::Listed { conditions };
    }
    RetryOn::Listed {
        conditions: vec![Located::written(Condition::Predicate, span(n))],
    }
}

/// The gRPC channel options of a `grpc.insecure_channel(target, options=)`
/// / `secure_channel(target, creds, options=)` call: a service config
/// given as `("grpc.service_config", json.dumps(<dict>))` or as a JSON
/// string is read as gRPC's own (spans in this file); with
/// `("grpc.enable_retries", 0)` the channel does not retry and its service
/// config's retry policies are not read.
pub(super) fn channel_options(ctx: &Ctx<'_>, call: Node<'_>, facts: &mut Facts) {
    let args = Args::of(ctx, call);
    let Some(options) = args.kw("options") else {
        return;
    };
    let options = resolve(ctx, options);
    let pairs: Vec<(String, Node<'_>)> = named_children(options)
        .into_iter()
        .filter(|t| t.kind() == "tuple")
        .filter_map(|t| {
            let kids = named_children(t);
            let (k, v) = (kids.first()?, kids.get(1)?);
            Some((eval::string(ctx, *k)?, *v))
        })
        .collect();
    let disabled = pairs
        .iter()
        .any(|(k, v)| k == "grpc.enable_retries" && eval::number(ctx, *v) == Some(0.0));
    if disabled {
        return;
    }
    for (k, v) in &pairs {
        if k != "grpc.service_config" {
            continue;
        }
        let v = resolve(ctx, *v);
        let config = match v.kind() {
            // `json.dumps(config)`
            "call" if callee(ctx, v).1 == "dumps" => Args::of(ctx, v)
                .positional
                .first()
                .map(|d| resolve(ctx, *d)),
            _ => Some(v),
        };
        let Some(config) = config else { continue };
        match config.kind() {
            // A dict literal is a YAML flow mapping as written (quoted
            // keys, numbers, strings, lists): read in place.
            "dictionary" => {
                crate::systems::grpc::extract::extract_raw_json_literal(
                    ctx.src,
                    span(config),
                    facts,
                );
            }
            "string" => {
                if let Some(content) = named_children(config)
                    .into_iter()
                    .find(|c| c.kind() == "string_content")
                {
                    crate::systems::grpc::extract::extract_json_literal(
                        ctx.src,
                        span(content),
                        facts,
                    );
                }
            }
            _ => {}
        }
    }
}
