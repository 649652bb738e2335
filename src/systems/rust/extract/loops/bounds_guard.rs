//! A retry loop's bound read from the guard of the arm that goes round
//! (`Err(e) if retryable(&e) && attempt < max => ..`) and from a counter
//! counted down to zero (split from `bounds.rs`).

use super::bounds::{Cmp, compare};
use super::*;

impl LoopFinder<'_, '_, '_, '_, '_> {
    pub(super) fn staying_guard(
        &self,
        body: &Block,
        before: &[&Stmt],
        init_of: &dyn Fn(&str) -> i128,
        incremented: &dyn Fn(&str) -> bool,
        decremented: &dyn Fn(&str) -> bool,
        dec_at: &dyn Fn(&str) -> Option<usize>,
    ) -> Option<AttemptsT> {
        struct Arms<'x> {
            out: Vec<(&'x Expr, &'x Expr)>,
        }
        impl<'x> Visit<'x> for Arms<'x> {
            fn visit_item(&mut self, _: &'x Item) {}
            fn visit_expr_closure(&mut self, _: &'x syn::ExprClosure) {}
            fn visit_arm(&mut self, a: &'x syn::Arm) {
                if let syn::Pat::Guard(g) = &a.pat {
                    self.out.push((&g.guard, &a.body));
                }
                syn::visit::visit_arm(self, a);
            }
        }
        let mut arms = Arms { out: Vec::new() };
        arms.visit_block(body);
        for (guard, arm_body) in arms.out {
            if super::shape::leaves(arm_body) {
                continue;
            }
            let mut parts = vec![guard];
            let mut i = 0;
            while i < parts.len() {
                if let Expr::Binary(b) = parts[i]
                    && matches!(b.op, syn::BinOp::And(_))
                {
                    let (l, r) = (&*b.left, &*b.right);
                    parts.remove(i);
                    parts.push(l);
                    parts.push(r);
                    continue;
                }
                i += 1;
            }
            for c in parts {
                let Some((name, op, limit, cmp)) = compare(c) else {
                    continue;
                };
                // `Err(e) if retries > 0 => { retries -= 1; .. }`: a
                // counter counted down to zero.
                if !incremented(&name) {
                    if decremented(&name)
                        && matches!(op, Cmp::Gt)
                        && matches!(self.num(limit), Num::Const(0))
                    {
                        return Some(self.countdown(before, &name, cmp, dec_at));
                    }
                    continue;
                }
                let c0 = init_of(&name);
                let offset = match op {
                    Cmp::Lt => 1 - c0,
                    Cmp::Le => 2 - c0,
                    _ => continue,
                };
                return Some(AttemptsT::Count {
                    value: self.num(limit),
                    offset,
                    span: self.ev.spans.node(cmp),
                });
            }
        }
        None
    }
}

impl LoopFinder<'_, '_, '_, '_, '_> {
    /// Attempts of a loop that counts `name` down from its first value and
    /// stops when it reaches zero.
    pub(super) fn countdown(
        &self,
        before: &[&Stmt],
        name: &str,
        cmp: &Expr,
        dec_at: &dyn Fn(&str) -> Option<usize>,
    ) -> AttemptsT {
        let spans = self.ev.spans;
        let init = before.iter().rev().find_map(|s| match s {
            Stmt::Local(l) if pat_ident(&l.pat).as_deref() == Some(name) => {
                l.init.as_ref().map(|i| self.num(&i.expr))
            }
            _ => None,
        });
        let check_at = spans.node(cmp).start;
        let dec_before = dec_at(name).is_some_and(|i| i < check_at);
        match init {
            Some(Num::Const(n)) => AttemptsT::Count {
                value: Num::Const(n),
                offset: i128::from(!dec_before),
                span: spans.node(cmp),
            },
            _ => AttemptsT::Unknown {
                span: spans.node(cmp),
            },
        }
    }
}

