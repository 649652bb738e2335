//! The retry libraries: go-retryablehttp, cenkalti/backoff v4 and v5,
//! avast/retry-go, sethvargo/go-retry, client-go `retry` with
//! `wait.Backoff`. Defaults: [`crate::systems::go`].

mod aws;
mod backoff_elapsed;
mod brokers;
mod go_retry_client_go;
pub(super) mod jpillora;
mod kafka_go;
mod retryablehttp;
mod sarama;
pub use sarama::config_function_fields;
mod ticker;

pub(super) use brokers::extract as brokers;
pub(super) use kafka_go::extract as kafka_go;
pub(super) use sarama::extract as sarama;

use super::eval;
use super::{
    Ctx, Pkg, RetryScope, args, attempts, bound_name, composite, default_attempts,
    enclosing_function, field, keyed, policy, span,
};
use crate::model::{
    AttemptCount, Condition, Delay, Facts, Jitter, Located, RetryOn, RetryPolicy, Timeout,
};
use crate::systems::go as sys;
use crate::systems::go::extract::KindName;
use go_retry_client_go::{client_go, go_retry, wait_backoff};
use std::time::Duration;
use tree_sitter::Node;

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) {
    // `&retryablehttp.Client{..}` literals: the client's fields as written.
    retryablehttp::literals(ctx, facts);
    for &n in &ctx.calls {
        let Some((pkg, name)) = ctx.pkg_call(n) else {
            continue;
        };
        let (p, op) = match (pkg, name) {
            (Pkg::RetryableHttp, "NewClient") => (retryablehttp::client(ctx, n, None), None),
            (
                Pkg::Backoff(v5),
                "Retry"
                | "RetryNotify"
                | "RetryWithData"
                | "RetryNotifyWithData"
                | "RetryNotifyWithTimer",
            ) => cenkalti(ctx, n, name, v5),
            (Pkg::Backoff(v5), "NewTicker" | "NewTickerWithTimer") => {
                if let Some((p, (start, end))) = ticker::ticker(ctx, n, v5) {
                    let i = facts.policies.len();
                    facts.policies.push(p);
                    scopes.push(RetryScope {
                        policy: i,
                        start,
                        end,
                        via_call: false,
                    });
                }
                continue;
            }
            (Pkg::RetryGo(_), "Do" | "DoWithData") => retry_go(ctx, n, true),
            (Pkg::RetryGo(_), "New" | "NewWithData") => retry_go(ctx, n, false),
            (Pkg::GoRetry, _) => match go_retry(ctx, n, name) {
                Some(x) => x,
                None => continue,
            },
            (Pkg::ClientGoRetry, "RetryOnConflict" | "OnError") => client_go(ctx, n, name, facts),
            (Pkg::AwsRetry | Pkg::AwsConfig, _) => match aws::policy(ctx, n) {
                Some(p) => (p, None),
                None => continue,
            },
            (Pkg::Wait, "ExponentialBackoff" | "ExponentialBackoffWithContext") => {
                let a = args(n);
                let (b, op) = if name == "ExponentialBackoff" {
                    (a.first().copied(), a.get(1).copied())
                } else {
                    (a.get(1).copied(), a.get(2).copied())
                };
                let mut p = wait_backoff(ctx, b, n, facts);
                p.retry_on = Located::default_at(
                    RetryOn::Listed {
                        conditions: vec![Located::default_at(Condition::Predicate, span(n))],
                    },
                    span(n),
                );
                (p, op)
            }
            _ => continue,
        };
        // The operation only binds a local port or reads an informer
        // cache: nothing remote is asked again.
        let range = op.and_then(|o| operation_range(ctx, o));
        if let Some((start, end)) = range
            && super::local::only_local(
                ctx,
                ctx.calls
                    .iter()
                    .copied()
                    .filter(|c| start <= c.start_byte() && c.end_byte() <= end),
            )
        {
            continue;
        }
        let i = facts.policies.len();
        if name == "LoadDefaultConfig"
            && let Some(e) = aws::shared(ctx, n, &p, i)
        {
            facts.aws_shared.push(e);
        }
        facts.policies.push(p);
        if let Some((start, end)) = range {
            scopes.push(RetryScope {
                policy: i,
                start,
                end,
                via_call: false,
            });
        }
    }
}

