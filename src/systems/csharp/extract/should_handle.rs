//! What a written `ShouldHandle` retries: the standard handler's
//! `o.Retry.ShouldHandle = ..` and a Polly v8 `RetryStrategyOptions`'
//! `ShouldHandle`, read as conditions where the predicate says them:
//! - `args => ValueTask.FromResult(EXPR)` (or `EXPR` directly, or a block
//!   that only returns it), EXPR a disjunction (`||`) of
//!   `HttpClientResiliencePredicates.IsTransient(args.Outcome)` (5xx, 408,
//!   429, `HttpRequestException`, `TimeoutRejectedException`:
//!   dotnet/extensions 5862342c9a, `Polly/HttpClientResiliencePredicates.cs`),
//!   status tests (`r.StatusCode == HttpStatusCode.NotFound`,
//!   `(int)r.StatusCode >= 500`, `!r.IsSuccessStatusCode`), exception tests
//!   (`args.Outcome.Exception is HttpRequestException`), `true`/`false`
//!   and `PredicateResult.True()`/`False()`;
//! - `args.Outcome switch { { Exception: X } => PredicateResult.True(), ..
//!   }` arms that answer true;
//! - `new PredicateBuilder<HttpResponseMessage>().Handle<X>().HandleResult(r
//!   => ..)`.
//!
//! Anything else (`&&`, a method of the program's own, a delegate built
//! elsewhere) is a condition the linter cannot read
//! ([`Condition::Predicate`]), kept beside what it can.

use super::{Ctx, MAX_DEPTH, args, field, method, named_children, span, type_args};
use crate::model::{Condition, Located, RetryOn};
use crate::source::Span;
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

/// `System.Net.HttpStatusCode` members of the 4xx and 5xx classes.
const STATUSES: &[(&str, u16)] = &[
    ("BadRequest", 400),
    ("Unauthorized", 401),
    ("PaymentRequired", 402),
    ("Forbidden", 403),
    ("NotFound", 404),
    ("MethodNotAllowed", 405),
    ("NotAcceptable", 406),
    ("ProxyAuthenticationRequired", 407),
    ("RequestTimeout", 408),
    ("Conflict", 409),
    ("Gone", 410),
    ("LengthRequired", 411),
    ("PreconditionFailed", 412),
    ("RequestEntityTooLarge", 413),
    ("RequestUriTooLong", 414),
    ("UnsupportedMediaType", 415),
    ("RequestedRangeNotSatisfiable", 416),
    ("ExpectationFailed", 417),
    ("MisdirectedRequest", 421),
    ("UnprocessableEntity", 422),
    ("UnprocessableContent", 422),
    ("Locked", 423),
    ("FailedDependency", 424),
    ("UpgradeRequired", 426),
    ("PreconditionRequired", 428),
    ("TooManyRequests", 429),
    ("RequestHeaderFieldsTooLarge", 431),
    ("UnavailableForLegalReasons", 451),
    ("InternalServerError", 500),
    ("NotImplemented", 501),
    ("BadGateway", 502),
    ("ServiceUnavailable", 503),
    ("GatewayTimeout", 504),
    ("HttpVersionNotSupported", 505),
    ("VariantAlsoNegotiates", 506),
    ("InsufficientStorage", 507),
    ("LoopDetected", 508),
    ("NotExtended", 510),
    ("NetworkAuthenticationRequired", 511),
];

/// The predicate read so far.
#[derive(Default)]
struct Reading {
    /// Answers true whatever the outcome.
    always: bool,
    conditions: Vec<Located<Condition>>,
    /// A part the linter cannot read, where.
    opaque: Option<Span>,
}

