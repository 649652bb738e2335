//! report.md: the report as GitHub-flavoured Markdown, the graph as a
//! Mermaid block that GitHub draws. Every string from a scanned file goes
//! through [`md`] (or [`code`], [`message`]): characters that Markdown,
//! GFM tables or inline HTML would read as syntax become character
//! references, which CommonMark always shows as the character itself.

use super::doc::{self, Block, Inline, Row, Table};
use super::{Report, SourceRef};
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

fn inline(o: &mut String, i: &Inline) {
    match i {
        Inline::Plain(s) => o.push_str(s),
        Inline::Text(s) => o.push_str(&md(s)),
        Inline::Code(s) => o.push_str(&code(s)),
        Inline::Message(s) => o.push_str(&message(s)),
        Inline::Value(s) => match s.strip_suffix(" (default)") {
            Some(v) => {
                let _ = write!(o, "{} _(default)_", md(v));
            }
            None => o.push_str(&md(s)),
        },
        Inline::Source(s) => o.push_str(&src(s)),
        Inline::Severity(s) => {
            let _ = write!(o, "{s}");
        }
        // The rule's part of this report, where GitHub puts the anchor of
        // its heading (`### RL401 retry-amplification`).
        Inline::RuleRef { code, name } => {
            let _ = write!(o, "[{code}](#{}) {name}", anchor(&format!("{code} {name}")));
        }
        Inline::RuleDoc { help_uri, .. } => {
            let _ = write!(o, "([rule documentation]({help_uri}))");
        }
        Inline::Strong(v) => {
            o.push_str("**");
            inlines(o, v);
            o.push_str("**");
        }
        Inline::Muted(v) => inlines(o, v),
        Inline::Arith(s) => o.push_str(&md(s)),
        Inline::DefaultMark => o.push_str("_(default)_"),
        Inline::Break => o.push_str("<br>"),
        Inline::Related(places) => {
            for (at, m) in places {
                let _ = write!(o, "<br>↳ {}: {}", code(&at.short()), message(m));
            }
        }
    }
}

fn inlines(o: &mut String, v: &[Inline]) {
    for i in v {
        inline(o, i);
    }
}

fn row<'a>(o: &mut String, cells: impl IntoIterator<Item = &'a [Inline]>, strong: bool) {
    o.push('|');
    for c in cells {
        o.push(' ');
        if strong && !c.is_empty() {
            o.push_str("**");
            inlines(o, c);
            o.push_str("**");
        } else {
            inlines(o, c);
        }
        o.push_str(" |");
    }
    o.push('\n');
}

fn table(o: &mut String, t: &Table) {
    let titles: Vec<[Inline; 1]> = t.columns.iter().map(|c| [Inline::Plain(c.title)]).collect();
    row(o, titles.iter().map(|c| &c[..]), false);
    o.push('|');
    for c in &t.columns {
        o.push_str(if c.numeric { "---:|" } else { "---|" });
    }
    o.push('\n');
    let follow = [Inline::Plain("↳")];
    for r in &t.rows {
        match r {
            Row::Cells(cells) => row(o, cells.iter().map(|c| &c[..]), false),
            Row::Total(cells) => row(o, cells.iter().map(|c| &c[..]), true),
            Row::Group { lead, rows } => {
                for (k, cells) in rows.iter().enumerate() {
                    let lead_cells = lead.iter().enumerate().map(|(i, c)| match (k, i) {
                        (0, _) => &c[..],
                        (_, 0) => &follow[..],
                        _ => &[][..],
                    });
                    row(o, lead_cells.chain(cells.iter().map(|c| &c[..])), false);
                }
            }
        }
    }
    o.push('\n');
}

