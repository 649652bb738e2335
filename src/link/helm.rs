//! Helm charts: a template's facts come from the template rendered with
//! its chart's values (`extract::helm`), not from the template text.
//!
//! A chart is a folder holding a scanned `Chart.yaml`; its templates are
//! the scanned YAML files below its `templates/` folder (a subchart's
//! templates belong to the subchart, the nearest chart). The classifier
//! claims `Chart.yaml`, `values.yaml` and `values-*.yaml` by name, so this
//! step reads only scanned files and never the disk: it stays a pure
//! function of the scan. Each template is rendered with `values.yaml` and
//! read again; each `values-<name>.yaml` beside it is a variant (merged
//! over `values.yaml` as `helm install -f` merges), and a policy or
//! timeout a variant renders differently is added, naming the variant's
//! lines. Spans point at the template; a setting whose value came from a
//! values file names that line ([`RetryPolicy::settings_from`], a related
//! location of every finding on the policy).

use crate::diag::{Severity, unparsable_file};
use crate::extract::helm::{self, Rendered, values, variant_of};
use crate::model::{ScannedFile, SettingPlace, Syntax};
use crate::source::Span;
use std::path::{Path, PathBuf};

pub fn helm_charts(files: &mut [ScannedFile]) {
    let lower = |f: &ScannedFile| {
        f.source
            .path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default()
    };
    let charts: Vec<PathBuf> = files
        .iter()
        .filter(|f| lower(f) == "chart.yaml")
        .filter_map(|f| f.source.path.parent().map(Path::to_path_buf))
        .collect();
    if charts.is_empty() {
        return;
    }
    for chart in &charts {
        // values.yaml first, then the variants by name.
        let mut vfiles: Vec<(String, usize)> = files
            .iter()
            .enumerate()
            .filter(|(_, f)| f.source.path.parent() == Some(chart.as_path()))
            .filter_map(|(i, f)| variant_of(&lower(f)).map(|v| (v.to_string(), i)))
            .collect();
        vfiles.sort();
        let Some(&(ref first, base_file)) = vfiles.first() else {
            continue;
        };
        if !first.is_empty() {
            continue;
        }
        let parse = |i: usize| values::from_yaml(&crate::yaml::parse(&files[i].source.text), i);
        let base = parse(base_file);
        let variants: Vec<(usize, values::Val)> = vfiles[1..]
            .iter()
            .map(|&(_, i)| (i, values::merge(&base, &parse(i))))
            .collect();
        let templates = chart.join("templates");
        let mine: Vec<usize> = (0..files.len())
            .filter(|&i| {
                let p = &files[i].source.path;
                p.starts_with(&templates)
                    && files[i].syntax == Some(Syntax::Yaml)
                    && nearest_chart(p, &charts) == Some(chart.as_path())
            })
            .collect();
        for t in mine {
            read_template(files, t, &base, &variants);
        }
    }
}

/// The chart a template belongs to: the deepest chart folder above it.
fn nearest_chart<'c>(p: &Path, charts: &'c [PathBuf]) -> Option<&'c Path> {
    charts
        .iter()
        .filter(|c| p.starts_with(c.join("templates")))
        .max_by_key(|c| c.components().count())
        .map(PathBuf::as_path)
}

fn read_template(
    files: &mut [ScannedFile],
    t: usize,
    base: &values::Val,
    variants: &[(usize, values::Val)],
) {
    let Some(mut facts) = render_facts(files, t, base) else {
        return;
    };
    for (vfile, merged) in variants {
        let Some(other) = render_facts(files, t, merged) else {
            continue;
        };
        let shown = files[*vfile].source.display_path();
        let from_variant = |p: &SettingPlace| p.path == shown;
        let file_name = files[*vfile]
            .source
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for mut p in other.policies {
            let differs = !facts.policies.iter().any(|q| {
                let mut a = q.clone();
                let mut b = p.clone();
                a.settings_from.clear();
                b.settings_from.clear();
                a == b
            });
            // A policy the variant sets differently, or one only it has.
            let only_here = !facts.policies.iter().any(|q| q.name == p.name);
            if differs && (p.settings_from.iter().any(from_variant) || only_here) {
                // Named for its variant (messages quote a name in
                // backticks: "`orders/http[0]` with `values-prod.yaml`").
                // Findings of one rule at one template line are one
                // (`check::sort_and_dedup`); sorted by message, the default
                // values' finding, "`orders/http[0]` (Istio ...", comes first.
                p.name = Some(match &p.name {
                    Some(n) => format!("{n}` with `{file_name}"),
                    None => format!("values of `{file_name}"),
                });
                facts.policies.push(p);
            }
        }
        for x in other.timeouts {
            if !facts.timeouts.contains(&x) {
                facts.timeouts.push(x);
            }
        }
    }
    files[t].facts = facts;
}

/// The template rendered with `values` and read as YAML, its spans moved
/// back to the template; `None` when the template is not one this reader
/// follows (its facts then stay those of the raw template).
fn render_facts(
    files: &[ScannedFile],
    t: usize,
    values: &values::Val,
) -> Option<crate::model::Facts> {
    let f = &files[t];
    let r = helm::render(&f.source.text, values)?;
    let mut facts = crate::systems::extract(&f.source.path, &r.text, Syntax::Yaml);
    for p in &mut facts.policies {
        // The settings' own spans (the policy's span is its key).
        // (Not the policy's span nor a default's: they cover the route.)
        let spans = [
            Some(p.attempts.span),
            Some(p.delay.span),
            Some(p.jitter.span),
            Some(p.retry_on.span),
            p.per_try_timeout.as_ref().map(|t| t.span),
            p.overall_timeout.as_ref().map(|t| t.span),
        ];
        let origins: Vec<(usize, Span)> = spans
            .into_iter()
            .flatten()
            .flat_map(|s| r.origins(s))
            .collect();
        for (vf, at) in origins {
            let Some(v) = files.get(vf) else { continue };
            let place = SettingPlace {
                path: v.source.display_path(),
                line: v.source.line_col(at.start).line,
            };
            if !p.settings_from.contains(&place) {
                p.settings_from.push(place);
            }
        }
    }
    let map = |s: Span| r.map(s);
    crate::extract::remap_facts(&mut facts, &map);
    name_templates(&f.source.text, &r, &mut facts);
    Some(facts)
}

/// What the rendered text could not say is the template's, at `info`:
/// the opaque `{{?}}` in a message becomes the action it stands for.
fn name_templates(text: &str, r: &Rendered, facts: &mut crate::model::Facts) {
    for d in &mut facts.diagnostics {
        if d.code != unparsable_file::CODE {
            continue;
        }
        let action = r
            .unknown
            .iter()
            .find(|s| s.start >= d.span.start)
            .and_then(|s| text.get(s.start..s.end))
            .map(|a| a.chars().take(40).collect::<String>());
        if let Some(a) = action {
            d.message = d.message.replace(helm::OPAQUE, &a);
        }
        if !d.message.starts_with("templated file") {
            d.message = format!(
                "templated file (rendered with the chart's values): {}",
                d.message
            );
        }
        d.severity = Some(Severity::Info);
    }
}

#[cfg(test)]
mod tests;
