//! report.md: the report as GitHub-flavoured Markdown, the graph as a
//! Mermaid block that GitHub draws. Every string from a scanned file goes
//! through [`md`] (or [`code`], [`message`]): characters that Markdown,
//! GFM tables or inline HTML would read as syntax become character
//! references, which CommonMark always shows as the character itself.

use super::{LayerData, PolicyData, Report, SourceRef, attempts_word, layer_word, timeouts_word};
use crate::render::graph::quote_mermaid;
use crate::render::sanitize;
use std::fmt::Write;

/// Text safe anywhere in a Markdown line and in a GFM table cell:
/// `<` and `&` as character references (no tag, autolink or entity can
/// start), other syntax characters backslash-escaped, line breaks as
/// spaces.
pub fn md(s: &str) -> String {
    let s = sanitize(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '~' | '$' | '#' | '>' | '!' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A value shown as code: a backtick span when nothing in it needs
/// escaping, `<code>` with character references otherwise.
pub fn code(s: &str) -> String {
    let plain = !s.is_empty()
        && !s
            .chars()
            .any(|c| matches!(c, '`' | '|' | '<' | '>' | '&' | '\\') || c.is_control())
        && !s.starts_with(' ')
        && !s.ends_with(' ');
    if plain {
        format!("`{s}`")
    } else {
        format!("<code>{}</code>", md(s))
    }
}

/// A message whose `backticked` parts become code; the rest escaped.
pub fn message(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return md(s);
    }
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i % 2 == 1 {
            out.push_str(&code(p));
        } else {
            out.push_str(&md(p));
        }
    }
    out
}

/// Text safe inside a quoted Mermaid label in a fenced block.
fn mermaid_text(s: &str) -> String {
    quote_mermaid(&sanitize(s))
        .replace('`', "#96;")
        .replace(['\t'], " ")
}

fn src(s: &Option<SourceRef>) -> String {
    match s {
        Some(s) => code(&s.short()),
        None => "configuration".into(),
    }
}

fn value(s: &str) -> String {
    match s.strip_suffix(" (default)") {
        Some(v) => format!("{} _(default)_", md(v)),
        None => md(s),
    }
}

pub fn render(r: &Report) -> String {
    let mut o = String::new();
    o.push_str("# Retry and timeout audit\n\n");
    let roots: Vec<String> = r.roots.iter().map(|p| code(p)).collect();
    let _ = writeln!(
        o,
        "{} {} over {}: {} files scanned, {} read. The same data is in `report.json` and, with the graph drawn, in `report.html`.\n",
        r.tool.name,
        r.tool.version,
        roots.join(", "),
        r.summary.files_scanned,
        r.summary.files_read
    );
    o.push_str("Contents: [Summary](#summary) · [Call graph](#call-graph) · [Worst paths](#worst-paths) · [Retry policies by service](#retry-policies-by-service) · [Findings by rule](#findings-by-rule) · [Implicit defaults](#implicit-defaults)\n\n");
    summary(&mut o, r);
    graph(&mut o, r);
    worst_paths(&mut o, r);
    policies(&mut o, r);
    findings(&mut o, r);
    defaults(&mut o, r);
    notices(&mut o, r);
    o
}

fn summary(o: &mut String, r: &Report) {
    let s = &r.summary;
    o.push_str("## Summary\n\n");
    let _ = writeln!(o, "- **{}** services, **{}** calls", s.services, s.edges);
    let _ = writeln!(o, "- **{}** retry policies", s.policies);
    let _ = writeln!(
        o,
        "- **{}** findings: {} errors, {} warnings, {} infos",
        s.findings, s.errors, s.warnings, s.infos
    );
    match &s.worst_amplification {
        Some(w) => {
            let _ = writeln!(
                o,
                "- worst amplification: **{}×** on {} ({})",
                w.attempts,
                md(&w.services.join(" → ")),
                md(&w.arithmetic)
            );
        }
        None => o.push_str("- worst amplification: none (no call path retries across hops)\n"),
    }
    if !s.fix_first.is_empty() {
        o.push_str("\n### Fix first\n\n");
        for (i, f) in s.fix_first.iter().enumerate() {
            let _ = writeln!(
                o,
                "{}. **[{code}](rules/{code}-{name}.md) {}** at {}: {}. Fix: {}",
                i + 1,
                f.severity,
                code(&f.source.short()),
                message(&f.message),
                message(&f.help),
                code = f.code,
                name = f.name
            );
        }
    }
    o.push_str("\n### Retry policies found, per system\n\n");
    if s.policies_by_system.is_empty() {
        o.push_str("None.\n\n");
    } else {
        o.push_str("| System | Policies |\n|---|---:|\n");
        for (sys, n) in &s.policies_by_system {
            let _ = writeln!(o, "| {} | {n} |", md(sys));
        }
        o.push('\n');
    }
    o.push_str("### Findings, per rule and severity\n\n");
    if s.findings_by_rule.is_empty() {
        o.push_str("No findings.\n\n");
    } else {
        o.push_str("| Rule | Errors | Warnings | Infos |\n|---|---:|---:|---:|\n");
        for c in &s.findings_by_rule {
            let _ = writeln!(
                o,
                "| [{code}](rules/{code}-{name}.md) {name} | {} | {} | {} |",
                c.error,
                c.warning,
                c.info,
                code = c.code,
                name = c.name
            );
        }
        let _ = writeln!(
            o,
            "| **Total** | **{}** | **{}** | **{}** |\n",
            s.errors, s.warnings, s.infos
        );
    }
}

