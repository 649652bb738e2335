//! RL201 missing-backoff: attempts follow each other with no delay.

use crate::model::{AttemptCount, Delay, Provenance};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

/// The most attempts of a conflict retry that goes round at once without
/// a finding (client-go's `retry.DefaultRetry` for `RetryOnConflict`
/// tries 5 times, 10 ms apart).
const CONFLICT_ATTEMPTS: u64 = 10;

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    // A write retried a few times on a conflict alone (read again, write
    // again) needs no delay: it waits for the other writer, not for a
    // service to come back. Hundreds of passes (Square's 2017 Multipass
    // transaction retried 500 times) hammer the store still.
    let few_conflicts = super::conflicts_only(&p.retry_on.value)
        && matches!(p.attempts.value.count, AttemptCount::Finite(n) if n <= CONFLICT_ATTEMPTS);
    if !p.retries()
        || p.platform_backoff
        || p.delay.provenance == Provenance::Inherited
        || few_conflicts
    {
        return;
    }
    let immediate = match &p.delay.value {
        Delay::None => true,
        Delay::Fixed { delay } => delay.is_zero(),
        Delay::Exponential { base, .. }
        | Delay::Linear { base, .. }
        | Delay::Quadratic { base, .. } => base.is_zero(),
        Delay::Fibonacci { first, second, .. } => first.is_zero() && second.is_zero(),
        _ => false,
    };
    if !immediate {
        return;
    }
    let written = ctx.file.slice(p.delay.span).trim();
    // Only a value from the file goes in backticks: the delay as written,
    // else the first line of the retry as written (`for attempt := 0;
    // attempt < 3; attempt++`, `Retry(status=0)`), else of its attempts,
    // else nothing.
    let first_line = |span| {
        let t = ctx.file.slice(span).trim();
        let line = t.lines().next().unwrap_or("").trim();
        line.trim_end_matches(['{', ':']).trim_end().to_string()
    };
    let retry = [p.span, p.attempts.span]
        .into_iter()
        .map(first_line)
        .find(|l| !l.is_empty() && l.len() < 80 && !l.contains('`'));
    let how = if p.delay.is_written() && !written.is_empty() && written.len() < 80 {
        format!(" (`{written}`)")
    } else if let Some(r) = retry {
        format!(" (nothing waits between the attempts of `{r}`)")
    } else {
        String::new()
    };
    e.emit(
        p.delay.span,
        format!(
            "{} retries at once, with no delay between attempts{how}",
            p.describe()
        ),
        format!(
            "wait between attempts, growing and randomised: {}",
            p.system.spec().fixes.jitter
        ),
    );
}
