//! YARP written in code (issue 19, left item 1): the destinations of
//! clusters built as `new ClusterConfig { ClusterId = "x", Destinations =
//! .. { { "d1", new DestinationConfig { Address = "http://.." } } },
//! HttpRequest = new ForwarderRequestConfig { ActivityTimeout = .. } }`
//! (for `LoadFromMemory(routes, clusters)` or a config provider), direct
//! forwarding with `app.MapForwarder(pattern, "http://..", requestConfig)`
//! and `forwarder.SendAsync(httpContext, "http://..", client,
//! requestConfig)` of an `IHttpForwarder`. Each destination is a call edge
//! of the program with YARP's layer ([`crate::systems::csharp::yarp`]: one
//! attempt, the activity timeout).

use super::calls::string;
use super::{Ctx, MAX_CLIMB, MAX_DEPTH, args, field, method, named_children, span};
use crate::model::*;
use crate::source::Span;
use crate::systems::csharp::extract::Kind as _;
use crate::systems::csharp::yarp::{forwarding, host};
use std::collections::BTreeMap;
use tree_sitter::Node;

/// A cluster's name, its `new ClusterConfig { .. }` and its destinations.
type Cluster<'a> = (String, Option<Node<'a>>, Vec<(String, Span)>);

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    // (Cluster node id, the helper's call it is built for) -> (its name,
    // its node, destinations).
    let mut clusters: BTreeMap<(usize, usize), Cluster<'_>> = BTreeMap::new();
    let forwarders = forwarder_names(ctx);
    for &n in &ctx.nodes {
        match n.kind_str() {
            "object_creation_expression" if created(ctx, n, "DestinationConfig") => {
                let Some(address) = member(ctx, n, "Address") else {
                    continue;
                };
                let cluster = enclosing_creation(ctx, n, "ClusterConfig");
                // Keyed by place, not node id (an address that differs from
                // parse to parse), so the clusters keep the file's order.
                let id = cluster.map_or(n.start_byte(), |c| c.start_byte());
                let name_node = cluster.and_then(|c| member(ctx, c, "ClusterId"));
                // Built in a helper from its parameters: one cluster per
                // call of the helper, with that call's arguments.
                let sites: Vec<(usize, Option<Node<'_>>)> = match string(ctx, address, 0) {
                    Some(_) => vec![(0, None)],
                    None => helper_calls(ctx, address)
                        .into_iter()
                        .map(|c| (c.start_byte(), Some(c)))
                        .collect(),
                };
                for (site_id, site) in sites {
                    let Some((url, at)) = value(ctx, address, site) else {
                        continue;
                    };
                    let name = name_node
                        .and_then(|v| value(ctx, v, site))
                        .map(|(v, _)| v)
                        .unwrap_or_default();
                    clusters
                        .entry((id, site_id))
                        .or_insert_with(|| (name, cluster, Vec::new()))
                        .2
                        .push((url, at));
                }
            }
            "invocation_expression" => direct(ctx, n, &forwarders, facts),
            _ => {}
        }
    }
    for (_, (name, cluster, dests)) in clusters {
        let at = cluster.map_or_else(|| dests[0].1, span);
        let written = cluster
            .and_then(|c| member(ctx, c, "HttpRequest"))
            .and_then(|r| activity_timeout(ctx, r));
        let label = if name.is_empty() {
            "a ClusterConfig".to_string()
        } else {
            format!("cluster `{name}`")
        };
        let i = facts.policies.len();
        facts.policies.push(forwarding(label.clone(), at, written));
        for (url, s) in dests {
            edge(facts, &url, s, i, format!("YARP {label} in C#"));
        }
    }
}

/// The calls of the method or local function whose parameter `n` (an
/// identifier) names, in this file, at most [`MAX_SITES`].
fn helper_calls<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Vec<Node<'a>> {
    let Some((method_name, _)) = parameter(ctx, n) else {
        return Vec::new();
    };
    ctx.nodes
        .iter()
        .filter(|c| {
            c.kind_str() == "invocation_expression"
                && method(ctx, **c).is_some_and(|(m, _)| m == method_name)
        })
        .take(MAX_SITES)
        .copied()
        .collect()
}

/// Calls of one helper read, at most.
const MAX_SITES: usize = 256;

/// The method `n` (an identifier) is a parameter of, and the parameter's
/// index.
fn parameter<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<(&'a str, usize)> {
    if n.kind_str() != "identifier" {
        return None;
    }
    let name = ctx.text(n);
    let mut cur = ctx.parent(n);
    for _ in 0..MAX_CLIMB {
        let c = cur?;
        if matches!(
            c.kind_str(),
            "method_declaration" | "local_function_statement"
        ) {
            let params = field(c, "parameters")?;
            let i = named_children(params)
                .into_iter()
                .filter(|p| p.kind_str() == "parameter")
                .position(|p| field(p, "name").is_some_and(|x| ctx.text(x) == name))?;
            return Some((ctx.text(field(c, "name")?), i));
        }
        cur = ctx.parent(c);
    }
    None
}

