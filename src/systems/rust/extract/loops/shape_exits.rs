//! Tests on the pieces of a loop body that the shape reader ([`super::shape`])
//! asks about: how an expression or block leaves the loop, which variant a
//! pattern names and whether it picks some errors, whether a condition is a
//! bound (a counter or a clock), and whether an `Ok` arm runs what succeeded
//! until it is told to stop (a supervisor).

use super::*;
use syn::Pat;

/// Words of a value that bounds the loop rather than sorting errors
/// (`backoff.next().ok_or(e)?`, `deadline_as_timeout(deadline)?`).
pub(super) fn bound_words(t: &str) -> bool {
    let t = t.to_ascii_lowercase();
    [
        "backoff", "next", "deadline", "timeout", "elapsed", "attempt",
    ]
    .iter()
    .any(|w| t.contains(w))
}

/// A variant that gives up (`RetryAction::Fail`, `Permanent`, `GiveUp`)
/// or one that tries again (`RetryWithBackoff`, `Transient`).
pub(super) fn gives_up(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    ["fail", "permanent", "fatal", "giveup", "abort"]
        .iter()
        .any(|w| l.contains(w))
}
pub(super) fn tries_again(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.contains("retry") || l.contains("transient")
}

/// An interrupted or would-block read: the `EINTR` idiom, not a failure.
pub(super) fn eintr(spans: &Spans<'_>, p: &Pat) -> bool {
    if let Pat::Guard(g) = p {
        let t = text_of(spans, &g.guard);
        return t.contains("Interrupted") || t.contains("WouldBlock");
    }
    false
}

/// `timeout(d, fut).await.is_err()` on a future made before: waiting
/// again for the same future, not trying an operation again.
pub(super) fn rewaits(e: &Expr) -> bool {
    let Expr::MethodCall(m) = e else { return false };
    if m.method != "is_err" {
        return false;
    }
    let Expr::Await(a) = &*m.receiver else {
        return false;
    };
    let Expr::Call(c) = &*a.base else {
        return false;
    };
    let named_timeout = matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "timeout"));
    named_timeout
        && c.args.len() == 2
        && matches!(c.args.last(), Some(Expr::Path(p)) if p.path.get_ident().is_some())
}

/// Whether an expression holds a `return` or `break` anywhere (closures
/// and items aside).
pub(super) fn exits_anywhere(e: &Expr) -> bool {
    struct X(bool);
    impl<'a> Visit<'a> for X {
        fn visit_item(&mut self, _: &'a Item) {}
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_return(&mut self, _: &'a syn::ExprReturn) {
            self.0 = true;
        }
        fn visit_expr_break(&mut self, _: &'a syn::ExprBreak) {
            self.0 = true;
        }
    }
    let mut x = X(false);
    x.visit_expr(e);
    x.0
}

/// `std::process::exit(..)`: the process ends, so the loop does too.
pub(super) fn exits_process(e: &Expr) -> bool {
    matches!(e, Expr::Call(c) if matches!(&*c.func, Expr::Path(p)
        if p.path.segments.len() >= 2
            && p.path.segments.iter().rev().nth(1).is_some_and(|s| s.ident == "process")
            && p.path.segments.last().is_some_and(|s| s.ident == "exit")))
}

/// Whether a block leaves unconditionally (a direct `break`, `return` or
/// `continue 'outer` at its end, a macro that panics, or the process's end).
pub(super) fn leaves(e: &Expr) -> bool {
    match e {
        Expr::Return(_) | Expr::Break(_) => true,
        Expr::Call(_) => exits_process(e),
        Expr::Continue(c) => c.label.is_some(),
        Expr::Block(b) => block_leaves(&b.block),
        Expr::Macro(m) => leaving_macro(&m.mac.path) || cfg_if_returns(&m.mac),
        _ => false,
    }
}

/// Whether a macro leaves the function or the thread: `panic!`, `bail!`,
/// `unreachable!`, by their last path segment (`anyhow::bail!`,
/// `eyre::bail!`, `std::panic!`: linkerd2's policy-controller writes
/// `anyhow::bail!(error)` as the way out of a counted retry loop).
pub(super) fn leaving_macro(path: &syn::Path) -> bool {
    path.segments.last().is_some_and(|s| {
        ["panic", "bail", "unreachable"]
            .iter()
            .any(|w| s.ident == w)
    })
}

pub(super) fn block_leaves(b: &Block) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Expr(e, _) => leaves(e),
        Stmt::Macro(m) => leaving_macro(&m.mac.path) || cfg_if_returns(&m.mac),
        _ => false,
    })
}

