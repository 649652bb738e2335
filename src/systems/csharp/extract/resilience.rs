//! The retry policies a C# file writes: the standard HTTP resilience
//! handler, Polly v8 retry strategies and Polly v7 retry policies.

use super::eval::{self, delay_function, expression_body, last_name};
use super::{
    Ctx, args, chain, enclosing_lambda_call, field, method, named_children, span, type_args,
};
use crate::diag::invalid_setting;
use crate::model::*;
use crate::source::Span;
use crate::systems::csharp::extract::Kind as _;
use crate::systems::dotnet::model::*;
use tree_sitter::Node;

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    for &n in &ctx.nodes {
        if n.kind_str() != "invocation_expression" {
            continue;
        }
        let Some((name, _)) = method(ctx, n) else {
            continue;
        };
        match name {
            "AddStandardResilienceHandler" => standard(ctx, n, facts),
            "AddStandardHedgingHandler" => super::hedging::standard_hedging(ctx, n, facts),
            "EnableRetryOnFailure" => super::efcore::enable_retry_on_failure(ctx, n, facts),
            m if m.ends_with("DbContext") && (m.starts_with("Add") || m.starts_with("Enrich")) => {
                super::efcore::aspire_db_context(ctx, n, m, facts)
            }
            "AddRetry" => v8_retry(ctx, n, facts),
            "Retry"
            | "RetryAsync"
            | "WaitAndRetry"
            | "WaitAndRetryAsync"
            | "RetryForever"
            | "RetryForeverAsync"
            | "WaitAndRetryForever"
            | "WaitAndRetryForeverAsync" => super::polly_v7::retry(ctx, n, name, facts),
            _ => {}
        }
    }
}

/// Which HTTP clients a handler added to `call`'s builder applies to: the
/// named or typed client of an `AddHttpClient` earlier in its chain, or
/// every client when it is written in `ConfigureHttpClientDefaults`.
pub(super) fn client_scope(ctx: &Ctx<'_>, call: Node<'_>) -> Option<String> {
    if let Some(scope) = chain(call).into_iter().find_map(|c| registration(ctx, c)) {
        return Some(scope);
    }
    let mut cur = call;
    for _ in 0..64 {
        let Some((_, outer)) = enclosing_lambda_call(ctx, cur) else {
            break;
        };
        if method(ctx, outer).is_some_and(|(m, _)| m == "ConfigureHttpClientDefaults") {
            return Some("ConfigureHttpClientDefaults".into());
        }
        cur = outer;
    }
    None
}

/// The client an invocation registers with the HTTP client factory, as
/// written: `AddHttpClient<T>(..)`, `AddHttpClient("name")`, or Refit's
/// `AddRefitClient<T>()` (Refit.HttpClientFactory: it returns the
/// client's `IHttpClientBuilder`, so the handlers after it are the Refit
/// client's; github.com/reactiveui/refit `Refit.HttpClientFactory/
/// HttpClientFactoryExtensions.cs`).
pub(super) fn registration(ctx: &Ctx<'_>, c: Node<'_>) -> Option<String> {
    match method(ctx, c)?.0 {
        "AddHttpClient" => {
            let ts = type_args(ctx, c);
            if !ts.is_empty() {
                return Some(format!("AddHttpClient<{}>", ts.join(", ")));
            }
            if let Some((_, a)) = args(ctx, c).first()
                && a.kind_str() == "string_literal"
            {
                return Some(format!("AddHttpClient({})", ctx.text(*a)));
            }
            Some("AddHttpClient".into())
        }
        "AddRefitClient" => type_args(ctx, c)
            .first()
            .map(|t| format!("AddRefitClient<{t}>")),
        _ => None,
    }
}

