//! go-retryablehttp: `retryablehttp.NewClient()` and the fields set on
//! it, or a client written as a literal (`&retryablehttp.Client{..}`).
//! Defaults: [`crate::systems::go`] (`RETRYABLEHTTP_*`).

use super::super::eval;
use super::super::{
    Ctx, Pkg, attempts, bound_name, default_attempts, enclosing_function, field, keyed, policy,
    span,
};
use super::{client_timeout, linear_jitter, predicate, timeout_at};
use crate::model::backoff::ServerDelay;
use crate::model::{
    AttemptCount, Condition, Delay, Facts, Jitter, Located, Methods, RetryOn, RetryPolicy, Timeout,
};
use crate::systems::go as sys;
use crate::systems::go::extract::KindName;
use std::time::Duration;
use tree_sitter::Node;

/// Every `retryablehttp.Client{..}` literal of the file (under `&` or
/// not): a policy each.
pub(super) fn literals(ctx: &Ctx<'_>, facts: &mut Facts) {
    if !ctx.imports(Pkg::RetryableHttp) {
        return;
    }
    for &n in &ctx.nodes {
        if n.kind_name() != "composite_literal" {
            continue;
        }
        let is_client = field(n, "type")
            .and_then(|t| ctx.text(t).split_once('.'))
            .is_some_and(|(alias, name)| {
                name == "Client" && ctx.pkg(alias) == Some(Pkg::RetryableHttp)
            });
        if is_client {
            let value = n
                .parent()
                .filter(|u| u.kind_name() == "unary_expression")
                .unwrap_or(n);
            facts.policies.push(client(ctx, value, Some(n)));
        }
    }
}