/// The code a retried operation runs: a function literal, or a function
/// of this file named by the argument.
pub fn operation_range(ctx: &Ctx<'_>, op: Node<'_>) -> Option<(usize, usize)> {
    if op.kind_name() == "func_literal" {
        return Some((op.start_byte(), op.end_byte()));
    }
    // `operation := func() (T, error) { .. }` passed by its name: the
    // last such literal before it in the same function (`binding` sees a
    // function literal as a scope of its own).
    if op.kind_name() == "identifier" {
        let home = enclosing_function(op).map(|f| f.id());
        if let Some(f) = ctx.bindings.get(ctx.text(op)).and_then(|vs| {
            vs.iter().rev().find(|v| {
                v.kind_name() == "func_literal"
                    && v.end_byte() <= op.start_byte()
                    && enclosing_function(**v).map(|f| f.id()) == home
            })
        }) {
            return Some((f.start_byte(), f.end_byte()));
        }
    }
    let name = ctx.text(op);
    let name = name.rsplit('.').next().unwrap_or(name);
    ctx.nodes
        .iter()
        .find(|d| {
            matches!(d.kind_name(), "function_declaration" | "method_declaration")
                && field(**d, "name").is_some_and(|f| ctx.text(f) == name)
        })
        .map(|d| (d.start_byte(), d.end_byte()))
}

/// `LinearJitterBackoff`: `n x uniform(min, max)` before retry n.
fn linear_jitter(min: Duration, max: Duration) -> (Delay, Jitter) {
    let mid = (min + max) / 2;
    let factor = if max > min && !mid.is_zero() {
        (max - min).as_secs_f64() / 2.0 / mid.as_secs_f64()
    } else {
        0.0
    };
    let jitter = if factor > 0.0 {
        Jitter::Proportional { factor }
    } else {
        Jitter::None
    };
    (
        Delay::Linear {
            base: mid,
            cap: None,
        },
        jitter,
    )
}

fn predicate(at: crate::source::Span) -> RetryOn {
    RetryOn::Listed {
        conditions: vec![Located::written(Condition::Predicate, at)],
    }
}

/// A timeout written at `v` (`0` is none).
pub fn timeout_at(ctx: &Ctx<'_>, v: Node<'_>) -> Located<Timeout> {
    let t = match eval::duration(ctx, v) {
        Some(d) if d.is_zero() => Timeout::Disabled,
        Some(d) => Timeout::after(d),
        None => Timeout::Unknown,
    };
    Located::written(t, span(v))
}

/// The `Timeout` of an `http.Client` expression: a literal's field (none
/// when it has none), else unknown.
pub fn client_timeout(ctx: &Ctx<'_>, v: Node<'_>) -> Located<Timeout> {
    if let Some(lit) = composite(v) {
        return match keyed(ctx, lit).into_iter().find(|(k, _)| *k == "Timeout") {
            Some((_, t)) => timeout_at(ctx, t),
            None => Located::written(Timeout::Disabled, span(lit)),
        };
    }
    Located::written(Timeout::Unknown, span(v))
}

// ---------------------------------------------------------------------------
// cenkalti/backoff

/// What a `BackOff` expression does.
struct Shape {
    delay: Located<Delay>,
    jitter: Located<Jitter>,
    /// Retries allowed (`WithMaxRetries`), where written: `None` for a
    /// count not known here (a parameter: `WithMaxRetries(b, max)`).
    retries: Option<(Option<u64>, crate::source::Span)>,
    /// `MaxElapsedTime` (`None` = never stops).
    elapsed: Option<Located<Option<Duration>>>,
    known: bool,
}

