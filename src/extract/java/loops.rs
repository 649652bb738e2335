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

use super::ast::{self, field, named_children, span};
use super::{Ctx, Out, RetryScope};
use crate::extract::Facts;
use crate::model::*;
use crate::source::Span;
use std::time::Duration;
use tree_sitter::Node;

const LOOPS: &[&str] = &[
    "for_statement",
    "while_statement",
    "do_statement",
    "enhanced_for_statement",
];

/// Nodes whose insides belong to someone else.
fn nested(n: Node<'_>) -> bool {
    LOOPS.contains(&n.kind())
        || matches!(
            n.kind(),
            "lambda_expression" | "class_body" | "method_declaration" | "constructor_declaration"
        )
}

fn own_nodes(body: Node<'_>) -> Vec<Node<'_>> {
    ast::descendants_until(body, nested)
}

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    for &n in &ctx.nodes {
        if !matches!(
            n.kind(),
            "for_statement" | "while_statement" | "do_statement"
        ) {
            continue;
        }
        if let Some(p) = retry_loop(ctx, n) {
            let idx = facts.policies.len();
            facts.policies.push(p);
            if let Some(body) = field(n, "body") {
                out.scopes.push(RetryScope { body, policy: idx });
            }
        }
    }
}

/// The statements of a block (or the statement itself).
fn statements(n: Node<'_>) -> Vec<Node<'_>> {
    if n.kind() == "block" {
        named_children(n)
    } else {
        vec![n]
    }
}

fn exits(n: Node<'_>) -> bool {
    matches!(
        n.kind(),
        "return_statement" | "break_statement" | "throw_statement"
    )
}

fn is_sleep_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.contains("sleep")
        || l.contains("pause")
        || l.contains("backoff")
        || l == "parknanos"
        || l == "wait"
}

/// Identifiers mentioned in a node.
fn mentions(ctx: &Ctx<'_>, n: Node<'_>, name: &str) -> bool {
    ast::descendants(n)
        .into_iter()
        .any(|d| d.kind() == "identifier" && ctx.text(d) == name)
}

struct Try<'a> {
    node: Node<'a>,
    retrying: Vec<Node<'a>>,
    exiting: Vec<Node<'a>>,
}

