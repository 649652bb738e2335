//! Envoy's retry budget fixes: a `retry_budget` added to the cluster a
//! route retries through (RL601), and a written `budget_percent` lowered
//! (RL602).

use crate::fix::Edit;
use crate::model::BudgetSite;
use crate::source::Span;
use crate::systems::edit::{Format, Site, Value, add_beside, add_sibling, add_under, set_integer};
use crate::yaml::Yaml;

/// The share of active requests the added budget lets retry: Envoy's own
/// default ([`super::DEFAULT_BUDGET_PERCENT`], "defaults to 20%" in
/// envoyproxy/envoy `api/envoy/config/cluster/v3/circuit_breaker.proto`),
/// written so that the file says it. `min_retry_concurrency` keeps its
/// default of 3 (the same file) and is not written.
const FIX_BUDGET_PERCENT: u64 = super::DEFAULT_BUDGET_PERCENT as u64;

/// The mapping under `node` (itself included) whose `name` is written at
/// `name`: the cluster the finding names.
fn cluster_named<'y>(
    node: Yaml<'y>,
    name: &dyn Fn(Span) -> bool,
    depth: usize,
) -> Option<Yaml<'y>> {
    if depth > 16 {
        return None;
    }
    if node.is_map() {
        if node.get("name").is_some_and(|n| name(n.span())) {
            return Some(node);
        }
        return node
            .entries()
            .into_iter()
            .find_map(|e| cluster_named(e.value, name, depth + 1));
    }
    node.items()
        .into_iter()
        .find_map(|i| cluster_named(i, name, depth + 1))
}

/// `retry_budget` with `budget_percent: {value: 20}` in the cluster of
/// the route's retries (YAML only, in the keys' case: `retryBudget` in a
/// camelCase file):
/// - no `circuit_breakers`: `circuit_breakers:` / `thresholds: [..]` with
///   one entry (priority DEFAULT) after the cluster's `name`;
/// - `circuit_breakers` without `thresholds`: the list under it;
/// - a `thresholds` list: `retry_budget:` in its first DEFAULT-priority
///   entry (the one Envoy uses), beside that entry's keys.
///
/// In JSON the same places take `"circuit_breakers": {"thresholds":
/// [..]}` after the cluster's `"name"`, `"thresholds": [..]` beside the
/// first member of a `circuit_breakers` object, or `"retry_budget":
/// {..}` beside the first member of the DEFAULT entry, each on a line of
/// its own with the member's indentation.
///
/// A thresholds list with other priorities only gets a new first entry
/// holding the budget (no `priority`: DEFAULT).
///
/// `None` where a YAML entry is a flow mapping, a JSON object to add to
/// is empty, or the cluster is not found in the file's own text (a
/// config in a string).
pub(super) fn retry_budget(site: &Site<'_>) -> Option<Vec<Edit>> {
    let BudgetSite::Block { span, .. } = &site.policy.budget_site else {
        return None;
    };
    let json = match Format::of(site.path) {
        Format::Yaml => false,
        Format::Json => true,
        _ => return None,
    };
    let parsed = crate::yaml::parse(site.text);
    let named = |s: Span| s == *span;
    match parsed
        .documents
        .iter()
        .find_map(|d| cluster_named(parsed.root(d), &named, 0))
    {
        Some(cluster) => budget_edit(site, cluster, json).map(|e| vec![e]),
        None if !json => parsed
            .documents
            .iter()
            .find_map(|d| in_block_scalar(site, parsed.root(d), *span))
            .map(|e| vec![e]),
        None => None,
    }
}