fn backoff_shape(ctx: &Ctx<'_>, b: Node<'_>, v5: bool, depth: usize) -> Shape {
    let unknown = Shape {
        delay: Located::written(Delay::Unknown, span(b)),
        jitter: Located::written(Jitter::Unknown, span(b)),
        retries: None,
        elapsed: None,
        known: false,
    };
    if depth > super::MAX_DEPTH {
        return unknown;
    }
    match b.kind_name() {
        "identifier" => {
            let Some(v) = ctx.binding(ctx.text(b), b.start_byte()) else {
                return unknown;
            };
            if v.id() == b.id() {
                return unknown;
            }
            let mut s = backoff_shape(ctx, v, v5, depth + 1);
            exp_fields(ctx, &mut s, ctx.text(b), enclosing_function(b));
            return s;
        }
        "unary_expression" | "parenthesized_expression" => {
            if let Some(lit) = composite(b) {
                // `&backoff.ExponentialBackOff{...}`: unset fields are zero.
                let mut s = exponential(b, v5);
                s.delay = Located::written(
                    Delay::Exponential {
                        base: Duration::ZERO,
                        multiplier: 0.0,
                        cap: None,
                    },
                    span(lit),
                );
                s.jitter = Located::written(Jitter::None, span(lit));
                s.elapsed = Some(Located::written(None, span(lit)));
                for (k, v) in keyed(ctx, lit) {
                    exp_field(ctx, &mut s, k, v);
                }
                return s;
            }
            return unknown;
        }
        _ => {}
    }
    let Some((Pkg::Backoff(_), name)) = ctx.pkg_call(b) else {
        return unknown;
    };
    let a = args(b);
    match name {
        "NewExponentialBackOff" => {
            let mut s = exponential(b, v5);
            for o in &a {
                if let Some((Pkg::Backoff(_), opt)) = ctx.pkg_call(*o)
                    && let Some(v) = args(*o).first()
                {
                    let f = opt.strip_prefix("With").unwrap_or(opt);
                    exp_field(ctx, &mut s, f, *v);
                }
            }
            if let Some(var) = bound_name(ctx, b) {
                exp_fields(ctx, &mut s, var, enclosing_function(b));
            }
            s
        }
        "NewConstantBackOff" => {
            let delay = match a.first().and_then(|d| eval::duration(ctx, *d)) {
                Some(d) => Delay::Fixed { delay: d },
                None => Delay::Unknown,
            };
            Shape {
                delay: Located::written(delay, span(b)),
                jitter: Located::default_at(Jitter::None, span(b)),
                retries: None,
                elapsed: Some(Located::default_at(None, span(b))),
                known: true,
            }
        }
        "WithMaxRetries" => {
            let Some(inner) = a.first() else {
                return unknown;
            };
            let mut s = backoff_shape(ctx, *inner, v5, depth + 1);
            // A count not known here still bounds the retries
            // (hashicorp/vault-secrets-operator 9b840a5a `getWithRetry`'s
            // `max` parameter was read as no limit).
            if let Some(n) = a.get(1) {
                s.retries = Some((eval::count(ctx, *n), span(*n)));
            }
            s
        }
        "WithContext" => match a.first() {
            Some(inner) => backoff_shape(ctx, *inner, v5, depth + 1),
            None => unknown,
        },
        _ => unknown,
    }
}

fn exponential(b: Node<'_>, v5: bool) -> Shape {
    let at = span(b);
    Shape {
        delay: Located::default_at(
            Delay::Exponential {
                base: sys::BACKOFF_INITIAL,
                multiplier: sys::BACKOFF_MULTIPLIER,
                cap: Some(sys::BACKOFF_MAX_INTERVAL),
            },
            at,
        ),
        jitter: Located::default_at(
            Jitter::Proportional {
                factor: sys::BACKOFF_RANDOMIZATION,
            },
            at,
        ),
        retries: None,
        // v5's elapsed time is an option of `Retry`, not of the backoff.
        elapsed: (!v5).then(|| Located::default_at(Some(sys::BACKOFF_V4_MAX_ELAPSED), at)),
        known: true,
    }
}

fn exp_fields(ctx: &Ctx<'_>, s: &mut Shape, var: &str, within: Option<Node<'_>>) {
    for f in ctx.fields_of(var, within) {
        exp_field(ctx, s, f.field, f.value);
    }
}

fn exp_field(ctx: &Ctx<'_>, s: &mut Shape, name: &str, v: Node<'_>) {
    let at = span(v);
    let (base, mult, cap) = match s.delay.value {
        Delay::Exponential {
            base,
            multiplier,
            cap,
        } => (base, multiplier, cap),
        _ => return,
    };
    let set = |s: &mut Shape, base, multiplier, cap| {
        s.delay = Located::written(
            Delay::Exponential {
                base,
                multiplier,
                cap,
            },
            at,
        );
    };
    match name {
        "InitialInterval" => match eval::duration(ctx, v) {
            Some(d) => set(s, d, mult, cap),
            None => s.delay = Located::written(Delay::Unknown, at),
        },
        "Multiplier" => match eval::float(ctx, v) {
            Some(m) => set(s, base, m, cap),
            None => s.delay = Located::written(Delay::Unknown, at),
        },
        "MaxInterval" => match eval::duration(ctx, v) {
            Some(d) => set(s, base, mult, (!d.is_zero()).then_some(d)),
            None => s.delay = Located::written(Delay::Unknown, at),
        },
        "RandomizationFactor" => {
            s.jitter = Located::written(
                match eval::float(ctx, v) {
                    Some(f) if f > 0.0 => Jitter::Proportional { factor: f.min(1.0) },
                    Some(_) => Jitter::None,
                    None => Jitter::Unknown,
                },
                at,
            );
        }
        "MaxElapsedTime" => {
            s.elapsed = Some(Located::written(
                match eval::duration(ctx, v) {
                    Some(d) if d.is_zero() => None,
                    Some(d) => Some(d),
                    None => Some(Duration::MAX),
                },
                at,
            ));
        }
        _ => {}
    }
}

