//! The retry libraries: tenacity, backoff, urllib3 `Retry` / requests
//! `HTTPAdapter`, botocore `Config`, Celery `autoretry_for` tasks. Each
//! builds a policy where it is written; decorators (directly or through a
//! name bound to the decorator) make the decorated function's body a
//! [`RetryScope`]. The client and task libraries are in [`sdk`].

mod aiohttp;
mod aws;
mod dramatiq;
mod google;
mod pika;
mod sdk;

use super::eval::{self, resolve};
use super::{Args, Ctx, RetryScope, callee, field, named_children, policy, span};
use crate::model::*;
use crate::systems::python as sys;
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::Node;

pub(super) fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s.clamp(0.0, 1e12))
}

pub(super) fn attempts(count: AttemptCount, written_as: String, at: Node<'_>) -> Located<Attempts> {
    Located::written(
        Attempts {
            count,
            written_as: super::one_line(&written_as),
        },
        span(at),
    )
}

/// A task queue's `max_retries=` (Celery, Dramatiq): `None` retries for
/// ever (both test the count only when it is not `None`), a number `n`
/// is `n + 1` attempts.
pub(super) fn max_retries(ctx: &Ctx<'_>, m: Node<'_>) -> Located<Attempts> {
    let c = match eval::resolve(ctx, m).kind() {
        "none" => AttemptCount::Unbounded,
        _ => match eval::number(ctx, m) {
            Some(v) if v >= 0.0 => AttemptCount::Finite(v as u64 + 1),
            _ => AttemptCount::Unknown,
        },
    };
    attempts(c, format!("max_retries={} (retries)", ctx.text(m)), m)
}

