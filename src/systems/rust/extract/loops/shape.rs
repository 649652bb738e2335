//! The shape of a loop body, read from its syntax: whether a failure goes
//! round again, whether success leaves the loop, and whether failures are
//! sorted (some kinds or statuses retried, others not).
//!
//! A loop is a retry loop when the same operation is attempted again after
//! a failure and the loop is left once it succeeds. So a loop whose every
//! error path leaves (`Err(e) => return Err(e)`: pagination, an optimistic
//! update that retries only on a conflict, an upload of numbered parts) or
//! that has no way out on success (a heartbeat, a watch, a poller) is not
//! one. Error handling inside an inner loop (over items, a stream) belongs
//! to that loop, unless the inner loop returns on success.

use super::*;
use syn::Pat;

#[derive(Default, Debug)]
pub(super) struct Shape {
    /// A failure path that does not leave the loop: an `Err(..)` arm, an
    /// `if let Err`, the fall-through of an `if let Ok(..) { return }`, a
    /// status arm that goes round again.
    pub retries_err: bool,
    /// A way out on success: a `break`/`return` in an `Ok` arm or branch,
    /// or one after the attempt at the top of the body.
    pub success_exit: bool,
    /// Failures are sorted: an `Err(Kind)` pattern, or an error or status
    /// test whose branch leaves while others go round again.
    pub classified: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Plain,
    Ok,
    Err,
}

struct W<'s> {
    spans: &'s Spans<'s>,
    nested: u32,
    ctx: Ctx,
    /// A `while` loop's condition: an assignment on success to what it
    /// reads (`done = true`) ends the loop.
    while_cond: Option<String>,
    direct_err: bool,
    nested_err: bool,
    nested_ok_return: bool,
    success: bool,
    classified: bool,
}

/// Whether a block leaves unconditionally (a direct `break`, `return` or
/// `continue 'outer` at its end, or a macro that panics).
pub(super) fn leaves(e: &Expr) -> bool {
    match e {
        Expr::Return(_) | Expr::Break(_) => true,
        Expr::Continue(c) => c.label.is_some(),
        Expr::Block(b) => block_leaves(&b.block),
        Expr::Macro(m) => ["panic", "bail", "unreachable"]
            .iter()
            .any(|w| m.mac.path.is_ident(w)),
        _ => false,
    }
}

fn block_leaves(b: &Block) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Expr(e, _) => leaves(e),
        Stmt::Macro(m) => ["panic", "bail", "unreachable"]
            .iter()
            .any(|w| m.mac.path.is_ident(w)),
        _ => false,
    })
}

fn pat_variant(p: &Pat) -> Option<(String, Option<&Pat>)> {
    match p {
        Pat::TupleStruct(t) => {
            let name = t.path.segments.last()?.ident.to_string();
            Some((name, t.elems.first()))
        }
        Pat::Ident(i) if i.ident == "Ok" || i.ident == "Err" => None,
        Pat::Reference(r) => pat_variant(&r.pat),
        Pat::Guard(g) => pat_variant(&g.pat),
        Pat::Or(o) => o.cases.first().and_then(pat_variant),
        _ => None,
    }
}

/// An inner pattern that picks some errors (`Err(Error::Unavailable(_))`),
/// not all (`Err(e)`, `Err(_)`).
fn picks(p: &Pat) -> bool {
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
fn is_bound_test(e: &Expr) -> bool {
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
            ) || ((matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_)))
                && (is_bound_test(&b.left) || is_bound_test(&b.right)))
        }
        Expr::Paren(p) => is_bound_test(&p.expr),
        _ => false,
    }
}

fn text_of(spans: &Spans<'_>, e: &Expr) -> String {
    spans.text(e).split_whitespace().collect()
}

/// A scrutinee that is a status, code or kind (`resp.status()`, `e.kind()`).
fn is_status(spans: &Spans<'_>, e: &Expr) -> bool {
    let t = text_of(spans, e).to_ascii_lowercase();
    ["status", "code", "kind"].iter().any(|w| t.contains(w))
}

