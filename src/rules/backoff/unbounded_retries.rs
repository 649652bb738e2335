//! RL205 unbounded-retries: no attempt limit, or an effectively infinite
//! one, and no elapsed-time cap.

use crate::fix::Fix;
use crate::model::{AttemptCount, Budget, Provenance, RetryPolicy, Timeout};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

/// More attempts than this is no limit in practice (`Integer.MAX_VALUE`).
pub const EFFECTIVELY_INFINITE: u64 = 10_000;

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if p.attempts.provenance == Provenance::Inherited {
        return;
    }
    if !unbounded(p) {
        return;
    }
    // One unset default, one finding: the policies of this file that are
    // unbounded because the same setting was left out (a default, the same
    // system, the same reading) are reported once, at the first, listing
    // the others (a queue file of ten default queues is one omission, not
    // ten).
    let same = same_default(ctx);
    if same.first().is_some_and(|q| !std::ptr::eq(*q, p)) {
        return;
    }
    let message = match same.as_slice() {
        [_, rest @ ..] if !rest.is_empty() => {
            // At most this many named; the rest counted.
            const NAMED: usize = 12;
            let names: Option<Vec<String>> = rest
                .iter()
                .take(NAMED)
                .map(|q| q.name.as_ref().map(|n| format!("`{n}`")))
                .collect();
            let more = if rest.len() > NAMED { ", .." } else { "" };
            let list = names.map_or(String::new(), |n| format!(" ({}{more})", n.join(", ")));
            format!(
                "{} and {} more in this file{list} retry without a limit by the same default (`{}`) and nothing caps the time they keep trying",
                p.describe(),
                rest.len(),
                p.attempts.value.written_as
            )
        }
        _ => format!(
            "{} retries without a limit (`{}`) and nothing caps the time it keeps trying",
            p.describe(),
            p.attempts.value.written_as
        ),
    };
    let f = e.emit(p.attempts.span, message, p.system.spec().fixes.bound);
    for q in same.iter().skip(1) {
        Emitter::relate(f, q.attempts.span, "also without a limit by this default");
    }
    // Unsafe: a limit where there was none. Only where the count is one
    // integer written in the setting: read as that number of attempts (or
    // of retries) it becomes RL206's threshold of attempts in total; a
    // huge number read as "no limit" (Polly's `int.MaxValue`) says nothing
    // of whether it counts attempts or retries, so it becomes one less,
    // at most the threshold either way. A `0` or `-1` that means "no
    // limit" is left: it is no count to lower.
    let span = p.attempts.span;
    let limit = ctx.settings.thresholds.max_attempts;
    let written = crate::systems::edit::integer_in(&ctx.file.text, span);
    let to = match (p.attempts.value.count, written) {
        (AttemptCount::Finite(n), Some(w)) if w == n || w + 1 == n => limit.checked_sub(n - w),
        (AttemptCount::Unbounded, Some(w)) if w > EFFECTIVELY_INFINITE => limit.checked_sub(1),
        _ => None,
    };
    if p.attempts.provenance == Provenance::Written
        && let (Some(written), Some(to)) = (written, to)
        && to > 0
        && let Some(edit) = crate::systems::edit::set_integer(f.file, &ctx.file.text, span, to)
    {
        f.fix(Fix::unsafe_(
            format!("lower `{written}` to `{to}` (at most {limit} attempts in total)"),
            vec![edit],
        ));
    }
}

/// The policies of the file (in order) that are unbounded by the same
/// left-out setting as this one: empty unless the policy's count is a
/// default.
fn same_default<'a>(ctx: &PolicyCtx<'a>) -> Vec<&'a RetryPolicy> {
    let p = ctx.policy;
    if p.attempts.provenance != Provenance::Default {
        return Vec::new();
    }
    let same: Vec<&RetryPolicy> = ctx
        .facts
        .policies
        .iter()
        .filter(|q| {
            q.system == p.system
                && q.use_of.is_none()
                && q.attempts.provenance == Provenance::Default
                && q.attempts.value.written_as == p.attempts.value.written_as
                && unbounded(q)
        })
        .collect();
    // A policy not among the file's own (one handed in from elsewhere) is
    // reported on its own.
    if same.iter().any(|q| std::ptr::eq(*q, p)) {
        same
    } else {
        Vec::new()
    }
}

/// Whether the policy retries without a limit: no attempt limit (or an
/// effectively infinite one), no retry budget and no deadline that ends
/// the retries. Such a policy is this rule's alone: RL206 says nothing of
/// its attempt count.
pub fn unbounded(p: &RetryPolicy) -> bool {
    let unbounded = match p.attempts.value.count {
        AttemptCount::Unbounded => true,
        AttemptCount::Finite(n) => n > EFFECTIVELY_INFINITE,
        AttemptCount::Unknown => false,
    };
    if !unbounded {
        return false;
    }
    // A retry budget (Linkerd's `retryBudget`, a token bucket) is the
    // designed limit of a mechanism that counts no attempts per request:
    // the retries stop when the budget is spent.
    if matches!(
        p.budget.as_ref().map(|b| &b.value),
        Some(Budget::Ratio { .. } | Budget::TokenBucket { .. })
    ) {
        return false;
    }
    // A finite overall deadline still ends the retries, and so does one
    // written with a length not known here (`WithMaxDuration(cfg.Max,
    // ..)`, read from the configuration: kumahq/kuma 348b652
    // `remote_bootstrap.go`): "nothing caps the time" would be false.
    !p.overall_timeout.as_ref().is_some_and(|t| match t.value {
        Timeout::Finite { after } => after.as_secs() <= 86_400,
        Timeout::Unknown => t.provenance == Provenance::Written,
        Timeout::Disabled => false,
    })
}