pub(super) fn default_attempts(
    count: AttemptCount,
    written_as: &str,
    at: Node<'_>,
) -> Located<Attempts> {
    Located::default_at(
        Attempts {
            count,
            written_as: written_as.into(),
        },
        span(at),
    )
}

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) {
    // Policies by the node that builds them (a call, or a bare decorator).
    let mut built: HashMap<usize, usize> = HashMap::new();
    let tenacity = ctx.imports("tenacity");
    let backoff = ctx.imports("backoff");
    let urllib3 = ctx.imports("urllib3") || ctx.imports("requests");
    let botocore = ctx.imports("botocore") || ctx.imports("boto3");
    for &n in &ctx.nodes {
        match n.kind() {
            "call" => {
                let (full, last) = callee(ctx, n);
                let p = match last {
                    // (`retry(fn)()` where `retry` is a variable applies a
                    // decorator built elsewhere.)
                    "retry"
                        if tenacity
                            && (full == "tenacity.retry"
                                || (full == "retry"
                                    && ctx.binding("retry", n.start_byte()).is_none())) =>
                    {
                        Some(tenacity_policy(ctx, n, "retry"))
                    }
                    "Retrying" | "AsyncRetrying" if tenacity => Some(tenacity_policy(ctx, n, last)),
                    "on_exception" | "on_predicate" if backoff => {
                        Some(backoff_policy(ctx, n, last))
                    }
                    "Retry" | "AsyncRetry" | "StreamingRetry" | "AsyncStreamingRetry"
                        if google::is_api_core_retry(ctx, n) =>
                    {
                        Some(google::api_core_policy(ctx, n))
                    }
                    "insecure_channel" | "secure_channel" if ctx.imports("grpc") => {
                        google::channel_options(ctx, n, facts);
                        None
                    }
                    "Retry" if urllib3 && !full.contains("api_core") => {
                        sdk::urllib3_policy(ctx, n, &mut facts.diagnostics)
                    }
                    "HTTPAdapter" if urllib3 => sdk::adapter_policy(ctx, n),
                    "ConnectionParameters" | "URLParameters" if pika::is_parameters(ctx, n) => {
                        pika::parameters(ctx, n, facts);
                        None
                    }
                    "Config" if botocore => {
                        aws::botocore_policy(ctx, n, false, &mut facts.diagnostics)
                    }
                    "HTTPTransport" | "AsyncHTTPTransport" if ctx.imports("httpx") => {
                        sdk::httpx_transport_policy(ctx, n)
                    }
                    // A project's own wrapper of Celery's decorator
                    // (`from proj import tasks` .. `@tasks.task(autoretry_for=..)`):
                    // `autoretry_for` is Celery's option alone.
                    "task" | "shared_task"
                        if ctx.imports("celery")
                            || Args::of(ctx, n).kw("autoretry_for").is_some() =>
                    {
                        sdk::celery_policy(ctx, n)
                    }
                    "actor" if ctx.imports("dramatiq") => dramatiq::actor_policy(ctx, n),
                    w if ctx.imports("aiohttp_retry") && aiohttp::OPTIONS.contains(&w) => {
                        Some(aiohttp::options_policy(ctx, n, w, false))
                    }
                    "RetryClient" if ctx.imports("aiohttp_retry") => {
                        aiohttp::client_default(ctx, n)
                    }
                    // `raise self.retry(exc=e, countdown=..)` in a bound task:
                    // the whole task body is attempted again.
                    "retry" if full == "self.retry" && ctx.imports("celery") => {
                        if let Some((p, body)) = sdk::celery_self_retry(ctx, n) {
                            facts.policies.push(p);
                            scopes.push(RetryScope {
                                policy: facts.policies.len() - 1,
                                start: body.start_byte(),
                                end: body.end_byte(),
                                per_call: false,
                            });
                        }
                        None
                    }
                    _ => None,
                };
                if let Some(p) = p {
                    facts.policies.push(p);
                    built.insert(n.id(), facts.policies.len() - 1);
                }
            }
            "class_definition" if ctx.imports("celery") => {
                if let Some(p) = sdk::celery_task_class(ctx, n) {
                    facts.policies.push(p);
                }
            }
            "decorator" if tenacity => {
                // A bare `@retry`: every default.
                if let Some(e) = named_children(n).first()
                    && matches!(ctx.text(*e), "retry" | "tenacity.retry")
                {
                    let mut p = tenacity_defaults(*e);
                    p.name = decorated_name(ctx, n).map(|f| format!("@retry on {f}"));
                    facts.policies.push(p);
                    built.insert(e.id(), facts.policies.len() - 1);
                }
            }
            _ => {}
        }
    }
    if botocore {
        aws::tie_clients(ctx, facts, &built);
    }
    // Decorated functions: their bodies are retried.
    for &n in &ctx.nodes {
        match n.kind() {
            "decorated_definition" => {
                let Some(body) = field(n, "definition").and_then(|d| field(d, "body")) else {
                    continue;
                };
                let fname = field(n, "definition")
                    .and_then(|d| field(d, "name"))
                    .map(|x| ctx.text(x));
                for d in named_children(n)
                    .into_iter()
                    .filter(|d| d.kind() == "decorator")
                {
                    let Some(e) = named_children(d).first().copied() else {
                        continue;
                    };
                    let target = if e.kind() == "identifier" {
                        resolve(ctx, e)
                    } else {
                        e
                    };
                    let Some(&i) = built.get(&target.id()) else {
                        continue;
                    };
                    let p = &mut facts.policies[i];
                    if p.name.is_none()
                        && let Some(f) = fname
                    {
                        p.name = Some(format!("{} on {f}", p.system.label()));
                    }
                    let per_call = !matches!(&p.system, System::PythonLib(l) if l == "celery" || l == "dramatiq");
                    scopes.push(RetryScope {
                        policy: i,
                        start: body.start_byte(),
                        end: body.end_byte(),
                        per_call,
                    });
                }
            }
            // `retryer(fn)` / `tenacity.retry(..)(fn)`: a decorator applied
            // to a function of this file.
            "call" => {
                let Some(f) = field(n, "function") else {
                    continue;
                };
                let target = if f.kind() == "identifier" {
                    resolve(ctx, f)
                } else {
                    f
                };
                let Some(&i) = built.get(&target.id()) else {
                    continue;
                };
                let Some(arg) = Args::of(ctx, n).positional.first().copied() else {
                    continue;
                };
                let name = ctx.text(arg);
                let name = name.rsplit('.').next().unwrap_or(name);
                for &d in &ctx.nodes {
                    if d.kind() == "function_definition"
                        && field(d, "name").is_some_and(|x| ctx.text(x) == name)
                        && let Some(body) = field(d, "body")
                    {
                        let p = &mut facts.policies[i];
                        if p.name.is_none() {
                            p.name = Some(format!("{} on {name}", p.system.label()));
                        }
                        scopes.push(RetryScope {
                            policy: i,
                            start: body.start_byte(),
                            end: body.end_byte(),
                            per_call: true,
                        });
                    }
                }
            }
            // `for attempt in Retrying(..): with attempt: ...`
            "for_statement" => {
                let (Some(right), Some(body)) = (field(n, "right"), field(n, "body")) else {
                    continue;
                };
                if let Some(&i) = built.get(&resolve(ctx, right).id()) {
                    scopes.push(RetryScope {
                        policy: i,
                        start: body.start_byte(),
                        end: body.end_byte(),
                        per_call: true,
                    });
                }
            }
            _ => {}
        }
    }
}

