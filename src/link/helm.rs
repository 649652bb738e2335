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

use crate::diag::unparsable_file;
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
    // Each chart's values, then every template rendered on the thread
    // pool (the templates are independent; istio's 24 charts render some
    // hundred templates, each once per values variant).
    let mut jobs: Vec<(usize, usize)> = Vec::new();
    let mut values_of: Vec<(values::Val, Vec<Variant>)> = Vec::new();
    let inflated = inflated_charts(files);
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
        let mut variants: Vec<Variant> = vfiles[1..]
            .iter()
            .map(|&(_, i)| Variant {
                values: values::merge(&base, &parse(i)),
                label: files[i]
                    .source
                    .path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                sources: vec![i],
            })
            .collect();
        // A kustomization that inflates this chart (`helmCharts`) with its
        // own values is a variant too, named for the kustomization.
        let here = crate::extract::kustomize::normal(chart);
        for c in inflated.iter().filter(|c| c.chart == here) {
            let mut merged = base.clone();
            let mut sources = vec![c.kustomization];
            if let Some(vf) = c.values_file {
                merged = values::merge(&merged, &parse(vf));
                sources.push(vf);
            }
            if let Some(inline) = &c.inline {
                merged = values::merge(&merged, inline);
            }
            variants.push(Variant {
                values: merged,
                label: files[c.kustomization].source.display_path(),
                sources,
            });
        }
        let templates = chart.join("templates");
        let mine: Vec<usize> = (0..files.len())
            .filter(|&i| {
                let p = &files[i].source.path;
                // A `.tpl` holds helpers (`define`), which Helm renders
                // only where they are included: it keeps its own reading
                // (its template parts masked, `extract::template_text`).
                p.starts_with(&templates)
                    && files[i].syntax == Some(Syntax::Yaml)
                    && !p.extension().is_some_and(|e| e.eq_ignore_ascii_case("tpl"))
                    && nearest_chart(p, &charts) == Some(chart.as_path())
            })
            .collect();
        jobs.extend(mine.into_iter().map(|t| (t, values_of.len())));
        values_of.push((base, variants));
    }
    use rayon::prelude::*;
    let read: Vec<(usize, Option<crate::model::Facts>)> = jobs
        .par_iter()
        .map(|&(t, v)| {
            let (base, variants) = &values_of[v];
            (t, read_template(files, t, base, variants))
        })
        .collect();
    for (t, facts) in read {
        if let Some(facts) = facts {
            files[t].facts = facts;
        }
    }
}

/// One variant of a chart's values: merged over `values.yaml`, named
/// `label` in messages, written in `sources` (the files its settings may
/// come from).
struct Variant {
    values: values::Val,
    label: String,
    sources: Vec<usize>,
}

/// A kustomization's `helmCharts` entry whose chart is in the scan.
struct Inflated {
    kustomization: usize,
    /// The chart's folder: `helmGlobals.chartHome` (`charts` by default)
    /// below the kustomization's folder, then the entry's `name`.
    chart: PathBuf,
    values_file: Option<usize>,
    inline: Option<values::Val>,
}

/// Every `helmCharts` entry of the scanned kustomizations (kustomize
/// `api/types/helmchartargs.go`: `name`, `valuesFile`, `valuesInline`;
/// `helmGlobals.chartHome`, "charts" when not written, kustomize
/// `api/internal/builtins/HelmChartInflationGenerator.go`); a chart
/// kustomize would pull from a repository (`repo`, not in the scan) is not
/// matched, as no chart folder of the scan is at its path.
fn inflated_charts(files: &[ScannedFile]) -> Vec<Inflated> {
    use crate::extract::kustomize::{CLAIM, normal};
    let mut out = Vec::new();
    for (k, f) in files.iter().enumerate() {
        if !f.facts.extractors.contains(&CLAIM) || !f.source.text.contains("helmCharts") {
            continue;
        }
        let parsed = crate::yaml::parse(&f.source.text);
        let Some(doc) = parsed.documents.first() else {
            continue;
        };
        let root = parsed.root(doc);
        let dir = f.source.path.parent().unwrap_or(Path::new(""));
        let home = root
            .path(&["helmGlobals", "chartHome"])
            .and_then(|h| h.as_str())
            .unwrap_or("charts");
        for entry in root
            .get("helmCharts")
            .map(|h| h.items())
            .unwrap_or_default()
        {
            let Some(name) = entry.get("name").and_then(|n| n.as_str()) else {
                continue;
            };
            let values_file = entry
                .get("valuesFile")
                .and_then(|v| v.as_str())
                .map(|v| normal(&dir.join(v)))
                .and_then(|v| files.iter().position(|g| normal(&g.source.path) == v));
            let inline = entry
                .get("valuesInline")
                .filter(|v| v.is_map())
                .map(|v| values::from_node(v, k));
            out.push(Inflated {
                kustomization: k,
                chart: normal(&dir.join(home).join(name)),
                values_file,
                inline,
            });
        }
    }
    out
}

