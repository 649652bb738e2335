//! Addresses a .NET program's code reads from its configuration
//! (`config.GetSection("APIServiceLocations").GetValue<string>("Orders")`
//! as a client's base address, `$"http://{host}/api"`): the C# reader
//! leaves such a call or registration unresolved with the key in its
//! address ([`crate::systems::csharp::extract::address`], `{config:key}`);
//! the settings reader records every address-shaped value of an
//! `appsettings*.json` as a stand-in edge ([`stand_ins`]); [`join`] puts
//! the value of the caller's program in place of the key (the base
//! `appsettings.json` first, else the environments' files, a developer's
//! `appsettings.Development.json` last) and draws the edge, and drops the
//! stand-ins. A key no settings file of the program gives stays
//! unresolved; a value that is this machine (`localhost`, a loopback
//! address) is resolved and no service, and so are the calls made
//! through a typed or named client whose registration sets it. A key the
//! environment of a
//! workload running the program sets (`ApiSettings__GatewayAddress` in
//! its compose service or Kubernetes container) takes that value
//! instead, as .NET reads the environment after the settings files
//! ([`super::env`]).

use super::env::{Entry, Env};
use super::extract::address::MARK;
use super::extract::calls::{NO_BASE, REGISTRATION};
use super::link::units;
use crate::model::{CallEdge, Facts, ScannedFile};
use crate::yaml::Yaml;
use std::collections::{BTreeMap, BTreeSet};

/// How the via of a settings value's stand-in edge begins.
pub const VIA: &str = "configuration value ";

/// How the client of a stand-in begins (the key follows, lower case).
const CLIENT: &str = "config:";

/// How an unresolved address's `written` separates the address from the
/// call's via.
pub const THROUGH: &str = " through ";

/// Values a settings file may give before the reader stops.
const MAX_VALUES: usize = 1_000;

/// How deep the settings are walked.
const MAX_DEPTH: usize = 16;