/// The function a decorator decorates.
fn decorated_name<'a>(ctx: &Ctx<'a>, decorator: Node<'a>) -> Option<&'a str> {
    let def = decorator.parent().and_then(|p| field(p, "definition"))?;
    field(def, "name").map(|n| ctx.text(n))
}

// ---------------------------------------------------------------------------
// tenacity

fn tenacity_defaults(at: Node<'_>) -> RetryPolicy {
    let mut p = policy(
        "tenacity",
        span(at),
        default_attempts(
            AttemptCount::Unbounded,
            "no stop=: tenacity's default stop_never",
            at,
        ),
    );
    p.delay = Located::default_at(Delay::None, span(at));
    p.jitter = Located::default_at(Jitter::None, span(at));
    p.retry_on = Located::default_at(RetryOn::AllErrors, span(at));
    p
}

fn tenacity_policy(ctx: &Ctx<'_>, call: Node<'_>, what: &str) -> RetryPolicy {
    let args = Args::of(ctx, call);
    let mut p = tenacity_defaults(call);
    if what != "retry" {
        p.name = Some(format!("{what}(..)"));
    }
    if let Some(s) = args.kw("stop") {
        let st = stop(ctx, s, 0);
        let count = if st.unknown {
            AttemptCount::Unknown
        } else {
            match st.attempts {
                Some(n) => AttemptCount::Finite(n),
                None => AttemptCount::Unbounded,
            }
        };
        p.attempts = attempts(count, format!("stop={}", ctx.text(s)), s);
        if let Some(d) = st.delay {
            p.overall_timeout = Some(Located::written(Timeout::after(d), span(s)));
        }
    }
    if let Some(w) = args.kw("wait") {
        let (delay, jitter) = wait(ctx, w, 0);
        p.delay = Located::written(delay, span(w));
        p.jitter = Located::written(jitter, span(w));
    }
    if let Some(r) = args.kw("retry") {
        let (on, ignores) = tenacity_retry_on(ctx, r, 0);
        p.retry_on = Located::written(on, span(r));
        p.ignores = ignores;
    }
    // `reraise` (tenacity `__init__.py`, `BaseRetrying(reraise=False)`):
    // what the caller sees after the last attempt, not how often or when
    // it retries. Stated for the reasons of the findings.
    p.why.push(match args.kw("reraise") {
        None => "no reraise=: tenacity raises RetryError after the last attempt (its default reraise=False)".into(),
        Some(r) => match eval::boolean(ctx, r) {
            Some(true) => "reraise=True: the last attempt's exception reaches the caller".into(),
            Some(false) => "reraise=False: tenacity raises RetryError after the last attempt".into(),
            None => format!("reraise={}: not known here", ctx.text(r)),
        },
    });
    p
}