/// The budget edit for `cluster`, a mapping of `site.text`.
fn budget_edit(site: &Site<'_>, cluster: Yaml<'_>, json: bool) -> Option<Edit> {
    let camel = cluster
        .entries()
        .iter()
        .any(|e| e.key.contains(|c: char| c.is_ascii_uppercase()));
    let k = |snake: &'static str, camel_case: &'static str| {
        if camel { camel_case } else { snake }
    };
    let (cb, th, rb, bp) = (
        k("circuit_breakers", "circuitBreakers"),
        "thresholds",
        k("retry_budget", "retryBudget"),
        k("budget_percent", "budgetPercent"),
    );
    let list = Value::Raw(format!(
        "[{{{rb}: {{{bp}: {{value: {FIX_BUDGET_PERCENT}}}}}}}]"
    ));
    let (file, path, text) = (site.file, site.path, site.text);
    if json {
        return json_budget(site, cluster, [cb, th, rb, bp]);
    }
    let edit = match cluster.entry(cb) {
        None => {
            let name = cluster.entry("name")?;
            add_beside(file, path, text, name.key_span, &[cb, th], &list)?
        }
        Some(c) => match c.value.entry(th) {
            None if c.value.is_map() || c.value.is_null() => {
                add_under(file, path, text, c.key_span, &[th], &list)?
            }
            None => return None,
            Some(t) => {
                let Some(default) = default_entry(t.value) else {
                    let entry = format!("{rb}: {{{bp}: {{value: {FIX_BUDGET_PERCENT}}}}}");
                    return first_item(site, t.value, &entry, &format!("{{{entry}}}"));
                };
                if default.get(rb).is_some() {
                    return None;
                }
                let first = default.entries().first()?.key_span;
                let value = Value::Str(FIX_BUDGET_PERCENT.to_string());
                add_beside(file, path, text, first, &[rb, bp, "value"], &value)?
            }
        },
    };
    Some(edit)
}

/// The budget edit for a cluster in a ConfigMap's literal block scalar
/// (`envoy.yaml: |`) holding the name at `name` (a span of the file, as
/// the embedded reader maps them): made on the block's text as in a file
/// of its own, then put back in the file with the block's indentation
/// after each line break. `None` for quoted or folded strings (their
/// escapes and folds), or where the edit would land past the block's
/// last line or inside a blank line shorter than the indentation.
fn in_block_scalar(site: &Site<'_>, root: Yaml<'_>, name: Span) -> Option<Edit> {
    let mut stack = vec![(root, 0usize)];
    let mut seen = 0usize;
    while let Some((node, depth)) = stack.pop() {
        seen += 1;
        if seen > 100_000 || depth > 32 {
            return None;
        }
        let value = node.span();
        if !(value.start <= name.start && name.end <= value.end) {
            continue;
        }
        let Some(inner) = node.as_str() else {
            stack.extend(node.entries().into_iter().map(|e| (e.value, depth + 1)));
            stack.extend(node.items().into_iter().map(|i| (i, depth + 1)));
            continue;
        };
        // A literal block: the span starts at its `|` indicator or at the
        // content after it.
        let header = site.text[..value.start].trim_end();
        let header = &header[header.rfind('\n').map_or(0, |i| i + 1)..];
        let literal = site.text[value.start..].starts_with('|')
            || header
                .rsplit(':')
                .next()
                .is_some_and(|t| t.trim_start().starts_with('|'));
        if !literal {
            return None;
        }
        let map = |s: Span| crate::extract::embedded_span(site.text, value, inner, s);
        let parsed = crate::yaml::parse(inner);
        let named = |s: Span| map(s) == name;
        let cluster = parsed
            .documents
            .iter()
            .find_map(|d| cluster_named(parsed.root(d), &named, 0))?;
        let local = Site {
            text: inner,
            ..*site
        };
        let edit = budget_edit(&local, cluster, false)?;
        if edit.span.start >= inner.len() {
            return None;
        }
        // The block's indentation: where the edit's line starts in the
        // file, less where that line starts.
        let inner_line = inner[..edit.span.start].rfind('\n').map_or(0, |i| i + 1);
        let start = map(Span::new(inner_line, inner_line)).start;
        let line = site.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let block = start - line;
        if !site.text[line..start].bytes().all(|b| b == b' ') {
            return None;
        }
        let at = map(edit.span);
        let brk = if site.text[value.start..value.end].contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        let lead = format!("{brk}{}", " ".repeat(block));
        return Some(Edit::new(
            site.file,
            at,
            edit.replacement.replace('\n', &lead),
        ));
    }
    None
}

