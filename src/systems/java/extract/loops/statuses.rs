//! The response statuses a Java retry loop retries (issue 28): a status
//! tested in the loop whose branch goes round (`continue`, or a `throw`
//! that a retrying `catch` of the loop's `try` takes), or every failure
//! status that no leaving test catches (`if (code == 200) return body;`
//! inside the `try`: a 404 goes round like an exception). Read with
//! [`crate::extract::status_test`].

use super::super::ast::{self, field, span};
use super::{Ctx, nested};
use crate::extract::grpc_code_test::codes as grpc_codes;
use crate::extract::status_test::{self, Statuses, Test};
use crate::model::{Condition, Located};
use crate::source::Span;
use crate::systems::java::extract::ast::Kind as _;
use tree_sitter::Node;

/// The statuses the loop retries and where the first test is written.
pub(super) fn retried(
    ctx: &Ctx<'_>,
    own: &[Node<'_>],
    try_node: Node<'_>,
    retrying: &[Node<'_>],
) -> Vec<(Statuses, Span)> {
    let caught: Vec<String> = retrying
        .iter()
        .flat_map(|c| super::catch_types(ctx, *c))
        .map(|(t, _)| ast::last_segment(&t).to_string())
        .collect();
    let Some(block) = field(try_node, "body") else {
        return Vec::new();
    };
    let mut tests = Vec::new();
    for &n in own {
        let gated = goes_round(ctx, n)
            && retrying
                .iter()
                .any(|c| ast::within(n, *c) && gated_catch(ctx, *c));
        if n.kind_str() != "if_statement" || (in_catch(n) && !gated) {
            continue;
        }
        let Some(cond) = field(n, "condition") else {
            continue;
        };
        let Some(holds) = status_test::holds_for(ctx.text(cond)) else {
            continue;
        };
        // In a catch that leaves after the test: the tested statuses go
        // round, the others leave with the rethrow.
        if gated {
            tests.push(Test {
                holds,
                then_round: true,
                else_round: Some(false),
                at: span(cond),
            });
            continue;
        }
        let in_try = ast::within(n, block);
        let round = |b: Node<'_>| !leaves(ctx, b, in_try, &caught);
        let Some(then) = field(n, "consequence") else {
            continue;
        };
        tests.push(Test {
            holds,
            then_round: round(then),
            else_round: field(n, "alternative").map(round),
            at: span(cond),
        });
    }
    status_test::retried(&tests)
}

/// An `if` whose branch goes round (a `continue` of its own).
fn goes_round(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    n.kind_str() == "if_statement"
        && field(n, "consequence").is_some_and(|b| {
            b.kind_str() == "continue_statement"
                || ctx
                    .descendants_until(b, nested)
                    .iter()
                    .any(|s| s.kind_str() == "continue_statement")
        })
}

/// A catch clause that ends by leaving (`throw e;`) but goes round for
/// the response statuses an `if` of its own tests (`if
/// (e.getStatusCode().value() == 429) { continue; }`,
/// `WebClientResponseException`, `FeignException.status()`).
pub(super) fn gated_catch(ctx: &Ctx<'_>, c: Node<'_>) -> bool {
    let Some(body) = field(c, "body") else {
        return false;
    };
    let last_leaves = ctx
        .named_children(body)
        .last()
        .is_some_and(|l| super::helpers::leaves(ctx, *l));
    last_leaves
        && ctx.descendants_until(body, nested).iter().any(|n| {
            goes_round(ctx, *n)
                && field(*n, "condition").is_some_and(|k| {
                    status_test::holds_for(ctx.text(k)).is_some()
                        || grpc_codes(ctx.text(k)).is_some()
                })
        })
}

/// The gRPC codes a gated catch goes round for (`catch
/// (StatusRuntimeException e) { if (e.getStatus().getCode() ==
/// Status.Code.UNAVAILABLE) continue; throw e; }`; issue 28, App Engine
/// 2016), each at its test.
pub(super) fn grpc_retried(ctx: &Ctx<'_>, retrying: &[Node<'_>]) -> Vec<Located<Condition>> {
    let mut out = Vec::new();
    for c in retrying.iter().filter(|c| gated_catch(ctx, **c)) {
        let Some(body) = field(*c, "body") else {
            continue;
        };
        for n in ctx.descendants_until(body, nested) {
            let Some(cond) = field(n, "condition").filter(|_| goes_round(ctx, n)) else {
                continue;
            };
            for code in grpc_codes(ctx.text(cond)).unwrap_or_default() {
                out.push(Located::written(Condition::Grpc(code), span(cond)));
            }
        }
    }
    out
}

/// Whether a node lies in a `catch` clause (before its loop or method).
fn in_catch(n: Node<'_>) -> bool {
    let mut cur = n.parent();
    for _ in 0..ast::MAX_DEPTH {
        let Some(c) = cur else { return false };
        if c.kind_str() == "catch_clause" {
            return true;
        }
        if nested(c) {
            return false;
        }
        cur = c.parent();
    }
    false
}

/// Whether the branch `b` leaves the loop: a `return` or `break` of its
/// own, or a `throw` that no retrying catch takes (a throw in the `try`
/// of a type a retrying catch names, or one of `Exception`/`Throwable`,
/// goes round), and no `continue` (`if (attempt < max) { continue; }
/// throw ..;` goes round until the count runs out).
fn leaves(ctx: &Ctx<'_>, b: Node<'_>, in_try: bool, caught: &[String]) -> bool {
    let mut nodes = vec![b];
    nodes.extend(ctx.descendants_until(b, nested));
    if nodes.iter().any(|s| s.kind_str() == "continue_statement") {
        return false;
    }
    nodes.iter().any(|s| match s.kind_str() {
        "return_statement" | "break_statement" => true,
        "throw_statement" => {
            if !in_try {
                return true;
            }
            let thrown = ctx
                .named_children(*s)
                .first()
                .filter(|e| e.kind_str() == "object_creation_expression")
                .and_then(|e| field(*e, "type"))
                .map(|t| ast::last_segment(ctx.text(t)).to_string());
            !caught.iter().any(|c| {
                matches!(c.as_str(), "Exception" | "Throwable")
                    || thrown.as_deref().is_some_and(|t| {
                        t == c || (c != "RuntimeException" && t.ends_with(c.as_str()))
                    })
                    || (c == "RuntimeException"
                        && thrown.as_deref().is_some_and(|t| !t.contains("IO")))
            })
        }
        _ => false,
    })
}
