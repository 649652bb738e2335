//! Calls through a client interface take the retry layers of the
//! interface's methods (issue 17, enclosing scopes across files): a
//! Spring HTTP interface or Feign client whose methods carry
//! `@Retry(name = "inventory")` and `@CircuitBreaker(name = "inventory")`,
//! built in another file from a base URL (`RestClient.builder().baseUrl(
//! inventoryServiceUrl)` then `createClient(InventoryClient.class)`): every
//! call the client makes goes to that base URL inside those annotations.
//!
//! The interface is taken from the nearest scanned file that declares it
//! (same simple name, and the same qualified name where known; none when
//! two are equally near). Its policies become uses in the building file,
//! placed at the `createClient(..)` (`RetryPolicy::use_of`: their settings
//! are judged once, at the interface), with the breaker they wrap; the
//! calls to the client's targets carry them. A call target written in
//! the interface itself (the `@FeignClient` `url`) carries them too. Runs
//! after the placeholders are resolved, so a base URL that became an
//! edge there is found.
//!
//! A client built from the `RestClient.Builder` Spring injects, with no
//! base URL of its own (sivaprasadreddy/spring-boot-microservices-course
//! 0e759ec, `bookstore-webapp/.../clients/ClientsConfig.java`), sends to
//! the base URL the program's one customizer bean (`RestClientCustomizer`,
//! applied by spring-boot `RestClientAutoConfiguration#restClientBuilder`)
//! or its own builder bean sets, in whichever file of the build unit; a
//! properties member that base URL reads is the same call and sends the
//! same paths.

use super::*;
use crate::model::RetryPolicy;
use crate::source::Span;
use std::collections::HashMap;

pub fn client_interfaces(files: &mut [ScannedFile]) {
    // Same file: a target written in the declaration.
    for f in files.iter_mut() {
        let facts = &mut f.facts;
        for c in &facts.java.client_interfaces {
            for e in facts.edges.iter_mut() {
                if e.span.start >= c.span.start && e.span.end <= c.span.end {
                    add(&mut e.policies, &c.policies);
                    sends(&mut facts.client_paths, e.span, &c.paths);
                }
            }
        }
    }
    let declared: Vec<(usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(id, f)| (0..f.facts.java.client_interfaces.len()).map(move |k| (id, k)))
        .collect();
    if declared.is_empty() {
        return;
    }
    let configured = configured_bases(files);
    // The paths sent through each target, merged over the clients built
    // on it: unknown for one (an interface naming no path) is unknown.
    let mut sent: Sent = Vec::new();
    // Each interface's uses are added once per file they land in.
    let mut made: Vec<((usize, usize, usize), Vec<usize>)> = Vec::new();
    for id in 0..files.len() {
        if files[id].facts.java.client_uses.is_empty() {
            continue;
        }
        let here = files[id].source.path.clone();
        let package = package_of(&files[id].source.text);
        for u in files[id].facts.java.client_uses.clone() {
            let targets: Vec<(usize, Span)> = if !u.targets.is_empty() {
                u.targets.iter().map(|&t| (id, t)).collect()
            } else {
                match (&u.builder, super::client_beans::unit(&files[id])) {
                    (Some(ty), Some(unit)) => configured
                        .get(&(unit, ty.clone()))
                        .cloned()
                        .unwrap_or_default(),
                    _ => Vec::new(),
                }
            };
            if targets.is_empty() {
                continue;
            }
            let imported = imported(&files[id].source.text, &u.interface);
            let candidates: Vec<(usize, usize)> = declared
                .iter()
                .copied()
                .filter(|&(c, k)| {
                    let d = &files[c].facts.java.client_interfaces[k];
                    d.name == u.interface
                        && match (&d.qualified, &imported) {
                            (Some(q), Some(i)) => q == i,
                            // Not imported: the same package, or a
                            // wildcard import that may bring it.
                            (Some(q), None) => package.as_ref().is_none_or(|p| {
                                q == &format!("{p}.{}", u.interface)
                                    || files[id].source.text.contains(".*;")
                            }),
                            _ => true,
                        }
                })
                .collect();
            let Some((c, k)) = nearest(&here, &candidates, files) else {
                continue;
            };
            let paths = files[c].facts.java.client_interfaces[k].paths.clone();
            for &(tf, t) in &targets {
                let known = (!paths.is_empty()).then(|| paths.clone());
                merge(&mut sent, (tf, t), known);
                // Placed at the `createClient(..)` in the building file,
                // else at the target the builder's bean names.
                let at = if tf == id { u.span } else { t };
                let indices = match made.iter().find(|(m, _)| *m == (tf, c, k)) {
                    Some((_, v)) => v.clone(),
                    None if c == tf => files[c].facts.java.client_interfaces[k].policies.clone(),
                    None => {
                        let decl = &files[c].facts.java.client_interfaces[k];
                        let uses: Vec<RetryPolicy> = decl
                            .policies
                            .iter()
                            .filter_map(|&i| files[c].facts.policies.get(i))
                            .map(|p| use_at(p, at, &decl.name, place(&files[c], p.span)))
                            .collect();
                        let start = files[tf].facts.policies.len();
                        files[tf].facts.policies.extend(uses);
                        let v: Vec<usize> = (start..files[tf].facts.policies.len()).collect();
                        made.push(((tf, c, k), v.clone()));
                        v
                    }
                };
                for e in files[tf].facts.edges.iter_mut() {
                    if e.span == t {
                        add(&mut e.policies, &indices);
                    }
                }
            }
        }
    }
    // A properties member a client's base URL reads (the customizer's
    // `properties.apiGatewayUrl()`) is a call of its own (its type binds
    // an address) and the same calls: it sends what every client built on
    // it sends, unknown if one of them is.
    let reads = super::client_beans::members_read(files);
    let mut members: Sent = Vec::new();
    for (at, (mf, ms, _)) in &reads {
        let here = sent
            .iter()
            .find(|(s, _)| s == at)
            .and_then(|(_, p)| p.clone());
        merge(&mut members, (*mf, *ms), here);
    }
    for ((tf, t), paths) in sent.into_iter().chain(members) {
        if let Some(paths) = paths {
            sends(&mut files[tf].facts.client_paths, t, &paths);
        }
    }
}