fn retry_loop(ctx: &Ctx<'_>, lp: Node<'_>) -> Option<RetryPolicy> {
    let body = field(lp, "body")?;
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
        return None;
    }
    // A walk up a chain (`while (parent != null)`).
    if cond.is_some_and(|c| {
        conjuncts(ctx, c)
            .iter()
            .any(|p| compares_with_null(ctx, *p))
    }) {
        return None;
    }
    let own = own_nodes(body);
    // Iterating: the body takes the next element itself.
    if own.iter().any(|d| {
        d.kind() == "method_invocation"
            && field(*d, "name").is_some_and(|n| {
                let n = ctx.text(n);
                matches!(
                    n,
                    "next" | "hasNext" | "nextElement" | "hasMoreElements" | "poll" | "take"
                ) || n.starts_with("getNext")
            })
    }) {
        return None;
    }
    let cond_idents: Vec<&str> = cond
        .map(|c| {
            ast::descendants(c)
                .into_iter()
                .filter(|d| d.kind() == "identifier")
                .map(|d| ctx.text(d))
                .collect()
        })
        .unwrap_or_default();
    let body_stmts = statements(body);
    let mut found: Option<Try<'_>> = None;
    for &t in &own {
        if !matches!(t.kind(), "try_statement" | "try_with_resources_statement") {
            continue;
        }
        let Some(block) = field(t, "body") else {
            continue;
        };
        // Something other than a sleep is called.
        let calls = ast::descendants_until(block, nested)
            .into_iter()
            .filter(|d| d.kind() == "method_invocation")
            .any(|d| field(d, "name").is_some_and(|x| !is_sleep_name(ctx.text(x))));
        if !calls {
            continue;
        }
        let mut retrying = Vec::new();
        let mut exiting = Vec::new();
        for c in named_children(t)
            .into_iter()
            .filter(|c| c.kind() == "catch_clause")
        {
            let cb = field(c, "body");
            let last = cb.and_then(|b| named_children(b).last().copied());
            let types = catch_types(ctx, c);
            let only_interrupt = !types.is_empty()
                && types
                    .iter()
                    .all(|(t, _)| ast::last_segment(t) == "InterruptedException");
            if last.is_some_and(exits) || only_interrupt {
                exiting.push(c);
            } else {
                retrying.push(c);
            }
        }
        if retrying.is_empty() {
            continue;
        }
        // Following a referral or redirect, or failing over to the next
        // candidate, is not trying the same call again.
        if retrying.iter().any(|c| follows_next(ctx, *c, block)) {
            continue;
        }
        let block_stmts = statements(block);
        let direct_exit = block_stmts
            .iter()
            .any(|s| matches!(s.kind(), "return_statement" | "break_statement"));
        let flag_exit = block_stmts.iter().any(|s| {
            s.kind() == "expression_statement"
                && named_children(*s).first().is_some_and(|e| {
                    e.kind() == "assignment_expression"
                        && field(*e, "left").is_some_and(|l| cond_idents.contains(&ctx.text(l)))
                        && field(*e, "right")
                            .is_some_and(|r| matches!(ctx.text(r), "true" | "false"))
                })
        });
        let after_exit = retrying.iter().any(|c| {
            field(*c, "body")
                .and_then(|b| named_children(b).last().copied())
                .is_some_and(|l| l.kind() == "continue_statement")
        }) && body_stmts
            .iter()
            .position(|s| s.id() == t.id())
            .is_some_and(|i| {
                body_stmts[i + 1..]
                    .iter()
                    .any(|s| matches!(s.kind(), "return_statement" | "break_statement"))
            });
        if direct_exit || flag_exit || after_exit {
            found = Some(Try {
                node: t,
                retrying,
                exiting,
            });
            break;
        }
    }
    let tr = found?;
    let (counter_name, _) = header_counter(ctx, lp);
    // A counter used as an index walks a collection.
    if let Some(c) = &counter_name
        && indexes_with(ctx, &own, c)
    {
        return None;
    }
    let header_end = match lp.kind() {
        "do_statement" => cond.map_or(lp.end_byte(), |c| c.end_byte()),
        _ => body.start_byte(),
    };
    let header = if lp.kind() == "do_statement" {
        Span::new(lp.start_byte(), lp.start_byte() + 2)
    } else {
        Span::new(lp.start_byte(), header_end.max(lp.start_byte()))
    };
    let trimmed = Span::new(
        header.start,
        header.start
            + ctx
                .src
                .get(header.start..header.end)
                .unwrap_or("")
                .trim_end()
                .len(),
    );
    let attempts = bound(ctx, lp, &own, trimmed);
    let mut p = RetryPolicy::new(System::JavaLoop, trimmed, attempts);
    p.name = ctx.enclosing_method(lp).map(|(_, m)| m);
    let (delay, jitter) = wait(ctx, lp, &own, trimmed);
    p.delay = delay;
    p.jitter = jitter;
    // What is retried.
    let mut conditions = Vec::new();
    let mut all = false;
    let mut catch_span = None;
    for c in &tr.retrying {
        for (t, s) in catch_types(ctx, *c) {
            catch_span = Some(catch_span.map_or(s, |x: Span| x.cover(s)));
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
    p.retry_on = if all && p.ignores.iter().all(|i| matches!(&i.value, Condition::Exception(t) if ast::last_segment(t) == "InterruptedException")) {
        Located::written(RetryOn::AllErrors, cs)
    } else {
        Located::written(RetryOn::Listed { conditions }, cs)
    };
    p.methods = Located::default_at(Methods::Unknown, trimmed);
    Some(p)
}

/// Whether the counter selects an element: `a[i]`, `list.get(i)`,
/// `params.get("" + i)`.
fn indexes_with(ctx: &Ctx<'_>, own: &[Node<'_>], counter: &str) -> bool {
    own.iter().any(|&d| {
        if d.kind() != "identifier" || ctx.text(d) != counter {
            return false;
        }
        let mut cur = d;
        for _ in 0..4 {
            let Some(p) = ctx.parent(cur) else {
                return false;
            };
            match p.kind() {
                "array_access" => return field(p, "index").is_some_and(|i| ast::within(d, i)),
                "argument_list" => {
                    return ctx
                        .parent(p)
                        .and_then(|call| field(call, "name"))
                        .is_some_and(|n| {
                            matches!(
                                ctx.text(n),
                                "get"
                                    | "charAt"
                                    | "elementAt"
                                    | "getOrDefault"
                                    | "getProperty"
                                    | "getParameter"
                                    | "subList"
                                    | "item"
                            )
                        });
                }
                "binary_expression" | "parenthesized_expression" | "cast_expression" => cur = p,
                _ => return false,
            }
        }
        false
    })
}

