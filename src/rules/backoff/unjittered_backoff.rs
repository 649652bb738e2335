//! RL203 unjittered-backoff: delays between attempts have no randomness.

use crate::duration::human;
use crate::fix::Fix;
use crate::model::{Delay, Jitter, Provenance};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() || p.platform_backoff || p.jitter.value != Jitter::None {
        return;
    }
    // An inherited setting is reported once, by the block that writes it.
    if p.delay.provenance == Provenance::Inherited && !p.jitter.is_written() {
        return;
    }
    let what = match &p.delay.value {
        Delay::Fixed { delay } if !delay.is_zero() => format!("a fixed `{}`", human(*delay)),
        Delay::Exponential {
            base, multiplier, ..
        } => {
            format!(
                "exponential backoff from `{}` (x{multiplier})",
                human(*base)
            )
        }
        Delay::Fibonacci { first, second, .. } if !(first.is_zero() && second.is_zero()) => {
            format!("a fibonacci backoff from `{}`", human(*first))
        }
        Delay::Linear { base, .. } if !base.is_zero() => {
            format!("a linear backoff growing by `{}`", human(*base))
        }
        Delay::Quadratic { base, .. } if !base.is_zero() => {
            format!(
                "a backoff growing as the square of the retry from `{}`",
                human(*base)
            )
        }
        // `backoff := t.backoff` then `backoff *= 2`: the growth is
        // written, its first wait is not.
        Delay::Growing { multiplier, cap } => match cap {
            Some(c) => format!(
                "a backoff growing x{multiplier} from a first wait not known here, up to `{}`",
                human(*c)
            ),
            None => format!("a backoff growing x{multiplier} from a first wait not known here"),
        },
        _ => return,
    };
    let default = if p.delay.is_default() {
        " (the default)"
    } else {
        ""
    };
    let fix = p.system.spec().fixes.jitter;
    let help = match p.delay.value {
        Delay::Fixed { .. } => format!("add jitter and grow the delay: {fix}"),
        _ => format!("add jitter: {fix}"),
    };
    // A default delay has no line of its own: point at the written
    // `UseJitter: false` (or the like) that turns jitter off.
    let span = if p.delay.is_default() && p.jitter.is_written() {
        p.jitter.span
    } else {
        p.delay.span
    };
    let exponential = matches!(
        p.delay.value,
        Delay::Exponential { .. }
            | Delay::Fibonacci { .. }
            | Delay::Quadratic { .. }
            | Delay::Growing { .. }
    );
    let f = e.emit(
        span,
        format!(
            "{} waits {what}{default} between attempts with no jitter",
            p.describe()
        ),
        help,
    );
    // Jitter on a growing backoff is what the doc asks for (safe);
    // on a fixed delay the waits stay constant (RL202), so it is offered
    // as unsafe.
    if let Some(make) = p.system.spec().fixes.edits.jitter
        && let Some(site) = ctx.site(f.file)
        && let Some(edits) = make(&site)
    {
        let title = "turn on randomised waits (jitter)";
        f.fix(if exponential {
            Fix::safe(title, edits)
        } else {
            Fix::unsafe_(title, edits)
        });
    }
    if p.jitter.is_written() && p.jitter.span != span {
        Emitter::relate(f, p.jitter.span, "jitter is turned off here");
    } else if span != p.delay.span {
        Emitter::relate(f, p.delay.span, "the delay applies to this block");
    }
}
