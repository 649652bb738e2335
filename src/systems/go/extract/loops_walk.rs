//! Loops that look like retries but are not: a walk over items (each pass
//! hands the call another one), and exits that give up rather than
//! succeed, as the Java loop reader sorts them (`walks_items`).

use super::super::{Ctx, Pkg, field, named_children};
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
        let var = match s.kind() {
            "inc_statement" | "dec_statement" => named_children(s).first().copied(),
            "assignment_statement"
                if field(s, "operator").is_some_and(|o| matches!(ctx.text(o), "+=" | "-=")) =>
            {
                field(s, "left").and_then(|l| named_children(l).first().copied())
            }
            _ => None,
        };
        if let Some(v) = var.filter(|v| v.kind() == "identifier") {
            let name = ctx.text(v);
            if !counts_attempts(name) && !out.contains(&name) {
                out.push(name);
            }
        }
    };
    if let Some(update) = named_children(lp)
        .into_iter()
        .find(|c| c.kind() == "for_clause")
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
    let vars = stepped(ctx, lp, own);
    if vars.is_empty() {
        return false;
    }
    own.iter().any(|&c| {
        c.kind() == "call_expression"
            && !reports(ctx, c)
            && !inside_report(ctx, c, lp)
            && field(c, "arguments").is_some_and(|a| names_any(ctx, a, &vars))
    })
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
        if c.kind() == "call_expression" && reports(ctx, c) {
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
        if x.kind() == "identifier" && vars.contains(&ctx.text(x)) {
            return true;
        }
        if x.kind() != "func_literal" {
            stack.extend(named_children(x));
        }
    }
    false
}

/// A `return` that gives up: it returns a new error (`return
/// fmt.Errorf("timeout waiting ..")`, `errors.New(..)`), the way a poll
/// ends at its deadline. Not a success leaving the loop.
pub fn gives_up(ctx: &Ctx<'_>, ret: Node<'_>) -> bool {
    if ret.kind() != "return_statement" {
        return false;
    }
    let Some(list) = named_children(ret).first().copied() else {
        return false;
    };
    let last = if list.kind() == "expression_list" {
        named_children(list).last().copied()
    } else {
        Some(list)
    };
    last.filter(|e| e.kind() == "call_expression")
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
        matches!(c.kind(), "break_statement" | "return_statement")
            && std::iter::successors(c.parent(), |p| p.parent())
                .take(8)
                .find(|p| matches!(p.kind(), "if_statement" | "for_statement" | "func_literal"))
                .filter(|p| p.kind() == "if_statement")
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
        match n.kind() {
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
                        .is_some_and(|s| s.kind() == "return_statement");
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
fn last_statement(block: Node<'_>) -> Option<Node<'_>> {
    let last = named_children(block).last().copied()?;
    if last.kind() == "statement_list" {
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
        .any(|p| p.kind() == "communication_case")
}

/// A clock test of the loop's own that leaves it (`if time.Since(start) >
/// limit { return .. }`, `if begun.Add(d).Before(time.Now()) { break }`,
/// `time.Now().After(deadline)`, `time.Until(deadline) <= 0`): the time it
/// keeps trying is capped, by a length not known here.
pub fn has_elapsed_cap(ctx: &Ctx<'_>, own: &[Node<'_>]) -> bool {
    own.iter().any(|&c| {
        c.kind() == "if_statement"
            && field(c, "condition").is_some_and(|k| {
                let t: String = ctx.text(k).split_whitespace().collect();
                t.contains("time.Since(")
                    || t.contains("time.Until(")
                    || t.contains("time.Now().After(")
                    || t.contains("time.Now().Sub(")
                    || t.contains(".Before(time.Now())")
            })
            && field(c, "consequence")
                .and_then(last_statement)
                .is_some_and(|s| matches!(s.kind(), "return_statement" | "break_statement"))
    })
}