/// `AddStandardResilienceHandler()`, with `o => { o.Retry.MaxRetryAttempts
/// = 5; .. }` as its argument or in a `.Configure(..)` after it.
fn standard(ctx: &Ctx<'_>, call: Node<'_>, facts: &mut Facts) {
    let anchor = call_span(call);
    let all_args = args(ctx, call);
    let mut lambdas: Vec<Node<'_>> = all_args
        .iter()
        .map(|(_, a)| *a)
        .filter(|a| a.kind_str() == "lambda_expression")
        .collect();
    // `.AddStandardResilienceHandler().Configure(o => ..)`.
    lambdas.extend(configure_lambdas(ctx, call));
    let name = client_scope(ctx, call).unwrap_or_else(|| "AddStandardResilienceHandler".into());
    let given: Vec<Node<'_>> = all_args.into_iter().map(|(_, a)| a).collect();
    let mut p = standard_options(ctx, anchor, &given, &lambdas, &name, facts);
    p.config_section = bound_section(ctx, call);
    facts.policies.push(p);
}

/// The standard handler's options as `lambdas` write them (`o => {
/// o.Retry.MaxRetryAttempts = 5; .. }`), the handler's defaults for the
/// rest; `given` are the call's arguments, of which one that is neither a
/// lambda nor a configuration section is a delegate built elsewhere.
pub(super) fn standard_options(
    ctx: &Ctx<'_>,
    anchor: Span,
    given: &[Node<'_>],
    lambdas: &[Node<'_>],
    name: &str,
    facts: &mut Facts,
) -> RetryPolicy {
    let mut read = RetryRead::default();
    let mut attempt: Option<Located<Timeout>> = None;
    let mut total: Option<Located<Timeout>> = None;
    let mut methods = Located::default_at(Methods::All, anchor);
    let mut opaque = Opaque::default();
    let mut generator = None;
    let mut should = None;
    // A delegate built elsewhere (`AddStandardResilienceHandler(configure)`)
    // may set anything; a configuration section binds settings only (no
    // method can be disabled from configuration).
    for a in given {
        let t = ctx.text(*a);
        if a.kind_str() != "lambda_expression" && !t.contains("GetSection(") {
            opaque.methods = Some(span(*a));
        }
    }
    for &lambda in lambdas {
        let param = lambda_param(ctx, lambda).unwrap_or("");
        for &n in ctx.subtree(lambda) {
            // The options or their retry handed to other code
            // (`configureRetry?.Invoke(options.Retry)`).
            if n.kind_str() == "argument"
                && !param.is_empty()
                && named_children(n).last().is_some_and(|v| {
                    let t = ctx.text(*v).trim();
                    t == param || t == format!("{param}.Retry")
                })
            {
                opaque.methods = Some(span(n));
            }
            match n.kind_str() {
                "assignment_expression" => {
                    let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
                        continue;
                    };
                    let path: Vec<&str> = ctx.text(l).split('.').map(str::trim).collect();
                    let key: Vec<&str> = path.iter().skip(1).copied().collect();
                    match key.as_slice() {
                        ["Retry", "DelayGenerator"] => generator = Some(r),
                        ["Retry", "ShouldHandle"] => {
                            should = Some(super::should_handle::read(ctx, r))
                        }
                        ["Retry", k] => retry_setting(ctx, k, l, r, &mut read, &mut opaque, facts),
                        ["AttemptTimeout", "Timeout"] => attempt = Some(timeout(ctx, r)),
                        ["TotalRequestTimeout", "Timeout"] => total = Some(timeout(ctx, r)),
                        _ => {}
                    }
                }
                "invocation_expression" => match method(ctx, n) {
                    Some(("DisableForUnsafeHttpMethods", _)) => {
                        methods = Located::written(
                            Methods::Set(
                                SAFE_AFTER_DISABLE.iter().map(|s| s.to_string()).collect(),
                            ),
                            span(n),
                        )
                    }
                    Some(("DisableFor", _)) => {
                        let off: Vec<String> = args(ctx, n)
                            .iter()
                            .map(|(_, a)| last_name(ctx, *a).to_ascii_uppercase())
                            .collect();
                        methods = Located::written(
                            Methods::Set(
                                HTTP_METHODS
                                    .iter()
                                    .filter(|m| !off.iter().any(|o| o == *m))
                                    .map(|s| s.to_string())
                                    .collect(),
                            ),
                            span(n),
                        )
                    }
                    _ => {}
                },
                _ => {}
            }
        }
    }
    let mut p = policy(&read, &STANDARD_DEFAULTS, name, anchor);
    let attempt = attempt
        .unwrap_or_else(|| Located::default_at(Timeout::after(STANDARD_ATTEMPT_TIMEOUT), anchor));
    let total = total
        .unwrap_or_else(|| Located::default_at(Timeout::after(STANDARD_TOTAL_TIMEOUT), anchor));
    if let (Some(a), Some(t)) = (attempt.value.finite(), total.value.finite())
        && a > t
        && (attempt.is_written() || total.is_written())
    {
        let (at, other, key) = if attempt.is_written() {
            (attempt.span, total.span, "AttemptTimeout.Timeout")
        } else {
            (total.span, attempt.span, "TotalRequestTimeout.Timeout")
        };
        facts.diagnostics.push(
            invalid_setting::value(
                at,
                key,
                &crate::duration::human(if attempt.is_written() { a } else { t }),
                &format!(
                    "the attempt timeout `{}` is longer than the total request timeout `{}`: `HttpStandardResilienceOptions` validation fails at start-up",
                    crate::duration::human(a),
                    crate::duration::human(t)
                ),
            )
            .with_related(other, "the other timeout"),
        );
    }
    p.server_delay =
        super::retry_after::server_delay(ctx, &read, generator, true, Some(&total), anchor);
    if let Some(g) = generator {
        // The generated delays replace the back-off; the system stays the
        // handler's.
        let system = p.system.clone();
        generated_delay(ctx, g, &mut p);
        p.system = system;
    }
    p.per_try_timeout = Some(attempt);
    p.overall_timeout = Some(total);
    // A written `Retry.ShouldHandle` replaces the transient defaults.
    p.retry_on = should.unwrap_or_else(|| standard_retry_on(anchor));
    p.methods = match opaque.methods {
        Some(s) if !methods.is_written() => Located::written(Methods::Unknown, s),
        _ => methods,
    };
    opaque.apply(&mut p);
    delay_over_cap(&read, facts);
    p
}

/// Settings written with values the reader cannot evaluate
/// (`Delay = options.RetryDelay`, `UseJitter = settings.Jitter`): the
/// defaults do not apply to them, their values are unknown.
#[derive(Default)]
struct Opaque {
    delay: Option<Span>,
    jitter: Option<Span>,
    /// The options are handed to code the reader does not follow
    /// (`configure(options.Retry)`, a delegate parameter): which methods
    /// it leaves retried is unknown.
    methods: Option<Span>,
}

impl Opaque {
    fn apply(&self, p: &mut RetryPolicy) {
        if let Some(s) = self.delay {
            p.delay = Located::written(Delay::Unknown, s);
        }
        if let Some(s) = self.jitter {
            p.jitter = Located::written(Jitter::Unknown, s);
        }
    }
}

/// A `TimeSpan` setting's value where it is written.
pub(super) fn timeout(ctx: &Ctx<'_>, r: Node<'_>) -> Located<Timeout> {
    let t = eval::duration(ctx, r).map_or(Timeout::Unknown, |d| {
        if d.is_zero() {
            Timeout::Disabled
        } else {
            Timeout::after(d)
        }
    });
    Located::written(t, span(r))
}

/// One retry-options property (`MaxRetryAttempts`, `Delay`, ..) set to `r`.
fn retry_setting(
    ctx: &Ctx<'_>,
    key: &str,
    l: Node<'_>,
    r: Node<'_>,
    read: &mut RetryRead,
    opaque: &mut Opaque,
    facts: &mut Facts,
) {
    let at = span(l).cover(span(r));
    match key {
        "MaxRetryAttempts" => {
            let written = super::one_line(ctx.text(r));
            read.attempts = Some(match eval::int(ctx, r) {
                Some(n) if n >= INT_MAX => (
                    AttemptCount::Unbounded,
                    format!("MaxRetryAttempts = {written} (int.MaxValue: retry for ever)"),
                    at,
                ),
                Some(n) if n >= 1 && written == n.to_string() => (
                    AttemptCount::Finite(n as u64 + 1),
                    format!("MaxRetryAttempts = {n} (retries)"),
                    at,
                ),
                Some(n) if n >= 1 => (
                    AttemptCount::Finite(n as u64 + 1),
                    format!("MaxRetryAttempts = {written}, {written} = {n} (retries)"),
                    at,
                ),
                // Polly 8 validates `[Range(0, int.MaxValue)]`
                // (`RetryStrategyOptions.TResult.cs`): 0 is no retry.
                Some(0) => (
                    AttemptCount::Finite(1),
                    format!("MaxRetryAttempts = {written} (no retry)"),
                    at,
                ),
                Some(n) => {
                    facts.diagnostics.push(invalid_setting::value(
                        span(r),
                        "MaxRetryAttempts",
                        &n.to_string(),
                        "must be from 0 to `int.MaxValue` (it counts retries); options validation fails at start-up",
                    ));
                    return;
                }
                None => (
                    AttemptCount::Unknown,
                    format!("MaxRetryAttempts = {written}"),
                    at,
                ),
            });
        }
        "Delay" => match eval::duration(ctx, r) {
            Some(d) => read.delay = Some((d, at)),
            None => opaque.delay = Some(at),
        },
        "MaxDelay" => match eval::duration(ctx, r) {
            Some(d) => read.max_delay = Some((d, at)),
            None => opaque.delay = Some(at),
        },
        "BackoffType" => {
            let b = match last_name(ctx, r) {
                "Constant" => Backoff::Constant,
                "Linear" => Backoff::Linear,
                "Exponential" => Backoff::Exponential,
                _ => {
                    opaque.delay = Some(at);
                    return;
                }
            };
            read.backoff = Some((b, at));
        }
        "ShouldRetryAfterHeader" => {
            if let Some(b) = eval::boolean(ctx, r) {
                read.retry_after = Some((b, at));
            }
        }
        "UseJitter" => match eval::boolean(ctx, r) {
            Some(b) => read.jitter = Some((b, at)),
            None => opaque.jitter = Some(at),
        },
        _ => {}
    }
}

/// RL9xx: a `Delay` above `MaxDelay` (Polly caps every delay at
/// `MaxDelay`, so the written delay never applies).
fn delay_over_cap(read: &RetryRead, facts: &mut Facts) {
    if let (Some((d, ds)), Some((m, ms))) = (read.delay, read.max_delay)
        && d > m
    {
        facts.diagnostics.push(
            invalid_setting::value(
                ds,
                "Delay",
                &crate::duration::human(d),
                &format!(
                    "it is longer than `MaxDelay` (`{}`), which caps every delay: the delay written never applies",
                    crate::duration::human(m)
                ),
            )
            .with_related(ms, "the cap"),
        );
    }
}

/// The object an options argument is: `new RetryStrategyOptions { .. }`
/// written there or bound to a name in the file.
fn options_object<'a>(ctx: &Ctx<'a>, a: Node<'a>) -> Option<Node<'a>> {
    let mut cur = a;
    for _ in 0..super::MAX_DEPTH {
        match cur.kind_str() {
            "object_creation_expression" | "implicit_object_creation_expression" => {
                return Some(cur);
            }
            "identifier" => cur = ctx.binding(ctx.text(cur), cur.start_byte())?,
            _ => return None,
        }
    }
    None
}

/// `builder.AddRetry(new RetryStrategyOptions { .. })` (Polly v8), with
/// the timeouts and breakers added to the same builder.
fn v8_retry(ctx: &Ctx<'_>, call: Node<'_>, facts: &mut Facts) {
    let anchor = call_span(call);
    let Some((_, a)) = args(ctx, call).into_iter().next() else {
        return;
    };
    let obj = options_object(ctx, a);
    let ty = obj
        .and_then(|o| field(o, "type"))
        .map_or("", |t| ctx.text(t));
    // `HttpRetryStrategyOptions` keeps the standard handler's defaults.
    let http_options = ty.starts_with("HttpRetryStrategyOptions");
    let defaults = if http_options {
        &STANDARD_DEFAULTS
    } else {
        &POLLY_DEFAULTS
    };
    let mut read = RetryRead::default();
    let mut opaque = Opaque::default();
    let mut retry_on = None;
    let mut generator = None;
    if let Some(init) = obj.and_then(|o| field(o, "initializer")) {
        for e in named_children(init) {
            if e.kind_str() != "assignment_expression" {
                continue;
            }
            let (Some(l), Some(r)) = (field(e, "left"), field(e, "right")) else {
                continue;
            };
            let key = ctx.text(l).trim();
            match key {
                "ShouldHandle" => retry_on = Some(super::should_handle::read(ctx, r)),
                "DelayGenerator" => generator = Some(r),
                _ => retry_setting(ctx, key, l, r, &mut read, &mut opaque, facts),
            }
        }
    } else if obj.is_none() {
        // Options built elsewhere: nothing is known but that it retries.
        read.attempts = Some((AttemptCount::Unknown, super::one_line(ctx.text(a)), span(a)));
    }
    let in_http_handler = enclosing_lambda_call(ctx, call)
        .and_then(|(_, outer)| method(ctx, outer))
        .is_some_and(|(m, _)| m == "AddResilienceHandler");
    let name = if in_http_handler {
        let (_, outer) = enclosing_lambda_call(ctx, call).expect("checked above");
        let handler = args(ctx, outer)
            .first()
            .map(|(_, n)| ctx.text(*n).to_string())
            .unwrap_or_default();
        match client_scope(ctx, outer) {
            Some(scope) => format!("{scope}.AddResilienceHandler({handler})"),
            None => format!("AddResilienceHandler({handler})"),
        }
    } else {
        pipeline_name(ctx, call)
    };
    let mut p = policy(&read, defaults, &name, anchor);
    p.system = System::Polly;
    opaque.apply(&mut p);
    if let Some(g) = generator {
        generated_delay(ctx, g, &mut p);
    }
    p.retry_on = match retry_on {
        Some(r) => r,
        None if http_options => standard_retry_on(anchor),
        None => Located::default_at(RetryOn::AllErrors, anchor),
    };
    p.methods = if http_options || in_http_handler {
        Located::default_at(Methods::All, anchor)
    } else {
        Located::default_at(Methods::Unknown, anchor)
    };
    compose(ctx, call, &mut p);
    // The header ignored matters where 429 and 503 are retried: the
    // default `ShouldHandle` of the HTTP options.
    p.server_delay = super::retry_after::server_delay(
        ctx,
        &read,
        generator,
        http_options,
        p.overall_timeout.as_ref(),
        anchor,
    )
    .filter(|d| d.value.ignored.is_none() || !p.retry_on.is_written());
    delay_over_cap(&read, facts);
    p.blind = super::blind::blind(ctx, call, "AddRetry");
    facts.policies.push(p);
}

/// A name for a pipeline: `AddResiliencePipeline("key", ..)` around it.
fn pipeline_name(ctx: &Ctx<'_>, call: Node<'_>) -> String {
    if let Some((_, outer)) = enclosing_lambda_call(ctx, call)
        && method(ctx, outer).is_some_and(|(m, _)| m.starts_with("AddResiliencePipeline"))
        && let Some((_, k)) = args(ctx, outer).first()
    {
        return format!("AddResiliencePipeline({})", ctx.text(*k));
    }
    enclosing_name(ctx, call).unwrap_or_else(|| "AddRetry".into())
}

/// A call's span from its method name (`AddRetry(..)` of
/// `builder.Services.AddHttpClient(..).AddRetry(..)`): the chain before it
/// is other calls.
pub(super) fn call_span(call: Node<'_>) -> Span {
    let from = field(call, "function")
        .and_then(|f| field(f, "name"))
        .map_or(call.start_byte(), |n| n.start_byte());
    Span::new(from, call.end_byte())
}

/// `DelayGenerator = args => ValueTask.FromResult<TimeSpan?>(..)`: the
/// delay read from the function of `args.AttemptNumber` (0 for the first
/// retry).
fn generated_delay(ctx: &Ctx<'_>, g: Node<'_>, p: &mut RetryPolicy) {
    let read = (|| {
        if g.kind_str() != "lambda_expression" {
            return None;
        }
        let params = field(g, "parameters")?;
        let param = match params.kind_str() {
            "implicit_parameter" | "identifier" => ctx.text(params),
            _ => named_children(params)
                .first()
                .and_then(|x| field(*x, "name"))
                .map(|x| ctx.text(x))?,
        };
        delay_function(ctx, param, expression_body(field(g, "body")?)?, 0.0)
    })();
    let (delay, jitter) = read.unwrap_or((Delay::Custom, Jitter::Unknown));
    // `UseJitter`, `BackoffType` and `Delay` no longer decide the waits.
    p.system = System::PollyDelayFunction;
    p.delay = Located::written(delay, span(g));
    p.jitter = Located::written(jitter, span(g));
}

/// A one-parameter lambda's parameter name (`o` of `o => ..`,
/// `(context) => ..`, `(int a) => ..`).
pub(super) fn lambda_param<'a>(ctx: &Ctx<'a>, l: Node<'a>) -> Option<&'a str> {
    let params = field(l, "parameters")?;
    match params.kind_str() {
        "implicit_parameter" | "identifier" => Some(ctx.text(params)),
        _ => named_children(params)
            .first()
            .and_then(|x| field(*x, "name"))
            .map(|x| ctx.text(x)),
    }
}

/// The strategies added to the same builder: a timeout added before the
/// retry bounds all attempts, one after it each attempt; a circuit breaker
/// added after the retry is inside it (Polly v8 runs the first-added
/// strategy outermost).
fn compose(ctx: &Ctx<'_>, call: Node<'_>, p: &mut RetryPolicy) {
    let root = receiver_root(ctx, call);
    let scope = ctx
        .parent(call)
        .and_then(|x| enclosing_block(ctx, x))
        .unwrap_or(call);
    for &n in ctx.subtree(scope) {
        if n.kind_str() != "invocation_expression" || n.id() == call.id() {
            continue;
        }
        let Some((m, _)) = method(ctx, n) else {
            continue;
        };
        if receiver_root(ctx, n) != root {
            continue;
        }
        let before =
            n.end_byte() <= call.start_byte() || chain(call).iter().any(|c| c.id() == n.id());
        match m {
            "AddTimeout" => {
                let Some((_, a)) = args(ctx, n).into_iter().next() else {
                    continue;
                };
                let t = match eval::duration(ctx, a) {
                    Some(d) => Located::written(Timeout::after(d), span(a)),
                    None => {
                        let inner = options_object(ctx, a)
                            .and_then(|o| field(o, "initializer"))
                            .and_then(|i| {
                                named_children(i).into_iter().find(|e| {
                                    field(*e, "left")
                                        .is_some_and(|l| ctx.text(l).trim() == "Timeout")
                                })
                            })
                            .and_then(|e| field(e, "right"));
                        match inner {
                            Some(r) => timeout(ctx, r),
                            None => continue,
                        }
                    }
                };
                if before {
                    p.overall_timeout = Some(t);
                } else {
                    p.per_try_timeout = Some(t);
                }
            }
            "AddCircuitBreaker" if !before => {
                p.wraps_breaker.push(span(n));
                let options = args(ctx, n)
                    .into_iter()
                    .next()
                    .and_then(|(_, a)| options_object(ctx, a));
                p.breaker = Some(WrappedBreaker {
                    name: None,
                    settings: Some(super::breaker::settings(ctx, options, span(n))),
                });
            }
            _ => {}
        }
    }
}

/// The name a builder chain starts from (`builder` of
/// `builder.AddRetry(..).AddTimeout(..)`).
fn receiver_root<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> &'a str {
    let first = chain(call)[0];
    field(first, "function")
        .and_then(|f| field(f, "expression"))
        .map_or("", |r| ctx.text(r))
}

