//! Two loop shapes that the retry-loop reader tells apart (issue 28):
//! a wait for a state, whose every success exit tests the content of an
//! answer (`if body.get("status") == expected: return`), which is a poll
//! and not a retry; and a drain that puts the item it took back on the
//! queue it drains when the call fails (`item = q.popleft()` .. `except:
//! q.append(item)`), which is a retry of that item.

use super::{Args, Ctx, callee, db_call, field, http_call, named_children, resolve, within};
use crate::systems::python::extract::Kind as _;
use tree_sitter::Node;

/// Whether every exit of the loop `lp` that is not in an `except` (its
/// `return`s and `break`s, `exits`) sits under a test of an answer's
/// content (`status_json.get("status") == expected_status`,
/// `r.json()["state"] == "READY"`, `job.state != "RUNNING"`; not an
/// outcome word, `data["status"] == "success"`): the loop
/// waits for a state and asks at its own pace whether the last request
/// failed or not, so it is a poll (neon `wait_for_compute_status`). A test
/// of the status (`r.status_code == 200`, `r.ok`) or of the answer itself
/// (`if row is not None`) leaves on the call's success: a retry.
pub(super) fn polls_state(ctx: &Ctx<'_>, lp: Node<'_>, exits: &[Node<'_>]) -> bool {
    !exits.is_empty()
        && exits.iter().all(|x| {
            let mut cur = x.parent();
            for _ in 0..64 {
                let Some(c) = cur else { return false };
                if c.id() == lp.id() {
                    return false;
                }
                if matches!(c.kind_str(), "if_statement" | "elif_clause")
                    && field(c, "condition").is_some_and(|k| content_test(ctx, k))
                    // The exit is in the branch the test holds for.
                    && field(c, "consequence").is_some_and(|b| within(*x, b))
                {
                    return true;
                }
                cur = c.parent();
            }
            false
        })
}

/// A comparison (`==`, `!=`, `in`, `not in`) of a value read out of an
/// answer (a subscript, a `.get(..)`, `.json()`, or an attribute named
/// `state`, `status` or `phase`, directly or through a name bound to one)
/// with something other than a number, `None` or a boolean.
fn content_test(ctx: &Ctx<'_>, cond: Node<'_>) -> bool {
    if crate::extract::status_test::holds_for(ctx.text(cond)).is_some() {
        return false;
    }
    ctx.subtree(cond)
        .iter()
        .filter(|c| c.kind_str() == "comparison_operator")
        .any(|c| {
            let ops = named_children(*c);
            let [a, b] = ops.as_slice() else {
                return false;
            };
            if states_listed(ctx, *c, *b) {
                return true;
            }
            let literal = |n: Node<'_>| {
                matches!(
                    resolve(ctx, n).kind_str(),
                    "integer" | "float" | "none" | "true" | "false"
                )
            };
            !literal(*a)
                && !literal(*b)
                && !outcome(ctx, *a)
                && !outcome(ctx, *b)
                && (reads_content(ctx, *a) || reads_content(ctx, *b))
        })
}

/// A membership test in a list of states written out (`status in
/// ("DONE", "FAILED")`, `not in [..]`): string literals, one at least
/// that is no outcome word (a state, not the call's success). What is
/// tested is a state the answer reports, whatever it is bound to.
fn states_listed(ctx: &Ctx<'_>, cmp: Node<'_>, list: Node<'_>) -> bool {
    let membership = (0..cmp.child_count() as u32)
        .filter_map(|i| cmp.child(i))
        .any(|o| !o.is_named() && matches!(o.kind(), "in" | "not in"));
    let list = resolve(ctx, list);
    if !membership || !matches!(list.kind(), "tuple" | "list" | "set") {
        return false;
    }
    let items = named_children(list);
    !items.is_empty()
        && items.len() <= 64
        && items.iter().all(|i| i.kind() == "string")
        && items.iter().any(|i| !outcome(ctx, *i))
}

/// Words an answer uses for the outcome of the one call that returned it
/// (`{"status": "success"}`, `"ok"`, `"error"`): a test of them is a test
/// of the call's success, as `status_code == 200` is, not of a state that
/// changes over time (`"RUNNING"`, `"READY"`, a state the caller names).
/// Decided on the incident write-ups (issue 28): a loop that leaves when
/// the response says `success` retries the call.
const OUTCOME_WORDS: &[&str] = &["success", "successful", "ok", "error", "fail", "failure"];