#[derive(Default)]
struct Stop {
    attempts: Option<u64>,
    delay: Option<Duration>,
    unknown: bool,
}

fn stop(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Stop {
    let unknown = Stop {
        unknown: true,
        ..Stop::default()
    };
    if depth > super::MAX_DEPTH {
        return unknown;
    }
    let n = resolve(ctx, n);
    let either = |a: Stop, b: Stop| Stop {
        attempts: match (a.attempts, b.attempts) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        },
        delay: match (a.delay, b.delay) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        },
        unknown: a.unknown && b.unknown,
    };
    // `a & b` (tenacity `stop_all`, `stop.py`: `all(x(retry_state) for x
    // in self.stops)`): it stops once both would, so the later of the two.
    // Two counts give the larger, two delays the longer; a count and a
    // delay stop after both, a number of attempts that depends on the
    // waits (finite, not known here). Never stopping on one side is never.
    let both = |a: Stop, b: Stop| {
        let never = |s: &Stop| !s.unknown && s.attempts.is_none() && s.delay.is_none();
        if never(&a) || never(&b) {
            return Stop::default();
        }
        if a.unknown || b.unknown {
            return Stop {
                unknown: true,
                ..Stop::default()
            };
        }
        match (a.attempts, a.delay, b.attempts, b.delay) {
            (Some(x), None, Some(y), None) => Stop {
                attempts: Some(x.max(y)),
                ..Stop::default()
            },
            (None, Some(x), None, Some(y)) => Stop {
                delay: Some(x.max(y)),
                ..Stop::default()
            },
            _ => Stop {
                unknown: true,
                ..Stop::default()
            },
        }
    };
    match n.kind() {
        "identifier" | "attribute" if ctx.text(n).ends_with("stop_never") => Stop::default(),
        "binary_operator" => {
            let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
                return unknown;
            };
            let (a, b) = (stop(ctx, l, depth + 1), stop(ctx, r, depth + 1));
            match field(n, "operator").map_or("", |o| ctx.text(o)) {
                "|" => either(a, b),
                "&" => both(a, b),
                _ => unknown,
            }
        }
        "call" => {
            let (_, last) = callee(ctx, n);
            let args = Args::of(ctx, n);
            match last {
                "stop_after_attempt" => match args.get("max_attempt_number", 0) {
                    Some(a) => match eval::number(ctx, a) {
                        Some(v) if v >= 1.0 => Stop {
                            attempts: Some(v as u64),
                            ..Stop::default()
                        },
                        _ => unknown,
                    },
                    None => unknown,
                },
                "stop_after_delay" | "stop_before_delay" => {
                    match args.get("max_delay", 0).and_then(|a| eval::seconds(ctx, a)) {
                        Some(d) => Stop {
                            delay: Some(d),
                            ..Stop::default()
                        },
                        None => unknown,
                    }
                }
                "stop_any" => args
                    .positional
                    .iter()
                    .map(|a| stop(ctx, *a, depth + 1))
                    .reduce(either)
                    .unwrap_or(unknown),
                "stop_all" => args
                    .positional
                    .iter()
                    .map(|a| stop(ctx, *a, depth + 1))
                    .reduce(both)
                    .unwrap_or(unknown),
                _ => unknown,
            }
        }
        _ => unknown,
    }
}

