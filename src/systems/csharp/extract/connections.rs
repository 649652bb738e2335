//! Connection strings read by name (`GetConnectionString("Orders")`,
//! `configuration["ConnectionStrings:Orders"]`): each is a call to the
//! server the program's settings give that name, resolved by the link step
//! ([`crate::systems::csharp::connections`]). The EF Core provider call it
//! is handed to (`UseSqlServer(cs, o => o.EnableRetryOnFailure())`, in the
//! read's own expression or through the local it is stored in) gives the
//! call its retry; an in-process provider (`UseSqlite`,
//! `UseInMemoryDatabase`) makes it no call.

use super::resilience::call_span;
use super::{Ctx, MAX_CLIMB, args, field, method, span};
use crate::model::*;
use crate::systems::csharp::connections::{UNRESOLVED, client};
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

/// EF Core providers of a database server.
const SERVERS: &[&str] = &[
    "UseSqlServer",
    "UseAzureSql",
    "UseNpgsql",
    "UseMySql",
    "UseMySQL",
    "UseOracle",
];

/// EF Core providers that open no connection to another machine.
const IN_PROCESS: &[&str] = &["UseSqlite", "UseInMemoryDatabase"];

/// Reads of connection strings a file may have before the reader stops.
const MAX_READS: usize = 256;

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    let mut seen: Vec<String> = Vec::new();
    for &n in &ctx.nodes {
        if seen.len() >= MAX_READS {
            break;
        }
        if n.kind_str() == "invocation_expression"
            && let Some(name) = super::efcore::aspire_connection(ctx, n)
        {
            aspire(n, &name, &mut seen, facts);
            continue;
        }
        let Some(name) = read_name(ctx, n) else {
            continue;
        };
        if name.is_empty() || name.contains(['{', ':']) {
            continue;
        }
        let providers = providers(ctx, n);
        if providers
            .iter()
            .any(|p| method(ctx, *p).is_some_and(|(m, _)| IN_PROCESS.contains(&m)))
        {
            continue;
        }
        let c = client(&name);
        if seen.contains(&c) {
            continue;
        }
        seen.push(c.clone());
        let mut policies: Vec<usize> = providers
            .iter()
            .flat_map(|p| ctx.subtree(*p).iter())
            .filter(|x| {
                x.kind_str() == "invocation_expression"
                    && method(ctx, **x).is_some_and(|(m, _)| m == "EnableRetryOnFailure")
            })
            .filter_map(|x| {
                let at = call_span(*x);
                facts
                    .policies
                    .iter()
                    .position(|p| p.system == System::EfCore && p.span == at)
            })
            .collect();
        // An Aspire `Enrich*DbContext<T>()` of the context registered here.
        if policies.is_empty() {
            let contexts: Vec<&str> = providers
                .iter()
                .filter_map(|p| registered_context(ctx, *p))
                .collect();
            policies.extend(facts.policies.iter().enumerate().filter_map(|(i, p)| {
                let enriched = p.system == System::EfCore
                    && p.name.as_deref().is_some_and(|n| n.starts_with("Enrich"))
                    && p.config_section
                        .as_deref()
                        .is_some_and(|c| contexts.iter().any(|t| c.rsplit(':').next() == Some(*t)));
                enriched.then_some(i)
            }));
            // The connection is also the resource an Aspire AppHost's
            // `WithReference` names: the retry is on that edge too.
            for &i in &policies {
                let p = &mut facts.policies[i];
                if p.scope.client.is_none() {
                    p.scope.client = Some(ClientScope::Named(super::efcore::db_client(&name)));
                }
            }
        }
        let mut call = UnresolvedCall::new(
            span(n),
            format!("connection string `{name}` read in C#{UNRESOLVED}"),
        );
        call.client = Some(c);
        call.policies = policies;
        call.protocol = Some(crate::model::calls::Protocol::Sql);
        facts.unresolved.push(call);
    }
}

