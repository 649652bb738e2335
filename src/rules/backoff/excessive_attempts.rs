//! RL206 excessive-attempts: more total attempts than the threshold.

use crate::fix::Fix;
use crate::model::{AttemptCount, Provenance};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    let limit = ctx.settings.thresholds.max_attempts;
    let AttemptCount::Finite(n) = p.attempts.value.count else {
        return;
    };
    // An inherited setting is reported once, by the block that writes it.
    if n <= limit || !p.retries() || p.attempts.provenance == Provenance::Inherited {
        return;
    }
    // No limit at all is RL205's finding, not a count that is too high.
    if super::unbounded_retries::unbounded(p) {
        return;
    }
    let f = e.emit(
        p.attempts.span,
        format!(
            "{} makes `{n}` attempts (`{}`), more than the limit of {limit}",
            p.describe(),
            p.attempts.value.written_as
        ),
        format!("lower it to at most {limit} attempts in total; a retry budget or circuit breaker handles longer outages better than more attempts"),
    );
    // Unsafe: fewer attempts. The one number written in the setting is
    // lowered by the excess, whether it counts attempts or retries.
    let span = p.attempts.span;
    if p.attempts.provenance == Provenance::Written
        && let Some(written) = crate::systems::edit::integer_in(&ctx.file.text, span)
        && (written == n || written + 1 == n)
        && let Some(to) = written.checked_sub(n - limit)
        && to > 0
        && let Some(edit) = crate::systems::edit::set_integer(f.file, &ctx.file.text, span, to)
    {
        f.fix(Fix::unsafe_(
            format!("lower `{written}` to `{to}` ({limit} attempts in total)"),
            vec![edit],
        ));
    }
}
