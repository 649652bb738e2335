//! RL403 implicit-retries: a hop retries only because of a platform default
//! nobody wrote.

use crate::model::Provenance;
use crate::rules::{Check, Emitter, PolicyCtx};

pub const CHECK: Check = Check::Policy(check);

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() || p.attempts.provenance != Provenance::Default {
        return;
    }
    // Only platforms retry by themselves; an application default is a
    // written policy whose values are defaults.
    if p.system.layer() == crate::model::Layer::Application {
        return;
    }
    let n = p.attempts.value.count.finite().unwrap_or(0);
    e.emit(
        p.attempts.span,
        format!(
            "{} retries although nothing here asks for it: {} ({n} attempts)",
            p.describe(),
            p.attempts.value.written_as
        ),
        help(&p.system),
    );
}

/// How to write the policy down in the system's own words.
fn help(system: &crate::model::System) -> &'static str {
    use crate::model::System;
    match system {
        System::Nginx => {
            "write the retry policy you want explicitly (`proxy_next_upstream_tries`, or `proxy_next_upstream off` to turn retries off at this hop), so that it is visible and counted"
        }
        System::IngressNginx => {
            "write the retry policy you want explicitly (`nginx.ingress.kubernetes.io/proxy-next-upstream-tries`, `\"1\"` to turn retries off at this hop), so that it is visible and counted"
        }
        _ => {
            "write the retry policy you want explicitly (`attempts: 0` to turn retries off at this hop), so that it is visible and counted"
        }
    }
}
