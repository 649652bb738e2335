//! RL601 missing-retry-budget: retries without a budget or throttle where
//! the system offers one.

use crate::fix::Fix;
use crate::model::{Budget, BudgetSite};
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
            let f = e.emit(
                p.span,
                format!(
                    "{} retries (`{}`) with no retry budget: in an outage every failed call is retried, however many fail",
                    p.describe(),
                    p.attempts.value.written_as
                ),
                fix,
            );
            // Unsafe: a budget limits the retries in an outage (it takes
            // precedence over a retry circuit breaker).
            if let Some(make) = p.system.spec().fixes.edits.budget
                && let Some(site) = ctx.site(f.file)
                && let Some(edits) = make(&site)
            {
                let title = p.system.spec().fixes.edits.budget_title;
                f.fix(Fix::unsafe_(title.unwrap_or("add a retry budget"), edits));
            }
        }
        // Reported once per block: every policy that retries through it
        // points at the same span.
        BudgetSite::Block { span, what } => {
            // A retry circuit breaker the block writes is named with its
            // value (sebivenlo/esd-2024-envoy's `max_retries: 2` was called
            // "3 by default").
            let why = match p.budget.as_ref() {
                Some(b) if b.is_written() => match b.value {
                    Budget::Concurrency { max } => format!(
                        "only its `max_retries` circuit breaker (`{max}` concurrent retries) limits them, however much of the traffic fails"
                    ),
                    _ => p.system.spec().fixes.unbudgeted.to_string(),
                },
                _ => p.system.spec().fixes.unbudgeted.to_string(),
            };
            let f = e.emit(
                *span,
                format!(
                    "{what} sets no retry budget, and {} retries (`{}`) under it: {}",
                    p.describe(),
                    p.attempts.value.written_as,
                    why
                ),
                fix,
            );
            // Unsafe, as above; made where the system can write a budget
            // into the block (gRPC's `retryThrottling`).
            if let Some(make) = p.system.spec().fixes.edits.budget
                && let Some(site) = ctx.site(f.file)
                && let Some(edits) = make(&site)
            {
                let title = p.system.spec().fixes.edits.budget_title;
                f.fix(Fix::unsafe_(title.unwrap_or(fix), edits));
            }
            Emitter::relate(f, p.span, "retries are configured here");
        }
        // The budget may be where this file cannot see, or the mechanism
        // has none.
        BudgetSite::Unseen | BudgetSite::NotOffered => {}
    }
}