fn compares_with_null(ctx: &Ctx<'_>, e: Node<'_>) -> bool {
    let e = ast::unwrap_expr(e);
    e.kind() == "binary_expression"
        && field(e, "operator").is_some_and(|o| matches!(ctx.text(o), "!=" | "=="))
        && [field(e, "left"), field(e, "right")]
            .into_iter()
            .flatten()
            .any(|x| x.kind() == "null_literal")
}

/// Whether a catch clause moves on to something else rather than trying
/// again: it catches a referral or redirect, assigns the caught exception
/// to a variable the loop reads, or assigns a computed value to a variable
/// the try block uses (the next candidate).
fn follows_next(ctx: &Ctx<'_>, c: Node<'_>, try_block: Node<'_>) -> bool {
    let types = catch_types(ctx, c);
    if types
        .iter()
        .any(|(t, _)| t.contains("Referral") || t.contains("Redirect"))
    {
        return true;
    }
    let param = named_children(c)
        .into_iter()
        .find(|p| p.kind() == "catch_formal_parameter")
        .and_then(|p| field(p, "name"))
        .map(|n| ctx.text(n));
    let Some(body) = field(c, "body") else {
        return false;
    };
    for d in ast::descendants_until(body, nested) {
        if d.kind() != "assignment_expression"
            || field(d, "operator").is_none_or(|o| ctx.text(o) != "=")
        {
            continue;
        }
        let (Some(l), Some(r)) = (field(d, "left"), field(d, "right")) else {
            continue;
        };
        let r = ast::unwrap_expr(r);
        if l.kind() != "identifier" {
            continue;
        }
        let name = ctx.text(l);
        if param.is_some_and(|p| ctx.text(r) == p) {
            // `e = re`: the exception drives the next pass when the loop
            // reads it outside this catch.
            let loop_reads = ctx.ancestor(c, LOOPS).is_some_and(|lp| {
                ast::descendants(lp).into_iter().any(|x| {
                    x.kind() == "identifier"
                        && ctx.text(x) == name
                        && !ast::within(x, c)
                        && ctx
                            .parent(x)
                            .is_some_and(|p| p.kind() != "assignment_expression")
                })
            });
            if loop_reads {
                return true;
            }
            continue;
        }
        let computed = matches!(
            r.kind(),
            "method_invocation" | "field_access" | "identifier" | "array_access"
        );
        if computed && mentions(ctx, try_block, name) {
            return true;
        }
    }
    false
}

fn catch_types(ctx: &Ctx<'_>, c: Node<'_>) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for p in named_children(c) {
        if p.kind() != "catch_formal_parameter" {
            continue;
        }
        for t in named_children(p) {
            if t.kind() == "catch_type" {
                for ty in named_children(t) {
                    out.push((ctx.text(ty).to_string(), span(ty)));
                }
            }
        }
    }
    out
}