impl LoopFinder<'_, '_, '_, '_, '_> {
    /// `let servers = self.get_servers()?;` at the top of the loop's body,
    /// where the method, of this file, compares a count to a limit
    /// (`reconnects < max`, `self.max_reconnects`) and answers an `Err`:
    /// it fails once the attempts are spent and the `?` carries that out
    /// of the loop (nats-io/nats.rs `Connector::connect`, eighteenth pass).
    /// The bound is the method's; the loop is not unbounded.
    pub(super) fn own_method_runs_out<'x>(&self, body: &'x Block) -> Option<&'x Expr> {
        let tried = |e: &'x Expr| -> Option<&'x Expr> {
            let Expr::Try(t) = e else { return None };
            let mut inner = &*t.expr;
            if let Expr::Await(a) = inner {
                inner = &a.base;
            }
            let Expr::MethodCall(m) = inner else {
                return None;
            };
            matches!(&*m.receiver, Expr::Path(p) if p.path.is_ident("self")).then_some(inner)
        };
        body.stmts.iter().take(64).find_map(|s| {
            let e = match s {
                Stmt::Local(l) => l.init.as_ref().map(|i| &*i.expr)?,
                Stmt::Expr(e, _) => e,
                _ => return None,
            };
            let call = tried(e)?;
            let Expr::MethodCall(m) = call else {
                return None;
            };
            let name = m.method.to_string();
            let runs_out =
                self.bodies
                    .iter()
                    .filter(|(n, ..)| *n == name)
                    .take(4)
                    .any(|(_, _, b, _)| {
                        let t = self.ev.spans.block_text(b).to_ascii_lowercase();
                        let limit = ["max", "limit"].iter().any(|w| t.contains(w));
                        let count = ["attempt", "retr", "reconnect", "tries", "count"]
                            .iter()
                            .any(|w| t.contains(w));
                        let compares = [" < ", " <= ", " >= ", " > "].iter().any(|c| t.contains(c));
                        limit && count && compares && t.contains("err(")
                    });
            runs_out.then_some(call)
        })
    }
}

impl LoopFinder<'_, '_, '_, '_, '_> {
    /// `let Some(delay) = deadline.bounded_delay(d) else { return Err(e) };`
    /// where the method, of this file, reads the clock and answers `None`
    /// (`if self.timeout.saturating_sub(self.started.elapsed()).is_zero() {
    /// return None }`, rustfs `DnsRetryDeadline`, twenty-fifth pass): the
    /// loop leaves once the time is spent, a cap the clock decides.
    pub(super) fn own_clock_runs_out<'x>(&self, body: &'x Block) -> Option<&'x Expr> {
        struct Lets<'x> {
            out: Vec<&'x syn::Local>,
        }
        impl<'x> Visit<'x> for Lets<'x> {
            fn visit_item(&mut self, _: &'x Item) {}
            fn visit_expr_closure(&mut self, _: &'x syn::ExprClosure) {}
            fn visit_local(&mut self, l: &'x syn::Local) {
                if l.init.as_ref().is_some_and(|i| i.diverge.is_some()) && self.out.len() < 64 {
                    self.out.push(l);
                }
                syn::visit::visit_local(self, l);
            }
        }
        let mut lets = Lets { out: Vec::new() };
        lets.visit_block(body);
        let mut budget = 8usize;
        lets.out.into_iter().find_map(|l| {
            let init = l.init.as_ref()?;
            let (_, els) = init.diverge.as_ref()?;
            if !super::shape::leaves(els) {
                return None;
            }
            let mut call = &*init.expr;
            if let Expr::Await(a) = call {
                call = &a.base;
            }
            let Expr::MethodCall(m) = call else {
                return None;
            };
            let name = m.method.to_string();
            let reads_clock =
                self.bodies
                    .iter()
                    .filter(|(n, ..)| *n == name)
                    .take(4)
                    .any(|(_, _, b, _)| {
                        if budget == 0 {
                            return false;
                        }
                        budget -= 1;
                        let t = crate::systems::rust::extract::squash(self.ev.spans.block_text(b));
                        (t.contains("elapsed()") || t.contains("Instant::now()"))
                            && (t.contains("returnNone") || t.contains("None}"))
                    });
            reads_clock.then_some(&*init.expr)
        })
    }
}
