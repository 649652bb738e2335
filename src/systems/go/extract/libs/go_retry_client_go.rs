//! sethvargo/go-retry and client-go `retry` with `wait.Backoff`.
//! Defaults: [`crate::systems::go`].

use super::super::eval;
use super::super::{Ctx, Pkg, args, attempts, composite, default_attempts, keyed, policy, span};
use super::{predicate, timeout_at};
use crate::model::{AttemptCount, Condition, Delay, Facts, Jitter, Located, RetryOn, RetryPolicy};
use crate::systems::go as sys;
use crate::systems::go::extract::KindName;
use std::time::Duration;
use tree_sitter::Node;

// ---------------------------------------------------------------------------
// sethvargo/go-retry

pub(super) fn go_retry<'a>(
    ctx: &Ctx<'a>,
    call: Node<'a>,
    name: &str,
) -> Option<(RetryPolicy, Option<Node<'a>>)> {
    let at = span(call);
    let a = args(call);
    let (b, op) = match name {
        "Do" | "DoValue" => (a.get(1).copied(), a.get(2).copied()),
        "Exponential" | "Constant" | "Fibonacci" => (Some(call), a.get(2).copied()),
        _ => return None,
    };
    let mut p = policy(
        "go-retry",
        at,
        default_attempts(AttemptCount::Unbounded, "no WithMaxRetries: no limit", at),
    );
    p.delay = Located::written(Delay::Unknown, at);
    p.jitter = Located::default_at(Jitter::None, at);
    p.retry_on = Located::default_at(predicate(at), at);
    let mut cur = b;
    for _ in 0..super::super::MAX_DEPTH {
        let Some(n) = cur else { break };
        if n.kind_name() == "identifier" {
            cur = ctx
                .binding(ctx.text(n), n.start_byte())
                .filter(|v| v.id() != n.id());
            continue;
        }
        let Some((Pkg::GoRetry, f)) = ctx.pkg_call(n) else {
            p.delay = Located::written(Delay::Unknown, span(n));
            p.jitter = Located::written(Jitter::Unknown, span(n));
            p.attempts = attempts(AttemptCount::Unknown, ctx.text(n), span(n));
            break;
        };
        let fa = args(n);
        let arg = |i: usize| fa.get(i).copied();
        match f {
            "WithMaxRetries" => {
                if let Some(v) = arg(0) {
                    p.attempts = match eval::count(ctx, v) {
                        Some(c) => attempts(
                            AttemptCount::Finite(c.saturating_add(1)),
                            &format!("WithMaxRetries({c}, ..)"),
                            span(v),
                        ),
                        None => attempts(AttemptCount::Unknown, ctx.text(v), span(v)),
                    };
                }
                cur = arg(1);
            }
            "WithMaxDuration" => {
                if let Some(v) = arg(0) {
                    p.overall_timeout = Some(timeout_at(ctx, v));
                }
                cur = arg(1);
            }
            "WithCappedDuration" => {
                if let (
                    Some(v),
                    Delay::Exponential {
                        base, multiplier, ..
                    },
                ) = (arg(0), p.delay.value.clone())
                {
                    p.delay.value = Delay::Exponential {
                        base,
                        multiplier,
                        cap: eval::duration(ctx, v),
                    };
                }
                cur = arg(1);
            }
            "WithJitter" | "WithJitterPercent" => {
                p.jitter = Located::written(Jitter::Unknown, span(n));
                if f == "WithJitterPercent"
                    && let Some(pc) = arg(0).and_then(|v| eval::float(ctx, v))
                {
                    p.jitter.value = Jitter::Proportional {
                        factor: (pc / 100.0).min(1.0),
                    };
                }
                cur = arg(1);
            }
            "NewExponential" | "Exponential" | "NewFibonacci" | "Fibonacci" | "NewConstant"
            | "Constant" => {
                let base_arg = if f.starts_with("New") { arg(0) } else { arg(1) };
                let base = base_arg.and_then(|v| eval::duration(ctx, v));
                let cap = match &p.delay.value {
                    Delay::Exponential { cap, .. } | Delay::Fibonacci { cap, .. } => *cap,
                    _ => None,
                };
                p.delay = Located::written(
                    match (base, f.trim_start_matches("New")) {
                        (Some(b), "Exponential") => Delay::Exponential {
                            base: b,
                            multiplier: 2.0,
                            cap,
                        },
                        // sethvargo/go-retry a324c68 `backoff_fibonacci.go`:
                        // the state starts `{0, base}` and `Next` returns
                        // the sum of the two: base, 2 base, 3 base, 5 base
                        // (its doc comment's "1, 1, 2" notwithstanding).
                        (Some(b), "Fibonacci") => Delay::Fibonacci {
                            first: b,
                            second: b.saturating_mul(2),
                            cap,
                        },
                        (Some(b), _) => Delay::Fixed { delay: b },
                        (None, _) => Delay::Unknown,
                    },
                    span(n),
                );
                break;
            }
            _ => break,
        }
    }
    Some((p, op))
}

