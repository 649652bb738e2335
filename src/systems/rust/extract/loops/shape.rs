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

use super::shape_exits::{
    block_goes_round, bound_words, eintr, ends_in_continue, exits_anywhere, final_state, gives_up,
    goes_round, is_bound_test, is_status, leaves_on_state_only, local_send, lookup_found, not_yet,
    picks, rewaits, runs_until_stopped, sorts_errors, tests_status, text_of, tries_again,
};
pub(super) use super::shape_exits::{block_leaves, exits_process, leaves, pat_variant};
pub(super) use super::shape_words::is_poll_call;
use super::shape_words::{in_progress, is_shutdown_test, ok_of_nothing};
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
    /// Success goes round again: an unguarded `Ok(..)` arm that does not
    /// leave (a scheduler tick, a supervisor that restarts what ended), so
    /// the loop is a service loop, not a retry.
    pub success_stays: bool,
    /// The failure is a non-blocking attempt to take something
    /// (`Arc::try_unwrap`, `try_lock`, `try_recv`, `try_increment_size`):
    /// the loop waits for a state, it does not retry an operation.
    pub polls: bool,
    /// The failing call is a send on an in-process channel (`if let
    /// Err(e) = tx.send(msg)`, not awaited): its receiver ended, nothing
    /// remote failed.
    pub local_send: bool,
    /// Only a failure status goes round (`if status == 429 { sleep }`):
    /// errors leave (`send(..).await?`), so what is retried is the listed
    /// statuses, not every error.
    pub only_statuses: bool,
    /// Every failure that goes round is a local capacity condition (a
    /// full queue, too few slots: `QueueFull`, `NotEnoughSlots`), with no
    /// remote call on its path: the loop waits for room.
    pub capacity_wait: bool,
    /// A pass that goes round because the call found nothing yet (an
    /// `Ok(None)` arm, an error named not found): a wait for a value to
    /// appear, unless the loop's own words are a retry's (`classify.rs`).
    pub awaits_value: bool,
    /// Every failure that goes round is such a "not there yet" error: all
    /// others leave, so the loop's words cannot make it a retry.
    pub only_missing_round: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Plain,
    Ok,
    Err,
}