/// The base URLs (file, span of each call) the program's customizer or
/// builder bean of each client type gives the builder Spring injects,
/// by (build unit, client type): where exactly one such bean in the unit
/// sets one (Spring applies every customizer, in an order the code
/// does not show, so two that set a base URL leave it unknown).
fn configured_bases(files: &[ScannedFile]) -> HashMap<(String, String), Vec<(usize, Span)>> {
    let mut out: HashMap<(String, String), Vec<(usize, Span)>> = HashMap::new();
    if !files
        .iter()
        .any(|f| f.facts.java.client_uses.iter().any(|u| u.builder.is_some()))
    {
        return out;
    }
    let mut count: HashMap<(String, String), usize> = HashMap::new();
    for (id, f) in files.iter().enumerate() {
        let text = &f.source.text;
        if f.facts.edges.is_empty() || !text.contains("@Bean") {
            continue;
        }
        let Some(unit) = super::client_beans::unit(f) else {
            continue;
        };
        for m in crate::extract::calls::beans::bean_methods(text) {
            if !m.configures {
                continue;
            }
            let spans: Vec<(usize, Span)> = f
                .facts
                .edges
                .iter()
                .filter(|e| e.span.start >= m.body.start && e.span.end <= m.body.end)
                .map(|e| (id, e.span))
                .collect();
            if spans.is_empty() {
                continue;
            }
            let key = (unit.clone(), m.ty.to_string());
            *count.entry(key.clone()).or_default() += 1;
            let v = out.entry(key).or_default();
            for s in spans {
                if !v.contains(&s) {
                    v.push(s);
                }
            }
        }
    }
    out.retain(|k, _| count.get(k) == Some(&1));
    out
}

/// The paths sent through a target, over the clients built on it.
type Sent = Vec<((usize, Span), Option<Vec<String>>)>;

/// Adds what one more client sends through `at` (`None`: not known, which
/// leaves the target's paths unknown).
fn merge(sent: &mut Sent, at: (usize, Span), more: Option<Vec<String>>) {
    match sent.iter_mut().find(|(s, _)| *s == at) {
        Some((_, have)) => {
            *have = match (have.take(), more) {
                (Some(mut a), Some(b)) => {
                    for p in b {
                        if !a.contains(&p) {
                            a.push(p);
                        }
                    }
                    Some(a)
                }
                _ => None,
            }
        }
        None => sent.push((at, more)),
    }
}

/// A policy of the interface as it applies to a client built at `at`.
fn use_at(
    p: &RetryPolicy,
    at: Span,
    interface: &str,
    from: crate::model::SettingPlace,
) -> RetryPolicy {
    let mut u = p.rebased(at);
    u.use_of = Some(interface.to_string());
    u.settings_from = vec![from];
    // The breaker it wraps stays what it is (the simulation reads it);
    // its places are the use's.
    u.wraps_breaker = p.wraps_breaker.iter().map(|_| at).collect();
    u.breaker = p.breaker.clone().map(|mut b| {
        if let Some(s) = b.settings.as_mut() {
            s.span = at;
        }
        b
    });
    u
}

/// The interface's request paths are what a call at `span` sends.
fn sends(to: &mut Vec<crate::model::facts::RoutePaths>, span: Span, paths: &[String]) {
    if !paths.is_empty() && !to.iter().any(|r| r.span == span) {
        to.push(crate::model::facts::RoutePaths {
            hosts: Vec::new(),
            span,
            paths: paths.to_vec(),
        });
    }
}

fn add(to: &mut Vec<usize>, more: &[usize]) {
    for &i in more {
        if !to.contains(&i) {
            to.push(i);
        }
    }
}

/// The file's `package a.b;`.
fn package_of(text: &str) -> Option<String> {
    text.lines().take(200).find_map(|l| {
        l.trim()
            .strip_prefix("package ")
            .and_then(|r| r.split(';').next())
            .map(|p| p.trim().to_string())
    })
}

/// The qualified name a single-type import gives `name`.
fn imported(text: &str, name: &str) -> Option<String> {
    text.lines().take(400).find_map(|l| {
        let q = l.trim().strip_prefix("import ")?.strip_suffix(';')?.trim();
        (q.rsplit('.').next() == Some(name)).then(|| q.to_string())
    })
}
