//! A synchronous Polly retry given an operation that returns a task
//! (`Policy.Handle<Exception>().WaitAndRetry(3, ..).Execute(async () =>
//! ..)`, `.Execute(() => client.SendMailAsync(m))`): `Execute<TResult>`
//! runs the delegate once and returns the task it gives; the failure comes
//! back inside that task after the policy has returned, so the policy
//! never retries (App-vNext/Polly v7 `src/Polly/Retry/RetryEngine.cs` 3b954f1
//! catches what the delegate throws and tests the result it returns, a
//! `Task`, never awaited; the async engine `AsyncRetryEngine.cs` 4f02c66 awaits
//! it). Read where the policy is run: in its own chain, or through the
//! local variable, field or property it is stored in.

use super::{Ctx, args, field, method, named_children, one_line, span};
use crate::model::Located;
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

/// How many runs of one stored policy are looked at.
const MAX_RUNS: usize = 64;

/// The operation a synchronous retry `policy` (the `WaitAndRetry(..)`
/// invocation) is given, when every run of it that this file shows is
/// given one returning a task: its span and its text on one line.
pub(super) fn blind(ctx: &Ctx<'_>, policy: Node<'_>, name: &str) -> Option<Located<String>> {
    if name.ends_with("Async") {
        return None;
    }
    let runs = runs(ctx, chain_end(ctx, policy));
    let mut first = None;
    for run in &runs {
        let op = args(ctx, *run).into_iter().map(|(_, a)| a).next()?;
        if !returns_task(ctx, op) {
            return None;
        }
        first.get_or_insert(op);
    }
    let op = first?;
    let mut text = one_line(ctx.text(op));
    if text.len() > 60 {
        let cut = (0..=57)
            .rev()
            .find(|i| text.is_char_boundary(*i))
            .unwrap_or(0);
        text.truncate(cut);
        text.push_str("..");
    }
    Some(Located::written(text, span(op)))
}

/// The `Execute(..)`/`ExecuteAndCapture(..)` invocations that run
/// `policy`: on its own result, or on the variable, field or property it
/// is assigned to.
fn runs<'a>(ctx: &Ctx<'a>, policy: Node<'a>) -> Vec<Node<'a>> {
    if let Some(run) = run_on(ctx, policy) {
        return vec![run];
    }
    let Some(store) = stored_in(ctx, policy) else {
        return Vec::new();
    };
    ctx.nodes
        .iter()
        .filter(|n| n.kind_str() == "invocation_expression")
        .filter(|n| {
            method(ctx, **n).is_some_and(|(m, recv)| {
                is_run(m)
                    && recv.is_some_and(|r| {
                        let t = ctx.text(r);
                        t == store || t.strip_prefix("this.") == Some(store)
                    })
            })
        })
        .take(MAX_RUNS)
        .copied()
        .collect()
}

/// The last call of the fluent chain `policy` is in, before a run:
/// `.AddRetry(..).Build()` of a Polly v8 pipeline builder.
fn chain_end<'a>(ctx: &Ctx<'a>, policy: Node<'a>) -> Node<'a> {
    let mut cur = policy;
    for _ in 0..16 {
        let Some(call) = ctx
            .parent(cur)
            .filter(|p| p.kind_str() == "member_access_expression")
            .filter(|p| field(*p, "expression").map(|e| e.id()) == Some(cur.id()))
            .and_then(|p| ctx.parent(p))
            .filter(|c| c.kind_str() == "invocation_expression")
        else {
            break;
        };
        if method(ctx, call).is_none_or(|(m, _)| is_run(m) || m.ends_with("Async")) {
            break;
        }
        cur = call;
    }
    cur
}

fn is_run(m: &str) -> bool {
    matches!(m, "Execute" | "ExecuteAndCapture")
}

/// `policy.Execute(..)` written on the invocation itself.
fn run_on<'a>(ctx: &Ctx<'a>, policy: Node<'a>) -> Option<Node<'a>> {
    let access = ctx
        .parent(policy)
        .filter(|p| p.kind_str() == "member_access_expression")?;
    let call = ctx
        .parent(access)
        .filter(|c| c.kind_str() == "invocation_expression")?;
    let (m, recv) = method(ctx, call)?;
    (is_run(m) && recv.is_some_and(|r| r.id() == policy.id())).then_some(call)
}

/// The name a policy is stored in: `var retry = Policy..;`, `_retry =
/// Policy..;`, `RetryPolicy Retry { get; } = Policy..;`.
fn stored_in<'a>(ctx: &Ctx<'a>, policy: Node<'a>) -> Option<&'a str> {
    let parent = ctx.parent(policy)?;
    let name = match parent.kind_str() {
        "variable_declarator" | "property_declaration" => field(parent, "name")?,
        "assignment_expression" if field(parent, "right").map(|r| r.id()) == Some(policy.id()) => {
            field(parent, "left")?
        }
        "equals_value_clause" => {
            let decl = ctx.parent(parent)?;
            field(decl, "name").or_else(|| named_children(decl).into_iter().next())?
        }
        _ => return None,
    };
    let t = ctx.text(name);
    Some(t.strip_prefix("this.").unwrap_or(t))
}

/// An operation that returns a task: an `async` lambda or anonymous
/// method, a lambda whose body is a call of a `..Async` method (not
/// awaited), or a `..Async` method group.
fn returns_task(ctx: &Ctx<'_>, op: Node<'_>) -> bool {
    match op.kind_str() {
        "lambda_expression" | "anonymous_method_expression" => {
            let mut cursor = op.walk();
            let is_async = op.children(&mut cursor).any(|c| {
                c.kind_str() == "async" || (c.kind_str() == "modifier" && ctx.text(c) == "async")
            });
            is_async
                || field(op, "body")
                    .filter(|b| b.kind_str() == "invocation_expression")
                    .and_then(|b| method(ctx, b))
                    .is_some_and(|(m, _)| m.ends_with("Async"))
        }
        "identifier" => ctx.text(op).ends_with("Async"),
        "member_access_expression" => {
            field(op, "name").is_some_and(|n| ctx.text(n).ends_with("Async"))
        }
        _ => false,
    }
}