fn cenkalti<'a>(
    ctx: &Ctx<'a>,
    call: Node<'a>,
    name: &str,
    v5: bool,
) -> (RetryPolicy, Option<Node<'a>>) {
    let at = span(call);
    let a = args(call);
    let (op, shape, mut max_tries, mut elapsed) = if v5 {
        // `Retry(ctx, op, opts...)`.
        let mut shape = None;
        let mut tries = None;
        let mut elapsed = Some(Located::default_at(
            Some(backoff_elapsed::retry_default(ctx)),
            at,
        ));
        for o in a.iter().skip(2) {
            let Some((Pkg::Backoff(_), opt)) = ctx.pkg_call(*o) else {
                continue;
            };
            let Some(v) = args(*o).first().copied() else {
                continue;
            };
            match opt {
                "WithBackOff" => shape = Some(backoff_shape(ctx, v, true, 0)),
                "WithMaxTries" => tries = Some((eval::count(ctx, v), span(v))),
                "WithMaxElapsedTime" => {
                    elapsed = Some(Located::written(
                        match eval::duration(ctx, v) {
                            Some(d) if d.is_zero() => None,
                            Some(d) => Some(d),
                            None => Some(Duration::MAX),
                        },
                        span(v),
                    ));
                }
                _ => {}
            }
        }
        let shape = shape.unwrap_or_else(|| exponential(call, true));
        (a.get(1).copied(), shape, tries, elapsed)
    } else {
        let shape = match a.get(1) {
            Some(b) => backoff_shape(ctx, *b, false, 0),
            None => exponential(call, false),
        };
        let elapsed = shape.elapsed.clone();
        (a.first().copied(), shape, None, elapsed)
    };
    if let Some((n, s)) = shape.retries {
        max_tries = Some((n.map(|n| n.saturating_add(1)), s));
    }
    if !v5 && shape.elapsed.is_some() {
        elapsed = shape.elapsed.clone();
    }
    // A backoff that never stops of itself (`NewConstantBackOff`) under a
    // count (`WithMaxRetries(b, 5)`) is bounded by its count as a counted
    // loop is: how long it takes is what its waits add up to, not "no
    // overall timeout" (dapr/dapr d8450742ce `direct_messaging.go`'s 6
    // tries 100 ms apart were reported as retries with no timeout).
    if matches!(max_tries, Some((Some(n), _)) if n > 0)
        && elapsed
            .as_ref()
            .is_some_and(|e| e.value.is_none() && e.is_default())
    {
        elapsed = None;
    }
    let attempts_v = match max_tries {
        Some((Some(n), s)) if n > 0 => {
            attempts(AttemptCount::Finite(n), &format!("{} attempts", n), s)
        }
        Some((Some(_), s)) => attempts(AttemptCount::Unbounded, "no limit on tries", s),
        Some((None, s)) => attempts(AttemptCount::Unknown, "a limit not known here", s),
        None if shape.known => default_attempts(
            AttemptCount::Unbounded,
            "no WithMaxRetries: retries until the backoff stops",
            at,
        ),
        None => default_attempts(AttemptCount::Unknown, "a backoff not known here", at),
    };
    let mut p = policy("backoff", at, attempts_v);
    p.name = Some(format!("backoff.{name}"));
    p.delay = shape.delay;
    p.jitter = shape.jitter;
    if let Some(e) = elapsed {
        p.overall_timeout = Some(e.map(|d| match d {
            None => Timeout::Disabled,
            Some(Duration::MAX) => Timeout::Unknown,
            Some(d) => Timeout::after(d),
        }));
    }
    // Every error but `backoff.Permanent(err)` is retried.
    let range = op.and_then(|o| operation_range(ctx, o));
    let permanent =
        range.is_some_and(|(s, e)| ctx.src.get(s..e).is_some_and(|t| t.contains(".Permanent(")));
    // `backoff.Retry(ctx, op, ..)` with `op` a parameter (woodpecker's
    // `retryRPC(ctx, c, name, op)`): each caller's operation decides what
    // is permanent, not known here.
    let given = op.is_some_and(|o| o.kind_name() == "identifier" && range.is_none());
    // The operation returns success for the errors it does not retry, or
    // fails only with errors of its own making (`op_sorts`).
    let sorted = range.and_then(|(s, e)| super::op_sorts::sorting(ctx, s, e));
    p.retry_on = match sorted {
        _ if permanent => Located::written(predicate(at), at),
        Some(super::op_sorts::Sorting::Predicate(s)) => Located::written(predicate(s), s),
        Some(super::op_sorts::Sorting::Own(s)) => Located::written(RetryOn::Unknown, s),
        None if given => Located::default_at(RetryOn::Unknown, at),
        None => Located::default_at(RetryOn::AllErrors, at),
    };
    (p, op)
}

