//! A loop with no condition bounded by a counter it tests in an `if` that
//! leaves: `for attempt := 1; ; attempt++ { .. if attempt >= max { break }
//! }`, `tries := 0; for { tries++; .. if err != nil && tries >= 3 { return
//! err } }`. dapr d845074 `pkg/actors/targets/workflow/activity/drive.go`
//! (`if driveCtx.Err() != nil || attempt >= localDriveMaxAttempts {
//! break }`) was reported as retrying without a limit.

use super::super::eval;
use super::super::{Ctx, field, named_children, one_line};
use super::walk::last_statement;
use crate::model::AttemptCount;
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// The attempts a counter test of the loop `lp` (head `head`, own nodes
/// `own`, in source order) allows, with the test as written: `None` when
/// no `if` of the loop leaves on a counter the loop steps. A counter whose
/// first value is not written before the loop bounds it by a number not
/// known here ([`AttemptCount::Unknown`]).
pub fn counted(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    head: Option<Node<'_>>,
    own: &[Node<'_>],
) -> Option<(AttemptCount, String)> {
    for (i, &c) in own.iter().enumerate() {
        if c.kind_name() != "if_statement" {
            continue;
        }
        let leaves = field(c, "consequence")
            .and_then(last_statement)
            .is_some_and(|s| matches!(s.kind_name(), "return_statement" | "break_statement"));
        let Some(cond) = field(c, "condition").filter(|_| leaves) else {
            continue;
        };
        let mut tests = Vec::new();
        terms(cond, &mut tests, 0);
        for t in tests {
            let Some((var, limit, op)) = comparison(ctx, t) else {
                continue;
            };
            // Counting up (`attempt >= max`) or down (`retry--; if retry
            // == 0 { break }`, vmware-tanzu/velero d30d389b5's manager
            // start, 10 attempts).
            let (stepped_before, down) = match op {
                ">=" | ">" => (stepped(ctx, var, head, own, c, false), false),
                "<=" | "<" => (stepped(ctx, var, head, own, c, true), true),
                _ => match stepped(ctx, var, head, own, c, false) {
                    Some(b) => (Some(b), false),
                    None => (stepped(ctx, var, head, own, c, true), true),
                },
            };
            let Some(stepped_before) = stepped_before else {
                continue;
            };
            let written = format!("if {} {{ .. }}", one_line(ctx.text(cond)));
            let Some(first) = first_value(ctx, var, lp, head) else {
                return Some((AttemptCount::Unknown, written));
            };
            // The value the counter has at the k-th test: `first + k` when
            // it is stepped before the test in the body, `first + k - 1`
            // when after (the `for` clause's own step, or later in the
            // body). The loop stops at the first k that passes.
            let reach = match op {
                ">" => limit.saturating_add(1),
                "<" => limit.saturating_sub(1),
                _ => limit,
            };
            // How far the counter goes before the test passes.
            let span = if down {
                first.saturating_sub(reach)
            } else {
                reach.saturating_sub(first)
            };
            let mut k = if stepped_before {
                span
            } else {
                span.saturating_add(1)
            };
            // A test before any call of the pass stops the loop before
            // that pass's try.
            let call_before = own[..i].iter().any(|n| n.kind_name() == "call_expression");
            if !call_before {
                k = k.saturating_sub(1);
            }
            return Some((AttemptCount::Finite(k.max(1)), written));
        }
    }
    None
}

/// The comparisons joined by `||` and `&&` in `cond` (through
/// parentheses), at most 16 deep.
fn terms<'t>(cond: Node<'t>, out: &mut Vec<Node<'t>>, depth: usize) {
    if depth > 16 {
        return;
    }
    match cond.kind_name() {
        "parenthesized_expression" => {
            if let Some(inner) = named_children(cond).first() {
                terms(*inner, out, depth + 1);
            }
        }
        "binary_expression" => {
            let op = cond
                .child_by_field_name("operator")
                .map(|o| o.kind_name())
                .unwrap_or("");
            if op == "||" || op == "&&" {
                for side in ["left", "right"] {
                    if let Some(s) = field(cond, side) {
                        terms(s, out, depth + 1);
                    }
                }
            } else {
                out.push(cond);
            }
        }
        _ => {}
    }
}

