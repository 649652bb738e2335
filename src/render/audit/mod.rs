//! `retrylint audit`: a report for people, built once as a [`Report`] and
//! rendered three ways: Markdown ([`markdown`]), a self-contained HTML page
//! with the call graph drawn as inline SVG ([`html`], [`svg`], [`layout`]),
//! and JSON (the [`Report`] itself, documented in docs/audit-report.md).
//!
//! Every string in the report that comes from a scanned file (service
//! names, paths, policy names, settings as written, messages that quote
//! values) is escaped by the renderer that writes it; the model holds the
//! raw text.

pub mod doc;
pub mod html;
pub mod layout;
pub mod markdown;
pub mod paths;
pub mod progress;
// simulation (issue 24): the outage chart of each worst path.
pub mod sections;
pub mod simulation;
pub mod stores;
pub mod svg;

use crate::Scan;
use crate::duration::human;
use crate::extract::short_host;
use crate::graph::{Graph, Loc, RetryLayer};
use crate::model::{
    AttemptCount, Budget, Delay, Jitter, Layer, Methods, PolicyKind, Provenance, RetryOn,
    RetryPolicy, Timeout,
};
use crate::rules::{Finding, RULES, Severity};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

mod data;
mod trust;
mod words;

pub use data::*;
use words::*;
pub use words::{
    attempts_word, edge_full_label, edge_short_label, layer_word, severity_counts, timeouts_word,
};

/// The three files `retrylint audit` writes.
pub const FILES: [&str; 3] = ["report.md", "report.html", "report.json"];

impl Report {
    /// Build the report from a scan, its graph and its findings.
    pub fn build(roots: &[String], scan: &Scan, graph: &Graph, findings: &[Finding]) -> Report {
        // Which edges each written policy is a layer of, computed once.
        let mut policy_edges: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        for (i, e) in graph.edges.iter().enumerate() {
            for l in &e.layers {
                if let Some(key) = l.policy {
                    let v = policy_edges.entry(key).or_default();
                    if v.last() != Some(&i) {
                        v.push(i);
                    }
                }
            }
        }
        Builder {
            scan,
            graph,
            policy_edges,
            paths: paths::Paths::new(roots),
        }
        .report(findings)
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("serialisable");
        s.push('\n');
        s
    }

    /// Write report.md, report.html and report.json into `dir`, creating it.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join(FILES[0]), markdown::render(self))?;
        std::fs::write(dir.join(FILES[1]), html::render(self))?;
        std::fs::write(dir.join(FILES[2]), self.to_json())?;
        Ok(())
    }

    /// The service names of a hop list: entry, then each callee.
    fn worst(&self) -> Option<&PathData> {
        self.worst_paths
            .iter()
            .filter(|p| p.attempts > 1)
            .max_by(|a, b| a.attempts.cmp(&b.attempts).then(b.entry.cmp(&a.entry)))
    }
}

struct Builder<'a> {
    scan: &'a Scan,
    graph: &'a Graph,
    policy_edges: HashMap<(usize, usize), Vec<usize>>,
    paths: paths::Paths,
}