struct W<'s> {
    spans: &'s Spans<'s>,
    /// An arm guard's text with its file callees' (`guard_with_callees`).
    guard_text: &'s dyn Fn(&Expr) -> String,
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
    success_stays: bool,
    polls: bool,
    local_send: bool,
    /// The names the failure arms bind (`Err(retry) =>`).
    err_names: Vec<String>,
    /// Inside the branch of a shutdown test (`if cancel.is_cancelled()`):
    /// leaving there is stopping, not success.
    shutdown: u32,
    /// Inside a status test's failure branch.
    by_status: u32,
    /// A failure other than a status goes round.
    error_round: bool,
    /// Inside the operand of a `return` (`return match r { .., Err(e) =>
    /// Err(e) }`): every arm leaves with it.
    in_return: u32,
    /// Inside a failure arm that names a local capacity condition.
    capacity: u32,
    /// A capacity failure goes round; another failure goes round.
    capacity_round: bool,
    other_round: bool,
    awaits_value: bool,
    /// Inside a failure arm naming a missing value; one went round.
    missing: u32,
    missing_round: bool,
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

    /// Tests that make the loop a wait: a failure path testing "not
    /// there yet" (`404`, `304`) that goes round, a leaving test of a
    /// final state or of a lookup's success, and a failing send on an
    /// in-process channel.
    fn waits_by_test(&mut self, i: &syn::ExprIf, cond: &str) {
        let then_leaves = block_leaves(&i.then_branch);
        if !then_leaves
            && not_yet(cond)
            && (self.ctx == Ctx::Err || ends_in_continue(&i.then_branch))
        {
            self.polls = true;
        }
        if then_leaves && (final_state(cond) || lookup_found(cond)) {
            self.polls = true;
        }
        if let Expr::Let(l) = &*i.cond
            && pat_variant(&l.pat).is_some_and(|(n, _)| n == "Err")
            && local_send(&l.expr)
        {
            self.local_send = true;
        }
        // `if sender.send(v).is_err() { continue }`: the same, tested.
        if let Expr::MethodCall(m) = &*i.cond
            && m.method == "is_err"
            && local_send(&m.receiver)
            && ends_in_continue(&i.then_branch)
        {
            self.local_send = true;
        }
    }

    fn err_path(&mut self, goes_round: bool) {
        let goes_round = goes_round && self.in_return == 0;
        if goes_round {
            if self.missing > 0 {
                self.missing_round = true;
            } else if self.capacity > 0 {
                self.capacity_round = true;
            } else {
                self.other_round = true;
            }
        }
        if goes_round && self.by_status == 0 {
            self.error_round = true;
        }
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

    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        if self.nested == 0 && is_poll_call(&m.method.to_string()) {
            self.polls = true;
        }
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
        if self.nested == 0
            && let Expr::Path(p) = &*c.func
            && p.path
                .segments
                .last()
                .is_some_and(|s| is_poll_call(&s.ident.to_string()))
        {
            self.polls = true;
        }
        syn::visit::visit_expr_call(self, c);
    }

    // A `?` on a failure path (`retry.into_duration(i)?`), or on a match
    // whose `Err` arm hands the failure on, lets some failures leave while
    // others go round: they are sorted.
    fn visit_expr_try(&mut self, t: &'a syn::ExprTry) {
        if self.nested == 0 {
            let operand = text_of(self.spans, &t.expr);
            let on_failure = self.ctx == Ctx::Err
                && !bound_words(&operand)
                && self.err_names.iter().any(|n| contains_word(&operand, n));
            let err_value = matches!(&*t.expr, Expr::Match(m) if m.arms.iter().any(|a| {
                pat_variant(&a.pat).is_some_and(|(n, _)| n == "Err") && !leaves(&a.body)
            }));
            if on_failure || err_value {
                self.classified = true;
            }
        }
        syn::visit::visit_expr_try(self, t);
    }

    fn visit_expr_return(&mut self, r: &'a syn::ExprReturn) {
        let ok_value = r
            .expr
            .as_deref()
            .is_some_and(|e| text_of(self.spans, e).starts_with("Ok("));
        if self.shutdown == 0 && (self.ctx == Ctx::Ok || ok_value) {
            self.success = true;
            if self.nested > 0 {
                self.nested_ok_return = true;
            }
        }
        self.in_return += 1;
        syn::visit::visit_expr_return(self, r);
        self.in_return -= 1;
    }

    fn visit_expr_break(&mut self, b: &'a syn::ExprBreak) {
        let ok_value = b
            .expr
            .as_deref()
            .is_some_and(|e| text_of(self.spans, e).starts_with("Ok("));
        if self.nested == 0 && self.shutdown == 0 && (self.ctx == Ctx::Ok || ok_value) {
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
        let has_err = m
            .arms
            .iter()
            .any(|a| pat_variant(&a.pat).is_some_and(|(n, _)| n == "Err"));
        // `Ok(d) => d, Err(e) => return Err(e)` on a failure path is a
        // sorting even when the value is a delay (`retry.into_duration()`).
        let result_arms = has_ok || has_err;
        if (self.ctx == Ctx::Err || status)
            && some_leave
            && some_stay
            && (!on_backoff || result_arms)
        {
            self.classified = true;
        }
        // `match timeout(t, op()).await { Ok(result) => return result,
        // Err(_elapsed) => continue }`: the operation's own errors leave
        // with its result; only the timeout goes round.
        if self.nested == 0 && scrutinee.contains("timeout(") && m.arms.iter().any(|a| {
            matches!(pat_variant(&a.pat), Some((n, Some(Pat::Ident(i))))
            if n == "Ok" && {
                let body = text_of(self.spans, &a.body);
                let name = i.ident.to_string();
                // (last in the arm, after bookkeeping: metrics, logs)
                let body = body.trim_end_matches('}').trim_end_matches(';');
                body == format!("return{name}") || body.ends_with(&format!(";return{name}"))
                    || body.ends_with(&format!("}}return{name}")) || body == format!("{{return{name}")
            })
        }) {
            self.classified = true;
        }
        // `Err(Kind) => sleep`, `Err(other) => return`: some errors leave.
        let err_arms: Vec<&syn::Arm> = m
            .arms
            .iter()
            .filter(|a| pat_variant(&a.pat).is_some_and(|(n, _)| n == "Err"))
            .collect();
        // An `Err(e) if attempt < 3` arm that stays beside an `Err(e)` arm
        // that leaves is the bound, not a sorting: every failure goes round
        // until the count runs out.
        let bound_guard =
            |a: &&syn::Arm| matches!(&a.pat, Pat::Guard(g) if is_bound_test(&g.guard));
        // And the other way round: an `Err(e) if attempt >= 3 => return`
        // arm that leaves beside a plain `Err(e)` arm that goes round: the
        // guard is the count running out, it does not read the error.
        let leaving_bound = |a: &&syn::Arm| {
            matches!(&a.pat, Pat::Guard(g) if is_bound_test(&g.guard)
            && !pat_variant(&a.pat).and_then(|(_, p)| p).is_some_and(|p| {
                matches!(p, Pat::Ident(i)
                    if contains_word(&text_of(self.spans, &g.guard), &i.ident.to_string()))
            }))
        };
        if err_arms
            .iter()
            .any(|a| leaves(&a.body) && !leaving_bound(a))
            && err_arms
                .iter()
                .any(|a| !leaves(&a.body) && !eintr(self.spans, &a.pat) && !bound_guard(a))
        {
            self.classified = true;
        }
        // A failure sorted into kinds: `RetryAction::Fail(e) => return`
        // beside `RetryAction::RetryWithBackoff(s) => ..`.
        let variants: Vec<(String, bool)> = m
            .arms
            .iter()
            .filter_map(|a| pat_variant(&a.pat).map(|(n, _)| (n, leaves(&a.body))))
            .collect();
        // Or, on the loop's own level, a giving-up variant that leaves
        // beside others that stay (`Permanent(_) => return`, `RateLimited`
        // and `Timeout` go round).
        if variants.iter().any(|(n, l)| *l && gives_up(n))
            && (variants.iter().any(|(n, l)| !*l && tries_again(n))
                || (self.nested == 0 && variants.iter().any(|(n, l)| !*l && n != "Ok")))
        {
            self.classified = true;
        }
        // A categorizing answer (`match categorize(resp) { Done(v) =>
        // return Ok(v), Again(e) => errors.push(e), Drop(e) => return
        // Err(e) }`): success leaves, one failure leaves, another stays.
        if super::shape_words::sorts_outcome(self.spans, m) {
            self.classified = true;
        }
        // Success that goes round: an unguarded `Ok` arm that stays, with
        // no guarded `Ok` arm beside it (`Ok(r) if r.status().is_success()`
        // would make the other `Ok` arm a failure status).
        let guarded_ok = m.arms.iter().any(|a| {
            matches!(&a.pat, Pat::Guard(_)) && pat_variant(&a.pat).is_some_and(|(n, _)| n == "Ok")
        });
        if self.nested == 0 && self.ctx != Ctx::Err && !guarded_ok {
            for a in &m.arms {
                let body = text_of(self.spans, &a.body).to_ascii_lowercase();
                // `Ok(Err(e))` (a timeout around a call) is a failure.
                let ok_of_err = |inner: Option<&Pat>| {
                    inner.and_then(pat_variant).is_some_and(|(n, _)| n == "Err")
                };
                // A value handed on (`Ok(v) => v`) is not a way round.
                let value = matches!(
                    &*a.body,
                    Expr::Path(_) | Expr::Field(_) | Expr::Lit(_) | Expr::Tuple(_)
                ) && !matches!(&*a.body, Expr::Tuple(t) if t.elems.is_empty());
                if pat_variant(&a.pat).is_some_and(|(n, inner)| n == "Ok" && !ok_of_err(inner))
                    && !value
                    && (!exits_anywhere(&a.body)
                        || runs_until_stopped(self.spans, a)
                        || leaves_on_state_only(self.spans, &a.body))
                    && !tests_status(&body)
                {
                    self.success_stays = true;
                }
            }
        }
        for arm in &m.arms {
            let v = pat_variant(&arm.pat);
            let unit_variant = match &arm.pat {
                Pat::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                Pat::Ident(i) => Some(i.ident.to_string()),
                _ => v.as_ref().map(|(n, _)| n.clone()),
            };
            if self.nested == 0
                && unit_variant.as_deref().is_some_and(in_progress)
                && !leaves(&arm.body)
            {
                self.polls = true;
            }
            // `Ok(tree) if tree.count() == 0 => sleep`: the call worked and
            // the state is not reached yet; the arm goes round, a wait
            // (the guard reads the answer; one on a status, an error or
            // the attempts is no state).
            if self.nested == 0
                && let Pat::Guard(g) = &arm.pat
                && let Some(("Ok", Some(Pat::Ident(answer)))) = pat_variant(&g.pat)
                    .as_ref()
                    .map(|(n, inner)| (n.as_str(), *inner))
                && !leaves(&arm.body)
                && !super::shape_exits::about_outcome(&text_of(self.spans, &g.guard))
                && contains_word(&text_of(self.spans, &g.guard), &answer.ident.to_string())
            {
                self.polls = true;
            }
            // `Ok(None) => { .. }` going round: the call worked and found
            // nothing yet.
            if self.nested == 0
                && self.ctx != Ctx::Err
                && matches!(&v, Some((n, Some(p))) if n == "Ok" && super::shape_words::none_pat(p))
                && !leaves(&arm.body)
            {
                self.awaits_value = true;
            }
            let ctx = match &v {
                Some((n, inner)) if n == "Ok" && ok_of_nothing(*inner) => self.ctx,
                Some((n, _)) if n == "Ok" => Ctx::Ok,
                Some((n, inner)) if n == "Err" => {
                    if inner.is_some_and(picks) && some_leave {
                        self.classified = true;
                    }
                    // `Err(Outcome::Pending)`, `Err(RetryError::Continue(e))`
                    // going round: the callee says "not yet", a wait.
                    if self.nested == 0
                        && inner
                            .and_then(|p| match p {
                                Pat::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                                _ => pat_variant(p).map(|(n, _)| n),
                            })
                            .is_some_and(|n| {
                                in_progress(&n)
                                    || n == "Continue"
                                    || super::shape_words::not_yet_variant(&n)
                            })
                        && !leaves(&arm.body)
                    {
                        self.polls = true;
                    }
                    if eintr(self.spans, &arm.pat)
                        || inner.is_some_and(super::shape_words::cancelled_variant)
                    {
                        // Read again at once after `EINTR`: not a failure.
                        let c = self.ctx;
                        self.with(c, |w| w.visit_expr(&arm.body));
                        continue;
                    }
                    if let Pat::Guard(g) = &arm.pat
                        && !is_bound_test(&g.guard)
                    {
                        self.classified = true;
                    }
                    // `Err(KeyNotFound(_)) => sleep`: not there yet.
                    let missing = self.nested == 0
                        && (inner
                            .is_some_and(|p| super::shape_words::names_missing(self.spans, p))
                            || matches!(&arm.pat, Pat::Guard(g)
                                if super::shape_words::guard_names_missing(&(self.guard_text)(&g.guard))))
                        && !leaves(&arm.body);
                    self.awaits_value |= missing;
                    let cap = super::shape_words::capacity_arm(self.spans, &arm.pat, &arm.body);
                    self.capacity += u32::from(cap);
                    self.missing += u32::from(missing);
                    self.err_path(goes_round(&arm.body));
                    self.capacity -= u32::from(cap);
                    self.missing -= u32::from(missing);
                    if let Some(Pat::Ident(i)) = inner {
                        self.err_names.push(i.ident.to_string());
                    }
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
                        // `StatusCode::NOT_FOUND => sleep` going round:
                        // not there yet, a wait (an arm that waits or
                        // continues, not one computing a value).
                        let arm_body = text_of(self.spans, &arm.body);
                        if self.nested == 0
                            && not_yet(
                                &self
                                    .spans
                                    .text(&arm.pat)
                                    .split_whitespace()
                                    .collect::<String>(),
                            )
                            && !leaves(&arm.body)
                            && (arm_body.contains("sleep(") || arm_body.contains("continue"))
                        {
                            self.polls = true;
                        }
                        if !matches!(arm.pat, Pat::Wild(_)) {
                            self.by_status += 1;
                            self.err_path(!leaves(&arm.body));
                            self.by_status -= 1;
                        }
                        self.ctx
                    }
                }
                _ => self.ctx,
            };
            // A failure arm that leaves after logging another call's
            // failure (`if let Err(e) = spawn().await { error!(..) }
            // return;`): that failure does not go round either.
            let ends = ctx == Ctx::Err && leaves(&arm.body) && !goes_round(&arm.body);
            self.with(ctx, |w| {
                if let Pat::Guard(g) = &arm.pat {
                    w.visit_expr(&g.guard);
                }
                w.in_return += u32::from(ends);
                w.visit_expr(&arm.body);
                w.in_return -= u32::from(ends);
            });
        }
    }

    fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
        self.visit_expr(&i.cond);
        let cond = text_of(self.spans, &i.cond);
        if self.nested == 0 {
            self.waits_by_test(i, &cond);
        }
        let mut from_status = false;
        let (then_ctx, else_ctx) = if let Expr::Let(l) = &*i.cond {
            // `if let Ok(true) = fs::try_exists(..)`: waiting for a state.
            if self.nested == 0
                && matches!(pat_variant(&l.pat), Some((n, Some(Pat::Lit(_)))) if n == "Ok")
            {
                self.polls = true;
            }
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
        } else if let Some(failure) =
            crate::extract::status_test::holds_for(&cond).and_then(|s| s.failure())
        {
            // A test of the response's status (issue 28): a failure status
            // (`== StatusCode::TOO_MANY_REQUESTS`, `>= 500`) is the failure
            // path, a success status (`== 200`) the success path.
            from_status = true;
            if failure {
                (Ctx::Err, Ctx::Ok)
            } else {
                (Ctx::Ok, Ctx::Err)
            }
        } else if rewaits(&i.cond) {
            (self.ctx, self.ctx)
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
        // `if let Err(e) = fix().await { wait } else { continue }`: the
        // call's success goes round to look at the state again (a
        // reconciler), it does not leave.
        if self.nested == 0 && self.ctx != Ctx::Err {
            let else_round = i
                .else_branch
                .as_ref()
                .is_some_and(|(_, e)| matches!(&**e, Expr::Block(b) if ends_in_continue(&b.block)));
            // (only where this test sorts success from failure: an `if`
            // inside an `Ok` arm inherits its context)
            if (then_ctx == Ctx::Ok && else_ctx == Ctx::Err && ends_in_continue(&i.then_branch))
                || (then_ctx == Ctx::Err && else_ctx == Ctx::Ok && else_round)
            {
                self.success_stays = true;
            }
        }
        if from_status {
            self.by_status += 1;
        }
        if then_ctx == Ctx::Err && else_ctx == Ctx::Ok {
            // `if let Err(Full(back)) = tx.try_send(job)`: a capacity wait.
            let cap = match &*i.cond {
                Expr::Let(l) => {
                    let body = Expr::Block(syn::ExprBlock {
                        attrs: Vec::new(),
                        label: None,
                        block: i.then_branch.clone(),
                    });
                    super::shape_words::capacity_arm(self.spans, &l.pat, &body)
                }
                _ => false,
            };
            self.capacity += u32::from(cap);
            self.err_path(block_goes_round(&i.then_branch));
            self.capacity -= u32::from(cap);
        }
        if then_ctx == Ctx::Ok && else_ctx == Ctx::Err {
            // The failure path is the else branch, or the fall-through.
            let else_leaves = i.else_branch.as_ref().is_some_and(|(_, e)| leaves(e));
            self.err_path(!else_leaves);
        }
        if from_status {
            self.by_status -= 1;
        }
        // In a failure path, a test of the error that leaves (either way:
        // `if retry { Err(..) } else { bail!(..) }`) is a classification;
        // a test of a counter or a clock is the bound.
        // (`if let Some(d) = backoff.next() { sleep(d) } else { return }`
        // is the bound.)
        let else_leaves =
            i.else_branch.as_ref().is_some_and(|(_, e)| leaves(e)) && !bound_words(&cond);
        // (and one whose branch goes round, `if e.is_transient() { sleep;
        // continue }`, before the path's exit)
        let sends_round = self.ctx == Ctx::Err
            && i.else_branch.is_none()
            && ends_in_continue(&i.then_branch)
            && !matches!(&*i.cond, Expr::Let(_))
            && sorts_errors(self.spans, &i.cond);
        if sends_round {
            self.classified = true;
        }
        if self.ctx == Ctx::Err && (then_leaves || else_leaves) && !is_bound_test(&i.cond) {
            let t = cond.to_ascii_lowercase();
            if !t.contains("elapsed") && !t.contains("now()") && !t.contains("deadline") {
                self.classified = true;
            }
        }
        // `if err.to_string().contains("database is locked") && n < 100
        // { sleep } else { break Err(err) }`: the count beside it caps, the
        // test of the error (its kind, its message) sorts.
        let raw_else_leaves = i.else_branch.as_ref().is_some_and(|(_, e)| leaves(e));
        if self.ctx == Ctx::Err
            && (then_leaves || raw_else_leaves)
            && super::shape_exits::tests_error(self.spans, &i.cond, &self.err_names)
        {
            self.classified = true;
        }
        let shutdown = is_shutdown_test(&cond);
        if shutdown {
            self.shutdown += 1;
        }
        self.with(then_ctx, |w| w.visit_block(&i.then_branch));
        if shutdown {
            self.shutdown -= 1;
        }
        if let Some((_, e)) = &i.else_branch {
            self.with(else_ctx, |w| w.visit_expr(e));
        }
    }
}