/// `cfg_if::cfg_if! { if #[cfg(a)] { return Err(e); } else { return
/// Err(wrap(e)); } }`: every branch the build may keep returns, so the
/// statement leaves whichever is compiled (nymtech/nym `http-api-client`
/// `send`, sixteenth pass). Only the words are read: a branch holding
/// `return` is taken to end in it.
pub(super) fn cfg_if_returns(m: &syn::Macro) -> bool {
    use proc_macro2::{Delimiter, TokenTree};
    if m.path.segments.last().is_none_or(|s| s.ident != "cfg_if") {
        return false;
    }
    let branches: Vec<_> = m
        .tokens
        .clone()
        .into_iter()
        .filter_map(|t| match t {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => Some(g.stream()),
            _ => None,
        })
        .take(16)
        .collect();
    !branches.is_empty()
        && branches.iter().all(|b| {
            b.clone()
                .into_iter()
                .any(|t| matches!(&t, TokenTree::Ident(i) if i == "return"))
        })
}

pub(super) fn pat_variant(p: &Pat) -> Option<(String, Option<&Pat>)> {
    match p {
        Pat::TupleStruct(t) => {
            let name = t.path.segments.last()?.ident.to_string();
            Some((name, t.elems.first()))
        }
        Pat::Ident(i) if i.ident == "Ok" || i.ident == "Err" => None,
        Pat::Reference(r) => pat_variant(&r.pat),
        Pat::Guard(g) => pat_variant(&g.pat),
        Pat::Or(o) => o.cases.first().and_then(pat_variant),
        // `(Err(e), true)` of `match (result, retries < max)`: the
        // result's variant (the other elements are the bound).
        Pat::Tuple(t) => t.elems.first().and_then(pat_variant),
        _ => None,
    }
}

/// An inner pattern that picks some errors (`Err(Error::Unavailable(_))`),
/// not all (`Err(e)`, `Err(_)`).
pub(super) fn picks(p: &Pat) -> bool {
    matches!(
        p,
        Pat::TupleStruct(_)
            | Pat::Path(_)
            | Pat::Lit(_)
            | Pat::Range(_)
            | Pat::Or(_)
            | Pat::Struct(_)
    )
}

/// The comparison of a counter or a clock: a bound, not a classification.
pub(super) fn is_bound_test(e: &Expr) -> bool {
    match e {
        // `err.code() != Code::Unknown`: the error's code, not a count.
        Expr::Binary(b) if error_code(&b.left) || error_code(&b.right) => false,
        Expr::Binary(b) => {
            matches!(
                b.op,
                syn::BinOp::Lt(_)
                    | syn::BinOp::Le(_)
                    | syn::BinOp::Gt(_)
                    | syn::BinOp::Ge(_)
                    | syn::BinOp::Eq(_)
                    | syn::BinOp::Ne(_)
            ) || (matches!(b.op, syn::BinOp::And(_))
                && (is_bound_test(&b.left) || is_bound_test(&b.right)))
                // `!e.is_object_error() || retries >= max`: leaving on
                // either, the error test sorts failures; a bound only when
                // both sides are.
                || (matches!(b.op, syn::BinOp::Or(_))
                    && is_bound_test(&b.left)
                    && is_bound_test(&b.right))
        }
        Expr::Paren(p) => is_bound_test(&p.expr),
        // `matches!(attempt, Position::Last(_))` over `(0..3).with_position()`:
        // the last attempt, a bound.
        Expr::Macro(m) if m.mac.path.is_ident("matches") => {
            let t: String = m.mac.tokens.to_string().split_whitespace().collect();
            t.contains("Position::Last") || t.contains("Position::Only")
        }
        _ => false,
    }
}

