//! The parts of the report that group and qualify: findings one row per
//! cause (rule, message but for its quoted values, fix) with the count and
//! every place, each rule a collapsible part with a short "why" from its
//! documentation; and the summary's trust blocks (what the numbers rest
//! on, what was not read, what "Fix first" held back).

use super::doc::{Block, Cell, Column, Inline, Section};
use super::{FindingData, Report, RuleGroup, cause, quoted, severity_counts};
use crate::rules::RULES;

/// Places listed in one row before "and n more" (report.json has all).
const PLACES: usize = 12;

fn plain(s: &'static str) -> Cell {
    vec![Inline::Plain(s)]
}

/// The first paragraph of the rule's "Why is this bad?", one line.
pub fn why(code: &str) -> Option<String> {
    let rule = RULES.iter().find(|r| r.code == code)?;
    let text = rule.section("Why is this bad?")?;
    let para = text.split("\n\n").next()?;
    Some(para.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// One rule's findings, one row per cause.
fn rows(g: &RuleGroup) -> Vec<super::doc::Row> {
    let mut groups: Vec<(String, Vec<&FindingData>)> = Vec::new();
    for f in &g.findings {
        let key = format!("{:?}\n{}", f.severity, cause(&f.message, &f.help));
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(f),
            None => groups.push((key, vec![f])),
        }
    }
    groups
        .into_iter()
        .map(|(_, v)| {
            let first = v[0];
            let mut finding = vec![Inline::Message(first.message.clone())];
            if !first.related.is_empty() {
                finding.push(Inline::Related(
                    first
                        .related
                        .iter()
                        .map(|rel| (rel.source.clone(), rel.message.clone()))
                        .collect(),
                ));
            }
            let mut places = vec![Inline::Source(Some(first.source.clone()))];
            let values = quoted(&first.message);
            for (k, f) in v.iter().enumerate().skip(1).take(PLACES) {
                places.push(if k == 1 {
                    Inline::Break
                } else {
                    Inline::Plain(", ")
                });
                places.push(Inline::Source(Some(f.source.clone())));
                // What differs from the first: the values quoted.
                let differ: Vec<&str> = quoted(&f.message)
                    .into_iter()
                    .enumerate()
                    .filter(|(i, q)| values.get(*i) != Some(q))
                    .map(|(_, q)| q)
                    .collect();
                if !differ.is_empty() {
                    places.push(Inline::Plain(" "));
                    places.push(Inline::Muted(vec![Inline::Message(format!(
                        "(`{}`)",
                        differ.join("`, `")
                    ))]));
                }
            }
            if v.len() > PLACES + 1 {
                places.push(Inline::Muted(vec![Inline::Text(format!(
                    " and {} more (report.json lists every one)",
                    v.len() - PLACES - 1
                ))]));
            }
            super::doc::Row::Cells(vec![
                vec![Inline::Severity(first.severity)],
                vec![Inline::Text(v.len().to_string())],
                places,
                finding,
                vec![Inline::Message(first.help.clone())],
            ])
        })
        .collect()
}

pub fn findings(r: &Report) -> Section {
    let mut b = Vec::new();
    if r.findings.is_empty() {
        b.push(Block::Empty("No findings."));
    } else {
        b.push(Block::Para(vec![Inline::Plain(
            "One row per cause: findings of one rule whose messages differ only in the values quoted, with one fix, are counted together with every place.",
        )]));
    }
    for g in &r.findings {
        let mut blocks = vec![Block::Para(vec![Inline::Message(g.summary.to_string())])];
        if let Some(why) = why(g.code) {
            blocks.push(Block::Para(vec![
                Inline::Strong(vec![Inline::Plain("Why it matters:")]),
                Inline::Plain(" "),
                Inline::Message(why),
                Inline::Plain(" "),
                Inline::RuleDoc {
                    code: g.code,
                    name: g.name,
                    help_uri: g.help_uri.clone(),
                },
            ]));
        }
        blocks.push(Block::Table(super::doc::Table {
            columns: [
                ("Severity", false),
                ("Count", true),
                ("Where", false),
                ("Finding", false),
                ("Fix", false),
            ]
            .into_iter()
            .map(|(title, numeric)| Column { title, numeric })
            .collect(),
            rows: rows(g),
        }));
        b.push(Block::Details {
            id: format!("rule-{}", g.code),
            title: format!("{} {}", g.code, g.name),
            note: vec![Inline::Muted(vec![Inline::Text(format!(
                "({})",
                severity_counts(&g.findings)
            ))])],
            open: g
                .findings
                .iter()
                .any(|f| f.severity == crate::rules::Severity::Error),
            blocks,
        });
    }
    Section {
        id: "findings",
        title: "Findings by rule",
        blocks: b,
    }
}

/// The summary's blocks on what its numbers rest on and what was not read.
pub fn trust(r: &Report) -> Vec<Block> {
    let s = &r.summary;
    let mut b = Vec::new();
    b.push(Block::Heading {
        id: None,
        text: plain("What these numbers rest on"),
    });
    if s.assumptions.is_empty() {
        b.push(Block::Empty(
            "Only written settings: no mesh membership, deployment variant or default was assumed.",
        ));
    } else {
        b.push(Block::List {
            ordered: false,
            items: s
                .assumptions
                .iter()
                .map(|a| {
                    let mut v = vec![Inline::Message(a.what.clone())];
                    if let Some(src) = a.source.as_ref().filter(|s| !a.what.contains(&s.file)) {
                        v.push(Inline::Plain(" ("));
                        v.push(Inline::Source(Some(src.clone())));
                        v.push(Inline::Plain(")"));
                    }
                    v
                })
                .collect(),
        });
    }
    b.push(Block::Heading {
        id: None,
        text: plain("Not read"),
    });
    if s.not_read.is_empty() {
        b.push(Block::Empty(
            "Every file that mentions retries, timeouts or calls was read, and every call target resolved.",
        ));
    } else {
        b.push(Block::List {
            ordered: false,
            items: s
                .not_read
                .iter()
                .map(|n| {
                    let mut v = vec![Inline::Message(n.what.clone())];
                    for (i, e) in n.examples.iter().enumerate() {
                        v.push(Inline::Plain(if i == 0 { ": " } else { ", " }));
                        v.push(Inline::Code(e.clone()));
                    }
                    v
                })
                .collect(),
        });
    }
    b
}

/// The summary's "Fix first": only findings on written settings or
/// stated defaults, one per cause, and what was held back.
pub fn fix_first(r: &Report) -> Vec<Block> {
    let s = &r.summary;
    if s.fix_first.is_empty() && s.fix_first_held_back == 0 {
        return Vec::new();
    }
    let mut b = vec![Block::Heading {
        id: None,
        text: plain("Fix first"),
    }];
    if !s.fix_first.is_empty() {
        let items = s
            .fix_first
            .iter()
            .map(|f| {
                let mut v = vec![
                    Inline::Severity(f.severity),
                    Inline::Plain(" "),
                    Inline::RuleRef {
                        code: f.code,
                        name: f.name,
                    },
                    Inline::Plain(" at "),
                    Inline::Source(Some(f.source.clone())),
                ];
                if f.count > 1 {
                    v.push(Inline::Text(format!(" and {} more places", f.count - 1)));
                }
                v.extend([
                    Inline::Plain(": "),
                    Inline::Message(f.message.clone()),
                    Inline::Plain(". "),
                    Inline::Strong(vec![Inline::Plain("Fix:")]),
                    Inline::Plain(" "),
                    Inline::Message(f.help.clone()),
                ]);
                v
            })
            .collect();
        b.push(Block::List {
            ordered: true,
            items,
        });
    }
    if s.fix_first_held_back > 0 {
        let rules: Vec<String> = s
            .fix_first_held_back_rules
            .iter()
            .map(|(code, n)| format!("{code} x{n}"))
            .collect();
        b.push(Block::Para(vec![Inline::Muted(vec![Inline::Text(format!(
            "{} held back ({}): they rest on a mesh sidecar that is assumed, not declared (see below); they are listed under Findings by rule.",
            crate::render::count(s.fix_first_held_back, "finding"),
            rules.join(", "),
        ))])]));
    }
    b
}
