//! RabbitMQ.Client's connection recovery with no pause between attempts:
//! `NetworkRecoveryInterval = TimeSpan.Zero` on a `ConnectionFactory`
//! (its initializer, or `factory.NetworkRecoveryInterval = ..`). Recovery
//! is on by default (`AutomaticRecoveryEnabled`), and its loop waits the
//! interval before each attempt and goes round until one succeeds
//! (rabbitmq/rabbitmq-dotnet-client, commit 035bb900c2e3f4d92b275ddc0b0a27b110a45672,
//! `projects/RabbitMQ.Client/client/impl/AutorecoveringConnection.Recovery.cs`,
//! `RecoverConnectionAsync`: `do { await Task.Delay(_config.NetworkRecoveryInterval, token);
//! success = await TryPerformAutomaticRecoveryAsync(token); } while (!success && ..)`):
//! a zero interval reconnects in a tight loop against a broker that is
//! down. Recovering connections are not call retries (architecture: the
//! .NET decision), so this is RL902's, not a policy; a factory that turns
//! recovery off (`AutomaticRecoveryEnabled = false`) is left alone.

use super::{Ctx, eval, field, named_children, span};
use crate::diag::invalid_setting;
use crate::model::Facts;
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

const KEY: &str = "NetworkRecoveryInterval";
const OFF: &str = "AutomaticRecoveryEnabled";

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    if !ctx.src.contains(KEY) {
        return;
    }
    for &n in &ctx.nodes {
        if n.kind_str() != "assignment_expression" {
            continue;
        }
        let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else {
            continue;
        };
        let (receiver, name) = match l.kind_str() {
            "identifier" => (None, ctx.text(l)),
            "member_access_expression" => (
                field(l, "expression").map(|e| ctx.text(e).trim()),
                field(l, "name").map_or("", |x| ctx.text(x)),
            ),
            _ => continue,
        };
        if name != KEY || eval::duration(ctx, r).is_none_or(|d| !d.is_zero()) {
            continue;
        }
        if recovery_off(ctx, n, receiver) {
            continue;
        }
        facts.diagnostics.push(invalid_setting::misread(
            span(n),
            KEY,
            super::one_line(ctx.text(r)).as_str(),
            "RabbitMQ.Client's connection recovery waits this long before each attempt and tries until one succeeds: with no wait it reconnects in a tight loop for as long as the broker is down",
            "give the recovery a pause, such as the client's default `TimeSpan.FromSeconds(5)`",
        ));
    }
}

/// Whether the same factory sets `AutomaticRecoveryEnabled = false`: in
/// the initializer holding `set`, or on the same receiver in the file.
fn recovery_off(ctx: &Ctx<'_>, set: Node<'_>, receiver: Option<&str>) -> bool {
    let is_off = |a: Node<'_>, want_recv: Option<&str>| {
        let (Some(l), Some(r)) = (field(a, "left"), field(a, "right")) else {
            return false;
        };
        let (recv, name) = match l.kind_str() {
            "identifier" => (None, ctx.text(l)),
            "member_access_expression" => (
                field(l, "expression").map(|e| ctx.text(e).trim()),
                field(l, "name").map_or("", |x| ctx.text(x)),
            ),
            _ => return false,
        };
        name == OFF && recv == want_recv && eval::boolean(ctx, r) == Some(false)
    };
    match receiver {
        None => set.parent().is_some_and(|init| {
            named_children(init)
                .into_iter()
                .any(|a| a.kind_str() == "assignment_expression" && is_off(a, None))
        }),
        Some(recv) => ctx
            .nodes
            .iter()
            .any(|&a| a.kind_str() == "assignment_expression" && is_off(a, Some(recv))),
    }
}
