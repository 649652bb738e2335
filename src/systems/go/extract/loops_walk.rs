//! Loops that look like retries but are not: a walk over items (each pass
//! hands the call another one), and exits that give up rather than
//! succeed, as the Java loop reader sorts them (`walks_items`).

use super::super::{Ctx, Pkg, field, named_children};
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// Names of a counter that counts attempts, not items.
fn counts_attempts(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    [
        "retr", "attempt", "tries", "try", "times", "round", "backoff", "delay", "wait",
    ]
    .iter()
    .any(|w| l.contains(w))
}

/// The variables a loop steps: its clause's update (`seq++`, `i += 2`)
/// and the `x++`, `x--`, `x += n`, `x -= n` of its own body (`off++`
/// before `continue`).
fn stepped<'a>(ctx: &Ctx<'a>, lp: Node<'_>, own: &[Node<'_>]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut take = |s: Node<'_>| {
        let var = match s.kind_name() {
            "inc_statement" | "dec_statement" => named_children(s).first().copied(),
            "assignment_statement"
                if field(s, "operator").is_some_and(|o| matches!(ctx.text(o), "+=" | "-=")) =>
            {
                field(s, "left").and_then(|l| named_children(l).first().copied())
            }
            _ => None,
        };
        if let Some(v) = var.filter(|v| v.kind_name() == "identifier") {
            let name = ctx.text(v);
            if !counts_attempts(name) && !out.contains(&name) {
                out.push(name);
            }
        }
    };
    if let Some(update) = named_children(lp)
        .into_iter()
        .find(|c| c.kind_name() == "for_clause")
        .and_then(|c| field(c, "update"))
    {
        take(update);
    }
    for &c in own {
        take(c);
    }
    out
}

/// A call that only reports or waits: a logger's (`log.Printf`,
/// `s.logger.Error(..)`), fmt's, time's, strconv's, errors'.
fn reports(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    if matches!(
        ctx.pkg_call(call),
        Some((Pkg::Time | Pkg::Fmt | Pkg::Strconv | Pkg::Math, _))
    ) {
        return true;
    }
    field(call, "function").is_some_and(|f| {
        let t = ctx.text(f);
        let l = t.to_ascii_lowercase();
        l.contains("log") || t.starts_with("errors.") || t.starts_with("zap.")
    })
}

