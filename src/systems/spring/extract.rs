//! Spring configuration as a flat list of properties, so that YAML and
//! `.properties` files share one interpretation (relaxed binding).
//!
//! `resilience4j.retry:` at the top level, nested maps, and YAML lists all
//! flatten to dotted keys with `[i]` indices, as Spring Boot binds them.

use crate::extract::{DocCtx, Facts};
use crate::model::ServiceDecl;
use crate::model::calls::IdentityKind;
use crate::source::Span;
use crate::yaml::{NodeKind, Yaml};

/// At most this many properties are read from one document.
const MAX_PROPS: usize = 200_000;

pub use crate::extract::prop::Prop;

/// Flatten a YAML document into properties. Keys containing dots are split
/// (`resilience4j.retry:` is two segments). Iterative, bounded.
pub fn flatten_yaml(root: Yaml<'_>) -> Vec<Prop> {
    let mut out = Vec::new();
    // (node, key segments so far, span of the last key)
    let mut stack: Vec<(Yaml<'_>, Vec<String>, Vec<Span>)> = vec![(root, Vec::new(), Vec::new())];
    while let Some((node, prefix, spans)) = stack.pop() {
        let key_span = spans.last().copied().unwrap_or(root.span());
        if out.len() >= MAX_PROPS {
            break;
        }
        match node.kind() {
            NodeKind::Map(_) => {
                let entries = node.entries();
                for e in entries.into_iter().rev() {
                    let mut segs = prefix.clone();
                    let mut sp = spans.clone();
                    for part in split_key(e.key) {
                        segs.push(part);
                        sp.push(e.key_span);
                    }
                    stack.push((e.value, segs, sp));
                }
            }
            NodeKind::Seq(_) => {
                let items = node.items();
                for (i, item) in items.into_iter().enumerate().rev() {
                    let mut segs = prefix.clone();
                    segs.push(format!("[{i}]"));
                    let mut sp = spans.clone();
                    sp.push(item.span());
                    stack.push((item, segs, sp));
                }
            }
            NodeKind::Scalar { value, .. } => out.push(Prop {
                segments: prefix,
                seg_spans: spans,
                key_span,
                value: value.clone(),
                value_span: node.span(),
                value_map: Vec::new(),
            }),
            NodeKind::Null => out.push(Prop {
                segments: prefix,
                seg_spans: spans,
                key_span,
                value: String::new(),
                value_span: node.span(),
                value_map: Vec::new(),
            }),
            NodeKind::Alias(_) => {}
        }
    }
    out
}

/// Split a YAML key on dots, keeping `[a.b]` bracketed map keys whole.
fn split_key(key: &str) -> Vec<String> {
    split_key_ranges(key)
        .into_iter()
        .map(|r| key[r].to_string())
        .collect()
}

/// The byte ranges of a dotted property name's segments: `a.b[0].c` is
/// `a`, `b`, `[0]`, `c`; a bracketed map key `[x.y]` stays whole.
pub fn split_key_ranges(key: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut depth = 0usize;
    for (i, c) in key.char_indices() {
        match c {
            '[' => {
                if depth == 0 {
                    if let Some(s) = start.take() {
                        out.push(s..i);
                    }
                    start = Some(i);
                }
                depth += 1;
            }
            ']' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    let s = start.take().unwrap_or(i);
                    out.push(s..i + 1);
                }
            }
            '.' if depth == 0 => {
                if let Some(s) = start.take() {
                    out.push(s..i);
                }
            }
            _ => {
                if start.is_none() {
                    start = Some(i);
                }
            }
        }
    }
    if let Some(s) = start {
        out.push(s..key.len());
    }
    out
}

