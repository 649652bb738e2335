//! AMQP and NATS clients (issue 17, stop 44): `amqp.Dial(url)`,
//! `amqp.DialTLS(url, ..)`, `amqp.DialConfig(url, ..)` (streadway/amqp
//! and rabbitmq/amqp091-go) and `nats.Connect(url, ..)` (nats-io/nats.go)
//! open a connection to a broker: an edge with the AMQP protocol (NATS: a
//! TCP protocol of its own), which no L7 layer retries. A retry around
//! the dial (a hand-written loop dialing again until the broker answers)
//! opens the connection again, not a call sent over it: the edge carries
//! none (architecture: connections that recover are not call retries).
//!
//! The address is a literal, `os.Getenv("X")` (or what is built on it:
//! `fmt.Sprintf("amqp://guest:guest@%s:5672/", host)`), a struct field
//! another file fills, or a parameter of the function, followed to the
//! arguments its callers in the file pass, up to [`MAX_HOPS`] functions
//! deep (instana/robot-shop's dispatch: `amqp.Dial(uri)` in
//! `connectToRabbitMQ(uri)`, called from `rabbitConnector(uri)`, started
//! by `main` with a package variable built on `AMQP_HOST`).

use super::super::envs::{getenv, param_index};
use super::super::{Ctx, Pkg, RetryScope, args, enclosing_function, eval, field, span};
use super::sarama::Target;
use crate::model::calls::{CallEdge, Protocol, UnresolvedCall, short_host};
use crate::model::{Facts, GoField, GoFieldKind};
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// Functions a parameter is followed through, at most.
const MAX_HOPS: usize = 3;
/// Addresses read for one dial, at most.
const MAX_SOURCES: usize = 16;

/// Every dial the file makes.
pub(in super::super) fn extract(ctx: &Ctx<'_>, facts: &mut Facts, _scopes: &[RetryScope]) {
    if !ctx.imports(Pkg::Amqp) && !ctx.imports(Pkg::Nats) {
        return;
    }
    for &n in &ctx.calls {
        let (protocol, via) = match ctx.pkg_call(n) {
            Some((Pkg::Amqp, name @ ("Dial" | "DialTLS" | "DialConfig"))) => {
                (Protocol::Amqp, format!("amqp.{name}() in Go"))
            }
            Some((Pkg::Nats, "Connect")) => (Protocol::Tcp, "nats.Connect() in Go".to_string()),
            _ => continue,
        };
        let Some(&url) = args(n).first() else {
            continue;
        };
        let mut sources = Vec::new();
        sources_of(ctx, url, 0, &mut sources);
        for e in sources {
            let Some((target, default)) = target(ctx, e) else {
                continue;
            };
            push(facts, target, default, &via, protocol);
        }
    }
}

/// The expressions an address comes from: itself, or for a parameter of
/// the function around it, each caller's argument in the file (followed
/// again when that is a parameter too).
fn sources_of<'a>(ctx: &Ctx<'a>, n: Node<'a>, hops: usize, out: &mut Vec<Node<'a>>) {
    if out.len() >= MAX_SOURCES {
        return;
    }
    let param = n.kind_name() == "identifier" && ctx.binding(ctx.text(n), n.start_byte()).is_none();
    let f = enclosing_function(n).filter(|f| f.kind_name() == "function_declaration");
    let (Some(f), true) = (f, param && hops < MAX_HOPS) else {
        out.push(n);
        return;
    };
    let (Some(fname), Some(index)) = (
        field(f, "name").map(|x| ctx.text(x)),
        param_index(ctx, f, ctx.text(n)),
    ) else {
        out.push(n);
        return;
    };
    // Its callers may sit in a blanked body.
    ctx.need_words.borrow_mut().push(format!("{fname}("));
    for &c in &ctx.calls {
        if out.len() >= MAX_SOURCES {
            break;
        }
        if field(c, "function")
            .is_some_and(|x| x.kind_name() == "identifier" && ctx.text(x) == fname)
            && let Some(&a) = args(c).get(index)
        {
            sources_of(ctx, a, hops + 1, out);
        }
    }
}

/// One address: a known host, a variable (with the host it holds where
/// the variable is unset), or a field another file fills.
fn target(ctx: &Ctx<'_>, e: Node<'_>) -> Option<(Target, Option<String>)> {
    let host = eval::string(ctx, e).and_then(|s| broker_host(&s));
    if let Some(env) = getenv(ctx, e) {
        return Some((Target::Env(env, span(e)), host));
    }
    if let Some(host) = host {
        return Some((Target::Host(host, span(e)), None));
    }
    super::super::calls::other_files_field(ctx, e).map(|name| {
        (
            Target::Field(name.to_string(), ctx.text(e).to_string(), span(e)),
            None,
        )
    })
}

/// The host of a broker address: the first of a list, after the scheme
/// and the user's name and password (`amqp://guest:guest@rabbitmq:5672/`,
/// `nats://a:4222,nats://b:4222`).
fn broker_host(s: &str) -> Option<String> {
    let first = s.split(',').next().unwrap_or(s);
    let rest = first.split_once("://").map_or(first, |(_, r)| r);
    let authority = rest.split(['/', '?']).next().unwrap_or(rest);
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    eval::host_of(host)
}

/// The edge, or the call the link step resolves.
fn push(facts: &mut Facts, target: Target, default: Option<String>, via: &str, protocol: Protocol) {
    match target {
        Target::Host(host, at) => facts.edges.push(CallEdge {
            caller: None,
            callee: short_host(&host),
            span: at,
            policies: Vec::new(),
            via: via.to_string(),
            client: None,
            protocol: Some(protocol),
        }),
        Target::Env(env, at) => {
            let mut u = UnresolvedCall::new(at, format!("env {env}"));
            u.protocol = Some(protocol);
            u.if_unset = default.map(|h| short_host(&h));
            facts.unresolved.push(u);
        }
        Target::Field(name, written, at) => {
            facts.go_fields.push(GoField {
                field: name,
                kind: GoFieldKind::Target {
                    unresolved: facts.unresolved.len(),
                },
            });
            let mut u = UnresolvedCall::new(at, written);
            u.protocol = Some(protocol);
            facts.unresolved.push(u);
        }
    }
}