/// Each pass asks for another item: a variable the loop steps handed to a
/// call it makes (`mb.cacheLookup(seq, sm)` under `seq++`,
/// `fetch(mid+off)` after `off++`), unless the variable counts attempts
/// or the call only logs. The next pass calls with another argument: a
/// scan, a search or a failover, not the same call tried again.
pub fn walks_items(ctx: &Ctx<'_>, lp: Node<'_>, own: &[Node<'_>]) -> bool {
    let mut vars = stepped(ctx, lp, own);
    if vars.is_empty() {
        return false;
    }
    derived(ctx, own, &mut vars);
    own.iter().any(|&c| {
        c.kind_name() == "call_expression"
            && !reports(ctx, c)
            && !inside_report(ctx, c, lp)
            && field(c, "arguments").is_some_and(|a| names_any(ctx, a, &vars))
    })
}

/// Names the loop binds from a stepped one, as an index or a position
/// (`idx := (s.cur + i) % n`, `url := hosts[idx]`): the host or item the
/// pass is at. A binding through a call (`d := delayFor(i)`) is not one:
/// what the call makes of the counter is not known. Bounded by a few
/// rounds (a chain of bindings in one pass).
fn derived<'a>(ctx: &Ctx<'a>, own: &[Node<'_>], vars: &mut Vec<&'a str>) {
    for _ in 0..4 {
        let before = vars.len();
        for &c in own {
            if !matches!(
                c.kind_name(),
                "short_var_declaration" | "assignment_statement"
            ) {
                continue;
            }
            let (Some(l), Some(r)) = (field(c, "left"), field(c, "right")) else {
                continue;
            };
            let (lefts, rights) = (named_children(l), named_children(r));
            if lefts.len() != 1 || rights.len() != 1 || lefts[0].kind_name() != "identifier" {
                continue;
            }
            let name = ctx.text(lefts[0]);
            if vars.contains(&name) || counts_attempts(name) || !positional(ctx, rights[0]) {
                continue;
            }
            if names_any(ctx, rights[0], vars) {
                vars.push(name);
            }
        }
        if vars.len() == before {
            break;
        }
    }
}

/// An index or arithmetic of names and numbers (`xs[(k+i)%n]`, `(k + i)
/// % len(xs)`): the only call it may hold is `len(..)`.
fn positional(ctx: &Ctx<'_>, e: Node<'_>) -> bool {
    let mut stack = vec![e];
    let mut seen = 0usize;
    while let Some(x) = stack.pop() {
        seen += 1;
        if seen > 256 {
            return false;
        }
        match x.kind_name() {
            "index_expression"
            | "binary_expression"
            | "parenthesized_expression"
            | "identifier"
            | "int_literal"
            | "selector_expression"
            | "field_identifier"
            | "argument_list" => {}
            "call_expression" if field(x, "function").is_some_and(|f| ctx.text(f) == "len") => {}
            _ => return false,
        }
        stack.extend(named_children(x));
    }
    true
}

/// `call` is an argument of a logging call of the loop (`zap.Int("n", i)`
/// in `logger.Error(..)`).
fn inside_report(ctx: &Ctx<'_>, call: Node<'_>, lp: Node<'_>) -> bool {
    let mut cur = call.parent();
    for _ in 0..64 {
        let Some(c) = cur else { return false };
        if c.id() == lp.id() {
            return false;
        }
        if c.kind_name() == "call_expression" && reports(ctx, c) {
            return true;
        }
        cur = c.parent();
    }
    false
}

/// An identifier named in `vars` anywhere under `n` (bounded).
fn names_any(ctx: &Ctx<'_>, n: Node<'_>, vars: &[&str]) -> bool {
    let mut stack = vec![n];
    let mut seen = 0usize;
    while let Some(x) = stack.pop() {
        seen += 1;
        if seen > 4_096 {
            return false;
        }
        if x.kind_name() == "identifier" && vars.contains(&ctx.text(x)) {
            return true;
        }
        if x.kind_name() != "func_literal" {
            stack.extend(named_children(x));
        }
    }
    false
}

/// A `return` that gives up: it returns a new error (`return
/// fmt.Errorf("timeout waiting ..")`, `errors.New(..)`), the way a poll
/// ends at its deadline. Not a success leaving the loop.
pub fn gives_up(ctx: &Ctx<'_>, ret: Node<'_>) -> bool {
    if ret.kind_name() != "return_statement" {
        return false;
    }
    let Some(list) = named_children(ret).first().copied() else {
        return false;
    };
    let last = if list.kind_name() == "expression_list" {
        named_children(list).last().copied()
    } else {
        Some(list)
    };
    last.filter(|e| e.kind_name() == "call_expression")
        .and_then(|e| field(e, "function"))
        .is_some_and(|f| {
            matches!(
                ctx.text(f),
                "fmt.Errorf" | "errors.New" | "errors.Errorf" | "errors.Wrap" | "errors.Wrapf"
            )
        })
}

/// `if err == nil { break }` (or `return`) in the loop's own code: success
/// leaves, and an error goes round by falling through to the next pass.
pub fn leaves_on_success(ctx: &Ctx<'_>, own: &[Node<'_>]) -> bool {
    own.iter().any(|&c| {
        matches!(c.kind_name(), "break_statement" | "return_statement")
            && std::iter::successors(c.parent(), |p| p.parent())
                .take(8)
                .find(|p| {
                    matches!(
                        p.kind_name(),
                        "if_statement" | "for_statement" | "func_literal"
                    )
                })
                .filter(|p| p.kind_name() == "if_statement")
                .and_then(|p| field(p, "condition"))
                .is_some_and(|k| ctx.text(k).contains("err == nil"))
    })
}

