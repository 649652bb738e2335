//! The policy an Ingress gets from its settings over the controller
//! defaults, and a controller ConfigMap's policy applied to it at link time.

use super::{
    DEFAULT_CONNECT, DEFAULT_NEXT_UPSTREAM, DEFAULT_READ, DEFAULT_TRIES, Set, Settings, TRIES,
    nginx,
};
use crate::model::*;
use crate::source::Span;
use std::time::Duration;

/// The policy from settings written here over `inherited` (a ConfigMap in
/// the same file) over the controller defaults. `anchor` is where findings
/// about defaults point.
pub(super) fn build(
    own: &Settings,
    inherited: &Settings,
    name: String,
    anchor: Span,
) -> RetryPolicy {
    fn pick<'s, T>(
        own: &'s Option<Set<T>>,
        inherited: &'s Option<Set<T>>,
    ) -> Option<(&'s Set<T>, Provenance)> {
        own.as_ref()
            .map(|s| (s, Provenance::Written))
            .or_else(|| inherited.as_ref().map(|s| (s, Provenance::Inherited)))
    }
    fn located<T>(value: T, span: Span, provenance: Provenance) -> Located<T> {
        Located {
            value,
            span,
            provenance,
        }
    }

    let attempts = match pick(&own.tries, &inherited.tries) {
        Some((s, prov)) => located(
            Attempts {
                count: if s.value == 0 {
                    AttemptCount::Unbounded
                } else {
                    AttemptCount::Finite(s.value as u64)
                },
                written_as: format!("{TRIES}: {}", s.value),
            },
            s.span,
            prov,
        ),
        None => Located::default_at(
            Attempts {
                count: AttemptCount::Finite(DEFAULT_TRIES as u64),
                written_as: format!(
                    "no {TRIES}: the controller's default of {DEFAULT_TRIES} tries"
                ),
            },
            anchor,
        ),
    };
    let mut policy = RetryPolicy::new(System::IngressNginx, anchor, attempts);
    policy.name = Some(name);

    let (tokens, on_prov, on_span) = match pick(&own.next_upstream, &inherited.next_upstream) {
        Some((s, prov)) => (s.value.clone(), prov, s.span),
        None => (
            DEFAULT_NEXT_UPSTREAM
                .split(' ')
                .map(|t| (t.to_string(), anchor))
                .collect(),
            Provenance::Default,
            anchor,
        ),
    };
    // A snippet's `proxy_next_upstream` adds to the controller's.
    let mut tokens: Vec<(String, Span, Provenance)> =
        tokens.into_iter().map(|(t, s)| (t, s, on_prov)).collect();
    let (on_prov, on_span) = match &own.snippet {
        Some(sn) => {
            // A value in both lists counts once, as the snippet writes it.
            tokens.retain(|(t, _, _)| !sn.value.iter().any(|(x, _)| x == t));
            tokens.extend(
                sn.value
                    .iter()
                    .map(|(t, s)| (t.clone(), *s, Provenance::Written)),
            );
            (Provenance::Written, sn.span)
        }
        None => (on_prov, on_span),
    };
    let off = tokens.iter().any(|(t, _, _)| t == "off");
    let conditions: Vec<Located<Condition>> = tokens
        .iter()
        .filter(|(t, _, _)| t != "non_idempotent" && t != "off")
        .map(|(t, s, prov)| located(nginx::condition(t), *s, *prov))
        .collect();
    let on = if off || conditions.is_empty() {
        RetryOn::Nothing
    } else {
        RetryOn::Listed { conditions }
    };
    policy.retry_on = located(on, on_span, on_prov);

    let listed = tokens.iter().find(|(t, _, _)| t == "non_idempotent");
    policy.methods = match (listed, pick(&own.non_idempotent, &inherited.non_idempotent)) {
        (Some((_, s, prov)), _) => located(nginx::non_idempotent_methods(), *s, *prov),
        (None, Some((s, prov))) if s.value => {
            located(nginx::non_idempotent_methods(), s.span, prov)
        }
        (None, Some((s, prov))) => located(Methods::IdempotentOnly, s.span, prov),
        (None, None) => Located::default_at(Methods::IdempotentOnly, anchor),
    };

    let secs = |s: &Set<u64>| Duration::from_secs(s.value);
    let connect = pick(&own.connect, &inherited.connect);
    let read = pick(&own.read, &inherited.read);
    // Saturating: each is a number of seconds as large as a u64 holds.
    let per_try = connect
        .map_or(Duration::from_secs(DEFAULT_CONNECT), |(s, _)| secs(s))
        .saturating_add(read.map_or(Duration::from_secs(DEFAULT_READ), |(s, _)| secs(s)));
    policy.per_try_timeout = Some(match read.or(connect) {
        Some((s, prov)) => located(Timeout::after(per_try), s.span, prov),
        None => Located::default_at(Timeout::after(per_try), anchor),
    });
    policy.overall_timeout = match pick(&own.window, &inherited.window) {
        Some((s, prov)) if s.value == 0 => Some(located(Timeout::Disabled, s.span, prov)),
        Some((s, prov)) => Some(located(Timeout::after(secs(s)), s.span, prov)),
        None if policy.attempts.value.count == AttemptCount::Unbounded => {
            Some(Located::default_at(Timeout::Disabled, anchor))
        }
        None => None,
    };
    policy.delay = Located::default_at(Delay::None, anchor);
    policy.jitter = Located::default_at(Jitter::None, anchor);
    policy.platform_backoff = true;
    policy
}