fn graph(o: &mut String, r: &Report) {
    o.push_str("## Call graph\n\n");
    if r.graph.services.is_empty() {
        o.push_str("No service or call was found.\n\n");
        return;
    }
    o.push_str("Each arrow is a call, labelled with the attempts of every retry layer on it and the per-try timeout; red arrows are on a worst path, dotted ones close a cycle. Entry points have a thick border.\n\n");
    o.push_str("```mermaid\nflowchart LR\n");
    for (i, s) in r.graph.services.iter().enumerate() {
        let _ = writeln!(o, "  s{i}[\"{}\"]", mermaid_text(&s.name));
    }
    let mut red = Vec::new();
    for (i, e) in r.graph.edges.iter().enumerate() {
        let arrow = if e.back_edge { "-.->" } else { "-->" };
        let _ = writeln!(
            o,
            "  s{} {arrow}|\"{}\"| s{}",
            e.from,
            mermaid_text(&super::edge_short_label(e)),
            e.to
        );
        if e.on_worst_path {
            red.push(i);
        }
    }
    let entries: Vec<String> = r
        .graph
        .services
        .iter()
        .enumerate()
        .filter(|(_, s)| s.entry)
        .map(|(i, _)| format!("s{i}"))
        .collect();
    if !entries.is_empty() {
        o.push_str("  classDef entry stroke-width:3px\n");
        let _ = writeln!(o, "  class {} entry", entries.join(","));
    }
    if !red.is_empty() {
        let ids: Vec<String> = red.iter().map(|i| i.to_string()).collect();
        let _ = writeln!(
            o,
            "  linkStyle {} stroke:#c81e1e,stroke-width:3px",
            ids.join(",")
        );
    }
    o.push_str("```\n\n");
    if !r.graph.cycles.is_empty() {
        o.push_str("Cycles:\n\n");
        for c in &r.graph.cycles {
            let _ = writeln!(o, "- {}", md(&c.join(" → ")));
        }
        o.push('\n');
    }
    if !r.graph.notes.is_empty() {
        o.push_str("Calls not placed:\n\n");
        for n in &r.graph.notes {
            let _ = writeln!(o, "- at {}: {}", src(&n.source), message(&n.message));
        }
        o.push('\n');
    }
}

fn layer_cells(l: &LayerData) -> String {
    format!(
        "{}{} | {} | {} | {} | {} | {} | {}",
        layer_word(l.layer),
        if l.implicit { " _(default)_" } else { "" },
        md(&l.system),
        message(&l.label),
        md(&attempts_word(l)),
        md(&timeouts_word(l)),
        message(&l.setting),
        src(&l.source)
    )
}

fn worst_paths(o: &mut String, r: &Report) {
    o.push_str("## Worst paths\n\n");
    let mut paths: Vec<&super::PathData> = r.worst_paths.iter().collect();
    paths.sort_by_key(|p| std::cmp::Reverse(p.attempts));
    if paths.is_empty() {
        o.push_str("No entry point calls anything.\n\n");
        return;
    }
    o.push_str("From each entry point, the path on which one call can turn into the most attempts at the end, with every layer of every hop.\n\n");
    for p in paths {
        let _ = writeln!(o, "### From {}: {}×\n", md(&p.entry), p.attempts);
        let _ = writeln!(
            o,
            "{} ({})\n",
            md(&p.services.join(" → ")),
            md(&p.arithmetic)
        );
        o.push_str("| Hop | Via | Layer | System | Policy | Attempts | Timeouts | Setting | Source |\n|---|---|---|---|---|---:|---|---|---|\n");
        for h in &p.hops {
            let hop = format!("{} → {} ({})", md(&h.from), md(&h.to), src(&h.source));
            if h.layers.is_empty() {
                let _ = writeln!(
                    o,
                    "| {hop} | {} | none | | no retries | 1 | | | |",
                    message(&h.via)
                );
                continue;
            }
            for (k, l) in h.layers.iter().enumerate() {
                if k == 0 {
                    let _ = writeln!(o, "| {hop} | {} | {} |", message(&h.via), layer_cells(l));
                } else {
                    let _ = writeln!(o, "| ↳ | | {} |", layer_cells(l));
                }
            }
        }
        o.push('\n');
    }
}

fn policy_row(p: &PolicyData) -> String {
    format!(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        md(&p.system),
        p.name.as_deref().map(code).unwrap_or_default(),
        md(&p.applies_to),
        value(&p.attempts_text),
        value(&p.delay),
        value(&p.jitter),
        value(&p.per_try_timeout),
        value(&p.overall_timeout),
        value(&p.budget),
        value(&p.retry_on),
        code(&p.source.short())
    )
}

