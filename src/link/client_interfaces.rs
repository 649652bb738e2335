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

use super::*;
use crate::model::RetryPolicy;

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
    for id in 0..files.len() {
        if files[id].facts.java.client_uses.is_empty() {
            continue;
        }
        let here = files[id].source.path.clone();
        let package = package_of(&files[id].source.text);
        // Each interface's uses are added once per file.
        let mut made: Vec<((usize, usize), Vec<usize>)> = Vec::new();
        for u in files[id].facts.java.client_uses.clone() {
            if u.targets.is_empty() {
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
            for &t in &u.targets {
                sends(&mut files[id].facts.client_paths, t, &paths);
            }
            let indices = match made.iter().find(|(at, _)| *at == (c, k)) {
                Some((_, v)) => v.clone(),
                None if c == id => files[c].facts.java.client_interfaces[k].policies.clone(),
                None => {
                    let decl = &files[c].facts.java.client_interfaces[k];
                    let uses: Vec<RetryPolicy> = decl
                        .policies
                        .iter()
                        .filter_map(|&i| files[c].facts.policies.get(i))
                        .map(|p| use_at(p, u.span, &decl.name, place(&files[c], p.span)))
                        .collect();
                    let start = files[id].facts.policies.len();
                    files[id].facts.policies.extend(uses);
                    let v: Vec<usize> = (start..files[id].facts.policies.len()).collect();
                    made.push(((c, k), v.clone()));
                    v
                }
            };
            for e in files[id].facts.edges.iter_mut() {
                if u.targets.contains(&e.span) {
                    add(&mut e.policies, &indices);
                }
            }
        }
    }
}

/// A policy of the interface as it applies to a client built at `at`.
fn use_at(
    p: &RetryPolicy,
    at: crate::source::Span,
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
fn sends(
    to: &mut Vec<crate::model::facts::RoutePaths>,
    span: crate::source::Span,
    paths: &[String],
) {
    if !paths.is_empty() && !to.iter().any(|r| r.span == span) {
        to.push(crate::model::facts::RoutePaths {
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
