//! The call graph as inline SVG: one `<g class="node" id="svc-N">` per
//! service, one `<g class="edge" id="edge-N">` per call with a path and a
//! label (attempts and timeouts; every layer in its `<title>` tooltip),
//! the edges of worst paths in red. Positions come from [`super::layout`].
//! Styles live in the page's stylesheet ([`super::html`]); the SVG carries
//! presentation attributes too so that it reads on its own.

use super::html::esc;
use super::layout::{self, Layout, NODE_H, NODE_W};
use super::{Report, edge_full_label, edge_short_label};
use std::fmt::Write;

/// The most characters of a service name shown in its box (all of it is
/// in the tooltip).
const NAME_CHARS: usize = 20;
/// Approximate advance of one label character at 11px, for label boxes.
const LABEL_CHAR_W: f64 = 6.3;

pub fn layout_of(r: &Report) -> Layout {
    let edges: Vec<(usize, usize, bool)> = r
        .graph
        .edges
        .iter()
        .map(|e| (e.from, e.to, e.back_edge))
        .collect();
    let names: Vec<&str> = r.graph.services.iter().map(|s| s.name.as_str()).collect();
    layout::layout(r.graph.services.len(), &edges, &names)
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('\u{2026}');
        t
    }
}

pub fn render(r: &Report) -> String {
    let l = layout_of(r);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" id="call-graph" class="call-graph" width="{w}" height="{h}" viewBox="0 0 {w} {h}" style="width: 100%; max-width: {w}px; min-width: {min}px; height: auto" role="img" aria-labelledby="call-graph-title" font-family="system-ui, sans-serif" font-size="13">"##,
        w = l.width,
        h = l.height,
        // A graph a little wider than the page shrinks to fit (down to
        // 70%, where labels stay legible); a wider one scrolls.
        min = l.width * 7 / 10
    );
    let _ = writeln!(
        out,
        r#"<title id="call-graph-title">Call graph: {}, {}</title>"#,
        crate::render::count(r.graph.services.len(), "service"),
        crate::render::count(r.graph.edges.len(), "call")
    );
    out.push_str(concat!(
        r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#6b7280"/></marker>"##,
        r##"<marker id="arrow-worst" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c81e1e"/></marker></defs>"##,
        "\n"
    ));
    // Worst-path edges last so that they are drawn on top.
    let mut order: Vec<usize> = (0..r.graph.edges.len()).collect();
    order.sort_by_key(|&i| (r.graph.edges[i].on_worst_path, i));
    let mut out_degree = vec![0usize; r.graph.services.len()];
    let mut in_degree = vec![0usize; r.graph.services.len()];
    for e in &r.graph.edges {
        out_degree[e.from] += 1;
        in_degree[e.to] += 1;
    }
    out.push_str("<g class=\"edges\">\n");
    let mut labels = String::new();
    for i in order {
        let e = &r.graph.edges[i];
        let (a, b) = (l.nodes[e.from], l.nodes[e.to]);
        // A straight run from the box to its layer's boundary, through a
        // wrapped layer's lanes, then a curve between the layers.
        let bounds = |v: usize| l.layer[v].and_then(|li| l.layer_x.get(li).copied());
        let (p0, p1, p2, p3, forward, lead, tail) = if b.x > a.x + NODE_W {
            let y0 = (a.y + NODE_H / 2) as f64;
            let y3 = (b.y + NODE_H / 2) as f64;
            let x_out = bounds(e.from).map_or(a.x + NODE_W, |(_, r)| r);
            let x_in = bounds(e.to).map_or(b.x, |(left, _)| left);
            let (x0, x3) = if x_in > x_out {
                (x_out as f64, x_in as f64)
            } else {
                ((a.x + NODE_W) as f64, b.x as f64)
            };
            let dx = (x3 - x0) / 2.0;
            let lead = (x0 > (a.x + NODE_W) as f64).then_some(((a.x + NODE_W) as f64, y0));
            let tail = (x3 < b.x as f64).then_some(b.x as f64);
            (
                (x0, y0),
                (x0 + dx, y0),
                (x3 - dx, y3),
                (x3, y3),
                true,
                lead,
                tail,
            )
        } else {
            // A call back to the left or within one column: loop below.
            let (x0, y0) = ((a.x + NODE_W / 2) as f64, (a.y + NODE_H) as f64);
            let (x3, y3) = ((b.x + NODE_W / 2) as f64, (b.y + NODE_H) as f64);
            let low = y0.max(y3) + 56.0;
            ((x0, y0), (x0, low), (x3, low), (x3, y3), false, None, None)
        };
        let mut d = match lead {
            Some((x, y)) => format!("M{x:.1},{y:.1} H{:.1} ", p0.0),
            None => format!("M{:.1},{:.1} ", p0.0, p0.1),
        };
        let _ = write!(
            d,
            "C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
            p1.0, p1.1, p2.0, p2.1, p3.0, p3.1
        );
        if let Some(x) = tail {
            let _ = write!(d, " H{x:.1}");
        }
        let mut class = String::from("edge");
        if e.on_worst_path {
            class.push_str(" worst");
        } else if e.attempts > 1 {
            class.push_str(" retries");
        } else {
            class.push_str(" plain");
        }
        if !forward || e.back_edge {
            class.push_str(" back");
        }
        let (stroke, width, marker) = if e.on_worst_path {
            ("#c81e1e", "2.5", "arrow-worst")
        } else if e.attempts > 1 {
            ("#6b7280", "1.5", "arrow")
        } else {
            ("#9ca3af", "1", "arrow")
        };
        let dash = if !forward || e.back_edge {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let from = &r.graph.services[e.from].name;
        let to = &r.graph.services[e.to].name;
        let _ = writeln!(
            out,
            r#"<g class="{class}" id="edge-{i}" data-from="svc-{}" data-to="svc-{}"><title>{} -&gt; {}: {}</title><path d="{d}" fill="none" stroke="{stroke}" stroke-width="{width}"{dash} marker-end="url(#{marker})"/></g>"#,
            e.from,
            e.to,
            esc(from),
            esc(to),
            esc(&edge_full_label(e)),
        );
        // The label on the curve: near the end whose side has fewer edges
        // (a fan-out is labelled by its targets, a fan-in by its sources),
        // in the middle otherwise; on a white box; labels are drawn after every edge so
        // that no line crosses a label.
        let t = match out_degree[e.from].cmp(&in_degree[e.to]) {
            std::cmp::Ordering::Greater => 0.8,
            std::cmp::Ordering::Less => 0.2,
            std::cmp::Ordering::Equal => 0.5,
        };
        let at = |a: f64, b: f64, c: f64, d: f64| {
            let u = 1.0 - t;
            u * u * u * a + 3.0 * u * u * t * b + 3.0 * u * t * t * c + t * t * t * d
        };
        let mx = at(p0.0, p1.0, p2.0, p3.0);
        let my = at(p0.1, p1.1, p2.1, p3.1);
        let text = edge_short_label(e);
        let tw = text.chars().count() as f64 * LABEL_CHAR_W + 8.0;
        let _ = writeln!(
            labels,
            r#"<g class="edge-label{}"><title>{}</title><rect x="{:.1}" y="{:.1}" width="{:.1}" height="16" rx="3" fill="white" fill-opacity="0.92"/><text x="{mx:.1}" y="{:.1}" text-anchor="middle" font-size="11" fill="{}">{}</text></g>"#,
            if e.on_worst_path { " worst" } else { "" },
            esc(&edge_full_label(e)),
            mx - tw / 2.0,
            my - 8.0,
            tw,
            my + 4.0,
            if e.on_worst_path {
                "#c81e1e"
            } else {
                "#374151"
            },
            esc(&text)
        );
    }
    out.push_str("</g>\n<g class=\"edge-labels\">\n");
    out.push_str(&labels);
    out.push_str("</g>\n<g class=\"nodes\">\n");
    let hot: std::collections::BTreeSet<usize> = r
        .graph
        .edges
        .iter()
        .filter(|e| e.on_worst_path)
        .flat_map(|e| [e.from, e.to])
        .collect();
    for (i, s) in r.graph.services.iter().enumerate() {
        let p = l.nodes[i];
        let mut class = String::from("node");
        if s.entry {
            class.push_str(" entry");
        }
        if hot.contains(&i) {
            class.push_str(" hot");
        }
        let tip = match s.sources.first() {
            Some(src) => format!("{} ({}, {})", s.name, src.how, src.source.short()),
            None => s.name.clone(),
        };
        let (stroke, sw) = if hot.contains(&i) {
            ("#c81e1e", if s.entry { "2.5" } else { "1.5" })
        } else {
            ("#374151", if s.entry { "2.5" } else { "1" })
        };
        let _ = writeln!(
            out,
            r##"<g class="{class}" id="{}" transform="translate({} {})" data-name="{}"><title>{}</title><rect width="{NODE_W}" height="{NODE_H}" rx="6" fill="#f9fafb" stroke="{stroke}" stroke-width="{sw}"/><text x="{}" y="{}" text-anchor="middle" font-size="12" fill="#111827">{}</text></g>"##,
            s.id,
            p.x,
            p.y,
            esc(&s.name),
            esc(&tip),
            NODE_W / 2,
            NODE_H / 2 + 4,
            esc(&truncate(&s.name, NAME_CHARS))
        );
    }
    out.push_str("</g>\n");
    if let Some(y) = l.grid_caption_y {
        let _ = writeln!(
            out,
            r##"<text class="caption" x="{}" y="{y}" fill="#4b5563" font-style="italic">Services with no call found</text>"##,
            layout::MARGIN
        );
    }
    out.push_str("</svg>\n");
    out
}
