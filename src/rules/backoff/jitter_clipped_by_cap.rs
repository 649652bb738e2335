//! RL204 jitter-clipped-by-cap: the cap is applied after the
//! randomisation, so delays collapse onto the cap and clients line up.

use crate::duration::human;
use crate::model::{AttemptCount, CapOrder, Delay, Jitter, RetryPolicy};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

/// Delays looked at for an unbounded policy.
const HORIZON: u64 = 20;

/// How a policy's randomised delays meet its cap.
pub struct Clipping {
    pub cap: std::time::Duration,
    pub factor: f64,
    /// The jitter only adds (`+[0, f)`), never takes off (`±f`).
    pub one_sided: bool,
    /// For each delay the policy can reach (1-based), the chance that the
    /// randomised delay is clipped to exactly the cap.
    pub delays: Vec<(u64, f64)>,
}

pub fn clipped(p: &RetryPolicy) -> Option<Clipping> {
    if p.cap_order != CapOrder::AfterJitter {
        return None;
    }
    let (factor, one_sided) = match p.jitter.value {
        Jitter::Proportional { factor } => (factor, false),
        Jitter::Added { factor } => (factor, true),
        _ => return None,
    };
    let (Delay::Exponential { cap: Some(cap), .. }
    | Delay::Fibonacci { cap: Some(cap), .. }
    | Delay::Quadratic { cap: Some(cap), .. }) = p.delay.value
    else {
        return None;
    };
    let delays = match p.attempts.value.count {
        AttemptCount::Finite(n) => n.saturating_sub(1).min(HORIZON),
        AttemptCount::Unbounded => HORIZON,
        AttemptCount::Unknown => return None,
    };
    let c = cap.as_secs_f64();
    let mut out = Vec::new();
    for k in 1..=delays {
        let d = p.delay.value.uncapped(k as u32)?;
        let prob = if factor <= 0.0 {
            if d >= c { 1.0 } else { 0.0 }
        } else {
            // The share of the band [lo, d x (1 + f)] at or above the cap.
            let width = if one_sided {
                factor * d
            } else {
                2.0 * factor * d
            };
            ((d * (1.0 + factor) - c) / width).clamp(0.0, 1.0)
        };
        out.push((k, prob));
    }
    Some(Clipping {
        cap,
        factor,
        one_sided,
        delays: out,
    })
}

/// The jitter as the code writes it: a share only added (`+[0, 10%)`,
/// Kubernetes' `wait.Jitter`, `d + rand(d/10)`) or added or taken off
/// (`±10%`).
fn jitter_words(factor: f64, one_sided: bool) -> String {
    let pc = factor * 100.0;
    if one_sided {
        format!("adds up to {pc:.0}% of each delay at random (`+[0, {pc:.0}%)`)")
    } else {
        format!("randomises each delay by ±{pc:.0}%")
    }
}

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() {
        return;
    }
    let Some(Clipping {
        cap,
        factor,
        one_sided,
        delays: probs,
    }) = clipped(p)
    else {
        return;
    };
    let expected: f64 = probs.iter().map(|(_, q)| q).sum();
    let mostly: Vec<&(u64, f64)> = probs.iter().filter(|(_, q)| *q >= 0.5).collect();
    if expected < 1.0 || mostly.is_empty() {
        return;
    }
    let total = probs.len();
    let detail: Vec<String> = mostly
        .iter()
        .map(|(k, q)| format!("delay {k}: {:.0}%", q * 100.0))
        .collect();
    let f = e.emit(
        p.jitter.span,
        format!(
            "{} {} before capping it at `{}`: {} of its {total} delays land exactly on the cap at least half the time ({}), on average {expected:.1} delays per retry sequence",
            p.describe(),
            jitter_words(factor, one_sided),
            human(cap),
            mostly.len(),
            detail.join(", "),
        ),
        "raise the cap well above the largest delay the attempts reach, or lower the multiplier, so that the randomised delays stay spread out",
    );
    if p.delay.span != p.jitter.span {
        Emitter::relate(f, p.delay.span, "the cap is set here");
    }
}
