//! The report's pages as one document: sections of headings, paragraphs,
//! lists and tables whose text is still raw. [`super::html`] and
//! [`super::markdown`] write the same [`Section`]s, each escaping every raw
//! string its own way, so a section or a column is added here once. Only
//! `&'static str` text of ours ([`Inline::Plain`]) is written as is.

use super::{
    LayerData, PathData, PolicyData, Report, SourceRef, attempts_word, layer_word, timeouts_word,
};
use crate::rules::Severity;

/// A piece of running text.
#[derive(Clone, Debug)]
pub enum Inline {
    /// Fixed text of ours, written as is: no markup character of HTML or
    /// Markdown in it (a test checks).
    Plain(&'static str),
    /// Text from the report, escaped.
    Text(String),
    /// Text shown as code.
    Code(String),
    /// A message whose `backticked` parts become code.
    Message(String),
    /// A setting's value; a ` (default)` suffix becomes [`Inline::DefaultMark`].
    Value(String),
    /// Where something was written; "configuration" when nothing was.
    Source(Option<SourceRef>),
    Severity(Severity),
    /// A rule's code linked to its findings (in the page) or its doc
    /// (Markdown), then its name.
    RuleRef {
        code: &'static str,
        name: &'static str,
    },
    /// `code name` linked to the rule's documentation.
    RuleDoc {
        code: &'static str,
        name: &'static str,
        help_uri: String,
    },
    Strong(Vec<Inline>),
    /// Secondary text (greyed in HTML, plain in Markdown).
    Muted(Vec<Inline>),
    /// An attempts calculation (`3 × 2 = 6`).
    Arith(String),
    /// `(default)`: a value nobody wrote.
    DefaultMark,
    Break,
    /// Other places a finding involves, each `place: message`.
    Related(Vec<(SourceRef, String)>),
}

pub type Cell = Vec<Inline>;

#[derive(Clone, Debug)]
pub struct Column {
    pub title: &'static str,
    /// Right-aligned.
    pub numeric: bool,
}

#[derive(Clone, Debug)]
pub enum Row {
    Cells(Vec<Cell>),
    /// A totals row.
    Total(Vec<Cell>),
    /// Rows that share their first cells: HTML spans those over the
    /// group, Markdown writes them once and marks the following rows `↳`.
    Group {
        lead: Vec<Cell>,
        rows: Vec<Vec<Cell>>,
    },
}

#[derive(Clone, Debug)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

/// A headline number.
#[derive(Clone, Debug)]
pub struct Figure {
    pub value: String,
    pub what: &'static str,
    /// Worth attention (an error, an amplification).
    pub bad: bool,
}

#[derive(Clone, Debug)]
pub enum Block {
    Para(Vec<Inline>),
    /// What a section or part says when it has nothing to show.
    Empty(&'static str),
    /// A heading under the section's; `id` is its anchor in the page.
    Heading {
        id: Option<String>,
        text: Vec<Inline>,
    },
    List {
        ordered: bool,
        items: Vec<Vec<Inline>>,
    },
    Table(Table),
    Figures(Vec<Figure>),
    /// The call graph, drawn by each writer its own way (SVG, Mermaid).
    CallGraph,
    /// simulation (issue 24): worst path `i`'s outage chart
    /// (`super::simulation`).
    Simulation(usize),
    /// A part that HTML folds (`<details>`) and Markdown writes as a
    /// heading whose anchor GitHub derives from `title` (letters, digits,
    /// `-` and spaces only).
    Details {
        /// The part's anchor in the page.
        id: String,
        title: String,
        /// Shown after the title (counts).
        note: Vec<Inline>,
        open: bool,
        blocks: Vec<Block>,
    },
}

#[derive(Clone, Debug)]
pub struct Section {
    /// The section's anchor in the page.
    pub id: &'static str,
    pub title: &'static str,
    pub blocks: Vec<Block>,
}

fn cols(spec: &[(&'static str, bool)]) -> Vec<Column> {
    spec.iter()
        .map(|&(title, numeric)| Column { title, numeric })
        .collect()
}

fn plain(s: &'static str) -> Cell {
    vec![Inline::Plain(s)]
}

fn text(s: &str) -> Cell {
    vec![Inline::Text(s.to_string())]
}

fn number(n: impl ToString) -> Cell {
    vec![Inline::Text(n.to_string())]
}

/// `tool version, over roots: n files scanned, m read.`
pub fn byline(r: &Report) -> Vec<Inline> {
    let mut v = vec![
        Inline::Text(format!("{} {}", r.tool.name, r.tool.version)),
        Inline::Plain(", over "),
    ];
    for (i, root) in r.roots.iter().enumerate() {
        if i > 0 {
            v.push(Inline::Plain(", "));
        }
        v.push(Inline::Code(root.clone()));
    }
    v.push(Inline::Text(format!(
        ": {} scanned, {} read.",
        crate::render::count(r.summary.files_scanned, "file"),
        r.summary.files_read
    )));
    v
}

/// The report's sections, in the order both pages show them; "Not read"
/// only when something was not.
pub fn sections(r: &Report) -> Vec<Section> {
    let mut v = vec![
        summary(r),
        graph(r),
        worst_paths(r),
        policies(r),
        super::sections::findings(r),
        defaults(r),
    ];
    if !r.notices.is_empty() {
        v.push(notices(r));
    }
    v
}

fn summary(r: &Report) -> Section {
    let s = &r.summary;
    let figure = |value: String, what, bad| Figure { value, what, bad };
    let worst = s.worst_amplification.as_ref().map_or(1, |w| w.attempts);
    let noun = |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    let mut b = vec![Block::Figures(vec![
        figure(
            s.services.to_string(),
            noun(s.services, "service", "services"),
            false,
        ),
        figure(s.edges.to_string(), noun(s.edges, "call", "calls"), false),
        figure(
            s.policies.to_string(),
            noun(s.policies, "retry policy", "retry policies"),
            false,
        ),
        figure(
            s.errors.to_string(),
            noun(s.errors, "error", "errors"),
            s.errors > 0,
        ),
        figure(
            s.warnings.to_string(),
            noun(s.warnings, "warning", "warnings"),
            false,
        ),
        figure(s.infos.to_string(), noun(s.infos, "info", "infos"), false),
        figure(format!("{worst}\u{d7}"), "worst amplification", worst > 1),
    ])];
    b.push(match &s.worst_amplification {
        Some(w) => Block::Para(vec![
            Inline::Plain("The worst path, "),
            Inline::Strong(vec![Inline::Text(w.services.join(" \u{2192} "))]),
            Inline::Plain(", sends up to "),
            Inline::Strong(vec![Inline::Text(w.attempts.to_string())]),
            Inline::Plain(" attempts to its last service for one call at its entry: "),
            Inline::Arith(short_arithmetic(r).unwrap_or_else(|| w.arithmetic.clone())),
            Inline::Plain("."),
        ]),
        None => Block::Para(vec![Inline::Plain("No call path retries across hops.")]),
    });
    b.extend(super::sections::fix_first(r));
    b.extend(super::sections::trust(r));
    b.push(heading(None, plain("Retry policies found, per system")));
    if s.policies_by_system.is_empty() {
        b.push(Block::Empty("None."));
    } else {
        b.push(Block::Table(Table {
            columns: cols(&[("System", false), ("Policies", true)]),
            rows: s
                .policies_by_system
                .iter()
                .map(|(sys, n)| Row::Cells(vec![text(sys), number(n)]))
                .collect(),
        }));
    }
    b.push(heading(None, plain("Findings, per rule and severity")));
    if s.findings_by_rule.is_empty() {
        b.push(Block::Empty("No findings."));
    } else {
        let mut rows: Vec<Row> = s
            .findings_by_rule
            .iter()
            .map(|c| {
                Row::Cells(vec![
                    vec![Inline::RuleRef {
                        code: c.code,
                        name: c.name,
                    }],
                    number(c.error),
                    number(c.warning),
                    number(c.info),
                ])
            })
            .collect();
        rows.push(Row::Total(vec![
            plain("Total"),
            number(s.errors),
            number(s.warnings),
            number(s.infos),
        ]));
        b.push(Block::Table(Table {
            columns: cols(&[
                ("Rule", false),
                ("Errors", true),
                ("Warnings", true),
                ("Infos", true),
            ]),
            rows,
        }));
    }
    Section {
        id: "summary",
        title: "Summary",
        blocks: b,
    }
}

/// The worst path's multiplication without the layers' names (they are
/// under Worst paths), where it has more than three hops:
/// `3 x 3 x 3 x 3 = 81`.
fn short_arithmetic(r: &Report) -> Option<String> {
    let w = r.summary.worst_amplification.as_ref()?;
    let p = r
        .worst_paths
        .iter()
        .find(|p| p.attempts == w.attempts && p.services == w.services)?;
    if p.hops.len() <= 3 {
        return None;
    }
    let factors: Vec<String> = p.hops.iter().map(|h| h.attempts.to_string()).collect();
    Some(format!(
        "{} = {} (each hop under Worst paths)",
        factors.join(" x "),
        w.attempts
    ))
}

fn heading(id: Option<String>, text: Vec<Inline>) -> Block {
    Block::Heading { id, text }
}

fn graph(r: &Report) -> Section {
    let mut b = Vec::new();
    if r.graph.services.is_empty() {
        b.push(Block::Empty("No service or call was found."));
    } else {
        b.push(Block::CallGraph);
    }
    if !r.graph.cycles.is_empty() {
        b.push(heading(None, plain("Cycles")));
        b.push(Block::List {
            ordered: false,
            items: r
                .graph
                .cycles
                .iter()
                .map(|c| text(&c.join(" \u{2192} ")))
                .collect(),
        });
    }
    if !r.graph.notes.is_empty() {
        b.push(heading(None, plain("Calls not placed")));
        b.push(Block::List {
            ordered: false,
            items: r
                .graph
                .notes
                .iter()
                .map(|n| {
                    vec![
                        Inline::Source(n.source.clone()),
                        Inline::Plain(": "),
                        Inline::Message(n.message.clone()),
                    ]
                })
                .collect(),
        });
    }
    Section {
        id: "graph",
        title: "Call graph",
        blocks: b,
    }
}

fn layer_cells(l: &LayerData) -> Vec<Cell> {
    let mut layer = plain(layer_word(l.layer));
    if l.implicit {
        layer.extend([Inline::Plain(" "), Inline::DefaultMark]);
    }
    vec![
        layer,
        text(&l.system),
        vec![Inline::Message(l.label.clone())],
        text(&attempts_word(l)),
        text(&timeouts_word(l)),
        vec![Inline::Message(l.setting.clone())],
        vec![Inline::Source(l.source.clone())],
    ]
}

fn worst_paths(r: &Report) -> Section {
    let mut b = Vec::new();
    // Worst first; equal ones in the report's order.
    let mut paths: Vec<(usize, &PathData)> = r.worst_paths.iter().enumerate().collect();
    paths.sort_by_key(|(_, p)| std::cmp::Reverse(p.attempts));
    if paths.is_empty() {
        b.push(Block::Empty("No entry point calls anything."));
    } else {
        b.push(Block::Para(vec![Inline::Plain(
            "From each entry point, the path on which one call can turn into the most attempts at the end, with every layer of every hop.",
        )]));
    }
    let columns = [
        ("Hop", false),
        ("Via", false),
        ("Layer", false),
        ("System", false),
        ("Policy", false),
        ("Attempts", true),
        ("Timeouts", false),
        ("Setting", false),
        ("Source", false),
    ];
    for (i, p) in paths {
        b.push(heading(
            Some(format!("path-{i}")),
            vec![Inline::Text(format!(
                "From {}: {}\u{d7}",
                p.entry, p.attempts
            ))],
        ));
        b.push(Block::Para(vec![
            Inline::Text(p.services.join(" \u{2192} ")),
            Inline::Plain(" "),
            Inline::Arith(format!("({})", p.arithmetic)),
        ]));
        let rows = p
            .hops
            .iter()
            .map(|h| {
                let hop = vec![
                    Inline::Text(format!("{} \u{2192} {}", h.from, h.to)),
                    Inline::Break,
                    Inline::Muted(vec![Inline::Source(h.source.clone())]),
                ];
                let via = vec![Inline::Message(h.via.clone())];
                if h.layers.is_empty() {
                    let mut cells = vec![hop, via, plain("none"), vec![]];
                    cells.push(vec![Inline::Muted(vec![Inline::Plain("no retries")])]);
                    cells.extend([plain("1"), vec![], vec![], vec![]]);
                    Row::Cells(cells)
                } else {
                    Row::Group {
                        lead: vec![hop, via],
                        rows: h.layers.iter().map(layer_cells).collect(),
                    }
                }
            })
            .collect();
        b.push(Block::Table(Table {
            columns: cols(&columns),
            rows,
        }));
        // simulation (issue 24)
        b.extend(super::simulation::blocks(r, i));
    }
    Section {
        id: "worst-paths",
        title: "Worst paths",
        blocks: b,
    }
}

fn policy_row(p: &PolicyData) -> Row {
    let value = |s: &String| vec![Inline::Value(s.clone())];
    Row::Cells(vec![
        text(&p.system),
        p.name
            .as_ref()
            .map(|n| vec![Inline::Code(n.clone())])
            .unwrap_or_default(),
        text(&p.applies_to),
        value(&p.attempts_text),
        value(&p.delay),
        value(&p.jitter),
        value(&p.per_try_timeout),
        value(&p.overall_timeout),
        value(&p.budget),
        value(&p.retry_on),
        {
            let mut cell = vec![Inline::Source(Some(p.source.clone()))];
            for (i, u) in p.used_at.iter().enumerate() {
                cell.push(Inline::Plain(if i == 0 { "; used at " } else { ", " }));
                cell.push(Inline::Source(Some(u.clone())));
            }
            cell
        },
    ])
}

fn policies(r: &Report) -> Section {
    let mut b = Vec::new();
    if r.services.is_empty() {
        b.push(Block::Empty("No retry policy was found."));
    } else {
        b.push(Block::Para(vec![
            Inline::Plain(
                "Every retry policy found, under the service that runs it (a mesh policy under the service whose callers it applies to). Attempts count the first call; ",
            ),
            Inline::DefaultMark,
            Inline::Plain(" marks a value nobody wrote."),
        ]));
    }
    let columns = [
        ("System", false),
        ("Name", false),
        ("Applies to", false),
        ("Attempts", true),
        ("Delay", false),
        ("Jitter", false),
        ("Per-try timeout", false),
        ("Overall timeout", false),
        ("Budget", false),
        ("Retries on", false),
        ("Source", false),
    ];
    for (i, s) in r.services.iter().enumerate() {
        let title = match &s.service {
            Some(n) => text(n),
            None => plain("Not attributed to a service"),
        };
        b.push(heading(Some(format!("policies-{i}")), title));
        b.push(Block::Table(Table {
            columns: cols(&columns),
            rows: s.policies.iter().map(policy_row).collect(),
        }));
    }
    Section {
        id: "policies",
        title: "Retry policies by service",
        blocks: b,
    }
}

fn defaults(r: &Report) -> Section {
    let mut b = Vec::new();
    if r.implicit_defaults.is_empty() && r.summary.files_not_read > 0 {
        // Files in languages not read yet may hold what the scan did not see.
        b.push(Block::Empty(
            "No retry applies without being written in the files read; files in languages retrylint does not read yet mention retries, timeouts or calls (see the notices), and what they configure is not known.",
        ));
    } else if r.implicit_defaults.is_empty() {
        b.push(Block::Empty("No retry applies without being written."));
    } else {
        b.push(Block::Para(vec![Inline::Plain(
            "Retries that happen although no file asks for them: the platform's or library's default number of attempts.",
        )]));
    }
    for (i, g) in r.implicit_defaults.iter().enumerate() {
        b.push(heading(Some(format!("defaults-{i}")), text(&g.system)));
        let rows = g
            .entries
            .iter()
            .map(|e| {
                let mut applies = Vec::new();
                for (k, a) in e.applies_to.iter().enumerate() {
                    if k > 0 {
                        applies.push(Inline::Break);
                    }
                    applies.push(Inline::Text(a.clone()));
                }
                Row::Cells(vec![
                    vec![Inline::Message(e.what.clone())],
                    vec![Inline::Message(e.setting.clone())],
                    e.attempts.map_or_else(|| plain("?"), number),
                    applies,
                    vec![Inline::Source(e.source.clone())],
                ])
            })
            .collect();
        b.push(Block::Table(Table {
            columns: cols(&[
                ("What", false),
                ("Default", false),
                ("Attempts", true),
                ("Applies to", false),
                ("Source", false),
            ]),
            rows,
        }));
    }
    Section {
        id: "defaults",
        title: "Implicit defaults",
        blocks: b,
    }
}

fn notices(r: &Report) -> Section {
    let items = r
        .notices
        .iter()
        .map(|n| match &n.path {
            Some(p) => vec![
                Inline::Code(p.clone()),
                Inline::Plain(": "),
                Inline::Text(n.message.clone()),
            ],
            None => text(&n.message),
        })
        .collect();
    Section {
        id: "notices",
        title: "Not read",
        blocks: vec![Block::List {
            ordered: false,
            items,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plains(inlines: &[Inline], out: &mut Vec<&'static str>) {
        for i in inlines {
            match i {
                Inline::Plain(s) => out.push(*s),
                Inline::Strong(v) | Inline::Muted(v) => plains(v, out),
                _ => {}
            }
        }
    }

    fn report(path: &str) -> Report {
        let settings = crate::config::Settings::default();
        let run = crate::pipeline::Pipeline::new(&settings)
            .run(&[path.into()])
            .expect("scan");
        let graph = run.graph.expect("graph");
        Report::build(&[path.to_string()], &run.scan, &graph, &run.report.findings)
    }

    /// Text written as is must need no escaping in either page.
    #[test]
    fn plain_text_holds_no_markup_character() {
        let mut all = Vec::new();
        let reports = [report("testdata/audit/shop"), report("testdata/monorepo")];
        for s in reports.iter().flat_map(sections) {
            all.push(s.title);
            for b in &s.blocks {
                match b {
                    Block::Para(v) | Block::Heading { text: v, .. } => plains(v, &mut all),
                    Block::Empty(s) => all.push(*s),
                    Block::List { items, .. } => items.iter().for_each(|v| plains(v, &mut all)),
                    Block::Table(t) => {
                        all.extend(t.columns.iter().map(|c| c.title));
                        for row in &t.rows {
                            let cells: Vec<&Cell> = match row {
                                Row::Cells(c) | Row::Total(c) => c.iter().collect(),
                                Row::Group { lead, rows } => {
                                    lead.iter().chain(rows.iter().flatten()).collect()
                                }
                            };
                            cells.into_iter().for_each(|c| plains(c, &mut all));
                        }
                    }
                    Block::Figures(f) => all.extend(f.iter().map(|f| f.what)),
                    Block::CallGraph | Block::Simulation(_) | Block::Details { .. } => {}
                }
            }
        }
        assert!(all.len() > 20, "{all:?}");
        for s in all {
            assert!(
                !s.contains([
                    '<', '>', '&', '"', '|', '\\', '`', '*', '_', '[', ']', '#', '!', '~', '$'
                ]),
                "`{s}`"
            );
        }
    }
}
