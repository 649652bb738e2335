//! report.html: one self-contained page. Inline CSS and SVG only: no
//! script, no font, no image or style sheet from elsewhere, and a
//! Content-Security-Policy that forbids them, so the page shows the same
//! offline, in a CI artifact viewer, or attached to a ticket. Every string
//! from a scanned file goes through [`esc`].

use super::{
    LayerData, PolicyData, Report, SourceRef, attempts_word, layer_word, svg, timeouts_word,
};
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
ol.fix-first li { margin: 4px 0; }
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

/// A value with `(default)` styled.
fn value(s: &str) -> String {
    match s.strip_suffix(" (default)") {
        Some(v) => format!("{} <span class=\"default\">(default)</span>", esc(v)),
        None => esc(s),
    }
}

pub fn render(r: &Report) -> String {
    let mut o = String::new();
    o.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    o.push_str("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n");
    o.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    o.push_str("<title>retrylint audit</title>\n<style>");
    o.push_str(STYLE);
    o.push_str("</style>\n</head>\n<body>\n<header>\n<h1>Retry and timeout audit</h1>\n");
    let roots: Vec<String> = r
        .roots
        .iter()
        .map(|p| format!("<code>{}</code>", esc(p)))
        .collect();
    let _ = writeln!(
        o,
        "<p class=\"meta\">{} {}, over {}: {} files scanned, {} read.</p>",
        r.tool.name,
        r.tool.version,
        roots.join(", "),
        r.summary.files_scanned,
        r.summary.files_read
    );
    o.push_str(concat!(
        "<nav><ul>",
        "<li><a href=\"#summary\">Summary</a></li>",
        "<li><a href=\"#graph\">Call graph</a></li>",
        "<li><a href=\"#worst-paths\">Worst paths</a></li>",
        "<li><a href=\"#policies\">Retry policies</a></li>",
        "<li><a href=\"#findings\">Findings</a></li>",
        "<li><a href=\"#defaults\">Implicit defaults</a></li>",
        "</ul></nav>\n</header>\n<main>\n"
    ));
    summary(&mut o, r);
    graph(&mut o, r);
    worst_paths(&mut o, r);
    policies(&mut o, r);
    findings(&mut o, r);
    defaults(&mut o, r);
    notices(&mut o, r);
    let _ = writeln!(
        o,
        "</main>\n<footer>Written by {} {}; the same data is in report.json (docs/audit-report.md describes it).</footer>\n</body>\n</html>",
        r.tool.name, r.tool.version
    );
    o
}

fn summary(o: &mut String, r: &Report) {
    let s = &r.summary;
    o.push_str("<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"cards\">\n");
    let card = |o: &mut String, n: String, what: &str, bad: bool| {
        let _ = writeln!(
            o,
            "<div class=\"card{}\"><div class=\"n\">{n}</div><div>{what}</div></div>",
            if bad { " bad" } else { "" }
        );
    };
    card(o, s.services.to_string(), "services", false);
    card(o, s.edges.to_string(), "calls", false);
    card(o, s.policies.to_string(), "retry policies", false);
    card(o, s.errors.to_string(), "errors", s.errors > 0);
    card(o, s.warnings.to_string(), "warnings", false);
    card(o, s.infos.to_string(), "infos", false);
    match &s.worst_amplification {
        Some(w) => card(
            o,
            format!("{}\u{d7}", w.attempts),
            "worst amplification",
            w.attempts > 1,
        ),
        None => card(o, "1\u{d7}".into(), "worst amplification", false),
    }
    o.push_str("</div>\n");
    if let Some(w) = &s.worst_amplification {
        let _ = writeln!(
            o,
            "<p>The worst path, <strong>{}</strong>, sends up to <strong>{}</strong> attempts to its last service for one call at its entry: <span class=\"arith\">{}</span>.</p>",
            esc(&w.services.join(" \u{2192} ")),
            w.attempts,
            esc(&w.arithmetic)
        );
    } else {
        o.push_str("<p>No call path retries across hops.</p>\n");
    }
    if !s.fix_first.is_empty() {
        o.push_str("<h3>Fix first</h3>\n<ol class=\"fix-first\">\n");
        for f in &s.fix_first {
            let _ = writeln!(
                o,
                "<li>{} <a href=\"#rule-{code}\">{code}</a> {name} at {}: {}. <span class=\"muted\">Fix: {}</span></li>",
                sev(f.severity),
                src(&Some(f.source.clone())),
                message(&f.message),
                message(&f.help),
                code = f.code,
                name = f.name
            );
        }
        o.push_str("</ol>\n");
    }
    o.push_str("<h3>Retry policies found, per system</h3>\n");
    if s.policies_by_system.is_empty() {
        o.push_str("<p class=\"muted\">None.</p>\n");
    } else {
        o.push_str("<table><thead><tr><th>System</th><th class=\"num\">Policies</th></tr></thead><tbody>\n");
        for (sys, n) in &s.policies_by_system {
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td class=\"num\">{n}</td></tr>",
                esc(sys)
            );
        }
        o.push_str("</tbody></table>\n");
    }
    o.push_str("<h3>Findings, per rule and severity</h3>\n");
    if s.findings_by_rule.is_empty() {
        o.push_str("<p class=\"muted\">No findings.</p>\n");
    } else {
        o.push_str("<table><thead><tr><th>Rule</th><th class=\"num\">Errors</th><th class=\"num\">Warnings</th><th class=\"num\">Infos</th></tr></thead><tbody>\n");
        for c in &s.findings_by_rule {
            let _ = writeln!(
                o,
                "<tr><td><a href=\"#rule-{code}\">{code}</a> {name}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                c.error,
                c.warning,
                c.info,
                code = c.code,
                name = c.name
            );
        }
        let _ = writeln!(
            o,
            "<tr><th>Total</th><th class=\"num\">{}</th><th class=\"num\">{}</th><th class=\"num\">{}</th></tr>",
            s.errors, s.warnings, s.infos
        );
        o.push_str("</tbody></table>\n");
    }
    o.push_str("</section>\n");
}

