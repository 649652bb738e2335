//! RL501 idempotency-key-in-retry: an idempotency key is created inside
//! the retry scope (loop body, retry closure, `@Retryable` method), so each
//! attempt sends a new key.

use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() {
        return;
    }
    for key in p.idempotency.iter().filter(|k| k.inside_retry) {
        let f = e.emit(
            key.span,
            format!(
                "`{}` creates the idempotency key inside the retry of {}: every attempt sends a new key, so the server cannot tell a retry from a new request and may apply it twice",
                key.created_by,
                p.describe()
            ),
            "create the key once, before the retry starts, and send that same key with every attempt",
        );
        if p.span != key.span {
            Emitter::relate(f, p.span, "the retry whose attempts each mint a key");
        }
    }
}