/// Every error the loop tests makes it leave: each `if` testing an error
/// under the loop (nested loops included) is a bare `if err != nil` whose
/// block ends in a `return`. What goes round is then a state the loop
/// waits for (a connection still in progress, a reload not yet possible),
/// not a call that failed.
pub fn errors_all_leave(ctx: &Ctx<'_>, body: Node<'_>) -> bool {
    let (mut leave, mut round) = (0usize, 0usize);
    let mut stack = vec![body];
    let mut seen = 0usize;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 20_000 {
            return false;
        }
        match n.kind_name() {
            "func_literal" => continue,
            "if_statement" => {
                if let Some(k) = field(n, "condition").map(|k| ctx.text(k))
                    && (k.contains("err") || k.contains(".Err()"))
                {
                    // `err != nil`, or the context's error (`ctx.Err() !=
                    // nil`: cancelled, the loop stops).
                    let bare = matches!(
                        k.trim().strip_suffix("!= nil").map(str::trim),
                        Some(x) if x == "err" || x.ends_with(".Err()")
                    );
                    let ends_in_return = field(n, "consequence")
                        .and_then(|b| last_statement(b))
                        .is_some_and(|s| s.kind_name() == "return_statement");
                    if bare && ends_in_return {
                        leave += 1;
                    } else {
                        round += 1;
                    }
                }
            }
            "expression_switch_statement" | "type_switch_statement"
                if ctx.text(n).contains("err") =>
            {
                round += 1;
            }
            _ => {}
        }
        stack.extend(named_children(n));
    }
    leave > 0 && round == 0
}

