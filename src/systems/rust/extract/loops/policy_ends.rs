//! A retry policy object that bounds a loop by running out: its next
//! delay asked for on the failure path, and the loop left when there is
//! none (`if let Some(d) = retry_iter.next() { sleep(d) } else { return
//! Err(e) }`, `(Err(e), None) => return Err(e)` of `match (op().await,
//! retry_iter.next())`, `let Some(d) = it.next() else { return .. }`, `let
//! next = it.next().copied(); .. if next.is_none() { return e; }`), or a
//! counting object asked whether another attempt is left
//! (`retries.has_next()`) with a branch that leaves, or a counting object
//! whose failure leaves (`retry_counter.increment_from_error(e)?`). How many attempts the
//! policy allows is the policy's to say: the loop is bounded, the count
//! not shown. A delay unwrapped (`backoff.next().unwrap()`, `.expect(..)`)
//! is not such a test: the loop assumes one is always there.

use super::shape::{block_leaves, leaves};
use super::*;

/// The text of an expression with no whitespace.
fn squashed(spans: &Spans<'_>, e: &Expr) -> String {
    spans.text(e).split_whitespace().collect()
}

/// `it.next()`, `it.next_backoff()`, `p.as_mut().and_then(|p| p.next())`:
/// the policy's next delay, not unwrapped.
fn asks_next(t: &str) -> bool {
    if t.ends_with(".next()") || t.ends_with(".next())") {
        return true;
    }
    // `.next_backoff()`, `.next_delay()`, `.next_delay_duration()`,
    // `.next_retry_interval()`: a `next_` method named for the wait.
    t.strip_suffix("()")
        .and_then(|r| r.rsplit_once(".next_"))
        .is_some_and(|(_, m)| {
            !m.contains(['(', ')', '.'])
                && ["delay", "backoff", "retry", "interval", "wait", "sleep"]
                    .iter()
                    .any(|w| m.contains(w))
        })
}

/// `retries.has_next()`, `!policy.has_next()`: is another attempt left.
fn asks_left(t: &str) -> bool {
    t.contains(".has_next()") || t.contains(".has_remaining()")
}

/// `retry.max_retries_reached()`, `state.retries_exhausted()`,
/// `policy.is_exhausted()`: a retry object asked whether its attempts are
/// spent (mongodb/mongo-rust-driver `execute_operation_with_retry`,
/// seventeenth pass). A leaving branch under it ends the loop.
fn asks_spent(t: &str) -> bool {
    let t = t.trim_start_matches('!');
    let Some(call) = t.strip_suffix("()") else {
        return false;
    };
    let Some((_, m)) = call.rsplit_once('.') else {
        return false;
    };
    let m = m.to_ascii_lowercase();
    !m.contains(['(', ')'])
        && (m == "exhausted"
            || m == "is_exhausted"
            || ((m.contains("retr") || m.contains("attempt"))
                && ["reached", "exhausted", "exceeded", "spent"]
                    .iter()
                    .any(|w| m.contains(w))))
}

/// A call, not awaited, on a retry policy or counter held in a local or a
/// field (`retry_counter.increment_from_error(e)`, `self.retries.
/// record_failure()`): under `?` it leaves the loop when the policy has no
/// attempt left. An awaited call (`retry_client.send(r).await?`) is the
/// operation, not its policy.
fn counts_out(e: &Expr) -> bool {
    let Expr::MethodCall(m) = e else { return false };
    let name = match &*m.receiver {
        Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Expr::Field(f) => match &f.member {
            syn::Member::Named(n) => Some(n.to_string()),
            syn::Member::Unnamed(_) => None,
        },
        _ => None,
    };
    name.is_some_and(|n| {
        let n = n.to_ascii_lowercase();
        ["retry", "retries", "attempt", "backoff", "budget"]
            .iter()
            .any(|w| n.contains(w))
    })
}