/// The counter declared and updated in a `for` header.
fn header_counter(ctx: &Ctx<'_>, lp: Node<'_>) -> (Option<String>, Option<i128>) {
    if lp.kind() != "for_statement" {
        return (None, None);
    }
    let Some(init) = field(lp, "init") else {
        return (None, None);
    };
    for d in ast::descendants(init) {
        if d.kind() == "variable_declarator" {
            let name = field(d, "name").map(|x| ctx.text(x).to_string());
            let v = field(d, "value").and_then(|v| ctx.int(v));
            return (name, v);
        }
        if d.kind() == "assignment_expression" {
            let name = field(d, "left").map(|x| ctx.text(x).to_string());
            let v = field(d, "right").and_then(|v| ctx.int(v));
            return (name, v);
        }
    }
    (None, None)
}

fn count(n: i128) -> AttemptCount {
    if n >= i32::MAX as i128 {
        AttemptCount::Unbounded
    } else {
        AttemptCount::Finite(n.max(1) as u64)
    }
}

/// A comparison `counter OP limit` (either side), with the counter's
/// pre/post update if written in the comparison.
struct Cmp<'a> {
    counter: String,
    op: String,
    limit: Node<'a>,
    /// `++c` or `c++` written inside the comparison: Some(pre).
    inc: Option<bool>,
    dec: bool,
    node: Node<'a>,
}

fn comparison<'a>(ctx: &Ctx<'a>, e: Node<'a>) -> Option<Cmp<'a>> {
    let e = ast::unwrap_expr(e);
    if e.kind() != "binary_expression" {
        return None;
    }
    let op = ctx.text(field(e, "operator")?).to_string();
    if !matches!(op.as_str(), "<" | "<=" | ">" | ">=" | "==" | "!=") {
        return None;
    }
    let l = ast::unwrap_expr(field(e, "left")?);
    let r = ast::unwrap_expr(field(e, "right")?);
    let side = |x: Node<'a>| -> Option<(String, Option<bool>, bool)> {
        match x.kind() {
            "identifier" => Some((ctx.text(x).to_string(), None, false)),
            "field_access" => field(x, "field").map(|f| (ctx.text(f).to_string(), None, false)),
            "update_expression" => {
                let t = ctx.text(x);
                let id = named_children(x)
                    .first()
                    .map(|i| ctx.text(*i).to_string())?;
                let pre = t.starts_with("++") || t.starts_with("--");
                let dec = t.contains("--");
                Some((id, Some(pre), dec))
            }
            _ => None,
        }
    };
    let flip = |o: &str| -> String {
        match o {
            "<" => ">",
            "<=" => ">=",
            ">" => "<",
            ">=" => "<=",
            o => o,
        }
        .to_string()
    };
    if let Some((c, inc, dec)) = side(l)
        && (ctx.int(r).is_some() || r.kind() != "update_expression")
        && !(r.kind() == "identifier" && ctx.int(r).is_none() && ctx.int(l).is_some())
    {
        return Some(Cmp {
            counter: c,
            op,
            limit: r,
            inc,
            dec,
            node: e,
        });
    }
    let (c, inc, dec) = side(r)?;
    Some(Cmp {
        counter: c,
        op: flip(&op),
        limit: l,
        inc,
        dec,
        node: e,
    })
}

/// Comparisons in a condition joined by `&&`.
fn conjuncts<'a>(ctx: &Ctx<'a>, e: Node<'a>) -> Vec<Node<'a>> {
    junctions(ctx, e, &["&&"])
}

/// Whether the counter is decremented in the loop's own nodes.
fn decrements(ctx: &Ctx<'_>, own: &[Node<'_>], name: &str) -> bool {
    own.iter().any(|d| match d.kind() {
        "update_expression" => {
            ctx.text(*d).contains("--")
                && named_children(*d)
                    .first()
                    .is_some_and(|i| ctx.text(*i) == name)
        }
        "assignment_expression" => {
            field(*d, "left").is_some_and(|l| ctx.text(l) == name)
                && field(*d, "operator").is_some_and(|o| ctx.text(o) == "-=")
        }
        _ => false,
    })
}