impl W<'_> {
    fn with(&mut self, ctx: Ctx, f: impl FnOnce(&mut Self)) {
        let saved = self.ctx;
        // An `Ok` met on a failure path is another operation's (a check
        // made after the failure), not the attempt's success.
        self.ctx = if saved == Ctx::Err && ctx == Ctx::Ok {
            Ctx::Err
        } else {
            ctx
        };
        f(self);
        self.ctx = saved;
    }

    fn err_path(&mut self, goes_round: bool) {
        if goes_round {
            if self.nested == 0 {
                self.direct_err = true;
            } else {
                self.nested_err = true;
            }
        }
    }
}

impl<'a> Visit<'a> for W<'_> {
    fn visit_item(&mut self, _: &'a Item) {}
    fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}

    fn visit_expr_loop(&mut self, l: &'a syn::ExprLoop) {
        self.nested += 1;
        syn::visit::visit_expr_loop(self, l);
        self.nested -= 1;
    }
    fn visit_expr_while(&mut self, l: &'a syn::ExprWhile) {
        self.nested += 1;
        syn::visit::visit_expr_while(self, l);
        self.nested -= 1;
    }
    fn visit_expr_for_loop(&mut self, l: &'a syn::ExprForLoop) {
        self.nested += 1;
        syn::visit::visit_expr_for_loop(self, l);
        self.nested -= 1;
    }

    fn visit_expr_return(&mut self, r: &'a syn::ExprReturn) {
        let ok_value = r
            .expr
            .as_deref()
            .is_some_and(|e| text_of(self.spans, e).starts_with("Ok("));
        if self.ctx == Ctx::Ok || ok_value {
            self.success = true;
            if self.nested > 0 {
                self.nested_ok_return = true;
            }
        }
        syn::visit::visit_expr_return(self, r);
    }

    fn visit_expr_break(&mut self, b: &'a syn::ExprBreak) {
        let ok_value = b
            .expr
            .as_deref()
            .is_some_and(|e| text_of(self.spans, e).starts_with("Ok("));
        if self.nested == 0 && (self.ctx == Ctx::Ok || ok_value) {
            self.success = true;
        }
        syn::visit::visit_expr_break(self, b);
    }

    fn visit_expr_assign(&mut self, a: &'a syn::ExprAssign) {
        if self.nested == 0
            && self.ctx == Ctx::Ok
            && let Some(c) = &self.while_cond
            && contains_word(c, &text_of(self.spans, &a.left))
        {
            self.success = true;
        }
        syn::visit::visit_expr_assign(self, a);
    }

    fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
        self.visit_expr(&m.expr);
        let has_ok = m
            .arms
            .iter()
            .any(|a| pat_variant(&a.pat).is_some_and(|(n, _)| n == "Ok"));
        let status = is_status(self.spans, &m.expr);
        let some_leave = m.arms.iter().any(|a| leaves(&a.body));
        let some_stay = m.arms.iter().any(|a| !leaves(&a.body));
        // A match on the back-off's next delay (`Some(d) => sleep, None =>
        // return`) is the bound, not a sorting of errors.
        let scrutinee = text_of(self.spans, &m.expr).to_ascii_lowercase();
        let on_backoff = ["backoff", "next", "retry", "attempt"]
            .iter()
            .any(|w| scrutinee.contains(w));
        if (self.ctx == Ctx::Err || status) && some_leave && some_stay && !on_backoff {
            self.classified = true;
        }
        for arm in &m.arms {
            let v = pat_variant(&arm.pat);
            let ctx = match &v {
                Some((n, _)) if n == "Ok" => Ctx::Ok,
                Some((n, inner)) if n == "Err" => {
                    if inner.is_some_and(picks) && some_leave {
                        self.classified = true;
                    }
                    if let Pat::Guard(g) = &arm.pat
                        && !is_bound_test(&g.guard)
                    {
                        self.classified = true;
                    }
                    self.err_path(!leaves(&arm.body));
                    Ctx::Err
                }
                // `_ =>` beside an `Ok` arm is the failure path.
                None if has_ok
                    && matches!(arm.pat, Pat::Wild(_) | Pat::Ident(_) | Pat::Guard(_)) =>
                {
                    self.err_path(!leaves(&arm.body));
                    Ctx::Err
                }
                // A status arm (`503 | 429 => sleep`) that goes round.
                None if status && !has_ok => {
                    let success_status = text_of(self.spans, &arm.body).starts_with("returnOk(")
                        || text_of(self.spans, &arm.body).starts_with("break");
                    if success_status {
                        Ctx::Ok
                    } else {
                        if !matches!(arm.pat, Pat::Wild(_)) {
                            self.err_path(!leaves(&arm.body));
                        }
                        self.ctx
                    }
                }
                _ => self.ctx,
            };
            self.with(ctx, |w| {
                if let Pat::Guard(g) = &arm.pat {
                    w.visit_expr(&g.guard);
                }
                w.visit_expr(&arm.body);
            });
        }
    }

    fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
        self.visit_expr(&i.cond);
        let cond = text_of(self.spans, &i.cond);
        let (then_ctx, else_ctx) = if let Expr::Let(l) = &*i.cond {
            match pat_variant(&l.pat) {
                Some((n, _)) if n == "Ok" => (Ctx::Ok, Ctx::Err),
                Some((n, inner)) if n == "Err" => {
                    if inner.is_some_and(picks) {
                        self.classified = true;
                    }
                    (Ctx::Err, Ctx::Ok)
                }
                _ => (self.ctx, self.ctx),
            }
        } else if cond.contains(".is_ok()") || cond.contains(".is_success()") {
            if cond.starts_with('!') {
                (Ctx::Err, Ctx::Ok)
            } else {
                (Ctx::Ok, Ctx::Err)
            }
        } else if cond.contains(".is_err()") {
            if cond.starts_with('!') {
                (Ctx::Ok, Ctx::Err)
            } else {
                (Ctx::Err, Ctx::Ok)
            }
        } else {
            (self.ctx, self.ctx)
        };
        let then_leaves = block_leaves(&i.then_branch);
        if then_ctx == Ctx::Err && else_ctx == Ctx::Ok {
            self.err_path(!then_leaves);
        }
        if then_ctx == Ctx::Ok && else_ctx == Ctx::Err {
            // The failure path is the else branch, or the fall-through.
            let else_leaves = i.else_branch.as_ref().is_some_and(|(_, e)| leaves(e));
            self.err_path(!else_leaves);
        }
        // In a failure path, a test of the error that leaves is a
        // classification; a test of a counter or a clock is the bound.
        if self.ctx == Ctx::Err && then_leaves && !is_bound_test(&i.cond) {
            let t = cond.to_ascii_lowercase();
            if !t.contains("elapsed") && !t.contains("now()") && !t.contains("deadline") {
                self.classified = true;
            }
        }
        self.with(then_ctx, |w| w.visit_block(&i.then_branch));
        if let Some((_, e)) = &i.else_branch {
            self.with(else_ctx, |w| w.visit_expr(e));
        }
    }
}

/// Read the shape of a loop body.
pub(super) fn shape(spans: &Spans<'_>, body: &Block, cond: Option<&Expr>) -> Shape {
    let mut w = W {
        spans,
        nested: 0,
        ctx: Ctx::Plain,
        while_cond: cond.map(|c| text_of(spans, c)),
        direct_err: false,
        nested_err: false,
        nested_ok_return: false,
        success: false,
        classified: false,
    };
    w.visit_block(body);
    // A `break` or `return` after the attempt, at the top of the body.
    let top_exit = body.stmts.iter().any(|s| match s {
        Stmt::Expr(e, _) => matches!(e, Expr::Return(_) | Expr::Break(_)),
        _ => false,
    });
    Shape {
        retries_err: w.direct_err || (w.nested_err && w.nested_ok_return),
        success_exit: w.success || top_exit,
        classified: w.classified,
    }
}