fn graph(o: &mut String, r: &Report) {
    o.push_str("<section id=\"graph\">\n<h2>Call graph</h2>\n");
    if r.graph.services.is_empty() {
        o.push_str("<p class=\"muted\">No service or call was found.</p>\n</section>\n");
        return;
    }
    o.push_str("<p>Each box is a service, each arrow a call, labelled with the attempts of every retry layer on it (multiplied) and the per-try timeout; hover for every layer. Entry points have a thick border.</p>\n");
    o.push_str("<div class=\"legend\"><span class=\"worst\">on a worst path</span><span>retries</span><span class=\"plain\">no retries</span><span class=\"back\">closes a cycle / calls back</span></div>\n");
    o.push_str("<div class=\"graph-scroll\">\n");
    o.push_str(&svg::render(r));
    o.push_str("</div>\n");
    if !r.graph.cycles.is_empty() {
        o.push_str("<h3>Cycles</h3>\n<ul>\n");
        for c in &r.graph.cycles {
            let _ = writeln!(o, "<li>{}</li>", esc(&c.join(" \u{2192} ")));
        }
        o.push_str("</ul>\n");
    }
    if !r.graph.notes.is_empty() {
        o.push_str("<h3>Calls not placed</h3>\n<ul>\n");
        for n in &r.graph.notes {
            let _ = writeln!(o, "<li>{}: {}</li>", src(&n.source), message(&n.message));
        }
        o.push_str("</ul>\n");
    }
    o.push_str("</section>\n");
}

fn layer_cells(l: &LayerData) -> String {
    format!(
        "<td>{}{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td>",
        layer_word(l.layer),
        if l.implicit {
            " <span class=\"default\">(default)</span>"
        } else {
            ""
        },
        esc(&l.system),
        message(&l.label),
        esc(&attempts_word(l)),
        esc(&timeouts_word(l)),
        message(&l.setting),
        src(&l.source)
    )
}

fn worst_paths(o: &mut String, r: &Report) {
    o.push_str("<section id=\"worst-paths\">\n<h2>Worst paths</h2>\n");
    let mut paths: Vec<(usize, &super::PathData)> = r.worst_paths.iter().enumerate().collect();
    paths.sort_by(|a, b| b.1.attempts.cmp(&a.1.attempts).then(a.0.cmp(&b.0)));
    if paths.is_empty() {
        o.push_str("<p class=\"muted\">No entry point calls anything.</p>\n</section>\n");
        return;
    }
    o.push_str("<p>From each entry point, the path on which one call can turn into the most attempts at the end, with every layer of every hop.</p>\n");
    for (i, p) in paths {
        let _ = writeln!(
            o,
            "<h3 id=\"path-{i}\">From {}: {}\u{d7}</h3>\n<p>{} <span class=\"arith\">({})</span></p>",
            esc(&p.entry),
            p.attempts,
            esc(&p.services.join(" \u{2192} ")),
            esc(&p.arithmetic)
        );
        o.push_str("<table><thead><tr><th>Hop</th><th>Via</th><th>Layer</th><th>System</th><th>Policy</th><th class=\"num\">Attempts</th><th>Timeouts</th><th>Setting</th><th>Source</th></tr></thead><tbody>\n");
        for h in &p.hops {
            let hop = format!(
                "{} \u{2192} {}<br><span class=\"muted\">{}</span>",
                esc(&h.from),
                esc(&h.to),
                src(&h.source)
            );
            if h.layers.is_empty() {
                let _ = writeln!(
                    o,
                    "<tr><td>{hop}</td><td>{}</td><td colspan=\"7\" class=\"muted\">no retries</td></tr>",
                    message(&h.via)
                );
                continue;
            }
            for (k, l) in h.layers.iter().enumerate() {
                if k == 0 {
                    let _ = writeln!(
                        o,
                        "<tr><td rowspan=\"{n}\">{hop}</td><td rowspan=\"{n}\">{}</td>{}</tr>",
                        message(&h.via),
                        layer_cells(l),
                        n = h.layers.len()
                    );
                } else {
                    let _ = writeln!(o, "<tr>{}</tr>", layer_cells(l));
                }
            }
        }
        o.push_str("</tbody></table>\n");
    }
    o.push_str("</section>\n");
}