/// The test in `body` (not in an inner loop or closure) by which a retry
/// policy ends the loop, if there is one.
pub(super) fn policy_ends<'b>(spans: &Spans<'_>, body: &'b Block) -> Option<&'b Expr> {
    struct P<'b, 's> {
        spans: &'s Spans<'s>,
        found: Option<&'b Expr>,
        /// Locals holding the next delay (`let next = it.next().copied();`).
        nexts: Vec<String>,
    }
    impl<'b> Visit<'b> for P<'b, '_> {
        fn visit_item(&mut self, _: &'b Item) {}
        // `if let Some(d) = backoff.next_delay() { sleep(d); continue; }
        // return Err(e);`: no delay left, the statement after leaves.
        fn visit_block(&mut self, b: &'b Block) {
            for (k, st) in b.stmts.iter().enumerate() {
                if self.found.is_none()
                    && let Stmt::Expr(Expr::If(i), _) = st
                    && i.else_branch.is_none()
                    && let Expr::Let(l) = &*i.cond
                    && matches!(&*l.pat, syn::Pat::TupleStruct(t) if t.path.is_ident("Some"))
                    && asks_next(&squashed(self.spans, &l.expr))
                    && super::shape_exits::ends_in_continue(&i.then_branch)
                    && b.stmts[k + 1..]
                        .iter()
                        .any(|s| matches!(s, Stmt::Expr(e, _) if leaves(e)))
                {
                    self.found = Some(&l.expr);
                }
            }
            syn::visit::visit_block(self, b);
        }
        fn visit_expr_closure(&mut self, _: &'b syn::ExprClosure) {}
        fn visit_expr_loop(&mut self, _: &'b syn::ExprLoop) {}
        fn visit_expr_while(&mut self, _: &'b syn::ExprWhile) {}
        fn visit_expr_for_loop(&mut self, _: &'b syn::ExprForLoop) {}
        fn visit_expr_if(&mut self, i: &'b syn::ExprIf) {
            let else_leaves = i.else_branch.as_ref().is_some_and(|(_, e)| leaves(e));
            let then_leaves = block_leaves(&i.then_branch);
            if self.found.is_none() {
                let hit = match &*i.cond {
                    Expr::Let(l) => {
                        matches!(&*l.pat, syn::Pat::TupleStruct(t)
                            if t.path.is_ident("Some"))
                            && asks_next(&squashed(self.spans, &l.expr))
                            && else_leaves
                    }
                    // `if e.is_retryable() && let Some(d) = it.next() {
                    // sleep(d); continue } return Err(e)`
                    Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
                        let mut ops = vec![&*b.left, &*b.right];
                        let mut asks = false;
                        while let Some(x) = ops.pop() {
                            match x {
                                Expr::Binary(i) if matches!(i.op, syn::BinOp::And(_)) => {
                                    ops.push(&i.left);
                                    ops.push(&i.right);
                                }
                                Expr::Let(l) => {
                                    asks |= matches!(&*l.pat, syn::Pat::TupleStruct(t)
                                        if t.path.is_ident("Some"))
                                        && asks_next(&squashed(self.spans, &l.expr));
                                }
                                _ => {}
                            }
                        }
                        asks && (else_leaves
                            || super::shape_exits::ends_in_continue(&i.then_branch))
                    }
                    // `if next.is_none() { return e; }` of `let next =
                    // it.next().copied();`
                    c if then_leaves
                        && self
                            .nexts
                            .iter()
                            .any(|n| squashed(self.spans, c) == format!("{n}.is_none()")) =>
                    {
                        true
                    }
                    c if then_leaves && asks_spent(&squashed(self.spans, c)) => true,
                    c => asks_left(&squashed(self.spans, c)) && (then_leaves || else_leaves),
                };
                if hit {
                    self.found = Some(&i.cond);
                }
            }
            syn::visit::visit_expr_if(self, i);
        }
        // `retry_counter.increment_failures(e)?`: the counting object
        // says it ran out by failing, and the `?` leaves the loop.
        fn visit_expr_try(&mut self, t: &'b syn::ExprTry) {
            if self.found.is_none() && counts_out(&t.expr) {
                self.found = Some(&t.expr);
            }
            syn::visit::visit_expr_try(self, t);
        }
        fn visit_local(&mut self, l: &'b syn::Local) {
            if let Some(init) = &l.init
                && init.diverge.is_none()
                && let syn::Pat::Ident(id) = &l.pat
            {
                let t = squashed(self.spans, &init.expr);
                let t = t
                    .strip_suffix(".copied()")
                    .or_else(|| t.strip_suffix(".cloned()"))
                    .unwrap_or(&t);
                if asks_next(t) {
                    self.nexts.push(id.ident.to_string());
                }
            }
            if self.found.is_none()
                && let Some(init) = &l.init
                && init.diverge.is_some()
                && matches!(&l.pat, syn::Pat::TupleStruct(t) if t.path.is_ident("Some"))
                && asks_next(&squashed(self.spans, &init.expr))
            {
                self.found = Some(&init.expr);
            }
            syn::visit::visit_local(self, l);
        }
        // `Some(retry) if retry.max_retries_reached() => return Err(..)`
        fn visit_arm(&mut self, a: &'b syn::Arm) {
            if self.found.is_none()
                && let syn::Pat::Guard(g) = &a.pat
                && asks_spent(&squashed(self.spans, &g.guard))
                && leaves(&a.body)
            {
                self.found = Some(&g.guard);
            }
            syn::visit::visit_arm(self, a);
        }
        fn visit_expr_match(&mut self, m: &'b syn::ExprMatch) {
            // `match backoff.next_delay() { Some(d) => { sleep(d); continue }
            // None => return Err(e) }`
            if self.found.is_none()
                && asks_next(&squashed(self.spans, &m.expr))
                && m.arms.iter().any(|a| {
                    matches!(&a.pat, syn::Pat::Ident(i) if i.ident == "None") && leaves(&a.body)
                })
            {
                self.found = Some(&m.expr);
            }
            if self.found.is_none()
                && let Expr::Tuple(t) = &*m.expr
            {
                for (k, e) in t.elems.iter().enumerate() {
                    if !asks_next(&squashed(self.spans, e)) {
                        continue;
                    }
                    let none_leaves = m.arms.iter().any(|a| {
                        matches!(&a.pat, syn::Pat::Tuple(p)
                            if matches!(p.elems.iter().nth(k),
                                Some(syn::Pat::Ident(i)) if i.ident == "None"))
                            && leaves(&a.body)
                    });
                    if none_leaves {
                        self.found = Some(e);
                        break;
                    }
                }
            }
            syn::visit::visit_expr_match(self, m);
        }
    }
    let mut p = P {
        spans,
        found: None,
        nexts: Vec::new(),
    };
    p.visit_block(body);
    p.found
}
