//! RL104 retries-open-circuit: a retry wraps a circuit breaker and does
//! not ignore the error the open breaker throws, so an open breaker is
//! retried like any failure.

use crate::model::{AttemptCount, Condition, RetryOn, RetryPolicy};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn simple(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name).trim()
}

fn covers(c: &Condition, error: &str, supers: &[&str]) -> bool {
    matches!(c, Condition::Exception(n) if simple(n) == error || supers.contains(&simple(n)))
}

/// Whether the policy retries the open-breaker error.
pub fn retries_open_error(p: &RetryPolicy) -> Option<&'static str> {
    let open = p.system.spec().open_circuit.as_ref()?;
    let (error, supers) = (open.error, open.supertypes);
    let retried = match &p.retry_on.value {
        RetryOn::AllErrors => true,
        RetryOn::Listed { conditions } => {
            conditions.iter().any(|c| covers(&c.value, error, supers))
        }
        RetryOn::Nothing | RetryOn::Unknown => false,
    };
    // An ignored supertype or the error itself stops the retry.
    let ignored = p.ignores.iter().any(|c| covers(&c.value, error, supers));
    (retried && !ignored).then_some(error)
}

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() || p.wraps_breaker.is_empty() {
        return;
    }
    let Some(error) = retries_open_error(p) else {
        return;
    };
    let attempts = match p.attempts.value.count {
        AttemptCount::Finite(n) => format!("{n} attempts"),
        AttemptCount::Unbounded => "attempts without end".into(),
        AttemptCount::Unknown => "every attempt".into(),
    };
    let why = match p.retry_on.value {
        RetryOn::AllErrors => "it retries every exception".to_string(),
        _ => "its retried exceptions include it".to_string(),
    };
    for span in &p.wraps_breaker {
        let f = e.emit(
            *span,
            format!(
                "{} wraps a circuit breaker and retries its open-circuit error `{error}` ({why}): while the breaker is open each call still makes {attempts} and waits between them",
                p.describe()
            ),
            format!(
                "ignore `{error}` in the retry (Resilience4j `ignoreExceptions`, Failsafe `abortOn`) so that an open breaker fails the call at once, or put the circuit breaker outside the retry"
            ),
        );
        if p.retry_on.is_written() && p.retry_on.span != *span {
            Emitter::relate(f, p.retry_on.span, "the retried exceptions are set here");
        }
        if p.span != *span {
            Emitter::relate(f, p.span, "the retry is defined here");
        }
    }
}
