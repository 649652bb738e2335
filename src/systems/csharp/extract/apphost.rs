//! A .NET Aspire AppHost (issue 19, item 5): the services it runs
//! (`builder.AddProject<Projects.Catalog_API>("catalog-api")`, named for
//! the project `Catalog.API.csproj`, [`crate::systems::csharp::project_name`]), the
//! resources it starts (`AddRedis`, `AddRabbitMQ`, `AddPostgres(..)
//! .AddDatabase(..)` ...) with their protocol, and who uses what
//! (`.WithReference(x)`) as calls.

use super::{Ctx, MAX_DEPTH, args, chain, field, method, span, type_args};
use crate::model::calls::{IdentityKind, Placement, Protocol};
use crate::model::*;
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

/// Aspire hosting integrations that start a resource, and what it speaks
/// (`Aspire.Hosting.Redis`, `.RabbitMQ`, `.PostgreSQL`, `.SqlServer`,
/// `.MySql`, `.MongoDB`, `.Kafka`, `.Nats`; `AddDatabase` is the
/// protocol of its server).
const RESOURCES: &[(&str, Protocol)] = &[
    ("AddRedis", Protocol::Redis),
    ("AddGarnet", Protocol::Redis),
    ("AddValkey", Protocol::Redis),
    ("AddRabbitMQ", Protocol::Amqp),
    ("AddPostgres", Protocol::Sql),
    ("AddSqlServer", Protocol::Sql),
    ("AddMySql", Protocol::Sql),
    ("AddOracle", Protocol::Sql),
    ("AddMongoDB", Protocol::Mongo),
    ("AddKafka", Protocol::Kafka),
    ("AddNats", Protocol::Tcp),
    // Aspire.Hosting.Yarp: a YARP container whose routes
    // (`WithConfiguration(yarp => yarp.AddRoute(..))`) are its calls.
    ("AddYarp", Protocol::Http),
];

/// What the AppHost names one resource or project.
struct Res {
    name: String,
    protocol: Option<Protocol>,
}

/// The resource a fluent chain starts (the last `Add*` of it with a
/// name), if any.
fn resource(ctx: &Ctx<'_>, call: Node<'_>, depth: usize) -> Option<Res> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut found = None;
    for c in chain(call) {
        let Some((m, _)) = method(ctx, c) else {
            continue;
        };
        let protocol = match m {
            "AddProject" => Some(Protocol::Http),
            // `postgres.AddDatabase("catalogdb")`: its server's.
            "AddDatabase" => found.as_ref().and_then(|r: &Res| r.protocol).or_else(|| {
                let recv = field(c, "function").and_then(|f| field(f, "expression"))?;
                resource_of(ctx, recv, depth + 1)?.protocol
            }),
            _ => match RESOURCES.iter().find(|(r, _)| *r == m) {
                Some((_, p)) => Some(*p),
                None => continue,
            },
        };
        let Some((_, a)) = args(ctx, c).into_iter().next() else {
            continue;
        };
        if a.kind_str() != "string_literal" {
            continue;
        }
        found = Some(Res {
            name: ctx.text(a).trim_matches('"').to_string(),
            protocol,
        });
    }
    found
}

/// The resource `n` (a name bound to a chain, or a chain) stands for.
fn resource_of(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Option<Res> {
    let mut n = n;
    for _ in 0..MAX_DEPTH {
        match n.kind_str() {
            "identifier" => n = ctx.binding(ctx.text(n), n.start_byte())?,
            "invocation_expression" => return resource(ctx, n, depth + 1),
            _ => return None,
        }
    }
    None
}

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    if !ctx.src.contains("DistributedApplication") {
        return;
    }
    for &n in &ctx.nodes {
        if n.kind_str() != "invocation_expression" {
            continue;
        }
        let Some((m, _)) = method(ctx, n) else {
            continue;
        };
        if m == "AddProject" || m == "AddDatabase" || RESOURCES.iter().any(|(r, _)| *r == m) {
            let Some(r) = resource(ctx, n, 0) else {
                continue;
            };
            let hosts = match m {
                "AddProject" => type_args(ctx, n)
                    .first()
                    .map(|t| t.trim_start_matches("Projects.").to_string())
                    .into_iter()
                    .collect(),
                _ => Vec::new(),
            };
            facts.services.push(ServiceDecl {
                name: r.name,
                span: span(n),
                source: format!("Aspire AppHost {m}"),
                kind: IdentityKind::AppHost,
                hosts,
                placement: Placement {
                    protocol: r.protocol,
                    ..Placement::default()
                },
                request_timeout: None,
            });
            continue;
        }
        if m == "AddRoute" {
            yarp_route(ctx, n, facts);
            continue;
        }
        if m != "WithReference" {
            continue;
        }
        // Who: the chain's resource, or the name the chain starts from.
        let from = resource(ctx, n, 0).or_else(|| {
            let root = chain(n).into_iter().next()?;
            let r = field(root, "function").and_then(|f| field(f, "expression"))?;
            resource_of(ctx, r, 0)
        });
        let Some(from) = from else { continue };
        let Some((_, target)) = args(ctx, n).into_iter().next() else {
            continue;
        };
        let Some(to) = resource_of(ctx, target, 0) else {
            continue;
        };
        facts.edges.push(CallEdge {
            caller: Some(from.name),
            callee: to.name.clone(),
            span: span(target),
            policies: Vec::new(),
            via: "WithReference in an Aspire AppHost".into(),
            // A RabbitMQ resource: the caller's retry around publishing;
            // a database: the retry of the caller's Aspire `DbContext`
            // connected to it by name.
            client: match to.protocol {
                Some(Protocol::Amqp) => Some(super::AMQP_PUBLISH.to_string()),
                Some(Protocol::Sql) => Some(super::efcore::db_client(&to.name)),
                _ => None,
            },
            protocol: None,
        });
    }
}