/// Read the shape of a loop body.
pub(super) fn shape(
    spans: &Spans<'_>,
    body: &Block,
    cond: Option<&Expr>,
    guard_text: &dyn Fn(&Expr) -> String,
) -> Shape {
    let mut w = W {
        spans,
        guard_text,
        nested: 0,
        ctx: Ctx::Plain,
        while_cond: cond.map(|c| text_of(spans, c)),
        direct_err: false,
        nested_err: false,
        nested_ok_return: false,
        success: false,
        classified: false,
        success_stays: false,
        polls: false,
        local_send: false,
        err_names: Vec::new(),
        shutdown: 0,
        by_status: 0,
        error_round: false,
        in_return: 0,
        capacity: 0,
        capacity_round: false,
        other_round: false,
        awaits_value: false,
        missing: 0,
        missing_round: false,
    };
    // `while let Err(e) = op().await { .. }`: the body is the failure path
    // and the call's success ends the loop.
    let err_cond = cond.and_then(|c| match c {
        Expr::Let(l) => pat_variant(&l.pat).filter(|(n, _)| n == "Err"),
        _ => None,
    });
    if let Some((_, inner)) = &err_cond {
        w.ctx = Ctx::Err;
        if let Some(Pat::Ident(i)) = inner {
            w.err_names.push(i.ident.to_string());
        }
    }
    // `let Err(e) = op().await else { return Ok(()) };`: the `else` is
    // the way out on success, what follows it the failure path.
    let let_else = body.stmts.iter().position(|s| {
        matches!(s, Stmt::Local(l)
            if l.init.as_ref().is_some_and(|i| i.diverge.is_some())
                && pat_variant(&l.pat).is_some_and(|(n, _)| n == "Err"))
    });
    let mut let_else_goes_round = false;
    if let Some(at) = let_else {
        for s in &body.stmts[..at] {
            w.visit_stmt(s);
        }
        if let Stmt::Local(l) = &body.stmts[at]
            && let Some(init) = &l.init
            && let Some((_, otherwise)) = &init.diverge
        {
            w.visit_expr(&init.expr);
            if let Some((_, Some(Pat::Ident(i)))) = pat_variant(&l.pat) {
                w.err_names.push(i.ident.to_string());
            }
            w.with(Ctx::Ok, |w| w.visit_expr(otherwise));
        }
        let rest = &body.stmts[at + 1..];
        w.with(Ctx::Err, |w| rest.iter().for_each(|s| w.visit_stmt(s)));
        let_else_goes_round = !rest
            .iter()
            .any(|s| matches!(s, Stmt::Expr(Expr::Return(_) | Expr::Break(_), _)));
    } else {
        w.visit_block(body);
    }
    let err_cond = err_cond.is_some();
    // A `break` or `return` after the attempt, at the top of the body.
    let top_exit = body.stmts.iter().any(|s| match s {
        Stmt::Expr(e, _) => matches!(e, Expr::Return(_) | Expr::Break(_)),
        _ => false,
    });
    Shape {
        retries_err: w.direct_err
            || let_else_goes_round
            || (w.nested_err && w.nested_ok_return)
            || (err_cond && !block_leaves(body)),
        success_exit: w.success || top_exit || err_cond,
        classified: w.classified,
        success_stays: w.success_stays && !top_exit,
        polls: w.polls,
        local_send: w.local_send,
        only_statuses: (w.direct_err || w.nested_err)
            && !w.error_round
            && !let_else_goes_round
            && !err_cond,
        capacity_wait: w.capacity_round && !w.other_round,
        awaits_value: w.awaits_value,
        only_missing_round: w.missing_round && !w.other_round,
    }
}
