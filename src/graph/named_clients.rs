//! The retry configuration of named clients per service: Spring Cloud
//! OpenFeign's `client.config.<client>`, a .NET handler on
//! `AddHttpClient<T>`, a `Retryer` bean; read by the graph builder for the
//! calls made through each client.

use super::identity::Builder;
use super::layers::{is_source, used_by_calls};
use super::*;

/// Policies configured per (service, name): Resilience4j instances,
/// named HTTP clients.
pub(super) type Named = BTreeMap<(String, String), (FileId, usize)>;

/// Named HTTP clients configured per service (Spring Cloud OpenFeign
/// `client.config.<client>.retryer`): (service, client) -> the policy;
/// the client `default` applies to every client without its own. And a
/// `Retryer` bean in a service's code (built in a `@Bean` method, used by
/// no call of its own file), which is every named client's retryer there
/// unless the client's or the `default` configuration sets one (Spring
/// Cloud OpenFeign applies properties over configuration beans).
pub(super) fn named_clients(b: &Builder<'_>) -> (Named, BTreeMap<String, (FileId, usize)>) {
    let mut clients: Named = BTreeMap::new();
    let mut beans: BTreeMap<String, (FileId, usize)> = BTreeMap::new();
    for (id, f) in b.files.iter().enumerate() {
        if !f.facts.policies.iter().any(|p| p.scope.client.is_some()) {
            continue;
        }
        if is_source(f) {
            let used = used_by_calls(f);
            if let Some(owner) = b.file_owner(id)
                && let Some(i) = f.facts.policies.iter().enumerate().position(|(i, p)| {
                    p.scope.client == Some(ClientScope::Bean) && !used.contains(&i)
                })
            {
                beans.entry(owner).or_insert((id, i));
            }
            // Source that names the client it configures (a .NET handler
            // on `AddHttpClient<T>` or on every client) is read below as
            // properties are.
            if !f
                .facts
                .policies
                .iter()
                .any(|p| matches!(p.scope.client, Some(ClientScope::Named(_))))
            {
                continue;
            }
        }
        // A file of a shared build unit (a C# project others reference)
        // configures the clients of each program that builds it.
        let owners: Vec<String> = match b.file_owners(id) {
            o if !o.is_empty() => o,
            _ => f
                .facts
                .services
                .iter()
                .filter(|s| s.kind == crate::model::calls::IdentityKind::BuildUnit)
                .map(|s| b.canonical(&s.name))
                .collect(),
        };
        // A copy of a policy made for one program (its `scope.caller`:
        // a shared handler that program's options configure, at the
        // policy's own place) is that program's, before the policy the
        // others run.
        let copy = |p: &crate::model::RetryPolicy| {
            p.scope.caller.is_some()
                && f.facts
                    .policies
                    .iter()
                    .any(|q| q.scope.caller.is_none() && q.span == p.span && q.name == p.name)
        };
        for owner in owners {
            for own in [true, false] {
                for (i, p) in f.facts.policies.iter().enumerate() {
                    let mine = copy(p);
                    if mine != own
                        || (mine
                            && p.scope.caller.as_ref().map(|c| b.canonical(c))
                                != Some(owner.clone()))
                    {
                        continue;
                    }
                    if let Some(ClientScope::Named(client)) = &p.scope.client {
                        clients
                            .entry((owner.clone(), client.clone()))
                            .or_insert((id, i));
                    }
                }
            }
        }
    }
    (clients, beans)
}
