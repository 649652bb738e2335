//! gRPC's service-config retry policy.

pub mod extract;
pub mod link;

use super::{Fixes, SystemSpec};
use crate::model::Layer;

// system: Grpc
pub static SPEC: SystemSpec = SystemSpec {
    offers_budget: true,
    fixes: Fixes {
        jitter: "gRPC jitters its back-off already",
        budget: "add `retryThrottling` (`maxTokens`, `tokenRatio`) to the service config, so retries stop while most calls fail",
        edits: super::edit::FixEdits {
            drop_conditions: Some(super::edit::drop_listed_in_config),
            budget: Some(retry_throttling),
            budget_title: Some(
                "add `retryThrottling` (`maxTokens: 10`, `tokenRatio: 0.1`): retries stop while more than about one call in ten fails",
            ),
            ..super::edit::FixEdits::NONE
        },
        ..Fixes::GENERIC
    },
    ..SystemSpec::plain("gRPC", Layer::Sdk)
};

/// The `retryThrottling` the fix adds: 10 tokens, 0.1 back per success.
/// gRPC has no default (no `retryThrottling`: no throttling); grpc/proposal
/// `A6-client-retries.md`, "Throttling Retry Attempts and Hedged RPCs":
/// each failed call takes one token, each success gives back `tokenRatio`,
/// and no retry is sent while the tokens are at or below `maxTokens / 2`
/// (`maxTokens` in (0, 1000], `tokenRatio` above 0). With 10 and 0.1,
/// retries stop once more than about one call in ten fails, near Envoy's
/// default budget of 20% of the requests.
const FIX_THROTTLING: (&str, &str) = ("10", "0.1");

/// `retryThrottling` beside the service config's `methodConfig` (the key
/// the finding is at), before it: a line of its own with its indentation
/// where the key starts its line, else `key: value, ` in the same braces.
/// JSON spelling where the key is quoted, a YAML flow mapping where not.
fn retry_throttling(site: &super::edit::Site<'_>) -> Option<Vec<crate::fix::Edit>> {
    use super::edit::Format;
    let crate::model::BudgetSite::Block { span, .. } = &site.policy.budget_site else {
        return None;
    };
    if Format::of(site.path) == Format::Other {
        return None;
    }
    let text = site.text;
    let key = text.get(span.start..span.end)?;
    // The key with its quote (`"methodConfig"`, or `\"methodConfig\"` in
    // a string whose escapes the fix layer writes back).
    let mut at = span.start;
    let bare = key.trim_start_matches(['\\', '"']);
    if !bare.starts_with("methodConfig") {
        return None;
    }
    let quoted = key.len() != bare.len() || text[..at].ends_with('"');
    if !key.starts_with(['\\', '"']) && text[..at].ends_with('"') {
        at -= 1;
        if text[..at].ends_with('\\') {
            at -= 1;
        }
    }
    let (tokens, ratio) = FIX_THROTTLING;
    let entry = if quoted {
        format!("\"retryThrottling\": {{\"maxTokens\": {tokens}, \"tokenRatio\": {ratio}}}")
    } else {
        format!("retryThrottling: {{maxTokens: {tokens}, tokenRatio: {ratio}}}")
    };
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let lead = &text[line_start..at];
    let edit = if !lead.is_empty() && lead.chars().all(|c| c == ' ' || c == '\t') || lead.is_empty()
    {
        // A line of its own, before the key's.
        let brk = if text[at..].contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        let comma = if quoted { "," } else { "" };
        crate::fix::Edit::insert(site.file, line_start, format!("{lead}{entry}{comma}{brk}"))
    } else if quoted || lead.trim_end().ends_with(['{', ',']) {
        crate::fix::Edit::insert(site.file, at, format!("{entry}, "))
    } else {
        return None;
    };
    Some(vec![edit])
}

/// gRPC service configs (`methodConfig`).
pub const DOC_READERS: &[crate::extract::DocReader] = &[crate::extract::DocReader {
    name: "grpc",
    needles: &["methodConfig", "methodconfig", "MethodConfig"],
    read: extract::extract_doc,
    order: 80,
}];