/// The chart a template belongs to: the deepest chart folder above it.
fn nearest_chart<'c>(p: &Path, charts: &'c [PathBuf]) -> Option<&'c Path> {
    charts
        .iter()
        .filter(|c| p.starts_with(c.join("templates")))
        .max_by_key(|c| c.components().count())
        .map(PathBuf::as_path)
}

/// A template's facts rendered with its chart's values and variants;
/// `None`: it stays as read raw.
fn read_template(
    files: &[ScannedFile],
    t: usize,
    base: &values::Val,
    variants: &[Variant],
) -> Option<crate::model::Facts> {
    let mut facts = render_facts(files, t, base)?;
    // The policies variants added: their index and the policy as rendered
    // with no name, so that a later variant rendering the same one is
    // listed on it instead of added again.
    let mut added: Vec<(usize, crate::model::RetryPolicy)> = Vec::new();
    let bare = |p: &crate::model::RetryPolicy| {
        let mut b = p.clone();
        b.settings_from.clear();
        b
    };
    for v in variants {
        let Some(other) = render_facts(files, t, &v.values) else {
            continue;
        };
        let shown: Vec<String> = v
            .sources
            .iter()
            .map(|&i| files[i].source.display_path())
            .collect();
        let from_variant = |p: &SettingPlace| shown.contains(&p.path);
        let file_name = &v.label;
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
                // The same policy as an earlier variant's (the same
                // settings): one finding naming both variants.
                let b = bare(&p);
                if let Some((i, _)) = added.iter().find(|(_, q)| *q == b) {
                    let q = &mut facts.policies[*i];
                    if let Some(n) = &mut q.name {
                        n.push_str(&format!("`, `{file_name}"));
                    }
                    for place in p.settings_from {
                        if !q.settings_from.contains(&place) {
                            q.settings_from.push(place);
                        }
                    }
                    continue;
                }
                added.push((facts.policies.len(), b));
                // Named for its variant (messages quote a name in
                // backticks: "`orders/http[0]` with `values-prod.yaml`").
                // Findings of one rule at one template line are one
                // (`check::sort_and_dedup`); sorted by message, the default
                // values' finding, "`orders/http[0]` (Istio ...", comes
                // first, and another variant's of the same cause is kept as
                // its related location.
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
    Some(facts)
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
    // Every rendered document parsed, so each one that does not parse is
    // counted (`name_templates`), whichever reader would read it.
    let mut facts = crate::systems::extract_rendered(&f.source.path, &r.text);
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
    drop_read_in_values(files, &r, &mut facts);
    // Which values the values files wrote, before the spans move: a count
    // shown as the template writes it, and conditions marked as written
    // elsewhere (their text at the template is the action, not the value).
    let counts_from_values: Vec<bool> = facts
        .policies
        .iter()
        .map(|p| !r.origins(p.attempts.span).is_empty())
        .collect();
    for p in &mut facts.policies {
        if let crate::model::RetryOn::Listed { conditions } = &mut p.retry_on.value {
            for c in conditions.iter_mut() {
                if c.is_written() && !r.origins(c.span).is_empty() {
                    c.provenance = crate::model::Provenance::Included;
                }
            }
        }
    }
    // A name that only Helm knows names no service and no callee.
    let opaque = |s: &str| s.contains(helm::OPAQUE);
    facts.services.retain(|d| !opaque(&d.name));
    for d in &mut facts.services {
        d.hosts.retain(|h| !opaque(h));
    }
    facts
        .edges
        .retain(|e| !opaque(&e.callee) && !e.caller.as_deref().is_some_and(opaque));
    // A policy named by what only Helm knows (`name: {{ include
    // "x.fullname" . }}`) is named so in messages, not by the stand-in
    // (kubeflow/manifests' kserve-models-web-app chart showed
    // `helm-unknown/http[0]`); a callee only Helm knows is no callee.
    for p in &mut facts.policies {
        for n in [&mut p.name, &mut p.scope.route].into_iter().flatten() {
            if n.contains(helm::OPAQUE) {
                *n = n.replace(helm::OPAQUE, "{{ … }}");
            }
        }
        if p.scope.callee.as_ref().is_some_and(|c| opaque(&c.value)) {
            p.scope.callee = None;
        }
    }
    let map = |s: Span| r.map(s);
    crate::extract::remap_facts(&mut facts, &map);
    quote_templates(&f.source.text, &counts_from_values, &mut facts);
    name_templates(&f.source.text, &r, &mut facts);
    Some(facts)
}

/// A count a values file wrote is quoted as the template writes it, the
/// rendered value named beside it (`attempts: {{ .Values.attempts }}`,
/// rendered `attempts: 5`), so a message shows the line the snippet shows.
/// `from_values` holds, per policy, whether its count came from a values
/// file.
fn quote_templates(text: &str, from_values: &[bool], facts: &mut crate::model::Facts) {
    if from_values.len() != facts.policies.len() {
        return;
    }
    for (p, from) in facts.policies.iter_mut().zip(from_values) {
        if !*from {
            continue;
        }
        let Some(written) = text.get(p.attempts.span.start..p.attempts.span.end) else {
            continue;
        };
        let line = written.lines().next().unwrap_or("").trim();
        if line.is_empty() || line == p.attempts.value.written_as || line.len() > 120 {
            continue;
        }
        p.attempts.value.written_as = format!("{line}`, rendered `{}", p.attempts.value.written_as);
    }
}

/// A configuration a values file holds as a string (an Envoy bootstrap in
/// `envoyConfig: |`) is read in the values file itself, where its lines
/// are; the copy the template renders from it (`{{ .Values.envoyConfig |
/// nindent 4 }}`) is dropped: a policy whose count comes from a values
/// string inside which the values file already holds a policy's count,
/// a timeout likewise, and the edges of the dropped policies.
fn drop_read_in_values(files: &[ScannedFile], r: &Rendered, facts: &mut crate::model::Facts) {
    let inside = |a: Span, b: Span| b.start <= a.start && a.end <= b.end;
    let read_there = |s: Span, of: &dyn Fn(&crate::model::Facts) -> Vec<Span>| {
        r.origins(s).iter().any(|(vf, at)| {
            files
                .get(*vf)
                .is_some_and(|v| of(&v.facts).into_iter().any(|q| inside(q, *at)))
        })
    };
    let counts = |f: &crate::model::Facts| f.policies.iter().map(|q| q.attempts.span).collect();
    let timeouts = |f: &crate::model::Facts| f.timeouts.iter().map(|t| t.timeout.span).collect();
    let keep: Vec<bool> = facts
        .policies
        .iter()
        .map(|p| !read_there(p.attempts.span, &counts))
        .collect();
    if keep.iter().all(|k| *k) && facts.timeouts.is_empty() {
        return;
    }
    facts
        .timeouts
        .retain(|t| !read_there(t.timeout.span, &timeouts));
    let mut new_index = Vec::with_capacity(keep.len());
    let mut next = 0usize;
    for k in &keep {
        new_index.push(k.then_some(next));
        next += usize::from(*k);
    }
    let mut k = keep.iter();
    facts.policies.retain(|_| *k.next().unwrap_or(&true));
    facts.edges.retain_mut(|e| {
        let had = !e.policies.is_empty();
        e.policies = e
            .policies
            .iter()
            .filter_map(|i| new_index.get(*i).copied().flatten())
            .collect();
        !(had && e.policies.is_empty())
    });
    for u in &mut facts.unresolved {
        u.policies = u
            .policies
            .iter()
            .filter_map(|i| new_index.get(*i).copied().flatten())
            .collect();
    }
}

/// What the rendering could not say, reported once at `info` (RL903), as
/// for a template read raw: a setting on the line of an action whose value
/// is unknown is not checked (its finding would be about the stand-in),
/// and a document that does not parse once rendered is counted.
fn name_templates(text: &str, r: &Rendered, facts: &mut crate::model::Facts) {
    let lines = crate::source::LineIndex::new(text);
    let line = |o: usize| lines.line_of(o.min(text.len()));
    let unknown: std::collections::HashSet<usize> = r
        .unknown
        .iter()
        .flat_map(|s| line(s.start)..=line(s.end))
        .collect();
    let mut unparsed = Vec::new();
    let mut skipped = 0;
    facts.diagnostics.retain(|d| {
        if d.code == unparsable_file::CODE {
            unparsed.push(d.span);
            return false;
        }
        let on_unknown =
            (line(d.span.start)..=line(d.span.end.max(d.span.start))).any(|l| unknown.contains(&l));
        skipped += usize::from(on_unknown);
        !on_unknown
    });
    if unparsed.is_empty() && skipped == 0 {
        return;
    }
    let excerpt = |s: Span| {
        text.get(s.start..s.end)
            .unwrap_or("")
            .chars()
            .take(40)
            .collect::<String>()
    };
    let mut parts = Vec::new();
    if let Some(&first) = unparsed.first() {
        let at = lines.line_text(text, line(first.start));
        parts.push(format!(
            "{} document{} did not parse once rendered with the chart's values (first at `{}`)",
            unparsed.len(),
            if unparsed.len() == 1 { "" } else { "s" },
            unparsable_file::excerpt(at)
        ));
    }
    if skipped > 0 {
        parts.push(format!(
            "{skipped} setting{} set by what only Helm knows (first `{}`)",
            if skipped == 1 { " is" } else { "s are" },
            r.unknown.first().map_or(String::new(), |s| excerpt(*s))
        ));
    }
    let span = unparsed
        .first()
        .copied()
        .or_else(|| r.unknown.first().copied())
        .unwrap_or_default();
    facts.diagnostics.push(unparsable_file::templated(
        span,
        &format!("{}; they were not checked", parts.join(" and ")),
    ));
}

#[cfg(test)]
mod tests;