fn enclosing_block<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<Node<'a>> {
    let mut cur = Some(n);
    for _ in 0..super::MAX_CLIMB {
        let c = cur?;
        if matches!(
            c.kind_str(),
            "block" | "lambda_expression" | "arrow_expression_clause"
        ) {
            return Some(c);
        }
        cur = ctx.parent(c);
    }
    None
}

/// The method, property or variable a policy is built in, for messages.
pub(super) fn enclosing_name(ctx: &Ctx<'_>, n: Node<'_>) -> Option<String> {
    let mut cur = ctx.parent(n);
    for _ in 0..super::MAX_CLIMB {
        let c = cur?;
        match c.kind_str() {
            "variable_declarator"
            | "method_declaration"
            | "property_declaration"
            | "local_function_statement" => {
                return field(c, "name").map(|x| ctx.text(x).to_string());
            }
            _ => {}
        }
        cur = ctx.parent(c);
    }
    None
}

/// The lambdas of a `.Configure(o => ..)` called right on `call`'s result
/// (`.AddStandardResilienceHandler().Configure(..)`,
/// `.AddStandardHedgingHandler().Configure(..)`).
pub(super) fn configure_lambdas<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> Vec<Node<'a>> {
    let Some(outer) = configure_call(ctx, call) else {
        return Vec::new();
    };
    args(ctx, outer)
        .into_iter()
        .map(|(_, a)| a)
        .filter(|a| a.kind_str() == "lambda_expression")
        .collect()
}

