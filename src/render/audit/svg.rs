//! The call graph as inline SVG: one `<g class="node" id="svc-N">` per
//! service, one `<g class="edge" id="edge-N">` per call with a path and a
//! label (attempts and timeouts; every layer in its `<title>` tooltip),
//! the edges of worst paths in red. Positions come from [`super::layout`].
//! Styles live in the page's stylesheet ([`super::html`]); the SVG carries
//! presentation attributes too so that it reads on its own.

use super::html::esc;
use super::layout::{self, NODE_H, NODE_W};
use super::stores::{self, Drawing, INSET, ROW_H};
use super::{Report, edge_full_label, edge_short_label};
use std::fmt::Write;

/// The most characters of a service name shown in its box (all of it is
/// in the tooltip).
const NAME_CHARS: usize = 28;
/// Approximate advance of one label character at 11px, for label boxes.
const LABEL_CHAR_W: f64 = 6.3;

/// The graph as drawn: services, groups of leaf stores and calls placed
/// ([`stores::draw`]).
pub fn layout_of(r: &Report) -> Drawing {
    stores::draw(r)
}

/// The SVG path of a route: curves across gaps, straight runs in columns.
pub fn path_d(route: &layout::Route) -> String {
    let mut d = String::new();
    for (k, p) in route.points.iter().enumerate() {
        if k == 0 {
            let _ = write!(d, "M{:.1},{:.1}", p.0, p.1);
            continue;
        }
        let a = route.points[k - 1];
        if (p.0 - a.0).abs() >= NODE_W as f64 - 0.5 && (p.1 - a.1).abs() < 0.5 {
            let _ = write!(d, " H{:.1}", p.0);
        } else {
            let mid = (a.0 + p.0) / 2.0;
            let _ = write!(
                d,
                " C{mid:.1},{:.1} {mid:.1},{:.1} {:.1},{:.1}",
                a.1, p.1, p.0, p.1
            );
        }
    }
    d
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
    let d = layout_of(r);
    let l = &d.layout;
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
        r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#6b7280"/></marker>"##,
        r##"<marker id="arrow-worst" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c81e1e"/></marker></defs>"##,
        "\n"
    ));
    // Namespaces as bands behind their boxes, one per column they stand in.
    let bands: Vec<&layout::Band> = l.bands.iter().filter(|b| b.cluster != 0).collect();
    if !bands.is_empty() {
        out.push_str("<g class=\"clusters\">\n");
        for b in bands {
            let name = d.clusters.get(b.cluster).map_or("", String::as_str);
            let _ = writeln!(
                out,
                r##"<g class="cluster" data-namespace="{}"><title>namespace {}</title><rect x="{:.0}" y="{:.0}" width="{:.0}" height="{:.0}" rx="8" fill="#eef6ff" fill-opacity="0.6" stroke="#93c5fd"/><text x="{:.0}" y="{:.0}" font-size="10" fill="#1e40af">{}</text></g>"##,
                esc(name),
                esc(name),
                b.rect.x0,
                b.rect.y0,
                b.rect.x1 - b.rect.x0,
                b.rect.y1 - b.rect.y0,
                b.rect.x0 + 6.0,
                b.rect.y0 + 13.0,
                esc(&truncate(&format!("namespace {name}"), NAME_CHARS + 4)),
            );
        }
        out.push_str("</g>\n");
    }
    // Worst-path edges last so that they are drawn on top.
    let mut order: Vec<usize> = (0..r.graph.edges.len()).collect();
    order.sort_by_key(|&i| (r.graph.edges[i].on_worst_path, r.graph.edges[i].attempts, i));
    // Labels placed worst first: the worst paths', then the most attempts.
    let texts: Vec<String> = r.graph.edges.iter().map(edge_short_label).collect();
    // A call to a grouped store has its label in the store's row; the
    // others are placed on their routes (one per call).
    let sizes: Vec<(usize, f64)> = order
        .iter()
        .rev()
        .filter(|&&i| !d.grouped(r.graph.edges[i].to))
        .map(|&i| {
            (
                d.box_edge[i],
                texts[i].chars().count() as f64 * LABEL_CHAR_W + 8.0,
            )
        })
        .collect();
    let call_of: std::collections::BTreeMap<usize, usize> = (0..r.graph.edges.len())
        .filter(|&i| !d.grouped(r.graph.edges[i].to))
        .map(|i| (d.box_edge[i], i))
        .collect();
    let spots: std::collections::BTreeMap<usize, layout::Rect> = layout::place_labels(l, &sizes)
        .into_iter()
        .filter_map(|(e, r)| Some((*call_of.get(&e)?, r?)))
        .collect();
    // Which rules point at each call (its place or a layer's), for the
    // page's filter by rule.
    let mut rules_at: std::collections::BTreeMap<(&str, usize), Vec<&str>> =
        std::collections::BTreeMap::new();
    for g in &r.findings {
        for f in &g.findings {
            for s in std::iter::once(&f.source).chain(f.related.iter().map(|x| &x.source)) {
                let v = rules_at.entry((s.file.as_str(), s.line)).or_default();
                if !v.contains(&g.code) {
                    v.push(g.code);
                }
            }
        }
    }
    let edge_rules = |e: &super::EdgeData| {
        let mut v: Vec<&str> = e
            .source
            .iter()
            .chain(e.layers.iter().filter_map(|l| l.source.as_ref()))
            .filter_map(|s| rules_at.get(&(s.file.as_str(), s.line)))
            .flatten()
            .copied()
            .collect();
        v.sort();
        v.dedup();
        v.join(" ")
    };
    out.push_str("<g class=\"edges\">\n");
    let mut labels = String::new();
    for i in order {
        let e = &r.graph.edges[i];
        let route = &d.routes[i];
        if route.points.len() < 2 {
            continue;
        }
        let d = path_d(route);
        let back = route.back || e.back_edge;
        let mut class = String::from("edge");
        if e.on_worst_path {
            class.push_str(" worst");
        } else if e.attempts > 1 {
            class.push_str(" retries");
        } else {
            class.push_str(" plain");
        }
        if back {
            class.push_str(" back");
        }
        let (stroke, width, marker) = if e.on_worst_path {
            ("#c81e1e", "3", "arrow-worst")
        } else if e.attempts > 1 {
            ("#6b7280", "1.3", "arrow")
        } else {
            ("#b6bcc6", "1", "arrow")
        };
        let dash = if back {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let from = &r.graph.services[e.from].name;
        let to = &r.graph.services[e.to].name;
        let _ = writeln!(
            out,
            r#"<g class="{class}" id="edge-{i}" data-from="svc-{}" data-to="svc-{}" data-rules="{}"><title>{} -&gt; {}: {}</title><path d="{d}" fill="none" stroke="{stroke}" stroke-width="{width}"{dash} marker-end="url(#{marker})"/></g>"#,
            e.from,
            e.to,
            edge_rules(e),
            esc(from),
            esc(to),
            esc(&edge_full_label(e)),
        );
        // A label only where it fits without covering a box or another
        // label; every edge keeps its full label in the tooltip.
        let Some(b) = spots.get(&i) else { continue };
        let (mx, my) = ((b.x0 + b.x1) / 2.0, (b.y0 + b.y1) / 2.0);
        let _ = writeln!(
            labels,
            r#"<g class="edge-label{}" data-edge="edge-{i}"><title>{}</title><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{}" rx="3" fill="white" fill-opacity="0.92"/><text x="{mx:.1}" y="{:.1}" text-anchor="middle" font-size="11" fill="{}">{}</text></g>"#,
            if e.on_worst_path { " worst" } else { "" },
            esc(&edge_full_label(e)),
            b.x0,
            b.y0,
            b.x1 - b.x0,
            layout::LABEL_H,
            my + 4.0,
            if e.on_worst_path {
                "#c81e1e"
            } else {
                "#374151"
            },
            esc(&texts[i])
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
    for g in &d.groups {
        let b = l.node_rect(g.layout_box);
        let caller = &r.graph.services[g.caller].name;
        let _ = writeln!(
            out,
            r##"<g class="store-group" id="grp-{}" data-caller="svc-{}"><title>{} stores only {} calls</title><rect x="{:.0}" y="{:.0}" width="{:.0}" height="{:.0}" rx="6" fill="#f3f4f6" stroke="#9ca3af" stroke-dasharray="4 3"/><text x="{:.0}" y="{:.0}" font-size="10" fill="#4b5563">{}</text></g>"##,
            g.layout_box,
            g.caller,
            g.stores.len(),
            esc(caller),
            b.x0,
            b.y0,
            b.x1 - b.x0,
            b.y1 - b.y0,
            b.x0 + INSET as f64,
            b.y0 + 13.0,
            esc(&truncate(&format!("stores of {caller}"), NAME_CHARS + 4)),
        );
    }
    // The label of the call to each grouped store, shown in its row.
    let mut row_label: std::collections::BTreeMap<usize, String> = Default::default();
    for (i, e) in r.graph.edges.iter().enumerate() {
        if d.grouped(e.to) && e.attempts > 1 {
            row_label.insert(e.to, texts[i].clone());
        }
    }
    for (i, s) in r.graph.services.iter().enumerate() {
        let rect = d.service_rect(i);
        let grouped = d.grouped(i);
        let mut class = String::from("node");
        if s.entry {
            class.push_str(" entry");
        }
        if grouped {
            class.push_str(" store");
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
        if grouped {
            let w = rect.x1 - rect.x0;
            let label = row_label.get(&i).map(String::as_str).unwrap_or("");
            let room = ((w - 12.0) / LABEL_CHAR_W) as usize;
            let name_chars = room.saturating_sub(label.chars().count() + 1).max(4);
            let _ = writeln!(
                out,
                r##"<g class="{class}" id="{}" transform="translate({:.0} {:.0})" data-name="{}" data-group="grp-{}"><title>{}</title><rect width="{w:.0}" height="{ROW_H}" rx="4" fill="#f9fafb" stroke="{stroke}" stroke-width="{sw}"/><text x="6" y="{}" font-size="11" fill="#111827">{}</text><text x="{:.0}" y="{}" text-anchor="end" font-size="10" fill="{}">{}</text></g>"##,
                s.id,
                rect.x0,
                rect.y0,
                esc(&s.name),
                d.box_of[i],
                esc(&tip),
                ROW_H / 2 + 4,
                esc(&truncate(&s.name, name_chars)),
                w - 6.0,
                ROW_H / 2 + 4,
                if hot.contains(&i) {
                    "#c81e1e"
                } else {
                    "#374151"
                },
                esc(label),
            );
            continue;
        }
        let _ = writeln!(
            out,
            r##"<g class="{class}" id="{}" transform="translate({:.0} {:.0})" data-name="{}"><title>{}</title><rect width="{NODE_W}" height="{NODE_H}" rx="6" fill="#f9fafb" stroke="{stroke}" stroke-width="{sw}"/><text x="{}" y="{}" text-anchor="middle" font-size="12" fill="#111827">{}</text></g>"##,
            s.id,
            rect.x0,
            rect.y0,
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