/// The string `n` is: written, or (a parameter of a helper) the argument
/// the call `site` passes for it, with where it is written.
fn value(ctx: &Ctx<'_>, n: Node<'_>, site: Option<Node<'_>>) -> Option<(String, Span)> {
    if let Some(v) = string(ctx, n, 0) {
        return Some((v, span(n)));
    }
    let (_, i) = parameter(ctx, n)?;
    let a = args(ctx, site?);
    let name = ctx.text(n);
    let arg = a
        .iter()
        .find(|(k, _)| *k == Some(name))
        .or_else(|| a.get(i).filter(|(k, _)| k.is_none()))?
        .1;
    string(ctx, arg, 0).map(|v| (v, span(arg)))
}

/// `MapForwarder(pattern, "http://..", [requestConfig])` and an
/// `IHttpForwarder`'s `SendAsync(context, "http://..", client,
/// [requestConfig])`.
fn direct(ctx: &Ctx<'_>, n: Node<'_>, forwarders: &[&str], facts: &mut Facts) {
    let Some((name, recv)) = method(ctx, n) else {
        return;
    };
    let (what, config_at) = match name {
        "MapForwarder" => ("MapForwarder", 2),
        "SendAsync"
            if recv
                .is_some_and(|r| forwarders.contains(&ctx.text(r).trim_start_matches("this."))) =>
        {
            ("IHttpForwarder.SendAsync", 3)
        }
        _ => return,
    };
    let a = args(ctx, n);
    let by_name = |key: &str| a.iter().find(|(k, _)| *k == Some(key)).map(|(_, v)| *v);
    let positional = |i: usize| a.get(i).filter(|(k, _)| k.is_none()).map(|(_, v)| *v);
    let Some(dest) = by_name("destinationPrefix").or_else(|| positional(1)) else {
        return;
    };
    let Some(url) = string(ctx, dest, 0) else {
        return;
    };
    let written = by_name("requestConfig")
        .or_else(|| positional(config_at))
        .and_then(|c| activity_timeout(ctx, c));
    let i = facts.policies.len();
    facts
        .policies
        .push(forwarding(what.to_string(), span(n), written));
    edge(facts, &url, span(dest), i, format!("YARP {what} in C#"));
}

fn edge(facts: &mut Facts, url: &str, at: Span, policy: usize, via: String) {
    if crate::systems::csharp::yarp::local(url) {
        return;
    }
    match host(url) {
        Some(callee) => facts.edges.push(CallEdge {
            caller: None,
            callee,
            span: at,
            policies: vec![policy],
            via,
            client: None,
            protocol: None,
        }),
        None => facts
            .unresolved
            .push(UnresolvedCall::new(at, url.to_string())),
    }
}

/// The activity timeout of a `new ForwarderRequestConfig { ActivityTimeout
/// = .. }` written at `n` or bound to the name `n` is.
fn activity_timeout(ctx: &Ctx<'_>, n: Node<'_>) -> Option<(Timeout, Span)> {
    let mut n = n;
    for _ in 0..MAX_DEPTH {
        if n.kind_str() != "identifier" {
            break;
        }
        n = ctx.binding(ctx.text(n), n.start_byte())?;
    }
    if !matches!(
        n.kind_str(),
        "object_creation_expression" | "implicit_object_creation_expression"
    ) {
        return None;
    }
    let v = member(ctx, n, "ActivityTimeout")?;
    let t = match super::eval::duration(ctx, v) {
        Some(d) => Timeout::after(d),
        None => Timeout::Unknown,
    };
    Some((t, span(v)))
}

/// Whether `n` is `new T(..)`/`new T { .. }` of a type named `name`.
fn created(ctx: &Ctx<'_>, n: Node<'_>, name: &str) -> bool {
    field(n, "type").is_some_and(|t| {
        let t = ctx.text(t);
        t == name || t.ends_with(&format!(".{name}"))
    })
}

/// The value an object initializer sets for `key` (`Address = ".."`).
fn member<'a>(ctx: &Ctx<'a>, creation: Node<'a>, key: &str) -> Option<Node<'a>> {
    let init = named_children(creation)
        .into_iter()
        .find(|c| c.kind_str() == "initializer_expression")?;
    named_children(init)
        .into_iter()
        .filter(|a| a.kind_str() == "assignment_expression")
        .filter(|a| field(*a, "left").is_some_and(|l| ctx.text(l) == key))
        .filter_map(|a| field(a, "right"))
        .next_back()
}

