//! Resilience4j `intervalBiFunction`s across files (issue 21, RL208): a
//! retry given `new RetryAfterInterval()` or `Waits::fromHeader` whose
//! class this file does not declare, and the classes this file declares
//! whose code waits the server's `Retry-After`. The link step
//! (`link::interval_functions`) joins them by the class's simple name.

use super::Ctx;
use super::ast::Kind as _;
use super::ast::{field, span};
use crate::extract::Facts;
use crate::model::backoff::ServerDelay;
use crate::model::java_annotations::{IntervalRef, ServerDelayClass};
use crate::model::{Delay, Provenance, System};
use tree_sitter::Node;

/// What `by` says of the wait, as the builder reader says it.
const BY: &str = "the `intervalBiFunction`";

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts) {
    refs(ctx, facts);
    classes(ctx, facts);
}

/// Builder policies whose `intervalBiFunction(..)` names a class or
/// method declared elsewhere.
fn refs<'a>(ctx: &Ctx<'a>, facts: &mut Facts) {
    for (i, p) in facts.policies.iter().enumerate() {
        if p.system != System::Resilience4j
            || p.delay.value != Delay::Custom
            || p.delay.provenance != Provenance::Written
            || p.server_delay.is_some()
        {
            continue;
        }
        // The `intervalBiFunction(..)` call whose name starts the span.
        let Some(call) = ctx.nodes.iter().copied().find(|n| {
            n.kind_str() == "method_invocation"
                && field(*n, "name").is_some_and(|x| {
                    x.start_byte() == p.delay.span.start && ctx.text(x) == "intervalBiFunction"
                })
        }) else {
            continue;
        };
        let Some(arg) = field(call, "arguments").and_then(|a| a.named_child(0)) else {
            continue;
        };
        if let Some((class, method)) = named_elsewhere(ctx, ctx.resolve(arg)) {
            facts.java.interval_refs.push(IntervalRef {
                policy: i,
                class,
                method,
                span: p.delay.span,
            });
        }
    }
}

/// The class (and method) an argument names, when this file does not
/// declare it: `Waits::fromHeader`, `new RetryAfterInterval()`.
fn named_elsewhere(ctx: &Ctx<'_>, r: Node<'_>) -> Option<(String, Option<String>)> {
    let declared = |class: &str| {
        ctx.nodes.iter().any(|n| {
            n.kind_str() == "class_declaration"
                && field(*n, "name").is_some_and(|x| ctx.text(x) == class)
        })
    };
    let simple = |t: &str| {
        let t = t.split('<').next().unwrap_or(t).trim();
        t.rsplit('.').next().unwrap_or(t).to_string()
    };
    match r.kind_str() {
        "method_reference" => {
            let (owner, m) = ctx.text(r).rsplit_once("::")?;
            let (owner, m) = (simple(owner), m.trim().to_string());
            let upper = owner.starts_with(|c: char| c.is_ascii_uppercase());
            (upper && m != "new" && ctx.methods_named(&m).is_empty() && !declared(&owner))
                .then_some((owner, Some(m)))
        }
        "object_creation_expression" if field(r, "body").is_none() => {
            let class = simple(field(r, "type").map(|t| ctx.text(t)).unwrap_or(""));
            (!class.is_empty() && !declared(&class)).then_some((class, None))
        }
        _ => None,
    }
}

/// The classes of this file whose code reads a server delay header.
fn classes<'a>(ctx: &Ctx<'a>, facts: &mut Facts) {
    let lower = ctx.src.to_ascii_lowercase();
    if !ServerDelay::HEADERS.iter().any(|h| lower.contains(h)) {
        return;
    }
    for &n in &ctx.nodes {
        if n.kind_str() != "class_declaration" {
            continue;
        }
        let Some(name) = field(n, "name").map(|x| ctx.text(x)) else {
            continue;
        };
        let Some((s, e, delay)) = ServerDelay::in_source(ctx.text(n), BY) else {
            continue;
        };
        let methods = ctx
            .nodes
            .iter()
            .filter(|m| {
                m.kind_str() == "method_declaration"
                    && m.start_byte() >= n.start_byte()
                    && m.end_byte() <= n.end_byte()
                    && ServerDelay::in_source(ctx.text(**m), BY).is_some()
            })
            .filter_map(|m| field(*m, "name").map(|x| ctx.text(x).to_string()))
            .collect();
        let b = span(n).start;
        facts.java.server_delay_classes.push(ServerDelayClass {
            class: name.to_string(),
            methods,
            delay,
            span: crate::source::Span::new(b + s, b + e),
        });
        if facts.java.server_delay_classes.len() > 64 {
            return;
        }
    }
}