fn block(o: &mut String, b: &Block, r: &Report) {
    match b {
        Block::Para(v) => {
            inlines(o, v);
            o.push_str("\n\n");
        }
        Block::Empty(s) => {
            let _ = write!(o, "{s}\n\n");
        }
        Block::Heading { text, .. } => {
            o.push_str("### ");
            inlines(o, text);
            o.push_str("\n\n");
        }
        Block::List { ordered, items } => {
            for (i, item) in items.iter().enumerate() {
                if *ordered {
                    let _ = write!(o, "{}. ", i + 1);
                } else {
                    o.push_str("- ");
                }
                inlines(o, item);
                o.push('\n');
            }
            o.push('\n');
        }
        Block::Table(t) => table(o, t),
        Block::Figures(figures) => {
            for f in figures {
                let _ = writeln!(o, "- **{}** {}", md(&f.value), f.what);
            }
            o.push('\n');
        }
        Block::CallGraph => graph(o, r),
        // simulation (issue 24)
        Block::Simulation(i) => o.push_str(&super::simulation::markdown(r, *i)),
        Block::Details {
            title,
            note,
            blocks,
            ..
        } => {
            let _ = write!(o, "### {}\n\n", md(title));
            if !note.is_empty() {
                inlines(o, note);
                o.push_str("\n\n");
            }
            for b in blocks {
                block(o, b, r);
            }
        }
    }
}

/// GitHub's anchor for a heading of ours: lowercase, spaces as `-`.
fn anchor(title: &str) -> String {
    title.to_lowercase().replace(' ', "-")
}

pub fn render(r: &Report) -> String {
    let sections = doc::sections(r);
    let mut o = String::new();
    o.push_str("# Retry and timeout audit\n\n");
    inlines(&mut o, &doc::byline(r));
    o.push_str(
        " The same data is in `report.json` and, with the graph drawn, in `report.html`.\n\n",
    );
    let contents: Vec<String> = sections
        .iter()
        .map(|s| format!("[{}](#{})", s.title, anchor(s.title)))
        .collect();
    let _ = writeln!(o, "Contents: {}\n", contents.join(" · "));
    for s in &sections {
        let _ = writeln!(o, "## {}\n", s.title);
        for b in &s.blocks {
            block(&mut o, b, r);
        }
    }
    o
}

/// Past this many services, report.md draws only the calls on worst
/// paths: GitHub's Mermaid of a larger graph is a tangle (report.html
/// draws it whole).
const MERMAID_MAX_SERVICES: usize = 30;

/// The call graph as a Mermaid flowchart.
fn graph(o: &mut String, r: &Report) {
    let whole = r.graph.services.len() <= MERMAID_MAX_SERVICES;
    if whole {
        o.push_str("Each arrow is a call, labelled with the attempts of every retry layer on it and the per-try timeout; red arrows are on a worst path, dotted ones close a cycle. Entry points have a thick border.\n\n");
    } else {
        let _ = write!(
            o,
            "Only the calls on worst paths ({} of {} calls, between {} services) are drawn here; `report.html` draws the whole graph. Each arrow is labelled with the attempts of every retry layer on it and the per-try timeout.\n\n",
            r.graph.edges.iter().filter(|e| e.on_worst_path).count(),
            r.graph.edges.len(),
            r.graph.services.len()
        );
    }
    let shown_edges: Vec<usize> = (0..r.graph.edges.len())
        .filter(|&i| whole || r.graph.edges[i].on_worst_path)
        .collect();
    let shown: std::collections::BTreeSet<usize> = if whole {
        (0..r.graph.services.len()).collect()
    } else {
        shown_edges
            .iter()
            .flat_map(|&i| [r.graph.edges[i].from, r.graph.edges[i].to])
            .collect()
    };
    o.push_str("```mermaid\nflowchart LR\n");
    for (i, s) in r.graph.services.iter().enumerate() {
        if shown.contains(&i) {
            let _ = writeln!(o, "  s{i}[\"{}\"]", mermaid_text(&s.name));
        }
    }
    let mut red = Vec::new();
    // Link numbers count the links written, as Mermaid's linkStyle does.
    for (i, e) in shown_edges.iter().map(|&i| &r.graph.edges[i]).enumerate() {
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
        .filter(|(i, s)| s.entry && shown.contains(i))
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