/// The operands of a condition split on the given boolean operators.
fn junctions<'a>(ctx: &Ctx<'a>, e: Node<'a>, ops: &[&str]) -> Vec<Node<'a>> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        let x = ast::unwrap_expr(x);
        if x.kind() == "binary_expression"
            && field(x, "operator").is_some_and(|o| ops.contains(&ctx.text(o)))
        {
            if let (Some(l), Some(r)) = (field(x, "left"), field(x, "right")) {
                stack.push(r);
                stack.push(l);
            }
        } else {
            out.push(x);
        }
        if out.len() > 64 {
            break;
        }
    }
    out
}

/// The start value of a counter: its initializer before the loop.
fn start_of(ctx: &Ctx<'_>, name: &str, lp: Node<'_>) -> Option<i128> {
    let v = ctx.var(name, lp)?;
    // A field keeps its value across calls: its initializer is not where
    // this loop starts.
    v.scope?;
    match v.value {
        Some(x) => ctx.int(x),
        None => None,
    }
}

/// Whether the counter is incremented in the loop's own nodes (or header),
/// and where the first increment is.
fn increments<'a>(ctx: &Ctx<'a>, lp: Node<'a>, own: &[Node<'a>], name: &str) -> Option<Node<'a>> {
    let upd = field(lp, "update").into_iter().flat_map(ast::descendants);
    own.iter().copied().chain(upd).find(|d| match d.kind() {
        "update_expression" => {
            ctx.text(*d).contains("++")
                && named_children(*d)
                    .first()
                    .is_some_and(|i| ctx.text(*i) == name)
        }
        "assignment_expression" => {
            field(*d, "left")
                .is_some_and(|l| ctx.text(l) == name || ctx.text(l) == format!("this.{name}"))
                && field(*d, "operator").is_some_and(|o| ctx.text(o) == "+=")
        }
        _ => false,
    })
}

