//! Azure Service Bus (`Azure.Messaging.ServiceBus`): the retry every
//! `ServiceBusClient` makes around its operations
//! (`ServiceBusClientOptions.RetryOptions`: `MaxRetries`, `Delay`,
//! `MaxDelay`, `Mode`, `TryTimeout`, each at the library's default when
//! not written), and the queues and topics a program sends to
//! (`client.CreateSender("orders")`: an AMQP call to `orders` through the
//! client, [`SERVICE_BUS`]) or receives from (`CreateProcessor("orders")`,
//! `CreateReceiver("orders")`: a [`CONSUMER`] declaration, which the link
//! step names on the senders' edges: `systems::csharp::link::service_bus`).
//! A name chosen at run time between constants (`isPriority ? A : B`)
//! gives an edge to each.
//!
//! Defaults and sources: [`crate::systems::csharp`] (`SERVICE_BUS_*`).

use super::{Ctx, args, calls, field, method, sdk, span};
use crate::model::calls::{IdentityKind, Placement, Protocol, ServiceDecl};
use crate::model::*;
use crate::source::Span;
use crate::systems::csharp::extract::Kind as _;
use crate::systems::csharp::{
    SERVICE_BUS_DEFAULT_DELAY, SERVICE_BUS_DEFAULT_MAX_DELAY, SERVICE_BUS_DEFAULT_MAX_RETRIES,
    SERVICE_BUS_DEFAULT_TRY_TIMEOUT, SERVICE_BUS_JITTER,
};
use tree_sitter::Node;

/// The client name that joins a Service Bus client's retry to the sends
/// its program makes ([`ClientScope::Named`], [`CallEdge::client`]).
pub const SERVICE_BUS: &str = "Azure Service Bus";

/// The `source` of a [`ServiceDecl`] naming a queue or topic a program
/// receives from.
pub const CONSUMER: &str = "Azure Service Bus receiver";

/// `ServiceBusRetryOptions` properties.
const KEYS: &[&str] = &["MaxRetries", "Delay", "MaxDelay", "Mode", "TryTimeout"];

/// Calls that build a client: the Azure client factory's
/// (`Microsoft.Extensions.Azure`) and .NET Aspire's.
const FACTORY: &[&str] = &[
    "AddServiceBusClient",
    "AddServiceBusClientWithNamespace",
    "AddAzureServiceBusClient",
];

/// Calls that receive from their first argument, a queue or topic.
const RECEIVERS: &[&str] = &[
    "CreateProcessor",
    "CreateReceiver",
    "CreateSessionProcessor",
    "AcceptNextSessionAsync",
    "AcceptSessionAsync",
];

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    let mut client: Option<Span> = None;
    let mut settings: Vec<(&str, Node<'_>, Span)> = Vec::new();
    for &n in &ctx.nodes {
        match n.kind_str() {
            "object_creation_expression"
                if field(n, "type").is_some_and(|t| {
                    ctx.text(t).rsplit('.').next() == Some("ServiceBusClient")
                }) =>
            {
                client.get_or_insert(span(n));
            }
            "invocation_expression" => {
                let Some((m, _)) = method(ctx, n) else {
                    continue;
                };
                if FACTORY.contains(&m) {
                    client.get_or_insert(super::resilience::call_span(n));
                } else if m == "CreateSender" || RECEIVERS.contains(&m) {
                    entity(ctx, n, m, facts);
                }
            }
            "assignment_expression" => {
                if let Some(s) = setting(ctx, n) {
                    settings.push(s);
                }
            }
            _ => {}
        }
    }
    let Some(anchor) = client else { return };
    policy(ctx, anchor, &settings, facts);
}

/// A `ServiceBusRetryOptions` property set: `o.RetryOptions.MaxRetries =
/// 5`, or `MaxRetries = 5` in `RetryOptions = { .. }` or in `new
/// ServiceBusRetryOptions { .. }`.
fn setting<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<(&'a str, Node<'a>, Span)> {
    let (l, r) = (field(n, "left")?, field(n, "right")?);
    let path: Vec<&str> = ctx.text(l).split('.').map(str::trim).collect();
    let (&key, before) = path.split_last()?;
    if !KEYS.contains(&key) {
        return None;
    }
    let ours = if before.last() == Some(&"RetryOptions") {
        true
    } else if before.is_empty() {
        let init = n
            .parent()
            .filter(|p| p.kind_str() == "initializer_expression")?;
        let owner = init.parent()?;
        match owner.kind_str() {
            "assignment_expression" => field(owner, "left")
                .is_some_and(|x| ctx.text(x).trim().rsplit('.').next() == Some("RetryOptions")),
            "object_creation_expression" => field(owner, "type")
                .is_some_and(|t| ctx.text(t).rsplit('.').next() == Some("ServiceBusRetryOptions")),
            _ => false,
        }
    } else {
        false
    };
    ours.then(|| (key, r, span(l).cover(span(r))))
}

/// A sender's edge to its queue or topic, or a receiver's declaration.
fn entity(ctx: &Ctx<'_>, n: Node<'_>, m: &str, facts: &mut Facts) {
    let Some((_, a)) = args(ctx, n).into_iter().next() else {
        return;
    };
    let mut found = Vec::new();
    names(ctx, a, 0, &mut found);
    for name in found {
        entity_named(a, m, name, facts);
    }
}

