//! RL301 retries-exceed-timeout: in one layer, attempts x per-try timeout
//! (+ backoff) exceeds the overall timeout.

use crate::duration::human;
use crate::model::{AttemptCount, Provenance};
use crate::rules::{Check, Emitter, PolicyCtx};
use std::time::Duration;

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() {
        return;
    }
    let (Some(per_try), Some(overall)) = (&p.per_try_timeout, &p.overall_timeout) else {
        return;
    };
    // A per-try timeout that merely defaults to the overall one is not a
    // budget anybody split.
    if per_try.provenance == Provenance::Default {
        return;
    }
    let (Some(t), Some(total)) = (per_try.value.finite(), overall.value.finite()) else {
        return;
    };
    let AttemptCount::Finite(n) = p.attempts.value.count else {
        return;
    };
    let backoff: Duration = (1..n)
        .map(|k| p.delay.value.nominal(k as u32).unwrap_or_default())
        .sum();
    let worst = t.saturating_mul(n as u32) + backoff;
    if worst <= total || t.is_zero() {
        return;
    }
    let fit = ((total.as_secs_f64() / t.as_secs_f64()).floor() as u64).min(n);
    let backoff_note = if backoff.is_zero() {
        String::new()
    } else {
        format!(" + `{}` backoff", human(backoff))
    };
    let f = e.emit(
        per_try.span,
        format!(
            "{} makes {n} attempts x `{}` per try{backoff_note} = `{}`, more than the overall timeout `{}`: only {fit} of the {n} attempts can finish",
            p.describe(),
            human(t),
            human(worst),
            human(total),
        ),
        format!(
            "make attempts x per-try timeout fit in the overall timeout: fewer attempts, a per-try timeout of at most `{}`, or a longer overall timeout",
            human(Duration::from_secs_f64(total.as_secs_f64() / n as f64))
        ),
    );
    Emitter::relate(
        f,
        p.attempts.span,
        format!("`{}`", p.attempts.value.written_as),
    );
    Emitter::relate(f, overall.span, "the overall timeout");
}
