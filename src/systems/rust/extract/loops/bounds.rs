//! A retry loop's bound: a range, a counter compared to a limit, a match
//! guard on the counter.

use super::bounds_reads::{
    checks_before_attempt, counter_read, deadline_try, stepped_through, time_guard,
};
use super::*;

impl LoopFinder<'_, '_, '_, '_, '_> {
    pub(super) fn num(&self, e: &Expr) -> Num {
        if let Expr::Path(p) = e
            && let Some(id) = p.path.get_ident()
            && let Some(name) = id.to_string().strip_prefix(PARAM)
        {
            return Num::Param(name.to_string());
        }
        if let Expr::Paren(p) = e {
            return self.num(&p.expr);
        }
        if let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) = e
        {
            return i.base10_digits().parse().map_or(Num::Unknown, Num::Const);
        }
        // A field of `self` every literal of the impl's type sets to the
        // same integer and nothing assigns.
        if let Expr::Field(f) = e
            && let (Expr::Path(b), syn::Member::Named(n)) = (&*f.base, &f.member)
            && b.path.is_ident("self")
            && let Some(ty) = self.impl_ty
            && let Some(v) = self.ev.field_int(ty, &n.to_string())
        {
            return Num::Const(v);
        }
        // A constant of the file.
        if let Expr::Path(p) = e
            && let Some(id) = p.path.segments.last()
        {
            let name = id.ident.to_string();
            if let Some(c) = self.ev.ix_const(&name)
                && let Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(i),
                    ..
                }) = c
            {
                return i.base10_digits().parse().map_or(Num::Unknown, Num::Const);
            }
        }
        Num::Unknown
    }

    pub(super) fn counter_init(&self, before: &[&Stmt], name: &str) -> i128 {
        for s in before.iter().rev() {
            if let Stmt::Local(l) = s
                && pat_ident(&l.pat).as_deref() == Some(name)
                && let Some(init) = &l.init
                && let Num::Const(v) = self.num(&init.expr)
            {
                return v;
            }
        }
        0
    }

    /// The loop's bound; a count tested in the body that another failure
    /// arm escapes (it goes round without touching the counter) is none.
    pub(super) fn bound(
        &self,
        body: &Block,
        before: &[&Stmt],
        head: Span,
        range: Option<&Expr>,
        cond: Option<&Expr>,
        range_var: Option<String>,
    ) -> AttemptsT {
        let read = self.bound_read(body, before, head, range, cond, range_var);
        let inner = self.ev.spans.block(body);
        match &read {
            AttemptsT::Count { span, .. }
                if inner.start <= span.start
                    && span.end <= inner.end
                    && let Some(arm) =
                        super::bounds_arms::escaping_arm(self.ev.spans, body, *span) =>
            {
                AttemptsT::Unbounded { span: arm }
            }
            _ => read,
        }
    }

    fn bound_read(
        &self,
        body: &Block,
        before: &[&Stmt],
        head: Span,
        range: Option<&Expr>,
        cond: Option<&Expr>,
        range_var: Option<String>,
    ) -> AttemptsT {
        let spans = self.ev.spans;
        // `for attempt in 1..`: the loop variable counts the attempts, and a
        // test of it in the body is the bound.
        let mut counted: Option<(String, i128)> = None;
        // A schedule written out (`for d in [Some(1s), Some(3s), None]`):
        // one attempt per item; one from a call: as many as it yields.
        match range {
            Some(Expr::Array(a)) => {
                return AttemptsT::Count {
                    value: Num::Const(a.elems.len() as i128),
                    offset: 0,
                    span: spans.node(a),
                };
            }
            Some(r) if !matches!(r, Expr::Range(_)) => {
                return AttemptsT::Unknown {
                    span: spans.node(r),
                };
            }
            _ => {}
        }
        if let Some(Expr::Range(r)) = range {
            let lo = r
                .start
                .as_deref()
                .map(|e| self.num(e))
                .unwrap_or(Num::Const(0));
            let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
            if let Some(hi) = r.end.as_deref() {
                let hi_n = self.num(hi);
                let span = spans.node(r);
                return match (lo, hi_n) {
                    (Num::Const(a), Num::Const(b)) => AttemptsT::Count {
                        value: Num::Const(b - a + i128::from(inclusive)),
                        offset: 0,
                        span,
                    },
                    (Num::Const(a), Num::Param(p)) => AttemptsT::Count {
                        value: Num::Param(p),
                        offset: i128::from(inclusive) - a,
                        span,
                    },
                    _ => AttemptsT::Unknown { span },
                };
            }
            match (range_var, lo) {
                (Some(v), Num::Const(a)) => counted = Some((v, a)),
                _ => return AttemptsT::Unbounded { span: head },
            }
        }
        let init_of = |name: &str| match &counted {
            Some((v, lo)) if v == name => *lo,
            _ => self.counter_init(before, name),
        };
        // Counters incremented in the body.
        let body_text = spans.block_text(body);
        let incremented = |name: &str| {
            if counted.as_ref().is_some_and(|(v, _)| v == name) {
                return true;
            }
            let t = crate::systems::rust::extract::squash(body_text);
            t.contains(&format!("{name}+=1"))
                || t.contains(&format!("{name}={name}+1"))
                || t.contains(&format!("{name}.inc()"))
                || t.contains(&format!("{name}.fetch_add(1,"))
                || t.contains(&format!("{name}={name}.saturating_add(1)"))
                || stepped_through(&t, name)
        };
        let inc_at = |name: &str| -> Option<usize> {
            let b = spans.block(body);
            let t = spans.slice(b);
            t.find(&format!("{name} += 1"))
                .or_else(|| t.find(&format!("{name}+=1")))
                .or_else(|| {
                    // (`name = next;`, stepped through a local)
                    let squashed = crate::systems::rust::extract::squash(t);
                    stepped_through(&squashed, name)
                        .then(|| {
                            let w = format!("{name} = ");
                            t.match_indices(&w).map(|(i, _)| i).find(|&i| {
                                !t[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                            })
                        })
                        .flatten()
                })
                .map(|i| b.start + i)
        };
        // `while counter < limit`
        if let Some(c) = cond
            && let Some((name, op, limit, span)) = compare(c)
            && incremented(&name)
        {
            let c0 = init_of(&name);
            let value = self.num(limit);
            let offset = match op {
                Cmp::Lt => -c0,
                Cmp::Le => 1 - c0,
                _ => {
                    return AttemptsT::Unknown {
                        span: spans.node(c),
                    };
                }
            };
            return AttemptsT::Count {
                value,
                offset,
                span: spans.node(span),
            };
        }
        // `while let Err(e) = op().await`: the condition is the way out on
        // success, not a bound; the body says what else ends the loop.
        let err_let = matches!(cond, Some(Expr::Let(l))
            if super::shape::pat_variant(&l.pat).is_some_and(|(n, _)| n == "Err"));
        if let Some(c) = cond
            && !err_let
            && !matches!(
                c,
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Bool(_),
                    ..
                })
            )
        {
            return AttemptsT::Unknown {
                span: spans.node(c),
            };
        }
        // `if counter > limit { break/return }` inside the body.
        let mut found: Option<AttemptsT> = None;
        struct Ifs<'x> {
            out: Vec<&'x Expr>,
            /// Conditions whose `else` branch leaves (`if attempt < MAX {
            /// continue } else { return Err(e) }`): the loop stops when they
            /// fail.
            negated: Vec<&'x Expr>,
        }
        fn stmt_leaves(s: &Stmt) -> bool {
            matches!(s, Stmt::Expr(Expr::Break(_) | Expr::Return(_), _))
                || matches!(s, Stmt::Expr(e, _) if super::shape::exits_process(e))
                || matches!(s, Stmt::Expr(Expr::Macro(m), _) if super::shape_exits::leaving_macro(&m.mac.path))
                || matches!(s, Stmt::Macro(m) if super::shape_exits::leaving_macro(&m.mac.path))
                || matches!(s, Stmt::Macro(m) if super::shape_exits::cfg_if_returns(&m.mac))
                || matches!(s, Stmt::Expr(Expr::Macro(m), _) if super::shape_exits::cfg_if_returns(&m.mac))
        }
        fn block_leaves(b: &Block) -> bool {
            b.stmts
                .iter()
                .any(|s| stmt_leaves(s) || matches!(s, Stmt::Expr(Expr::If(i), _) if if_leaves(i)))
        }
        // `if let Some(e) = last { return Err(..) } else { return Err(..) }`:
        // every branch leaves.
        fn if_leaves(i: &syn::ExprIf) -> bool {
            block_leaves(&i.then_branch)
                && match i.else_branch.as_ref().map(|(_, e)| &**e) {
                    Some(Expr::Block(b)) => block_leaves(&b.block),
                    Some(Expr::If(j)) => if_leaves(j),
                    _ => false,
                }
        }
        impl<'x> Visit<'x> for Ifs<'x> {
            fn visit_item(&mut self, _: &'x Item) {}
            // `if attempts < max { sleep; continue } return Err(e)`: the
            // `if` that goes round, followed in its block by a way out
            // (`log(..); return Err(e)`), stops the loop
            // when its test fails, as an `else` that leaves would.
            fn visit_block(&mut self, b: &'x Block) {
                for (k, s) in b.stmts.iter().enumerate() {
                    if let Stmt::Expr(Expr::If(i), _) = s
                        && i.else_branch.is_none()
                        && matches!(
                            i.then_branch.stmts.last(),
                            Some(Stmt::Expr(Expr::Continue(_), _))
                        )
                        && b.stmts[k + 1..].iter().any(stmt_leaves)
                    {
                        self.negated.push(&i.cond);
                    }
                }
                syn::visit::visit_block(self, b);
            }
            fn visit_expr_closure(&mut self, _: &'x syn::ExprClosure) {}
            fn visit_expr_if(&mut self, i: &'x syn::ExprIf) {
                if block_leaves(&i.then_branch) {
                    self.out.push(&i.cond);
                } else if let Some((_, e)) = &i.else_branch
                    && let Expr::Block(b) = &**e
                    && block_leaves(&b.block)
                {
                    self.negated.push(&i.cond);
                }
                syn::visit::visit_expr_if(self, i);
            }
            // `match (result, retries < max) { (Err(e), false) => return .. }`:
            // a comparison in the scrutinee tuple whose `false` (or `true`)
            // arm leaves is the test of an `if` leaving on it.
            fn visit_expr_match(&mut self, m: &'x syn::ExprMatch) {
                if let Expr::Tuple(t) = &*m.expr {
                    for (k, e) in t.elems.iter().enumerate() {
                        for a in &m.arms {
                            let leaves = match &*a.body {
                                Expr::Block(b) => block_leaves(&b.block),
                                Expr::Return(_) | Expr::Break(_) => true,
                                _ => false,
                            };
                            let syn::Pat::Tuple(p) = &a.pat else { continue };
                            let Some(syn::Pat::Lit(syn::PatLit {
                                lit: syn::Lit::Bool(v),
                                ..
                            })) = p.elems.iter().nth(k)
                            else {
                                continue;
                            };
                            if !leaves {
                                continue;
                            }
                            if v.value {
                                self.out.push(e);
                            } else {
                                self.negated.push(e);
                            }
                        }
                    }
                }
                syn::visit::visit_expr_match(self, m);
            }
        }
        let mut ifs = Ifs {
            out: Vec::new(),
            negated: Vec::new(),
        };
        ifs.visit_block(body);
        // `if attempt < max { .. } else { leave }` stops when `attempt >=
        // max`: read as that test.
        let negated: Vec<(&Expr, bool)> = ifs.negated.iter().map(|c| (*c, true)).collect();
        let decremented = |name: &str| {
            let t = crate::systems::rust::extract::squash(body_text);
            t.contains(&format!("{name}-=1"))
                || t.contains(&format!("{name}={name}-1"))
                || t.contains(&format!("{name}={name}.saturating_sub(1)"))
        };
        let dec_at = |name: &str| -> Option<usize> {
            let b = spans.block(body);
            let t = spans.slice(b);
            t.find(&format!("{name} -= 1"))
                .or_else(|| t.find(&format!("{name} = {name}.saturating_sub(1)")))
                .map(|i| b.start + i)
        };
        // (or of a local that holds a clock reading: `let elapsed =
        // Instant::now().duration_since(start); if elapsed >= timeout {
        // return Err(..) }`)
        let clock_locals: Vec<String> = body
            .stmts
            .iter()
            .take(64)
            .filter_map(|s| match s {
                Stmt::Local(l) => l
                    .init
                    .as_ref()
                    .filter(|i| is_time_test(spans.text(&*i.expr)))
                    .and_then(|_| pat_ident(&l.pat)),
                _ => None,
            })
            .collect();
        let time_test = ifs.out.iter().copied().find(|c| {
            is_time_test(spans.text(*c))
                || compare(c).is_some_and(|(n, ..)| clock_locals.contains(&n))
        });
        let tests: Vec<(&Expr, bool)> =
            ifs.out.iter().map(|c| (*c, false)).chain(negated).collect();
        for (c, flip) in tests {
            let mut conds = vec![c];
            // Negated, `a || b` fails only when both do; `a && b` fails when
            // either does, so each conjunct is a way out. `unlimited ||
            // n < max` is a limit beside a switch that lifts it (`let
            // unlimited = max_retries.is_none()`): the user's choice, the
            // comparison is the bound.
            if flip
                && let Expr::Binary(b) = c
                && matches!(b.op, syn::BinOp::Or(_))
            {
                let lifts = |e: &Expr| {
                    let t = spans.text(e).to_ascii_lowercase();
                    !matches!(e, Expr::Binary(_))
                        && ["unlimited", "infinite", "forever"]
                            .iter()
                            .any(|w| t.contains(w))
                };
                match (lifts(&b.left), lifts(&b.right)) {
                    (true, false) => conds = vec![&*b.right],
                    (false, true) => conds = vec![&*b.left],
                    _ => continue,
                }
            } else if let Expr::Binary(b) = c
                && matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_))
            {
                // A chain `a && let P = x && b` that goes round when it
                // holds nests to the left: each of its operands is a way
                // out. (A leaving `a && b` is read as before: its two sides.)
                conds = vec![&b.left, &b.right];
                if flip && matches!(b.op, syn::BinOp::And(_)) {
                    conds.clear();
                    let mut stack: Vec<&Expr> = vec![&b.right, &b.left];
                    while let Some(x) = stack.pop() {
                        match x {
                            Expr::Binary(i) if matches!(i.op, syn::BinOp::And(_)) => {
                                stack.push(&i.right);
                                stack.push(&i.left);
                            }
                            x => conds.push(x),
                        }
                    }
                }
            }
            for c in conds {
                // A test in a method of the file (`!self.need_retry()`,
                // whose body is `self.n < self.max`): its comparison,
                // placed at the call.
                let (c, at, flip, renamed) = match self.own_test(c) {
                    Some((inner, negated, renamed)) => (inner, c, flip ^ negated, renamed),
                    None => (c, c, flip, None),
                };
                let Some((name, op, limit, _)) = compare(c) else {
                    continue;
                };
                // (the callee's parameter is the caller's counter)
                let name = match renamed {
                    Some((param, arg)) if param == name => arg,
                    _ => name,
                };
                let cmp_span = at;
                let op = if flip {
                    // (`budget > 0 && .. { budget -= 1; continue }`: stops
                    // when `budget <= 0`)
                    match op {
                        Cmp::Lt => Cmp::Ge,
                        Cmp::Le => Cmp::Gt,
                        Cmp::Gt => Cmp::Le,
                        _ => continue,
                    }
                } else {
                    op
                };
                if !incremented(&name) {
                    // A counter counted down (`retries_left -= 1`) to zero.
                    if decremented(&name)
                        && matches!(op, Cmp::Eq | Cmp::Le)
                        && matches!(self.num(limit), Num::Const(0))
                    {
                        found = Some(self.countdown(before, &name, cmp_span, &dec_at));
                        break;
                    }
                    continue;
                }
                let c0 = init_of(&name);
                let check_at = spans.node(cmp_span).start;
                let inc_before = inc_at(&name).is_some_and(|i| i < check_at);
                // Attempt k (0-based) sees counter c0 + k (or + k + 1 when
                // incremented before the check) and stops after it when the
                // comparison holds.
                let shift = i128::from(inc_before);
                let first = match op {
                    Cmp::Gt => 1 - c0 - shift,
                    Cmp::Ge | Cmp::Eq => -c0 - shift,
                    _ => continue,
                };
                // Attempts = first k that stops + 1; when the test comes
                // before anything is called in the pass (`if tries >= 6 {
                // return }` at the top), pass k stops before its attempt,
                // so k attempts were made.
                let before_attempt = checks_before_attempt(spans, body, check_at);
                found = Some(AttemptsT::Count {
                    value: self.num(limit),
                    offset: first + i128::from(!before_attempt),
                    span: spans.node(cmp_span),
                });
                break;
            }
            if found.is_some() {
                break;
            }
        }
        // A match guard: `Err(e) if attempt >= 4 => return Err(e)`.
        if found.is_none() {
            found = self.guard_bound(body, before);
        }
        // A guard that lets the arm go round again while a counter is under
        // its limit: `Err(e) if retryable(&e) && attempt < max => { attempt
        // += 1; sleep(..) }`.
        if found.is_none() {
            found = self.staying_guard(body, before, &init_of, &incremented, &decremented, &dec_at);
        }
        // An elapsed-time cap (`if start.elapsed() > timeout { break }`),
        // or a clock in the guard of the arm that goes round (`Err(e) if
        // Instant::now() < deadline => sleep(..)`): bounded, by a number
        // of attempts the clock decides.
        if found.is_none()
            && let Some(c) = time_test.or_else(|| time_guard(spans, body))
        {
            return AttemptsT::Unknown {
                span: spans.node(c),
            };
        }
        // A deadline that ends the loop through `?`
        // (`let timeout = deadline_as_timeout(deadline)?;`).
        if found.is_none()
            && let Some(s) = deadline_try(spans, body)
        {
            return AttemptsT::Unknown {
                span: spans.node(s),
            };
        }
        // A retry policy that runs out (`if let Some(d) = retry_iter.next()
        // { .. } else { return Err(e) }`, `retries.has_next()`).
        if found.is_none()
            && let Some(e) = super::policy_ends::policy_ends(spans, body)
        {
            return AttemptsT::Unknown {
                span: spans.node(e),
            };
        }
        // A method of this file asked for the next delay that answers
        // `None` once the clock has run out (`let Some(d) =
        // deadline.bounded_delay(d) else { return Err(e) }`).
        if found.is_none()
            && let Some(e) = self.own_clock_runs_out(body)
        {
            return AttemptsT::Unknown {
                span: spans.node(e),
            };
        }
        // A method of this file that fails once the attempts are spent,
        // under `?` (`self.get_servers()?`).
        if found.is_none()
            && let Some(e) = self.own_method_runs_out(body)
        {
            return AttemptsT::Unknown {
                span: spans.node(e),
            };
        }
        if found.is_none() && delegates_bound(body_text) {
            return AttemptsT::Unknown { span: head };
        }
        // A counter of attempts handed to a call that counts and decides
        // (`self.handle_connection_error(&mut retry_count)`, which answers
        // the error that leaves once it is spent): the callee holds the
        // bound.
        if found.is_none() {
            let t = crate::systems::rust::extract::squash(body_text);
            let handed = before.iter().any(|s| {
                matches!(s, Stmt::Local(l) if l.init.as_ref().is_some_and(|i| matches!(self.num(&i.expr), Num::Const(_)))
                    && pat_ident(&l.pat).is_some_and(|n| {
                        let n = format!("&mut{n}");
                        t.match_indices(&n).any(|(i, _)| t[i + n.len()..].starts_with([')', ',']))
                    }))
            });
            if handed {
                return AttemptsT::Unknown { span: head };
            }
        }
        found.unwrap_or(AttemptsT::Unbounded { span: head })
    }

    /// `self.method()` or `!self.method()` where the method's body is one
    /// comparison: that comparison, and whether it is negated. Or a free
    /// function of the file handed the counter (`if
    /// retry_exhausted(retry_count) { return Err(e) }`, whose body is
    /// `retry_count > MAX_RETRIES`, rustfs, twenty-fifth pass): its
    /// comparison, with the parameter and the argument it stands for.
    #[allow(clippy::type_complexity)]
    fn own_test<'x>(&'x self, c: &'x Expr) -> Option<(&'x Expr, bool, Option<(String, String)>)> {
        let (inner, negated) = match c {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => (&*u.expr, true),
            e => (e, false),
        };
        if let Expr::Call(call) = inner
            && let Expr::Path(f) = &*call.func
            && let Some(fname) = f.path.get_ident()
            && let (Some(Expr::Path(a)), None) = (call.args.first(), call.args.iter().nth(1))
            && let Some(arg) = a.path.get_ident()
        {
            let (param, v) = self.ev.own_fn_of_one(&fname.to_string())?;
            return compare(v).map(|_| (v, negated, Some((param, arg.to_string()))));
        }
        let Expr::MethodCall(m) = inner else {
            return None;
        };
        if !m.args.is_empty() || !matches!(&*m.receiver, Expr::Path(p) if p.path.is_ident("self")) {
            return None;
        }
        let v = self.ev.own_fn_value(&m.method.to_string())?;
        compare(v).map(|_| (v, negated, None))
    }

    pub(super) fn guard_bound(&self, body: &Block, before: &[&Stmt]) -> Option<AttemptsT> {
        let spans = self.ev.spans;
        let b = spans.block(body);
        let text = spans.slice(b);
        for (name, _) in counters(text) {
            for (op, cmp) in [(">=", Cmp::Ge), (">", Cmp::Gt), ("==", Cmp::Eq)] {
                let needle = format!("if {name} {op} ");
                let Some(i) = text.find(&needle) else {
                    continue;
                };
                let rest = &text[i + needle.len()..];
                // In a macro arm the text is the definition's: a parameter
                // reads `$n` there (the parsed tokens say `__rl_p_n`).
                let (param, rest) = match rest.strip_prefix('$') {
                    Some(r) => (true, r),
                    None => (false, rest),
                };
                let limit: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if limit.is_empty() || !rest[limit.len()..].trim_start().starts_with("=>") {
                    continue;
                }
                let value = match limit.parse::<i128>() {
                    _ if param => Num::Param(limit.clone()),
                    Ok(n) => Num::Const(n),
                    Err(_) => match self.ev.ix_const(&limit) {
                        Some(Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Int(n),
                            ..
                        })) => n.base10_digits().parse().map_or(Num::Unknown, Num::Const),
                        _ if limit.starts_with(PARAM) => {
                            Num::Param(limit[PARAM.len()..].to_string())
                        }
                        _ => Num::Unknown,
                    },
                };
                let c0 = self.counter_init(before, &name);
                let inc_before = text.find(&format!("{name} += 1")).is_some_and(|k| k < i);
                let shift = i128::from(inc_before);
                let first = match cmp {
                    Cmp::Gt => 1 - c0 - shift,
                    _ => -c0 - shift,
                };
                let at = b.start + i + 3;
                return Some(AttemptsT::Count {
                    value,
                    offset: first + 1,
                    span: Span::new(at, at + needle.len() - 4 + usize::from(param) + limit.len()),
                });
            }
        }
        None
    }
}