/// `yarp.AddRoute("/catalog/{**rest}", catalog)` in the
/// `WithConfiguration(yarp => ..)` of an `AddYarp("gateway")` resource
/// (Aspire.Hosting.Yarp, dotnet/aspire
/// `src/Aspire.Hosting.Yarp/ConfigurationBuilder/YarpConfigurationBuilder.cs`
/// 722149f: `AddRoute(path, cluster)`, `AddCluster(resource |
/// endpoint)`; `IYarpConfigurationBuilder.cs` 3f2ed39: `AddRoute(path,
/// endpoint)` makes the cluster): a call from the gateway to the route's
/// resource, with YARP's layer at its defaults (one attempt, the 100 s
/// activity timeout: `crate::systems::csharp::yarp`).
fn yarp_route(ctx: &Ctx<'_>, n: Node<'_>, facts: &mut Facts) {
    let Some((_, outer)) = super::enclosing_lambda_call(ctx, n) else {
        return;
    };
    if method(ctx, outer).is_none_or(|(m, _)| m != "WithConfiguration") {
        return;
    }
    let gateway = resource(ctx, outer, 0).or_else(|| {
        let root = chain(outer).into_iter().next()?;
        let r = field(root, "function").and_then(|f| field(f, "expression"))?;
        resource_of(ctx, r, 0)
    });
    let Some(gateway) = gateway else { return };
    let Some((_, target)) = args(ctx, n).into_iter().last() else {
        return;
    };
    let Some(to) = route_target(ctx, target, 0) else {
        return;
    };
    let i = facts.policies.len();
    facts
        .policies
        .push(crate::systems::csharp::yarp::forwarding(
            format!("AddYarp(\"{}\") route", gateway.name),
            span(n),
            None,
        ));
    facts.edges.push(CallEdge {
        caller: Some(gateway.name),
        callee: to.name,
        span: span(target),
        policies: vec![i],
        via: format!(
            "{} route in an Aspire AppHost",
            crate::systems::csharp::yarp::VIA
        ),
        client: None,
        protocol: None,
    });
}

/// The resource a YARP route goes to: a resource, its endpoint
/// (`catalog.GetEndpoint("http")`), or a cluster made of one
/// (`yarp.AddCluster(catalog)`), directly or through a name.
fn route_target(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Option<Res> {
    if depth > MAX_DEPTH {
        return None;
    }
    match n.kind_str() {
        "identifier" => {
            let b = ctx.binding(ctx.text(n), n.start_byte())?;
            if b.kind_str() == "invocation_expression"
                && method(ctx, b).is_some_and(|(m, _)| m == "AddCluster" || m == "GetEndpoint")
            {
                return route_target(ctx, b, depth + 1);
            }
            resource_of(ctx, n, depth + 1)
        }
        "invocation_expression" => match method(ctx, n)?.0 {
            "AddCluster" => route_target(ctx, args(ctx, n).into_iter().last()?.1, depth + 1),
            "GetEndpoint" => {
                let recv = field(n, "function").and_then(|f| field(f, "expression"))?;
                route_target(ctx, recv, depth + 1)
            }
            _ => resource(ctx, n, depth + 1),
        },
        _ => None,
    }
}
