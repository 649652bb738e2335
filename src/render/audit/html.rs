//! report.html: one self-contained page. Inline CSS and SVG, and one
//! inline script of ours ([`SCRIPT`]: pan/zoom, hover, filter for the
//! graph) allowed by its hash; no font, no image, script or style sheet
//! from elsewhere, and a Content-Security-Policy that forbids them, so the
//! page shows the same offline, in a CI artifact viewer, or attached to a
//! ticket; with scripts off the graph is a static picture. Every string
//! from a scanned file goes through [`esc`].

use super::doc::{self, Block, Inline, Row, Table};
use super::{Report, SourceRef, svg};
use crate::render::sanitize;
use std::fmt::Write;

/// Text or attribute value safe in HTML (and in inline SVG): markup
/// characters as entities, control characters as `?`.
pub fn esc(s: &str) -> String {
    let s = sanitize(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// A message whose `backticked` parts become `<code>`; all of it escaped.
pub fn message(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len().is_multiple_of(2) {
        // Unbalanced backticks: show them as written.
        return esc(s);
    }
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", esc(p));
        } else {
            out.push_str(&esc(p));
        }
    }
    out
}

/// The page's one script, and its hash for the Content-Security-Policy
/// (a test recomputes it with `openssl`).
pub const SCRIPT: &str = include_str!("page.js");
pub const SCRIPT_HASH: &str = "sha256-nMLh2msTZBwVB2xT52WT99TJgBlionMX/quQM2Cqh4Q=";

