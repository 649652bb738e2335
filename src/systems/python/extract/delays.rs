//! A retry loop over a list of waits: `for delay in RETRY_DELAYS:` or
//! `for attempt, delay in enumerate(RETRY_DELAYS, 1):`, where the list is
//! a tuple or list of numbers written in the file (`RETRY_DELAYS = (1, 2,
//! 4)`) and the loop sleeps the element (issue 28, nanobot's
//! `_CHAT_RETRY_DELAYS`). One attempt per element, and one more when the
//! statement after the loop makes the call the loop tries again (the
//! last try, with no wait after it).

use super::eval::{self, resolve};
use super::{Args, Ctx, callee, field, named_children};
use crate::model::*;
use crate::systems::python::extract::Kind as _;
use std::time::Duration;
use tree_sitter::Node;

/// Lists longer than this are data, not waits.
const MAX_WAITS: usize = 32;

/// The waits a `for` loop goes over: the loop variable that holds the
/// wait, and the waits in seconds.
pub(super) struct Waits<'a> {
    pub var: &'a str,
    pub secs: Vec<f64>,
}

/// The list of waits `for_stmt` goes over, if it is one.
pub(super) fn waits<'a>(ctx: &Ctx<'a>, for_stmt: Node<'a>) -> Option<Waits<'a>> {
    let right = field(for_stmt, "right")?;
    let left = field(for_stmt, "left")?;
    let (list, var) = if right.kind_str() == "call" && callee(ctx, right).0 == "enumerate" {
        // `for i, delay in enumerate(DELAYS)`: the second name.
        let names = named_children(left);
        let [_, v] = names.as_slice() else {
            return None;
        };
        (Args::of(ctx, right).positional.first().copied()?, *v)
    } else {
        (right, left)
    };
    if var.kind_str() != "identifier" {
        return None;
    }
    let list = resolve(ctx, list);
    if !matches!(list.kind_str(), "tuple" | "list") {
        return None;
    }
    let items = named_children(list);
    if items.is_empty() || items.len() > MAX_WAITS {
        return None;
    }
    let secs: Option<Vec<f64>> = items
        .iter()
        .map(|i| eval::number(ctx, *i).filter(|v| v.is_finite() && *v >= 0.0))
        .collect();
    Some(Waits {
        var: ctx.text(var),
        secs: secs?,
    })
}

/// Whether `sleep` waits the loop's element (`sleep(delay)`).
pub(super) fn sleeps_element(ctx: &Ctx<'_>, sleep: Node<'_>, w: &Waits<'_>) -> bool {
    Args::of(ctx, sleep)
        .positional
        .first()
        .is_some_and(|a| ctx.text(*a) == w.var)
}

/// The delay the listed waits make: fixed when all are equal,
/// exponential when each is the one before times one factor, else a
/// schedule this model does not name.
pub(super) fn delay(w: &Waits<'_>) -> Delay {
    let s = &w.secs;
    let secs = |v: f64| Duration::from_secs_f64(v.clamp(0.0, 1e12));
    if s.iter().all(|v| *v == s[0]) {
        return Delay::Fixed { delay: secs(s[0]) };
    }
    if s.len() >= 2 && s[0] > 0.0 {
        let r = s[1] / s[0];
        if r > 1.0 && s.windows(2).all(|p| (p[1] - p[0] * r).abs() < 1e-9) {
            return Delay::Exponential {
                base: secs(s[0]),
                multiplier: r,
                cap: None,
            };
        }
    }
    Delay::Custom
}

/// Whether the statement after the loop makes a call the loop's `try`
/// makes (`return await self.chat(**kw)` after a loop trying
/// `self.chat(**kw)`): a last attempt.
pub(super) fn last_try_after(ctx: &Ctx<'_>, for_stmt: Node<'_>, try_body: Node<'_>) -> bool {
    let Some(next) = for_stmt.next_named_sibling() else {
        return false;
    };
    let tried: Vec<&str> = ctx
        .subtree(try_body)
        .iter()
        .filter(|c| c.kind_str() == "call")
        .map(|c| callee(ctx, *c).0)
        .collect();
    ctx.subtree(next)
        .iter()
        .filter(|c| c.kind_str() == "call")
        .any(|c| tried.contains(&callee(ctx, *c).0))
}

/// The attempts of a loop over `w`.
pub(super) fn attempts(w: &Waits<'_>, last_try: bool) -> AttemptCount {
    AttemptCount::Finite(w.secs.len() as u64 + u64::from(last_try))
}
