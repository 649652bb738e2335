//! The delegates a Polly pipeline or policy runs (`pipeline.ExecuteAsync(
//! ct => ..)`): retried scopes of the file ([`RetryScope`]) when the
//! pipeline is one the file builds, for RL501 (`Guid.NewGuid()` minted
//! inside a retry), the RabbitMQ publishes a retry covers, and the calls
//! the pipeline carries; and the pipelines registered by key in one file
//! (`services.AddResiliencePipeline("orders", b => b.AddRetry(..))`) and
//! taken by key in another (`provider.GetPipeline("orders")`,
//! `[FromKeyedServices("orders")] ResiliencePipeline pipeline`), joined
//! by `systems::csharp::pipelines`.

use super::loops::RetryScope;
use super::{Ctx, args, delegate_callees, field, method, named_children, span};
use crate::model::csharp_source::{PipelineKey, PipelineUse};
use crate::model::*;
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

/// The delegates run by `pipeline.ExecuteAsync(..)`/`policy.Execute(..)`
/// where the pipeline or policy is one this file builds: the delegate is
/// retried by it. Where the pipeline is taken by key instead
/// (`provider.GetPipeline("orders")`), the delegate is a use of that key
/// ([`PipelineUse`]).
pub fn executions(
    ctx: &Ctx<'_>,
    facts: &Facts,
    scopes: &mut Vec<RetryScope>,
    uses: &mut Vec<PipelineUse>,
) {
    // The file's methods, found at the first execution.
    let mut methods: Option<delegate_callees::Methods<'_>> = None;
    for &n in &ctx.nodes {
        if n.kind_str() != "invocation_expression" {
            continue;
        }
        let Some((m, Some(recv))) = method(ctx, n) else {
            continue;
        };
        if !matches!(
            m,
            "Execute" | "ExecuteAsync" | "ExecuteAndCaptureAsync" | "ExecuteAndCapture"
        ) {
            continue;
        }
        let methods = methods.get_or_insert_with(|| delegate_callees::Methods::new(ctx));
        let list = args(ctx, n);
        let lambda = list.iter().map(|(_, a)| *a).find(|a| {
            matches!(
                a.kind_str(),
                "lambda_expression" | "anonymous_method_expression"
            )
        });
        // The delegate's own text (none for a method group), and the
        // bodies of the methods of the class it runs.
        let (own, also) = match lambda {
            Some(body) => (
                Some((body.start_byte(), body.end_byte())),
                delegate_callees::bodies(ctx, methods, n, body),
            ),
            // A method group: an argument naming a method of the file (not
            // `sql` given to Dapper's `connection.ExecuteAsync(sql, ..)`).
            None => match list
                .iter()
                .map(|(_, a)| *a)
                .filter(|a| a.kind_str() == "identifier" && methods.has(ctx.text(*a)))
                .map(|a| delegate_callees::bodies(ctx, methods, n, a))
                .find(|b| !b.is_empty())
            {
                Some(b) => (None, b),
                None => continue,
            },
        };
        let Some(policy) = policy_of(ctx, facts, recv) else {
            if let Some((key, taken)) = pipeline_key_of(ctx, recv) {
                let (start, end) = own.unwrap_or((n.start_byte(), n.start_byte()));
                let keys = std::iter::once((start, end))
                    .chain(also.iter().copied())
                    .flat_map(|(a, b)| keys_in(ctx, a, b))
                    .collect();
                uses.push(PipelineUse {
                    key,
                    taken,
                    at: span(n),
                    start,
                    end,
                    also,
                    keys,
                });
            }
            continue;
        };
        for (start, end) in own.into_iter().chain(also) {
            scopes.push(RetryScope { policy, start, end });
        }
    }
}

/// The policy a receiver (`_pipeline`, `this._policy`, `GetRetryPolicy()`)
/// stands for: one whose span is inside the expression the name is bound
/// to, or whose name is the method the expression calls.
fn policy_of(ctx: &Ctx<'_>, facts: &Facts, recv: Node<'_>) -> Option<usize> {
    let mut cur = recv;
    for _ in 0..super::MAX_DEPTH {
        let t = ctx.text(cur).trim();
        let t = t.strip_prefix("this.").unwrap_or(t);
        if cur.kind_str() == "identifier" || cur.kind_str() == "member_access_expression" {
            let Some(v) = ctx.binding(t, cur.start_byte()) else {
                break;
            };
            cur = v;
            continue;
        }
        break;
    }
    let inside = facts
        .policies
        .iter()
        .position(|p| cur.start_byte() <= p.span.start && p.span.end <= cur.end_byte());
    if inside.is_some() {
        return inside;
    }
    let called = match cur.kind_str() {
        "invocation_expression" => method(ctx, cur).map(|(m, _)| m),
        _ => None,
    }?;
    facts
        .policies
        .iter()
        .position(|p| p.name.as_deref() == Some(called))
}

