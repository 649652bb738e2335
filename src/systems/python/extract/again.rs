//! A retry written without a loop: a `try` whose `except` makes the same
//! call once more (`except ConnectionClosed: self.connect();
//! self.channel.basic_publish(..)`), two attempts in all, with the wait of
//! a `sleep` before the second, if any. A `try` inside a loop is the loop
//! reader's.

use super::super::{Ctx, RetryScope, callee, field, named_children, policy, span};
use super::{except_conditions, owner_loop, sleep_delay};
use crate::model::*;
use tree_sitter::Node;

/// The call a statement makes at its top: `f(..)`, `x = f(..)`, `return
/// f(..)`, `await f(..)`.
fn stmt_call(s: Node<'_>) -> Option<Node<'_>> {
    let first = named_children(s).first().copied()?;
    let e = match (s.kind(), first.kind()) {
        ("expression_statement", "assignment") => field(first, "right")?,
        ("expression_statement" | "return_statement", _) => first,
        _ => return None,
    };
    let e = if e.kind() == "await" {
        named_children(e).first().copied()?
    } else {
        e
    };
    (e.kind() == "call").then_some(e)
}

/// A wait for a local process or thread (`proc.wait(timeout=10)`,
/// `proc.communicate()`, `worker.join()`): made again after a kill or a
/// timeout it waits once more for the same local end, nothing remote is
/// tried again.
/// A lock's `acquire(timeout=..)` waits for a local holder too.
pub(super) fn waits_locally(method: &str) -> bool {
    matches!(method, "wait" | "communicate" | "join" | "acquire")
}

/// A message published again (pika's `channel.basic_publish(..)`, AMQP
/// `Basic.Publish`; a client's `.publish(..)`): a `Publish`, which a
/// broker appends once more when the first went through before the
/// connection was lost.
pub(super) fn publish_method(ctx: &Ctx<'_>, call: Node<'_>) -> Option<Methods> {
    let (full, last) = callee(ctx, call);
    // A class's own `_publish` wrapper too (robot-shop's payment).
    (full.contains('.') && matches!(last.trim_start_matches('_'), "basic_publish" | "publish"))
        .then(|| Methods::Set(vec!["Publish".to_string()]))
}

/// Whether a name the call passes is bound again by the statements before
/// it (`file_id = doc.other_id` then `update(file_id, ..)`), or a field of
/// the object whose method it is set (`cl.engagement = eng` then
/// `cl.save()`: DefectDojo's checklist saved as a new row when none is
/// stored): the same call text made with another input, a fallback
/// rather than a retry. The object itself made again (`self.db =
/// connect(..)` then `self.db.insert(..)`) is a reconnection, and the
/// call a retry.
fn argument_rebound(ctx: &Ctx<'_>, call: Node<'_>, before: &[Node<'_>]) -> bool {
    let receiver = field(call, "function")
        .filter(|f| f.kind() == "attribute")
        .and_then(|f| field(f, "object"))
        .map(|o| norm(ctx, o));
    let field_set = |l: Node<'_>| {
        l.kind() == "attribute"
            && receiver.is_some()
            && field(l, "object").map(|o| norm(ctx, o)) == receiver
    };
    if before.iter().any(|s| {
        named_children(*s)
            .first()
            .filter(|a| matches!(a.kind(), "assignment" | "augmented_assignment"))
            .and_then(|a| field(*a, "left"))
            .is_some_and(field_set)
    }) {
        return true;
    }
    let Some(args) = field(call, "arguments") else {
        return false;
    };
    let passed: Vec<&str> = ctx
        .subtree(args)
        .iter()
        .filter(|c| c.kind() == "identifier")
        .map(|c| ctx.text(*c))
        .collect();
    before.iter().any(|s| {
        named_children(*s)
            .first()
            .filter(|a| matches!(a.kind(), "assignment" | "augmented_assignment"))
            .and_then(|a| field(*a, "left"))
            .is_some_and(|l| {
                ctx.subtree(l)
                    .iter()
                    .any(|c| c.kind() == "identifier" && passed.contains(&ctx.text(*c)))
            })
    })
}

/// A call's text without blanks, to compare two writings of one call.
fn norm(ctx: &Ctx<'_>, n: Node<'_>) -> String {
    ctx.text(n).split_whitespace().collect()
}

pub(super) fn extract(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) {
    for &n in &ctx.nodes {
        if n.kind() != "try_statement" || owner_loop(n).is_some() {
            continue;
        }
        let Some(body) = field(n, "body") else {
            continue;
        };
        let tried: Vec<(String, Node<'_>)> = named_children(body)
            .into_iter()
            .filter_map(stmt_call)
            .filter(|c| {
                let (full, last) = callee(ctx, *c);
                let l = last.to_ascii_lowercase();
                full.contains('.')
                    && !l.contains("log")
                    && !l.contains("print")
                    && !waits_locally(&l)
            })
            .map(|c| (norm(ctx, c), c))
            .collect();
        if tried.is_empty() {
            continue;
        }
        for clause in named_children(n)
            .into_iter()
            .filter(|c| c.kind() == "except_clause")
        {
            let Some(block) = named_children(clause)
                .into_iter()
                .find(|c| c.kind() == "block")
            else {
                continue;
            };
            let stmts = named_children(block);
            let Some((i, again)) = stmts.iter().enumerate().find_map(|(i, s)| {
                let c = stmt_call(*s)?;
                let t = norm(ctx, c);
                tried.iter().any(|(x, _)| *x == t).then_some((i, c))
            }) else {
                continue;
            };
            if argument_rebound(ctx, again, &stmts[..i]) {
                continue;
            }
            let sleep = stmts[..i]
                .iter()
                .filter_map(|s| stmt_call(*s))
                .find(|c| callee(ctx, *c).1 == "sleep");
            let at = span(again);
            let mut p = policy(
                "loop",
                at,
                Located::written(
                    Attempts {
                        count: AttemptCount::Finite(2),
                        written_as: format!(
                            "`{}` once more in `except`",
                            super::super::one_line(ctx.text(again))
                        ),
                    },
                    at,
                ),
            );
            p.name = super::super::enclosing_function(ctx, n)
                .map(|(f, _)| format!("retry in except in {f}"));
            let (delay, jitter) = match sleep {
                None => (Delay::None, Jitter::None),
                Some(s) => sleep_delay(ctx, s, None, None),
            };
            let dspan = sleep.map_or(at, span);
            p.delay = Located::written(delay, dspan);
            p.jitter = Located::written(jitter, dspan);
            p.retry_on = except_conditions(ctx, &[clause]);
            if let Some(m) = publish_method(ctx, again) {
                p.methods = Located::written(m, at);
                // A publish on a blocked connection waits as long as pika's
                // `blocked_connection_timeout` lets it.
                p.per_try_timeout = super::super::libs::pika::blocked_publish_timeout(ctx);
            }
            facts.policies.push(p);
            scopes.push(RetryScope {
                policy: facts.policies.len() - 1,
                start: n.start_byte(),
                end: n.end_byte(),
                per_call: true,
            });
            break;
        }
    }
}