impl Builder<'_> {
    /// Text from a rule or extractor, its paths shown as the report shows them.
    fn text(&self, s: &str) -> String {
        self.paths.text(s)
    }

    /// The namespace a service's declarations write, the first found.
    fn namespace_of(&self, s: &crate::graph::Service) -> Option<String> {
        s.sources.iter().find_map(|(l, _)| {
            let f = self.scan.files.get(l.file)?;
            f.facts
                .services
                .iter()
                .filter(|d| d.span == l.span)
                .find_map(|d| d.placement.namespace.clone())
        })
    }

    fn source(&self, l: Loc) -> Option<SourceRef> {
        if l.file >= self.scan.files.len() {
            return None;
        }
        let f = self.scan.file(l.file);
        let lc = f.line_col(l.span.start);
        Some(SourceRef {
            file: self.paths.file(&f.display_path()),
            line: lc.line,
            column: lc.column,
        })
    }

    fn at(&self, file: usize, span: crate::source::Span) -> SourceRef {
        self.source(Loc { file, span }).unwrap_or(SourceRef {
            file: String::new(),
            line: 0,
            column: 0,
        })
    }

    fn layer(&self, l: &RetryLayer) -> LayerData {
        LayerData {
            system: l.system.label(),
            layer: l.kind,
            attempts: l.attempts.finite(),
            unbounded: matches!(l.attempts, AttemptCount::Unbounded),
            per_try_timeout_ms: l.per_try.map(|d| d.as_millis() as u64),
            overall_timeout_ms: l.overall.map(|d| d.as_millis() as u64),
            implicit: l.implicit,
            label: self.text(&l.label),
            setting: self.text(&l.setting),
            source: self.source(l.loc),
        }
    }

    fn report(&self, findings: &[Finding]) -> Report {
        let g = self.graph;
        let paths = g.worst_paths();
        let worst_edges: BTreeSet<usize> = paths
            .iter()
            .filter(|p| p.attempts > 1)
            .flat_map(|p| p.edges.iter().copied())
            .collect();
        let graph = GraphData {
            services: g
                .services
                .iter()
                .enumerate()
                .map(|(i, s)| ServiceNode {
                    id: format!("svc-{i}"),
                    name: s.name.clone(),
                    entry: g.entries.contains(&i),
                    sources: s
                        .sources
                        .iter()
                        .filter_map(|(l, how)| {
                            self.source(*l).map(|source| IdentitySource {
                                how: how.clone(),
                                source,
                            })
                        })
                        .collect(),
                    namespace: self.namespace_of(s),
                })
                .collect(),
            edges: g
                .edges
                .iter()
                .enumerate()
                .map(|(i, e)| EdgeData {
                    from: e.from,
                    to: e.to,
                    via: self.text(&e.via),
                    source: self.source(e.proof),
                    attempts: e.factor(),
                    back_edge: g.is_back_edge(i),
                    on_worst_path: worst_edges.contains(&i),
                    layers: e.layers.iter().map(|l| self.layer(l)).collect(),
                    protocol: e.protocol,
                })
                .collect(),
            cycles: g
                .cycles
                .iter()
                .map(|c| c.iter().map(|&s| g.service_name(s).to_string()).collect())
                .collect(),
            notes: g
                .notes
                .iter()
                .map(|n| NoteData {
                    message: self.text(&n.message),
                    source: self.source(n.loc),
                })
                .collect(),
            mesh: g.mesh,
        };
        let worst_paths: Vec<PathData> = paths
            .iter()
            .map(|p| PathData {
                entry: g.service_name(p.entry).to_string(),
                attempts: p.attempts,
                services: std::iter::once(p.entry)
                    .chain(p.edges.iter().map(|&e| g.edges[e].to))
                    .map(|s| g.service_name(s).to_string())
                    .collect(),
                arithmetic: arithmetic(g, &p.edges, p.attempts),
                hops: p
                    .edges
                    .iter()
                    .map(|&e| {
                        let edge = &g.edges[e];
                        HopData {
                            edge: e,
                            from: g.service_name(edge.from).to_string(),
                            to: g.service_name(edge.to).to_string(),
                            via: self.text(&edge.via),
                            attempts: edge.factor(),
                            source: self.source(edge.proof),
                            layers: edge.layers.iter().map(|l| self.layer(l)).collect(),
                        }
                    })
                    .collect(),
            })
            .collect();
        let services = self.policies();
        let findings_groups = self.findings(findings);
        let implicit_defaults = self.defaults();
        let (fix_first, fix_first_held_back) = self.fix_first(findings);
        let mut policies_by_system: BTreeMap<String, usize> = BTreeMap::new();
        for (id, f) in self.scan.files.iter().enumerate() {
            for (i, p) in f.facts.policies.iter().enumerate() {
                // A use of a configured instance is that instance.
                if !g.instance_uses.contains_key(&(id, i)) {
                    *policies_by_system.entry(p.system.label()).or_default() += 1;
                }
            }
        }
        let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
        let mut report = Report {
            version: REPORT_VERSION,
            tool: Tool {
                name: "retrylint",
                version: env!("CARGO_PKG_VERSION"),
            },
            roots: self.paths.roots.clone(),
            summary: Summary {
                files_scanned: self.scan.stats.files_seen,
                files_read: self.scan.stats.files_parsed,
                test_files: self.scan.stats.test_files,
                generated_files: self.scan.stats.generated_files,
                files_not_read: self.scan.stats.unread.count(),
                services: g.services.len(),
                edges: g.edges.len(),
                policies: policies_by_system.values().sum(),
                policies_by_system,
                findings: findings.len(),
                errors: count(Severity::Error),
                warnings: count(Severity::Warning),
                infos: count(Severity::Info),
                findings_by_rule: findings_groups
                    .iter()
                    .map(|grp| {
                        let n =
                            |s: Severity| grp.findings.iter().filter(|f| f.severity == s).count();
                        RuleCount {
                            code: grp.code,
                            name: grp.name,
                            error: n(Severity::Error),
                            warning: n(Severity::Warning),
                            info: n(Severity::Info),
                        }
                    })
                    .collect(),
                worst_amplification: None,
                fix_first,
                fix_first_held_back: fix_first_held_back.values().sum(),
                fix_first_held_back_rules: fix_first_held_back,
                assumptions: self.assumptions(&implicit_defaults),
                not_read: self.not_read(),
            },
            graph,
            worst_paths,
            services,
            findings: findings_groups,
            implicit_defaults,
            simulations: Vec::new(),
            notices: self
                .scan
                .notices
                .iter()
                .map(|n| NoticeData {
                    path: n.path.as_deref().map(|p| self.paths.file(p)),
                    message: self.text(&n.message),
                })
                .collect(),
        };
        // simulation (issue 24)
        report.simulations = simulation::for_paths(self.scan, g, &paths);
        report.summary.worst_amplification = report.worst().map(|p| WorstSummary {
            attempts: p.attempts,
            services: p.services.clone(),
            arithmetic: p.arithmetic.clone(),
        });
        report
    }

    /// The service a policy belongs to and where it applies. A mesh policy
    /// (a VirtualService) is configured per destination host, so it is
    /// listed under the service it protects; anything else under the
    /// service that runs it.
    fn owner(&self, file: usize, index: usize, p: &RetryPolicy) -> (Option<String>, String) {
        let g = self.graph;
        let on_edges: Vec<&crate::graph::Edge> = self
            .policy_edges
            .get(&(file, index))
            .map(|v| v.iter().map(|&e| &g.edges[e]).collect())
            .unwrap_or_default();
        let callee = p.scope.callee.as_ref().map(|c| short_host(&c.value));
        // The route, unless it is already the policy's name.
        let route = p.scope.route.clone().filter(|r| Some(r) != p.name.as_ref());
        let with_route = |s: String| match &route {
            Some(r) => format!("{s}, {r}"),
            None => s,
        };
        if p.system.layer() == Layer::Mesh {
            let to = on_edges
                .first()
                .map(|e| g.service_name(e.to).to_string())
                .or(callee);
            return match to {
                Some(t) => (Some(t.clone()), with_route(format!("calls to {t}"))),
                None => (None, with_route("no host named".into())),
            };
        }
        let from = on_edges
            .first()
            .map(|e| g.service_name(e.from).to_string())
            .or_else(|| p.scope.caller.as_deref().map(short_host))
            .or_else(|| g.file_owners.get(file).cloned().flatten());
        let targets: BTreeSet<String> = on_edges
            .iter()
            .map(|e| g.service_name(e.to).to_string())
            .chain(callee)
            .collect();
        let applies = if p.kind == PolicyKind::Connect {
            // Repeats the connect, not the calls made over it.
            "its connect, not its calls".to_string()
        } else if targets.is_empty() {
            "calls it makes".to_string()
        } else {
            format!(
                "calls to {}",
                targets.into_iter().collect::<Vec<_>>().join(", ")
            )
        };
        (from, with_route(applies))
    }

    fn policies(&self) -> Vec<ServicePolicies> {
        let mut by: BTreeMap<Option<String>, Vec<PolicyData>> = BTreeMap::new();
        for (id, f) in self.scan.files.iter().enumerate() {
            for (i, p) in f.facts.policies.iter().enumerate() {
                if self.graph.instance_uses.contains_key(&(id, i)) {
                    continue;
                }
                let (owner, applies_to) = self.owner(id, i, p);
                let mut data = self.policy(id, p, applies_to);
                data.used_at = self
                    .graph
                    .instance_uses
                    .iter()
                    .filter(|&(_, &at)| at == (id, i))
                    .map(|(&(uf, ui), _)| self.at(uf, self.scan.files[uf].facts.policies[ui].span))
                    .collect();
                by.entry(owner).or_default().push(data);
            }
        }
        // Named services first, alphabetically; the unattributed last.
        let mut out: Vec<ServicePolicies> = Vec::new();
        let unowned = by.remove(&None);
        for (service, policies) in by {
            out.push(ServicePolicies { service, policies });
        }
        if let Some(policies) = unowned {
            out.push(ServicePolicies {
                service: None,
                policies,
            });
        }
        for s in &mut out {
            s.policies.sort_by(|a, b| a.source.cmp(&b.source));
        }
        out
    }

    fn policy(&self, file: usize, p: &RetryPolicy, applies_to: String) -> PolicyData {
        let mut defaulted = Vec::new();
        // A value the linter cannot read is not a default, whatever its
        // provenance says.
        let mut mark = |name: &'static str, prov: Provenance, text: String| {
            if prov == Provenance::Default && !text.starts_with("unknown") {
                defaulted.push(name);
                format!("{text} (default)")
            } else if prov == Provenance::Included {
                format!("{text} (from an including file)")
            } else {
                text
            }
        };
        let attempts_text = mark(
            "attempts",
            p.attempts.provenance,
            match p.attempts.value.count {
                AttemptCount::Finite(n) => n.to_string(),
                AttemptCount::Unbounded => "unbounded".into(),
                // Set where this file cannot see: say where, as the
                // extractor wrote it.
                AttemptCount::Unknown if !p.attempts.value.written_as.is_empty() => {
                    format!("unknown: {}", p.attempts.value.written_as)
                }
                AttemptCount::Unknown => "unknown".into(),
            },
        );
        let delay = mark("delay", p.delay.provenance, delay_text(&p.delay.value));
        let jitter = mark("jitter", p.jitter.provenance, jitter_text(&p.jitter.value));
        let timeout = |t: &Option<crate::model::Located<Timeout>>| match t {
            None => ("n/a".to_string(), Provenance::Written),
            Some(t) => (
                match t.value {
                    Timeout::Disabled => "none".into(),
                    Timeout::Finite { after } => human(after),
                    Timeout::Unknown => "unknown".into(),
                },
                t.provenance,
            ),
        };
        let (pt, pp) = timeout(&p.per_try_timeout);
        let per_try_timeout = mark("per_try_timeout", pp, pt);
        let (ot, op) = timeout(&p.overall_timeout);
        let overall_timeout = mark("overall_timeout", op, ot);
        let budget = match &p.budget {
            None if p.system.offers_budget() => "none".to_string(),
            None => "n/a".to_string(),
            Some(b) => mark("budget", b.provenance, budget_text(&b.value)),
        };
        let retry_on = mark(
            "retry_on",
            p.retry_on.provenance,
            retry_on_text(&p.retry_on.value, &p.methods.value),
        );
        PolicyData {
            system: p.system.label(),
            name: p.name.clone(),
            kind: p.kind,
            applies_to,
            attempts: p.attempts.value.count.finite(),
            attempts_text,
            delay,
            jitter,
            per_try_timeout,
            overall_timeout,
            budget,
            retry_on,
            defaulted,
            source: self.at(file, p.span),
            used_at: Vec::new(),
        }
    }

    fn fix_first(&self, findings: &[Finding]) -> (Vec<FixItem>, BTreeMap<&'static str, usize>) {
        use crate::rules::Category;
        let spread = |c: Category| match c {
            Category::Paths => 0,
            Category::Timeouts => 1,
            Category::Conditions => 2,
            Category::Idempotency => 3,
            Category::Backoff => 4,
            Category::Budget => 5,
            Category::Settings => 6,
        };
        let mut order: Vec<&Finding> = findings.iter().collect();
        // Worst first: within one rule, a finding on a path that multiplies
        // more before one that multiplies less. Stable otherwise: findings
        // keep their file order within one rule.
        let weight = self.path_weights();
        let weight_of = |f: &Finding| {
            std::iter::once((f.file, f.span))
                .chain(f.related.iter().map(|r| (r.file, r.span)))
                .filter_map(|(file, s)| weight.get(&(file, s.start, s.end)))
                .max()
                .copied()
                .unwrap_or(0)
        };
        order.sort_by_key(|f| {
            (
                std::cmp::Reverse(f.severity),
                spread(f.rule.category),
                f.rule.code,
                std::cmp::Reverse(weight_of(f)),
            )
        });
        // Only what rests on written settings or stated defaults, one item
        // per cause.
        let assumed = self.assumed_places();
        let mut held_back: BTreeMap<&'static str, usize> = BTreeMap::new();
        let mut items: Vec<FixItem> = Vec::new();
        let mut causes: Vec<(&'static str, String)> = Vec::new();
        for f in order {
            if self.rests_on_assumption(f, &assumed) {
                *held_back.entry(f.rule.code).or_default() += 1;
                continue;
            }
            let key = (f.rule.code, cause(&f.message, &f.help));
            if let Some(k) = causes.iter().position(|c| *c == key) {
                items[k].count += 1;
                continue;
            }
            causes.push(key);
            items.push(FixItem {
                code: f.rule.code,
                name: f.rule.name,
                severity: f.severity,
                message: self.text(&f.message),
                help: self.text(&f.help),
                source: self.at(f.file, f.span),
                count: 1,
            });
        }
        items.truncate(FIX_FIRST);
        (items, held_back)
    }

    fn findings(&self, findings: &[Finding]) -> Vec<RuleGroup> {
        let mut out = Vec::new();
        for rule in RULES {
            let mine: Vec<&Finding> = findings
                .iter()
                .filter(|f| std::ptr::eq(f.rule, rule))
                .collect();
            if mine.is_empty() {
                continue;
            }
            out.push(RuleGroup {
                code: rule.code,
                name: rule.name,
                severity: rule.severity,
                summary: rule.summary,
                doc: format!("rules/{}-{}.md", rule.code, rule.name),
                help_uri: rule.help_uri(),
                findings: mine
                    .into_iter()
                    .map(|f| FindingData {
                        severity: f.severity,
                        message: self.text(&f.message),
                        help: self.text(&f.help),
                        source: self.at(f.file, f.span),
                        related: f
                            .related
                            .iter()
                            .map(|r| RelatedData {
                                message: self.text(&r.message),
                                source: self.at(r.file, r.span),
                            })
                            .collect(),
                    })
                    .collect(),
            });
        }
        out.sort_by_key(|g| g.code);
        out
    }

    /// Every policy whose attempts are the system's default and every
    /// implicit layer of the graph, by system; a policy that the graph
    /// places on calls lists those calls.
    fn defaults(&self) -> Vec<DefaultGroup> {
        let g = self.graph;
        // Keyed by (system, policy or edge-proof) so that a default policy
        // on several calls is one entry.
        let mut entries: BTreeMap<(String, String, Option<SourceRef>), DefaultEntry> =
            BTreeMap::new();
        for (id, f) in self.scan.files.iter().enumerate() {
            for (i, p) in f.facts.policies.iter().enumerate() {
                // A count the file cannot see (set in configuration
                // elsewhere) is not a default.
                if p.attempts.provenance != Provenance::Default
                    || !p.retries()
                    || p.attempts.value.count == AttemptCount::Unknown
                {
                    continue;
                }
                let source = Some(self.at(id, p.span));
                let (owner, applies) = self.owner(id, i, p);
                let calls: Vec<String> = self
                    .policy_edges
                    .get(&(id, i))
                    .into_iter()
                    .flatten()
                    .map(|&e| {
                        let e = &g.edges[e];
                        format!("{} → {}", g.service_name(e.from), g.service_name(e.to))
                    })
                    .collect();
                let applies_to = if calls.is_empty() {
                    vec![match owner {
                        Some(o) if p.system.layer() != Layer::Mesh => format!("{o}: {applies}"),
                        _ => applies,
                    }]
                } else {
                    calls
                };
                entries.insert(
                    (p.system.label(), p.describe(), source.clone()),
                    DefaultEntry {
                        what: self.text(&p.describe()),
                        setting: self.text(&p.attempts.value.written_as),
                        attempts: p.attempts.value.count.finite(),
                        applies_to,
                        source,
                    },
                );
            }
        }
        for e in &g.edges {
            for l in e.layers.iter().filter(|l| l.implicit && l.retries()) {
                let source = self.source(l.loc);
                let call = format!("{} → {}", g.service_name(e.from), g.service_name(e.to));
                let key = match l.policy {
                    Some((pf, pi)) => {
                        let p = &self.scan.files[pf].facts.policies[pi];
                        (p.system.label(), p.describe(), Some(self.at(pf, p.span)))
                    }
                    None => (l.system.label(), l.label.clone(), source.clone()),
                };
                let entry = entries.entry(key).or_insert_with(|| DefaultEntry {
                    what: self.text(&l.label),
                    setting: self.text(&l.setting),
                    attempts: l.attempts.finite(),
                    applies_to: Vec::new(),
                    source,
                });
                entry.applies_to.push(call);
            }
        }
        let mut groups: BTreeMap<String, Vec<DefaultEntry>> = BTreeMap::new();
        for ((system, _, _), mut entry) in entries {
            entry.applies_to.sort();
            entry.applies_to.dedup();
            groups.entry(system).or_default().push(entry);
        }
        groups
            .into_iter()
            .map(|(system, entries)| DefaultGroup { system, entries })
            .collect()
    }
}
