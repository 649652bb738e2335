//! What ends a retry loop by the clock: an `if` that reads the clock (in
//! its condition, or through names bound to a clock test before it:
//! `elapsed = monotonic() - start`, `expired = elapsed >= timeout`, `if
//! expired and ..: raise`) and leaves; or a cancel scope around the loop
//! (`with anyio.move_on_after(20):`, `anyio.fail_after(..)`, `async with
//! asyncio.timeout(..)`, `async with timeout(..)`), which ends it from
//! outside when the time is up.

use super::super::{Ctx, callee, field, named_children};
use tree_sitter::Node;

/// Calls that read the clock, as their text reads.
const CLOCK: &[&str] = &[
    "monotonic()",
    "time.time()",
    "perf_counter()",
    "datetime.now(",
    "utcnow(",
    "timezone.now(",
    "loop.time()",
];

/// How many names deep a clock test is followed.
const MAX_NAMES: usize = 3;

/// An `if` that reads the clock and leaves the loop (`if time.monotonic()
/// - start > wait_for: raise ..`, `if time.time() > deadline: break`,
/// `sys.exit(..)`, `if expired: ..` with `expired` bound to a clock test).
pub(super) fn clock_leaves(ctx: &Ctx<'_>, c: Node<'_>) -> bool {
    if c.kind() != "if_statement" {
        return false;
    }
    let Some(cond) = field(c, "condition") else {
        return false;
    };
    reads_clock(ctx, cond, 0)
        && field(c, "consequence").is_some_and(|b| {
            ctx.subtree(b).iter().take(1_024).any(|n| {
                matches!(
                    n.kind(),
                    "raise_statement" | "return_statement" | "break_statement"
                ) || (n.kind() == "call" && matches!(callee(ctx, *n).1, "exit" | "_exit"))
            })
        })
}

/// Whether an expression reads the clock, itself or through the names it
/// uses (each followed to the value bound to it before, [`MAX_NAMES`]
/// deep).
fn reads_clock(ctx: &Ctx<'_>, e: Node<'_>, depth: usize) -> bool {
    let text = ctx.text(e);
    if CLOCK.iter().any(|w| text.contains(w)) {
        return true;
    }
    if depth >= MAX_NAMES {
        return false;
    }
    ctx.subtree(e)
        .iter()
        .filter(|n| n.kind() == "identifier")
        .take(16)
        .any(|n| {
            ctx.binding(ctx.text(*n), n.start_byte())
                .is_some_and(|v| v.id() != n.id() && reads_clock(ctx, v, depth + 1))
        })
}

/// Context managers that cancel what runs inside them when the time is up
/// (anyio `move_on_after`/`fail_after`/`move_on_at`/`fail_at`, trio's of
/// the same names, asyncio `timeout`/`timeout_at` (3.11), `async_timeout
/// .timeout`).
const CANCEL_SCOPES: &[&str] = &[
    "move_on_after",
    "fail_after",
    "move_on_at",
    "fail_at",
    "timeout",
    "timeout_at",
];

/// Whether the loop `lp` runs inside a `with` of a cancel scope, in its
/// own function.
pub(super) fn cancel_scope(ctx: &Ctx<'_>, lp: Node<'_>) -> bool {
    std::iter::successors(lp.parent(), |p| p.parent())
        .take(64)
        .take_while(|p| !matches!(p.kind(), "function_definition" | "class_definition"))
        .filter(|p| p.kind() == "with_statement")
        .any(|w| {
            named_children(w)
                .into_iter()
                .filter(|c| c.kind() == "with_clause")
                .flat_map(named_children)
                .filter_map(|item| field(item, "value"))
                .any(|v| v.kind() == "call" && CANCEL_SCOPES.contains(&callee(ctx, v).1))
        })
}
