//! Hand-written retry loops: a `for`/`while`/`do` whose body calls
//! something inside a `try`, leaves the loop when the call succeeds, and on
//! a caught exception goes round again.
//!
//! What makes a loop a retry (all of them):
//! - it is not an enhanced `for`, and its condition does not walk a
//!   collection (`.size()`, `.length`, `hasNext()`), nor does its body index
//!   by the counter;
//! - a `try` in its body (not in a nested loop, lambda or class) calls a
//!   method other than a sleep;
//! - the success path leaves the loop unconditionally: a `return` or
//!   `break` among the try block's own statements, a flag the condition
//!   tests set there, or `continue` in the catch with a `return`/`break`
//!   right after the `try`;
//! - at least one catch clause goes round again (does not end in `throw`,
//!   `return` or `break`) and catches something other than
//!   `InterruptedException` alone.
//!
//! A polling loop (success tested with an `if`), a worker loop (`while
//! (running)` without a success exit), and a loop over items are none of
//! these. The bound is read from the counter compared to a limit (in the
//! condition, or an `if` that leaves the loop), `Integer.MAX_VALUE` and
//! `while (true)` without a counted exit are unbounded; the wait from
//! `Thread.sleep`, `TimeUnit.X.sleep`, `LockSupport.parkNanos`,
//! `wait(timeout)` or a call named like sleep/pause/backoff; growth from a
//! variable multiplied or shifted in the loop, `Math.pow` or `<<`;
//! randomness from `Random`, `ThreadLocalRandom` or `Math.random`.

use super::ast::{self, field, span};
use super::{Ctx, Out, RetryScope};
use crate::extract::Facts;
use crate::model::backoff::ServerDelay;
use crate::model::*;
use crate::source::Span;
use crate::systems::java::extract::ast::Kind as _;
use std::time::Duration;
use tree_sitter::Node;

mod bounds;
mod catches;
pub mod classes;
mod decisions;
mod helpers;
mod moves;
mod reach;
mod remote;
mod result;
mod shape;
mod statuses;
mod test_module;
mod wait;
use bounds::{bound, conjuncts};
use catches::{catch_types, compares_with_null, outcome_test_leaves, retried_types};
use moves::follows_next;
use shape::{bound_why, head, header_counter, indexes_with};
pub use test_module::test_module;
use wait::{takes_lock, wait, waits_for_result};

const LOOPS: &[&str] = &[
    "for_statement",
    "while_statement",
    "do_statement",
    "enhanced_for_statement",
];

/// Nodes whose insides belong to someone else.
pub(super) fn nested(n: Node<'_>) -> bool {
    LOOPS.contains(&n.kind_str())
        || matches!(
            n.kind_str(),
            "lambda_expression" | "class_body" | "method_declaration" | "constructor_declaration"
        )
}

fn own_nodes<'n>(ctx: &Ctx<'n>, body: Node<'n>) -> Vec<Node<'n>> {
    ctx.descendants_until(body, nested)
}

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    if test_source(ctx) {
        return;
    }
    for &n in &ctx.nodes {
        if !matches!(
            n.kind_str(),
            "for_statement" | "while_statement" | "do_statement"
        ) {
            continue;
        }
        // Unknown is not remote: the attempt must show that it leaves the
        // process (`remote.rs`), here or, for the project's own types it
        // calls, in their files (the link step, `unproven`).
        let mut unproven = false;
        let read = retry_loop(ctx, n).and_then(|mut p| match remote::evidence(ctx, n) {
            Some(ev) => {
                p.why
                    .push(format!("what goes round reaches something remote: {ev}"));
                Ok(p)
            }
            None if classes::calls_project_types(ctx, n) => {
                unproven = true;
                Ok(p)
            }
            None => Err(Some(NO_REMOTE)),
        });
        match read {
            Ok(mut p) => {
                // A wait read from `Retry-After` in the loop (RL208).
                if let Some(body) = field(n, "body")
                    && let Some((s, e, d)) =
                        ServerDelay::in_source(ctx.text(body), "a hand-written loop")
                {
                    let b = body.start_byte();
                    p.server_delay = Some(Located::written(d, Span::new(b + s, b + e)));
                }
                let idx = facts.policies.len();
                facts.policies.push(p);
                facts
                    .java
                    .open_loops
                    .extend(classes::open_loop(ctx, n, idx, unproven));
                if let Some(body) = field(n, "body") {
                    out.scopes.push(RetryScope { body, policy: idx });
                }
            }
            Err(Some(why)) => {
                let head = match (n.kind_str(), field(n, "body")) {
                    ("do_statement", _) | (_, None) => {
                        Span::new(n.start_byte(), n.start_byte() + 2)
                    }
                    (_, Some(b)) => Span::new(n.start_byte(), b.start_byte()),
                };
                let text = ctx.src.get(head.start..head.end).unwrap_or("");
                facts.loops_not_taken.push(LoopNote {
                    span: Span::new(head.start, head.start + text.trim_end().len()),
                    reasons: vec![why.to_string()],
                });
            }
            Err(None) => {}
        }
    }
}

