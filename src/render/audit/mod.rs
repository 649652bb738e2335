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
pub mod progress;
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

/// Bumped on any change to [`Report`] that is not a pure addition.
pub const REPORT_VERSION: u32 = 1;

/// The whole report: what `report.json` holds and what the Markdown and
/// HTML renderers draw, section by section.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub version: u32,
    pub tool: Tool,
    /// The paths given on the command line, as given.
    pub roots: Vec<String>,
    pub summary: Summary,
    pub graph: GraphData,
    pub worst_paths: Vec<PathData>,
    /// Every retry policy found, by the service it belongs to.
    pub services: Vec<ServicePolicies>,
    /// Findings grouped by rule, in code order; rules without findings are
    /// left out.
    pub findings: Vec<RuleGroup>,
    /// Retries that apply although nobody wrote them, by system.
    pub implicit_defaults: Vec<DefaultGroup>,
    /// Paths that could not be walked or read.
    pub notices: Vec<NoticeData>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

/// A place in a scanned file, 1-based.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SourceRef {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl SourceRef {
    /// `path:line`.
    pub fn short(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub files_scanned: usize,
    pub files_read: usize,
    pub services: usize,
    pub edges: usize,
    /// Number of retry policies found, by system label.
    pub policies_by_system: BTreeMap<String, usize>,
    pub policies: usize,
    pub findings: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Per rule with findings: how many at each severity.
    pub findings_by_rule: Vec<RuleCount>,
    /// The worst path of all, when some path retries.
    pub worst_amplification: Option<WorstSummary>,
    /// At most [`FIX_FIRST`] findings to fix first: errors before
    /// warnings before infos, and within a severity the rules whose
    /// damage spreads furthest (paths, then timeouts, conditions,
    /// idempotency, backoff, budgets, settings).
    pub fix_first: Vec<FixItem>,
}

/// How many findings the summary proposes to fix first.
pub const FIX_FIRST: usize = 5;

#[derive(Clone, Debug, Serialize)]
pub struct FixItem {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub message: String,
    pub help: String,
    pub source: SourceRef,
}