/// Whether a policy is a controller ConfigMap's own (not an Ingress's).
pub fn is_configmap_policy(p: &RetryPolicy) -> bool {
    p.system == System::IngressNginx
        && p.name
            .as_deref()
            .is_some_and(|n| n.starts_with("ConfigMap "))
}

/// Link time: apply the controller ConfigMap's policy (read from another
/// file, `from` = `path:line`) to an Ingress policy, as the controller
/// does. Every setting the Ingress leaves at the controller default takes
/// the ConfigMap's written value, marked inherited (the ConfigMap's own
/// findings are about the value) and placed at the Ingress's anchor, since
/// a span of another file means nothing here; settings the Ingress writes
/// stay. The policy then names the ConfigMap ([`RetryPolicy::settings_from`]).
pub fn apply_configmap(ingress: &mut RetryPolicy, configmap: &RetryPolicy, from: &SettingPlace) {
    let anchor = ingress.span;
    let mut used = false;
    fn moved<T: Clone>(theirs: &Located<T>, anchor: Span) -> Located<T> {
        Located::inherited(theirs.value.clone(), anchor)
    }
    if ingress.system != System::IngressNginx || configmap.system != System::IngressNginx {
        return;
    }
    if ingress.attempts.is_default() && !configmap.attempts.is_default() {
        ingress.attempts = moved(&configmap.attempts, anchor);
        used = true;
    }
    if ingress.retry_on.is_default() && !configmap.retry_on.is_default() {
        let mut on = moved(&configmap.retry_on, anchor);
        if let RetryOn::Listed { conditions } = &mut on.value {
            for c in conditions {
                *c = moved(c, anchor);
            }
        }
        ingress.retry_on = on;
        used = true;
    }
    if ingress.methods.is_default() && !configmap.methods.is_default() {
        ingress.methods = moved(&configmap.methods, anchor);
        used = true;
    }
    if let (Some(mine), Some(theirs)) = (&mut ingress.per_try_timeout, &configmap.per_try_timeout)
        && mine.is_default()
        && !theirs.is_default()
    {
        *mine = moved(theirs, anchor);
        used = true;
    }
    let mine_default = ingress
        .overall_timeout
        .as_ref()
        .is_none_or(|t| t.is_default());
    if mine_default
        && let Some(theirs) = configmap
            .overall_timeout
            .as_ref()
            .filter(|t| !t.is_default())
    {
        ingress.overall_timeout = Some(moved(theirs, anchor));
        used = true;
    }
    if ingress.overall_timeout.is_none() && ingress.attempts.value.count == AttemptCount::Unbounded
    {
        ingress.overall_timeout = Some(Located::default_at(Timeout::Disabled, ingress.span));
    }
    if used && !ingress.settings_from.contains(from) {
        ingress.settings_from.push(from.clone());
    }
}
