//! A retry repeats what its body calls, the functions of the same file
//! included: a loop (or `retry.Do` closure) around `fetchInvoices()`, a
//! function of the file that itself retries its GET, sends each of its own
//! attempts once per attempt of the loop. The attempts multiply (RL401),
//! as they do for a retry around a client that retries by itself.
//!
//! The body of each function or method of the file a retried region calls
//! (by name: `f(..)`, `x.f(..)` where `x` is a plain name and no imported
//! package; not a chain such as `resp.Body.Close()`), two deep, becomes a
//! region of the same policy, marked `via_call`: the edges and dials in it
//! carry the policy, and so do idempotency keys minted there, but one try
//! of the policy is the whole call, so its per-try timeout and methods are
//! not taken from the calls inside.
//!
//! A function called from both inside and outside a retry is taken as
//! retried (the worst case of its call sites). A function of another file
//! of the package (or of another package of the repository, such as a
//! `retryutil.Retry` helper) is not followed here.

use super::{Ctx, RetryScope, field};
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// How many calls deep a region is followed into the file's functions.
const DEPTH: usize = 2;
/// Regions added per retried region, at most.
const MAX_ADDED: usize = 32;

/// Add, for each region of `scopes`, the bodies of the file's functions
/// it calls (two deep).
pub(super) fn extend(ctx: &Ctx<'_>, scopes: &mut Vec<RetryScope>) {
    let decls: Vec<(&str, Node<'_>)> = ctx
        .nodes
        .iter()
        .filter(|d| matches!(d.kind_name(), "function_declaration" | "method_declaration"))
        .filter_map(|&d| Some((ctx.text(field(d, "name")?), field(d, "body")?)))
        .collect();
    if decls.is_empty() {
        return;
    }
    let own: Vec<RetryScope> = scopes.clone();
    for s in own {
        let mut regions: Vec<(usize, usize)> = vec![(s.start, s.end)];
        let mut frontier = regions.clone();
        for _ in 0..DEPTH {
            let mut next = Vec::new();
            for &(start, end) in &frontier {
                for &c in &ctx.calls {
                    if c.start_byte() < start || c.end_byte() > end {
                        continue;
                    }
                    let Some(name) = callee(ctx, c) else { continue };
                    for &(_, body) in decls.iter().filter(|(n, _)| *n == name) {
                        let r = (body.start_byte(), body.end_byte());
                        // Not a region already taken, nor one holding the
                        // retry itself (a recursive call).
                        if regions
                            .iter()
                            .any(|&(a, b)| (a <= r.0 && r.1 <= b) || (r.0 <= a && b <= r.1))
                        {
                            continue;
                        }
                        if regions.len() > MAX_ADDED {
                            break;
                        }
                        regions.push(r);
                        next.push(r);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        for &(start, end) in regions.iter().skip(1) {
            scopes.push(RetryScope {
                policy: s.policy,
                start,
                end,
                via_call: true,
            });
        }
    }
}

/// The name a call calls, when it may be a function or method of the
/// file: `f(..)`, or `x.f(..)` where `x` is a name, not an imported
/// package.
fn callee<'a>(ctx: &Ctx<'a>, call: Node<'_>) -> Option<&'a str> {
    let f = field(call, "function")?;
    match f.kind_name() {
        "identifier" => Some(ctx.text(f)),
        "selector_expression" => {
            // A method on a plain name (`s.fetch()`): a chain
            // (`resp.Body.Close()`, `s.client.Do(..)`) calls a field's
            // type, most often not the file's.
            let operand = field(f, "operand")?;
            if operand.kind_name() != "identifier" || ctx.pkg(ctx.text(operand)).is_some() {
                return None;
            }
            Some(ctx.text(field(f, "field")?))
        }
        _ => None,
    }
}