// ---------------------------------------------------------------------------
// avast/retry-go

fn retry_go<'a>(ctx: &Ctx<'a>, call: Node<'a>, runs: bool) -> (RetryPolicy, Option<Node<'a>>) {
    let at = span(call);
    let a = args(call);
    // `Do(f, opts...)` (v4) runs f; `New(opts...)` (v5) makes a retrier.
    let (op, opts) = if runs {
        (a.first().copied(), a.get(1..).unwrap_or(&[]))
    } else {
        (None, &a[..])
    };
    let mut p = policy(
        "retry-go",
        at,
        default_attempts(
            AttemptCount::Finite(sys::RETRY_GO_ATTEMPTS),
            "Attempts 10 (the default)",
            at,
        ),
    );
    let mut delay = sys::RETRY_GO_DELAY;
    let mut max_delay: Option<Duration> = None;
    let mut kind = "combine";
    let mut delay_at = None;
    let mut jitter_at = None;
    p.retry_on = Located::default_at(RetryOn::AllErrors, at);
    for o in opts {
        let Some((Pkg::RetryGo(_), opt)) = ctx.pkg_call(*o) else {
            continue;
        };
        let v = args(*o).first().copied();
        match (opt, v) {
            ("Attempts", Some(v)) => {
                p.attempts = match eval::count(ctx, v) {
                    Some(0) => attempts(
                        AttemptCount::Unbounded,
                        "Attempts(0): until it succeeds",
                        span(v),
                    ),
                    Some(n) => {
                        attempts(AttemptCount::Finite(n), &format!("Attempts({n})"), span(v))
                    }
                    None => attempts(
                        AttemptCount::Unknown,
                        &format!("Attempts({})", ctx.text(v)),
                        span(v),
                    ),
                };
            }
            ("UntilSucceeded", _) => {
                p.attempts = attempts(AttemptCount::Unbounded, "UntilSucceeded()", span(*o));
            }
            ("Delay", Some(v)) => {
                if let Some(d) = eval::duration(ctx, v) {
                    delay = d;
                }
                delay_at = Some(span(v));
            }
            ("MaxDelay", Some(v)) => {
                max_delay = eval::duration(ctx, v).filter(|d| !d.is_zero());
                delay_at = Some(span(v));
            }
            ("DelayType", Some(v)) => {
                let t = ctx.text(v);
                kind = if t.contains("CombineDelay") && t.contains("BackOffDelay") {
                    if t.contains("RandomDelay") {
                        "combine"
                    } else {
                        "backoff"
                    }
                } else if t.ends_with("BackOffDelay") {
                    "backoff"
                } else if t.ends_with("FixedDelay") {
                    "fixed"
                } else if t.ends_with("RandomDelay") {
                    "random"
                } else {
                    "custom"
                };
                delay_at = Some(span(v));
                jitter_at = Some(span(v));
            }
            ("RetryIf", Some(v)) => p.retry_on = Located::written(predicate(span(v)), span(v)),
            _ => {}
        }
    }
    let d = match kind {
        "combine" | "backoff" => Delay::Exponential {
            base: delay,
            multiplier: 2.0,
            cap: max_delay,
        },
        "fixed" => Delay::Fixed { delay },
        "random" => Delay::Fixed {
            delay: sys::RETRY_GO_DELAY,
        },
        _ => Delay::Custom,
    };
    let j = match kind {
        // A random wait below `MaxJitter` (100 ms) added to the backoff:
        // not proportional to it.
        "combine" => Jitter::Unknown,
        "random" => Jitter::Full,
        "custom" => Jitter::Unknown,
        _ => Jitter::None,
    };
    p.delay = match delay_at {
        Some(s) => Located::written(d, s),
        None => Located::default_at(d, at),
    };
    p.jitter = match jitter_at {
        Some(s) => Located::written(j, s),
        None => Located::default_at(j, at),
    };
    (p, op)
}