/// The YAML document extractor for Spring configuration: flattens the
/// document and hands it to [`extract_props`]. Kubernetes-style documents
/// (`apiVersion` + `kind`) are not Spring configuration.
pub fn extract_yaml(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    if !root.is_map() || (root.get("apiVersion").is_some() && root.get("kind").is_some()) {
        return false;
    }
    let props = flatten_yaml(root);
    if !props.iter().any(|p| p.value.contains("${")) {
        return extract_props(&props, facts);
    }
    // Placeholders: resolved from this document, the file's other
    // documents of its profile and without one, then other files.
    use crate::systems::spring::placeholders::{MAX_DOCUMENTS, resolve, sources};
    let docs = &ctx.file.documents;
    let at = docs.iter().position(|d| std::ptr::eq(d, ctx.doc));
    let resolved = match at {
        Some(i) if docs.len() <= MAX_DOCUMENTS => {
            let mut all: Vec<Vec<Prop>> = docs
                .iter()
                .enumerate()
                .map(|(j, d)| {
                    let r = ctx.file.root(d);
                    match j == i || !r.is_map() {
                        true => Vec::new(),
                        false => flatten_yaml(r),
                    }
                })
                .collect();
            all[i] = props;
            resolve(&all[i], &sources(&all, i, ctx.outer))
        }
        _ => resolve(&props, &[&props, ctx.outer]),
    };
    extract_props(&resolved, facts)
}

/// Every Spring extractor over one document's properties, from YAML or
/// `.properties` alike. Records `spring.application.name` as a service.
/// Returns whether any retry or timeout setting was read.
pub fn extract_props(props: &[Prop], facts: &mut Facts) -> bool {
    let app = application_name(props);
    let caller = app.as_ref().map(|(n, _)| n.as_str());
    let mut found = false;
    if crate::systems::resilience4j::extract::extract_props(props, caller, facts) {
        facts.claimed_by("resilience4j");
        found = true;
    }
    if crate::systems::spring::cloud_gateway::extract_props(props, caller, facts) {
        facts.claimed_by("spring-cloud-gateway");
        found = true;
    }
    if crate::systems::spring::boot_retry::extract_props(props, caller, facts) {
        facts.claimed_by("spring-boot-retry");
        found = true;
    }
    crate::extract::stores::from_props(props, caller, facts);
    crate::extract::tracing::from_props(props, caller, facts);
    if let Some((name, span)) = app {
        facts.services.push(ServiceDecl::new(
            name,
            span,
            IdentityKind::AppName,
            "spring.application.name",
            Vec::new(),
        ));
    }
    found
}

/// The props under a dotted prefix (relaxed binding on every segment).
pub fn under<'p>(props: &'p [Prop], prefix: &[&str]) -> impl Iterator<Item = &'p Prop> {
    let want: Vec<String> = prefix
        .iter()
        .map(|s| crate::keys::normalise_key(s))
        .collect();
    props.iter().filter(move |p| {
        p.segments.len() > want.len() && want.iter().enumerate().all(|(i, w)| p.normalised_is(i, w))
    })
}

/// `spring.application.name`, with the span of its value.
pub fn application_name(props: &[Prop]) -> Option<(String, Span)> {
    props
        .iter()
        .find(|p| {
            p.segments.len() == 3
                && p.normalised_is(0, "spring")
                && p.normalised_is(1, "application")
                && p.normalised_is(2, "name")
        })
        .filter(|p| !p.value.is_empty())
        .map(|p| (p.value.clone(), p.value_span))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flattens_dotted_nested_and_lists() {
        let text = "resilience4j.retry:\n  instances:\n    a:\n      max-attempts: 3\n      retryExceptions:\n        - x.Y\nspring:\n  application.name: orders\n";
        let f = crate::yaml::parse(text);
        let props = flatten_yaml(f.root(&f.documents[0]));
        let keys: Vec<_> = props.iter().map(|p| p.key()).collect();
        assert_eq!(
            keys,
            [
                "resilience4j.retry.instances.a.max-attempts",
                "resilience4j.retry.instances.a.retryExceptions[0]",
                "spring.application.name"
            ]
        );
        assert_eq!(application_name(&props).unwrap().0, "orders");
        let p = &props[0];
        assert_eq!(&text[p.key_span.start..p.key_span.end], "max-attempts");
        assert_eq!(&text[p.value_span.start..p.value_span.end], "3");
    }
}