/// The last statement of a block (through its `statement_list`).
pub(super) fn last_statement(block: Node<'_>) -> Option<Node<'_>> {
    let last = named_children(block).last().copied()?;
    if last.kind_name() == "statement_list" {
        named_children(last).last().copied()
    } else {
        Some(last)
    }
}

/// `n` lies in a `select` case of the loop `lp` (`case <-ctx.Done():
/// return nil`): the loop ends because it was told to stop, not because
/// a try succeeded.
pub fn on_cancel(n: Node<'_>, lp: Node<'_>) -> bool {
    std::iter::successors(n.parent(), |p| p.parent())
        .take(64)
        .take_while(|p| p.id() != lp.id())
        .any(|p| p.kind_name() == "communication_case")
}

/// Words that begin a flag saying the loop was told to stop
/// (`shuttingDown`, `stopped`, `closing`, `quit`): a way out on such a
/// flag is no success. `done` is left out: `if done { return }` often
/// follows a try that finished.
const STOP_FLAGS: &[&str] = &["shut", "stop", "clos", "quit", "exit", "terminat", "cancel"];

/// Whether `n` lies in the consequence of an `if` of the loop `lp` whose
/// condition is a stop flag (`if r.shuttingDown { .. return }`, `if
/// s.isClosed() { break }`; grafana/loki 65e30f8488
/// `pkg/canary/reader/reader.go` `run`): the loop ends because it was told
/// to, whatever the last try did.
pub fn on_stop_flag(ctx: &Ctx<'_>, n: Node<'_>, lp: Node<'_>) -> bool {
    std::iter::successors(n.parent(), |p| p.parent())
        .take(64)
        .take_while(|p| p.id() != lp.id())
        .any(|p| {
            if p.kind_name() != "if_statement" {
                return false;
            }
            let inside = field(p, "consequence")
                .is_some_and(|c| c.start_byte() <= n.start_byte() && n.end_byte() <= c.end_byte());
            let Some(cond) = field(p, "condition").filter(|_| inside) else {
                return false;
            };
            let t = ctx.text(cond).trim();
            // One flag or flag call, not a comparison or a negation.
            if t.contains(['=', '<', '>', '!', '&', '|', ' ']) {
                return false;
            }
            let last = t.trim_end_matches("()");
            let last = last.rsplit('.').next().unwrap_or(last).to_ascii_lowercase();
            let last = last.strip_prefix("is").unwrap_or(&last);
            STOP_FLAGS.iter().any(|w| last.starts_with(w))
        })
}

/// Whether `n` lies on a shutdown branch of the loop: in the body of a
/// `select` case that receives from a context's `Done()` or from a stop
/// channel (`case <-stop:`, `case <-quit:`), not in the receive itself. A
/// wait there (a drain's grace period before leaving) is not a wait before
/// trying again (kumahq/kuma 348b652 `app/kuma-dp/cmd/run.go`).
pub fn on_shutdown_branch(ctx: &Ctx<'_>, n: Node<'_>, lp: Node<'_>) -> bool {
    std::iter::successors(n.parent(), |p| p.parent())
        .take(64)
        .take_while(|p| p.id() != lp.id())
        .any(|p| {
            if p.kind() != "communication_case" {
                return false;
            }
            let Some(comm) = field(p, "communication") else {
                return false;
            };
            if comm.start_byte() <= n.start_byte() && n.end_byte() <= comm.end_byte() {
                return false;
            }
            let t = ctx.text(comm);
            let Some(from) = t.rsplit("<-").next() else {
                return false;
            };
            let from = from.trim();
            let last = from.rsplit('.').next().unwrap_or(from).to_ascii_lowercase();
            from.ends_with(".Done()")
                || ["stop", "quit", "shutdown", "exit", "term", "done"]
                    .iter()
                    .any(|w| last.starts_with(w))
        })
}

/// A clock test of the loop's own that leaves it (`if time.Since(start) >
/// limit { return .. }`, `if begun.Add(d).Before(time.Now()) { break }`,
/// `time.Now().After(deadline)`, `time.Until(deadline) <= 0`): the time it
/// keeps trying is capped, by a length not known here.
///
/// Or the other way round: the `if` that goes round only while the clock
/// allows (`if err != nil && time.Now().Before(deadline) { sleep;
/// continue }`) followed by a way out (linkerd2 b24cd40
/// `pkg/healthcheck/healthcheck.go` `runCheck`).
pub fn has_elapsed_cap(ctx: &Ctx<'_>, own: &[Node<'_>]) -> bool {
    own.iter().any(|&c| {
        c.kind_name() == "if_statement"
            && field(c, "condition").is_some_and(|k| {
                let t: String = ctx.text(k).split_whitespace().collect();
                t.contains("time.Since(")
                    || t.contains("time.Until(")
                    || t.contains("time.Now().After(")
                    || t.contains("time.Now().Before(")
                    || t.contains("time.Now().Sub(")
                    || t.contains(".Before(time.Now())")
                    || t.contains(".After(time.Now())")
            })
            && field(c, "consequence")
                .and_then(last_statement)
                .is_some_and(|s| match s.kind_name() {
                    "return_statement" | "break_statement" => true,
                    "continue_statement" => leaves_after(c),
                    _ => false,
                })
    })
}

/// A statement after `n` in its block leaves the loop (`return`,
/// `break`), at most 64 looked at.
fn leaves_after(n: Node<'_>) -> bool {
    std::iter::successors(n.next_named_sibling(), |s| s.next_named_sibling())
        .take(64)
        .any(|s| matches!(s.kind_name(), "return_statement" | "break_statement"))
}

/// Names of a method that takes the next item off a queue or stream
/// (`e.pollTask(..)`, `sub.NextMsg(..)`, `q.Dequeue()`, `r.FetchMessage(..)`).
fn takes_next(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    [
        "poll", "take", "next", "receive", "recv", "dequeue", "pop", "consume",
    ]
    .iter()
    .any(|w| l.starts_with(w))
        || ["fetchmessage", "readmessage"]
            .iter()
            .any(|w| l.starts_with(w))
}

