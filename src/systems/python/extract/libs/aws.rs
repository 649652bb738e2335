//! AWS: botocore `Config(retries=.., connect_timeout=.., read_timeout=..)`
//! and the boto3 clients it configures (`boto3.client("s3",
//! config=cfg)`, `session.client(..)`, `boto3.resource(..)`). A client
//! given a `Config` of this file is that policy's; a client given none
//! retries with botocore's defaults (legacy mode, 5 attempts, 60 s
//! timeouts: [`crate::systems::python`]), a policy of its own at the call.
//! A `config=` that is not read here (a parameter, another module's)
//! leaves the client without a policy.

use super::super::eval::{self, resolve};
use super::super::{Args, Ctx, callee, field, named_children, span};
use super::{attempts, default_attempts};
use crate::model::*;
use crate::systems::python as sys;
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::Node;

/// The service name of a boto3 client or resource built at `call`
/// (`boto3.client("s3")`, `session.client(service_name="sqs")`,
/// `boto3.resource("dynamodb")`), `None` when `call` builds none.
pub(super) fn client_service(ctx: &Ctx<'_>, call: Node<'_>) -> Option<String> {
    let (full, last) = callee(ctx, call);
    if !matches!(last, "client" | "resource") {
        return None;
    }
    let recv = full.rsplit_once('.').map_or("", |(r, _)| r);
    let boto = recv == "boto3"
        || recv == "aioboto3"
        || recv.to_ascii_lowercase().contains("session")
        || field(call, "function")
            .and_then(|f| field(f, "object"))
            .map(|o| resolve(ctx, o))
            .is_some_and(|o| o.kind() == "call" && callee(ctx, o).0.contains("Session"));
    if !boto {
        return None;
    }
    let args = Args::of(ctx, call);
    let svc = eval::string(ctx, args.get("service_name", 0)?)?;
    (!svc.is_empty() && svc.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')).then_some(svc)
}

/// Tie each client of the file to its `Config`: the `Config`'s policy is
/// named after the client(s) it configures; a client with no `config=`
/// gets botocore's defaults as its own policy.
pub(super) fn tie_clients(ctx: &Ctx<'_>, facts: &mut Facts, built: &HashMap<usize, usize>) {
    let mut named: Vec<usize> = Vec::new();
    for &n in &ctx.nodes {
        if n.kind() != "call" {
            continue;
        }
        let Some(svc) = client_service(ctx, n) else {
            continue;
        };
        let what = format!("{}(\"{svc}\")", callee(ctx, n).0);
        let splat = field(n, "arguments").is_some_and(|a| {
            named_children(a)
                .iter()
                .any(|c| c.kind() == "dictionary_splat")
        });
        match Args::of(ctx, n).kw("config") {
            // `**client_params` may hold the `config`: not known here.
            None if splat => {}
            None => {
                if let Some(mut p) = botocore_policy(ctx, n, true) {
                    p.name = Some(format!("{what} with botocore's defaults"));
                    facts.policies.push(p);
                }
            }
            Some(c) => {
                let c = resolve(ctx, c);
                // `Config(..).merge(other)`: the outer call's receiver.
                let Some(&i) = built.get(&c.id()) else {
                    continue;
                };
                let p = &mut facts.policies[i];
                if !named.contains(&i) {
                    named.push(i);
                    p.name = Some(format!("botocore Config of {what}"));
                }
            }
        }
    }
}

/// The policy of `Config(..)` at `call` (`None` when it sets no retry or
/// timeout), or with `implicit` the defaults of a client built without
/// one (`call` is then the `boto3.client(..)` call).
pub(super) fn botocore_policy(
    ctx: &Ctx<'_>,
    call: Node<'_>,
    implicit: bool,
) -> Option<RetryPolicy> {
    let args = if implicit {
        Args {
            positional: Vec::new(),
            keywords: Vec::new(),
        }
    } else {
        Args::of(ctx, call)
    };
    let retries = args.kw("retries").map(|r| resolve(ctx, r));
    let read = args.kw("read_timeout");
    if !implicit && retries.is_none() && read.is_none() && args.kw("connect_timeout").is_none() {
        return None;
    }
    // The `retries` dictionary's entries.
    let mut entries: Vec<(String, Node<'_>)> = Vec::new();
    if let Some(r) = retries.filter(|r| r.kind() == "dictionary") {
        for pair in named_children(r).into_iter().filter(|p| p.kind() == "pair") {
            if let (Some(k), Some(v)) = (field(pair, "key"), field(pair, "value"))
                && let Some(k) = eval::string(ctx, k)
            {
                entries.push((k, v));
            }
        }
    }
    let entry = |k: &str| entries.iter().find(|(n, _)| n == k).map(|(_, v)| *v);
    let mode = entry("mode").and_then(|m| eval::string(ctx, m));
    let standard = matches!(mode.as_deref(), Some("standard" | "adaptive"));
    let default_count = if standard {
        sys::BOTOCORE_STANDARD_ATTEMPTS
    } else {
        sys::BOTOCORE_LEGACY_ATTEMPTS
    };
    let attempts_l = if let Some(t) = entry("total_max_attempts") {
        let c = match eval::number(ctx, t) {
            Some(v) if v >= 1.0 => AttemptCount::Finite(v as u64),
            _ => AttemptCount::Unknown,
        };
        attempts(c, format!("\"total_max_attempts\": {}", ctx.text(t)), t)
    } else if let Some(m) = entry("max_attempts") {
        // In a `Config`, `max_attempts` counts retries (botocore adds 1).
        let c = match eval::number(ctx, m) {
            Some(v) if v >= 0.0 => AttemptCount::Finite(v as u64 + 1),
            _ => AttemptCount::Unknown,
        };
        attempts(c, format!("\"max_attempts\": {} (retries)", ctx.text(m)), m)
    } else {
        // The mode and count not written here come from `AWS_RETRY_MODE`
        // / `AWS_MAX_ATTEMPTS` or the profile's `retry_mode` /
        // `max_attempts` (`args.py` `_compute_retry_mode`), which a file of
        // code cannot show; without them botocore uses legacy mode.
        let mode = mode.as_deref().unwrap_or("legacy");
        default_attempts(
            AttemptCount::Finite(default_count),
            &format!(
                "no max_attempts: botocore's {mode} mode default of {default_count} attempts (unless AWS_MAX_ATTEMPTS or the profile's max_attempts is set)"
            ),
            call,
        )
    };
    let mut p = RetryPolicy::new(System::AwsSdk, span(call), attempts_l);
    p.name = Some(if implicit {
        "boto3 client with botocore's defaults".into()
    } else {
        "botocore Config".into()
    });
    let at = span(call);
    p.delay = Located::default_at(
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: standard.then_some(sys::BOTOCORE_MAX_BACKOFF),
        },
        at,
    );
    p.jitter = Located::default_at(Jitter::Full, at);
    p.cap_order = CapOrder::AfterJitter;
    if standard {
        p.budget = Some(Located::default_at(Budget::Quota, at));
    }
    p.retry_on = Located::default_at(RetryOn::Unknown, at);
    p.methods = Located::default_at(Methods::Unknown, at);
    p.per_try_timeout = Some(match read {
        Some(r) => super::super::timeout_at(ctx, r),
        None => Located::default_at(Timeout::after(sys::BOTOCORE_TIMEOUT), at),
    });
    Some(p)
}
