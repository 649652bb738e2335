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
        Expr::Macro(m) => ["panic", "bail", "unreachable"]
            .iter()
            .any(|w| m.mac.path.is_ident(w)),
        _ => false,
    }
}

pub(super) fn block_leaves(b: &Block) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Expr(e, _) => leaves(e),
        Stmt::Macro(m) => ["panic", "bail", "unreachable"]
            .iter()
            .any(|w| m.mac.path.is_ident(w)),
        _ => false,
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
