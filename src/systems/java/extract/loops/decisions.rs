//! A catch's retry decision: the failure handed to a retry policy
//! (`retryPolicy.shouldRetry(e, ..)`) or told to a retryer whose answer is
//! unused (Feign's `retryer.continueOrPropagate(e)`).

use super::helpers::call_of;
use super::*;

/// Whether a catch clause hands what it caught to a retry decision
/// (`retryPolicy.shouldRetry(e, ++attempts, 0, true)`): the policy sorts
/// the failures, the catch does not retry every one.
pub(super) fn asks_policy(ctx: &Ctx<'_>, catch: Node<'_>) -> bool {
    let Some(param) = ctx
        .named_children(catch)
        .into_iter()
        .find(|p| p.kind_str() == "catch_formal_parameter")
        .and_then(|p| field(p, "name"))
        .map(|n| ctx.text(n))
    else {
        return false;
    };
    let Some(body) = field(catch, "body") else {
        return false;
    };
    // The caught exception, or a variable the catch stores it in
    // (`throwable = e; shouldRetry = shouldRetry(ref, throwable)`).
    let mut names = vec![param];
    for d in ctx.descendants_until(body, nested) {
        if d.kind_str() == "assignment_expression"
            && field(d, "right").is_some_and(|r| ctx.text(ast::unwrap_expr(r)) == param)
            && let Some(l) = field(d, "left").filter(|l| l.kind_str() == "identifier")
        {
            names.push(ctx.text(l));
        }
        // Or a local made from it (`Exception cause = unwrap(e);`, x-pipe's
        // `RetryNTimes`, sixteenth pass).
        if d.kind_str() == "variable_declarator"
            && field(d, "value").is_some_and(|v| {
                ctx.descendants(v)
                    .into_iter()
                    .any(|x| x.kind_str() == "identifier" && ctx.text(x) == param)
            })
            && let Some(n) = field(d, "name")
        {
            names.push(ctx.text(n));
        }
    }
    ctx.descendants_until(body, nested).into_iter().any(|d| {
        d.kind_str() == "method_invocation"
            && (field(d, "name").is_some_and(|n| {
                let l = ctx.text(n).to_ascii_lowercase();
                l.contains("retr") && !l.contains("log")
            })
            // Or a method of a retry object (`lockRetryController.sleep(e)`),
            // or of a pluggable handler: a variable of an interface this file
            // declares, supplied by its creator (`errorHandler.onError(desc,
            // t)`; debezium's `MongoDbConnection.ErrorHandler`, whose
            // implementations throw, twenty-sixth pass).
            || field(d, "object").is_some_and(|o| {
                o.kind_str() == "identifier"
                    && (ctx.text(o).to_ascii_lowercase().contains("retr")
                        || pluggable(ctx, o))
            }))
            && field(d, "arguments").is_some_and(|a| {
                ctx.named_children(a)
                    .into_iter()
                    .any(|x| x.kind_str() == "identifier" && names.contains(&ctx.text(x)))
            })
    })
}

/// A variable whose type is an interface declared in this file (a
/// strategy its creator hands in).
fn pluggable(ctx: &Ctx<'_>, o: Node<'_>) -> bool {
    let Some(v) = ctx.var(ctx.text(o), o) else {
        return false;
    };
    let ty = ast::last_segment(v.ty.split('<').next().unwrap_or(v.ty).trim());
    !ty.is_empty()
        && ctx.nodes.iter().any(|n| {
            n.kind_str() == "interface_declaration"
                && field(*n, "name").is_some_and(|x| ctx.text(x) == ty)
        })
}

/// A statement of the catch telling a retry object of the failure, its
/// answer unused (`retryer.continueOrPropagate(e)`, Feign's `Retryer`
/// contract: it sleeps before the next attempt or throws once they are
/// spent). A decision whose answer is tested (`if (policy.shouldRetry(e))`)
/// is no wait.
pub(super) fn tells_retryer<'a>(ctx: &Ctx<'_>, catch: Node<'a>) -> Option<Node<'a>> {
    let param = ctx
        .named_children(catch)
        .into_iter()
        .find(|p| p.kind_str() == "catch_formal_parameter")
        .and_then(|p| field(p, "name"))
        .map(|n| ctx.text(n))?;
    statements(field(catch, "body")?)
        .into_iter()
        .filter_map(call_of)
        .find(|c| {
            field(*c, "object").is_some_and(|o| {
                o.kind_str() == "identifier" && ctx.text(o).to_ascii_lowercase().contains("retr")
            }) && field(*c, "arguments").is_some_and(|a| {
                ctx.named_children(a)
                    .into_iter()
                    .any(|x| x.kind_str() == "identifier" && ctx.text(x) == param)
            })
        })
}