/// The `.Configure(..)` called right on `call`'s result.
fn configure_call<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> Option<Node<'a>> {
    ctx.parent(call)
        .filter(|p| p.kind_str() == "member_access_expression")
        .and_then(|p| ctx.parent(p))
        .filter(|x| x.kind_str() == "invocation_expression")
        .filter(|&x| method(ctx, x).is_some_and(|(m, _)| m == "Configure"))
}

/// The configuration section a handler's options are bound to:
/// `AddStandardResilienceHandler(config.GetSection("X"))`, or
/// `.Configure(config.GetSection("X"))` on it (dotnet/extensions
/// `ResilienceHttpClientBuilderExtensions.StandardResilience.cs`: the
/// first is the second); `GetSection("A").GetSection("B")` is `A:B`.
pub(super) fn bound_section(ctx: &Ctx<'_>, call: Node<'_>) -> Option<String> {
    let mut candidates: Vec<Node<'_>> = args(ctx, call).into_iter().map(|(_, a)| a).collect();
    if let Some(outer) = configure_call(ctx, call) {
        candidates.extend(args(ctx, outer).into_iter().map(|(_, a)| a));
    }
    candidates.into_iter().find_map(|a| section_path(ctx, a))
}

pub(super) fn section_path(ctx: &Ctx<'_>, a: Node<'_>) -> Option<String> {
    if a.kind_str() == "lambda_expression" {
        return None;
    }
    let mut keys: Vec<(usize, &str)> = Vec::new();
    for &n in ctx.subtree(a) {
        if n.kind_str() == "invocation_expression"
            && method(ctx, n).is_some_and(|(m, _)| m == "GetSection" || m == "GetRequiredSection")
        {
            let (_, k) = args(ctx, n).into_iter().next()?;
            if k.kind_str() != "string_literal" {
                return None;
            }
            keys.push((n.end_byte(), ctx.text(k).trim_matches('"')));
        }
    }
    // The inner call ends first: `GetSection("A").GetSection("B")`.
    keys.sort();
    (!keys.is_empty()).then(|| keys.iter().map(|(_, k)| *k).collect::<Vec<_>>().join(":"))
}
