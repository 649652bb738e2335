//! `maxRetryAttempts`, the attempts key of Resilience4j 1.x: deprecated in
//! 1.6.0 for `maxAttempts` (`InstanceProperties.getMaxRetryAttempts`,
//! `@Deprecated`, resilience4j-framework-common v1.6.0..v1.7.1), where
//! `maxAttempts` in the same block overrides it
//! (`RetryConfigurationProperties.buildRetryConfig`), and removed in 2.0.0
//! (absent from every class of the v2.0.0 tag; RELEASENOTES.adoc "Removed
//! deprecated configuration properties", #1188): Spring binds no such
//! property any more and the attempts stay the default 3
//! (`RetryConfig.DEFAULT_MAX_ATTEMPTS`) or the base config's.
//!
//! The policies hold the 2.x reading. Which reading holds depends on the
//! version the module builds with ([`crate::versions`]): on 1.x the key's
//! attempts replace it and nothing is reported about the key; on 2.x one
//! RL901 says it is ignored; when no build file tells the version, one
//! RL901 says what each version does.

use super::{Block, Configs, attempts, chain};
use crate::diag::Diagnostic;
use crate::diag::unknown_setting;
use crate::fix::{Edit, Fix, THIS_FILE};
use crate::model::Facts;
use crate::model::versions::{Change, Library, Version, Versioned};
use crate::model::{AttemptCount, Attempts};

pub(super) const KEY: &str = "maxRetryAttempts";

/// The first version without the key.
const REMOVED_IN: Version = Version::new(2, 0, 0);

/// Record the 1.x reading of each policy of `blocks` (pushed from index
/// `first` of `facts.policies`, in order) and report each block that
/// writes the key.
pub(super) fn max_retry_attempts(
    blocks: &[Block<'_>],
    configs: &Configs,
    first: usize,
    facts: &mut Facts,
) {
    let mut v = Versioned {
        library: Library::Resilience4j,
        since: REMOVED_IN,
        older: Vec::new(),
        newer: Vec::new(),
    };
    for (k, b) in blocks.iter().enumerate() {
        let index = first + k;
        let Some(policy) = facts.policies.get(index) else {
            continue;
        };
        let current = policy.attempts.clone();
        let span = policy.span;
        let chain = chain(blocks, configs, b);
        let old = attempts(&chain, b.name_span, true);
        if old != current {
            v.older.push(Change::Attempts {
                policy: index,
                span,
                attempts: old.clone(),
            });
        }
        let Some(prop) = b.one(KEY) else { continue };
        let at = prop.seg_spans.get(4).copied().unwrap_or(prop.key_span);
        let written = prop.segments.get(4).map_or(KEY, String::as_str);
        if b.one("maxAttempts").is_some() {
            // Ignored by 2.x and overridden by `maxAttempts` on 1.x.
            facts.diagnostics.push(unknown_setting::ignored(
                at,
                &format!(
                    "`{written}` was removed in Resilience4j 2.0.0, and on 1.x `maxAttempts` in the same block overrides it"
                ),
                "remove it: `maxAttempts` sets the attempts",
            ));
            continue;
        }
        let name = b.label();
        let (now, then) = (count(&current.value), count(&old.value));
        let rename = rename_fix(at, written, now == then);
        facts.diagnostics.push(
            unknown_setting::ignored(
                at,
                &format!(
                    "`{written}` was removed in Resilience4j 2.0.0: on 2.x it is ignored and `{name}` makes `{now}` attempts, on 1.x `{then}`"
                ),
                "rename it to `maxAttempts`, which 1.x and 2.x both read (no build file scanned with this one tells the Resilience4j version)",
            )
            .with_fix(rename.clone()),
        );
        let drop = Change::Drop {
            code: crate::diag::unknown_setting::CODE.to_string(),
            span: at,
        };
        v.older.push(drop.clone());
        v.newer.push(drop);
        v.newer.push(Change::Add {
            diagnostic: Diagnostic::new(
                crate::diag::unknown_setting::CODE,
                at,
                format!(
                    "`{written}` was removed in Resilience4j 2.0.0 and is ignored by {{version}}: `{name}` makes `{now}` attempts"
                ),
                "rename it to `maxAttempts`",
            )
            .with_fix(rename),
        });
    }
    if !v.older.is_empty() || !v.newer.is_empty() {
        facts.versioned.push(v);
    }
}

/// Rename the key to its successor in the same spelling (`maxAttempts`,
/// `max-attempts`), which 1.x and 2.x both read. Safe when 2.x makes the
/// attempts written anyway; otherwise the rename changes how often 2.x
/// retries (the written count replaces the default), so it is unsafe.
fn rename_fix(at: crate::source::Span, written: &str, same_on_2x: bool) -> Fix {
    let new = crate::systems::edit::key_like("maxAttempts", written);
    let title = format!("rename `{written}` to `{new}`");
    let edits = vec![Edit::new(THIS_FILE, at, new)];
    if same_on_2x {
        Fix::safe(title, edits)
    } else {
        Fix::unsafe_(title, edits)
    }
}

fn count(a: &Attempts) -> String {
    match a.count {
        AttemptCount::Finite(n) => n.to_string(),
        AttemptCount::Unbounded => "unbounded".into(),
        AttemptCount::Unknown => a
            .written_as
            .split_once(": ")
            .map_or("?", |(_, v)| v)
            .to_string(),
    }
}