fn policy_row(p: &PolicyData) -> String {
    format!(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        esc(&p.system),
        p.name
            .as_deref()
            .map(|n| format!("<code>{}</code>", esc(n)))
            .unwrap_or_default(),
        esc(&p.applies_to),
        value(&p.attempts_text),
        value(&p.delay),
        value(&p.jitter),
        value(&p.per_try_timeout),
        value(&p.overall_timeout),
        value(&p.budget),
        value(&p.retry_on),
        src(&Some(p.source.clone()))
    )
}

fn policies(o: &mut String, r: &Report) {
    o.push_str("<section id=\"policies\">\n<h2>Retry policies by service</h2>\n");
    if r.services.is_empty() {
        o.push_str("<p class=\"muted\">No retry policy was found.</p>\n");
    } else {
        o.push_str("<p>Every retry policy found, under the service that runs it (a mesh policy under the service whose callers it applies to). Attempts count the first call. <span class=\"default\">(default)</span> marks a value nobody wrote.</p>\n");
    }
    for (i, s) in r.services.iter().enumerate() {
        let title = match &s.service {
            Some(n) => esc(n),
            None => "Not attributed to a service".into(),
        };
        let _ = writeln!(o, "<h3 id=\"policies-{i}\">{title}</h3>");
        o.push_str("<table><thead><tr><th>System</th><th>Name</th><th>Applies to</th><th class=\"num\">Attempts</th><th>Delay</th><th>Jitter</th><th>Per-try timeout</th><th>Overall timeout</th><th>Budget</th><th>Retries on</th><th>Source</th></tr></thead><tbody>\n");
        for p in &s.policies {
            o.push_str(&policy_row(p));
            o.push('\n');
        }
        o.push_str("</tbody></table>\n");
    }
    o.push_str("</section>\n");
}

fn findings(o: &mut String, r: &Report) {
    o.push_str("<section id=\"findings\">\n<h2>Findings by rule</h2>\n");
    if r.findings.is_empty() {
        o.push_str("<p class=\"muted\">No findings.</p>\n");
    }
    for g in &r.findings {
        let _ = writeln!(
            o,
            "<h3 id=\"rule-{code}\"><a href=\"{uri}\">{code} {name}</a> {} <span class=\"muted\">({})</span></h3>\n<p>{}</p>",
            sev(g.severity),
            super::severity_counts(&g.findings),
            message(g.summary),
            code = g.code,
            name = g.name,
            uri = esc(&g.help_uri)
        );
        o.push_str("<table><thead><tr><th>Severity</th><th>Where</th><th>Finding</th><th>Fix</th></tr></thead><tbody>\n");
        for f in &g.findings {
            let mut related = String::new();
            if !f.related.is_empty() {
                related.push_str("<ul class=\"related\">");
                for rel in &f.related {
                    let _ = write!(
                        related,
                        "<li>{}: {}</li>",
                        src(&Some(rel.source.clone())),
                        message(&rel.message)
                    );
                }
                related.push_str("</ul>");
            }
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td>{}</td><td>{}{related}</td><td>{}</td></tr>",
                sev(f.severity),
                src(&Some(f.source.clone())),
                message(&f.message),
                message(&f.help)
            );
        }
        o.push_str("</tbody></table>\n");
    }
    o.push_str("</section>\n");
}

fn defaults(o: &mut String, r: &Report) {
    o.push_str("<section id=\"defaults\">\n<h2>Implicit defaults</h2>\n");
    if r.implicit_defaults.is_empty() {
        o.push_str("<p class=\"muted\">No retry applies without being written.</p>\n");
    } else {
        o.push_str("<p>Retries that happen although no file asks for them: the platform's or library's default number of attempts.</p>\n");
    }
    for (i, g) in r.implicit_defaults.iter().enumerate() {
        let _ = writeln!(o, "<h3 id=\"defaults-{i}\">{}</h3>", esc(&g.system));
        o.push_str("<table><thead><tr><th>What</th><th>Default</th><th class=\"num\">Attempts</th><th>Applies to</th><th>Source</th></tr></thead><tbody>\n");
        for e in &g.entries {
            let applies: Vec<String> = e.applies_to.iter().map(|a| esc(a)).collect();
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>",
                message(&e.what),
                message(&e.setting),
                e.attempts.map_or("?".into(), |n| n.to_string()),
                applies.join("<br>"),
                src(&e.source)
            );
        }
        o.push_str("</tbody></table>\n");
    }
    o.push_str("</section>\n");
}

fn notices(o: &mut String, r: &Report) {
    if r.notices.is_empty() {
        return;
    }
    o.push_str("<section id=\"notices\">\n<h2>Not read</h2>\n<ul>\n");
    for n in &r.notices {
        match &n.path {
            Some(p) => {
                let _ = writeln!(o, "<li><code>{}</code>: {}</li>", esc(p), esc(&n.message));
            }
            None => {
                let _ = writeln!(o, "<li>{}</li>", esc(&n.message));
            }
        }
    }
    o.push_str("</ul>\n</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

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