/// `err.code()`, `e.kind()`, `status.code()`: what sort of failure it is.
fn error_code(e: &Expr) -> bool {
    matches!(e, Expr::MethodCall(m) if m.args.is_empty()
        && matches!(m.method.to_string().as_str(), "code" | "kind" | "error_code" | "status_code"))
}

pub(super) fn text_of(spans: &Spans<'_>, e: &Expr) -> String {
    spans.text(e).split_whitespace().collect()
}

/// A scrutinee that is a status, code or kind (`resp.status()`, `e.kind()`).
pub(super) fn is_status(spans: &Spans<'_>, e: &Expr) -> bool {
    let t = text_of(spans, e).to_ascii_lowercase();
    ["status", "code", "kind"].iter().any(|w| t.contains(w))
}

/// Names a pattern binds (`Ok((stdout, stderr, running))` binds three).
fn bindings(p: &Pat, out: &mut Vec<String>) {
    match p {
        Pat::Ident(i) => out.push(i.ident.to_string()),
        Pat::Tuple(t) => t.elems.iter().for_each(|e| bindings(e, out)),
        Pat::TupleStruct(t) => t.elems.iter().for_each(|e| bindings(e, out)),
        Pat::Reference(r) => bindings(&r.pat, out),
        Pat::Guard(g) => bindings(&g.pat, out),
        _ => {}
    }
}

/// An `Ok` arm that hands what succeeded to a call that runs it until it
/// ends, and leaves only when that call says to stop (`Ok((stdout, ..))
/// => { if !self.run_stream(stdout, ..).await { return; } }`): a supervisor
/// whose success goes round again, not a success exit.
pub(super) fn runs_until_stopped(spans: &Spans<'_>, a: &syn::Arm) -> bool {
    let Expr::Block(b) = &*a.body else {
        return false;
    };
    let mut names = Vec::new();
    if let Pat::TupleStruct(t) = &a.pat {
        t.elems.iter().for_each(|e| bindings(e, &mut names));
    }
    if names.is_empty() || block_leaves(&b.block) {
        return false;
    }
    let mut guarded = false;
    for s in &b.block.stmts {
        let e = match s {
            Stmt::Expr(e, _) => e,
            Stmt::Local(_) | Stmt::Item(_) | Stmt::Macro(_) => continue,
        };
        if let Expr::If(i) = e
            && i.else_branch.is_none()
            && block_leaves(&i.then_branch)
            && let Expr::Unary(u) = &*i.cond
            && matches!(u.op, syn::UnOp::Not(_))
            && matches!(&*u.expr, Expr::Await(_))
            && names
                .iter()
                .any(|n| contains_word(&text_of(spans, &u.expr), n))
        {
            guarded = true;
        } else if exits_anywhere(e) {
            return false;
        }
    }
    guarded
}

/// Whether an expression leaves the loop on every path: an exit, a block
/// with one, an `if` whose both branches leave, a `match` whose every arm
/// does.
fn always_leaves(e: &Expr) -> bool {
    match e {
        Expr::Block(b) => b.block.stmts.iter().any(|s| match s {
            Stmt::Expr(e, _) => always_leaves(e),
            Stmt::Macro(m) => leaving_macro(&m.mac.path) || cfg_if_returns(&m.mac),
            _ => false,
        }),
        Expr::If(i) => {
            block_leaves(&i.then_branch)
                && i.else_branch
                    .as_ref()
                    .is_some_and(|(_, e)| always_leaves(e))
        }
        Expr::Match(m) => !m.arms.is_empty() && m.arms.iter().all(|a| always_leaves(&a.body)),
        e => leaves(e),
    }
}

