//! Retries driven by a result, with no `try`: a loop counting retries
//! calls an operation again until its result says it worked
//! (`for (i < retryTimes) { r = store.flush(); if (r != CANNOT_FLUSH)
//! return r; }`, `while (retries-- > 0) { if (nn.complete(f)) return; }`).
//!
//! Taken only when the loop's condition names a retry count (a name with
//! `retr`, `attempt` or `tries`): without one a loop re-calling something
//! may be a poll, a walk or a compare-and-set. A call that reads a state
//! (`isDone()`, `getState()`, `checkX()`), tries a lock or is handed the
//! counter is not re-attempting an operation; nor is one made on a target
//! the loop takes anew each pass (the next file after a full one) or with
//! inputs read again after a failed pass (an optimistic update).

use super::*;

/// Names of calls that read a state or take a lock rather than attempt an
/// operation.
pub(super) fn reads_state(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    [
        "is",
        "has",
        "get",
        "check",
        "can",
        "contains",
        "exists",
        "poll",
        "peek",
        "wait",
        "await",
        "read",
        "try",
        "compareandset",
        "offer",
        "find",
        "lookup",
        "size",
        "equals",
        // Queries of a state (`fetchReplicationSlotInfo`, `queryStatus`,
        // `describeCluster`): a `null` or "not ready" answer means the state
        // is not there yet, a wait (seatunnel PostgresConnection); the
        // query's own errors propagate.
        "fetch",
        "query",
        "select",
        "describe",
        "list",
    ]
    .iter()
    .any(|p| l.starts_with(p))
        || is_sleep_name(name)
}

fn counts_retries(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.contains("retr") || l.contains("attempt") || l.contains("tries") || l.contains("trytime")
}

/// The call a test reads: the call itself (`if (nn.complete(f))`), or the
/// call a local of the body took its value from before the test
/// (`r = store.flush(); if (r != CANNOT_FLUSH)`).
fn tested_call<'a>(ctx: &Ctx<'a>, cond: Node<'a>, before: &[Node<'a>]) -> Option<Node<'a>> {
    let cond = ast::unwrap_expr(cond);
    if cond.kind_str() == "method_invocation" {
        return Some(cond);
    }
    // A flag holding the call's result (`boolean ok = queue.put(..); if (ok)`).
    if cond.kind_str() == "identifier" {
        return assigned_call(ctx, ctx.text(cond), before);
    }
    if cond.kind_str() != "binary_expression"
        || field(cond, "operator").is_none_or(|o| !matches!(ctx.text(o), "==" | "!="))
    {
        return None;
    }
    let var = [field(cond, "left"), field(cond, "right")]
        .into_iter()
        .flatten()
        .map(ast::unwrap_expr)
        .find(|x| x.kind_str() == "identifier")?;
    assigned_call(ctx, ctx.text(var), before)
}

/// A test of the outcome an operation returned into a local: the local
/// itself (`Boolean r = op(..).get(3, s); if (r)`) or its success test
/// (`Status s = cli.addPeer(..); if (s.isOk())`), where the call is an
/// operation, not a state read (`Status s = api.status(id); if
/// (s.done())` polls a state; a future's `get`/`join` stands for the call
/// that made the future).
pub(super) fn operation_outcome<'a>(ctx: &Ctx<'a>, cond: Node<'a>, stmts: &[Node<'a>]) -> bool {
    let cond = ast::unwrap_expr(cond);
    let local = match cond.kind_str() {
        "identifier" => cond,
        "method_invocation" => {
            let succeeds = field(cond, "name").is_some_and(|n| {
                let l = ctx.text(n).to_ascii_lowercase();
                matches!(l.as_str(), "ok" | "isok") || l.contains("succe")
            });
            match field(cond, "object") {
                Some(o) if succeeds && o.kind_str() == "identifier" => o,
                _ => return false,
            }
        }
        _ => return false,
    };
    let Some(mut call) = assigned_call(ctx, ctx.text(local), stmts) else {
        return false;
    };
    for _ in 0..4 {
        let name = field(call, "name").map_or("", |n| ctx.text(n));
        match field(call, "object").map(ast::unwrap_expr) {
            Some(o) if matches!(name, "get" | "join") && o.kind_str() == "method_invocation" => {
                call = o
            }
            _ => return !reads_state(name),
        }
    }
    false
}

