//! RL301 retries-exceed-timeout: in one layer, attempts x per-try timeout
//! (+ backoff) exceeds the overall timeout.

use crate::duration::human;
use crate::fix::Fix;
use crate::model::{AttemptCount, Provenance, backoff};
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
    if let Some(d) = p.hedge_delay() {
        hedged(p, e, per_try.span, n, t, d, total);
        return;
    }
    let backoff = p.total_backoff().unwrap_or_default();
    let worst = backoff::worst_case(n, t, backoff);
    if worst <= total || t.is_zero() {
        return;
    }
    if p.system.timeout_stops_new_attempts() {
        window(p, e, per_try.span, overall.span, n, t, total);
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
    // Unsafe: the written per-try timeout is lowered so that the attempts
    // and their waits fit the overall timeout; an attempt that took longer
    // and succeeded now times out and is retried.
    if let Some(make) = p.system.spec().fixes.edits.per_try_timeout
        && let Ok(n32) = u32::try_from(n)
        && n32 > 0
        && let Some(each) = total
            .checked_sub(backoff)
            .map(|left| super::round_down(left / n32))
        && !each.is_zero()
        && each < t
        && let Some(site) = ctx.site(f.file)
        && let Some(edits) = make(&site, each)
    {
        f.fix(Fix::unsafe_(
            format!(
                "set the per-try timeout to `{}` ({n} attempts and their waits fit the `{}` overall timeout)",
                human(each),
                human(total)
            ),
            edits,
        ));
    }
    Emitter::relate(
        f,
        p.attempts.span,
        format!("`{}`", p.attempts.value.written_as),
    );
    Emitter::relate(f, overall.span, "the overall timeout");
}

/// nginx: no try starts once the window has elapsed, but the one in flight
/// runs to its end. Reported when the last try can no longer start.
fn window(
    p: &crate::model::RetryPolicy,
    e: &mut Emitter<'_>,
    per_try: crate::source::Span,
    overall: crate::source::Span,
    n: u64,
    t: Duration,
    total: Duration,
) {
    // Worst case, try k (0-based) starts at k x t.
    if backoff::mul(t, n.saturating_sub(1)) < total {
        return;
    }
    let start = ((total.as_secs_f64() / t.as_secs_f64()).ceil() as u64).clamp(1, n);
    let f = e.emit(
        per_try,
        format!(
            "{} allows {n} tries of up to `{}` each, but starts none after `{}`: only {start} of the {n} tries can start when the servers hang",
            p.describe(),
            human(t),
            human(total),
        ),
        format!(
            "make the tries fit in the window: fewer tries, a connect + read timeout below `{}`, or a longer window",
            human(Duration::from_secs_f64(total.as_secs_f64() / n.saturating_sub(1).max(1) as f64))
        ),
    );
    Emitter::relate(
        f,
        p.attempts.span,
        format!("`{}`", p.attempts.value.written_as),
    );
    Emitter::relate(f, overall, "no new try after this");
}

/// Hedged copies run side by side: the last one starts (n - 1) x
/// min(delay, per-try) in and may take a whole per-try timeout.
fn hedged(
    p: &crate::model::RetryPolicy,
    e: &mut Emitter<'_>,
    at: crate::source::Span,
    n: u64,
    t: Duration,
    delay: Duration,
    total: Duration,
) {
    let step = delay.min(t);
    let worst = backoff::worst_case(n.saturating_sub(1), step, t);
    if worst <= total || t.is_zero() {
        return;
    }
    // Copies that start early enough to finish within the overall timeout.
    let fit = if t > total {
        0
    } else if step.is_zero() {
        n
    } else {
        (((total.saturating_sub(t)).as_secs_f64() / step.as_secs_f64()).floor() as u64 + 1).min(n)
    };
    e.emit(
        at,
        format!(
            "{} sends up to {n} copies `{}` apart, each given `{}`: the last can answer after `{}`, more than the overall timeout `{}`, so only {fit} of the {n} copies can finish",
            p.describe(),
            human(step),
            human(t),
            human(worst),
            human(total),
        ),
        "make the copies fit in the overall timeout: fewer hedged copies, a shorter per-copy timeout or delay, or a longer overall timeout",
    );
}
