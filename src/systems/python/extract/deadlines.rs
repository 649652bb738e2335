//! What ends a retry loop by the clock: an `if` that reads the clock (in
//! its condition, or through names bound to a clock test before it:
//! `elapsed = monotonic() - start`, `expired = elapsed >= timeout`, `if
//! expired and ..: raise`) and leaves; or a cancel scope around the loop
//! (`with anyio.move_on_after(20):`, `anyio.fail_after(..)`, `async with
//! asyncio.timeout(..)`, `async with timeout(..)`), which ends it from
//! outside when the time is up.

use super::super::Kind as _;
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
    if c.kind_str() != "if_statement" {
        return false;
    }
    let Some(cond) = field(c, "condition") else {
        return false;
    };
    reads_clock(ctx, cond, 0)
        && field(c, "consequence").is_some_and(|b| {
            ctx.subtree(b).iter().take(1_024).any(|n| {
                matches!(
                    n.kind_str(),
                    "raise_statement" | "return_statement" | "break_statement"
                ) || (n.kind_str() == "call" && matches!(callee(ctx, *n).1, "exit" | "_exit"))
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
        .filter(|n| n.kind_str() == "identifier")
        .take(16)
        .any(|n| {
            ctx.binding(ctx.text(*n), n.start_byte())
                .is_some_and(|v| v.id() != n.id() && reads_clock(ctx, v, depth + 1))
        })
}

/// Context managers that cancel their block when a time runs out: anyio's
/// and trio's `move_on_after`/`move_on_at`/`fail_after`/`fail_at`,
/// asyncio's `timeout`/`timeout_at` (Python 3.11) and `async_timeout`'s
/// `timeout`.
const CANCEL_SCOPES: &[&str] = &[
    "move_on_after",
    "move_on_at",
    "fail_after",
    "fail_at",
    "timeout",
    "timeout_at",
];

/// Whether the loop `lp` runs inside a `with` (or `async with`) of a
/// cancel scope in its own function (`with anyio.move_on_after(20): while
/// True: ..`): the scope ends the loop when its time is up. A scope given
/// `None` (`asyncio.timeout(None)`, no deadline) does not count.
pub(super) fn in_scope(ctx: &Ctx<'_>, lp: Node<'_>) -> bool {
    let mut cur = lp.parent();
    for _ in 0..64 {
        let Some(c) = cur else { return false };
        match c.kind_str() {
            "function_definition" | "lambda" | "class_definition" => return false,
            "with_statement" if cancels(ctx, c) => return true,
            _ => {}
        }
        cur = c.parent();
    }
    false
}

/// Whether a `with` statement enters a cancel scope with a time.
fn cancels(ctx: &Ctx<'_>, with: Node<'_>) -> bool {
    named_children(with)
        .into_iter()
        .filter(|c| c.kind_str() == "with_clause")
        .flat_map(named_children)
        .filter(|i| i.kind_str() == "with_item")
        .filter_map(|i| field(i, "value"))
        // `with fail_after(5) as scope:`
        .map(|v| {
            if v.kind_str() == "as_pattern" {
                named_children(v).first().copied().unwrap_or(v)
            } else {
                v
            }
        })
        .any(|v| {
            v.kind_str() == "call"
                && CANCEL_SCOPES.contains(&callee(ctx, v).1)
                && field(v, "arguments")
                    .and_then(|a| named_children(a).first().copied())
                    .is_some_and(|a| ctx.text(a) != "None" && !ctx.text(a).ends_with("=None"))
        })
}