// ---------------------------------------------------------------------------
// client-go

pub(super) fn client_go<'a>(
    ctx: &Ctx<'a>,
    call: Node<'a>,
    name: &str,
    facts: &mut Facts,
) -> (RetryPolicy, Option<Node<'a>>) {
    let a = args(call);
    let mut p = wait_backoff(ctx, a.first().copied(), call, facts);
    if name == "RetryOnConflict" {
        p.retry_on = Located::default_at(
            RetryOn::Listed {
                conditions: vec![Located::default_at(
                    Condition::Exception("Conflict (409)".into()),
                    span(call),
                )],
            },
            span(call),
        );
        (p, a.get(1).copied())
    } else {
        p.retry_on = match a.get(1) {
            Some(r) => Located::written(predicate(span(*r)), span(*r)),
            None => Located::default_at(RetryOn::Unknown, span(call)),
        };
        (p, a.get(2).copied())
    }
}

/// A `wait.Backoff`: `retry.DefaultRetry`/`DefaultBackoff`, a literal, or a
/// name bound to one.
pub(super) fn wait_backoff(
    ctx: &Ctx<'_>,
    b: Option<Node<'_>>,
    call: Node<'_>,
    facts: &mut Facts,
) -> RetryPolicy {
    let at = span(call);
    let mut p = policy(
        "client-go",
        at,
        default_attempts(AttemptCount::Unknown, "a backoff not known here", at),
    );
    let mut cur = b;
    // `listRetry.Steps = int(c.limit)` after the binding: the count the
    // call is given.
    let mut steps_set: Option<Node<'_>> = None;
    for _ in 0..super::super::MAX_DEPTH {
        let Some(n) = cur else { break };
        if n.kind_name() == "identifier" {
            let name = ctx.text(n);
            cur = ctx
                .binding(name, n.start_byte())
                .filter(|v| v.id() != n.id());
            // `if useBackoff { b = retry.DefaultBackoff } else { b =
            // retry.DefaultRetry }`: which one the call gets is decided
            // when it runs, so the backoff is not known here.
            if cur.is_some_and(|v| branch_bound(ctx, name, v)) {
                return p;
            }
            if steps_set.is_none() {
                steps_set = ctx
                    .fields_of(name, super::super::enclosing_function(n))
                    .into_iter()
                    .filter(|f| f.field == "Steps" && f.value.end_byte() <= n.start_byte())
                    .rfind(|f| cur.is_none_or(|v| v.start_byte() < f.value.start_byte()))
                    .map(|f| f.value);
            }
            continue;
        }
        let known = match ctx.pkg_ref(n) {
            Some((Pkg::ClientGoRetry, "DefaultRetry")) => Some(sys::CLIENT_GO_DEFAULT_RETRY),
            Some((Pkg::ClientGoRetry, "DefaultBackoff")) => Some(sys::CLIENT_GO_DEFAULT_BACKOFF),
            _ => None,
        };
        if let Some((steps, d, factor, jitter)) = known {
            let s = span(n);
            p.attempts = Located::default_at(
                crate::model::Attempts {
                    count: AttemptCount::Finite(steps),
                    written_as: format!("{} (Steps {steps})", ctx.text(n)),
                },
                s,
            );
            if let Some(v) = steps_set {
                p.attempts = attempts(
                    eval::count(ctx, v)
                        .filter(|c| *c > 0)
                        .map_or(AttemptCount::Unknown, AttemptCount::Finite),
                    &format!("Steps = {}", ctx.text(v)),
                    span(v),
                );
            }
            p.delay = Located::default_at(steady(d, factor, None), s);
            // k8s.io/apimachinery `wait.Jitter(d, f)` returns `d +
            // rand.Float64()*f*d`: a share added, never taken off.
            p.jitter = Located::default_at(Jitter::Added { factor: jitter }, s);
            return p;
        }
        let Some(lit) = composite(n) else { break };
        let mut steps = None;
        let (mut d, mut factor, mut jitter, mut cap) = (Duration::ZERO, 0.0, 0.0, None);
        for (k, v) in keyed(ctx, lit) {
            match k {
                "Steps" => steps = Some((eval::count(ctx, v), v)),
                "Duration" => d = eval::duration(ctx, v).unwrap_or_default(),
                "Factor" => factor = eval::float(ctx, v).unwrap_or(0.0),
                "Jitter" => jitter = eval::float(ctx, v).unwrap_or(0.0),
                "Cap" => cap = eval::duration(ctx, v).filter(|c| !c.is_zero()),
                _ => {}
            }
        }
        p.attempts = match steps {
            Some((Some(s), v)) if s > 0 => attempts(
                AttemptCount::Finite(s),
                &format!("Steps: {}", ctx.text(v)),
                span(v),
            ),
            Some((None, v)) => attempts(
                AttemptCount::Unknown,
                &format!("Steps: {}", ctx.text(v)),
                span(v),
            ),
            // `for backoff.Steps > 0`: without `Steps` (or with 0) the
            // function is never run (see `crate::systems::go`).
            _ => {
                let at = steps.map_or(span(lit), |(_, v)| span(v));
                facts.diagnostics.push(crate::diag::invalid_setting::value(
                    at,
                    "Steps",
                    "0",
                    &format!(
                        "`{}` runs the function only while `Steps > 0`: without `Steps` it is never called and the retry returns `wait.ErrWaitTimeout`",
                        ctx.text(super::super::field(call, "function").unwrap_or(call))
                    ),
                ));
                attempts(
                    AttemptCount::Finite(1),
                    "no Steps: the function is never run",
                    at,
                )
            }
        };
        p.delay = Located::written(steady(d, factor, cap), span(lit));
        p.jitter = Located::written(
            if jitter > 0.0 {
                // `wait.Jitter`: one-sided, as above.
                Jitter::Added { factor: jitter }
            } else {
                Jitter::None
            },
            span(lit),
        );
        return p;
    }
    p
}

/// `value`, bound to `name`, lies in one branch of an `if`/`else` (or a
/// `switch`) whose other branch binds `name` too.
fn branch_bound(ctx: &Ctx<'_>, name: &str, value: Node<'_>) -> bool {
    let Some(branch) = std::iter::successors(value.parent(), |p| p.parent())
        .take(8)
        .take_while(|p| !matches!(p.kind_name(), "func_literal" | "function_declaration"))
        .find(|p| {
            matches!(
                p.kind_name(),
                "if_statement" | "expression_switch_statement" | "type_switch_statement"
            )
        })
    else {
        return false;
    };
    ctx.bindings.get(name).is_some_and(|vs| {
        vs.iter().any(|v| {
            v.id() != value.id()
                && branch.start_byte() <= v.start_byte()
                && v.end_byte() <= branch.end_byte()
        })
    })
}

/// `Duration x Factor^n` (a factor of 1 or less is a fixed delay).
fn steady(d: Duration, factor: f64, cap: Option<Duration>) -> Delay {
    if d.is_zero() {
        Delay::None
    } else if factor <= 1.0 {
        Delay::Fixed { delay: d }
    } else {
        Delay::Exponential {
            base: d,
            multiplier: factor,
            cap,
        }
    }
}