/// A consume loop: each pass takes another item (`task, err :=
/// e.pollTask(..)`) and hands it to a later call of the pass
/// (`e.recordStarted(ctx, task)`); a failed item is dropped or finished
/// and the next one taken, so what goes round is the queue, not the same
/// call tried again. A request built anew each pass (`http.NewRequest`)
/// is not taken from anywhere and does not count.
pub fn takes_items(ctx: &Ctx<'_>, own: &[Node<'_>]) -> bool {
    let mut items: Vec<(&str, usize)> = Vec::new();
    for &c in own {
        if c.kind_name() != "short_var_declaration" && c.kind_name() != "assignment_statement" {
            continue;
        }
        let (Some(l), Some(r)) = (field(c, "left"), field(c, "right")) else {
            continue;
        };
        let Some(call) = named_children(r)
            .first()
            .copied()
            .filter(|x| x.kind_name() == "call_expression")
        else {
            continue;
        };
        let method = field(call, "function")
            .filter(|f| f.kind_name() == "selector_expression")
            .and_then(|f| field(f, "field"))
            .map(|f| ctx.text(f));
        if !method.is_some_and(takes_next) {
            continue;
        }
        if let Some(first) = named_children(l)
            .first()
            .filter(|v| v.kind_name() == "identifier" && ctx.text(**v) != "_")
        {
            items.push((ctx.text(*first), c.end_byte()));
        }
    }
    items.iter().any(|&(name, after)| {
        own.iter().any(|&c| {
            c.kind_name() == "call_expression"
                && c.start_byte() >= after
                && !reports(ctx, c)
                && field(c, "arguments").is_some_and(|a| names_any(ctx, a, &[name]))
        })
    })
}

/// A function of the file the loop calls (`again, err := execute()`)
/// returns `false` when its context is done (`case <-ctx.Done(): return
/// false, nil`), and the loop leaves on that `false` (`if !again {
/// return }`): the context ends the loop, as a `case <-ctx.Done()` of its
/// own would.
pub fn called_stops_on_cancel(ctx: &Ctx<'_>, own: &[Node<'_>]) -> bool {
    let leaves_on_false = own.iter().any(|&c| {
        c.kind_name() == "if_statement"
            && field(c, "condition").is_some_and(|k| ctx.text(k).trim_start().starts_with('!'))
            && field(c, "consequence")
                .and_then(last_statement)
                .is_some_and(|s| matches!(s.kind_name(), "return_statement" | "break_statement"))
    });
    if !leaves_on_false {
        return false;
    }
    own.iter().any(|&c| {
        c.kind_name() == "call_expression"
            && field(c, "function").is_some_and(|f| f.kind_name() == "identifier")
            && field(c, "function")
                .and_then(|f| super::super::libs::operation_range(ctx, f))
                .is_some_and(|(start, end)| cancel_returns_false(ctx, start, end))
    })
}

/// A `case <-x.Done():` between `start` and `end` whose body returns
/// `false` first (bounded by the file's nodes in that range).
fn cancel_returns_false(ctx: &Ctx<'_>, start: usize, end: usize) -> bool {
    let from = ctx.nodes.partition_point(|n| n.start_byte() < start);
    ctx.nodes[from..]
        .iter()
        .take_while(|n| n.start_byte() < end)
        .take(20_000)
        .filter(|n| n.kind_name() == "communication_case")
        .any(|cc| {
            let t = ctx.text(*cc);
            t.trim_start().starts_with("case <-")
                && t.split(':').next().is_some_and(|h| h.contains(".Done()"))
                && named_children(*cc)
                    .iter()
                    .filter(|s| s.kind_name() == "statement_list")
                    .flat_map(|s| named_children(*s))
                    .any(|s| {
                        s.kind_name() == "return_statement"
                            && ctx
                                .text(s)
                                .strip_prefix("return")
                                .is_some_and(|r| r.trim_start().starts_with("false"))
                    })
        })
}

