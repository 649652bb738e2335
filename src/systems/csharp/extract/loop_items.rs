//! Loops that work through items rather than retry one: a `catch` that
//! hands a `foreach` on to its next item, and a `while` whose condition
//! takes a new item off a queue each round.

use super::super::{Ctx, field, method};
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

/// Whether `catch` handles one item of a `foreach` inside `lp`: its `try`
/// is in a `foreach` (within `lp`) and leaves neither that `foreach` nor
/// the function on success (no `return` or `break` in the `try`), so a
/// failure goes on to the next item, as a success does, and is not tried
/// again by `lp`. A `foreach` over hosts whose `try` returns on success
/// is failover inside the retry, and its catch stays.
pub(super) fn per_item(ctx: &Ctx<'_>, catch: Node<'_>, lp: Node<'_>) -> bool {
    let Some(tried) = ctx.parent(catch).and_then(|t| field(t, "body")) else {
        return false;
    };
    let mut cur = ctx.parent(catch);
    let mut inside_foreach = false;
    for _ in 0..super::super::MAX_CLIMB {
        let Some(c) = cur else { break };
        if c.id() == lp.id() {
            break;
        }
        if c.kind_str() == "foreach_statement" {
            inside_foreach = true;
            break;
        }
        cur = ctx.parent(c);
    }
    inside_foreach
        && !ctx
            .subtree(tried)
            .iter()
            .any(|x| matches!(x.kind_str(), "return_statement" | "break_statement"))
}

/// Whether a `while` loop's condition takes the next item of a
/// collection into an `out` variable (`queue.TryDequeue(out var m)`,
/// `TryTake`, `TryRead`, `TryPop`, `TryReceive`): each round works on a
/// new item.
pub(super) fn condition_takes_item(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    if n.kind_str() != "while_statement" {
        return false;
    }
    let Some(c) = field(n, "condition") else {
        return false;
    };
    ctx.subtree(c).iter().any(|x| {
        x.kind_str() == "invocation_expression"
            && method(ctx, *x).is_some_and(|(m, _)| {
                matches!(
                    m,
                    "TryDequeue" | "TryTake" | "TryRead" | "TryPop" | "TryReceive"
                )
            })
            && ctx.text(*x).contains("out ")
    })
}
