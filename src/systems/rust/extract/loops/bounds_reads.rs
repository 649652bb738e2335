//! What a retry loop's bound is read from besides a plain counter
//! (split from `bounds.rs`): a counter read from a metric or an atomic, one
//! stepped through a local, the clock in a match guard or under `?`, and
//! whether a test runs before the pass's attempt.

use super::bounds::is_time_test;
use super::*;

/// A metrics or atomic counter read as a count (`retries.get()`,
/// `n.load(Ordering::Relaxed)`), less its value at the start of the call
/// (`retries.get() - first`): the counter's name. It is a count only where
/// the loop bumps it (`retries.inc()`, `n.fetch_add(1, ..)`), which the
/// caller's `incremented` checks (walrus `backup/service.rs`, stop 52).
pub(super) fn counter_read(e: &Expr) -> Option<String> {
    match e {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Sub(_)) => counter_read(&b.left),
        Expr::Paren(p) => counter_read(&p.expr),
        Expr::MethodCall(m)
            if (m.method == "get" && m.args.is_empty())
                || (m.method == "load" && m.args.len() == 1) =>
        {
            match &*m.receiver {
                Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `let next = name + 1; .. name = next;` (compact text): the counter
/// stepped by one through a local (rustfs `init_startup_storage_global_config`,
/// twenty-fifth pass).
pub(super) fn stepped_through(compact: &str, name: &str) -> bool {
    // The statements, each from its last brace on.
    let stmts = || {
        compact
            .split(';')
            .take(256)
            .filter_map(|s| s.rsplit(['{', '}']).next())
    };
    let stepped = [format!("={name}+1"), format!("={name}.saturating_add(1)")];
    let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
    stmts()
        .filter_map(|s| {
            let rest = s.strip_prefix("let")?;
            let end = stepped.iter().find_map(|w| rest.strip_suffix(w.as_str()))?;
            let local = end.split(':').next()?;
            // (`letmutnext`: `mut` or a name that starts with it)
            Some([Some(local), local.strip_prefix("mut")])
        })
        .flatten()
        .flatten()
        .filter(|l| ident(l))
        .take(4)
        .any(|next| stmts().any(|s| s == format!("{name}={next}")))
}

/// Whether nothing is called in the loop's body before `at` (only
/// bookkeeping and macros such as `warn!(..)`): a test there runs before
/// the pass's attempt.
pub(super) fn checks_before_attempt(spans: &Spans<'_>, body: &Block, at: usize) -> bool {
    let start = spans.block(body).start + 1;
    let Some(text) = spans.source().get(start..at) else {
        return false;
    };
    if text.contains(".await") || text.contains('?') {
        return false;
    }
    let mut prev = ' ';
    for ch in text.chars() {
        if ch == '(' && (prev.is_alphanumeric() || prev == '_' || prev == '>') {
            return false;
        }
        if !ch.is_whitespace() {
            prev = ch;
        }
    }
    true
}

/// The guard of a `match` arm that goes round (does not leave) when it
/// reads the clock: `Err(..) if Instant::now() < deadline => { .. }`; or
/// of a failure arm that leaves by it (`Err(e) if start.elapsed() > max
/// => return Err(e)`, symbolicator, sixteenth pass).
pub(super) fn time_guard<'b>(spans: &Spans<'_>, body: &'b Block) -> Option<&'b Expr> {
    struct G<'b, 's> {
        spans: &'s Spans<'s>,
        found: Option<&'b Expr>,
    }
    impl<'b> Visit<'b> for G<'b, '_> {
        fn visit_item(&mut self, _: &'b Item) {}
        fn visit_expr_closure(&mut self, _: &'b syn::ExprClosure) {}
        fn visit_expr_loop(&mut self, _: &'b syn::ExprLoop) {}
        fn visit_expr_while(&mut self, _: &'b syn::ExprWhile) {}
        fn visit_expr_for_loop(&mut self, _: &'b syn::ExprForLoop) {}
        fn visit_arm(&mut self, a: &'b syn::Arm) {
            // (Or the failure arm that leaves once the clock runs out:
            // `Err(e) if start.elapsed() > MAX_DELAY => return Err(e)`.)
            if self.found.is_none()
                && let syn::Pat::Guard(g) = &a.pat
                && (!super::shape::leaves(&a.body)
                    || super::shape::pat_variant(&g.pat).is_some_and(|(v, _)| v == "Err"))
                && is_time_test(self.spans.text(&*g.guard))
            {
                self.found = Some(&*g.guard);
            }
            syn::visit::visit_arm(self, a);
        }
    }
    let mut g = G { spans, found: None };
    for s in &body.stmts {
        g.visit_stmt(s);
    }
    g.found
}

/// A `?` at the top of the body on a call that reads a deadline.
pub(super) fn deadline_try<'b>(spans: &Spans<'_>, body: &'b Block) -> Option<&'b Expr> {
    body.stmts.iter().find_map(|s| {
        let e = match s {
            Stmt::Local(l) => l.init.as_ref().map(|i| &*i.expr)?,
            Stmt::Expr(e, _) => e,
            _ => return None,
        };
        let Expr::Try(t) = e else { return None };
        spans
            .text(&*t.expr)
            .to_ascii_lowercase()
            .contains("deadline")
            .then_some(e)
    })
}
