//! RL602 excessive-retry-budget: a retry budget so large that it does not
//! limit retries.

use crate::fix::Fix;
use crate::model::Budget;
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

/// The share a fix lowers an excessive budget to: Envoy's default
/// `budget_percent` (envoyproxy/envoy
/// `api/envoy/config/cluster/v3/circuit_breaker.proto`: "defaults to
/// 20%") and Linkerd's default `retryRatio` (0.2, linkerd/website
/// `service-profiles.md`), the share both documents name.
pub const FIX_RATIO: f64 = 0.2;

/// A ratio budget at or above this lets retries add at least half the load
/// again: it no longer protects a struggling callee.
pub const MAX_RATIO: f64 = 0.5;

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() {
        return;
    }
    let Some(b) = &p.budget else {
        return;
    };
    let Budget::Ratio { ratio, .. } = b.value else {
        return;
    };
    if ratio < MAX_RATIO {
        return;
    }
    let pct = ratio * 100.0;
    let f = e.emit(
        b.span,
        format!(
            "the retry budget of {} allows `{pct:.0}%` as many retries as requests, so it hardly limits them: in an outage retries add up to {pct:.0}% more load to a callee that is already failing",
            p.describe()
        ),
        "lower the budget to a small share of the requests (Envoy's default `budget_percent` is 20, Linkerd's default `retryRatio` is 0.2)",
    );
    // Unsafe: fewer retries get through in an outage (what the rule asks
    // for, but it changes how often calls are retried).
    if let Some(make) = p.system.spec().fixes.edits.budget_share
        && let Some(site) = ctx.site(f.file)
        && let Some(edits) = make(&site, FIX_RATIO)
    {
        f.fix(Fix::unsafe_(
            format!(
                "lower the retry budget to `{:.0}%` of the active requests",
                FIX_RATIO * 100.0
            ),
            edits,
        ));
    }
    if b.span != p.span {
        Emitter::relate(f, p.span, "retries that draw on this budget");
    }
}