const STYLE: &str = r#"
:root { --fg:#111827; --muted:#4b5563; --line:#e5e7eb; --bg:#ffffff; --soft:#f3f4f6; --red:#c81e1e; --amber:#b45309; --blue:#1d4ed8; }
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); line-height: 1.45; }
header, main { max-width: 1400px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; }
h1 { font-size: 1.7rem; margin: 0 0 4px; }
h2 { font-size: 1.3rem; margin: 36px 0 12px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.05rem; margin: 24px 0 8px; }
p.meta, .muted { color: var(--muted); }
nav ul { list-style: none; padding: 0; margin: 12px 0; display: flex; flex-wrap: wrap; gap: 6px 18px; }
nav a, a { color: var(--blue); }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9em; background: var(--soft); padding: 0 3px; border-radius: 3px; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; font-size: 0.9rem; }
th, td { border: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 12px 0; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-width: 140px; }
.card .n { font-size: 1.6rem; font-weight: 700; }
.card.bad .n { color: var(--red); }
.sev { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: 0.8rem; font-weight: 600; color: #fff; }
.sev.error { background: var(--red); }
.sev.warning { background: var(--amber); }
.sev.info { background: var(--blue); }
.default { color: var(--amber); font-style: italic; }
.graph-scroll { overflow: auto; max-height: 85vh; border: 1px solid var(--line); border-radius: 8px; background: #fff; }
.legend { display: flex; flex-wrap: wrap; gap: 18px; font-size: 0.85rem; color: var(--muted); margin: 6px 0; }
.legend span::before { content: ""; display: inline-block; width: 26px; height: 0; vertical-align: middle; margin-right: 6px; border-top: 2px solid #6b7280; }
.legend .worst::before { border-top: 3px solid var(--red); }
.legend .plain::before { border-top: 1px solid #9ca3af; }
.legend .back::before { border-top: 2px dashed #6b7280; }
svg.call-graph { display: block; }
svg .node rect { fill: #f9fafb; }
svg .node.entry rect { fill: #eef2ff; }
svg .node.hot rect { fill: #fef2f2; }
ol li { margin: 4px 0; }
.graph-tools { display: flex; gap: 10px; align-items: center; margin: 6px 0; font-size: 0.85rem; color: var(--muted); }
.graph-tools input { width: 340px; padding: 4px 8px; font: inherit; }
svg.call-graph { touch-action: none; }
svg.focus g.edge:not(.lit), svg.focus g.node:not(.lit), svg.focus g.edge-label:not(.lit) { opacity: 0.12; }
details { border-top: 1px solid var(--line); }
details > summary { cursor: pointer; list-style-position: outside; margin-left: 18px; }
details > summary h3 { display: inline; }
ul.related { margin: 4px 0 0; padding-left: 18px; font-size: 0.85rem; color: var(--muted); }
.arith { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.85rem; }
footer { max-width: 1400px; margin: 40px auto 24px; padding: 0 24px; color: var(--muted); font-size: 0.85rem; }
"#;

fn src(s: &Option<SourceRef>) -> String {
    match s {
        Some(s) => format!("<code>{}</code>", esc(&s.short())),
        None => "<span class=\"muted\">configuration</span>".into(),
    }
}

fn sev(s: crate::rules::Severity) -> String {
    format!("<span class=\"sev {s}\">{s}</span>")
}

const DEFAULT_MARK: &str = "<span class=\"default\">(default)</span>";

fn inline(o: &mut String, i: &Inline) {
    match i {
        Inline::Plain(s) => o.push_str(s),
        Inline::Text(s) => o.push_str(&esc(s)),
        Inline::Code(s) => {
            let _ = write!(o, "<code>{}</code>", esc(s));
        }
        Inline::Message(s) => o.push_str(&message(s)),
        Inline::Value(s) => match s.strip_suffix(" (default)") {
            Some(v) => {
                let _ = write!(o, "{} {DEFAULT_MARK}", esc(v));
            }
            None => o.push_str(&esc(s)),
        },
        Inline::Source(s) => o.push_str(&src(s)),
        Inline::Severity(s) => o.push_str(&sev(*s)),
        Inline::RuleRef { code, name } => {
            let _ = write!(o, "<a href=\"#rule-{code}\">{code}</a> {name}");
        }
        Inline::RuleDoc { help_uri, .. } => {
            let _ = write!(o, "(<a href=\"{}\">rule documentation</a>)", esc(help_uri));
        }
        Inline::Strong(v) => wrap(o, "<strong>", v, "</strong>"),
        Inline::Muted(v) => wrap(o, "<span class=\"muted\">", v, "</span>"),
        Inline::Arith(s) => {
            let _ = write!(o, "<span class=\"arith\">{}</span>", esc(s));
        }
        Inline::DefaultMark => o.push_str(DEFAULT_MARK),
        Inline::Break => o.push_str("<br>"),
        Inline::Related(places) => {
            o.push_str("<ul class=\"related\">");
            for (at, m) in places {
                let _ = write!(o, "<li>{}: {}</li>", src(&Some(at.clone())), message(m));
            }
            o.push_str("</ul>");
        }
    }
}

fn wrap(o: &mut String, open: &str, v: &[Inline], close: &str) {
    o.push_str(open);
    inlines(o, v);
    o.push_str(close);
}

fn inlines(o: &mut String, v: &[Inline]) {
    for i in v {
        inline(o, i);
    }
}

fn cell(o: &mut String, tag: &str, numeric: bool, span: usize, c: &[Inline]) {
    let _ = write!(o, "<{tag}");
    if span > 1 {
        let _ = write!(o, " rowspan=\"{span}\"");
    }
    if numeric {
        o.push_str(" class=\"num\"");
    }
    o.push('>');
    inlines(o, c);
    let _ = write!(o, "</{tag}>");
}

fn table(o: &mut String, t: &Table) {
    o.push_str("<table><thead><tr>");
    for c in &t.columns {
        cell(o, "th", c.numeric, 1, &[Inline::Plain(c.title)]);
    }
    o.push_str("</tr></thead><tbody>\n");
    let numeric = |k: usize| t.columns.get(k).is_some_and(|c| c.numeric);
    for row in &t.rows {
        match row {
            Row::Cells(cells) | Row::Total(cells) => {
                let tag = if matches!(row, Row::Total(_)) {
                    "th"
                } else {
                    "td"
                };
                o.push_str("<tr>");
                for (k, c) in cells.iter().enumerate() {
                    cell(o, tag, numeric(k), 1, c);
                }
                o.push_str("</tr>\n");
            }
            Row::Group { lead, rows } => {
                for (r, cells) in rows.iter().enumerate() {
                    o.push_str("<tr>");
                    if r == 0 {
                        for (k, c) in lead.iter().enumerate() {
                            cell(o, "td", numeric(k), rows.len(), c);
                        }
                    }
                    for (k, c) in cells.iter().enumerate() {
                        cell(o, "td", numeric(lead.len() + k), 1, c);
                    }
                    o.push_str("</tr>\n");
                }
            }
        }
    }
    o.push_str("</tbody></table>\n");
}

fn block(o: &mut String, b: &Block, r: &Report) {
    match b {
        Block::Para(v) => wrap(o, "<p>", v, "</p>\n"),
        Block::Empty(s) => {
            let _ = writeln!(o, "<p class=\"muted\">{s}</p>");
        }
        Block::Heading { id, text } => {
            match id {
                Some(id) => {
                    let _ = write!(o, "<h3 id=\"{}\">", esc(id));
                }
                None => o.push_str("<h3>"),
            }
            wrap(o, "", text, "</h3>\n");
        }
        Block::List { ordered, items } => {
            let tag = if *ordered { "ol" } else { "ul" };
            let _ = writeln!(o, "<{tag}>");
            for item in items {
                wrap(o, "<li>", item, "</li>\n");
            }
            let _ = writeln!(o, "</{tag}>");
        }
        Block::Table(t) => table(o, t),
        Block::Figures(figures) => {
            o.push_str("<div class=\"cards\">\n");
            for f in figures {
                let _ = writeln!(
                    o,
                    "<div class=\"card{}\"><div class=\"n\">{}</div><div>{}</div></div>",
                    if f.bad { " bad" } else { "" },
                    esc(&f.value),
                    f.what
                );
            }
            o.push_str("</div>\n");
        }
        // simulation (issue 24)
        Block::Simulation(i) => o.push_str(&super::simulation::html(r, *i)),
        Block::Details {
            id,
            title,
            note,
            open,
            blocks,
        } => {
            let _ = write!(
                o,
                "<details id=\"{}\"{}><summary><h3>{} ",
                esc(id),
                if *open { " open" } else { "" },
                esc(title)
            );
            wrap(o, "", note, "</h3></summary>\n");
            for b in blocks {
                block(o, b, r);
            }
            o.push_str("</details>\n");
        }
        Block::CallGraph => {
            o.push_str("<p>Each box is a service, each arrow a call, labelled with the attempts of every retry layer on it (multiplied) and the per-try timeout; hover for every layer. Entry points have a thick border.</p>\n");
            o.push_str("<div class=\"legend\"><span class=\"worst\">on a worst path</span><span>retries</span><span class=\"plain\">no retries</span><span class=\"back\">closes a cycle / calls back</span></div>\n");
            o.push_str("<div class=\"graph-scroll\">\n");
            o.push_str(&svg::render(r));
            o.push_str("</div>\n");
        }
    }
}

pub fn render(r: &Report) -> String {
    let sections = doc::sections(r);
    let mut o = String::new();
    o.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(
        o,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src '{SCRIPT_HASH}'\">"
    );
    o.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    o.push_str("<title>retrylint audit</title>\n<style>");
    o.push_str(STYLE);
    o.push_str("</style>\n</head>\n<body>\n<header>\n<h1>Retry and timeout audit</h1>\n");
    wrap(&mut o, "<p class=\"meta\">", &doc::byline(r), "</p>\n");
    o.push_str("<nav><ul>");
    for s in &sections {
        let _ = write!(o, "<li><a href=\"#{}\">{}</a></li>", s.id, s.title);
    }
    o.push_str("</ul></nav>\n</header>\n<main>\n");
    for s in &sections {
        let _ = writeln!(o, "<section id=\"{}\">\n<h2>{}</h2>", s.id, s.title);
        for b in &s.blocks {
            block(&mut o, b, r);
        }
        o.push_str("</section>\n");
    }
    let _ = writeln!(
        o,
        "</main>\n<footer>Written by {} {}; the same data is in report.json (docs/audit-report.md describes it).</footer>\n<script>{SCRIPT}</script>\n</body>\n</html>",
        r.tool.name, r.tool.version
    );
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_hash_is_the_scripts() {
        let out = std::process::Command::new("sh")
            .args([
                "-c",
                "openssl dgst -sha256 -binary src/render/audit/page.js | base64",
            ])
            .output()
            .expect("openssl");
        assert!(out.status.success());
        let hash = String::from_utf8(out.stdout).unwrap();
        assert_eq!(format!("sha256-{}", hash.trim()), SCRIPT_HASH);
        assert!(!SCRIPT.contains("</"), "the script would end its element");
    }

    #[test]
    fn esc_covers_text_and_attributes() {
        assert_eq!(
            esc("<a href=\"x\" title='y'>&</a>"),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        );
        assert_eq!(esc("bell\u{7}"), "bell?");
    }

    #[test]
    fn message_code_spans() {
        assert_eq!(
            message("`<b>` retries `3`"),
            "<code>&lt;b&gt;</code> retries <code>3</code>"
        );
        assert_eq!(message("odd ` tick"), "odd ` tick");
    }
}