fn wait(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> (Delay, Jitter) {
    if depth > super::MAX_DEPTH {
        return (Delay::Unknown, Jitter::Unknown);
    }
    let n = resolve(ctx, n);
    let num = |args: &Args<'_>, k: &str, i: usize, d: f64| match args.get(k, i) {
        Some(a) => eval::number(ctx, a),
        None => Some(d),
    };
    match n.kind() {
        "binary_operator" if field(n, "operator").is_some_and(|o| ctx.text(o) == "+") => {
            let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
                return (Delay::Unknown, Jitter::Unknown);
            };
            let (a, b) = (wait(ctx, l, depth + 1), wait(ctx, r, depth + 1));
            // A random part added to a steady one jitters it.
            let random = |j: &Jitter| !j.is_none();
            match (a, b) {
                ((d, ja), (Delay::None, jb)) | ((Delay::None, jb), (d, ja)) => {
                    (d, if random(&jb) { Jitter::Additive } else { ja })
                }
                ((d, ja), (_, jb)) if random(&ja) || random(&jb) => (d, Jitter::Additive),
                ((d, ja), _) => (d, ja),
            }
        }
        "call" => {
            let (_, last) = callee(ctx, n);
            let args = Args::of(ctx, n);
            let exponential =
                |mult: Option<f64>, base: Option<f64>, max: Option<f64>, min: Option<f64>| match (
                    mult, base, min,
                ) {
                    (Some(m), Some(b), Some(lo)) => Delay::Exponential {
                        base: secs(m.max(lo)),
                        multiplier: b,
                        cap: max.map(secs),
                    },
                    _ => Delay::Unknown,
                };
            let max = args.kw("max").and_then(|a| eval::number(ctx, a));
            match last {
                "wait_none" => (Delay::None, Jitter::None),
                "wait_fixed" => match args.get("wait", 0).and_then(|a| eval::seconds(ctx, a)) {
                    Some(d) => (Delay::Fixed { delay: d }, Jitter::None),
                    None => (Delay::Unknown, Jitter::None),
                },
                "wait_random" => {
                    let lo = num(&args, "min", 0, 0.0);
                    let hi = num(&args, "max", 1, sys::TENACITY_RANDOM_MAX);
                    match (lo, hi) {
                        (Some(0.0), Some(hi)) => (Delay::Fixed { delay: secs(hi) }, Jitter::Full),
                        (Some(lo), Some(hi)) if hi > 0.0 && hi >= lo => (
                            Delay::Fixed {
                                delay: secs((lo + hi) / 2.0),
                            },
                            Jitter::Proportional {
                                factor: (hi - lo) / (hi + lo),
                            },
                        ),
                        _ => (Delay::Unknown, Jitter::Full),
                    }
                }
                "wait_exponential" | "wait_random_exponential" | "wait_full_jitter" => {
                    let d = exponential(
                        num(&args, "multiplier", 0, sys::TENACITY_EXP_MULTIPLIER),
                        num(&args, "exp_base", 3, sys::TENACITY_EXP_BASE),
                        max,
                        num(&args, "min", 2, 0.0),
                    );
                    let j = if last == "wait_exponential" {
                        Jitter::None
                    } else {
                        Jitter::Full
                    };
                    (d, j)
                }
                "wait_exponential_jitter" => {
                    let d = exponential(
                        num(&args, "initial", 0, sys::TENACITY_EXP_JITTER_INITIAL),
                        num(&args, "exp_base", 2, sys::TENACITY_EXP_BASE),
                        max,
                        Some(0.0),
                    );
                    let none = args
                        .get("jitter", 3)
                        .and_then(|a| eval::number(ctx, a))
                        .is_some_and(|j| j == 0.0);
                    (d, if none { Jitter::None } else { Jitter::Additive })
                }
                "wait_incrementing" => match num(&args, "increment", 1, 100.0) {
                    Some(inc) => (
                        Delay::Linear {
                            base: secs(inc),
                            cap: max.map(secs),
                        },
                        Jitter::None,
                    ),
                    None => (Delay::Unknown, Jitter::None),
                },
                // tenacity `wait_chain(*strategies)` waits with strategy n
                // before attempt n + 1 and with the last one for every
                // retry after (`wait.py`: `strategies[min(attempt,
                // len) - 1]`): the waits of a long outage are the last's.
                "wait_chain" => {
                    let last = ctx
                        .subtree(n)
                        .iter()
                        .skip(1)
                        .rev()
                        .find(|c| c.kind() == "call" && callee(ctx, **c).1.starts_with("wait_"))
                        .copied();
                    match last {
                        Some(l) => wait(ctx, l, depth + 1),
                        None => (Delay::Custom, Jitter::Unknown),
                    }
                }
                "wait_combine" => (Delay::Custom, Jitter::Unknown),
                _ => (Delay::Custom, Jitter::Unknown),
            }
        }
        _ => (Delay::Custom, Jitter::Unknown),
    }
}