/// An Aspire `Add*DbContext<T>("name")`: Aspire reads the connection
/// string by that name itself; the integration's retry (or the options
/// action's own `EnableRetryOnFailure`), scoped to the connection
/// ([`super::efcore::db_client`]), is the call's.
fn aspire(n: Node<'_>, name: &str, seen: &mut Vec<String>, facts: &mut Facts) {
    let c = client(name);
    if seen.contains(&c) {
        return;
    }
    seen.push(c.clone());
    let scope = Some(ClientScope::Named(super::efcore::db_client(name)));
    let policies = facts
        .policies
        .iter()
        .enumerate()
        .filter(|(_, p)| p.system == System::EfCore && p.scope.client == scope)
        .map(|(i, _)| i)
        .collect();
    let mut call = UnresolvedCall::new(
        super::resilience::call_span(n),
        format!("connection string `{name}` read in C#{UNRESOLVED}"),
    );
    call.client = Some(c);
    call.policies = policies;
    call.protocol = Some(crate::model::calls::Protocol::Sql);
    facts.unresolved.push(call);
}

/// The `DbContext` type a provider call configures: `T` of the
/// `AddDbContext<T>(..)` (or its pool and factory forms) it is written in.
fn registered_context<'a>(ctx: &Ctx<'a>, provider: Node<'a>) -> Option<&'a str> {
    let mut cur = ctx.parent(provider);
    for _ in 0..MAX_CLIMB {
        let c = cur?;
        if c.kind_str() == "invocation_expression"
            && method(ctx, c).is_some_and(|(m, _)| {
                matches!(
                    m,
                    "AddDbContext"
                        | "AddDbContextPool"
                        | "AddDbContextFactory"
                        | "AddPooledDbContextFactory"
                )
            })
        {
            return super::type_args(ctx, c).first().copied();
        }
        if c.kind_str().ends_with("_declaration") {
            return None;
        }
        cur = ctx.parent(c);
    }
    None
}

/// The connection name `n` reads, if it reads one.
fn read_name(ctx: &Ctx<'_>, n: Node<'_>) -> Option<String> {
    match n.kind_str() {
        "invocation_expression" => {
            let (m, _) = method(ctx, n)?;
            if m != "GetConnectionString" {
                return None;
            }
            let a = args(ctx, n);
            super::calls::string(ctx, a.first()?.1, 0)
        }
        // `configuration["ConnectionStrings:Orders"]`
        "element_access_expression" => {
            let sub = field(n, "subscript")?;
            let arg = super::named_children(sub)
                .into_iter()
                .find(|a| a.kind_str() == "argument")?;
            let key = super::calls::string(ctx, *super::named_children(arg).last()?, 0)?;
            let (section, name) = key.split_once(':')?;
            section
                .eq_ignore_ascii_case("ConnectionStrings")
                .then(|| name.to_string())
        }
        _ => None,
    }
}

/// The EF Core provider calls the read at `n` is handed to: the one it is
/// an argument of, else those given the local it initialises.
fn providers<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Vec<Node<'a>> {
    let is_provider = |x: Node<'_>| {
        x.kind_str() == "invocation_expression"
            && method(ctx, x).is_some_and(|(m, _)| SERVERS.contains(&m) || IN_PROCESS.contains(&m))
    };
    let mut cur = ctx.parent(n);
    for _ in 0..MAX_CLIMB {
        let Some(c) = cur else { break };
        if is_provider(c) {
            return vec![c];
        }
        match c.kind_str() {
            "variable_declarator" => {
                let Some(var) = field(c, "name").map(|v| ctx.text(v)) else {
                    break;
                };
                return ctx
                    .nodes
                    .iter()
                    .copied()
                    .filter(|x| is_provider(*x))
                    .filter(|x| {
                        args(ctx, *x)
                            .first()
                            .is_some_and(|(_, v)| ctx.text(*v).trim() == var)
                    })
                    .collect();
            }
            k if k.ends_with("_statement") || k.ends_with("_declaration") => break,
            _ => {}
        }
        cur = ctx.parent(c);
    }
    Vec::new()
}
