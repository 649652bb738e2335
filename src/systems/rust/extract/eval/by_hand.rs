//! A back-off iterator stepped by hand: `let mut backoff =
//! ExponentialBackoff::from_millis(100).max_delay(..);` with no `.take(n)`,
//! then `backoff.next()` inside `for i in 1..=MAX_RETRY { .. }`. The
//! iterator is endless, but the loop that steps it takes at most one delay
//! a pass: the loop's range bounds it (risingwave `util/addr.rs`,
//! `barrier/rpc.rs`).

use super::*;

/// The builder with its retries bounded by the `for` over a range that
/// steps it, when its own are unbounded.
pub(super) fn bounded(ev: &Eval<'_, '_>, mut b: Build) -> Build {
    if b.retries.value != AttemptCount::Unbounded {
        return b;
    }
    let Some(name) = bound_to(ev.spans.source(), b.origin.start) else {
        return b;
    };
    let Some(body) = ev
        .ix
        .bodies
        .iter()
        .filter(|(_, _, _, s)| s.start <= b.origin.start && b.origin.end <= s.end)
        .min_by_key(|(_, _, _, s)| s.end - s.start)
        .map(|(_, _, body, _)| *body)
    else {
        return b;
    };
    let mut f = Stepper {
        ev,
        name: &name,
        found: None,
    };
    f.visit_block(body);
    if let Some((n, at, written)) = f.found {
        b.retries = Located::written(AttemptCount::Finite(n), at);
        b.retries_written = written;
    }
    b
}

/// The local a builder starting at `at` is bound to: `let [mut] NAME =`
/// on the same line before it.
fn bound_to(text: &str, at: usize) -> Option<String> {
    let before = text.get(..at)?;
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let rest = line.trim_start().strip_prefix("let ")?;
    let rest = rest.trim_start_matches("mut ");
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty() && rest[name.len()..].trim() == "=").then_some(name)
}

struct Stepper<'e, 'a, 's> {
    ev: &'e Eval<'a, 's>,
    name: &'e str,
    found: Option<(u64, Span, String)>,
}

impl Stepper<'_, '_, '_> {
    /// The number of passes of `a..b` / `a..=b` over integers (literals
    /// or constants of the file).
    fn passes(&self, e: &Expr) -> Option<u64> {
        let Expr::Range(r) = e else { return None };
        let int = |e: &Expr| -> Option<i128> {
            let e = match e {
                Expr::Path(p) => self
                    .ev
                    .ix_const(&p.path.segments.last()?.ident.to_string())?,
                e => e,
            };
            match e {
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Int(i), ..
                }) => i.base10_digits().parse().ok(),
                _ => None,
            }
        };
        let start = r.start.as_deref().map_or(Some(0), int)?;
        let end = int(r.end.as_deref()?)?;
        let n = match r.limits {
            syn::RangeLimits::Closed(_) => end - start + 1,
            syn::RangeLimits::HalfOpen(_) => end - start,
        };
        u64::try_from(n.max(0)).ok()
    }
}

/// Whether `block` calls `NAME.next()` (not inside a closure).
fn steps(block: &Block, name: &str) -> bool {
    struct Finder<'n> {
        name: &'n str,
        hit: bool,
    }
    impl<'x> Visit<'x> for Finder<'_> {
        fn visit_item(&mut self, _: &'x Item) {}
        fn visit_expr_closure(&mut self, _: &'x syn::ExprClosure) {}
        fn visit_expr_method_call(&mut self, m: &'x syn::ExprMethodCall) {
            if m.method == "next"
                && m.args.is_empty()
                && matches!(&*m.receiver, Expr::Path(p) if p.path.is_ident(self.name))
            {
                self.hit = true;
            }
            syn::visit::visit_expr_method_call(self, m);
        }
    }
    let mut f = Finder { name, hit: false };
    f.visit_block(block);
    f.hit
}

impl<'x> Visit<'x> for Stepper<'_, '_, '_> {
    fn visit_item(&mut self, _: &'x Item) {}
    fn visit_expr_closure(&mut self, _: &'x syn::ExprClosure) {}
    fn visit_expr_for_loop(&mut self, l: &'x syn::ExprForLoop) {
        if self.found.is_none()
            && steps(&l.body, self.name)
            && let Some(n) = self.passes(&l.expr)
        {
            let at = self.ev.sp(&*l.expr);
            // One attempt a pass, a delay taken after each failed one but
            // the last.
            self.found = Some((
                n.saturating_sub(1),
                at,
                format!("for .. in {}, stepped by hand", self.ev.spans.slice(at)),
            ));
        }
        syn::visit::visit_expr_for_loop(self, l);
    }
}