fn policies(o: &mut String, r: &Report) {
    o.push_str("## Retry policies by service\n\n");
    if r.services.is_empty() {
        o.push_str("No retry policy was found.\n\n");
        return;
    }
    o.push_str("Every retry policy found, under the service that runs it (a mesh policy under the service whose callers it applies to). Attempts count the first call; _(default)_ marks a value nobody wrote.\n\n");
    for s in &r.services {
        match &s.service {
            Some(n) => {
                let _ = writeln!(o, "### {}\n", md(n));
            }
            None => o.push_str("### Not attributed to a service\n\n"),
        }
        o.push_str("| System | Name | Applies to | Attempts | Delay | Jitter | Per-try timeout | Overall timeout | Budget | Retries on | Source |\n|---|---|---|---:|---|---|---|---|---|---|---|\n");
        for p in &s.policies {
            o.push_str(&policy_row(p));
            o.push('\n');
        }
        o.push('\n');
    }
}

fn findings(o: &mut String, r: &Report) {
    o.push_str("## Findings by rule\n\n");
    if r.findings.is_empty() {
        o.push_str("No findings.\n\n");
        return;
    }
    for g in &r.findings {
        let _ = writeln!(
            o,
            "### [{code} {name}]({doc}) ({})\n\n{}\n",
            super::severity_counts(&g.findings),
            message(g.summary),
            code = g.code,
            name = g.name,
            doc = g.doc
        );
        o.push_str("| Severity | Where | Finding | Fix |\n|---|---|---|---|\n");
        for f in &g.findings {
            let mut cell = message(&f.message);
            for rel in &f.related {
                let _ = write!(
                    cell,
                    "<br>↳ {}: {}",
                    code(&rel.source.short()),
                    message(&rel.message)
                );
            }
            let _ = writeln!(
                o,
                "| {} | {} | {cell} | {} |",
                f.severity,
                code(&f.source.short()),
                message(&f.help)
            );
        }
        o.push('\n');
    }
}

fn defaults(o: &mut String, r: &Report) {
    o.push_str("## Implicit defaults\n\n");
    if r.implicit_defaults.is_empty() {
        o.push_str("No retry applies without being written.\n\n");
        return;
    }
    o.push_str("Retries that happen although no file asks for them: the platform's or library's default number of attempts.\n\n");
    for g in &r.implicit_defaults {
        let _ = writeln!(o, "### {}\n", md(&g.system));
        o.push_str("| What | Default | Attempts | Applies to | Source |\n|---|---|---:|---|---|\n");
        for e in &g.entries {
            let applies: Vec<String> = e.applies_to.iter().map(|a| md(a)).collect();
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} |",
                message(&e.what),
                message(&e.setting),
                e.attempts.map_or("?".into(), |n| n.to_string()),
                applies.join("<br>"),
                src(&e.source)
            );
        }
        o.push('\n');
    }
}

fn notices(o: &mut String, r: &Report) {
    if r.notices.is_empty() {
        return;
    }
    o.push_str("## Not read\n\n");
    for n in &r.notices {
        match &n.path {
            Some(p) => {
                let _ = writeln!(o, "- not read: {}: {}", code(p), md(&n.message));
            }
            None => {
                let _ = writeln!(o, "- not read: {}", md(&n.message));
            }
        }
    }
    o.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md_escapes_syntax_and_markup() {
        assert_eq!(md("a|b"), "a\\|b");
        assert_eq!(md("<script>&x"), "&lt;script\\>&amp;x");
        assert_eq!(
            md("*em* _u_ [l](u) `c` ~s~ $m$ #h !"),
            "\\*em\\* \\_u\\_ \\[l\\](u) \\`c\\` \\~s\\~ \\$m\\$ \\#h \\!"
        );
        assert_eq!(md("a\\|b"), "a\\\\\\|b");
        assert_eq!(md("two\nlines\r\tx"), "two lines  x");
        assert_eq!(md("esc\u{1b}[31m"), "esc?\\[31m");
    }

    #[test]
    fn code_uses_a_span_only_when_nothing_needs_escaping() {
        assert_eq!(code("maxAttempts: 3"), "`maxAttempts: 3`");
        assert_eq!(code("a|b"), "<code>a\\|b</code>");
        assert_eq!(code("<x>"), "<code>&lt;x\\></code>");
        assert_eq!(code("a`b"), "<code>a\\`b</code>");
        assert_eq!(code(""), "<code></code>");
    }

    #[test]
    fn message_turns_backticks_into_code_and_escapes_the_rest() {
        assert_eq!(
            message("`payments` waits a_b `1s|2s`"),
            "`payments` waits a\\_b <code>1s\\|2s</code>"
        );
        // Unbalanced backticks are shown, escaped.
        assert_eq!(message("a `b"), "a \\`b");
    }
}