fn bound(ctx: &Ctx<'_>, lp: Node<'_>, own: &[Node<'_>], header: Span) -> Located<Attempts> {
    let cond = field(lp, "condition");
    let infinite = cond.is_none_or(|c| {
        let t = ctx
            .text(c)
            .trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace())
            .to_string();
        t == "true"
    });
    let written = |count: AttemptCount, what: String, s: Span| {
        Located::written(
            Attempts {
                count,
                written_as: what,
            },
            s,
        )
    };
    // 1. The condition compares a counter with a limit.
    if let Some(c) = cond.filter(|_| !infinite) {
        for part in conjuncts(ctx, c) {
            let Some(cmp) = comparison(ctx, part) else {
                continue;
            };
            let what = ctx.text(cmp.node).to_string();
            let s = span(cmp.node);
            let Some(limit) = ctx.int(cmp.limit) else {
                if ctx.text(cmp.limit).ends_with("MAX_VALUE") {
                    return written(AttemptCount::Unbounded, what, s);
                }
                // A limit the file does not hold, if the counter moves.
                if cmp.inc.is_some() || increments(ctx, lp, own, &cmp.counter).is_some() {
                    return written(AttemptCount::Unknown, what, s);
                }
                continue;
            };
            if limit >= i32::MAX as i128 {
                return written(AttemptCount::Unbounded, what, s);
            }
            let start = if lp.kind() == "for_statement" {
                header_counter(ctx, lp)
                    .1
                    .or_else(|| start_of(ctx, &cmp.counter, lp))
            } else {
                start_of(ctx, &cmp.counter, lp)
            };
            // Counting down: `retries-- > 0`, `i > 0; i--`.
            let down = cmp.dec
                || field(lp, "update").is_some_and(|u| ctx.text(u).contains("--"))
                || own.iter().any(|d| {
                    d.kind() == "update_expression"
                        && ctx.text(*d).contains("--")
                        && mentions(ctx, *d, &cmp.counter)
                });
            let n = match (start, down, cmp.op.as_str()) {
                (Some(s), false, "<") => limit - s - i128::from(cmp.inc == Some(true)),
                (Some(s), false, "<=") => limit - s + 1 - i128::from(cmp.inc == Some(true)),
                (Some(s), false, "!=") => limit - s,
                (Some(s), true, ">") => s - limit - i128::from(cmp.inc == Some(true)),
                (Some(s), true, ">=") => s - limit + 1 - i128::from(cmp.inc == Some(true)),
                _ => return written(AttemptCount::Unknown, what, s),
            };
            // A do-while runs its body once before the first test.
            let n = if lp.kind() == "do_statement" && cmp.inc.is_none() && !down {
                n.max(1)
            } else {
                n
            };
            return written(count(n), what, s);
        }
    }
    // 2. An `if` that leaves the loop once a counter reaches a limit.
    for &d in own {
        if d.kind() != "if_statement" {
            continue;
        }
        let Some(cons) = field(d, "consequence") else {
            continue;
        };
        let leaves = statements(cons).iter().any(|s| exits(*s));
        if !leaves {
            continue;
        }
        let Some(c) = field(d, "condition") else {
            continue;
        };
        for part in junctions(ctx, c, &["&&", "||"]) {
            let Some(cmp) = comparison(ctx, part) else {
                continue;
            };
            // Counting down to an exit: `if (--attemptsLeft <= 0) throw e;`.
            if cmp.dec || decrements(ctx, own, &cmp.counter) {
                let what = ctx.text(cmp.node).to_string();
                let s = span(cmp.node);
                let (Some(start), Some(limit)) =
                    (start_of(ctx, &cmp.counter, lp), ctx.int(cmp.limit))
                else {
                    return written(AttemptCount::Unknown, what, s);
                };
                let n = match cmp.op.as_str() {
                    "<=" | "==" => start - limit,
                    "<" => start - limit + 1,
                    _ => return written(AttemptCount::Unknown, what, s),
                };
                return written(count(n), what, s);
            }
            let inc = match cmp.inc {
                Some(pre) => Some(pre),
                None => {
                    increments(ctx, lp, own, &cmp.counter).map(|i| i.start_byte() < d.start_byte())
                }
            };
            let Some(inc_before) = inc else { continue };
            let what = ctx.text(cmp.node).to_string();
            let s = span(cmp.node);
            let Some(limit) = ctx.int(cmp.limit) else {
                return written(AttemptCount::Unknown, what, s);
            };
            if limit >= i32::MAX as i128 {
                return written(AttemptCount::Unbounded, what, s);
            }
            let start = start_of(ctx, &cmp.counter, lp).unwrap_or(0);
            let n = match (inc_before, cmp.op.as_str()) {
                (true, ">=" | "==") => limit - start,
                (true, ">") => limit - start + 1,
                (false, ">=" | "==") => limit - start + 1,
                (false, ">") => limit - start + 2,
                _ => return written(AttemptCount::Unknown, what, s),
            };
            return written(count(n), what, s);
        }
    }
    if infinite {
        let t = cond.map_or("for (;;)".to_string(), |c| format!("while {}", ctx.text(c)));
        return written(AttemptCount::Unbounded, t, header);
    }
    // A flag loop (`while (!done)`) with no counter has no limit; a
    // condition that asks something else (`policy.attempt()`) has one the
    // file does not show.
    let t = cond.map_or(String::new(), |c| ctx.text(c).to_string());
    let flag = cond.is_some_and(|c| {
        let inner = ast::unwrap_expr(c);
        let inner = if inner.kind() == "unary_expression" {
            named_children(inner)
                .first()
                .map_or(inner, |x| ast::unwrap_expr(*x))
        } else {
            inner
        };
        matches!(inner.kind(), "identifier" | "field_access")
    });
    if flag {
        written(
            AttemptCount::Unbounded,
            format!("while {t} (no attempt limit)"),
            header,
        )
    } else {
        written(AttemptCount::Unknown, format!("while {t}"), header)
    }
}

fn is_random(t: &str) -> bool {
    t.contains("random")
        || t.contains("Random")
        || t.contains("nextInt")
        || t.contains("nextLong")
        || t.contains("nextDouble")
}