/// The `new ClusterConfig { .. }` a destination is written in, or the
/// `new() { .. }` a helper returning a `ClusterConfig` returns.
fn enclosing_creation<'a>(ctx: &Ctx<'a>, n: Node<'a>, name: &str) -> Option<Node<'a>> {
    let mut cur = ctx.parent(n);
    let mut implicit = None;
    for _ in 0..MAX_CLIMB {
        let c = cur?;
        match c.kind_str() {
            "object_creation_expression" if created(ctx, c, name) => return Some(c),
            "implicit_object_creation_expression" => implicit = Some(c),
            "method_declaration" | "local_function_statement" => {
                let returns = field(c, "returns").or_else(|| field(c, "type"));
                let t = returns.map(|t| ctx.text(t)).unwrap_or("");
                let ours = t == name || t.ends_with(&format!(".{name}"));
                return implicit.filter(|_| ours);
            }
            "class_declaration" => return None,
            _ => {}
        }
        cur = ctx.parent(c);
    }
    None
}

/// Names declared as an `IHttpForwarder` (parameters, fields, properties,
/// locals).
fn forwarder_names<'a>(ctx: &Ctx<'a>) -> Vec<&'a str> {
    let mut out = Vec::new();
    for &n in &ctx.nodes {
        let typed = |t: Option<Node<'_>>| {
            t.is_some_and(|t| {
                let t = ctx.text(t);
                t == "IHttpForwarder" || t.ends_with(".IHttpForwarder")
            })
        };
        match n.kind_str() {
            "parameter" | "property_declaration" if typed(field(n, "type")) => {
                if let Some(name) = field(n, "name") {
                    out.push(ctx.text(name));
                }
            }
            // `IHttpForwarder f = ..`, and `var f =
            // services.GetRequiredService<IHttpForwarder>()`.
            "variable_declaration" => {
                let declared = typed(field(n, "type"));
                for d in named_children(n)
                    .into_iter()
                    .filter(|d| d.kind_str() == "variable_declarator")
                {
                    let kids = named_children(d);
                    let resolved = kids.len() > 1
                        && kids
                            .last()
                            .is_some_and(|v| ctx.text(*v).contains("<IHttpForwarder>"));
                    if (declared || resolved)
                        && let Some(name) = field(d, "name")
                    {
                        out.push(ctx.text(name));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// ASP.NET Core's named request timeout policies, which a YARP route's
/// `TimeoutPolicy` names: `services.AddRequestTimeouts(o =>
/// o.AddPolicy("name", TimeSpan.FromSeconds(20)))`, or a `new
/// RequestTimeoutPolicy { Timeout = .. }` (dotnet/aspnetcore
/// `src/Http/Routing/src/RequestTimeouts/RequestTimeoutOptions.cs`:
/// `AddPolicy(string policyName, TimeSpan timeout)` and
/// `AddPolicy(string policyName, RequestTimeoutPolicy policy)`). Each is a
/// timeout of the program ([`crate::systems::csharp::yarp::POLICY_WHAT`]),
/// given by the link step to the routes that name it
/// ([`crate::systems::csharp::yarp::timeout_policies`]).
pub fn request_timeouts(ctx: &Ctx<'_>, facts: &mut Facts) {
    for &n in &ctx.nodes {
        if n.kind_str() != "invocation_expression" {
            continue;
        }
        let Some(("AddPolicy", _)) = method(ctx, n) else {
            continue;
        };
        // Inside an `AddRequestTimeouts(..)` call's options lambda.
        let mut cur = ctx.parent(n);
        let mut inside = false;
        for _ in 0..MAX_CLIMB {
            let Some(c) = cur else { break };
            if c.kind_str() == "invocation_expression"
                && method(ctx, c).is_some_and(|(m, _)| m == "AddRequestTimeouts")
            {
                inside = true;
                break;
            }
            cur = ctx.parent(c);
        }
        if !inside {
            continue;
        }
        let a = args(ctx, n);
        let (Some((_, name)), Some((_, value))) = (a.first(), a.get(1)) else {
            continue;
        };
        let Some(name) = string(ctx, *name, 0).filter(|s| !s.is_empty()) else {
            continue;
        };
        // The `TimeSpan`, or the policy's `Timeout` member.
        let value = if created(ctx, *value, "RequestTimeoutPolicy") {
            member(ctx, *value, "Timeout")
        } else {
            Some(*value)
        };
        let timeout = match value {
            Some(v) => Located::written(
                super::eval::duration(ctx, v).map_or(Timeout::Unknown, Timeout::after),
                span(v),
            ),
            None => continue,
        };
        facts.timeouts.push(TimeoutSetting {
            system: System::Yarp,
            name: Some(name),
            what: crate::systems::csharp::yarp::POLICY_WHAT.into(),
            timeout,
        });
    }
}
