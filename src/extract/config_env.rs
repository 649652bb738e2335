//! Environment entries of a workload (a Kubernetes container's `env`, a
//! compose service's `environment`) that a .NET program reads as
//! configuration: ASP.NET Core's environment variables configuration
//! provider maps `Services__Orders` to the key `Services:Orders` (`__`
//! is the section separator; keys ignore case) and, added after the
//! `appsettings*.json` files, wins over them
//! (dotnet/runtime `src/libraries/Microsoft.Extensions.Configuration.EnvironmentVariables/src/EnvironmentVariablesConfigurationProvider.cs`,
//! `NormalizeKey`: `key.Replace("__", ConfigurationPath.KeyDelimiter)`;
//! `WebApplicationBuilder` adds it after the JSON files).
//!
//! The workload reader cannot know which program reads an entry, so each
//! entry that may be one is kept as a stand-in edge (no caller; the
//! workload and the key in its client, the value as written in its
//! callee) for the link step (`systems::csharp::env`), which gives it to
//! the programs the workload runs and drops every stand-in.

use crate::model::{CallEdge, Facts};

/// How the client of a stand-in begins: the workload's name, a tab, the
/// variable's name follow.
pub const CLIENT: &str = "configuration env:";

/// The stand-ins one file may hold.
const MAX_ENTRIES: usize = 512;

/// The longest value kept (a connection string is long).
const MAX_VALUE: usize = 2048;

/// Whether a variable's name is written as .NET configuration is: a
/// hierarchical key (`ApiSettings__GatewayAddress`) or a key in its own
/// case (`IdentityUrl`). A Unix-style upper-case name (`ORDERS_URL`)
/// is another program's.
fn is_config_name(key: &str) -> bool {
    key.contains("__") || key.chars().any(|c| c.is_ascii_lowercase())
}

/// Whether an edge is a stand-in of [`record`].
pub fn is_stand_in(e: &CallEdge) -> bool {
    e.caller.is_none() && e.client.as_deref().is_some_and(|c| c.starts_with(CLIENT))
}

/// The (workload, variable) of a stand-in's client.
pub fn parts(client: &str) -> Option<(&str, &str)> {
    client.strip_prefix(CLIENT)?.split_once('\t')
}

/// Keep `key = value` of workload `caller` as a stand-in, when it may be
/// a .NET configuration key.
pub fn record(caller: &str, key: &str, value: &str, span: crate::source::Span, facts: &mut Facts) {
    let value = value.trim();
    if !is_config_name(key)
        || key.len() > 256
        || value.is_empty()
        || value.len() > MAX_VALUE
        || caller.contains('\t')
        || key.contains(['\t', ' '])
        || value.contains("${")
        || facts.edges.iter().filter(|e| is_stand_in(e)).count() >= MAX_ENTRIES
    {
        return;
    }
    facts.edges.push(CallEdge {
        caller: None,
        callee: value.to_string(),
        span,
        policies: Vec::new(),
        via: format!("configuration `{key}` in the environment"),
        client: Some(format!("{CLIENT}{caller}\t{key}")),
        protocol: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_written_as_configuration() {
        for k in [
            "ApiSettings__GatewayAddress",
            "IdentityUrl",
            "SERVICES__ORDERS",
        ] {
            assert!(is_config_name(k), "{k}");
        }
        for k in ["ORDERS_URL", "ASPNETCORE_URLS", "PORT"] {
            assert!(!is_config_name(k), "{k}");
        }
        let mut facts = Facts::default();
        let span = crate::source::Span::new(0, 1);
        record(
            "web",
            "ApiSettings__GatewayAddress",
            "http://gw:8080",
            span,
            &mut facts,
        );
        record("web", "ORDERS_URL", "http://orders", span, &mut facts);
        record("web", "Orders__Url", "${ORDERS}", span, &mut facts);
        assert_eq!(facts.edges.len(), 1);
        let e = &facts.edges[0];
        assert!(is_stand_in(e));
        assert_eq!(
            parts(e.client.as_deref().unwrap()),
            Some(("web", "ApiSettings__GatewayAddress"))
        );
        assert_eq!(e.callee, "http://gw:8080");
    }
}
