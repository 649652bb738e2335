//! RL403 implicit-retries: a hop retries only because of a platform default
//! nobody wrote: a policy whose attempts are a platform's default (an
//! Istio route with no `retries`, an AWS client with no retry setting), or
//! a sidecar layer the graph adds to a call where no VirtualService exists.

use crate::graph::GraphCtx;
use crate::model::{Layer, Provenance};
use crate::rules::{Check, Finding, Related, rule};
use std::collections::BTreeSet;

pub const CHECK: Check = Check::Graph(check);

fn check(ctx: &GraphCtx<'_>, out: &mut Vec<Finding>) {
    let me = rule("RL403");
    let mut seen = BTreeSet::new();
    for (id, f) in ctx.files.iter().enumerate() {
        for p in &f.facts.policies {
            if !p.retries()
                || p.attempts.provenance != Provenance::Default
                || p.system.layer() == Layer::Application
            {
                continue;
            }
            if !seen.insert((id, p.attempts.span)) {
                continue;
            }
            let n = p.attempts.value.count.finite().unwrap_or(0);
            out.push(Finding::new(
                me,
                id,
                p.attempts.span,
                format!(
                    "{} retries although nothing here asks for it: {} ({n} attempts)",
                    p.describe(),
                    p.attempts.value.written_as
                ),
                help(&p.system).into(),
            ));
        }
    }
    let g = ctx.graph;
    for e in &g.edges {
        for l in e
            .layers
            .iter()
            .filter(|l| l.implicit && l.policy.is_none() && l.retries())
        {
            if !seen.insert((l.loc.file, l.loc.span)) {
                continue;
            }
            let mut f = Finding::new(
                me,
                l.loc.file,
                l.loc.span,
                format!(
                    "the call from `{}` to `{}` is retried by the caller's {} sidecar by default: `{}` attempts that no file writes (no VirtualService for `{}`)",
                    g.service_name(e.from),
                    g.service_name(e.to),
                    l.system.label(),
                    l.factor(),
                    g.service_name(e.to),
                ),
                format!(
                    "write a VirtualService for `{}` with the retries you want (`attempts: 0` to leave retries to the application)",
                    g.service_name(e.to)
                ),
            );
            f.related.push(Related {
                file: e.proof.file,
                span: e.proof.span,
                message: format!("the call, via {}", e.via),
            });
            out.push(f);
        }
    }
}

/// How to write the policy down, in the system's own words.
fn help(system: &crate::model::System) -> &'static str {
    use crate::model::System;
    match system {
        System::AwsSdk => {
            "set `retry_mode` (`standard`) and `max_attempts` in the profile (`max_attempts = 1` turns the SDK's retries off), so that they are visible and counted"
        }
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