/// The reason a loop read as a retry is not taken when nothing in it
/// shows a remote attempt.
pub const NO_REMOTE: &str = "no remote attempt: nothing the loop attempts shows that it leaves the process (no client, connection, session, stub, channel or socket, no type of a network, RPC, storage or messaging package, no remote operation such as `connect` or `send`, no URL or host, no remote failure caught); a call on the project's own types is not enough";

/// Test code: a file importing a test framework, or in a test package
/// (`org.apache.zookeeper.test.system`, `...common.test`). Its waits serve
/// tests, not service code.
fn test_source(ctx: &Ctx<'_>) -> bool {
    const FRAMEWORKS: &[&str] = &[
        "org.junit",
        "org.testng",
        "org.mockito",
        "org.assertj",
        "org.hamcrest",
    ];
    // Or the project's own test utilities (`org.apache.ozone.test.GenericTestUtils`).
    if ctx.imports.iter().any(|i| {
        FRAMEWORKS.iter().any(|f| i.starts_with(f))
            || i.split('.')
                .any(|seg| matches!(seg, "test" | "testing" | "testutil"))
    }) {
        return true;
    }
    let package = ctx
        .src
        .lines()
        .map(str::trim_start)
        .find_map(|l| l.strip_prefix("package "))
        .unwrap_or("");
    package
        .trim_end_matches(|c: char| c == ';' || c.is_whitespace())
        .split('.')
        .any(|seg| matches!(seg, "test" | "tests" | "testing" | "testutil" | "testutils"))
}

/// The statements of a block (or the statement itself).
fn statements(n: Node<'_>) -> Vec<Node<'_>> {
    if n.kind_str() == "block" {
        ast::named_children(n)
    } else {
        vec![n]
    }
}

pub(super) fn is_sleep_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.contains("sleep")
        || l.contains("pause")
        || l.contains("backoff")
        // A retry object's wait (`retry.waitForNextAttempt(..)`).
        || l.starts_with("waitfornext")
        || l == "parknanos"
        || l == "wait"
        // A wait under another name (`timedWait(interval, unit)`, a
        // pauser's `idle()`).
        || l.starts_with("timedwait")
        || l == "idle"
}

/// A method named for waiting until a state: `waitUntilTableReady`,
/// `waitForServiceReady`; not a retry's wait (`waitForNextAttempt`,
/// `waitForRetry`, `waitForBackoff`).
fn waits_for_state(method: &str) -> bool {
    let l = method.to_ascii_lowercase();
    (l.starts_with("waituntil") || l.starts_with("waitfor") || l.starts_with("awaituntil"))
        && !["retr", "next", "backoff", "attempt"]
            .iter()
            .any(|w| l.contains(w))
}

/// Identifiers mentioned in a node.
fn mentions(ctx: &Ctx<'_>, n: Node<'_>, name: &str) -> bool {
    ctx.descendants(n)
        .into_iter()
        .any(|d| d.kind_str() == "identifier" && ctx.text(d) == name)
}

struct Try<'a> {
    node: Node<'a>,
    retrying: Vec<Node<'a>>,
    exiting: Vec<Node<'a>>,
    /// How success leaves the loop, for the reasons.
    exit: &'static str,
}

