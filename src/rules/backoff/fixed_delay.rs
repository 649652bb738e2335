//! RL202 fixed-delay: a constant delay with jitter. (A constant delay
//! without jitter is RL203.)

use super::conflicts_only;
use crate::duration::human;
use crate::fix::Fix;
use crate::model::{Delay, Jitter, Provenance};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() || p.platform_backoff || p.delay.provenance == Provenance::Inherited {
        return;
    }
    let Delay::Fixed { delay } = p.delay.value else {
        return;
    };
    if delay.is_zero()
        || matches!(p.jitter.value, Jitter::None | Jitter::Unknown)
        || conflicts_only(&p.retry_on.value)
    {
        return;
    }
    let f = e.emit(
        p.delay.span,
        format!(
            "{} waits a constant `{}` (randomised) between attempts: the delay does not grow while the outage lasts",
            p.describe(),
            human(delay)
        ),
        "grow the delay exponentially (keep the jitter) so that clients back off further the longer the failure lasts",
    );
    // Unsafe: the waits get longer, so a retry comes later.
    if let Some(make) = p.system.spec().fixes.edits.exponential
        && let Some(site) = ctx.site(f.file)
        && let Some(edits) = make(&site)
    {
        f.fix(Fix::unsafe_("grow the delay exponentially", edits));
    }
}