/// A retry whose retried code publishes to RabbitMQ (RabbitMQ.Client's
/// `BasicPublish`/`BasicPublishAsync`) is the retry of the AMQP calls of
/// the services that build the file ([`super::AMQP_PUBLISH`]).
pub fn publishers(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &[RetryScope]) {
    for s in scopes {
        let publishes = ctx.nodes.iter().any(|&n| {
            n.kind_str() == "invocation_expression"
                && s.start <= n.start_byte()
                && n.end_byte() <= s.end
                && method(ctx, n)
                    .is_some_and(|(m, _)| m == "BasicPublish" || m == "BasicPublishAsync")
        });
        if let Some(p) = facts.policies.get_mut(s.policy)
            && publishes
            && p.scope.client.is_none()
        {
            p.scope.client = Some(ClientScope::Named(super::AMQP_PUBLISH.into()));
        }
    }
}

/// `Guid.NewGuid()` minted inside a retried scope: a new key per attempt.
pub fn idempotency_keys(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &[RetryScope]) {
    for s in scopes {
        let keys = keys_in(ctx, s.start, s.end);
        if let Some(p) = facts.policies.get_mut(s.policy) {
            for k in keys {
                // A method two executions run is one scope of each.
                if !p.idempotency.contains(&k) {
                    p.idempotency.push(k);
                }
            }
        }
    }
}

/// The request keys minted from `start` to `end`: `Guid.NewGuid()` (or a
/// ULID) that ends up as the key the server deduplicates on (an entity
/// id; a temporary file name per attempt is fine).
fn keys_in(ctx: &Ctx<'_>, start: usize, end: usize) -> Vec<IdempotencyKey> {
    delegate_callees::invocations_in(ctx, start, end)
        .filter_map(|n| {
            let f = field(n, "function").map_or("", |f| ctx.text(f));
            let minted = matches!(f, "Guid.NewGuid" | "System.Guid.NewGuid" | "Ulid.NewUlid");
            (minted && used_as_key(ctx, n)).then(|| IdempotencyKey {
                span: span(n),
                created_by: format!("{f}()"),
                inside_retry: true,
            })
        })
        .collect()
}

/// The calls of the file made inside the delegate a pipeline of the file
/// runs carry it (`pipeline.ExecuteAsync(ct => http.GetAsync(..))`), as
/// well as the layers of their clients.
pub fn attach(facts: &mut Facts, scopes: &[RetryScope]) {
    for s in scopes {
        let inside = |at: crate::source::Span| s.start <= at.start && at.end <= s.end;
        for e in facts.edges.iter_mut().filter(|e| inside(e.span)) {
            if !e.policies.contains(&s.policy) {
                e.policies.push(s.policy);
            }
        }
        for u in facts.unresolved.iter_mut().filter(|u| inside(u.span)) {
            if !u.policies.contains(&s.policy) {
                u.policies.push(s.policy);
            }
        }
    }
}

/// The key a receiver takes its pipeline by: `provider.GetPipeline("orders")`
/// (Polly's `ResiliencePipelineProvider<TKey>`), a keyed service
/// (`sp.GetRequiredKeyedService<ResiliencePipeline>("orders")`), or a
/// parameter `[FromKeyedServices("orders")] ResiliencePipeline pipeline`
/// (Polly.Extensions registers each pipeline as a keyed service from 8.3.0:
/// `PollyServiceCollectionExtensions.cs`, `TryAddKeyedTransient`),
/// through the locals and fields it is stored in.
fn pipeline_key_of(ctx: &Ctx<'_>, recv: Node<'_>) -> Option<(String, String)> {
    let mut cur = recv;
    for _ in 0..super::MAX_DEPTH {
        match cur.kind_str() {
            "identifier" | "member_access_expression" => {
                let t = ctx.text(cur).trim();
                let t = t.strip_prefix("this.").unwrap_or(t);
                match ctx.binding(t, cur.start_byte()) {
                    Some(v) => cur = v,
                    None => return keyed_parameter(ctx, t),
                }
            }
            "parenthesized_expression" | "await_expression" => {
                cur = named_children(cur).into_iter().next()?;
            }
            "invocation_expression" => {
                let (m, _) = method(ctx, cur)?;
                if !matches!(
                    m,
                    "GetPipeline" | "GetRequiredKeyedService" | "GetKeyedService"
                ) {
                    return None;
                }
                let (_, k) = args(ctx, cur).into_iter().next()?;
                return Some((key_text(ctx, k), as_written(ctx, cur)));
            }
            _ => return None,
        }
    }
    None
}

