//! Spring Cloud Gateway routes built in Java with `RouteLocatorBuilder`:
//! `.route(p -> p.path("/loans/**").filters(f -> f.retry(3)).uri("lb://LOANS"))`.
//!
//! A `retry` filter here is the `Retry` filter configuration writes
//! (`systems::spring::cloud_gateway`, whose defaults and policy are used
//! as they are): the Java DSL's setters are read into the filter's
//! arguments, and the policy goes on the route's `uri` call (a call scope
//! of the route's lambda, which `url_edges` joins to the URL literal).
//!
//! The DSL (spring-cloud-gateway-server `GatewayFilterSpec` and
//! `RetryGatewayFilterFactory.RetryConfig`, v4.1): `retry(int retries)`
//! sets `retries` only; `retry(Consumer<RetryConfig>)` calls the setters
//! `setRetries(int)`, `setStatuses(HttpStatus...)`, `setSeries(Series...)`,
//! `setMethods(HttpMethod...)`, `allMethods()`, `setExceptions(Class...)`,
//! `setBackoff(Duration first, Duration max, int factor, boolean
//! basedOnPreviousValue)` and, in later releases, `setJitter(double)` and
//! `setTimeout(Duration)`. A value this reader cannot read (a variable,
//! a `BackoffConfig` built elsewhere) leaves that argument unknown rather
//! than defaulted: the route keeps its call, without the filter.

use super::ast::Kind as _;
use super::ast::{self, field, text};
use super::{Ctx, Out, RetryScope};
use crate::extract::Facts;
use crate::source::Span;
use crate::systems::spring::cloud_gateway::{Arg, Site, policy_of_args};
use std::collections::BTreeMap;
use std::time::Duration;
use tree_sitter::Node;

/// Words a file building gateway routes in Java holds.
pub const WORDS: &[&str] = &["RouteLocatorBuilder", "GatewayFilterSpec"];

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    if !WORDS.iter().any(|w| ctx.src.contains(w)) {
        return;
    }
    for &n in &ctx.nodes {
        if n.kind_str() != "method_invocation"
            || field(n, "name").is_none_or(|m| text(m, ctx.src) != "retry")
        {
            continue;
        }
        // `f.retry(..)` inside a `filters(f -> ..)` lambda of a route.
        let Some(route) = route_lambda(ctx, n) else {
            continue;
        };
        let Some(args) = retry_args(ctx, n) else {
            continue;
        };
        let label = route_label(ctx, route);
        let site = Site {
            root: ast::span(n),
            mvc: false,
            label,
            route: None,
            global_timeout: None,
        };
        let Some(mut policy) = policy_of_args(&args, &site, None, facts) else {
            continue;
        };
        // The response timeout of each try is set in configuration
        // (`spring.cloud.gateway.httpclient.response-timeout`) or the
        // route's metadata, neither read here: unknown, not absent.
        policy.per_try_timeout = None;
        facts.policies.push(policy);
        out.call_scopes.push(RetryScope {
            body: route,
            policy: facts.policies.len() - 1,
        });
    }
}

/// The lambda of the `route(..)` call that a `filters(..)` lambda holding
/// `n` belongs to.
fn route_lambda<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<Node<'a>> {
    let mut filters = false;
    let mut cur = n;
    for _ in 0..64 {
        cur = ctx.parent(cur)?;
        if cur.kind_str() != "method_invocation" {
            continue;
        }
        let name = field(cur, "name").map_or("", |m| text(m, ctx.src));
        match name {
            "filters" => filters = true,
            "route" if filters => {
                return field(cur, "arguments")
                    .map(ast::named_children)?
                    .into_iter()
                    .find(|a| a.kind_str() == "lambda_expression");
            }
            _ => {}
        }
    }
    None
}