/// What `r`, the value of a written `ShouldHandle`, retries.
pub(super) fn read(ctx: &Ctx<'_>, r: Node<'_>) -> Located<RetryOn> {
    let mut out = Reading::default();
    let is_builder = super::chain(r)
        .first()
        .and_then(|c| field(*c, "function"))
        .and_then(|f| field(f, "expression"))
        .is_some_and(|e| ctx.text(e).contains("PredicateBuilder"));
    if r.kind_str() == "invocation_expression" && is_builder {
        builder(ctx, r, &mut out);
    } else if r.kind_str() == "lambda_expression" {
        match lambda_value(r) {
            Some(e) => expr(ctx, e, &mut out, 0),
            None => out.opaque = Some(span(r)),
        }
    } else {
        out.opaque = Some(span(r));
    }
    let whole = span(r);
    if out.always {
        return Located::written(RetryOn::AllErrors, whole);
    }
    if let Some(s) = out.opaque {
        out.conditions
            .push(Located::written(Condition::Predicate, s));
    }
    if out.conditions.is_empty() {
        // Answers false whatever the outcome: nothing is retried.
        return Located::written(RetryOn::Nothing, whole);
    }
    Located::written(
        RetryOn::Listed {
            conditions: out.conditions,
        },
        whole,
    )
}

