//! Same-file facts used at a loop: a method of the same class called from
//! the loop is summarised (does it sleep, does it end the process or always
//! throw), one or two calls deep, within a budget; process exits
//! (`System.exit`, `ExitUtil.terminate`, `Runtime.getRuntime().halt`) leave
//! a loop like a `throw`.
//!
//! Only bodies the parse keeps are read: `prune` skips a member body with
//! none of its words (a helper that only throws or only sleeps, with no
//! `try`, is left out and summarised as doing nothing).

use super::*;
use std::cell::Cell;

/// How deep calls are followed from the loop.
const MAX_DEPTH: u32 = 2;
/// Methods read for one loop at most.
const BUDGET: u32 = 16;

#[derive(Default, Clone, Copy)]
pub(super) struct Summary {
    /// Calls a sleep (`Thread.sleep`, `TimeUnit.X.sleep`, a `sleep`/`backoff` helper).
    pub sleeps: bool,
    /// Ends with a `throw`, or ends the process.
    pub exits: bool,
    /// Throws (or exits) under a test of the clock: a deadline.
    pub deadline: bool,
    /// Throws under a test of a retry count (`if (!canRetry()) throw ..`).
    pub capped: bool,
    /// Reads a field of this class that holds an attempt limit
    /// (`this.maxReconnectAttempts`).
    pub limit: bool,
    /// Records a failed target so later calls avoid it (`failedLocations.add(..)`,
    /// `excludeNode(..)`): failover.
    pub marks_failed: bool,
    /// Searches candidates: a loop that returns from inside (the next host
    /// that connects), so each call may answer with another target.
    pub picks: bool,
}

/// Words of a clock test: `System.currentTimeMillis() - start < timeout`,
/// `time.milliseconds() < deadline`, `System.nanoTime() > deadlineNs`.
pub(super) fn time_words(t: &str) -> bool {
    let l = t.to_ascii_lowercase();
    [
        "currenttimemillis",
        "nanotime",
        "milliseconds()",
        "deadline",
        "elapsed",
        "instant.now",
        "clock.",
    ]
    .iter()
    .any(|w| l.contains(w))
}

/// A call that ends the process: `System.exit(..)`, `ExitUtil.terminate(..)`,
/// `Runtime.getRuntime().halt(..)`, `Runtime.getRuntime().exit(..)`.
fn process_exit(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    let name = field(call, "name").map_or("", |n| ctx.text(n));
    let obj = field(call, "object").map_or("", |o| ctx.text(o));
    matches!(
        (ast::last_segment(obj), name),
        ("System", "exit") | ("ExitUtil", "terminate" | "halt")
    ) || (obj.contains("Runtime") && matches!(name, "halt" | "exit"))
}

/// The method invocation a statement is, if it is one.
pub(super) fn call_of(n: Node<'_>) -> Option<Node<'_>> {
    if n.kind_str() != "expression_statement" {
        return None;
    }
    ast::named_children(n)
        .first()
        .copied()
        .filter(|e| e.kind_str() == "method_invocation")
}

/// A call of a method of this class: no object, or `this`.
fn own_call<'a>(ctx: &Ctx<'a>, call: Node<'_>) -> Option<&'a str> {
    let obj = field(call, "object").map(|o| ctx.text(o));
    if obj.is_some_and(|o| o != "this") {
        return None;
    }
    field(call, "name").map(|n| ctx.text(n))
}

/// Whether a statement leaves the loop: `return`, `break`, `throw`, a
/// process exit, or a call of a method of this class that always throws
/// or exits.
pub(super) fn leaves(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    leaves_within(ctx, n, 8)
}

/// [`leaves`], through at most `depth` nested `if`/`else` statements:
/// one whose every branch leaves (`if (..) { return r; } else { throw e;
/// }`) leaves too (oak `PipelinedMongoDownloadTask`, sixteenth pass).
fn leaves_within(ctx: &Ctx<'_>, n: Node<'_>, depth: u32) -> bool {
    if matches!(
        n.kind_str(),
        "return_statement" | "break_statement" | "throw_statement"
    ) {
        return true;
    }
    if n.kind_str() == "if_statement" {
        if depth == 0 {
            return false;
        }
        let branch = |b: Node<'_>| match b.kind_str() {
            "block" => ctx
                .named_children(b)
                .last()
                .is_some_and(|l| leaves_within(ctx, *l, depth - 1)),
            _ => leaves_within(ctx, b, depth - 1),
        };
        return field(n, "consequence").is_some_and(branch)
            && field(n, "alternative").is_some_and(branch);
    }
    let Some(call) = call_of(n) else {
        return false;
    };
    process_exit(ctx, call)
        || own_call(ctx, call).is_some_and(|m| summary(ctx, m, 1, &Cell::new(BUDGET)).exits)
}

