//! Loops that go round without repeating the same call (fourteenth pass,
//! `docs/loop-review.md`): a walk that moves on to the next number or
//! offset, failover that takes other candidates from a list until none is
//! left, a stale pooled connection replaced by a fresh one; and the words
//! that make a loop's own vocabulary a retry's.

use super::*;

/// `x += n`, `x = x + n`, `x = x.saturating_add(n)`: the name moved on.
fn advanced(e: &Expr) -> Option<String> {
    match e {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::AddAssign(_)) => path_name(&b.left),
        Expr::Assign(a) => {
            let name = path_name(&a.left)?;
            let grows = match &*a.right {
                Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => {
                    path_name(&b.left).as_deref() == Some(name.as_str())
                }
                Expr::MethodCall(m) => {
                    matches!(
                        m.method.to_string().as_str(),
                        "saturating_add" | "wrapping_add" | "checked_add"
                    ) && path_name(&m.receiver).as_deref() == Some(name.as_str())
                }
                _ => false,
            };
            grows.then_some(name)
        }
        _ => None,
    }
}

fn path_name(e: &Expr) -> Option<String> {
    match e {
        Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
        _ => None,
    }
}

/// Names moved on in a block that ends in `continue` (at the loop's own
/// level: inner loops and closures aside).
fn moved_before_continue(body: &Block) -> Vec<String> {
    struct M(Vec<String>);
    impl<'a> Visit<'a> for M {
        fn visit_item(&mut self, _: &'a Item) {}
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_loop(&mut self, _: &'a syn::ExprLoop) {}
        fn visit_expr_while(&mut self, _: &'a syn::ExprWhile) {}
        fn visit_expr_for_loop(&mut self, _: &'a syn::ExprForLoop) {}
        fn visit_block(&mut self, b: &'a Block) {
            if super::shape_exits::ends_in_continue(b) {
                for s in &b.stmts {
                    if let Stmt::Expr(e, _) = s
                        && let Some(n) = advanced(e)
                    {
                        self.0.push(n);
                    }
                }
            }
            syn::visit::visit_block(self, b);
        }
    }
    let mut m = M(Vec::new());
    m.visit_block(body);
    m.0
}

/// Whether `name` is compared in `text` (as written: squashing would glue
/// `if` to the name): `name < max`, `n >= name`, `name == 0`.
fn compared(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let before = &text[..i];
        let after = &text[i + name.len()..];
        let word = !before.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.')
            && !after.starts_with(|c: char| c.is_alphanumeric() || c == '_');
        let (before, after) = (before.trim_end(), after.trim_start());
        word && (["<", ">", "==", "!="]
            .iter()
            .any(|o| after.starts_with(o) && !after.starts_with("<<") && !after.starts_with(">>"))
            || ["<", ">", "==", "!=", "<=", ">="].iter().any(|o| {
                before.ends_with(o) && !["->", "=>", "<<", ">>"].iter().any(|x| before.ends_with(x))
            }))
    })
}

/// The number or offset a loop walks: moved on in a block that goes round
/// (`next_number += 1; continue`), handed to the call a pass attempts (a
/// `let`'s value or a tested expression of the body that calls), never
/// compared with a limit (as attempts are) and not named for attempts or
/// waits.
pub(super) fn walk_var(spans: &Spans<'_>, body: &Block, cond: Option<&Expr>) -> Option<String> {
    let moved = moved_before_continue(body);
    if moved.is_empty() {
        return None;
    }
    let mut all = spans.block_text(body).to_string();
    if let Some(c) = cond {
        all.push(' ');
        all.push_str(spans.text(c));
    }
    // What each top-level statement attempts.
    let attempts: Vec<String> = body
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Local(l) => l.init.as_ref().map(|i| &*i.expr),
            Stmt::Expr(Expr::Match(m), _) => Some(&*m.expr),
            Stmt::Expr(Expr::If(i), _) => match &*i.cond {
                Expr::Let(l) => Some(&*l.expr),
                _ => None,
            },
            _ => None,
        })
        .map(|e| spans.text(e).split_whitespace().collect::<String>())
        .filter(|t| t.contains('('))
        .collect();
    moved.into_iter().find(|n| {
        let l = n.to_ascii_lowercase();
        ![
            "attempt", "retr", "tries", "backoff", "delay", "wait", "sleep", "fail", "err",
            "timeout", "interval", "budget",
        ]
        .iter()
        .any(|w| l.contains(w))
            && !compared(&all, n)
            && attempts.iter().any(|t| contains_word(t, n))
    })
}