/// `retryablehttp.NewClient()` (the library's defaults), or a literal
/// `&retryablehttp.Client{..}` (`lit`): Go's zero values for the fields
/// it leaves out (go-retryablehttp `client.go` `Do`, v0.7.8-17-gfd00458:
/// `remain := c.RetryMax - i`, `c.Backoff(c.RetryWaitMin,
/// c.RetryWaitMax, ..)`, `c.CheckRetry(..)`; only a nil `HTTPClient`
/// is filled in, with `cleanhttp.DefaultPooledClient()`), so no
/// `RetryMax` is one attempt and a nil `Backoff` or `CheckRetry` is not
/// read as the defaults (hashicorp/go-tfe 0fa6b099 `v1.go`: `RetryMax:
/// 30`, its own `Backoff` and `CheckRetry`).
pub(super) fn client(ctx: &Ctx<'_>, call: Node<'_>, lit: Option<Node<'_>>) -> RetryPolicy {
    let at = span(call);
    let mut p = policy(
        "go-retryablehttp",
        at,
        match lit {
            None => default_attempts(
                AttemptCount::Finite(sys::RETRYABLEHTTP_RETRY_MAX + 1),
                "RetryMax 4 (the default): 5 attempts",
                at,
            ),
            Some(_) => default_attempts(
                AttemptCount::Finite(1),
                "no RetryMax in the literal: 1 attempt",
                at,
            ),
        },
    );
    p.name = bound_name(ctx, call).map(str::to_string);
    let (mut wait_min, mut wait_max) = match lit {
        None => (sys::RETRYABLEHTTP_WAIT_MIN, sys::RETRYABLEHTTP_WAIT_MAX),
        Some(_) => (Duration::ZERO, Duration::ZERO),
    };
    let mut backoff = if lit.is_none() {
        "DefaultBackoff"
    } else {
        "nil"
    };
    let mut backoff_at = at;
    let mut wait_at = at;
    let mut check_retry: Option<Node<'_>> = None;
    p.per_try_timeout = Some(Located::default_at(Timeout::Disabled, at));
    p.methods = Located::default_at(Methods::All, at);
    let within = enclosing_function(call);
    let mut fields: Vec<(&str, Node<'_>)> = lit.map(|l| keyed(ctx, l)).unwrap_or_default();
    if let Some(var) = p.name.clone() {
        fields.extend(
            ctx.fields_of(&var, within)
                .into_iter()
                .map(|f| (f.field, f.value)),
        );
    }
    {
        for (field_name, v) in fields {
            match field_name {
                "RetryMax" => {
                    let count = match eval::count(ctx, v) {
                        Some(n) => AttemptCount::Finite(n.saturating_add(1)),
                        None => AttemptCount::Unknown,
                    };
                    p.attempts = attempts(count, &format!("RetryMax = {}", ctx.text(v)), span(v));
                }
                "RetryWaitMin" => {
                    if let Some(d) = eval::duration(ctx, v) {
                        wait_min = d;
                        wait_at = span(v);
                    }
                }
                "RetryWaitMax" => {
                    if let Some(d) = eval::duration(ctx, v) {
                        wait_max = d;
                        wait_at = span(v);
                    }
                }
                "Backoff" => {
                    backoff = match ctx.pkg_ref(v) {
                        Some((Pkg::RetryableHttp, name)) => match name {
                            "DefaultBackoff" => "DefaultBackoff",
                            "LinearJitterBackoff" => "LinearJitterBackoff",
                            "RateLimitLinearJitterBackoff" => "RateLimitLinearJitterBackoff",
                            _ => "custom",
                        },
                        _ => "custom",
                    };
                    backoff_at = span(v);
                }
                "CheckRetry" => check_retry = Some(v),
                "HTTPClient.Timeout" => {
                    p.per_try_timeout = Some(timeout_at(ctx, v));
                }
                "HTTPClient" => {
                    p.per_try_timeout = Some(client_timeout(ctx, v));
                }
                _ => {}
            }
        }
    }
    let (delay, jitter) = match backoff {
        "DefaultBackoff" => (
            Delay::Exponential {
                base: wait_min,
                multiplier: 2.0,
                cap: Some(wait_max),
            },
            Jitter::None,
        ),
        "LinearJitterBackoff" | "RateLimitLinearJitterBackoff" => linear_jitter(wait_min, wait_max),
        "nil" => (Delay::Unknown, Jitter::Unknown),
        _ => (Delay::Custom, Jitter::Unknown),
    };
    let delay_at = if backoff == "DefaultBackoff" {
        wait_at
    } else {
        backoff_at
    };
    p.delay = if backoff_at == at && wait_at == at {
        Located::default_at(delay, at)
    } else {
        Located::written(delay, delay_at)
    };
    p.jitter = if backoff_at == at {
        Located::default_at(jitter, at)
    } else {
        Located::written(jitter, backoff_at)
    };
    // `LinearJitterBackoff` never reads `Retry-After`, where
    // `RateLimitLinearJitterBackoff` (the same with the header first)
    // would; with the default `CheckRetry`, 429 and 503 are retried.
    let ignores = backoff == "LinearJitterBackoff"
        && check_retry.is_none_or(|v| {
            matches!(
                ctx.pkg_ref(v),
                Some((
                    Pkg::RetryableHttp,
                    "DefaultRetryPolicy" | "ErrorPropagatedRetryPolicy"
                ))
            )
        });
    if matches!(backoff, "DefaultBackoff" | "RateLimitLinearJitterBackoff") || ignores {
        let d = ServerDelay {
            header: "Retry-After".into(),
            capped: false,
            jittered: false,
            by: format!("retryablehttp.{backoff}"),
            ignored: ignores.then(|| {
                "set `Backoff` to `retryablehttp.RateLimitLinearJitterBackoff`, which waits the header first, or to a custom `Backoff` that reads it".to_string()
            }),
        };
        p.server_delay = Some(if backoff_at == at {
            Located::default_at(d, at)
        } else {
            Located::written(d, backoff_at)
        });
    }
    p.retry_on = match check_retry {
        None if lit.is_some() => Located::default_at(RetryOn::Unknown, at),
        None => Located::default_at(retryablehttp_conditions(at), at),
        Some(v) => match ctx.pkg_ref(v) {
            Some((Pkg::RetryableHttp, "DefaultRetryPolicy" | "ErrorPropagatedRetryPolicy")) => {
                Located::written(retryablehttp_conditions(span(v)), span(v))
            }
            _ => Located::written(predicate(span(v)), span(v)),
        },
    };
    p
}

/// `baseRetryPolicy`: connection errors, 429, 500..=599 but 501.
fn retryablehttp_conditions(at: crate::source::Span) -> RetryOn {
    let c = |c| Located::default_at(c, at);
    RetryOn::Listed {
        conditions: vec![
            c(Condition::Transport("connection error".into())),
            c(Condition::status(429)),
            c(Condition::status(500)),
            c(Condition::Status { from: 502, to: 599 }),
        ],
    }
}
