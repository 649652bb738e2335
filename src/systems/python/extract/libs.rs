//! The retry libraries: tenacity, backoff, urllib3 `Retry` / requests
//! `HTTPAdapter`, botocore `Config`, Celery `autoretry_for` tasks. Each
//! builds a policy where it is written; decorators (directly or through a
//! name bound to the decorator) make the decorated function's body a
//! [`RetryScope`]. The client and task libraries are in [`sdk`].

mod aiohttp;
mod aws;
mod backoff;
mod dramatiq;
pub(super) use dramatiq::broker_settings as dramatiq_broker;
mod google;
mod jira;
pub(super) mod llm;
pub(super) mod pika;
mod sdk;
mod tenacity;

use super::Kind as _;
use super::eval::{self, resolve};
use super::{Args, Ctx, RetryScope, callee, field, named_children, span};
use crate::model::*;
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
///
/// A conditional value (`1 if settings.DEBUG else None`, grafana/oncall
/// 3666186a9 `engine/apps/integrations/tasks.py`) is read as its larger
/// branch, said with its condition: the task runs so wherever that
/// branch is taken (here every deployment but a debug one).
pub(super) fn max_retries(ctx: &Ctx<'_>, m: Node<'_>) -> Located<Attempts> {
    let r = eval::resolve(ctx, m);
    if r.kind_str() == "conditional_expression"
        && let [a, cond, b] = named_children(r).as_slice()
    {
        let (ca, cb) = (retries_count(ctx, *a), retries_count(ctx, *b));
        let (chosen, when) = if larger(ca, cb) {
            (*a, ctx.text(*cond).to_string())
        } else {
            (*b, format!("not {}", ctx.text(*cond)))
        };
        // Said without backticks: the message quotes `written_as` whole.
        return attempts(
            if larger(ca, cb) { ca } else { cb },
            format!("max_retries={} when {when} (retries)", ctx.text(chosen)),
            chosen,
        );
    }
    attempts(
        retries_count(ctx, m),
        format!("max_retries={} (retries)", ctx.text(m)),
        m,
    )
}

/// `max_retries`' attempts: `None` for ever, `n` retries `n + 1`.
fn retries_count(ctx: &Ctx<'_>, m: Node<'_>) -> AttemptCount {
    match eval::resolve(ctx, m).kind_str() {
        "none" => AttemptCount::Unbounded,
        _ => match eval::number(ctx, m) {
            Some(v) if v >= 0.0 => AttemptCount::Finite(v as u64 + 1),
            _ => AttemptCount::Unknown,
        },
    }
}

/// Whether `a` is at least as many attempts as `b` (no limit the most; a
/// count not known beats a known one, which it may exceed).
fn larger(a: AttemptCount, b: AttemptCount) -> bool {
    match (a, b) {
        (AttemptCount::Unbounded, _) => true,
        (_, AttemptCount::Unbounded) => false,
        (AttemptCount::Unknown, _) => true,
        (_, AttemptCount::Unknown) => false,
        (AttemptCount::Finite(x), AttemptCount::Finite(y)) => x >= y,
    }
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

/// Reads the file's retry libraries; returns the SDK clients it builds
/// (boto3, OpenAI, Anthropic), whose calls the calls step ties to them.
pub fn extract<'a>(
    ctx: &Ctx<'a>,
    facts: &mut Facts,
    scopes: &mut Vec<RetryScope>,
) -> Vec<super::sdk_calls::SdkClient<'a>> {
    let mut clients = Vec::new();
    // Policies by the node that builds them (a call, or a bare decorator).
    let mut built: HashMap<usize, usize> = HashMap::new();
    let tenacity = ctx.imports("tenacity");
    let backoff = ctx.imports("backoff");
    let urllib3 = ctx.imports("urllib3") || ctx.imports("requests");
    let botocore = ctx.imports("botocore") || ctx.imports("boto3");
    for &n in &ctx.nodes {
        match n.kind_str() {
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
                        Some(tenacity::tenacity_policy(ctx, n, "retry"))
                    }
                    "Retrying" | "AsyncRetrying" if tenacity => {
                        Some(tenacity::tenacity_policy(ctx, n, last))
                    }
                    "on_exception" | "on_predicate" if backoff => {
                        Some(backoff::backoff_policy(ctx, n, last))
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
                    "JIRA" if jira::is_client(ctx, n) => Some(jira::client_policy(ctx, n)),
                    w if llm::client_lib(ctx, full, w).is_some() => {
                        llm::client_lib(ctx, full, w).map(|lib| llm::client_policy(ctx, n, lib))
                    }
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
                    if let Some(lib) = llm::client_lib(ctx, full, last) {
                        clients.push(super::sdk_calls::SdkClient {
                            node: n,
                            policy: facts.policies.len() - 1,
                            host: llm::client_host(ctx, n, lib),
                        });
                    }
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
                    let mut p = tenacity::tenacity_defaults(*e);
                    p.name = decorated_name(ctx, n).map(|f| format!("@retry on {f}"));
                    facts.policies.push(p);
                    built.insert(e.id(), facts.policies.len() - 1);
                }
            }
            _ => {}
        }
    }
    if botocore {
        aws::tie_clients(ctx, facts, &built, &mut clients);
    }
    // Decorated functions: their bodies are retried.
    for &n in &ctx.nodes {
        match n.kind_str() {
            "decorated_definition" => {
                let Some(body) = field(n, "definition").and_then(|d| field(d, "body")) else {
                    continue;
                };
                let fname = field(n, "definition")
                    .and_then(|d| field(d, "name"))
                    .map(|x| ctx.text(x));
                for d in named_children(n)
                    .into_iter()
                    .filter(|d| d.kind_str() == "decorator")
                {
                    let Some(e) = named_children(d).first().copied() else {
                        continue;
                    };
                    let target = if e.kind_str() == "identifier" {
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
                    // `raise_for_status()` in the body: its 4xx and 5xx
                    // go round when the library retries its error.
                    let statuses = super::loops::raised_in_body(ctx, body, &p.retry_on.value);
                    if !statuses.is_empty() {
                        p.retry_on = crate::extract::status_test::listed_with(
                            p.retry_on.clone(),
                            &statuses,
                            "Exception",
                        );
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
                let target = if f.kind_str() == "identifier" {
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
                    if d.kind_str() == "function_definition"
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
    clients
}

/// The function a decorator decorates.
fn decorated_name<'a>(ctx: &Ctx<'a>, decorator: Node<'a>) -> Option<&'a str> {
    let def = decorator.parent().and_then(|p| field(p, "definition"))?;
    field(def, "name").map(|n| ctx.text(n))
}

/// Exception names as conditions; `None` when one of them is every
/// exception (`Exception`, `BaseException`).
pub(super) fn exception_names(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Vec<Located<Condition>>> {
    let n = resolve(ctx, n);
    let items = if matches!(n.kind_str(), "tuple" | "list" | "set") {
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