/// A list the loop takes candidates from (`servers.pop_front()`,
/// `nodes.retain(..)`, `let Some(n) = queue.pop() else { return .. }`)
/// and that ends it when used up (`if nodes.is_empty() { return .. }`, or
/// a batch filled from it tested so): failover, each pass asks others.
pub(super) fn candidates_used_up(spans: &Spans<'_>, body: &Block) -> Option<String> {
    struct C<'s, 'x> {
        spans: &'s Spans<'x>,
        takes: Vec<String>,
        fills: Vec<String>,
        empties: Vec<String>,
    }
    fn recv(m: &syn::ExprMethodCall) -> Option<String> {
        path_name(&m.receiver)
    }
    impl<'a> Visit<'a> for C<'_, '_> {
        fn visit_item(&mut self, _: &'a Item) {}
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
            let name = m.method.to_string();
            if let Some(r) = recv(m) {
                if matches!(
                    name.as_str(),
                    "pop" | "pop_front" | "pop_back" | "swap_remove" | "retain"
                ) || (name == "remove" && m.args.len() == 1)
                {
                    self.takes.push(r);
                } else if matches!(name.as_str(), "push" | "push_back" | "push_front") {
                    self.fills.push(r);
                }
            }
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
            if let Expr::MethodCall(m) = &*i.cond
                && m.method == "is_empty"
                && let Some(r) = recv(m)
                && super::shape_exits::block_leaves(&i.then_branch)
            {
                self.empties.push(r);
            }
            syn::visit::visit_expr_if(self, i);
        }
        fn visit_local(&mut self, l: &'a syn::Local) {
            if let Some(init) = &l.init
                && let Some((_, otherwise)) = &init.diverge
                && super::shape_exits::leaves(otherwise)
            {
                let t: String = self.spans.text(&*init.expr).split_whitespace().collect();
                if let Expr::MethodCall(m) = &*init.expr
                    && t.contains(".pop")
                    && let Some(r) = recv(m)
                {
                    self.takes.push(r.clone());
                    self.empties.push(r);
                }
            }
            syn::visit::visit_local(self, l);
        }
    }
    let mut c = C {
        spans,
        takes: Vec::new(),
        fills: Vec::new(),
        empties: Vec::new(),
    };
    c.visit_block(body);
    let list = c.takes.first()?.clone();
    c.empties
        .iter()
        .any(|e| c.takes.contains(e) || c.fills.contains(e))
        .then_some(list)
}

/// A pass that goes round at once only when the connection it used was
/// taken again from a pool and found closed (`if conn.reuse ==
/// Reuse::Reused && budget > 0 { continue }`): the next pass takes a fresh
/// connection. The word the test names.
pub(super) fn fresh_connection(spans: &Spans<'_>, body: &Block) -> Option<&'static str> {
    struct F<'s, 'x> {
        spans: &'s Spans<'x>,
        found: Option<&'static str>,
    }
    impl<'a> Visit<'a> for F<'_, '_> {
        fn visit_item(&mut self, _: &'a Item) {}
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
            if self.found.is_none() && super::shape_exits::ends_in_continue(&i.then_branch) {
                let c = self.spans.text(&*i.cond).to_ascii_lowercase();
                self.found = ["reused", "stale"].into_iter().find(|w| c.contains(w));
            }
            syn::visit::visit_expr_if(self, i);
        }
    }
    let mut f = F { spans, found: None };
    f.visit_block(body);
    f.found
}

/// A loop's own words (its function's name and its code, strings and
/// comments aside) name retries: `retries`, `attempt`, `backoff`.
pub(super) fn retry_vocabulary(fname: &str, loop_text: &str) -> bool {
    let code: String = super::reach::without_strings(loop_text)
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
        .to_ascii_lowercase();
    let fname = fname.to_ascii_lowercase();
    ["retr", "attempt", "tries", "backoff"]
        .iter()
        .any(|w| code.contains(w) || fname.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_are_found_by_word() {
        assert!(compared("if attempt >= max {", "attempt"));
        assert!(compared("while 0 < n {", "n"));
        assert!(compared("if offset>end {", "offset"));
        assert!(!compared("get(next_number).await", "next_number"));
        assert!(!compared("x = 1 << shift;", "shift"));
        assert!(!compared("let numbers = a < b;", "number"));
    }

    #[test]
    fn retry_words_in_strings_do_not_count() {
        assert!(!retry_vocabulary(
            "await_account",
            "loop { debug!(\"retrying in 5s\"); wait_iters += 1; }"
        ));
        assert!(retry_vocabulary("fetch", "loop { attempts += 1; }"));
        assert!(retry_vocabulary("fetch_with_retries", "loop {}"));
    }
}