/// What the method `name` of this file does (all its overloads together:
/// any sleeps, all exit).
pub(super) fn summary(ctx: &Ctx<'_>, name: &str, depth: u32, budget: &Cell<u32>) -> Summary {
    let defs = ctx.methods_named(name);
    if defs.is_empty() || depth > MAX_DEPTH {
        return Summary::default();
    }
    let mut out = Summary {
        sleeps: false,
        exits: true,
        deadline: false,
        capped: false,
        limit: false,
        marks_failed: false,
        picks: false,
    };
    for &m in defs.iter().take(3) {
        if budget.get() == 0 {
            return Summary::default();
        }
        budget.set(budget.get() - 1);
        let Some(body) = field(m, "body") else {
            out.exits = false;
            continue;
        };
        let last = ctx.named_children(body).last().copied();
        // Inside its loops too (not lambdas or inner classes): a failure
        // recorded in a read loop, a loop that returns the first candidate
        // that answers.
        for d in ctx.descendants_until(body, not_own) {
            if marks_failed(ctx, d) {
                out.marks_failed = true;
            }
            // A wait, for at most a time, on a condition another thread
            // signals (`while (state != want) { changed.awaitUntil(deadline);
            // }`; alibaba/otter `ZkClientx.waitUntilConnected`).
            if d.kind_str() == "method_invocation"
                && field(d, "name")
                    .is_some_and(|n| matches!(ctx.text(n), "await" | "awaitUntil" | "awaitNanos"))
                && field(d, "arguments").is_some_and(|a| !ctx.named_children(a).is_empty())
            {
                out.sleeps = true;
            }
            if LOOPS.contains(&d.kind_str())
                && field(d, "body").is_some_and(|b| {
                    ctx.descendants_until(b, not_own)
                        .iter()
                        .any(|x| x.kind_str() == "return_statement")
                })
            {
                out.picks = true;
            }
        }
        let mut exits = last.is_some_and(|l| {
            l.kind_str() == "throw_statement" || call_of(l).is_some_and(|c| process_exit(ctx, c))
        });
        for d in ctx.descendants_until(body, nested) {
            if limit_field(ctx, d) {
                out.limit = true;
            }

            if d.kind_str() == "if_statement"
                && field(d, "condition").is_some_and(|c| time_words(ctx.text(c)))
                && field(d, "consequence").is_some_and(|b| {
                    ctx.descendants_until(b, nested)
                        .iter()
                        .any(|x| x.kind_str() == "throw_statement")
                })
            {
                out.deadline = true;
            }
            // Either branch: `if (shouldRetryRead(e, policy, retries++)) {
            // .. } else { throw e; }` throws once the count runs out.
            if d.kind_str() == "if_statement"
                && field(d, "condition").is_some_and(|c| {
                    let l = ctx.text(c).to_ascii_lowercase();
                    l.contains("retr") || l.contains("attempt")
                })
                && ["consequence", "alternative"].iter().any(|f| {
                    field(d, f).is_some_and(|b| {
                        ctx.descendants_until(b, nested)
                            .iter()
                            .any(|x| x.kind_str() == "throw_statement")
                    })
                })
            {
                out.capped = true;
            }
            if d.kind_str() != "method_invocation" {
                continue;
            }
            let callee = field(d, "name").map_or("", |n| ctx.text(n));
            let obj = ctx.name_of(field(d, "object"));
            if is_sleep_name(callee)
                || (callee == "sleep" && (obj == "Thread" || ast::time_unit(obj).is_some()))
            {
                out.sleeps = true;
            } else if let Some(inner) = own_call(ctx, d)
                && inner != name
            {
                let s = summary(ctx, inner, depth + 1, budget);
                out.sleeps |= s.sleeps;
                out.deadline |= s.deadline;
                out.capped |= s.capped;
                out.limit |= s.limit;
                out.marks_failed |= s.marks_failed;
                out.picks |= s.picks;
                if last.is_some_and(|l| call_of(l).is_some_and(|c| c.id() == d.id())) {
                    exits |= s.exits;
                }
            }
        }
        out.exits &= exits;
    }
    out
}