/// Read one loop. Not a retry loop: `Err(None)` when it has no `try` of
/// its own (not worth a note), `Err(Some(why))` when it has one.
fn retry_loop(ctx: &Ctx<'_>, lp: Node<'_>) -> Result<RetryPolicy, Option<&'static str>> {
    let body = field(lp, "body").ok_or(None)?;
    let own = own_nodes(ctx, body);
    if !own.iter().any(|t| {
        matches!(
            t.kind_str(),
            "try_statement" | "try_with_resources_statement"
        )
    }) {
        return result::retry(ctx, lp, body, &own).ok_or_else(|| result::why_not(ctx, lp, body));
    }
    let cond = field(lp, "condition");
    let cond_text = cond.map_or("", |c| ctx.text(c));
    if [
        ".size()",
        ".length",
        "hasNext",
        "isEmpty()",
        "hasMoreElements",
        ".next(",
    ]
    .iter()
    .any(|w| cond_text.contains(w))
    {
        return Err(Some(
            "a walk over a collection: its condition asks for a size, a length or the next element",
        ));
    }
    // A walk up a chain (`while (parent != null)`).
    if cond.is_some_and(|c| {
        conjuncts(ctx, c)
            .iter()
            .any(|p| compares_with_null(ctx, *p))
    }) {
        return Err(Some(
            "a walk along a chain: its condition compares with `null`",
        ));
    }
    // Iterating: the body takes the next element itself.
    if own.iter().any(|d| {
        d.kind_str() == "method_invocation"
            && field(*d, "name").is_some_and(|n| {
                let n = ctx.text(n);
                matches!(
                    n,
                    "next" | "hasNext" | "nextElement" | "hasMoreElements" | "poll" | "take"
                ) || n.starts_with("getNext")
                    // The next host, node or server (`proxy.nextHost()`):
                    // failover; a back-off's next delay is no such call.
                    || (n.starts_with("next")
                        && ["host", "node", "server", "address", "endpoint", "peer", "broker", "replica"]
                            .iter()
                            .any(|w| n.to_ascii_lowercase().contains(w)))
            })
    }) {
        return Err(Some(
            "iteration: the body takes the next element (`next()`, `poll()`, `take()`)",
        ));
    }
    let cond_idents: Vec<&str> = cond
        .map(|c| {
            ctx.descendants(c)
                .into_iter()
                .filter(|d| d.kind_str() == "identifier")
                .map(|d| ctx.text(d))
                .collect()
        })
        .unwrap_or_default();
    // Scanning ports (`++candidatePort` before the try): each pass tries
    // another one.
    // Or a loop over a port range (`i <= portRangeEnd`), each pass binding
    // another port (apache/gravitino RESTUtils.findAvailablePort).
    // (Also stepped by a compound assignment: `listener.setPort(oriPort +=
    // 1)`, apache/tajo HttpServer, sixteenth pass.)
    if own.iter().any(|d| {
        let stepped = d.kind_str() == "update_expression"
            || (d.kind_str() == "assignment_expression"
                && field(*d, "operator").is_some_and(|o| matches!(ctx.text(o), "+=" | "-=")));
        stepped && ctx.text(*d).to_ascii_lowercase().contains("port")
    }) || cond_text.to_ascii_lowercase().contains("port")
    {
        return Err(Some("a scan over ports: each pass tries the next one"));
    }
    // A method named for waiting until a state (`waitUntilTableReady`,
    // `waitForReady`) that asks again under a time cap: a poll for a
    // remote state, its wait the poll's period (alibaba/DataX `OTSHelper`,
    // sixteenth pass). Unbounded, it is read as a retry loop.
    if ctx
        .enclosing_method(lp)
        .is_some_and(|(_, m)| waits_for_state(&m))
        && (cond.is_some_and(|c| bounds::clock_test(ctx, c))
            || own.iter().any(|d| {
                d.kind_str() == "if_statement"
                    && field(*d, "condition").is_some_and(|c| bounds::clock_test(ctx, c))
            }))
    {
        return Err(Some(
            "a poll for a state: the method is named for waiting until one (`waitUntil..`, `waitFor..`) and asks again under a time cap",
        ));
    }
    // A prompt: each pass asks the user for new input (credentials), the
    // next call is handed what the user answers (apache/lens).
    if own.iter().any(|d| moves::prompts_user(ctx, *d)) {
        return Err(Some(
            "a prompt: each pass asks the user for new input (credentials, a line from the console), it repeats no failed call",
        ));
    }
    let body_stmts = statements(body);
    let mut found: Option<Try<'_>> = None;
    let mut calling_try = false;
    let mut why_not = "no `try` in the body calls something other than a sleep";
    for &t in &own {
        if !matches!(
            t.kind_str(),
            "try_statement" | "try_with_resources_statement"
        ) {
            continue;
        }
        let Some(block) = field(t, "body") else {
            continue;
        };
        // Something other than a sleep is called.
        let calls = ctx
            .descendants_until(block, nested)
            .into_iter()
            .filter(|d| d.kind_str() == "method_invocation")
            .any(|d| field(d, "name").is_some_and(|x| !is_sleep_name(ctx.text(x))));
        if !calls {
            continue;
        }
        calling_try = true;
        let mut retrying = Vec::new();
        let mut exiting = Vec::new();
        for c in ctx
            .named_children(t)
            .into_iter()
            .filter(|c| c.kind_str() == "catch_clause")
        {
            let cb = field(c, "body");
            let last = cb.and_then(|b| ctx.named_children(b).last().copied());
            let types = catch_types(ctx, c);
            let only_interrupt = !types.is_empty()
                && types.iter().all(|(t, _)| {
                    // (`ClosedByInterruptException`: a channel closed
                    // because this thread was interrupted, not a failure)
                    matches!(
                        ast::last_segment(t),
                        "InterruptedException" | "ClosedByInterruptException"
                    )
                });
            // `catch (HttpClientErrorException e) { if (status == 429)
            // continue; throw e; }`: the failures of the tested statuses go
            // round, the rest leave (issue 28).
            if !only_interrupt && statuses::gated_catch(ctx, c) {
                retrying.push(c);
            } else if last
                .is_some_and(|l| helpers::leaves(ctx, l) || catches::continues_outer(ctx, l, lp))
                || only_interrupt
                || catches::round_only_on_interrupt(ctx, c)
                || catches::ends_by_flag(ctx, c, cond_text)
            {
                exiting.push(c);
            } else {
                retrying.push(c);
            }
        }
        if retrying.is_empty() {
            why_not = "every catch leaves the loop (`throw`, `return`, `break`) or only an interruption of this thread goes round (`InterruptedException`): no failure goes round";
            continue;
        }
        // A catch that logs in again before going round repairs; the
        // loop is a retry only of what its other catches send round.
        retrying.retain(|c| !moves::authenticates_again(ctx, *c));
        if retrying.is_empty() {
            why_not = "a repair: only an authentication failure goes round, after logging in or out again";
            continue;
        }
        if retrying.iter().all(|c| catches::race_only(ctx, *c)) {
            why_not = "a race with another thread or writer: only a local state exception (`IndexOutOfBoundsException`, `IllegalAccessException`..) or a duplicate key goes round, and the next pass reads anew";
            continue;
        }
        if retrying.iter().all(|c| helpers::local_only(ctx, *c))
            || helpers::loads_native(ctx, block)
            || field(t, "resources").is_some_and(|r| helpers::loads_native(ctx, r))
            || helpers::only_parses(ctx, block)
        {
            why_not = "local work: only a failure of the local file system (`NoSuchFileException`..), of an embedded store (`RocksDBException`), of reflection, of a buffer or of this process's thread pool (`RejectedExecutionException`) goes round, or the try loads a native library, binds a local port or only parses what was read: no remote call failed";
            continue;
        }
        if reach::stays_local(ctx, block) {
            why_not = "local work: every call the try makes stays in the process (the local disk through `java.io.File` or `java.nio.file`, a local process, reflection, parsing, in-memory values); a call that can leave (a remote client, or a type the file does not show) is what a retry loop retries";
            continue;
        }
        // Waiting for a result (`future.get(100, MILLISECONDS)` with
        // `TimeoutException` going round) or for a lock (`lockFile.lock()`,
        // a locker's statement) is a wait for a state, not a retry.
        // Success decided by an `await..` with a timeout (`if
        // (executor.awaitTermination(100, ms)) return;`): waiting for a state.
        let awaits = statements(block).iter().any(|s| {
            s.kind_str() == "if_statement"
                && field(*s, "condition").is_some_and(|c| {
                    let c = ast::unwrap_expr(c);
                    c.kind_str() == "method_invocation"
                        && field(c, "name").is_some_and(|n| ctx.text(n).starts_with("await"))
                })
        });
        let local = wait::connects_locally(ctx, block)
            || wait::polls_started_server(ctx, lp, block)
            || retrying
                .iter()
                .all(|c| helpers::waits_for_creation(ctx, *c));
        if awaits
            || local
            || waits_for_result(ctx, block, &retrying)
            || takes_lock(ctx, block)
            || wait::waits_on_same(ctx, lp, block)
        {
            why_not = "a wait for a state: the try waits on a result with a timeout (only `TimeoutException` goes round, success is an `await..` answering true, or the future or object waited on was made before the loop), takes a lock, connects to this host (`localhost`) or to a server the method started before the loop";
            continue;
        }
        // Following a referral or redirect, or failing over to the next
        // candidate, is not trying the same call again.
        if retrying.iter().any(|c| follows_next(ctx, *c, block)) {
            why_not = "each pass tries something else: a referral or redirect, failover to another node or port, a changed input, a fallback (a setting switched off or a scope dropped: `tenantId = null` before the call is handed it) or a repair (a missing parent created)";
            continue;
        }
        if moves::walks_items(ctx, block, header_counter(ctx, lp).0.as_deref()) {
            why_not = "a walk over items: the `for` counter is handed to the call, or the try returns the next record, so each pass asks for another one";
            continue;
        }
        // A scan: the call is handed an offset or page the loop advances by
        // what the last read returned (`offset += result.lastReadOffset`).
        if moves::advances_input(ctx, &own, block) {
            why_not = "a scan: the call is handed an offset or page the loop advances by what the last read returned, so each pass reads on";
            continue;
        }
        // A `synchronized` block's statements run in order with the
        // try block's own (a `break` at its end leaves on success).
        let block_stmts: Vec<Node<'_>> = statements(block)
            .into_iter()
            .flat_map(|s| match (s.kind_str(), field(s, "body")) {
                ("synchronized_statement", Some(b)) => statements(b),
                _ => vec![s],
            })
            .collect();
        // Locals the try block declares (`Status s = api.status(id);`): a
        // test of one (`if (s.done())`) polls a state the call returned.
        let locals: Vec<&str> = block_stmts
            .iter()
            .filter(|s| s.kind_str() == "local_variable_declaration")
            .flat_map(|s| ctx.named_children(*s))
            .filter(|d| d.kind_str() == "variable_declarator")
            .filter_map(|d| field(d, "name").map(|n| ctx.text(n)))
            .collect();
        // A `return`/`break` among the try block's statements, or under an
        // `if` on the call itself (`if (namenode.complete(..)) return;`):
        // a false result goes round like a failure.
        let direct_exit = block_stmts.iter().any(|s| {
            matches!(s.kind_str(), "return_statement" | "break_statement")
                || helpers::leaves_on_success(ctx, *s)
                || (s.kind_str() == "if_statement"
                    && field(*s, "alternative").is_none()
                    && field(*s, "condition").is_some_and(|c| {
                        // A test of the response's status
                        // (`if (resp.statusCode() == 200) return ..`).
                        if crate::extract::status_test::holds_for(ctx.text(c)).is_some() {
                            return true;
                        }
                        // The outcome a local kept (`Status s = cli.addPeer(..);
                        // if (s.isOk())`, `Boolean r = op().get(..); if (r)`).
                        if result::operation_outcome(ctx, c, &block_stmts) {
                            return true;
                        }
                        let c = ast::unwrap_expr(c);
                        // The call's own answer tested for presence
                        // (`node = cluster.getForObject(..); if (node !=
                        // null) return node;`): an absent answer goes round
                        // like a failure (issue 28, EBS 2011).
                        if helpers::answer_present(ctx, c, &block_stmts) {
                            return true;
                        }
                        c.kind_str() == "method_invocation"
                            && field(c, "name").is_some_and(|n| {
                                !is_sleep_name(ctx.text(n)) && !result::reads_state(ctx.text(n))
                            })
                            && field(c, "object").is_none_or(|o| !locals.contains(&ctx.text(o)))
                            // A method of this class testing fields: a state.
                            && !helpers::tests_state(ctx, c)
                    })
                    && field(*s, "consequence").is_some_and(|b| {
                        statements(b)
                            .iter()
                            .any(|x| matches!(x.kind_str(), "return_statement" | "break_statement"))
                    }))
        });
        let flag_exit = block_stmts.iter().any(|s| {
            s.kind_str() == "expression_statement"
                && ctx.named_children(*s).first().is_some_and(|e| {
                    e.kind_str() == "assignment_expression"
                        && field(*e, "left").is_some_and(|l| cond_idents.contains(&ctx.text(l)))
                        && field(*e, "right").is_some_and(|r| {
                            // `done = true`, or a flag from the call's
                            // result (`success = file.moveAndClose(..)`
                            // under `!success`).
                            matches!(ctx.text(r), "true" | "false")
                                || (result::attempts_operation(ctx, ast::unwrap_expr(r))
                                    && field(*e, "operator").is_some_and(|o| ctx.text(o) == "=")
                                    && field(*e, "left").is_some_and(|l| {
                                        catches::negated_flag(cond_text, ctx.text(l))
                                    }))
                        })
                })
        });
        let after_exit = retrying.iter().any(|c| {
            field(*c, "body")
                .and_then(|b| ctx.named_children(b).last().copied())
                .is_some_and(|l| l.kind_str() == "continue_statement")
        }) && body_stmts
            .iter()
            .position(|s| s.id() == t.id())
            .is_some_and(|i| {
                // (or at any depth after the `try`, `if (ok) { break; }`
                // under the tests of the answer, in a loop counting
                // retries: a consumer's `if (stop) break;` is no success)
                let counted = {
                    let l = cond_text.to_ascii_lowercase();
                    ["retr", "attempt", "tries"].iter().any(|w| l.contains(w))
                };
                body_stmts[i + 1..]
                    .iter()
                    .filter(|s| !nested(**s))
                    .any(|s| {
                        if !counted {
                            return matches!(s.kind_str(), "return_statement" | "break_statement");
                        }
                        ctx.descendants_until(*s, nested)
                            .iter()
                            .any(|d| matches!(d.kind_str(), "return_statement" | "break_statement"))
                    })
            });
        // The outcome kept in a variable and tested after the `try`: the
        // caught exception stored (`err = e;` .. `if (err == null) return;`)
        // or a flag set in the try block (`ok = true;` .. `if (ok) break;`).
        let tested_exit = !after_exit
            && body_stmts
                .iter()
                .position(|s| s.id() == t.id())
                .is_some_and(|i| {
                    body_stmts[i + 1..]
                        .iter()
                        .any(|s| outcome_test_leaves(ctx, *s, block, &retrying))
                });
        if direct_exit || flag_exit || after_exit || tested_exit {
            let exit = if direct_exit {
                "a `return` or `break` in the try block"
            } else if flag_exit {
                "a flag the loop condition tests, set in the try block"
            } else if after_exit {
                "a `return` or `break` right after the try, reached when no catch continues"
            } else {
                "a `return` or `break` after the try under a test of the outcome it stored"
            };
            found = Some(Try {
                node: t,
                retrying,
                exiting,
                exit,
            });
            break;
        }
        why_not = "success does not leave the loop (no `return`, `break` or flag set in the try block; a flag taken from a state check, `done = job.isFinished()`, is no success): a worker or polling loop";
    }
    // The only `try`s wrap a sleep: the attempt, if any, is outside them
    // and its result says whether it worked.
    if !calling_try {
        return result::retry(ctx, lp, body, &own).ok_or(Some(why_not));
    }
    let tr = found.ok_or(Some(why_not))?;
    let (counter_name, _) = header_counter(ctx, lp);
    // A counter used as an index walks a collection.
    if let Some(c) = &counter_name
        && indexes_with(ctx, &own, c)
    {
        return Err(Some(
            "a walk over items: the counter indexes an array or list",
        ));
    }
    // An index the body steps and picks the target with
    // (`handler = handlers.get(readHandlerIndex)` .. `readHandlerIndex++`):
    // each pass asks the next replica or item.
    if own.iter().any(|d| {
        d.kind_str() == "update_expression"
            && ctx.named_children(*d).first().is_some_and(|i| {
                i.kind_str() == "identifier" && indexes_with(ctx, &own, ctx.text(*i))
            })
    }) {
        return Err(Some(
            "failover or a walk: an index the loop steps picks the target (`list.get(i)`, `a[i]`)",
        ));
    }
    let trimmed = head(ctx, lp, body, cond);
    let mut attempts = bound(ctx, lp, &own, trimmed);
    // A retry object handed each failure (`controller.sleep(e)`) decides
    // when to stop, by throwing.
    if matches!(attempts.value.count, AttemptCount::Unbounded)
        && tr.retrying.iter().any(|c| decisions::asks_policy(ctx, *c))
    {
        attempts.value.count = AttemptCount::Unknown;
        attempts.value.written_as = "a retry object handed each failure decides".into();
    }
    // Only a stale-version conflict goes round: the loop ends when this
    // writer wins (not unbounded), and it retries that one kind.
    let conflict = tr.retrying.iter().all(|c| catches::conflict_only(ctx, *c));
    if conflict && matches!(attempts.value.count, AttemptCount::Unbounded) {
        attempts.value.count = AttemptCount::Unknown;
        attempts.value.written_as =
            "a version conflict: the loop ends when this writer wins".into();
    }
    let mut p = RetryPolicy::new(System::JavaLoop, trimmed, attempts);
    p.name = ctx.enclosing_method(lp).map(|(_, m)| m);
    let (delay, jitter) = wait(ctx, lp, &own, trimmed);
    p.delay = delay;
    p.jitter = jitter;
    // A retry object told of each failure (`retryer.continueOrPropagate(e)`,
    // Feign's `Retryer`): it waits before the next attempt or throws.
    if matches!(p.delay.value, Delay::None)
        && let Some(call) = tr
            .retrying
            .iter()
            .find_map(|c| decisions::tells_retryer(ctx, *c))
    {
        p.delay = Located::written(Delay::Custom, span(call));
        p.jitter = Located::written(Jitter::Unknown, span(call));
    }
    // What is retried.
    let mut conditions = Vec::new();
    let mut all = false;
    let mut catch_span = None;
    for c in &tr.retrying {
        // A test of the caught exception that leaves (`if
        // (!isTransient(e) || ..) throw e;`): a predicate.
        let sorted = helpers::sorts_caught(ctx, *c);
        if let Some(at) = sorted {
            conditions.push(Located::written(Condition::Predicate, at));
        }
        for (t, s) in retried_types(ctx, *c) {
            catch_span = Some(catch_span.map_or(s, |x: Span| x.cover(s)));
            // Only the statuses it tests go round: listed below.
            if statuses::gated_catch(ctx, *c) || sorted.is_some() {
                continue;
            }
            if matches!(ast::last_segment(&t), "Exception" | "Throwable") {
                all = true;
            }
            conditions.push(Located::written(Condition::Exception(t), s));
        }
    }
    p.ignores = tr
        .exiting
        .iter()
        .flat_map(|c| catch_types(ctx, *c))
        .map(|(t, s)| Located::written(Condition::Exception(t), s))
        .collect();
    let cs = catch_span.unwrap_or_else(|| span(tr.node));
    // The caught exception handed to a retry policy
    // (`retryPolicy.shouldRetry(e, ++attempts, ..)`): it sorts them.
    // Response statuses that go round (issue 28): listed beside the
    // exceptions, so a catch-all is listed too rather than "every error".
    let statuses = statuses::retried(ctx, &own, tr.node, &tr.retrying);
    conditions.extend(crate::extract::status_test::conditions_at(&statuses));
    conditions.extend(statuses::grpc_retried(ctx, &tr.retrying));
    p.retry_on = if tr.retrying.iter().any(|c| decisions::asks_policy(ctx, *c)) {
        Located::written(RetryOn::Unknown, cs)
    } else if all && statuses.is_empty() && p.ignores.iter().all(|i| matches!(&i.value, Condition::Exception(t) if ast::last_segment(t) == "InterruptedException")) {
        Located::written(RetryOn::AllErrors, cs)
    } else {
        Located::written(RetryOn::Listed { conditions }, cs)
    };
    // The HTTP method of the retried call, where the try block names one.
    let tried = field(tr.node, "body").unwrap_or(tr.node);
    p.methods = crate::extract::http_method::of_call(ctx.src, span(tried))
        .unwrap_or_else(|| Located::default_at(Methods::Unknown, trimmed));
    let caught: Vec<String> = tr
        .retrying
        .iter()
        .flat_map(|c| retried_types(ctx, *c))
        .map(|(t, _)| format!("`{t}`"))
        .collect();
    p.why = vec![
        format!(
            "a catch of {} goes round again and success leaves the loop: {}",
            caught.join(", "),
            tr.exit
        ),
        bound_why(&p),
    ];
    Ok(p)
}
