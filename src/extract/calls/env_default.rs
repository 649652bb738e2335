//! Java call targets read from the environment with a default written in
//! code: `System.getenv("DB_HOST") == null ? "mysql" : System.getenv("DB_HOST")`,
//! `Optional.ofNullable(System.getenv("X")).orElse("d")`,
//! `System.getenv().getOrDefault("X", "d")`, and a method of the file
//! that returns `System.getenv(key)` or its second parameter
//! (`getenv("CART_ENDPOINT", "cart")`). The target stays `env X` (the
//! workload's entry wins); the default's host is kept beside it
//! ([`UnresolvedCall::if_unset`]). A format whose first hole the lookup
//! fills (`String.format("jdbc:mysql://%s/cities", ..)`) says what the
//! call speaks, and is no target of its own.

use super::lex::Lit;
use super::{Target, host_target, last_segment};
use crate::model::UnresolvedCall;
use crate::model::calls::Protocol;

/// Methods of a file read for their body, at most.
const MAX_HELPERS: usize = 16;

/// Fill in the defaults of the file's `env X` targets, and drop the
/// format literals and repeated lookups they stand for.
pub fn apply(
    text: &str,
    lits: &[Lit],
    unresolved: &mut Vec<UnresolvedCall>,
    edges: &mut Vec<crate::model::CallEdge>,
) {
    let helpers = helpers(text);
    if helpers.is_empty() && !unresolved.iter().any(|u| u.written.starts_with("env ")) {
        return;
    }
    let mut drop: Vec<usize> = Vec::new();
    for (i, lit) in lits.iter().enumerate() {
        let Some(call) = lit.within.last() else {
            continue;
        };
        let seg = last_segment(call);
        // `System.getenv().getOrDefault("X", "d")`: the map of the
        // environment (the call's name starts after `getenv()`).
        let from_map = seg == "getOrDefault" && {
            let head = text.get(..lit.span.start).unwrap_or("");
            let mut k = head.len().saturating_sub(80);
            while !head.is_char_boundary(k) {
                k += 1;
            }
            squeeze(&head[k..]).ends_with("getenv().getOrDefault(")
        };
        let ui = match unresolved
            .iter()
            .position(|u| u.span == lit.span && u.written.starts_with("env "))
        {
            Some(ui) => ui,
            // A lookup through a helper of the file (`env("CART_ENDPOINT",
            // "cart")`) of a URL-like setting.
            None if (helpers.contains(&seg) || from_map) && super::url_key(content(text, lit)) => {
                unresolved.push(UnresolvedCall::new(
                    lit.span,
                    format!("env {}", content(text, lit)),
                ));
                unresolved.len() - 1
            }
            None => continue,
        };
        let next = lits.get(i + 1);
        let between = |a: &Lit, b: &Lit| text.get(a.span.end..b.span.start).unwrap_or("");
        let default = next.filter(|n| {
            let n: &Lit = n;
            let gap = squeeze(between(lit, n));
            let after = text.get(n.span.end..).unwrap_or("").trim_start();
            let two_args = gap == "," && after.starts_with(')');
            if helpers.contains(&seg) || from_map {
                return two_args;
            }
            seg == "getenv" && (gap == ")==null?" || gap == ")).orElse(" && after.starts_with(')'))
        });
        // `getenv("X") == null ? "d" : System.getenv("X")`: the second
        // lookup is the same call.
        if i >= 2
            && seg == "getenv"
            && squeeze(between(&lits[i - 1], lit)).ends_with(":System.getenv(")
            && squeeze(between(&lits[i - 2], &lits[i - 1])) == ")==null?"
            && content(text, &lits[i - 2]) == content(text, lit)
        {
            drop.push(ui);
            continue;
        }
        if let Some(d) = default {
            let written = content(text, d);
            let host = match super::url_target(written) {
                Target::Host(h) => Some(h),
                _ => match host_target(written, written) {
                    Target::Host(h) => Some(h),
                    _ => None,
                },
            };
            if let Some(h) = host {
                unresolved[ui].if_unset = Some(crate::model::calls::short_host(&h));
                unresolved[ui].protocol = Protocol::of_target(written);
            }
            // The default is no call of its own: the lookup's.
            edges.retain(|e| e.span != d.span);
            drop.extend(unresolved.iter().position(|u| u.span == d.span));
        }
        // `"http://" + lookup`: the scheme before the host.
        if let Some(p) = i.checked_sub(1).map(|k| &lits[k])
            && content(text, p).ends_with("://")
            && squeeze(between(p, lit)).starts_with('+')
        {
            unresolved[ui].protocol = Protocol::of_target(&format!("{}host", content(text, p)));
            drop.extend(unresolved.iter().position(|u| u.span == p.span));
        }
        // The format around the lookup: `String.format(FMT, lookup, ..)`.
        let outer = lit.within.len().checked_sub(1).map(|k| &lit.within[..k]);
        if let Some(outer) = outer
            && outer.last().is_some_and(|c| last_segment(c) == "format")
            && let Some(f) = lits[..i].iter().rev().find(|p| p.within == outer)
            && let Some((head, _)) = content(text, f).split_once("%s")
            && (head.ends_with("://") || head.ends_with('@'))
        {
            let filled = format!("{head}host");
            unresolved[ui].protocol = Protocol::of_target(&filled);
            if let Some(fi) = unresolved.iter().position(|u| u.span == f.span) {
                drop.push(fi);
            }
        }
    }
    drop.sort_unstable();
    drop.dedup();
    for i in drop.into_iter().rev() {
        unresolved.remove(i);
    }
}

fn content<'a>(text: &'a str, lit: &Lit) -> &'a str {
    text.get(lit.content.start..lit.content.end).unwrap_or("")
}

/// `s` without whitespace.
fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Methods of the file declared `NAME(String key, String def)` whose body
/// (up to its closing brace) reads `System.getenv(key)` and names `def`.
fn helpers(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("(String ").map(|i| from + i) {
        from = at + 1;
        if out.len() >= MAX_HELPERS {
            break;
        }
        let name_start = text[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &text[name_start..at];
        let Some(close) = text[at..].find(')').map(|i| at + i) else {
            continue;
        };
        let params: Vec<&str> = text[at + 1..close]
            .split(',')
            .filter_map(|p| p.split_whitespace().last())
            .collect();
        let &[key, def] = params.as_slice() else {
            continue;
        };
        let rest = text[close + 1..].trim_start();
        if name.is_empty() || !rest.starts_with('{') {
            continue;
        }
        let body_start = close + 1 + (text.len() - close - 1 - rest.len());
        let Some(body) = body(&text[body_start..]) else {
            continue;
        };
        if squeeze(body).contains(&format!("System.getenv({key})")) && body.contains(def) {
            out.push(name);
        }
    }
    out
}

/// The block at the start of `s` (`{` .. its matching `}`), at most 2 KiB.
fn body(s: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices().take(2048) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(&s[..=i]);
                }
            }
            _ => {}
        }
    }
    None
}