/// A parameter named `name` marked `[FromKeyedServices(key)]`: its key,
/// and the attribute as written.
fn keyed_parameter(ctx: &Ctx<'_>, name: &str) -> Option<(String, String)> {
    ctx.nodes
        .iter()
        .filter(|n| n.kind_str() == "parameter")
        .filter(|n| field(**n, "name").is_some_and(|x| ctx.text(x) == name))
        .flat_map(|n| named_children(*n))
        .filter(|c| c.kind_str() == "attribute_list")
        .flat_map(named_children)
        .filter(|a| a.kind_str() == "attribute")
        .find_map(|a| {
            let n = field(a, "name").map(|x| ctx.text(x))?;
            if n != "FromKeyedServices" && n != "FromKeyedServicesAttribute" {
                return None;
            }
            let list = named_children(a)
                .into_iter()
                .find(|c| c.kind_str() == "attribute_argument_list")?;
            let arg = named_children(list).into_iter().next()?;
            let value = named_children(arg).into_iter().last()?;
            Some((key_text(ctx, value), format!("[{}]", as_written(ctx, a))))
        })
}

/// An expression's text on one line, spaces collapsed.
fn as_written(ctx: &Ctx<'_>, n: Node<'_>) -> String {
    ctx.text(n).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A pipeline key as [`PipelineKey::key`] writes it: a string's value in
/// quotes, also through a name the file binds to one; else the
/// expression as written (`PipelineKeys.Orders`), which matches where
/// the other file writes the same.
fn key_text(ctx: &Ctx<'_>, n: Node<'_>) -> String {
    match super::calls::string(ctx, n, 0) {
        Some(s) if !s.contains("{}") => format!("\"{s}\""),
        _ => ctx.text(n).trim().to_string(),
    }
}

/// The pipelines the file registers by key
/// (`services.AddResiliencePipeline("orders", (builder, context) => ..)`,
/// also with type arguments), each with the retry written in its
/// builder, if one.
pub fn pipeline_keys(ctx: &Ctx<'_>, facts: &Facts) -> Vec<PipelineKey> {
    let mut out = Vec::new();
    for &n in &ctx.nodes {
        if n.kind_str() != "invocation_expression"
            || method(ctx, n).is_none_or(|(m, _)| m != "AddResiliencePipeline")
        {
            continue;
        }
        let a = args(ctx, n);
        let Some(&(_, k)) = a.first() else {
            continue;
        };
        let Some(&(_, build)) = a.iter().find(|(_, v)| {
            matches!(
                v.kind_str(),
                "lambda_expression" | "anonymous_method_expression"
            )
        }) else {
            continue;
        };
        let policy = facts.policies.iter().position(|p| {
            build.start_byte() <= p.span.start
                && p.span.end <= build.end_byte()
                && p.use_of.is_none()
        });
        out.push(PipelineKey {
            key: key_text(ctx, k),
            policy,
        });
    }
    out
}

/// Whether the id minted at `n` ends up as an idempotency or request key:
/// an argument next to a key-named string (`Headers.Add("Idempotency-Key",
/// ..)`), of a key-named method, or assigned to (or initialising) a
/// key-named variable, field or property.
fn used_as_key(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    use crate::systems::java::extract::names_key;
    let mut cur = n;
    for _ in 0..8 {
        let Some(p) = cur.parent() else {
            return false;
        };
        match p.kind_str() {
            "argument" => cur = p,
            "argument_list" => {
                let literal_key = named_children(p).into_iter().any(|a| {
                    named_children(a).last().is_some_and(|v| {
                        v.kind_str() == "string_literal" && names_key(ctx.text(*v))
                    })
                });
                if literal_key {
                    return true;
                }
                let Some(call) = p.parent() else {
                    return false;
                };
                if method(ctx, call).is_some_and(|(m, _)| names_key(m)) {
                    return true;
                }
                cur = call;
            }
            "variable_declarator" => {
                return field(p, "name").is_some_and(|x| names_key(ctx.text(x)));
            }
            "assignment_expression" => {
                return field(p, "left").is_some_and(|x| names_key(ctx.text(x)));
            }
            "invocation_expression"
            | "member_access_expression"
            | "parenthesized_expression"
            | "cast_expression"
            | "binary_expression"
            | "interpolation"
            | "interpolated_string_expression"
            | "equals_value_clause" => cur = p,
            _ => return false,
        }
    }
    false
}
