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

use super::ast::Kind as _;
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

/// Spring MVC mappings, the methods' requests of a `@FeignClient`
/// (spring-cloud-openfeign `SpringMvcContract#processAnnotationOnMethod`
/// reads `@RequestMapping` and the annotations meta-annotated with it).
const MAPPINGS: &[&str] = &[
    "RequestMapping",
    "GetMapping",
    "PostMapping",
    "PutMapping",
    "PatchMapping",
    "DeleteMapping",
];

/// Annotations that make an interface a client whatever its methods say.
const CLIENT_TYPES: &[&str] = &["FeignClient", "HttpExchange"];

/// The client interfaces of the file whose span holds one of the
/// policies from `from` on (those the readers made of this file).
pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    for &n in &ctx.nodes {
        if n.kind_str() != "interface_declaration" {
            continue;
        }
        let Some(name) = field(n, "name").map(|x| ctx.text(x).to_string()) else {
            continue;
        };
        let annotated = |m: tree_sitter::Node<'_>, names: &[&str]| {
            named_children(m)
                .into_iter()
                .filter(|c| c.kind_str() == "modifiers")
                .flat_map(named_children)
                .filter(|a| matches!(a.kind_str(), "annotation" | "marker_annotation"))
                .filter_map(|a| field(a, "name"))
                .any(|a| names.contains(&super::ast::last_segment(ctx.text(a))))
        };
        let client = annotated(n, CLIENT_TYPES)
            || field(n, "body").is_some_and(|b| {
                named_children(b)
                    .into_iter()
                    .any(|m| m.kind_str() == "method_declaration" && annotated(m, EXCHANGES))
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
        let paths = paths(ctx, n, annotated(n, &["FeignClient"]));
        if policies.is_empty() && paths.is_empty() {
            continue;
        }
        facts.java.client_interfaces.push(ClientInterface {
            qualified: Some(ctx.qualified(&name)),
            name,
            span: at,
            policies,
            paths,
        });
    }
}

/// At most this many request paths are kept of one interface.
const MAX_PATHS: usize = 32;

/// The annotations on a declaration.
fn annotations<'t>(n: tree_sitter::Node<'t>) -> Vec<tree_sitter::Node<'t>> {
    named_children(n)
        .into_iter()
        .filter(|c| c.kind_str() == "modifiers")
        .flat_map(named_children)
        .filter(|a| matches!(a.kind_str(), "annotation" | "marker_annotation"))
        .collect()
}

/// The request paths an interface's methods send: the type's
/// `@HttpExchange` URL, then the method's exchange URL (spring-framework
/// `HttpServiceMethod` joins them so; an OpenFeign `@RequestLine("GET
/// /x")` gives its path). A `@FeignClient`'s are its `path`, then each
/// method's Spring MVC mapping (`@GetMapping("/x")`, `@RequestMapping(
/// path = "/x")`); spring-cloud-openfeign `FeignClientFactoryBean`
/// prefixes `path`, and a type-level `@RequestMapping` makes
/// `SpringMvcContract#processAnnotationOnClass` refuse the interface
/// (since 3.0), so it leaves the paths unknown. Empty where a method names
/// no path of its own under a type that names none, or one is a whole
/// URL or a placeholder (the call's target then says where it goes).
fn paths(ctx: &Ctx<'_>, n: tree_sitter::Node<'_>, feign: bool) -> Vec<String> {
    let url = |a: tree_sitter::Node<'_>| -> Option<(String, Option<String>)> {
        let name = super::ast::last_segment(ctx.text(field(a, "name")?)).to_string();
        let keys: &[&str] = match (feign, name.as_str()) {
            (true, "FeignClient") => &["path"],
            (true, m) if MAPPINGS.contains(&m) => &["value", "path"],
            _ => &["value", "url"],
        };
        // A value that is no one string literal (`{"/a", "/b"}`, a
        // constant) is a path not known: written as a placeholder, which
        // leaves the interface's paths unknown below.
        let v = super::r4j::annotation_args(ctx, a)
            .into_iter()
            .find(|(k, _, _)| keys.contains(k))
            .map(|(_, v, _)| super::ast::string_literal(v, ctx.src).unwrap_or("${?}"))
            .map(|v| match name.as_str() {
                "RequestLine" => v.split_once(' ').map_or(v, |(_, p)| p).trim().to_string(),
                _ => v.trim().to_string(),
            });
        Some((name, v))
    };
    let type_level: Vec<(String, Option<String>)> =
        annotations(n).into_iter().filter_map(url).collect();
    if feign && type_level.iter().any(|(name, _)| name == "RequestMapping") {
        return Vec::new();
    }
    let base_of = if feign { "FeignClient" } else { "HttpExchange" };
    let base = type_level
        .into_iter()
        .find(|(name, _)| name == base_of)
        .and_then(|(_, v)| v)
        .unwrap_or_default();
    if base.contains("://") || base.contains("${") {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    let Some(body) = field(n, "body") else {
        return out;
    };
    for m in named_children(body) {
        if m.kind_str() != "method_declaration" {
            continue;
        }
        for (name, v) in annotations(m).into_iter().filter_map(url) {
            let sends =
                EXCHANGES.contains(&name.as_str()) || (feign && MAPPINGS.contains(&name.as_str()));
            if !sends {
                continue;
            }
            let own = v.unwrap_or_default();
            if own.contains("://") || own.contains("${") {
                return Vec::new();
            }
            let joined = format!(
                "{}/{}",
                base.trim_end_matches('/'),
                own.trim_start_matches('/')
            );
            let joined = format!("/{}", joined.trim_matches('/'));
            if joined == "/" {
                return Vec::new();
            }
            if !out.contains(&joined) && out.len() < MAX_PATHS {
                out.push(joined);
            }
        }
    }
    out
}
