//! Spring configuration as a flat list of properties, so that YAML and
//! `.properties` files share one interpretation (relaxed binding).
//!
//! `resilience4j.retry:` at the top level, nested maps, and YAML lists all
//! flatten to dotted keys with `[i]` indices, as Spring Boot binds them.

use crate::source::Span;
use crate::yaml::{NodeKind, Yaml};

/// At most this many properties are read from one document.
const MAX_PROPS: usize = 200_000;

/// One property: its dotted key segments (as written), where the key is,
/// and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Prop {
    /// Key segments as written; a list index is its own segment `[0]`.
    pub segments: Vec<String>,
    /// The span of each segment's key (segments split from one dotted key
    /// share its span).
    pub seg_spans: Vec<Span>,
    /// The span of the last key segment (the property's own key).
    pub key_span: Span,
    pub value: String,
    pub value_span: Span,
}

impl Prop {
    /// The segments normalised for relaxed binding (lower case, no `-`/`_`).
    pub fn normalised(&self, i: usize) -> String {
        self.segments
            .get(i)
            .map(|s| crate::rules::normalise_key(s))
            .unwrap_or_default()
    }

    /// The key as written, dotted.
    pub fn key(&self) -> String {
        let mut out = String::new();
        for s in &self.segments {
            if !out.is_empty() && !s.starts_with('[') {
                out.push('.');
            }
            out.push_str(s);
        }
        out
    }

    /// The span from the key to the end of the value.
    pub fn span(&self) -> Span {
        self.key_span.cover(self.value_span)
    }
}

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
            }),
            NodeKind::Null => out.push(Prop {
                segments: prefix,
                seg_spans: spans,
                key_span,
                value: String::new(),
                value_span: node.span(),
            }),
            NodeKind::Alias(_) => {}
        }
    }
    out
}

/// Split a YAML key on dots, keeping `[a.b]` bracketed map keys whole.
fn split_key(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0;
    for c in key.chars() {
        match c {
            '[' => {
                if depth == 0 && !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                depth += 1;
                cur.push(c);
            }
            ']' => {
                depth -= 1;
                cur.push(c);
                if depth == 0 {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '.' if depth == 0 => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `spring.application.name`, with the span of its value.
pub fn application_name(props: &[Prop]) -> Option<(String, Span)> {
    props
        .iter()
        .find(|p| {
            p.segments.len() == 3
                && p.normalised(0) == "spring"
                && p.normalised(1) == "application"
                && p.normalised(2) == "name"
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
