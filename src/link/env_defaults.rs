//! A call target read from an environment variable with a default written
//! in code (`os.getenv("CART_HOST", "cart")`, Java's
//! `System.getenv("DB_HOST") == null ? "mysql" : ..`, Go's
//! `if !ok { host = "rabbitmq" }`): the readers list it as `env X` with
//! the default beside it ([`crate::model::UnresolvedCall::if_unset`]).
//! An entry of the caller's workload that sets `X` wins
//! (`spring_env::var_edges`); where none does, the program calls its
//! default. An nginx template's variable takes its default from the
//! image's `ENV` (`image_env`).

use crate::model::{CallEdge, UnresolvedCall};

/// The edge to the default `callee` of the `env var` target `u`. Its
/// `via` names the variable without the ``env `X` `` form, which stands
/// for a workload's own entry.
pub(super) fn edge(var: &str, callee: &str, u: &UnresolvedCall) -> CallEdge {
    CallEdge {
        caller: None,
        callee: callee.to_string(),
        span: u.span,
        policies: u.policies.clone(),
        via: format!("default of `{var}` (no workload sets it)"),
        client: u.client.clone(),
        protocol: u
            .protocol
            .or_else(|| crate::model::calls::Protocol::of_target(callee)),
    }
}