/// The wait between attempts.
fn wait(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    own: &[Node<'_>],
    header: Span,
) -> (Located<Delay>, Located<Jitter>) {
    const MS: Duration = Duration::from_millis(1);
    for &d in own {
        if d.kind() != "method_invocation" {
            continue;
        }
        let name = field(d, "name").map_or("", |x| ctx.text(x));
        let obj = ctx.name_of(field(d, "object"));
        let args = field(d, "arguments")
            .map(named_children)
            .unwrap_or_default();
        let (unit, arg) = match (ast::last_segment(obj), name) {
            ("Thread", "sleep") => (MS, args.first().copied()),
            (u, "sleep") if ast::time_unit(u).is_some() => {
                (ast::time_unit(u).unwrap_or(MS), args.first().copied())
            }
            ("LockSupport", "parkNanos") => (Duration::from_nanos(1), args.last().copied()),
            ("Uninterruptibles", "sleepUninterruptibly") => (
                args.get(1)
                    .and_then(|u| ast::time_unit(ctx.text(*u)))
                    .unwrap_or(MS),
                args.first().copied(),
            ),
            (_, "wait") if args.len() == 1 => (MS, args.first().copied()),
            // `Unsafe.park(false, nanos)`.
            (_, "park") if args.len() == 2 => (Duration::from_nanos(1), args.last().copied()),
            (_, n) if is_sleep_name(n) && n != "wait" => (MS, args.first().copied()),
            _ => continue,
        };
        let s = span(d);
        let Some(arg) = arg else {
            return (
                Located::written(Delay::Custom, s),
                Located::written(Jitter::Unknown, s),
            );
        };
        return delay_of(ctx, lp, own, arg, unit, s);
    }
    (
        Located::default_at(Delay::None, header),
        Located::default_at(Jitter::None, header),
    )
}

fn delay_of(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    own: &[Node<'_>],
    arg: Node<'_>,
    unit: Duration,
    s: Span,
) -> (Located<Delay>, Located<Jitter>) {
    let arg = ast::unwrap_expr(arg);
    let t = ctx.text(arg);
    // A variable: look at what the loop does to it.
    let (var, var_updates): (Option<&str>, Vec<Node<'_>>) = if arg.kind() == "identifier" {
        let name = ctx.text(arg);
        let ups = own
            .iter()
            .copied()
            .filter(|d| {
                d.kind() == "assignment_expression"
                    && field(*d, "left").is_some_and(|l| ctx.text(l) == name)
            })
            .collect();
        (Some(name), ups)
    } else {
        (None, Vec::new())
    };
    let upd_text: String = var_updates
        .iter()
        .map(|u| ctx.text(*u))
        .collect::<Vec<_>>()
        .join(";");
    let init_text = var
        .and_then(|v| ctx.var(v, lp))
        .and_then(|v| v.value)
        .map_or("", |v| ctx.text(v));
    let random =
        is_random(t) || is_random(&upd_text) || (var_updates.is_empty() && is_random(init_text));
    let jitter = if !random {
        Jitter::None
    } else if arg.kind() == "method_invocation" && is_random(t) {
        Jitter::Full
    } else if t.contains('+') {
        Jitter::Additive
    } else {
        Jitter::Unknown
    };
    let jitter = Located::written(jitter, s);
    // Exponential growth written in place: `base * Math.pow(2, attempt)`,
    // `base << attempt`, `1L << attempt`.
    if t.contains("Math.pow") || t.contains("<<") {
        let base = exp_base(ctx, arg).and_then(|b| ast::scale(unit, b as f64));
        let mult = pow_base(ctx, arg).unwrap_or(2.0);
        let d = match base {
            Some(base) => Delay::Exponential {
                base,
                multiplier: mult,
                cap: None,
            },
            None => Delay::Custom,
        };
        return (Located::written(d, s), jitter);
    }
    if let Some(v) = var
        && !var_updates.is_empty()
    {
        // `delay *= 2`, `delay = delay * 2`, `delay <<= 1`,
        // `delay = Math.min(delay * 2, MAX)`.
        let mut mult = None;
        let mut cap = None;
        for u in &var_updates {
            let op = field(*u, "operator").map_or("", |o| ctx.text(o));
            let Some(r) = field(*u, "right") else {
                continue;
            };
            match op {
                "*=" => mult = ctx.float(r),
                "<<=" => {
                    mult = ctx
                        .int(r)
                        .filter(|x| (0..32).contains(x))
                        .map(|x| (1u64 << x) as f64)
                }
                "=" => {
                    let rt = ctx.text(r);
                    if let Some((m, c)) = growth(ctx, r, v) {
                        mult = Some(m);
                        cap = c.and_then(|c| ast::scale(unit, c as f64));
                    } else if rt.contains(v) && rt.contains('*') {
                        mult = None;
                    }
                }
                _ => {}
            }
        }
        let base = ctx
            .var(v, lp)
            .and_then(|x| x.value)
            .and_then(|x| ctx.int(x))
            .and_then(|b| ast::scale(unit, b as f64));
        let d = match (mult, base) {
            (Some(multiplier), Some(base)) if multiplier > 1.0 => Delay::Exponential {
                base,
                multiplier,
                cap,
            },
            _ => Delay::Custom,
        };
        return (Located::written(d, s), jitter);
    }
    if let Some(n) = ctx.int(arg) {
        let d = ast::scale(unit, n.max(0) as f64)
            .map_or(Delay::Unknown, |delay| Delay::Fixed { delay });
        return (Located::written(d, s), jitter);
    }
    if arg.kind() == "method_invocation"
        && let Some(d) = ctx.duration(arg, unit)
    {
        return (Located::written(Delay::Fixed { delay: d }, s), jitter);
    }
    // Grows with the attempt (`attempt * 1000`) or is computed elsewhere.
    let d = if arg.kind() == "binary_expression" || arg.kind() == "method_invocation" {
        Delay::Custom
    } else {
        Delay::Unknown
    };
    (Located::written(d, s), jitter)
}

/// `Math.min(v * k, cap)` or `v * k`: (k, cap).
fn growth(ctx: &Ctx<'_>, r: Node<'_>, v: &str) -> Option<(f64, Option<i128>)> {
    let r = ast::unwrap_expr(r);
    if r.kind() == "method_invocation" && field(r, "name").is_some_and(|n| ctx.text(n) == "min") {
        let args = field(r, "arguments")
            .map(named_children)
            .unwrap_or_default();
        for (i, a) in args.iter().enumerate() {
            if let Some((m, _)) = growth(ctx, *a, v) {
                let cap = args.get(1 - i.min(1)).and_then(|c| ctx.int(*c));
                return Some((m, cap));
            }
        }
        return None;
    }
    if r.kind() == "binary_expression" {
        let op = field(r, "operator").map_or("", |o| ctx.text(o));
        let l = ast::unwrap_expr(field(r, "left")?);
        let rr = ast::unwrap_expr(field(r, "right")?);
        let k = if ctx.text(l) == v {
            rr
        } else if ctx.text(rr) == v {
            l
        } else {
            return None;
        };
        return match op {
            "*" => ctx.float(k).map(|m| (m, None)),
            "<<" => ctx
                .int(k)
                .filter(|x| (0..32).contains(x))
                .map(|x| ((1u64 << x) as f64, None)),
            _ => None,
        };
    }
    None
}

/// The constant factor in `base * Math.pow(..)` / `base << n`.
fn exp_base(ctx: &Ctx<'_>, e: Node<'_>) -> Option<i128> {
    let e = ast::unwrap_expr(e);
    if e.kind() != "binary_expression" {
        return None;
    }
    let op = field(e, "operator").map_or("", |o| ctx.text(o));
    let l = field(e, "left")?;
    let r = field(e, "right")?;
    match op {
        "<<" => ctx.int(l),
        "*" => ctx.int(l).or_else(|| ctx.int(r)),
        _ => None,
    }
}

/// The `2` of `Math.pow(2, n)`.
fn pow_base(ctx: &Ctx<'_>, e: Node<'_>) -> Option<f64> {
    for d in ast::descendants(e) {
        if d.kind() == "method_invocation" && field(d, "name").is_some_and(|n| ctx.text(n) == "pow")
        {
            let args = field(d, "arguments")
                .map(named_children)
                .unwrap_or_default();
            return args.first().and_then(|a| ctx.float(*a));
        }
    }
    None
}
