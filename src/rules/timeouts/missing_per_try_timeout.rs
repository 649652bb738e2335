//! RL302 missing-per-try-timeout: retries without a per-attempt timeout, so
//! one hung attempt eats the whole deadline.

use crate::duration::human;
use crate::fix::Fix;
use crate::model::{Provenance, Timeout};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    // Retries nobody wrote are RL403's business.
    if !p.retries() || p.attempts.provenance == Provenance::Default {
        return;
    }
    // Hedged copies sent on a timer do not wait for a hung one.
    if p.hedge_delay().is_some() {
        return;
    }
    let Some(per_try) = &p.per_try_timeout else {
        return;
    };
    if per_try.provenance != Provenance::Default {
        return;
    }
    let overall = p.overall_timeout.as_ref().and_then(|t| t.value.finite());
    let consequence = match (per_try.value, overall) {
        (Timeout::Disabled, Some(o)) => format!(
            "one hung attempt can use the whole `{}` overall timeout and leave none for the retries",
            human(o)
        ),
        (Timeout::Disabled, None) => {
            "one hung attempt can block the call for ever, and the retries never run".into()
        }
        (Timeout::Finite { after }, Some(o)) if after >= o => {
            format!(
                "each attempt may take the whole `{}` overall timeout, so a hung first attempt leaves none for the retries",
                human(o)
            )
        }
        _ => return,
    };
    let attempts = p.attempts.value.count.finite();
    let f = e.emit(
        p.attempts.span,
        format!("{} retries (`{}`) with no per-try timeout: {consequence}", p.describe(), p.attempts.value.written_as),
        match overall {
            Some(o) => format!(
                "set a per-try timeout of about the overall timeout divided by the attempts (`{}` here)",
                human(o / u32::try_from(p.attempts.value.count.finite().unwrap_or(2).max(1)).unwrap_or(u32::MAX))
            ),
            None => "set a per-try timeout, and an overall timeout that covers the attempts".to_string(),
        },
    );
    // Safe: attempts x per-try timeout (+ the waits) fit the overall
    // timeout, which stays as it is.
    if let (Some(o), Some(n)) = (overall, attempts)
        && let Ok(n) = u32::try_from(n)
        && n > 0
        && let Some(make) = p.system.spec().fixes.edits.per_try_timeout
    {
        // The waits between attempts come out of the overall timeout too
        // (RL301 counts them).
        let waits = p.total_backoff().unwrap_or_default();
        if let Some(each) = o.checked_sub(waits).map(|left| super::round_down(left / n))
            && !each.is_zero()
            && let Some(site) = ctx.site(f.file)
            && let Some(edits) = make(&site, each)
        {
            let title = format!(
                "set a per-try timeout of `{}` ({n} attempts and their waits fit the `{}` overall timeout)",
                human(each),
                human(o)
            );
            f.fix(Fix::safe(title, edits));
        }
    }
}
