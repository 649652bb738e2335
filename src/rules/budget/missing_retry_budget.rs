//! RL601 missing-retry-budget: retries without a budget or throttle where
//! the system offers one.

use crate::model::BudgetSite;
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() || super::proportional(&p.budget) || !p.system.offers_budget() {
        return;
    }
    let fix = p.system.spec().fixes.budget;
    match &p.budget_site {
        BudgetSite::Policy => {
            e.emit(
                p.span,
                format!(
                    "{} retries (`{}`) with no retry budget: in an outage every failed call is retried, however many fail",
                    p.describe(),
                    p.attempts.value.written_as
                ),
                fix,
            );
        }
        // Reported once per block: every policy that retries through it
        // points at the same span.
        BudgetSite::Block { span, what } => {
            let f = e.emit(
                *span,
                format!(
                    "{what} sets no retry budget, and {} retries (`{}`) under it: {}",
                    p.describe(),
                    p.attempts.value.written_as,
                    p.system.spec().fixes.unbudgeted
                ),
                fix,
            );
            Emitter::relate(f, p.span, "retries are configured here");
        }
        // The budget may be where this file cannot see, or the mechanism
        // has none.
        BudgetSite::Unseen | BudgetSite::NotOffered => {}
    }
}