/// No test in the loop (nested ones included) looks at an error or a nil
/// result: no `if` or `switch` whose condition names `err`, `.Err()` or
/// `nil`. What the loop waits for is a state (`phase.Completed()`), not a
/// call that failed.
pub fn tests_no_error(ctx: &Ctx<'_>, body: Node<'_>) -> bool {
    let mut stack = vec![body];
    let mut seen = 0usize;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 20_000 {
            return false;
        }
        let tested = match n.kind_name() {
            "func_literal" => continue,
            "if_statement" => field(n, "condition").map(|k| ctx.text(k)),
            "expression_switch_statement" | "type_switch_statement" => Some(ctx.text(n)),
            _ => None,
        };
        if tested.is_some_and(|k| k.contains("err") || k.contains("Err()") || k.contains("nil")) {
            return false;
        }
        stack.extend(named_children(n));
    }
    true
}

/// `if ctx.Err() != nil { return .. }` in the loop, with `ctx` made by
/// `context.WithTimeout` or `context.WithDeadline` in the function around
/// it (external-secrets `waitForCerts`): the deadline ends the loop, its
/// length not known here.
pub fn context_deadline_leaves(ctx: &Ctx<'_>, lp: Node<'_>, own: &[Node<'_>]) -> bool {
    let Some(func) = super::super::enclosing_function(lp) else {
        return false;
    };
    let body = ctx.text(func);
    own.iter().any(|&c| {
        if c.kind_name() != "if_statement" {
            return false;
        }
        let Some(k) = field(c, "condition").map(|k| ctx.text(k)) else {
            return false;
        };
        let Some(name) = k
            .trim()
            .strip_suffix("!= nil")
            .map(str::trim)
            .and_then(|x| x.strip_suffix(".Err()"))
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
        else {
            return false;
        };
        let leaves = field(c, "consequence")
            .and_then(last_statement)
            .is_some_and(|s| matches!(s.kind_name(), "return_statement" | "break_statement"));
        leaves
            && body.lines().take(20_000).any(|l| {
                let l = l.trim_start();
                l.starts_with(&format!("{name},"))
                    && (l.contains("context.WithTimeout(") || l.contains("context.WithDeadline("))
            })
    })
}

/// Each pass asks where the last answer said: the loop sets an argument
/// of its call from what that call returned (`w.URL =
/// resp.Header.Get("Location")` before `continue`, the call being
/// `websocket.Dial(ctx, w.URL, ..)`). Following a redirect (or a cursor
/// the server hands back) asks another address or item each pass, not the
/// same call again (hashicorp/vault-secrets-operator 9b840a5a
/// `vault/websocket.go` follows 307s to the leader, 10 hops at most).
pub fn follows_answer(ctx: &Ctx<'_>, own: &[Node<'_>]) -> bool {
    own.iter().any(|&c| {
        if c.kind_name() != "call_expression" || reports(ctx, c) {
            return false;
        }
        let Some(stmt) = c
            .parent()
            .filter(|p| p.kind_name() == "expression_list")
            .and_then(|p| p.parent())
        else {
            return false;
        };
        if !matches!(
            stmt.kind_name(),
            "assignment_statement" | "short_var_declaration"
        ) {
            return false;
        }
        let bound: Vec<&str> = field(stmt, "left")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|l| l.kind_name() == "identifier" && ctx.text(*l) != "_")
            .map(|l| ctx.text(l))
            .collect();
        let args: Vec<&str> = field(c, "arguments")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .map(|a| ctx.text(a))
            .collect();
        if bound.is_empty() || args.is_empty() {
            return false;
        }
        own.iter().any(|&a| {
            a.kind_name() == "assignment_statement"
                && a.start_byte() > c.end_byte()
                && field(a, "operator").is_some_and(|o| ctx.text(o) == "=")
                && field(a, "left").is_some_and(|l| {
                    let ls = named_children(l);
                    ls.len() == 1
                        && matches!(ls[0].kind_name(), "identifier" | "selector_expression")
                        && args.contains(&ctx.text(ls[0]))
                        && !bound.contains(&ctx.text(ls[0]))
                })
                && field(a, "right").is_some_and(|r| names_any(ctx, r, &bound))
        })
    })
}
