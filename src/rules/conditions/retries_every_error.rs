//! RL102 retries-every-error: no retry predicate, so every failure is
//! retried, client errors and bugs included.

use super::{CATCH_ALL_EXCEPTIONS, listed, simple_name};
use crate::fix::Fix;
use crate::model::{Condition, Provenance, RetryOn};
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

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
    let f = e.emit(
        span,
        format!(
            "{} retries {what}, client errors and bugs included",
            p.describe()
        ),
        p.system.spec().fixes.predicate,
    );
    // Unsafe: it changes what is retried. Only where nothing is listed.
    if p.retry_on.value == RetryOn::AllErrors
        && let Some(make) = p.system.spec().fixes.edits.predicate
        && let Some(site) = ctx.site(f.file)
        && let Some(edits) = make(&site)
    {
        f.fix(Fix::unsafe_(
            "retry only transient failures (connection errors and timeouts)",
            edits,
        ));
    }
}
