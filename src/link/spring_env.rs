//! A Spring placeholder call target set by the workload's environment
//! (issue 17): `@Value("${inventory.service.url}")` in the order service,
//! and its Kubernetes Deployment (or compose service) setting
//! `INVENTORY_SERVICE_URL`. Spring Boot binds an environment variable to
//! the property whose name, upper-cased with `.` as `_` and `-` dropped,
//! is the variable's (`SystemEnvironmentPropertyMapper`, spring-boot
//! 3.x `org/springframework/boot/context/properties/source/
//! SystemEnvironmentPropertyMapper.java`; the reference's "Binding From
//! Environment Variables"), and Spring Framework's
//! `SystemEnvironmentPropertySource` also with `-` as `_`; the OS
//! environment is above every `application*` file. So a placeholder whose
//! key one of the unit's workloads sets calls what that entry names,
//! whatever the files say (`localhost` for a developer's run).
//!
//! Only a placeholder that supplies the host (`${k}` at the start, or
//! right after `scheme://`) is joined: the callee is the host of the
//! environment entry, as the workload's own edge names it.

use super::*;
use crate::extract::workload::env_name_of;
use crate::model::CallEdge;
use std::collections::HashMap;

/// Environment entries that name a host, by (service, variable): the
/// callees and where each is set (`path:line`).
pub(super) type WorkloadEnv = HashMap<(String, String), Vec<(String, String)>>;

/// Every workload's and compose service's environment entry that the
/// workload reader made an edge of.
pub(super) fn gather(files: &[ScannedFile]) -> WorkloadEnv {
    let mut out: WorkloadEnv = HashMap::new();
    for f in files {
        for e in &f.facts.edges {
            let (Some(caller), Some(env)) = (&e.caller, env_name_of(&e.via)) else {
                continue;
            };
            let at = place(f, e.span);
            let v = out.entry((caller.clone(), env.to_string())).or_default();
            let item = (e.callee.clone(), format!("{}:{}", at.path, at.line));
            if !v.contains(&item) {
                v.push(item);
            }
        }
    }
    out
}

/// The environment entries that set a key a program reads only into its
/// API's description (`SWAGGER_API_GATEWAY_URL` for
/// `@Value("${swagger.api-gateway-url}")` given to an OpenAPI `Server`,
/// `extract::calls::doc_fields`), dropped: the program never calls that
/// address. `documented` holds each program's names (its unit, its
/// workloads) and the keys.
pub(super) fn drop_documented(
    files: &mut [ScannedFile],
    documented: &[(Vec<String>, Vec<String>)],
) {
    if documented.is_empty() {
        return;
    }
    let mut drop: std::collections::HashSet<(String, String)> = Default::default();
    for (names, keys) in documented {
        for key in keys {
            for var in env_names(key) {
                for name in names {
                    drop.insert((name.clone(), var.clone()));
                }
            }
        }
    }
    for f in files.iter_mut() {
        f.facts.edges.retain(|e| {
            let (Some(caller), Some(var)) = (&e.caller, env_name_of(&e.via)) else {
                return true;
            };
            !drop.contains(&(caller.clone(), var.to_string()))
        });
    }
}

/// The environment variable names Spring binds to `key`: its name with
/// `-` dropped, and the legacy form with `-` as `_`, each segment taken
/// in its dashed form first (`catalogServiceUri` is
/// `catalog-service-uri`, the name a `@ConfigurationProperties` member is
/// bound by: spring-boot `DataObjectPropertyName.toDashedForm`), so that
/// `POLAR_CATALOG_SERVICE_URI` sets `polar.catalogServiceUri`
/// (spring-boot 3.x `SystemEnvironmentPropertyMapper` `convertName` and
/// `convertLegacyName`).
fn env_names(key: &str) -> Vec<String> {
    let dashed: String = key
        .split('.')
        .map(dashed_form)
        .collect::<Vec<_>>()
        .join(".");
    let upper = dashed.to_ascii_uppercase().replace('.', "_");
    let mut out = vec![upper.replace('-', ""), upper.replace('-', "_")];
    out.dedup();
    out
}