/// Exception names as conditions; `None` when one of them is every
/// exception (`Exception`, `BaseException`).
pub(super) fn exception_names(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Vec<Located<Condition>>> {
    let n = resolve(ctx, n);
    let items = if matches!(n.kind(), "tuple" | "list" | "set") {
        named_children(n)
    } else {
        vec![n]
    };
    let mut out = Vec::new();
    for i in items {
        let name = ctx.text(i);
        let simple = name.rsplit('.').next().unwrap_or(name);
        if matches!(simple, "Exception" | "BaseException") {
            return None;
        }
        out.push(Located::written(Condition::Exception(name.into()), span(i)));
    }
    Some(out)
}

fn tenacity_retry_on(
    ctx: &Ctx<'_>,
    n: Node<'_>,
    depth: usize,
) -> (RetryOn, Vec<Located<Condition>>) {
    if depth > super::MAX_DEPTH {
        return (RetryOn::Unknown, Vec::new());
    }
    let n = resolve(ctx, n);
    let pred = |at: Node<'_>| RetryOn::Listed {
        conditions: vec![Located::written(Condition::Predicate, span(at))],
    };
    match n.kind() {
        "binary_operator" => {
            let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
                return (RetryOn::Unknown, Vec::new());
            };
            if field(n, "operator").is_some_and(|o| ctx.text(o) == "&") {
                return (pred(n), Vec::new());
            }
            let (a, ia) = tenacity_retry_on(ctx, l, depth + 1);
            let (b, ib) = tenacity_retry_on(ctx, r, depth + 1);
            let on = match (a, b) {
                (RetryOn::AllErrors, _) | (_, RetryOn::AllErrors) => RetryOn::AllErrors,
                (RetryOn::Listed { conditions: mut x }, RetryOn::Listed { conditions: y }) => {
                    x.extend(y);
                    RetryOn::Listed { conditions: x }
                }
                _ => RetryOn::Unknown,
            };
            let mut ignores = ia;
            ignores.extend(ib);
            (on, ignores)
        }
        "call" => {
            let (_, last) = callee(ctx, n);
            let args = Args::of(ctx, n);
            match last {
                "retry_if_exception_type" => match args.get("exception_types", 0) {
                    None => (RetryOn::AllErrors, Vec::new()),
                    Some(a) => match exception_names(ctx, a) {
                        None => (RetryOn::AllErrors, Vec::new()),
                        Some(c) => (RetryOn::Listed { conditions: c }, Vec::new()),
                    },
                },
                "retry_if_not_exception_type" => {
                    let ignores = args
                        .get("exception_types", 0)
                        .and_then(|a| exception_names(ctx, a))
                        .unwrap_or_default();
                    (RetryOn::AllErrors, ignores)
                }
                "retry_any" => {
                    let mut all = false;
                    let mut conditions = Vec::new();
                    for a in &args.positional {
                        match tenacity_retry_on(ctx, *a, depth + 1).0 {
                            RetryOn::AllErrors => all = true,
                            RetryOn::Listed { conditions: c } => conditions.extend(c),
                            _ => conditions.push(Located::written(Condition::Predicate, span(*a))),
                        }
                    }
                    if all {
                        (RetryOn::AllErrors, Vec::new())
                    } else {
                        (RetryOn::Listed { conditions }, Vec::new())
                    }
                }
                "retry_always" => (RetryOn::AllErrors, Vec::new()),
                "retry_never" => (RetryOn::Nothing, Vec::new()),
                _ => (pred(n), Vec::new()),
            }
        }
        "identifier" | "attribute" if ctx.text(n).ends_with("retry_always") => {
            (RetryOn::AllErrors, Vec::new())
        }
        _ => (pred(n), Vec::new()),
    }
}