/// A string literal that is one of [`OUTCOME_WORDS`] (any case).
fn outcome(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    let n = resolve(ctx, n);
    if n.kind_str() != "string" {
        return false;
    }
    // The literal's text without its prefix (`b`, `u`, `r`, `f`) and quotes.
    let t = ctx
        .text(n)
        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .trim_matches(|c| c == '"' || c == '\'');
    OUTCOME_WORDS.iter().any(|w| t.eq_ignore_ascii_case(w))
}

fn reads_content(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    let n = resolve(ctx, n);
    match n.kind_str() {
        "subscript" => true,
        "call" => matches!(callee(ctx, n).1, "get" | "json"),
        "attribute" => field(n, "attribute").is_some_and(|a| {
            matches!(
                ctx.text(a).to_ascii_lowercase().as_str(),
                "state" | "status" | "phase"
            )
        }),
        _ => false,
    }
}

/// Methods that take an item off a queue or list, and that put one on.
const TAKE: &[&str] = &["pop", "popleft", "get", "get_nowait"];
const PUT: &[&str] = &[
    "append",
    "appendleft",
    "put",
    "put_nowait",
    "insert",
    "extend",
];

/// The call in a retried `except` clause that puts back the item the loop
/// took (`activity = outbox.popleft()` in the loop, `outbox.append(activity)`
/// in the clause), with whether it is put back whatever happened (not
/// under an `if` of the clause: then nothing bounds the retries). `own`:
/// the loop's own nodes; `retried`: the `except` clauses that go round.
pub(super) fn requeue<'a>(
    ctx: &Ctx<'a>,
    own: &[Node<'a>],
    retried: &[Node<'a>],
) -> Option<(Node<'a>, bool)> {
    // `v = q.take()` among the loop's own statements: (q, v).
    let taken: Vec<(&str, &str)> = own
        .iter()
        .filter(|s| s.kind_str() == "assignment")
        .filter_map(|s| {
            let (l, r) = (field(*s, "left")?, field(*s, "right")?);
            if l.kind_str() != "identifier" || r.kind_str() != "call" {
                return None;
            }
            let (full, last) = callee(ctx, r);
            let queue = full.strip_suffix(last)?.strip_suffix('.')?;
            TAKE.contains(&last).then_some((queue, ctx.text(l)))
        })
        .collect();
    if taken.is_empty() {
        return None;
    }
    for e in retried {
        for c in ctx.subtree(*e).iter().filter(|c| c.kind_str() == "call") {
            if !own.iter().any(|o| o.id() == c.id()) {
                continue;
            }
            let (full, last) = callee(ctx, *c);
            let Some(queue) = full.strip_suffix(last).and_then(|q| q.strip_suffix('.')) else {
                continue;
            };
            if !PUT.contains(&last) {
                continue;
            }
            let args = Args::of(ctx, *c);
            let item = args.positional.last().map(|a| ctx.text(*a));
            if taken.iter().any(|(q, v)| *q == queue && Some(*v) == item) {
                let always = !ctx
                    .subtree(*e)
                    .iter()
                    .any(|i| matches!(i.kind_str(), "if_statement") && within(*c, *i));
                return Some((*c, always));
            }
        }
    }
    None
}

/// Whether a drain loop's `try` hands the item to something that leaves
/// the process: an HTTP or database call, or a call named for a delivery
/// (`_deliver_with_retry(activity)`, `publish(..)`, `send(..)`). A
/// worklist that defers an item it cannot process yet
/// (`except NotReady: q.append(x)`) is local work, not a retry.
pub(super) fn delivers(ctx: &Ctx<'_>, try_body: Node<'_>) -> bool {
    const WORDS: &[&str] = &[
        "deliver", "send", "post", "publish", "request", "fetch", "upload", "notify", "push",
    ];
    ctx.subtree(try_body).iter().any(|c| {
        c.kind_str() == "call"
            && (http_call(ctx, *c).is_some() || db_call(ctx, *c) || {
                let l = callee(ctx, *c).1.to_ascii_lowercase();
                WORDS.iter().any(|w| l.contains(w))
            })
    })
}