/// Words of a test about how the attempt went (its status, an error, a
/// retry decision or a shutdown), not about the state it reached.
pub(super) fn about_outcome(t: &str) -> bool {
    let t = t.to_ascii_lowercase();
    // (a response's status or code, not any field named `.._status`; and
    // `if let Some(addr) = found.next()`: an answer with nothing in it is
    // the failure, `Ok(None)` unwrapped)
    tests_status(&t)
        || t.starts_with("letsome(")
        || [
            ".status=", ".status!", ".status>", ".status<", "is_ok", "is_err", "err", "ok(",
            "fail", "valid", "retry", "attempt", "shutdown", "cancel",
        ]
        .iter()
        .any(|w| t.contains(w))
}

/// An `Ok` arm that leaves only under tests of a state (`if now <
/// genesis { wait } else { break }`, `if terminate { break }`, `if
/// items.is_empty() && finalized() { break }`): when the test does not
/// hold, the success goes round again, so the loop polls, serves or
/// supervises; it does not retry the call.
pub(super) fn leaves_on_state_only(spans: &Spans<'_>, body: &Expr) -> bool {
    if !exits_anywhere(body) || always_leaves(body) {
        return false;
    }
    struct C<'s, 'x> {
        spans: &'s Spans<'x>,
        conds: Vec<String>,
    }
    impl<'a> Visit<'a> for C<'_, '_> {
        fn visit_item(&mut self, _: &'a Item) {}
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
            let in_then = {
                let b = Expr::Block(syn::ExprBlock {
                    attrs: Vec::new(),
                    label: None,
                    block: i.then_branch.clone(),
                });
                exits_anywhere(&b)
            };
            let in_else = i
                .else_branch
                .as_ref()
                .is_some_and(|(_, e)| exits_anywhere(e));
            if in_then || in_else {
                self.conds.push(text_of(self.spans, &i.cond));
            }
            syn::visit::visit_expr_if(self, i);
        }
        fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
            if m.arms.iter().any(|a| exits_anywhere(&a.body)) {
                // (a match on another call's result is about its outcome)
                let on_result = m
                    .arms
                    .iter()
                    .any(|a| pat_variant(&a.pat).is_some_and(|(n, _)| n == "Ok" || n == "Err"));
                // (the arms' patterns say what is tested too:
                // `Disposition::Retry`)
                let pats: String = m.arms.iter().map(|a| self.spans.text(&a.pat)).collect();
                self.conds.push(if on_result {
                    "err".into()
                } else {
                    format!("{} {pats}", text_of(self.spans, &m.expr))
                });
            }
            syn::visit::visit_expr_match(self, m);
        }
    }
    let mut c = C {
        spans,
        conds: Vec::new(),
    };
    c.visit_expr(body);
    !c.conds.is_empty() && c.conds.iter().all(|t| !about_outcome(t))
}

/// An arm's body (lower case, no whitespace) that reads a response's
/// status or code: its `Ok` is a reply still to be judged.
pub(super) fn tests_status(body: &str) -> bool {
    [
        "status(",
        ".status",
        "status_code",
        "statuscode",
        ".code(",
        "code()",
        "is_success",
    ]
    .iter()
    .any(|w| body.contains(w))
}

/// A block whose last statement is a plain `continue`: it goes round.
pub(super) fn ends_in_continue(b: &Block) -> bool {
    matches!(b.stmts.last(), Some(Stmt::Expr(Expr::Continue(c), _)) if c.label.is_none())
}

/// A test saying "not there yet": a `404`/`NotFound`, a `304 Not
/// Modified`, or a failure named pending (`err.code ==
/// "authorizationPending"`, `Code::Pending`, `is_pending()`; not an
/// identifier such as `pending_swap`) or not yet (`NotYet`) (lower case, no
/// whitespace).
pub(super) fn not_yet(cond: &str) -> bool {
    let t = cond.to_ascii_lowercase();
    [
        "not_found",
        "notfound",
        "not_modified",
        "notmodified",
        "==404",
        "==304",
        "pending\"",
        "::pending",
        "is_pending()",
        "not_yet",
        "notyet",
    ]
    .iter()
    .any(|w| t.contains(w))
}

