//! Spring AMQP retry keys by Spring Boot version. Spring Boot 3.x binds
//! `max-attempts` (total attempts, default 3; `RabbitProperties.Retry
//! .maxAttempts`, spring-boot-autoconfigure 3.x); Spring Boot 4 binds
//! `max-retries` instead (retries after the first attempt, default 3;
//! `RabbitProperties.Retry.maxRetries`, spring-boot
//! `module/spring-boot-amqp`, which has no `maxAttempts`). Each version
//! ignores the other's key, as Spring Boot ignores every unknown property.
//!
//! The policy holds the reading for an unknown version (the key written
//! counts); [`crate::versions`] applies the other reading when a build
//! file says the version.

use super::Prop;
use crate::diag::Diagnostic;
use crate::diag::unknown_setting::CODE;
use crate::extract::Facts;
use crate::model::versions::{Change, Library, Version, Versioned};
use crate::model::{AttemptCount, Attempts, Located};
use crate::source::Span;

const BOOT_4: Version = Version::new(4, 0, 0);

/// The block `name` (policy at `index`, anchored at `root`) writes
/// `max-attempts` (`ma`) and/or `max-retries` (`mr`); `both` is the
/// finding already made on `max-attempts` when both are written.
pub(super) fn rabbit_keys(
    name: &str,
    index: usize,
    root: Span,
    ma: Option<&Prop>,
    mr: Option<&Prop>,
    facts: &mut Facts,
) {
    let Some(policy) = facts.policies.get(index) else {
        return;
    };
    let span = policy.span;
    let key_span = |p: &Prop| p.seg_spans.last().copied().unwrap_or(p.key_span);
    let mut v = Versioned {
        library: Library::SpringBoot,
        since: BOOT_4,
        older: Vec::new(),
        newer: Vec::new(),
    };
    let attempts = |policy: usize, attempts: Located<Attempts>| Change::Attempts {
        policy,
        span,
        attempts,
    };
    match (ma, mr) {
        (Some(a), None) => {
            // Boot 4: `max-attempts` is ignored, `max-retries` is 3.
            let four = Located::default_at(
                Attempts {
                    count: AttemptCount::Finite(4),
                    written_as: format!("{name}.max-retries: 3 (default)"),
                },
                root,
            );
            v.newer.push(attempts(index, four));
            v.newer.push(Change::Add {
                diagnostic: Diagnostic::new(
                    CODE,
                    key_span(a),
                    format!(
                        "`{}` was replaced by `max-retries` in Spring Boot 4 and is ignored by {{version}}: `{name}` makes `4` attempts",
                        a.key()
                    ),
                    "rename it to `max-retries` and give it one less: it counts retries, the first attempt not included",
                ),
            });
        }
        (None, Some(r)) => {
            // Boot 3: `max-retries` is ignored, `max-attempts` is 3.
            let three = Located::default_at(
                Attempts {
                    count: AttemptCount::Finite(3),
                    written_as: format!("{name}.max-attempts: 3 (default)"),
                },
                root,
            );
            v.older.push(attempts(index, three));
            v.older.push(Change::Add {
                diagnostic: older_key(
                    r,
                    key_span(r),
                    &format!("`{name}` makes `3` attempts (the default `max-attempts`)"),
                ),
            });
        }
        (Some(a), Some(r)) => {
            // Boot 3 reads `max-attempts` and ignores `max-retries`: the
            // finding moves to `max-retries`.
            if let Ok(n) = a.value.trim().parse::<u64>()
                && n >= 1
            {
                let read = Located::written(
                    Attempts {
                        count: AttemptCount::Finite(n),
                        written_as: format!("{}: {n}", a.key()),
                    },
                    a.span(),
                );
                v.older.push(attempts(index, read));
            }
            v.older.push(Change::Drop {
                code: CODE.to_string(),
                span: key_span(a),
            });
            v.older.push(Change::Add {
                diagnostic: older_key(
                    r,
                    key_span(r),
                    &format!("`{name}` takes its attempts from `{}`", a.key()),
                ),
            });
        }
        (None, None) => return,
    }
    facts.versioned.push(v);
}

fn older_key(r: &Prop, at: Span, then: &str) -> Diagnostic {
    Diagnostic::new(
        CODE,
        at,
        format!(
            "`{}` is read from Spring Boot 4 on and is ignored by {{version}}: {then}",
            r.key()
        ),
        "use `max-attempts` (total attempts, the first included) until the build moves to Spring Boot 4",
    )
}