/// Whether a setting's value is an address a call could be made to: a URL
/// with a host, or `host:port`.
fn is_address(v: &str) -> bool {
    let v = v.trim();
    if v.is_empty() || v.len() > 512 || v.contains(char::is_whitespace) {
        return false;
    }
    if let Some((scheme, rest)) = v.split_once("://") {
        return !scheme.is_empty()
            && scheme.chars().all(|c| c.is_ascii_alphabetic() || c == '+')
            && !rest.is_empty();
    }
    match v.rsplit_once(':') {
        Some((host, port)) => {
            // A name or an IP address, not a time of day (`12:30`).
            host.contains(|c: char| c.is_ascii_alphabetic() || c == '.')
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
                && !port.is_empty()
                && port.chars().all(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Every address-shaped value of an `appsettings*.json` document, as a
/// stand-in edge: its configuration path (lower case) in the client, the
/// value as written in the callee.
pub fn stand_ins(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let mut found = 0;
    let mut stack = vec![(root, String::new(), 0)];
    while let Some((node, path, depth)) = stack.pop() {
        if depth > MAX_DEPTH || found >= MAX_VALUES || !node.is_map() {
            continue;
        }
        for e in node.entries() {
            let key = if path.is_empty() {
                e.key.to_ascii_lowercase()
            } else {
                format!("{path}:{}", e.key.to_ascii_lowercase())
            };
            if e.value.is_map() {
                stack.push((e.value, key, depth + 1));
                continue;
            }
            let Some(v) = e.value.as_str().filter(|v| is_address(v)) else {
                continue;
            };
            facts.edges.push(CallEdge {
                caller: None,
                callee: v.trim().to_string(),
                span: e.value.span(),
                policies: Vec::new(),
                via: format!("{VIA}`{key}` in appsettings"),
                client: Some(format!("{CLIENT}{key}")),
                protocol: None,
            });
            found += 1;
        }
    }
    found > 0
}

fn is_stand_in(e: &CallEdge) -> bool {
    e.caller.is_none()
        && e.via.starts_with(VIA)
        && e.client.as_deref().is_some_and(|c| c.starts_with(CLIENT))
}

/// How sure a settings file is of where the program runs: the base file,
/// an environment's, a developer's.
fn rank(f: &ScannedFile) -> u8 {
    let name = f
        .source
        .path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if name == "appsettings.json" {
        0
    } else if name.contains(".development.") {
        2
    } else {
        1
    }
}

/// The keys an address reads, in order.
fn keys(address: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = address;
    while let Some(i) = rest.find(MARK) {
        let after = &rest[i + MARK.len()..];
        let Some(end) = after.find('}') else { break };
        out.push(&after[..end]);
        rest = &after[end + 1..];
    }
    out
}

/// See the module's comment.
pub fn join(files: &mut [ScannedFile], env: &Env) {
    // (unit, key) -> the values of the best-ranked files that give one.
    let mut values: BTreeMap<(String, String), (u8, BTreeSet<String>)> = BTreeMap::new();
    let mut any = false;
    for f in files.iter_mut() {
        if !f.facts.edges.iter().any(is_stand_in) {
            continue;
        }
        any = true;
        let r = rank(f);
        let us = units(f);
        for e in f.facts.edges.iter().filter(|e| is_stand_in(e)) {
            let key = e.client.as_deref().unwrap_or_default()[CLIENT.len()..].to_string();
            for u in &us {
                let slot = values
                    .entry((u.clone(), key.clone()))
                    .or_insert((u8::MAX, BTreeSet::new()));
                if r < slot.0 {
                    *slot = (r, BTreeSet::new());
                }
                if r == slot.0 {
                    slot.1.insert(e.callee.clone());
                }
            }
        }
        f.facts.edges.retain(|e| !is_stand_in(e));
    }
    if !any && env.is_empty() {
        return;
    }
    // (unit, client) of the typed and named clients whose registered base
    // address is this machine.
    let mut local: BTreeSet<(String, String)> = BTreeSet::new();
    for f in files.iter_mut() {
        if !f.facts.unresolved.iter().any(|c| c.written.contains(MARK)) {
            continue;
        }
        let us = units(f);
        let mut kept = Vec::new();
        for call in std::mem::take(&mut f.facts.unresolved) {
            let Some((address, via)) = call
                .written
                .split_once(THROUGH)
                .filter(|(a, _)| a.contains(MARK))
            else {
                kept.push(call);
                continue;
            };
            let mut drawn = false;
            for u in &us {
                for (rendered, from) in render(address, u, &values, env) {
                    let Some(host) = super::extract::calls::host_of(&rendered) else {
                        continue;
                    };
                    // This machine (a developer's `localhost`): resolved,
                    // and no service.
                    if host.eq_ignore_ascii_case("localhost")
                        || crate::model::calls::this_machine(&rendered)
                    {
                        if let Some(c) =
                            call.client.as_ref().filter(|_| via.ends_with(REGISTRATION))
                        {
                            local.insert((u.clone(), c.clone()));
                        }
                        drawn = true;
                        continue;
                    }
                    f.facts.edges.push(CallEdge {
                        caller: Some(u.clone()),
                        callee: host,
                        span: call.span,
                        policies: call.policies.clone(),
                        via: from
                            .iter()
                            .fold(via.to_string(), |v, (w, e)| super::env::via(&v, w, e)),
                        client: call.client.clone(),
                        protocol: call.protocol,
                    });
                    drawn = true;
                }
            }
            if !drawn {
                kept.push(call);
            }
        }
        f.facts.unresolved = kept;
    }
    // The calls made through such a client in its own files (whose base
    // address the registration sets) are to this machine as well.
    if local.is_empty() {
        return;
    }
    for f in files.iter_mut() {
        let us = units(f);
        f.facts.unresolved.retain(|c| {
            !(c.written.ends_with(NO_BASE)
                && c.client
                    .as_ref()
                    .is_some_and(|k| us.iter().any(|u| local.contains(&(u.clone(), k.clone())))))
        });
    }
}

/// `address` with each key replaced by the unit's values (every
/// combination, at most a few), each with the environment entries it
/// took: a key a workload running the program sets is its value there,
/// the settings files' where a workload running it does not.
fn render<'e>(
    address: &str,
    unit: &str,
    values: &BTreeMap<(String, String), (u8, BTreeSet<String>)>,
    env: &'e Env,
) -> Vec<(String, Vec<(&'e str, &'e Entry)>)> {
    let mut out = vec![(address.to_string(), Vec::new())];
    for key in keys(address) {
        let found = env.lookup(unit, key);
        let mut vs: Vec<(&str, Option<(&'e str, &'e Entry)>)> = found
            .set
            .iter()
            .map(|(w, e)| (e.value.as_str(), Some((*w, *e))))
            .collect();
        if found.files_hold
            && let Some((_, file)) = values.get(&(unit.to_string(), key.to_string()))
        {
            vs.extend(file.iter().map(|v| (v.as_str(), None)));
        }
        if vs.is_empty() {
            return Vec::new();
        }
        let mark = format!("{MARK}{key}}}");
        out = out
            .iter()
            .flat_map(|(a, from)| {
                vs.iter().map(|(v, e)| {
                    let mut from = from.clone();
                    from.extend(*e);
                    (a.replacen(&mark, v, 1), from)
                })
            })
            .take(8)
            .collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_urls_with_a_host_or_host_and_port() {
        for v in [
            "http://orders-api",
            "https+http://catalog-api",
            "customermanagementapi:5100",
            "localhost:5000",
        ] {
            assert!(is_address(v), "{v}");
        }
        for v in [
            "",
            "http://",
            "Information",
            "00:05:00",
            "a b:80",
            "C:\\data",
            "12:30",
        ] {
            assert!(!is_address(v), "{v}");
        }
    }

    #[test]
    fn keys_are_read_in_order() {
        assert_eq!(keys("http://{config:a:b}/{config:c}/x"), ["a:b", "c"]);
    }
}