/// The thresholds entry Envoy uses for ordinary requests: the first
/// whose `priority` is DEFAULT (the field's default).
fn default_entry(list: Yaml<'_>) -> Option<Yaml<'_>> {
    list.items().into_iter().find(|e| {
        e.get("priority")
            .and_then(|p| p.as_str())
            .unwrap_or("DEFAULT")
            == "DEFAULT"
    })
}

/// A new first item of the written `list` (thresholds of other
/// priorities only): `block` as a `- ` line of its own before the first
/// item in a YAML block sequence (the first item's indentation and line
/// ending), `flow` before the first item in a flow sequence or JSON array
/// (followed by `,` and, where the first item starts its line, a line
/// break and its indentation). `None` for an empty list.
fn first_item(site: &Site<'_>, list: Yaml<'_>, block: &str, flow: &str) -> Option<Edit> {
    let text = site.text;
    let first = list.items().into_iter().next()?.span().start;
    let line = text[..first].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line..first];
    let indent = &before[..before.len() - before.trim_start().len()];
    let brk = if text[first..].contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let new = match before.trim() {
        // `- priority: HIGH`: a line before it.
        "-" => Edit::insert(site.file, line, format!("{indent}- {block}{brk}")),
        // The item starts its line in an array or flow sequence.
        "" => Edit::insert(site.file, first, format!("{flow},{brk}{indent}")),
        // `[{priority: HIGH}]`, `[ {..}`: in the brackets.
        b if b.ends_with('[') => Edit::insert(site.file, first, format!("{flow}, ")),
        _ => return None,
    };
    Some(new)
}

/// [`retry_budget`] in a JSON file: each new member is added beside a
/// member of the object it belongs in.
fn json_budget(site: &Site<'_>, cluster: Yaml<'_>, keys: [&str; 4]) -> Option<Edit> {
    let [cb, th, rb, bp] = keys;
    let budget = format!("{{\"{bp}\": {{\"value\": {FIX_BUDGET_PERCENT}}}}}");
    let (file, path, text) = (site.file, site.path, site.text);
    let beside = |at: Span, key: &str, value: String| {
        add_sibling(file, path, text, at, key, &Value::Raw(value))
    };
    match cluster.entry(cb) {
        None => {
            let name = cluster.entry("name")?;
            let value = format!("{{\"{th}\": [{{\"{rb}\": {budget}}}]}}");
            beside(name.key_span, cb, value)
        }
        Some(c) => match c.value.entry(th) {
            None => {
                let first = c.value.entries().first()?.key_span;
                beside(first, th, format!("[{{\"{rb}\": {budget}}}]"))
            }
            Some(t) => {
                let Some(default) = default_entry(t.value) else {
                    let entry = format!("{{\"{rb}\": {budget}}}");
                    return first_item(site, t.value, &entry, &entry);
                };
                if default.get(rb).is_some() {
                    return None;
                }
                let first = default.entries().first()?.key_span;
                beside(first, rb, budget)
            }
        },
    }
}

/// The written `budget_percent` (`{value: 100}`, an integer) set to
/// `ratio` as a percentage; `None` for a fraction or where the budget's
/// place is not `budget_percent`.
pub(super) fn budget_share(site: &Site<'_>, ratio: f64) -> Option<Vec<Edit>> {
    let b = site.policy.budget.as_ref().filter(|b| b.is_written())?;
    let written = site.text.get(b.span.start..b.span.end)?;
    let key = written.trim_start_matches(['"', '\'']);
    if !(key.starts_with("budget_percent") || key.starts_with("budgetPercent")) {
        return None;
    }
    let to = (ratio * 100.0).round() as u64;
    Some(vec![set_integer(site.file, site.text, b.span, to)?])
}