// ---------------------------------------------------------------------------
// backoff

fn backoff_policy(ctx: &Ctx<'_>, call: Node<'_>, what: &str) -> RetryPolicy {
    let args = Args::of(ctx, call);
    let mut p = policy(
        "backoff",
        span(call),
        default_attempts(
            AttemptCount::Unbounded,
            "no max_tries: backoff's default None, no limit",
            call,
        ),
    );
    if let Some(m) = args.kw("max_tries") {
        let count = match eval::number(ctx, m) {
            Some(v) if v >= 1.0 => AttemptCount::Finite(v as u64),
            _ => AttemptCount::Unknown,
        };
        p.attempts = attempts(count, format!("max_tries={}", ctx.text(m)), m);
    }
    if let Some(m) = args.kw("max_time") {
        let t = match eval::seconds(ctx, m) {
            Some(d) => Timeout::after(d),
            None => Timeout::Unknown,
        };
        p.overall_timeout = Some(Located::written(t, span(m)));
    }
    // The wait generator and its keyword arguments.
    let gen_node = args.get("wait_gen", 0);
    let gen_name = gen_node.map_or("", |g| ctx.text(g));
    let gen_name = gen_name.rsplit('.').next().unwrap_or(gen_name);
    let kw = |k: &str, d: f64| match args.kw(k) {
        Some(a) => eval::number(ctx, a),
        None => Some(d),
    };
    let max_value = args.kw("max_value").and_then(|a| eval::number(ctx, a));
    let delay = match gen_name {
        "expo" => match (
            kw("factor", sys::BACKOFF_EXPO_FACTOR),
            kw("base", sys::BACKOFF_EXPO_BASE),
        ) {
            (Some(f), Some(b)) => Delay::Exponential {
                base: secs(f),
                multiplier: b,
                cap: max_value.map(secs),
            },
            _ => Delay::Unknown,
        },
        "fibo" => Delay::Fibonacci {
            first: secs(sys::BACKOFF_FIBO_START),
            second: secs(sys::BACKOFF_FIBO_START),
            cap: max_value.map(secs),
        },
        "constant" => match kw("interval", sys::BACKOFF_CONSTANT_INTERVAL) {
            Some(i) => Delay::Fixed { delay: secs(i) },
            None => Delay::Unknown,
        },
        _ => Delay::Custom,
    };
    let gen_span = gen_node.map_or(span(call), span);
    p.delay = Located::written(delay, gen_span);
    p.jitter = match args.kw("jitter") {
        None => Located::default_at(Jitter::Full, span(call)),
        Some(j) => {
            let t = ctx.text(j);
            let v = if t == "None" {
                Jitter::None
            } else if t.ends_with("full_jitter") {
                Jitter::Full
            } else if t.ends_with("random_jitter") {
                Jitter::Additive
            } else {
                Jitter::Unknown
            };
            Located::written(v, span(j))
        }
    };
    p.retry_on = if what == "on_predicate" {
        Located::written(
            RetryOn::Listed {
                conditions: vec![Located::written(Condition::Predicate, span(call))],
            },
            span(call),
        )
    } else {
        match args.get("exception", 1) {
            Some(e) => match exception_names(ctx, e) {
                None if args.kw("giveup").is_none() => {
                    Located::written(RetryOn::AllErrors, span(e))
                }
                None => Located::written(
                    RetryOn::Listed {
                        conditions: vec![Located::written(Condition::Predicate, span(e))],
                    },
                    span(e),
                ),
                Some(c) => Located::written(RetryOn::Listed { conditions: c }, span(e)),
            },
            None => Located::written(RetryOn::Unknown, span(call)),
        }
    };
    p
}