/// The queue or topic names an argument gives: a string, a name bound to
/// one, or each branch of `isPriority ? PriorityQueue : StandardQueue`.
fn names(ctx: &Ctx<'_>, n: Node<'_>, depth: usize, out: &mut Vec<String>) {
    if depth > super::MAX_DEPTH || out.len() >= MAX_NAMES {
        return;
    }
    match n.kind_str() {
        "conditional_expression" => {
            for f in ["consequence", "alternative"] {
                if let Some(b) = field(n, f) {
                    names(ctx, b, depth + 1, out);
                }
            }
        }
        "parenthesized_expression" => {
            if let Some(inner) = n.named_child(0) {
                names(ctx, inner, depth + 1, out);
            }
        }
        "identifier" => {
            if let Some(b) = ctx.binding(ctx.text(n), n.start_byte()) {
                names(ctx, b, depth + 1, out);
            }
        }
        // `Queues.Orders`: this file's constant, else another file's,
        // left as [`CONSTANT`] for the link step to find.
        "member_access_expression" => {
            let (Some(owner), Some(name)) = (field(n, "expression"), field(n, "name")) else {
                return;
            };
            let owner = ctx.text(owner).rsplit('.').next().unwrap_or("").trim();
            let name = ctx.text(name).trim();
            if let Some(b) = ctx.binding(name, n.start_byte())
                && crate::systems::csharp::link_programs::declares(ctx.src, owner)
            {
                names(ctx, b, depth + 1, out);
            } else if is_name(owner) && is_name(name) {
                let placeholder = format!("{CONSTANT}{owner}.{name}");
                if !out.contains(&placeholder) {
                    out.push(placeholder);
                }
            }
        }
        _ => {
            if let Some(s) = calls::string(ctx, n, depth)
                && !s.is_empty()
                && !s.contains('{')
                && !out.contains(&s)
            {
                out.push(s);
            }
        }
    }
}

/// The start of a queue name that is another class's constant
/// (`const:Queues.Orders`), resolved by `systems::csharp::link::service_bus`
/// (a `:` is in no Service Bus entity name).
pub const CONSTANT: &str = "const:";

/// Whether `s` is a C# identifier.
fn is_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// At most this many queue names are read from one argument.
const MAX_NAMES: usize = 16;

fn entity_named(a: Node<'_>, m: &str, name: String, facts: &mut Facts) {
    if m == "CreateSender" {
        facts.edges.push(CallEdge {
            caller: None,
            callee: name,
            span: span(a),
            policies: Vec::new(),
            via: "ServiceBusSender in C#".into(),
            client: Some(SERVICE_BUS.into()),
            protocol: Some(Protocol::Amqp),
        });
    } else {
        facts.services.push(ServiceDecl {
            name,
            span: span(a),
            source: CONSUMER.into(),
            kind: IdentityKind::Upstream,
            hosts: Vec::new(),
            placement: Placement {
                protocol: Some(Protocol::Amqp),
                ..Placement::default()
            },
            request_timeout: None,
        });
    }
}

fn written<'a>(g: &[(&str, Node<'a>, Span)], key: &str) -> Option<(Node<'a>, Span)> {
    g.iter()
        .rev()
        .find(|(k, _, _)| *k == key)
        .map(|(_, v, s)| (*v, *s))
}

/// The client's retry: `BasicRetryPolicy` over `ServiceBusRetryOptions`.
fn policy(ctx: &Ctx<'_>, anchor: Span, g: &[(&str, Node<'_>, Span)], facts: &mut Facts) {
    let attempts = super::retries_or_default(
        ctx,
        written(g, "MaxRetries"),
        ("MaxRetries", " = "),
        SERVICE_BUS_DEFAULT_MAX_RETRIES,
        anchor,
        Some(
            "`ServiceBusRetryOptions.MaxRetries` must be 0 to 100: the setter throws `ArgumentOutOfRangeException`",
        ),
        facts,
    );
    let mut p = RetryPolicy::new(System::AzureSdk, anchor, attempts);
    p.name = Some("ServiceBusClientOptions.RetryOptions".into());
    p.scope.client = Some(ClientScope::Named(SERVICE_BUS.into()));
    let lookup = |key: &str| written(g, key);
    let (base, cap, fixed, delay_at) = sdk::delays(
        ctx,
        lookup,
        (SERVICE_BUS_DEFAULT_DELAY, SERVICE_BUS_DEFAULT_MAX_DELAY),
    );
    let jitter = Jitter::Proportional {
        factor: SERVICE_BUS_JITTER,
    };
    // A zero `Delay` or `MaxDelay` ends the retries
    // (`CalculateRetryDelay` returns null).
    let (delay, jitter) = match (fixed, base, cap) {
        (_, Some(d), Some(c)) if d.is_zero() || c.is_zero() => {
            p.attempts.value.count = AttemptCount::Finite(1);
            (Delay::None, Jitter::None)
        }
        (Some(true), Some(d), _) => (Delay::Fixed { delay: d }, jitter),
        // `2^attempt x Delay` for attempt 1, 2, ..: the first retry waits
        // twice `Delay`; at most `MaxDelay`.
        (Some(false), Some(d), c) => (
            Delay::Exponential {
                base: d * 2,
                multiplier: 2.0,
                cap: c,
            },
            jitter,
        ),
        _ => (Delay::Unknown, Jitter::Unknown),
    };
    let shape = sdk::AzureShape {
        delay: (delay, jitter, delay_at),
        try_timeout: sdk::written_duration(
            ctx,
            lookup("TryTimeout"),
            SERVICE_BUS_DEFAULT_TRY_TIMEOUT,
        ),
        retried: "transient Service Bus errors, timeouts and I/O errors",
        // Sends and settlements, not HTTP methods.
        methods: Methods::Unknown,
    };
    facts.policies.push(shape.apply(p, anchor));
}