/// `catalogServiceUri` -> `catalog-service-uri`; a name already dashed or
/// lower-case is unchanged.
fn dashed_form(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len() + 4);
    let mut prev_lower = false;
    for c in segment.chars() {
        if c.is_ascii_uppercase() && prev_lower {
            out.push('-');
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The edges `template` gets from the environment of the services in
/// `names` (the calling unit's), if one of them sets its host's key.
pub(super) fn edges(
    env: &WorkloadEnv,
    names: &[String],
    template: &str,
    u: &crate::model::UnresolvedCall,
) -> Option<Vec<CallEdge>> {
    let rest = match template.split_once("://") {
        Some((scheme, rest)) if !scheme.contains('$') => rest,
        _ => template,
    };
    let key = rest
        .strip_prefix("${")?
        .split([':', '}'])
        .next()
        .filter(|k| !k.is_empty())?;
    lookup(env, names, &env_names(key), &format!("`{template}` = "), u)
}

/// The edges a call whose target is the environment variable `var` as
/// the program reads it (`env X`: Go's `os.Getenv("X")`, Python's
/// `os.environ["X"]`, Java's `System.getenv("X")`) gets from the
/// environment of the services in `names`, if one of them sets it.
pub(super) fn var_edges(
    env: &WorkloadEnv,
    names: &[String],
    var: &str,
    u: &crate::model::UnresolvedCall,
) -> Option<Vec<CallEdge>> {
    lookup(env, names, &[var.to_string()], "", u)
}

fn lookup(
    env: &WorkloadEnv,
    names: &[String],
    vars: &[String],
    shown: &str,
    u: &crate::model::UnresolvedCall,
) -> Option<Vec<CallEdge>> {
    let mut out: Vec<CallEdge> = Vec::new();
    for name in names {
        for var in vars {
            for (callee, at) in env.get(&(name.clone(), var.clone())).into_iter().flatten() {
                if out.iter().any(|e| &e.callee == callee) {
                    continue;
                }
                out.push(CallEdge {
                    caller: None,
                    callee: callee.clone(),
                    span: u.span,
                    policies: Vec::new(),
                    via: format!("{shown}env `{var}` of `{name}` ({at})"),
                    client: u.client.clone(),
                    protocol: u.protocol,
                });
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The (variable, service) of an edge [`edges`] made, from its `via`.
fn joined(via: &str) -> Option<(&str, &str)> {
    let (_, rest) = via.split_once("= env `")?;
    let (var, rest) = rest.split_once("` of `")?;
    let (name, _) = rest.split_once('`')?;
    Some((var, name))
}

/// A data-store setting whose placeholder a workload's env entry sets
/// (`spring.redis.host: ${REDIS_HOST}`, `REDIS_HOST: payments-redis`)
/// says what that entry's own call speaks: the entry's edge (made for
/// its `*_HOST` name) gets the setting's protocol, so both are the one
/// Redis call, which no L7 layer retries.
pub(super) fn mark_protocols(files: &mut [ScannedFile]) {
    let mut marks: Vec<(String, String, String, crate::model::calls::Protocol)> = Vec::new();
    for f in files.iter() {
        for e in &f.facts.edges {
            if let Some(p) = e.protocol
                && let Some((var, name)) = joined(&e.via)
            {
                marks.push((name.to_string(), var.to_string(), e.callee.clone(), p));
            }
        }
    }
    if marks.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        for e in f.facts.edges.iter_mut() {
            if e.protocol.is_some() {
                continue;
            }
            let (Some(caller), Some(var)) = (&e.caller, env_name_of(&e.via)) else {
                continue;
            };
            if let Some(m) = marks
                .iter()
                .find(|m| &m.0 == caller && m.1 == var && m.2 == e.callee)
            {
                e.protocol = Some(m.3);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relaxed_names() {
        assert_eq!(
            env_names("inventory.service.url"),
            ["INVENTORY_SERVICE_URL"]
        );
        assert_eq!(
            env_names("order.destinations.orderServiceUrl"),
            [
                "ORDER_DESTINATIONS_ORDERSERVICEURL",
                "ORDER_DESTINATIONS_ORDER_SERVICE_URL"
            ]
        );
        // A record component, as Polar Bookshop's order service sets it.
        assert_eq!(
            env_names("polar.catalogServiceUri"),
            ["POLAR_CATALOGSERVICEURI", "POLAR_CATALOG_SERVICE_URI"]
        );
        assert_eq!(
            env_names("rates.base-url"),
            ["RATES_BASEURL", "RATES_BASE_URL"]
        );
    }

    #[test]
    fn only_a_placeholder_that_gives_the_host() {
        let mut env = WorkloadEnv::new();
        env.insert(
            ("orders".into(), "INVENTORY_URL".into()),
            vec![("inventory".into(), "k8s/orders.yml:12".into())],
        );
        let u = crate::model::UnresolvedCall::new(crate::source::Span::new(0, 1), "x");
        let names = ["orders".to_string()];
        for t in [
            "${inventory.url}/api",
            "http://${inventory.url}",
            "${inventory-url:x}",
        ] {
            let got = edges(&env, &names, t, &u).unwrap_or_default();
            assert_eq!(got.len(), 1, "{t}");
            assert_eq!(got[0].callee, "inventory");
        }
        for t in ["http://orders/${inventory.url}", "${other.url}"] {
            assert!(edges(&env, &names, t, &u).is_none(), "{t}");
        }
        assert!(edges(&env, &["billing".to_string()], "${inventory.url}", &u).is_none());
    }
}