/// A test that the answer reached a final state, either way
/// (`status.is_success() || status.is_failure()`, `task.is_finished()`):
/// what goes round is "not finished yet".
pub(super) fn final_state(cond: &str) -> bool {
    let t = cond.to_ascii_lowercase();
    let good = [".is_success()", ".is_succeeded()", ".is_completed()"]
        .iter()
        .any(|w| t.contains(w));
    let bad = [".is_failure()", ".is_failed()", ".is_error()"]
        .iter()
        .any(|w| t.contains(w));
    (good && bad && t.contains("||"))
        || [".is_terminal()", ".is_finished()", ".is_final()"]
            .iter()
            .any(|w| t.contains(w))
}

/// A lookup tested for success (`page.find_element(..).await.is_ok()`):
/// its failure is "not found yet".
pub(super) fn lookup_found(cond: &str) -> bool {
    let t = cond.to_ascii_lowercase();
    t.ends_with(".is_ok()") && [".find", "lookup", "exists("].iter().any(|w| t.contains(w))
}

/// A send on an in-process channel: `tx.send(msg)` not awaited (a
/// network send is).
pub(super) fn local_send(e: &Expr) -> bool {
    let mut e = e;
    while let Expr::Paren(p) = e {
        e = &p.expr;
    }
    matches!(e, Expr::MethodCall(m) if m.method == "send")
}

/// Whether a failure path goes round: it does not leave, or an `if`
/// before its exit ends in `continue` (`if !enabled { return Err(e) } if
/// transient && n < max { sleep; continue } return Err(e)`: the first
/// exit is a switch, the `continue` the way round).
pub(super) fn goes_round(e: &Expr) -> bool {
    if !leaves(e) {
        return true;
    }
    let Expr::Block(b) = e else { return false };
    block_goes_round(&b.block)
}

/// [`goes_round`] for a block: an `if .. { continue }` before the
/// statement that leaves.
pub(super) fn block_goes_round(b: &Block) -> bool {
    for s in &b.stmts {
        match s {
            Stmt::Expr(Expr::If(i), _)
                if ends_in_continue(&i.then_branch)
                    && !i.else_branch.as_ref().is_some_and(|(_, e)| leaves(e)) =>
            {
                return true;
            }
            Stmt::Expr(x, _) if leaves(x) => return false,
            Stmt::Macro(m) if leaving_macro(&m.mac.path) => {
                return false;
            }
            _ => {}
        }
    }
    !block_leaves(b)
}

/// A test that sorts errors when it sends some round: a conjunct that is
/// neither a counter or clock bound nor a switch lifting the limit
/// (`e.is_transient() && n < max`).
pub(super) fn sorts_errors(spans: &Spans<'_>, cond: &Expr) -> bool {
    match cond {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
            sorts_errors(spans, &b.left) || sorts_errors(spans, &b.right)
        }
        Expr::Paren(p) => sorts_errors(spans, &p.expr),
        c => {
            let t = text_of(spans, c).to_ascii_lowercase();
            !is_bound_test(c)
                && ![
                    "elapsed",
                    "now()",
                    "deadline",
                    "unlimited",
                    "infinite",
                    "forever",
                    "retries",
                    "attempt",
                ]
                .iter()
                .any(|w| t.contains(w))
        }
    }
}

/// A conjunct of `cond` that reads the failure bound by the arm (`err`),
/// not a count or a clock: `err.to_string().contains("database is
/// locked")` beside `retries < 100` (ockam's `retry!`, nineteenth pass).
pub(super) fn tests_error(spans: &Spans<'_>, cond: &Expr, err_names: &[String]) -> bool {
    match cond {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
            tests_error(spans, &b.left, err_names) || tests_error(spans, &b.right, err_names)
        }
        Expr::Paren(p) => tests_error(spans, &p.expr, err_names),
        c => {
            let t = text_of(spans, c);
            let lower = t.to_ascii_lowercase();
            !is_bound_test(c)
                && !["elapsed", "now()", "deadline", "retries", "attempt"]
                    .iter()
                    .any(|w| lower.contains(w))
                && err_names.iter().any(|n| contains_word(&t, n))
        }
    }
}