/// `attempt >= max`, `tries > 3`, `n == limit`: the counter, the limit and
/// the operator.
fn comparison<'a>(ctx: &Ctx<'a>, t: Node<'_>) -> Option<(&'a str, u64, &'a str)> {
    let op = ctx.text(field(t, "operator")?);
    if !matches!(op, ">=" | ">" | "==" | "<=" | "<") {
        return None;
    }
    let l = field(t, "left")
        .filter(|l| matches!(l.kind_name(), "identifier" | "selector_expression"))?;
    let limit = eval::count(ctx, field(t, "right")?)?;
    Some((ctx.text(l), limit, op))
}

/// Whether the loop steps `var` (`var++`, `var += 1` in its own code or
/// its `for` clause's update; `var--`, `var -= 1` when `down`):
/// `Some(true)` when a step in the body comes before the test `test`,
/// `Some(false)` when the step comes after it.
fn stepped(
    ctx: &Ctx<'_>,
    var: &str,
    head: Option<Node<'_>>,
    own: &[Node<'_>],
    test: Node<'_>,
    down: bool,
) -> Option<bool> {
    let (step, by) = if down {
        ("dec_statement", "-=")
    } else {
        ("inc_statement", "+=")
    };
    let steps = |n: Node<'_>| match n.kind_name() {
        k if k == step => named_children(n)
            .first()
            .is_some_and(|v| ctx.text(*v) == var),
        "assignment_statement" => {
            field(n, "operator").is_some_and(|o| ctx.text(o) == by)
                && field(n, "left").is_some_and(|l| ctx.text(l) == var)
        }
        _ => false,
    };
    if let Some(s) = own.iter().find(|n| steps(**n)) {
        return Some(s.start_byte() < test.start_byte());
    }
    let update = head
        .filter(|h| h.kind_name() == "for_clause")
        .and_then(|h| field(h, "update"))?;
    steps(update).then_some(false)
}

/// The counter's first value: the `for` clause's initializer, or the
/// last `var := n` / `var = n` / `var n = ..` among the 32 statements
/// before the loop in its block.
fn first_value(ctx: &Ctx<'_>, var: &str, lp: Node<'_>, head: Option<Node<'_>>) -> Option<u64> {
    let init = |n: Node<'_>| -> Option<u64> {
        match n.kind_name() {
            "short_var_declaration" | "assignment_statement" => {
                if n.kind_name() == "assignment_statement"
                    && field(n, "operator").is_none_or(|o| ctx.text(o) != "=")
                {
                    return None;
                }
                let l = field(n, "left")?;
                let r = field(n, "right")?;
                let (l, r) = (named_children(l), named_children(r));
                let at = l.iter().position(|x| ctx.text(*x) == var)?;
                eval::count(ctx, *r.get(at)?)
            }
            "var_declaration" => {
                let spec = named_children(n)
                    .into_iter()
                    .find(|s| s.kind_name() == "var_spec")?;
                let name = field(spec, "name")?;
                if ctx.text(name) != var {
                    return None;
                }
                match field(spec, "value") {
                    Some(v) => eval::count(ctx, *named_children(v).first()?),
                    // `var attempt int`: Go's zero value.
                    None => Some(0),
                }
            }
            _ => None,
        }
    };
    if let Some(i) = head
        .filter(|h| h.kind_name() == "for_clause")
        .and_then(|h| field(h, "initializer"))
    {
        return init(i);
    }
    std::iter::successors(lp.prev_named_sibling(), |s| s.prev_named_sibling())
        .take(32)
        .find_map(init)
}