/// `route("loans_route", p -> ..)`'s id, else the route's path.
fn route_label(ctx: &Ctx<'_>, lambda: Node<'_>) -> String {
    let call = ctx.parent(lambda).and_then(|a| ctx.parent(a));
    let id = call
        .and_then(|c| field(c, "arguments"))
        .and_then(|a| ast::named_children(a).into_iter().next())
        .and_then(|a| ast::string_literal(a, ctx.src));
    if let Some(id) = id {
        return format!("route {id}");
    }
    let path = ctx.descendants(lambda).into_iter().find_map(|m| {
        (m.kind_str() == "method_invocation"
            && field(m, "name").is_some_and(|x| text(x, ctx.src) == "path"))
        .then(|| field(m, "arguments"))
        .flatten()
        .and_then(|a| ast::named_children(a).into_iter().next())
        .and_then(|a| ast::string_literal(a, ctx.src))
    });
    match path {
        Some(p) => format!("route {p}"),
        None => "route".into(),
    }
}

/// The filter's arguments, by normalised name, from `retry(3)` or the
/// setters of `retry(c -> c.setRetries(3)...)`; `None` when the argument
/// is neither (a `RetryConfig` variable).
fn retry_args<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> Option<BTreeMap<String, Arg>> {
    let a = field(call, "arguments").map(ast::named_children)?;
    let [arg] = a.as_slice() else { return None };
    let mut out = BTreeMap::new();
    let mut put = |key: &str, at: Span, items: Vec<(String, Span)>| {
        out.insert(
            crate::keys::normalise_key(key),
            Arg::written(key, at, items),
        );
    };
    if arg.kind_str() != "lambda_expression" {
        let n = ctx.int(*arg)?;
        put(
            "retries",
            ast::span(*arg),
            vec![(n.to_string(), ast::span(*arg))],
        );
        return Some(out);
    }
    let body = field(*arg, "body")?;
    // `c -> c.setRetries(3)...`, or a block of such statements
    // (`c -> { c.setBackoff(..); c.setRetries(3).setMethods(..); }`).
    let exprs: Vec<Node<'a>> = if body.kind_str() == "block" {
        ast::named_children(body)
            .into_iter()
            .filter(|s| s.kind_str() == "expression_statement")
            .filter_map(|s| s.named_child(0))
            .collect()
    } else {
        vec![body]
    };
    let calls = exprs.into_iter().flat_map(|e| ast::chain(e, ctx.src).calls);
    for c in calls {
        let at = c.span;
        let each = |f: &dyn Fn(Node<'a>) -> Option<String>| -> Vec<(String, Span)> {
            c.args
                .iter()
                .filter_map(|&x| f(x).map(|v| (v, ast::span(x))))
                .collect()
        };
        let constant = |x: Node<'a>| Some(ast::last_segment(ctx.text(x)).to_string());
        let millis = |x: Node<'a>| {
            ctx.duration(x, Duration::from_millis(1))
                .map(|d| format!("{}ms", d.as_millis()))
        };
        match c.name.as_str() {
            "setRetries" => put("retries", at, each(&|x| ctx.int(x).map(|n| n.to_string()))),
            "setStatuses" => put("statuses", at, each(&constant)),
            "setSeries" => put("series", at, each(&constant)),
            "setMethods" => put("methods", at, each(&constant)),
            "allMethods" => put(
                "methods",
                at,
                [
                    "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE",
                ]
                .iter()
                .map(|m| (m.to_string(), at))
                .collect(),
            ),
            "setExceptions" => put(
                "exceptions",
                at,
                each(&|x| {
                    let t = ctx.text(x);
                    Some(t.strip_suffix(".class").unwrap_or(t).to_string())
                }),
            ),
            "setBackoff" if c.args.len() == 4 => {
                let names = [
                    "backoff.firstBackoff",
                    "backoff.maxBackoff",
                    "backoff.factor",
                    "backoff.basedOnPreviousValue",
                ];
                for (i, (name, &x)) in names.iter().zip(&c.args).enumerate() {
                    let v = match i {
                        0 | 1 => millis(x),
                        2 => ctx.int(x).map(|n| n.to_string()),
                        _ => Some(ctx.text(x).to_string()),
                    };
                    // Unread: the argument is left out, so its default
                    // is not claimed either (a max of `null`: no cap).
                    if let Some(v) = v {
                        put(name, ast::span(x), vec![(v, ast::span(x))]);
                    }
                }
            }
            "setJitter" => put(
                "jitter.randomFactor",
                at,
                each(&|x| ctx.float(x).map(|f| f.to_string())),
            ),
            "setTimeout" => put("timeout", at, each(&millis)),
            _ => {}
        }
    }
    Some(out)
}
