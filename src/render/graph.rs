//! `retrylint graph`: the call-path graph as JSON, Graphviz DOT or Mermaid,
//! with the attempts and timeouts of every layer on every call, their
//! sources, and the worst path from each entry point marked.

use crate::Scan;
use crate::duration::human;
use crate::graph::{Graph, Loc, RetryLayer};
use serde_json::{Value, json};
use std::collections::BTreeSet;

fn loc(scan: &Scan, l: Loc) -> Value {
    if l.file >= scan.files.len() {
        return Value::Null;
    }
    let f = scan.file(l.file);
    let lc = f.line_col(l.span.start);
    json!({ "file": f.display_path(), "line": lc.line, "column": lc.column })
}

fn layer(scan: &Scan, l: &RetryLayer) -> Value {
    json!({
        "system": l.system.label(),
        "layer": l.kind,
        "attempts": match l.attempts.finite() { Some(n) => json!(n), None => json!(null) },
        "unbounded": matches!(l.attempts, crate::model::AttemptCount::Unbounded),
        "per_try_timeout_ms": l.per_try.map(|d| d.as_millis() as u64),
        "overall_timeout_ms": l.overall.map(|d| d.as_millis() as u64),
        "implicit": l.implicit,
        "label": l.label,
        "setting": l.setting,
        "source": loc(scan, l.loc),
    })
}

/// Edges on some entry's worst path.
fn worst_edges(g: &Graph) -> BTreeSet<usize> {
    g.worst_paths().into_iter().flat_map(|p| p.edges).collect()
}

pub fn json(scan: &Scan, g: &Graph) -> String {
    let worst = worst_edges(g);
    let doc = json!({
        "version": 1,
        "mesh": g.mesh,
        "services": g.services.iter().map(|s| json!({
            "name": s.name,
            "sources": s.sources.iter().map(|(l, how)| {
                let mut v = loc(scan, *l);
                if let Some(o) = v.as_object_mut() { o.insert("how".into(), json!(how)); }
                v
            }).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "edges": g.edges.iter().enumerate().map(|(i, e)| json!({
            "from": g.service_name(e.from),
            "to": g.service_name(e.to),
            "via": e.via,
            "protocol": e.protocol.label(),
            "mesh": e.mesh.as_ref().map(|m| json!({
                "mesh": m.mesh.label(),
                "evidence": format!("{:?}", m.how).to_lowercase(),
                "source": loc(scan, m.loc),
                "variant": m.variant,
            })),
            "source": loc(scan, e.proof),
            "attempts": e.factor(),
            "on_worst_path": worst.contains(&i),
            "path": e.path,
            "route": e.route,
            "layers": e.layers.iter().map(|l| layer(scan, l)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "entry_points": g.entries.iter().map(|&s| g.service_name(s)).collect::<Vec<_>>(),
        "worst_paths": g.worst_paths().iter().map(|p| json!({
            "entry": g.service_name(p.entry),
            "attempts": p.attempts,
            "services": std::iter::once(g.service_name(p.entry)).chain(p.edges.iter().map(|&e| g.service_name(g.edges[e].to))).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "cycles": g.cycles.iter().map(|c| c.iter().map(|&s| g.service_name(s)).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "notes": g.notes.iter().map(|n| {
            let mut v = json!({ "message": n.message });
            if let Some(o) = v.as_object_mut() { o.insert("source".into(), loc(scan, n.loc)); }
            v
        }).collect::<Vec<_>>(),
    });
    let mut s = serde_json::to_string_pretty(&doc).expect("serialisable");
    s.push('\n');
    s
}

/// A short label for an edge: each layer's attempts and timeouts.
pub fn edge_label(g: &Graph, e: usize) -> String {
    let edge = &g.edges[e];
    // A call no L7 layer retries says what it speaks.
    let proto = if edge.protocol.is_l7() {
        String::new()
    } else {
        format!("{}: ", edge.protocol.label())
    };
    if edge.layers.is_empty() {
        return format!("{proto}no retries");
    }
    proto
        + &edge
            .layers
            .iter()
            .map(|l| {
                let mut s = format!("{} x{}", l.system.label(), l.factor());
                if l.implicit {
                    s.push_str(" (default)");
                }
                if let Some(p) = l.per_try {
                    s.push_str(&format!(", {} per try", human(p)));
                }
                if let Some(o) = l.overall {
                    s.push_str(&format!(", {} total", human(o)));
                }
                s
            })
            .collect::<Vec<_>>()
            .join("; ")
}

fn quote_dot(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', " ")
}

pub fn dot(g: &Graph) -> String {
    let worst = worst_edges(g);
    let mut out =
        String::from("digraph retrylint {\n  rankdir=LR;\n  node [shape=box, style=rounded];\n");
    for (i, s) in g.services.iter().enumerate() {
        let entry = if g.entries.contains(&i) {
            ", penwidth=2"
        } else {
            ""
        };
        out.push_str(&format!(
            "  s{i} [label=\"{}\"{entry}];\n",
            quote_dot(&s.name)
        ));
    }
    for (i, e) in g.edges.iter().enumerate() {
        let style = if worst.contains(&i) && e.factor() > 1 {
            ", color=red, penwidth=2"
        } else {
            ""
        };
        out.push_str(&format!(
            "  s{} -> s{} [label=\"{}\"{style}];\n",
            e.from,
            e.to,
            quote_dot(&edge_label(g, i))
        ));
    }
    out.push_str("}\n");
    out
}

/// Text safe inside a Mermaid label.
pub fn quote_mermaid(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '"' => "#quot;".to_string(),
            '<' => "#lt;".to_string(),
            '>' => "#gt;".to_string(),
            '|' => "#124;".to_string(),
            '\n' | '\r' => " ".to_string(),
            c => c.to_string(),
        })
        .collect()
}

pub fn mermaid(g: &Graph) -> String {
    let worst = worst_edges(g);
    let mut out = String::from("flowchart LR\n");
    for (i, s) in g.services.iter().enumerate() {
        out.push_str(&format!("  s{i}[\"{}\"]\n", quote_mermaid(&s.name)));
    }
    let mut red = Vec::new();
    for (i, e) in g.edges.iter().enumerate() {
        out.push_str(&format!(
            "  s{} -->|\"{}\"| s{}\n",
            e.from,
            quote_mermaid(&edge_label(g, i)),
            e.to
        ));
        if worst.contains(&i) && e.factor() > 1 {
            red.push(i);
        }
    }
    for i in red {
        out.push_str(&format!("  linkStyle {i} stroke:#d00,stroke-width:3px\n"));
    }
    out
}