/// A call of a method of this class that answers a value read from the
/// clock (`calcRemainingTime(timeout, start)` returning `timeout - (now -
/// start)` with `now = System.currentTimeMillis()`): a test of what it
/// answers is a test of the clock (apache/ignite-3's transaction rollback,
/// twenty-sixth pass). One level: its own body, not what it calls.
pub(super) fn own_clock_call(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    if call.kind_str() != "method_invocation" {
        return false;
    }
    let Some(name) = own_call(ctx, call) else {
        return false;
    };
    ctx.methods_named(name).iter().take(3).any(|m| {
        field(*m, "type").is_some_and(|t| ctx.text(t) != "void")
            && field(*m, "body").is_some_and(|b| time_words(ctx.text(b)))
    })
}

/// The first call in the loop's own nodes of a method of this class that
/// sleeps.
pub(super) fn sleeping_call<'a>(ctx: &Ctx<'_>, own: &[Node<'a>]) -> Option<Node<'a>> {
    let budget = Cell::new(BUDGET);
    own.iter().copied().find(|d| {
        d.kind_str() == "method_invocation"
            && own_call(ctx, *d).is_some_and(|m| summary(ctx, m, 1, &budget).sleeps)
    })
}

/// The first call in the loop's own nodes of a method of this class that
/// throws once a deadline passes.
pub(super) fn deadline_call<'a>(ctx: &Ctx<'_>, own: &[Node<'a>]) -> Option<Node<'a>> {
    let budget = Cell::new(BUDGET);
    own.iter().copied().find(|d| {
        d.kind_str() == "method_invocation"
            && own_call(ctx, *d).is_some_and(|m| summary(ctx, m, 1, &budget).deadline)
    })
}

/// The first call in the loop's own nodes of a method of this class that
/// throws once a retry count runs out.
pub(super) fn capped_call<'a>(ctx: &Ctx<'_>, own: &[Node<'a>]) -> Option<Node<'a>> {
    let budget = Cell::new(BUDGET);
    own.iter().copied().find(|d| {
        d.kind_str() == "method_invocation"
            && own_call(ctx, *d).is_some_and(|m| summary(ctx, m, 1, &budget).capped)
    })
}

/// A field of this class named like an attempt limit
/// (`maxReconnectAttempts`, `this.maxRetries`, `retryLimit`), read here.
fn limit_field(ctx: &Ctx<'_>, d: Node<'_>) -> bool {
    let name = match d.kind_str() {
        "identifier" if ctx.parent(d).is_none_or(|p| p.kind_str() != "field_access") => ctx.text(d),
        "field_access" if field(d, "object").is_some_and(|o| o.kind_str() == "this") => {
            field(d, "field").map_or("", |f| ctx.text(f))
        }
        _ => return false,
    };
    let l = name.to_ascii_lowercase();
    (l.contains("attempt") || l.contains("retries") || l.contains("retry"))
        && ctx.var(name, d).is_some_and(|v| v.scope.is_none())
}

/// Code that runs elsewhere: lambdas, inner classes, other methods.
fn not_own(n: Node<'_>) -> bool {
    matches!(
        n.kind_str(),
        "lambda_expression" | "class_body" | "method_declaration" | "constructor_declaration"
    )
}

/// The first call anywhere in a loop (its condition, its body, the
/// conditions of loops inside it; not lambdas or inner classes) of a
/// method of this class that reads a field holding an attempt limit.
pub(super) fn limit_call<'a>(ctx: &Ctx<'a>, lp: Node<'a>) -> Option<Node<'a>> {
    let budget = Cell::new(BUDGET);
    ctx.descendants_until(lp, not_own).into_iter().find(|d| {
        d.kind_str() == "method_invocation"
            && own_call(ctx, *d).is_some_and(|m| summary(ctx, m, 1, &budget).limit)
    })
}

/// Whether a node records a failed target so the next pass avoids it: a
/// call named like excluding a node or marking it dead, or adding to a
/// collection of excluded, dead or failed nodes, locations or indexes
/// (`excluded.add(node)`, `failedLocations.add(..)`, `failedDataIndexes.add(i)`),
/// or of sealed ones, closed for writes (`sealedSegments.add(segment)`,
/// `handleLogSealed(segment)`).
pub(super) fn marks_failed(ctx: &Ctx<'_>, d: Node<'_>) -> bool {
    if d.kind_str() != "method_invocation" {
        return false;
    }
    let name = field(d, "name").map_or("", |n| ctx.text(n));
    let lname = name.to_ascii_lowercase();
    if lname.contains("deadnode")
        || lname.contains("unavailable")
        || lname.contains("exclude")
        || lname.contains("blacklist")
        || lname.contains("failover")
    {
        return true;
    }
    // A sealed target handed on (`handleLogSealed(segment)`,
    // `markSealed(ledger)`); a question (`isStreamSealed()`) records nothing.
    if lname.contains("sealed")
        && !["is", "has", "get", "check"]
            .iter()
            .any(|p| lname.starts_with(p))
        && field(d, "arguments").is_some_and(|a| !ctx.named_children(a).is_empty())
    {
        return true;
    }
    if !matches!(name, "add" | "put" | "addAll") {
        return false;
    }
    let obj = ctx.name_of(field(d, "object")).to_ascii_lowercase();
    const TARGETS: &[&str] = &[
        "node", "location", "host", "index", "replica", "server", "peer", "broker", "address",
        "endpoint", "target",
    ];
    // A sealed target (a log segment or ledger closed for appends) is
    // recorded so the writer moves to its successor (pravega's
    // `sealedSegmentQueue.add(segment)`, twenty-seventh pass).
    obj.contains("exclude")
        || obj.contains("dead")
        || obj.contains("unavailable")
        || obj.contains("sealed")
        || (obj.contains("failed") && TARGETS.iter().any(|t| obj.contains(t)))
}

/// Whether a call of a method of this class (one or two deep) records a
/// failed target.
pub(super) fn calls_marking_failed(ctx: &Ctx<'_>, within: Node<'_>) -> bool {
    let budget = Cell::new(BUDGET);
    ctx.descendants_until(within, nested).into_iter().any(|d| {
        marks_failed(ctx, d)
            || (d.kind_str() == "method_invocation"
                && own_call(ctx, d).is_some_and(|m| summary(ctx, m, 1, &budget).marks_failed))
    })
}

/// Whether the method of this class `name` searches candidates (one or two
/// deep): each call may hand back another target.
pub(super) fn picks_next(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    own_call(ctx, call).is_some_and(|m| summary(ctx, m, 1, &Cell::new(BUDGET)).picks)
}

/// `node != null` (or `ok`, `!missing`-free) where the local was assigned
/// from a call (not a sleep) among `stmts`, the try block's statements: the
/// call's own answer tested for presence, so an absent answer goes round
/// like a failure. A method of the answer (`status.isDone()`) is a state
/// read, a poll: not this.
pub(super) fn answer_present(ctx: &Ctx<'_>, cond: Node<'_>, stmts: &[Node<'_>]) -> bool {
    let var = match cond.kind_str() {
        "identifier" => cond,
        "binary_expression"
            if field(cond, "operator").is_some_and(|o| ctx.text(o) == "!=")
                && [field(cond, "left"), field(cond, "right")]
                    .into_iter()
                    .flatten()
                    .any(|x| x.kind_str() == "null_literal") =>
        {
            match [field(cond, "left"), field(cond, "right")]
                .into_iter()
                .flatten()
                .map(ast::unwrap_expr)
                .find(|x| x.kind_str() == "identifier")
            {
                Some(v) => v,
                None => return false,
            }
        }
        _ => return false,
    };
    let name = ctx.text(var);
    stmts.iter().any(|s| {
        let (l, r) = match s.kind_str() {
            "local_variable_declaration" => match ctx
                .named_children(*s)
                .into_iter()
                .find(|d| d.kind_str() == "variable_declarator")
            {
                Some(d) => (field(d, "name"), field(d, "value")),
                None => return false,
            },
            "expression_statement" => match ctx.named_children(*s).first() {
                Some(e) if e.kind_str() == "assignment_expression" => {
                    (field(*e, "left"), field(*e, "right"))
                }
                _ => return false,
            },
            _ => return false,
        };
        l.is_some_and(|l| ctx.text(l) == name)
            && r.map(ast::unwrap_expr).is_some_and(|r| {
                r.kind_str() == "method_invocation"
                    && field(r, "name").is_some_and(|n| !is_sleep_name(ctx.text(n)))
                    && !handed_new_input(ctx, r, stmts)
                    // An existence check (`zk.exists(path).get(5, SECONDS)`)
                    // answers null while the node is absent: a poll for its
                    // creation (apache/twill `YarnTwillController`).
                    && !ctx.descendants(r).into_iter().any(|d| {
                        d.kind_str() == "method_invocation"
                            && field(d, "name")
                                .is_some_and(|n| matches!(ctx.text(n), "exists" | "checkExists"))
                    })
            })
    })
}

/// The call is handed a local the same statements assign (`server =
/// servers.next(); conn = connectToServer(server);`): each pass asks
/// something else, a failover, not the same call again.
fn handed_new_input(ctx: &Ctx<'_>, call: Node<'_>, stmts: &[Node<'_>]) -> bool {
    let Some(args) = field(call, "arguments") else {
        return false;
    };
    let assigned: Vec<&str> = stmts
        .iter()
        .filter(|s| s.start_byte() < call.start_byte())
        .flat_map(|s| ctx.descendants_until(*s, nested))
        .filter_map(|d| match d.kind_str() {
            "variable_declarator" => field(d, "name"),
            "assignment_expression" => field(d, "left"),
            _ => None,
        })
        .map(|n| ctx.text(n))
        .collect();
    ctx.descendants(args)
        .into_iter()
        .any(|d| d.kind_str() == "identifier" && assigned.contains(&ctx.text(d)))
}

/// A statement of the try block that leaves the loop when the attempt
/// worked, beyond a plain `return`/`break`: an `if`/`else` whose branches
/// all leave (`if (map.has("code")) { return a; } else { return b; }`), or
/// the attempt itself under a test that it is not done yet, followed by
/// the exit (`if (!transport.isOpen()) { transport.open(); break; }`).
pub(super) fn leaves_on_success(ctx: &Ctx<'_>, s: Node<'_>) -> bool {
    if s.kind_str() != "if_statement" {
        return false;
    }
    let Some(then) = field(s, "consequence") else {
        return false;
    };
    let exits = |b: Node<'_>| {
        statements(b)
            .last()
            .is_some_and(|l| matches!(l.kind_str(), "return_statement" | "break_statement"))
    };
    if let Some(other) = field(s, "alternative") {
        let other = if other.kind_str() == "else" {
            ctx.named_children(other).first().copied().unwrap_or(other)
        } else {
            other
        };
        return exits(then) && (exits(other) || leaves_on_success(ctx, other));
    }
    let negated = field(s, "condition")
        .map(ast::unwrap_expr)
        .is_some_and(|c| c.kind_str() == "unary_expression" && ctx.text(c).starts_with('!'));
    let stmts = statements(then);
    negated
        && exits(then)
        && stmts.iter().any(|x| {
            call_of(*x).is_some_and(|c| {
                field(c, "name").is_some_and(|n| !is_sleep_name(ctx.text(n)))
                    && !ctx.text(c).to_ascii_lowercase().contains("log")
            })
        })
}

/// A catch of only failures of this process's own work: the local file
/// system (`NoSuchFileException` while a directory is deleted, a file that
/// exists already) or its own thread pool (`RejectedExecutionException`:
/// the queue is full). No remote call failed; a pass goes round for a local
/// state.
pub(super) fn local_only(ctx: &Ctx<'_>, catch: Node<'_>) -> bool {
    const LOCAL: &[&str] = &[
        "NoSuchFileException",
        "FileAlreadyExistsException",
        "DirectoryNotEmptyException",
        "NotDirectoryException",
        "RejectedExecutionException",
        // RocksDB runs inside this process (apache/fluss).
        "RocksDBException",
        // java.nio.file's refusal on the local disk (a Windows delete held
        // by another program), and the JVM's own memory.
        "AccessDeniedException",
        "OutOfMemoryError",
        // Reflection and in-memory buffers.
        "NoSuchMethodException",
        "NoSuchFieldException",
        "ClassNotFoundException",
        "InstantiationException",
        "BufferOverflowException",
        "BufferUnderflowException",
        // A local child process still running: `Process.exitValue()`
        // throws it "if the subprocess represented by this Process object
        // has not yet terminated" (JDK); asked again, it waits for the
        // process to end (apache/tomcat `CGIServlet`, twenty-sixth pass).
        "IllegalThreadStateException",
    ];
    let types = super::catch_types(ctx, catch);
    !types.is_empty()
        && types
            .iter()
            .all(|(t, _)| LOCAL.contains(&ast::last_segment(t)))
}

/// The try loads a native library (`RocksDB.loadLibrary()`,
/// `System.loadLibrary(..)`): work inside this process. `block` is the
/// try's body or its resources (`try (ServerSocket s = new
/// ServerSocket(0))`).
pub(super) fn loads_native(ctx: &Ctx<'_>, block: Node<'_>) -> bool {
    ctx.descendants_until(block, nested).into_iter().any(|d| {
        (d.kind_str() == "method_invocation"
            && field(d, "name").is_some_and(|n| ctx.text(n) == "loadLibrary"))
            // Or binds a port of this host (`new ServerSocket(port)`): a
            // listening socket reaches no other host.
            || (d.kind_str() == "object_creation_expression"
                && field(d, "type").is_some_and(|t| {
                    matches!(
                        ast::last_segment(ctx.text(t)),
                        "ServerSocket" | "DatagramSocket"
                    )
                }))
            // Or opens a listening channel to bind (`ServerSocketChannel
            // .open()`, the NIO form of the same).
            || (d.kind_str() == "method_invocation"
                && field(d, "name").is_some_and(|n| ctx.text(n) == "open")
                && field(d, "object").is_some_and(|o| {
                    matches!(
                        ast::last_segment(ctx.text(o)),
                        "ServerSocketChannel" | "AsynchronousServerSocketChannel"
                    )
                }))
    })
}

/// The try only parses what an earlier read returned (`return
/// Snapshot.fromJson(content);`, `content.map(Consumer::fromJson)`): a
/// parse error going round is a torn read, a race with the writer of the
/// file, not a failed call (apache/paimon SnapshotManager.tryFromPath).
pub(super) fn only_parses(ctx: &Ctx<'_>, block: Node<'_>) -> bool {
    let parse = |n: &str| {
        let l = n.to_ascii_lowercase();
        ["parse", "fromjson", "readvalue", "decode", "deserialize"]
            .iter()
            .any(|w| l.starts_with(w))
    };
    let nodes = ctx.descendants_until(block, nested);
    let mut parses = false;
    for d in &nodes {
        match d.kind_str() {
            "method_invocation" => {
                let n = field(*d, "name").map_or("", |n| ctx.text(n));
                if parse(n) {
                    parses = true;
                } else if !matches!(n, "map" | "orElse" | "trim") {
                    return false;
                }
            }
            "method_reference" => {
                let t = ctx.text(*d);
                parses |= t.rsplit("::").next().is_some_and(parse);
            }
            "object_creation_expression" => return false,
            _ => {}
        }
    }
    parses
}

/// Only "does not exist" goes round (`TableNotExistException`): a wait for
/// something another process or operator creates, a state, not a failed
/// call.
pub(super) fn waits_for_creation(ctx: &Ctx<'_>, catch: Node<'_>) -> bool {
    let types = super::catch_types(ctx, catch);
    !types.is_empty()
        && types.iter().all(|(t, _)| {
            let t = ast::last_segment(t);
            // A file not there yet (a log another thread is creating).
            t.contains("NotExist")
                || t.contains("DoesNotExist")
                || matches!(t, "FileNotFoundException" | "NoSuchFileException")
        })
}

/// A call of a method of this class whose body is one `return` of a test
/// of fields: a comparison, or `&&`/`||` with a comparison or a field among
/// its operands (`return isRunning && now - lastRpc >= timeout;`, `return
/// done.size() == numInputs;`). Leaving when it holds is a state reached
/// (a poll, a timer), not an operation that worked.
pub(super) fn tests_state(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    let Some(name) = own_call(ctx, call) else {
        return false;
    };
    let defs = ctx.methods_named(name);
    let comparison = |e: Node<'_>| {
        e.kind_str() == "binary_expression"
            && field(e, "operator")
                .is_some_and(|o| matches!(ctx.text(o), "==" | "!=" | "<" | "<=" | ">" | ">="))
    };
    !defs.is_empty()
        && defs.iter().take(3).all(|m| {
            let Some(body) = field(*m, "body") else {
                return false;
            };
            let stmts = ctx.named_children(body);
            let [ret] = stmts.as_slice() else {
                return false;
            };
            let Some(e) = ctx
                .named_children(*ret)
                .first()
                .map(|e| ast::unwrap_expr(*e))
            else {
                return false;
            };
            if ret.kind_str() != "return_statement" {
                return false;
            }
            comparison(e)
                || reads_field(ctx, e)
                || (e.kind_str() == "binary_expression"
                    && field(e, "operator").is_some_and(|o| matches!(ctx.text(o), "&&" | "||"))
                    && super::bounds::junctions(ctx, e, &["&&", "||"])
                        .into_iter()
                        .any(|p| comparison(p) || p.kind_str() == "identifier"))
        })
}

/// A field, or a getter of one with no arguments (`return this.done;`, `return
/// this.logData.isLogFin();`): the method reads a state another thread or
/// callback sets, it attempts nothing.
fn reads_field(ctx: &Ctx<'_>, e: Node<'_>) -> bool {
    let holder = |o: Node<'_>| {
        o.kind_str() == "identifier"
            || (o.kind_str() == "field_access"
                && field(o, "object").is_some_and(|x| x.kind_str() == "this"))
    };
    match e.kind_str() {
        "field_access" => holder(e),
        "method_invocation" => {
            let name = field(e, "name").map_or("", |n| ctx.text(n));
            let getter = ["is", "has", "get"].iter().any(|p| {
                name.strip_prefix(p)
                    .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
            });
            getter
                && field(e, "arguments").is_some_and(|a| ctx.named_children(a).is_empty())
                && field(e, "object").is_some_and(holder)
        }
        _ => false,
    }
}

/// An `if` of the catch that leaves and tests the caught exception with a
/// call (`if (!isTransientDockerPullError(e) || attempt == max) throw e;`,
/// `if (!e.isRetryable()) throw e;`): the failures are sorted. Where the
/// test is.
pub(super) fn sorts_caught(ctx: &Ctx<'_>, catch: Node<'_>) -> Option<Span> {
    let param = ctx
        .named_children(catch)
        .into_iter()
        .find(|p| p.kind_str() == "catch_formal_parameter")
        .and_then(|p| field(p, "name"))
        .map(|n| ctx.text(n))?;
    let body = field(catch, "body")?;
    statements(body).into_iter().find_map(|s| {
        if s.kind_str() != "if_statement" {
            return None;
        }
        // The chain `if .. else if .. else { throw e; }`: some branch
        // leaves, and the tests read the caught exception.
        let mut branches = Vec::new();
        let mut conds = Vec::new();
        let mut sorted_by_type = None;
        let mut cur = Some(s);
        for _ in 0..8 {
            let Some(x) = cur.take() else { break };
            if x.kind_str() != "if_statement" {
                branches.push(x);
                break;
            }
            // `else if (!(e instanceof IOException || ..)) throw ..`: a
            // branch on the caught type that leaves.
            if let (Some(c), Some(b)) = (field(x, "condition"), field(x, "consequence"))
                && ctx.descendants(c).into_iter().any(|d| {
                    d.kind_str() == "instanceof_expression"
                        && field(d, "left").is_some_and(|l| ctx.text(l) == param)
                })
                && statements(b).last().is_some_and(|l| leaves(ctx, *l))
            {
                sorted_by_type.get_or_insert(span(c));
            }
            conds.extend(field(x, "condition"));
            branches.extend(field(x, "consequence"));
            cur = field(x, "alternative");
        }
        if sorted_by_type.is_some() {
            return sorted_by_type;
        }
        if !branches
            .iter()
            .any(|b| statements(*b).last().is_some_and(|l| leaves(ctx, *l)))
        {
            return None;
        }
        let cond = field(s, "condition")?;
        let tests = conds.iter().flat_map(|c| ctx.descendants(*c)).any(|d| {
            d.kind_str() == "method_invocation"
                && field(d, "name")
                    .is_some_and(|n| !ctx.text(n).to_ascii_lowercase().contains("log"))
                && (field(d, "object").is_some_and(|o| ctx.text(o) == param)
                    || field(d, "arguments").is_some_and(|a| {
                        ctx.named_children(a)
                            .into_iter()
                            .any(|x| x.kind_str() == "identifier" && ctx.text(x) == param)
                    }))
        });
        tests.then(|| span(cond))
    })
}