#[derive(Clone, Debug, Serialize)]
pub struct RuleCount {
    pub code: &'static str,
    pub name: &'static str,
    pub error: usize,
    pub warning: usize,
    pub info: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct WorstSummary {
    /// Worst-case attempts that reach the last service per call at the entry.
    pub attempts: u64,
    /// The services on the path, entry first.
    pub services: Vec<String>,
    /// The multiplication, layer by layer: `3 x 3 = 9`.
    pub arithmetic: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct GraphData {
    pub services: Vec<ServiceNode>,
    pub edges: Vec<EdgeData>,
    /// Each cycle once, as service names.
    pub cycles: Vec<Vec<String>>,
    /// Calls the graph could not place.
    pub notes: Vec<NoteData>,
    /// Whether an Istio mesh is in use (sidecar defaults apply).
    pub mesh: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ServiceNode {
    /// Stable id within the report: `svc-<index>`; the SVG node's id.
    pub id: String,
    pub name: String,
    /// Nobody calls it (or the config names it an entry point).
    pub entry: bool,
    /// Where its identity comes from, and how.
    pub sources: Vec<IdentitySource>,
}

#[derive(Clone, Debug, Serialize)]
pub struct IdentitySource {
    pub how: String,
    pub source: SourceRef,
}

#[derive(Clone, Debug, Serialize)]
pub struct EdgeData {
    /// Index into `graph.services`.
    pub from: usize,
    pub to: usize,
    pub via: String,
    /// The file and line that show the call (absent for a configured edge
    /// placed nowhere).
    pub source: Option<SourceRef>,
    /// Attempts that reach the callee per call: the product of the layers.
    pub attempts: u64,
    /// Closes a cycle; path analysis does not follow it.
    pub back_edge: bool,
    /// On the worst path of some entry point whose path retries.
    pub on_worst_path: bool,
    /// Outermost first: application, SDK, mesh, proxy.
    pub layers: Vec<LayerData>,
}

#[derive(Clone, Debug, Serialize)]
pub struct LayerData {
    pub system: String,
    /// `application`, `sdk`, `mesh` or `proxy`.
    pub layer: Layer,
    /// Total attempts; `null` when unbounded or unknown.
    pub attempts: Option<u64>,
    pub unbounded: bool,
    pub per_try_timeout_ms: Option<u64>,
    pub overall_timeout_ms: Option<u64>,
    /// A platform default nobody wrote.
    pub implicit: bool,
    /// "Istio default", "`payments` (Resilience4j)".
    pub label: String,
    /// The setting as written, or what the default is.
    pub setting: String,
    pub source: Option<SourceRef>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PathData {
    pub entry: String,
    pub attempts: u64,
    pub services: Vec<String>,
    pub arithmetic: String,
    pub hops: Vec<HopData>,
}

#[derive(Clone, Debug, Serialize)]
pub struct HopData {
    /// Index into `graph.edges`.
    pub edge: usize,
    pub from: String,
    pub to: String,
    pub via: String,
    pub attempts: u64,
    pub source: Option<SourceRef>,
    pub layers: Vec<LayerData>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ServicePolicies {
    /// The service, or `null` for policies no service could be found for.
    pub service: Option<String>,
    pub policies: Vec<PolicyData>,
}

/// One retry policy as a row: each value as people read it, with
/// `(default)` where the system's default applies.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyData {
    pub system: String,
    /// Instance, route or method name.
    pub name: Option<String>,
    pub kind: PolicyKind,
    /// Where it applies: `calls to payments`, a route.
    pub applies_to: String,
    /// Total attempts; `null` when unbounded or unknown.
    pub attempts: Option<u64>,
    pub attempts_text: String,
    pub delay: String,
    pub jitter: String,
    pub per_try_timeout: String,
    pub overall_timeout: String,
    pub budget: String,
    pub retry_on: String,
    /// Names of the fields whose values are the system's defaults.
    pub defaulted: Vec<&'static str>,
    pub source: SourceRef,
    /// The code that uses this configured instance by name
    /// (`@Retry(name = "payments")`): one policy, however many sites use it.
    pub used_at: Vec<SourceRef>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RuleGroup {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
    /// The rule's doc, relative to the repository root.
    pub doc: String,
    pub help_uri: String,
    pub findings: Vec<FindingData>,
}

#[derive(Clone, Debug, Serialize)]
pub struct FindingData {
    pub severity: Severity,
    pub message: String,
    pub help: String,
    pub source: SourceRef,
    pub related: Vec<RelatedData>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RelatedData {
    pub message: String,
    pub source: SourceRef,
}

#[derive(Clone, Debug, Serialize)]
pub struct DefaultGroup {
    pub system: String,
    pub entries: Vec<DefaultEntry>,
}

/// One retry nobody wrote.
#[derive(Clone, Debug, Serialize)]
pub struct DefaultEntry {
    /// "Istio default", "`backendA` (Resilience4j)".
    pub what: String,
    /// What the default is: `no VirtualService for `payments`: 2 retries`.
    pub setting: String,
    pub attempts: Option<u64>,
    /// The calls it applies to (`orders -> payments`), or the policy's
    /// scope when no call is known.
    pub applies_to: Vec<String>,
    pub source: Option<SourceRef>,
}

#[derive(Clone, Debug, Serialize)]
pub struct NoteData {
    pub message: String,
    pub source: Option<SourceRef>,
}

#[derive(Clone, Debug, Serialize)]
pub struct NoticeData {
    pub path: Option<String>,
    pub message: String,
}

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
        }
        .report(roots, findings)
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
}

impl Builder<'_> {
    fn source(&self, l: Loc) -> Option<SourceRef> {
        if l.file >= self.scan.files.len() {
            return None;
        }
        let f = self.scan.file(l.file);
        let lc = f.line_col(l.span.start);
        Some(SourceRef {
            file: f.display_path(),
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
            label: l.label.clone(),
            setting: l.setting.clone(),
            source: self.source(l.loc),
        }
    }

    fn report(&self, roots: &[String], findings: &[Finding]) -> Report {
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
                })
                .collect(),
            edges: g
                .edges
                .iter()
                .enumerate()
                .map(|(i, e)| EdgeData {
                    from: e.from,
                    to: e.to,
                    via: e.via.clone(),
                    source: self.source(e.proof),
                    attempts: e.factor(),
                    back_edge: g.is_back_edge(i),
                    on_worst_path: worst_edges.contains(&i),
                    layers: e.layers.iter().map(|l| self.layer(l)).collect(),
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
                    message: n.message.clone(),
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
                            via: edge.via.clone(),
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
            roots: roots.to_vec(),
            summary: Summary {
                files_scanned: self.scan.stats.files_seen,
                files_read: self.scan.stats.files_parsed,
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
                fix_first: self.fix_first(findings),
            },
            graph,
            worst_paths,
            services,
            findings: findings_groups,
            implicit_defaults,
            notices: self
                .scan
                .notices
                .iter()
                .map(|n| NoticeData {
                    path: n.path.clone(),
                    message: n.message.clone(),
                })
                .collect(),
        };
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
        let applies = if targets.is_empty() {
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

    fn fix_first(&self, findings: &[Finding]) -> Vec<FixItem> {
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
        // Stable: findings keep their file order within one rule.
        order.sort_by_key(|f| {
            (
                std::cmp::Reverse(f.severity),
                spread(f.rule.category),
                f.rule.code,
            )
        });
        order
            .into_iter()
            .take(FIX_FIRST)
            .map(|f| FixItem {
                code: f.rule.code,
                name: f.rule.name,
                severity: f.severity,
                message: f.message.clone(),
                help: f.help.clone(),
                source: self.at(f.file, f.span),
            })
            .collect()
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
                        message: f.message.clone(),
                        help: f.help.clone(),
                        source: self.at(f.file, f.span),
                        related: f
                            .related
                            .iter()
                            .map(|r| RelatedData {
                                message: r.message.clone(),
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
                        what: p.describe(),
                        setting: p.attempts.value.written_as.clone(),
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
                    what: l.label.clone(),
                    setting: l.setting.clone(),
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

/// `3 (gateway -> orders, nginx tries) x 3 (...) = 9`, without backticks.
fn arithmetic(g: &Graph, edges: &[usize], total: u64) -> String {
    let mut parts = Vec::new();
    for &e in edges {
        let edge = &g.edges[e];
        for l in edge.layers.iter().filter(|l| l.retries()) {
            parts.push(format!(
                "{} ({} → {}, {})",
                l.factor(),
                g.service_name(edge.from),
                g.service_name(edge.to),
                l.label.replace('`', "")
            ));
        }
    }
    if parts.is_empty() {
        return format!("no retries = {total}");
    }
    format!("{} = {total}", parts.join(" x "))
}

fn delay_text(d: &Delay) -> String {
    match d {
        Delay::None => "none".into(),
        Delay::Fixed { delay } => format!("fixed {}", human(*delay)),
        Delay::Exponential {
            base,
            multiplier,
            cap,
        } => {
            let mut s = format!("exponential {} x{multiplier}", human(*base));
            if let Some(c) = cap {
                s.push_str(&format!(", cap {}", human(*c)));
            }
            s
        }
        Delay::Decorrelated { base, cap } => {
            let mut s = format!("decorrelated from {}", human(*base));
            if let Some(c) = cap {
                s.push_str(&format!(", cap {}", human(*c)));
            }
            s
        }
        Delay::Linear { base, cap } => {
            let mut s = format!("linear +{} each", human(*base));
            if let Some(c) = cap {
                s.push_str(&format!(", cap {}", human(*c)));
            }
            s
        }
        Delay::Custom => "custom".into(),
        Delay::Unknown => "unknown".into(),
    }
}

fn jitter_text(j: &Jitter) -> String {
    match j {
        Jitter::None => "none".into(),
        Jitter::Full => "full".into(),
        Jitter::Equal => "equal".into(),
        Jitter::Proportional { factor } => format!("+/-{}%", (factor * 100.0).round()),
        Jitter::Decorrelated => "decorrelated".into(),
        Jitter::Additive => "additive".into(),
        Jitter::Unknown => "unknown".into(),
    }
}

fn budget_text(b: &Budget) -> String {
    match b {
        Budget::Ratio {
            ratio,
            min_per_second,
        } => {
            let mut s = format!("{}% of requests", (ratio * 100.0).round());
            if let Some(m) = min_per_second {
                s.push_str(&format!(", min {m}/s"));
            }
            s
        }
        Budget::TokenBucket {
            max_tokens,
            token_ratio,
        } => format!("token bucket {max_tokens}, ratio {token_ratio}"),
        Budget::Concurrency { max } => format!("{max} concurrent"),
        Budget::Quota => "retry quota".into(),
    }
}

fn retry_on_text(r: &RetryOn, m: &Methods) -> String {
    let on = match r {
        RetryOn::AllErrors => "every error".to_string(),
        RetryOn::Nothing => "nothing".to_string(),
        RetryOn::Unknown => "unknown".to_string(),
        RetryOn::Listed { conditions } => {
            let items: Vec<String> = conditions
                .iter()
                .map(|c| match &c.value {
                    crate::model::Condition::Status { from, to } if from == to => from.to_string(),
                    crate::model::Condition::Status { from, to } => format!("{from}-{to}"),
                    crate::model::Condition::Grpc(s)
                    | crate::model::Condition::Exception(s)
                    | crate::model::Condition::Transport(s)
                    | crate::model::Condition::Token(s) => s.clone(),
                    crate::model::Condition::Predicate => "a predicate".into(),
                })
                .collect();
            // One token can stand for several conditions that other tokens
            // also name (Envoy's `5xx` includes `connect-failure`).
            let mut seen = BTreeSet::new();
            let items: Vec<String> = items
                .into_iter()
                .filter(|i| seen.insert(i.clone()))
                .collect();
            if items.is_empty() {
                "nothing listed".into()
            } else {
                items.join(", ")
            }
        }
    };
    match m {
        Methods::All => format!("{on}; every method"),
        Methods::IdempotentOnly => format!("{on}; idempotent methods"),
        Methods::Set(s) if !s.is_empty() => format!("{on}; {}", s.join(", ")),
        _ => on,
    }
}

/// A short label for an edge: `2x3 = 6, 1s/try`.
pub fn edge_short_label(e: &EdgeData) -> String {
    if e.layers.is_empty() {
        return "no retries".into();
    }
    let factors: Vec<String> = e
        .layers
        .iter()
        .map(|l| match (l.attempts, l.unbounded) {
            (_, true) => "inf".to_string(),
            (Some(n), _) => n.max(1).to_string(),
            (None, _) => "?".to_string(),
        })
        .collect();
    let mut s = if factors.len() > 1 {
        format!("{} = {}", factors.join("x"), e.attempts)
    } else {
        format!("x{}", factors[0])
    };
    // The innermost per-try timeout bounds each attempt that reaches the callee.
    if let Some(ms) = e.layers.iter().rev().find_map(|l| l.per_try_timeout_ms) {
        s.push_str(&format!(
            ", {}/try",
            human(std::time::Duration::from_millis(ms))
        ));
    } else if let Some(ms) = e.layers.iter().find_map(|l| l.overall_timeout_ms) {
        s.push_str(&format!(
            ", {} total",
            human(std::time::Duration::from_millis(ms))
        ));
    }
    s
}

/// A full label for an edge: every layer with attempts and timeouts.
pub fn edge_full_label(e: &EdgeData) -> String {
    if e.layers.is_empty() {
        return format!("{} (no retries)", e.via.replace('`', ""));
    }
    let layers: Vec<String> = e
        .layers
        .iter()
        .map(|l| {
            let mut s = format!("{} x{}", l.label.replace('`', ""), attempts_word(l));
            if l.implicit {
                s.push_str(" (default)");
            }
            if let Some(ms) = l.per_try_timeout_ms {
                s.push_str(&format!(
                    ", {} per try",
                    human(std::time::Duration::from_millis(ms))
                ));
            }
            if let Some(ms) = l.overall_timeout_ms {
                s.push_str(&format!(
                    ", {} total",
                    human(std::time::Duration::from_millis(ms))
                ));
            }
            s
        })
        .collect();
    format!("{}: {}", e.via.replace('`', ""), layers.join("; "))
}

/// A layer's attempts as a word: `3`, `unbounded`, `unknown`.
pub fn attempts_word(l: &LayerData) -> String {
    match (l.attempts, l.unbounded) {
        (_, true) => "unbounded".into(),
        (Some(n), _) => n.to_string(),
        (None, _) => "unknown".into(),
    }
}

/// A layer's timeouts: `1s per try, 10s total`, or `none`.
pub fn timeouts_word(l: &LayerData) -> String {
    let d = |ms: u64| human(std::time::Duration::from_millis(ms));
    match (l.per_try_timeout_ms, l.overall_timeout_ms) {
        (Some(p), Some(o)) => format!("{} per try, {} total", d(p), d(o)),
        (Some(p), None) => format!("{} per try", d(p)),
        (None, Some(o)) => format!("{} total", d(o)),
        (None, None) => "none".into(),
    }
}

/// `1 error, 2 warnings`: the findings of a group by severity.
pub fn severity_counts(findings: &[FindingData]) -> String {
    let mut parts = Vec::new();
    for (sev, one, many) in [
        (Severity::Error, "error", "errors"),
        (Severity::Warning, "warning", "warnings"),
        (Severity::Info, "info", "infos"),
    ] {
        let n = findings.iter().filter(|f| f.severity == sev).count();
        if n > 0 {
            parts.push(format!("{n} {}", if n == 1 { one } else { many }));
        }
    }
    parts.join(", ")
}

/// The layer kind as a word.
pub fn layer_word(l: Layer) -> &'static str {
    match l {
        Layer::Application => "application",
        Layer::Sdk => "SDK",
        Layer::Mesh => "mesh",
        Layer::Proxy => "proxy",
    }
}