/// The expression a predicate lambda answers: its expression body, or the
/// one `return` of a block body.
fn lambda_value(l: Node<'_>) -> Option<Node<'_>> {
    let body = field(l, "body")?;
    if body.kind_str() != "block" {
        return Some(body);
    }
    match named_children(body).as_slice() {
        [ret] if ret.kind_str() == "return_statement" => named_children(*ret).first().copied(),
        _ => None,
    }
}

/// `new PredicateBuilder<T>().Handle<X>().HandleResult(r => ..)`.
fn builder(ctx: &Ctx<'_>, call: Node<'_>, out: &mut Reading) {
    for c in super::chain(call) {
        let Some((m, _)) = method(ctx, c) else {
            continue;
        };
        let at = super::resilience::call_span(c);
        let a = args(ctx, c);
        match m {
            "Handle" | "HandleInner" if a.is_empty() => {
                for t in type_args(ctx, c) {
                    out.conditions
                        .push(Located::written(Condition::Exception(t.into()), at));
                }
            }
            "HandleResult" => match a.first() {
                Some((_, l)) if l.kind_str() == "lambda_expression" => match lambda_value(*l) {
                    Some(e) => expr(ctx, e, out, 0),
                    None => out.opaque = Some(at),
                },
                _ => out.opaque = Some(at),
            },
            // `Handle<X>(filter)`, anything else.
            _ => out.opaque = Some(at),
        }
    }
}

/// One part of a predicate's answer.
fn expr(ctx: &Ctx<'_>, e: Node<'_>, out: &mut Reading, depth: usize) {
    if depth > MAX_DEPTH {
        out.opaque = Some(span(e));
        return;
    }
    let d = depth + 1;
    let t = ctx.text(e).trim();
    match e.kind_str() {
        "parenthesized_expression" => match named_children(e).first() {
            Some(x) => expr(ctx, *x, out, d),
            None => out.opaque = Some(span(e)),
        },
        "boolean_literal" | "true" | "false" if t == "true" => out.always = true,
        "boolean_literal" | "true" | "false" => {}
        "binary_expression" => binary(ctx, e, out, d),
        "prefix_unary_expression" if t.starts_with('!') && t.ends_with("IsSuccessStatusCode") => {
            out.conditions.push(Located::written(
                Condition::Status { from: 400, to: 599 },
                span(e),
            ));
        }
        "is_pattern_expression" => is_pattern(ctx, e, out),
        "switch_expression" => switch(ctx, e, out, d),
        "invocation_expression" => {
            let m = method(ctx, e).map(|(m, _)| m);
            match m {
                // `ValueTask.FromResult(x)`, `new ValueTask<bool>(x)`.
                Some("FromResult") => match args(ctx, e).first() {
                    Some((_, x)) => expr(ctx, *x, out, d),
                    None => out.opaque = Some(span(e)),
                },
                Some("True") if t.starts_with("PredicateResult") => out.always = true,
                Some("False") if t.starts_with("PredicateResult") => {}
                Some("IsTransient") => {
                    if let RetryOn::Listed { conditions } =
                        crate::systems::dotnet::model::standard_retry_on(span(e)).value
                    {
                        out.conditions.extend(
                            conditions
                                .into_iter()
                                .map(|c| Located::written(c.value, span(e))),
                        );
                    }
                }
                _ => out.opaque = Some(span(e)),
            }
        }
        _ => out.opaque = Some(span(e)),
    }
}

/// `a || b`, and the status tests; `&&` and anything else is not read.
fn binary(ctx: &Ctx<'_>, e: Node<'_>, out: &mut Reading, d: usize) {
    let (Some(l), Some(r), Some(op)) = (field(e, "left"), field(e, "right"), field(e, "operator"))
    else {
        out.opaque = Some(span(e));
        return;
    };
    let op = ctx.text(op);
    if op == "||" {
        expr(ctx, l, out, d);
        expr(ctx, r, out, d);
        return;
    }
    // tree-sitter-c-sharp reads `a || b?.StatusCode == c` as `(a ||
    // b)?.StatusCode == c`: the disjunction is taken apart again, and the
    // test is the last operand's.
    let mut from = e.start_byte();
    let mut lt = strip(ctx.text(l));
    if l.kind_str() == "conditional_access_expression"
        && let Some(cond) = named_children(l).first().copied()
        && cond.kind_str() == "binary_expression"
        && let (Some(a), Some(b), Some(o)) = (
            field(cond, "left"),
            field(cond, "right"),
            field(cond, "operator"),
        )
    {
        if ctx.text(o) != "||" {
            out.opaque = Some(span(e));
            return;
        }
        expr(ctx, a, out, d);
        from = b.start_byte();
        lt = strip(ctx.src.get(from..l.end_byte()).unwrap_or(""));
    }
    let rt = strip(ctx.text(r));
    let at = Span::new(from, e.end_byte());
    // `r.IsSuccessStatusCode == false`.
    if lt.ends_with("IsSuccessStatusCode") && op == "==" && rt == "false" {
        out.conditions.push(Located::written(
            Condition::Status { from: 400, to: 599 },
            at,
        ));
        return;
    }
    let (code, flipped) = if lt.ends_with("StatusCode") {
        (status(rt), false)
    } else if rt.ends_with("StatusCode") {
        (status(lt), true)
    } else {
        (None, false)
    };
    let op = match (op, flipped) {
        (">=", true) => "<=",
        ("<=", true) => ">=",
        (">", true) => "<",
        ("<", true) => ">",
        (o, _) => o,
    };
    let cond = match (code, op) {
        (Some(c), "==") => Some(Condition::status(c)),
        (Some(c), ">=") => Some(Condition::Status { from: c, to: 599 }),
        (Some(c), ">") => Some(Condition::Status {
            from: c + 1,
            to: 599,
        }),
        _ => None,
    };
    match cond {
        Some(c) => out.conditions.push(Located::written(c, at)),
        None => out.opaque = Some(at),
    }
}

/// A status as written: `HttpStatusCode.NotFound`, `404`,
/// `(HttpStatusCode)404`.
fn status(t: &str) -> Option<u16> {
    let t = strip(t);
    let t = t.strip_prefix("(HttpStatusCode)").unwrap_or(t).trim();
    if let Ok(n) = t.parse::<u16>() {
        return (100..600).contains(&n).then_some(n);
    }
    let name = t.rsplit('.').next()?;
    STATUSES.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

/// An operand without its casts to `int` and parentheses.
fn strip(t: &str) -> &str {
    let mut t = t.trim();
    for _ in 0..4 {
        let before = t;
        t = t
            .strip_prefix("(int)")
            .or_else(|| t.strip_prefix("(int?)"))
            .unwrap_or(t)
            .trim();
        if t.starts_with('(') && t.ends_with(')') {
            t = t[1..t.len() - 1].trim();
        }
        if t == before {
            break;
        }
    }
    t.trim_end_matches('?')
}

/// `args.Outcome.Exception is HttpRequestException`,
/// `r.StatusCode is HttpStatusCode.NotFound or HttpStatusCode.Conflict`.
fn is_pattern(ctx: &Ctx<'_>, e: Node<'_>, out: &mut Reading) {
    let (Some(x), Some(p)) = (field(e, "expression"), field(e, "pattern")) else {
        out.opaque = Some(span(e));
        return;
    };
    let subject = strip(ctx.text(x));
    let alternatives: Vec<&str> = ctx.text(p).split(" or ").map(str::trim).collect();
    for a in alternatives {
        let cond = if subject.ends_with("Exception") {
            let ty = a.split_whitespace().next().unwrap_or(a);
            (!ty.is_empty() && !ty.contains(['{', '(', '!']))
                .then(|| Condition::Exception(ty.to_string()))
        } else if subject.ends_with("StatusCode") {
            pattern_status(a)
        } else {
            None
        };
        match cond {
            Some(c) => out.conditions.push(Located::written(c, span(e))),
            None => out.opaque = Some(span(e)),
        }
    }
}

/// A status pattern: `HttpStatusCode.NotFound`, `>= HttpStatusCode.InternalServerError`.
fn pattern_status(a: &str) -> Option<Condition> {
    if let Some(rest) = a.strip_prefix(">=") {
        return status(rest).map(|c| Condition::Status { from: c, to: 599 });
    }
    if let Some(rest) = a.strip_prefix('>') {
        return status(rest).map(|c| Condition::Status {
            from: c + 1,
            to: 599,
        });
    }
    status(a).map(Condition::status)
}

/// `args.Outcome switch { { Exception: HttpRequestException } =>
/// PredicateResult.True(), { Result.StatusCode: HttpStatusCode.X } =>
/// PredicateResult.True(), _ => PredicateResult.False() }`.
fn switch(ctx: &Ctx<'_>, e: Node<'_>, out: &mut Reading, d: usize) {
    for arm in named_children(e)
        .into_iter()
        .filter(|a| a.kind_str() == "switch_expression_arm")
    {
        let kids = named_children(arm);
        let (Some(pat), Some(val)) = (kids.first(), kids.last()) else {
            continue;
        };
        let when = kids.iter().find(|k| k.kind_str() == "when_clause").copied();
        let mut answer = Reading::default();
        expr(ctx, *val, &mut answer, d);
        if answer.opaque.is_some() {
            out.opaque = Some(span(arm));
            continue;
        }
        if !answer.always {
            // This arm answers false.
            continue;
        }
        let p = ctx.text(*pat).trim();
        // `{} outcome when IsTransient(outcome)` (Polly's documented
        // form): a pattern that matches every outcome, guarded; the guard
        // is what is retried. A guard on a narrower pattern is not read.
        let any = p == "_"
            || p == "{}"
            || p.strip_prefix("{}").is_some_and(|v| is_name(v.trim()))
            || p.strip_prefix("var ").is_some_and(|v| is_name(v.trim()));
        if let Some(w) = when {
            match named_children(w).first() {
                Some(g) if any => expr(ctx, *g, out, d),
                _ => out.opaque = Some(span(arm)),
            }
            continue;
        }
        if any {
            out.always = true;
            continue;
        }
        match arm_condition(p) {
            Some(c) => out.conditions.push(Located::written(c, span(*pat))),
            None => out.opaque = Some(span(arm)),
        }
    }
}

fn is_name(t: &str) -> bool {
    !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// `{ Exception: HttpRequestException }`, `{ Result.StatusCode:
/// HttpStatusCode.NotFound }`, `{ Result: { StatusCode: >= .. } }`.
fn arm_condition(p: &str) -> Option<Condition> {
    let inner = p.trim_start_matches('{').trim_end_matches('}').trim();
    if let Some(ty) = inner.strip_prefix("Exception:") {
        let ty = ty.split_whitespace().next()?;
        return (!ty.contains(['{', '(', '!'])).then(|| Condition::Exception(ty.to_string()));
    }
    let at = inner.find("StatusCode:")?;
    let rest = inner[at + "StatusCode:".len()..]
        .trim()
        .trim_end_matches('}')
        .trim();
    pattern_status(rest)
}
