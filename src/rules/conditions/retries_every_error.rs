//! RL102 retries-every-error: no retry predicate, so every failure is
//! retried, client errors and bugs included.

use super::{CATCH_ALL_EXCEPTIONS, listed, simple_name};
use crate::model::{Condition, Provenance, RetryOn, System};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn fix(system: &System) -> &'static str {
    match system {
        System::Resilience4j => {
            "list the transient failures in `retryExceptions` (e.g. `java.io.IOException`, `java.util.concurrent.TimeoutException`) or set `retryExceptionPredicate`"
        }
        System::SpringRetry | System::SpringFramework => {
            "name the transient exceptions in `retryFor` (`includes` on Spring Framework 7's `@Retryable` or `RetryPolicy.builder()`)"
        }
        System::GuavaRetrying => {
            "replace `retryIfException()` / `retryIfRuntimeException()` with `retryIfExceptionOfType(..)` for each transient exception"
        }
        System::JavaLoop => {
            "catch only the transient exceptions (timeouts, connection errors) and rethrow the rest"
        }
        System::RustLoop => {
            "match the error and retry only transient ones (timeouts, connection errors); return the rest at once"
        }
        System::RustCrate(c) if c == "backon" => "add `.when(|e| e.is_transient())` to the retry",
        System::RustCrate(c) if c == "backoff" => {
            "return `backoff::Error::permanent(e)` for errors that a retry cannot fix"
        }
        _ => "retry only transient failures: timeouts, connection errors, 503/UNAVAILABLE, 429",
    }
}

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() {
        return;
    }
    let (span, what) = match &p.retry_on.value {
        RetryOn::AllErrors => {
            // An inherited default is reported by the block it comes from.
            if p.retry_on.provenance == Provenance::Inherited {
                return;
            }
            let why = if p.retry_on.is_default() {
                format!("no retry predicate: {}'s default", p.system.label())
            } else {
                "no retry predicate".to_string()
            };
            (p.retry_on.span, format!("every error ({why})"))
        }
        RetryOn::Listed { .. } => {
            let Some(c) = listed(&p.retry_on.value).iter().find(|c| {
                matches!(&c.value, Condition::Exception(n) if CATCH_ALL_EXCEPTIONS.contains(&simple_name(n)))
            }) else {
                return;
            };
            if c.provenance == Provenance::Inherited {
                return;
            }
            let Condition::Exception(n) = &c.value else {
                return;
            };
            // A predicate that accepts every input stands for `Throwable`
            // where it is written: name the predicate.
            let written = ctx
                .file
                .text
                .get(c.span.start..c.span.end)
                .unwrap_or("")
                .trim();
            if !written.contains(simple_name(n)) && !written.is_empty() && written.len() <= 120 {
                let written = written.split_whitespace().collect::<Vec<_>>().join(" ");
                (
                    c.span,
                    format!("every error (`{written}` accepts every `{n}`)"),
                )
            } else {
                (c.span, format!("every error (`{n}` catches them all)"))
            }
        }
        _ => return,
    };
    e.emit(
        span,
        format!(
            "{} retries {what}, client errors and bugs included",
            p.describe()
        ),
        fix(&p.system),
    );
}
