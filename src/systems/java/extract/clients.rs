//! Client interfaces (issue 17, enclosing scopes across files): an
//! interface whose methods are HTTP exchanges (Spring's `@HttpExchange`,
//! `@GetExchange` ..., spring-framework `org.springframework.web.service.
//! annotation`), a Spring Cloud OpenFeign `@FeignClient` or an OpenFeign
//! interface (`@RequestLine`), with the retry policies its methods or
//! type carry (`@Retry(name = "inventory")` on `isInStock`). A call through
//! the interface runs inside them: a call target written in the
//! declaration (the `@FeignClient` `url`) here, and the base URL of a
//! client built from it in another file (`createClient(X.class)`,
//! `extract::calls::clients`) at link time (`link::client_interfaces`).

use super::ast::{field, named_children, span};
use super::{Ctx, Facts};
use crate::model::java_annotations::ClientInterface;

/// Annotations that make a method an HTTP call of its interface.
const EXCHANGES: &[&str] = &[
    "HttpExchange",
    "GetExchange",
    "PostExchange",
    "PutExchange",
    "PatchExchange",
    "DeleteExchange",
    "RequestLine",
];

/// Annotations that make an interface a client whatever its methods say.
const CLIENT_TYPES: &[&str] = &["FeignClient", "HttpExchange"];

/// The client interfaces of the file whose span holds one of the
/// policies from `from` on (those the readers made of this file).
pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    for &n in &ctx.nodes {
        if n.kind() != "interface_declaration" {
            continue;
        }
        let Some(name) = field(n, "name").map(|x| ctx.text(x).to_string()) else {
            continue;
        };
        let annotated = |m: tree_sitter::Node<'_>, names: &[&str]| {
            named_children(m)
                .into_iter()
                .filter(|c| c.kind() == "modifiers")
                .flat_map(named_children)
                .filter(|a| matches!(a.kind(), "annotation" | "marker_annotation"))
                .filter_map(|a| field(a, "name"))
                .any(|a| names.contains(&super::ast::last_segment(ctx.text(a))))
        };
        let client = annotated(n, CLIENT_TYPES)
            || field(n, "body").is_some_and(|b| {
                named_children(b)
                    .into_iter()
                    .any(|m| m.kind() == "method_declaration" && annotated(m, EXCHANGES))
            });
        if !client {
            continue;
        }
        let at = span(n);
        let policies: Vec<usize> = facts
            .policies
            .iter()
            .enumerate()
            .filter(|(_, p)| p.span.start >= at.start && p.span.end <= at.end)
            .map(|(i, _)| i)
            .collect();
        if policies.is_empty() {
            continue;
        }
        facts.java.client_interfaces.push(ClientInterface {
            qualified: Some(ctx.qualified(&name)),
            name,
            span: at,
            policies,
        });
    }
}
