//! RL105 sync-retry-over-async: a synchronous retry given an operation
//! that returns a task or future, whose failure it never sees: it never
//! retries. Registered by rules/RL105-sync-retry-over-async.md.

use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    let Some(op) = &p.blind else {
        return;
    };
    // What it would have retried: the written attempts, when they retry.
    if !p.attempts.value.count.retries() {
        return;
    }
    e.emit(
        op.span,
        format!(
            "{} never retries: it runs `{}` synchronously and gets back a task, whose failure it never sees (`{}` written, one attempt made)",
            p.describe(),
            op.value,
            p.attempts.value.written_as
        ),
        p.system.spec().fixes.blind,
    );
}
