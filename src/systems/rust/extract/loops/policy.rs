//! A loop read in a function becomes a policy with its own values.

use super::*;

/// A loop in a function: its values are its own.
pub(super) fn loop_policy_local(t: &LoopT) -> RetryPolicy {
    let attempts = match &t.attempts {
        AttemptsT::Count {
            value: Num::Const(v),
            offset,
            span,
        } => Located::written(
            Attempts {
                count: AttemptCount::Finite((v + offset).max(1) as u64),
                written_as: format!("a loop bounded at {} attempts", (v + offset).max(1)),
            },
            *span,
        ),
        AttemptsT::Unbounded { span } => Located::written(
            Attempts {
                count: AttemptCount::Unbounded,
                written_as: "a loop with no attempt limit".into(),
            },
            *span,
        ),
        AttemptsT::Count { span, .. } | AttemptsT::Unknown { span } => Located::written(
            Attempts {
                count: AttemptCount::Unknown,
                written_as: "a loop bound the linter cannot read".into(),
            },
            *span,
        ),
    };
    let bound = format!("bound: {}", attempts.value.written_as);
    let mut p = RetryPolicy::new(System::RustLoop, t.span, attempts);
    p.why = t.why.iter().cloned().chain([bound]).collect();
    p.delay = match &t.delay {
        DelayT::None => Located::written(Delay::None, t.span),
        DelayT::Fixed {
            value: Num::Const(v),
            unit,
            span,
        } => Located::written(
            Delay::Fixed {
                delay: Duration::from_secs_f64((*v as f64 * unit).clamp(0.0, 1e12)),
            },
            *span,
        ),
        DelayT::Fixed { span, .. } => Located::written(Delay::Unknown, *span),
        DelayT::Exponential {
            base,
            multiplier,
            cap,
            span,
        } => Located::written(
            Delay::Exponential {
                base: *base,
                multiplier: *multiplier,
                cap: *cap,
            },
            *span,
        ),
        DelayT::Custom { span } => Located::written(Delay::Custom, *span),
    };
    let dspan = p.delay.span;
    let opaque = matches!(t.delay, DelayT::Custom { .. });
    p.jitter = Located::written(
        if t.randomised || opaque {
            Jitter::Unknown
        } else {
            Jitter::None
        },
        dspan,
    );
    p.retry_on = if let Some(conflict) = &t.conflict {
        // Only a write conflict goes round (`SerializationFailure`).
        Located::written(
            RetryOn::Listed {
                conditions: vec![Located::written(
                    Condition::Exception(conflict.clone()),
                    t.span,
                )],
            },
            t.span,
        )
    } else if t.predicate {
        Located::written(
            RetryOn::Listed {
                conditions: vec![Located::written(Condition::Predicate, t.span)],
            },
            t.span,
        )
    } else {
        Located::written(RetryOn::AllErrors, t.span)
    };
    with_statuses(&mut p, t);
    if t.has_timeout {
        p.per_try_timeout = Some(Located::written(Timeout::Unknown, t.span));
    }
    p
}

/// The response statuses the loop retries, listed beside its errors
/// (issue 28).
pub(super) fn with_statuses(p: &mut RetryPolicy, t: &LoopT) {
    use crate::extract::status_test::Statuses;
    let parts: Vec<(Statuses, crate::source::Span)> = t
        .statuses
        .iter()
        .map(|(a, b, at)| (Statuses::range(*a, *b), *at))
        .collect();
    if parts.is_empty() {
        return;
    }
    let r = std::mem::replace(&mut p.retry_on, Located::written(RetryOn::Unknown, t.span));
    p.retry_on = crate::extract::status_test::listed_with(r, &parts, "Error");
}