/// The call whose result the local `name` last took among `before`.
fn assigned_call<'a>(ctx: &Ctx<'a>, name: &str, before: &[Node<'a>]) -> Option<Node<'a>> {
    before.iter().rev().find_map(|s| {
        let (l, r) = match s.kind_str() {
            "local_variable_declaration" => ctx
                .named_children(*s)
                .into_iter()
                .find(|d| d.kind_str() == "variable_declarator")
                .map(|d| (field(d, "name"), field(d, "value")))?,
            "expression_statement" => {
                let e = ctx.named_children(*s).first().copied()?;
                if e.kind_str() != "assignment_expression" {
                    return None;
                }
                (field(e, "left"), field(e, "right"))
            }
            _ => return None,
        };
        let r = ast::unwrap_expr(r?);
        (l.is_some_and(|l| ctx.text(l) == name) && r.kind_str() == "method_invocation").then_some(r)
    })
}

/// A call that attempts an operation, not one that reads a state: a flag
/// taken from it under `while (!success)` is success (`success =
/// file.moveAndClose(..)`), but `success = op.checkForCompletion()` or
/// `done = job.isFinished()` polls.
pub(super) fn attempts_operation(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    call.kind_str() == "method_invocation"
        && field(call, "name").is_none_or(|n| {
            let name = ctx.text(n);
            !["check", "is", "has", "await", "wait", "poll"]
                .iter()
                .any(|p| {
                    name.strip_prefix(p).is_some_and(|r| {
                        r.is_empty() || r.starts_with(|c: char| c.is_ascii_uppercase())
                    })
                })
        })
}

/// Why a loop with no `try` that counts retries is not one, when that is
/// worth a note: the call its exit tests is a method of this class reading
/// a state (a comparison of fields, a flag, a getter of one).
pub(super) fn why_not(ctx: &Ctx<'_>, lp: Node<'_>, body: Node<'_>) -> Option<&'static str> {
    let cond = field(lp, "condition")?;
    let counted = ctx
        .descendants(cond)
        .into_iter()
        .any(|d| d.kind_str() == "identifier" && counts_retries(ctx.text(d)));
    if !counted {
        return None;
    }
    let stmts = statements(body);
    stmts.iter().enumerate().find_map(|(i, s)| {
        let c = field(*s, "condition").filter(|_| s.kind_str() == "if_statement")?;
        let call = tested_call(ctx, c, &stmts[..i])?;
        helpers::tests_state(ctx, call).then_some(
            "a wait for a state: the loop counts its passes, but leaves when a method of this class that reads a state (a comparison of fields, a flag or its getter: `return this.log.isComplete();`) says it is reached; no operation is tried again",
        )
    })
}

pub(super) fn retry(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    body: Node<'_>,
    own: &[Node<'_>],
) -> Option<RetryPolicy> {
    let cond = field(lp, "condition")?;
    let idents: Vec<&str> = ctx
        .descendants(cond)
        .into_iter()
        .filter(|d| d.kind_str() == "identifier")
        .map(|d| ctx.text(d))
        .collect();
    // `do { sleep; retryTimes++; } while (!start());`: the attempt is the
    // condition, and the body counts retries (or waits and says it
    // retries: `while (!client.connect()) { log("retrying"); sleep(..); }`).
    if matches!(lp.kind_str(), "do_statement" | "while_statement")
        && let Some(p) = until_success(ctx, lp, body, own, cond)
    {
        return Some(p);
    }
    // `do { resp = client.send(..); } while (resp.statusCode() >= 500 &&
    // attempt++ < 3);`: the condition tests the response's status.
    if matches!(lp.kind_str(), "do_statement" | "while_statement")
        && let Some(p) = status_condition(ctx, lp, body, own, cond)
    {
        return Some(p);
    }
    let counts = idents.iter().any(|i| counts_retries(i));
    // Variables the loop steps: a call handed one asks for something else.
    let stepped: Vec<&str> = ctx
        .descendants(lp)
        .into_iter()
        .filter(|d| d.kind_str() == "update_expression")
        .filter_map(|d| ctx.named_children(d).first().map(|i| ctx.text(*i)))
        .collect();
    let stmts = statements(body);
    let (at, test, call) = stmts.iter().enumerate().find_map(|(i, s)| {
        if s.kind_str() != "if_statement" {
            return None;
        }
        // An `else` is the failure path: it must go round.
        let other_leaves = field(*s, "alternative").is_some_and(|a| {
            ctx.descendants_until(a, nested).into_iter().any(|x| {
                matches!(
                    x.kind_str(),
                    "return_statement" | "break_statement" | "throw_statement"
                )
            })
        });
        if other_leaves {
            return None;
        }
        let leaves = field(*s, "consequence").is_some_and(|b| {
            statements(b)
                .iter()
                .any(|x| matches!(x.kind_str(), "return_statement" | "break_statement"))
        });
        if !leaves {
            return None;
        }
        let c = field(*s, "condition")?;
        let call = tested_call(ctx, c, &stmts[..i])?;
        Some((i, c, call))
    })?;
    // A result compared with the value its call returns on failure
    // (`size = seg.getSize(); if (size != GET_FILE_SIZE_ERROR) return
    // size;`): the call failed, whatever its name says, and the loop
    // retries it with or without a count.
    let sentinel = fails_unless(ctx, test);
    // A result compared with a final state (`status == TableStatus.ACTIVE`):
    // a wait for the state, not a failed call tried again.
    if final_state(ctx, test) {
        return None;
    }
    // The tested call stays in the process (`oldDir.renameTo(newDir)` on a
    // `java.io.File`): local work, not a remote call.
    if super::reach::call_stays_local(ctx, call) {
        return None;
    }
    if !counts && !sentinel {
        return None;
    }
    let name = field(call, "name").map_or("", |n| ctx.text(n));
    if (reads_state(name) || helpers::tests_state(ctx, call)) && !sentinel {
        return None;
    }
    let handed_step = field(call, "arguments").is_some_and(|a| {
        ctx.descendants(a)
            .into_iter()
            .any(|x| x.kind_str() == "identifier" && stepped.contains(&ctx.text(x)))
    });
    if handed_step {
        return None;
    }
    // The same target: the receiver of the tested call is not chosen anew
    // in the loop (`segment = segments.last()`, then `segment =
    // segments.create()` when it is full: a full file rolled over). A
    // handle made the same way once each pass (`tx = redis.multi()`, an
    // optimistic transaction) is the same call tried again (issue 28,
    // Square 2017).
    let assigned_in_loop = |name: &str| {
        own.iter()
            .filter(|d| match d.kind_str() {
                "variable_declarator" => field(**d, "name").is_some_and(|n| ctx.text(n) == name),
                "assignment_expression" => field(**d, "left").is_some_and(|l| ctx.text(l) == name),
                _ => false,
            })
            .count()
    };
    if field(call, "object").is_some_and(|o| {
        o.kind_str() == "identifier" && {
            let n = assigned_in_loop(ctx.text(o));
            n > 1 || (n == 1 && !made_each_pass(ctx, &stmts, ctx.text(o)))
        }
    }) {
        return None;
    }
    // The same inputs: nothing the attempt reads is assigned again after
    // the test (an optimistic update re-reads the state and applies the
    // changes to it: `props = store.read(key)`).
    let reassigned: Vec<&str> = stmts[at + 1..]
        .iter()
        .flat_map(|s| ctx.descendants_until(*s, nested))
        .filter(|d| d.kind_str() == "assignment_expression")
        .filter_map(|d| field(d, "left"))
        .filter(|l| l.kind_str() == "identifier")
        .map(|l| ctx.text(l))
        .collect();
    let reads_reassigned = stmts[..=at].iter().any(|s| {
        ctx.descendants_until(*s, nested)
            .into_iter()
            .any(|d| d.kind_str() == "identifier" && reassigned.contains(&ctx.text(d)))
    });
    if reads_reassigned {
        return None;
    }
    let (counter, _) = header_counter(ctx, lp);
    if counter.is_some_and(|c| indexes_with(ctx, own, &c)) {
        return None;
    }
    let p = policy(ctx, lp, body, own, cond, call, test);
    // Without a retry counter, only a loop that waits between passes.
    if !counts && matches!(p.delay.value, Delay::None | Delay::Unknown) {
        return None;
    }
    Some(p)
}

/// `x != SOME_ERROR` (or `!= ..FAIL..`): a test that the result is not the
/// value the call returns on failure.
fn fails_unless(ctx: &Ctx<'_>, test: Node<'_>) -> bool {
    let t = ast::unwrap_expr(test);
    t.kind_str() == "binary_expression"
        && field(t, "operator").is_some_and(|o| ctx.text(o) == "!=")
        && [field(t, "left"), field(t, "right")]
            .into_iter()
            .flatten()
            .map(|x| ctx.text(ast::unwrap_expr(x)))
            .any(|x| {
                let last = x.rsplit('.').next().unwrap_or(x);
                last.chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
                    && (last.contains("ERROR") || last.contains("FAIL"))
            })
}

/// `do { .. } while (!attempt());` (or `while (!attempt()) { .. }`) in a
/// loop whose body counts retries, or waits between passes and says it
/// retries (the Java form of Rust's `while let Err(e) = op() { sleep }`).
/// A call that reads a state (`isReady()`, `tryLock()`, `awaitX(..)`) or
/// is handed arguments (`offer(x)`, `await(1, s)`) is a poll, not an
/// attempt.
fn until_success(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    body: Node<'_>,
    own: &[Node<'_>],
    cond: Node<'_>,
) -> Option<RetryPolicy> {
    let c = ast::unwrap_expr(cond);
    if c.kind_str() != "unary_expression" || !ctx.text(c).starts_with('!') {
        return None;
    }
    let call = ctx
        .named_children(c)
        .first()
        .map(|x| ast::unwrap_expr(*x))?;
    if call.kind_str() != "method_invocation" {
        return None;
    }
    let name = field(call, "name").map_or("", |n| ctx.text(n));
    if reads_state(name)
        || helpers::tests_state(ctx, call)
        || field(call, "arguments").is_some_and(|a| !ctx.named_children(a).is_empty())
    {
        return None;
    }
    let counts = own
        .iter()
        .any(|d| d.kind_str() == "identifier" && counts_retries(ctx.text(*d)));
    let says_retry = {
        let t = ctx.text(lp).to_ascii_lowercase();
        ["retr", "attempt", "again", "tries"]
            .iter()
            .any(|w| t.contains(w))
    };
    if !counts && !says_retry {
        return None;
    }
    let mut p = policy(ctx, lp, body, own, cond, call, c);
    // Without a retry counter, only a loop that waits between passes.
    if !counts && matches!(p.delay.value, Delay::None | Delay::Unknown) {
        return None;
    }
    // Nothing in the body leaves: only success ends the loop.
    let leaves = own.iter().any(|d| {
        matches!(
            d.kind_str(),
            "return_statement" | "break_statement" | "throw_statement"
        )
    });
    if !leaves && matches!(p.attempts.value.count, AttemptCount::Unknown) {
        p.attempts = Located::written(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: ctx.text(cond).to_string(),
            },
            span(cond),
        );
    }
    Some(p)
}

fn policy(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    body: Node<'_>,
    own: &[Node<'_>],
    cond: Node<'_>,
    call: Node<'_>,
    test: Node<'_>,
) -> RetryPolicy {
    let name = field(call, "name").map_or("", |n| ctx.text(n));
    let trimmed = head(ctx, lp, body, Some(cond));
    let attempts = bound(ctx, lp, own, trimmed);
    let mut p = RetryPolicy::new(System::JavaLoop, trimmed, attempts);
    p.name = ctx.enclosing_method(lp).map(|(_, m)| m);
    let (delay, jitter) = wait(ctx, lp, own, trimmed);
    p.delay = delay;
    p.jitter = jitter;
    p.retry_on = Located::written(
        RetryOn::Listed {
            conditions: vec![Located::written(Condition::Predicate, span(test))],
        },
        span(test),
    );
    p.methods = crate::extract::http_method::of_call(ctx.src, span(call))
        .unwrap_or_else(|| Located::default_at(Methods::Unknown, trimmed));
    p.why = vec![
        format!(
            "no `try`: the result of `{name}` is tested (`{}`), success leaves the loop and any other result goes round",
            ctx.text(test)
        ),
        bound_why(&p),
    ];
    p
}

/// `name` is declared or assigned by one of the body's own statements (not
/// under an `if`), from a call with no arguments on a receiver the loop
/// does not change (`Transaction tx = redis.multi();`): a fresh handle on
/// the same target each pass. A collection's element (`segments.last()`,
/// `queue.peek()`) is a target chosen anew: not this.
fn made_each_pass(ctx: &Ctx<'_>, stmts: &[Node<'_>], name: &str) -> bool {
    stmts.iter().any(|s| {
        let value = match s.kind_str() {
            "local_variable_declaration" => ctx
                .named_children(*s)
                .into_iter()
                .find(|d| d.kind_str() == "variable_declarator")
                .filter(|d| field(*d, "name").is_some_and(|n| ctx.text(n) == name))
                .and_then(|d| field(d, "value")),
            "expression_statement" => ctx
                .named_children(*s)
                .first()
                .filter(|e| e.kind_str() == "assignment_expression")
                .filter(|e| field(**e, "left").is_some_and(|l| ctx.text(l) == name))
                .and_then(|e| field(*e, "right")),
            _ => None,
        };
        value.map(ast::unwrap_expr).is_some_and(|v| {
            v.kind_str() == "method_invocation"
                && field(v, "arguments").is_some_and(|a| ctx.named_children(a).is_empty())
                && field(v, "name").is_some_and(|n| {
                    let n = ctx.text(n).to_ascii_lowercase();
                    ![
                        "last", "first", "peek", "poll", "next", "current", "get", "take", "pop",
                        "head", "tail",
                    ]
                    .iter()
                    .any(|w| n.starts_with(w))
                })
        })
    })
}

/// A loop whose own condition tests the status of a response the body
/// takes (`do { resp = client.send(..); } while (resp.statusCode() >= 500
/// && attempt++ < 3);`): the failure statuses it holds for go round, any
/// other leaves (issue 28). A state compared with a constant
/// (`job.state() == RUNNING`) is not a response status: not this.
fn status_condition(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    body: Node<'_>,
    own: &[Node<'_>],
    cond: Node<'_>,
) -> Option<RetryPolicy> {
    use crate::extract::status_test::{self, Test};
    let holds = status_test::holds_for(ctx.text(cond))?;
    let parts = status_test::retried(&[Test {
        holds,
        then_round: true,
        else_round: Some(false),
        at: span(cond),
    }]);
    if parts.is_empty() {
        return None;
    }
    let stmts = statements(body);
    let call = ctx
        .descendants(cond)
        .into_iter()
        .filter(|d| d.kind_str() == "identifier")
        .find_map(|d| assigned_call(ctx, ctx.text(d), &stmts))?;
    let mut p = policy(ctx, lp, body, own, cond, call, cond);
    p.retry_on = Located::written(
        RetryOn::Listed {
            conditions: status_test::conditions_at(&parts),
        },
        span(cond),
    );
    let name = field(call, "name").map_or("", |n| ctx.text(n));
    p.why[0] = format!(
        "no `try`: the loop's condition tests the status of `{name}`'s response (`{}`), and those statuses send it again",
        ctx.text(cond)
    );
    // Nothing in the body leaves and nothing counts: only another status
    // ends the loop.
    let leaves = own.iter().any(|d| {
        matches!(
            d.kind_str(),
            "return_statement" | "break_statement" | "throw_statement"
        )
    });
    if !leaves
        && matches!(p.attempts.value.count, AttemptCount::Unknown)
        && status_test::holds_for(ctx.text(cond)).is_some()
        && !ctx.text(cond).contains("&&")
    {
        p.attempts = Located::written(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: ctx.text(cond).to_string(),
            },
            span(cond),
        );
    }
    Some(p)
}

/// A test against a constant naming a state the waiter wants (`status ==
/// TableStatus.ACTIVE`, `state != State.READY`).
fn final_state(ctx: &Ctx<'_>, test: Node<'_>) -> bool {
    const STATES: &[&str] = &[
        "ACTIVE",
        "READY",
        "RUNNING",
        "AVAILABLE",
        "COMPLETED",
        "COMPLETE",
        "FINISHED",
        "DONE",
        "HEALTHY",
        "ONLINE",
        "STARTED",
        "STOPPED",
        "TERMINATED",
        "DELETED",
        "CREATED",
        "ENABLED",
        "DISABLED",
        "IN_SERVICE",
    ];
    let test = ast::unwrap_expr(test);
    test.kind_str() == "binary_expression"
        && field(test, "operator").is_some_and(|o| matches!(ctx.text(o), "==" | "!="))
        && [field(test, "left"), field(test, "right")]
            .into_iter()
            .flatten()
            .any(|x| {
                let x = ast::unwrap_expr(x);
                let name = match x.kind_str() {
                    "field_access" => field(x, "field").map_or("", |f| ctx.text(f)),
                    "identifier" => ctx.text(x),
                    _ => "",
                };
                STATES.contains(&name)
            })
}
