//! Linkerd's retries (ServiceProfile routes and their `retryBudget`).

pub mod extract;

use super::{Fixes, SystemSpec};
use crate::model::Layer;

// system: Linkerd
pub static SPEC: SystemSpec = SystemSpec {
    offers_budget: true,
    fixes: Fixes {
        budget: "set `retryBudget` on the ServiceProfile (`retryRatio`, `minRetriesPerSecond`, `ttl`)",
        edits: super::edit::FixEdits {
            per_try_timeout: Some(per_try_timeout),
            budget_share: Some(retry_ratio),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("Linkerd", Layer::Mesh)
};

/// The `retry.linkerd.io/timeout` annotation (a Go duration, linkerd2
/// `policy-controller` annotation retries) set to `each`: the written one
/// changed, or one added after `retry.linkerd.io/limit`; a ServiceProfile
/// route (whose `timeout` is the whole request's) gets none.
fn per_try_timeout(
    site: &super::edit::Site<'_>,
    each: std::time::Duration,
) -> Option<Vec<crate::fix::Edit>> {
    use super::edit::{Value, add_sibling, go_duration, set_written_per_try_go};
    if let Some(edits) = set_written_per_try_go(site, each) {
        return Some(edits);
    }
    let at = site.policy.attempts.span;
    if !site
        .text
        .get(at.start..at.end)?
        .starts_with("retry.linkerd.io/limit")
    {
        return None;
    }
    let value = Value::Str(go_duration(each));
    Some(vec![add_sibling(
        site.file,
        site.path,
        site.text,
        at,
        "retry.linkerd.io/timeout",
        &value,
    )?])
}

/// Linkerd ServiceProfiles and annotations.
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "linkerd",
    needles: &["linkerd.io", "split.smi-spec.io"],
    read: extract::extract,
    order: 50,
}];

/// The written `retryRatio` of the ServiceProfile's `retryBudget` set to
/// `ratio` (RL602); `None` where the budget's place is not `retryRatio`
/// (a default, or a budget that writes no ratio).
fn retry_ratio(site: &super::edit::Site<'_>, ratio: f64) -> Option<Vec<crate::fix::Edit>> {
    let b = site.policy.budget.as_ref().filter(|b| b.is_written())?;
    if !site
        .text
        .get(b.span.start..b.span.end)?
        .starts_with("retryRatio")
    {
        return None;
    }
    Some(vec![super::edit::set_value(
        site.file,
        site.text,
        b.span,
        &format!("{ratio}"),
    )?])
}