/// A test of the clock: `start.elapsed() > timeout`, `Instant::now() >=
/// deadline`.
pub(super) fn is_time_test(text: &str) -> bool {
    let t = crate::systems::rust::extract::squash(text).to_ascii_lowercase();
    t.contains("elapsed()") || t.contains("now()") || t.contains("deadline")
}

/// Counters incremented by one in a loop body (`name += 1`), with where.
pub(super) fn counters(text: &str) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for (i, _) in text.match_indices("+= 1") {
        let head = text[..i].trim_end();
        let name: String =
            crate::extract::calls::lex::trailing(head, |c| c.is_alphanumeric() || c == '_')
                .to_string();
        if !name.is_empty() && !out.iter().any(|(n, _)| *n == name) {
            out.push((name, i));
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
}

/// `name OP limit` (or `limit OP name`, flipped).
pub(super) fn compare(e: &Expr) -> Option<(String, Cmp, &Expr, &Expr)> {
    let Expr::Binary(b) = e else { return None };
    let op = match b.op {
        syn::BinOp::Lt(_) => Cmp::Lt,
        syn::BinOp::Le(_) => Cmp::Le,
        syn::BinOp::Gt(_) => Cmp::Gt,
        syn::BinOp::Ge(_) => Cmp::Ge,
        syn::BinOp::Eq(_) => Cmp::Eq,
        _ => return None,
    };
    // A counter in a field of `self` (`self.io_retry_times`) too.
    let ident = |e: &Expr| match e {
        Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
        Expr::Field(f) => match (&*f.base, &f.member) {
            (Expr::Path(p), syn::Member::Named(n)) if p.path.is_ident("self") => {
                Some(format!("self.{n}"))
            }
            _ => None,
        },
        _ => counter_read(e),
    };
    if let Some(n) = ident(&b.left)
        && !n.starts_with(PARAM)
        && n.chars().any(|c| c.is_lowercase())
    {
        return Some((n, op, &b.right, e));
    }
    if let Some(n) = ident(&b.right)
        && !n.starts_with(PARAM)
        && n.chars().any(|c| c.is_lowercase())
    {
        let flipped = match op {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
            Cmp::Eq => Cmp::Eq,
        };
        return Some((n, flipped, &b.left, e));
    }
    None
}
