//! The report's data: what `report.json` holds (its shape is documented in
//! docs/audit-report.md) and what the Markdown and HTML renderers draw.

use super::*;

/// Bumped on any change to [`Report`] that is not a pure addition: 2 when
/// paths became relative to the repository root instead of the working
/// directory (docs/audit-report.md lists what each version changed).
pub const REPORT_VERSION: u32 = 2;

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
    /// simulation (issue 24): each worst path's simulated outage, by
    /// index into `worst_paths` (`render::audit::simulation`); in
    /// `report.json` as summaries (`simulation::json_summaries`).
    #[serde(serialize_with = "super::simulation::json_summaries")]
    pub simulations: Vec<Option<crate::simulate::Comparison>>,
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
    /// Source files not read because they are test code.
    #[serde(skip_serializing_if = "is_zero")]
    pub test_files: usize,
    /// Source files not read because a generator wrote them.
    #[serde(skip_serializing_if = "is_zero")]
    pub generated_files: usize,
    /// Files in languages not read yet that mention retries, timeouts or calls.
    #[serde(skip_serializing_if = "is_zero")]
    pub files_not_read: usize,
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
    /// Findings left out of `fix_first` because they rest on an assumption
    /// (a mesh sidecar nobody declared), not on written settings or stated
    /// defaults.
    pub fix_first_held_back: usize,
    /// The rules of the findings held back, each with how many.
    pub fix_first_held_back_rules: BTreeMap<&'static str, usize>,
    /// What the numbers rest on: mesh membership and why, deployment
    /// variants, defaults nobody wrote.
    pub assumptions: Vec<Assumption>,
    /// What the scan did not read.
    pub not_read: Vec<NotRead>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Assumption {
    pub what: String,
    /// How many calls (or policies) rest on it.
    pub calls: usize,
    /// The file that implies it, where one does.
    pub source: Option<SourceRef>,
}

#[derive(Clone, Debug, Serialize)]
pub struct NotRead {
    pub what: String,
    /// A few of the places, as shown.
    pub examples: Vec<String>,
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
    /// Findings of the same cause (rule, message but for the quoted values,
    /// and fix) this item stands for, itself included.
    pub count: usize,
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
    /// The namespace its Kubernetes Service or workload declares, where
    /// one does (the first of its declarations that writes one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
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
    /// What the call speaks (`http`, `grpc`, `sql`, `redis`, `mongo`,
    /// `kafka`, `amqp`, `tcp`; `unknown` where nothing says).
    pub protocol: crate::model::calls::Protocol,
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

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// What findings of one rule share when they have one cause: the message
/// with its quoted values left out, and the fix ([`crate::rules::cause`]).
pub fn cause(message: &str, help: &str) -> String {
    crate::rules::cause(message, help)
}

/// The quoted values of a message, in order.
pub fn quoted(message: &str) -> Vec<&str> {
    let parts: Vec<&str> = message.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return Vec::new();
    }
    parts.into_iter().skip(1).step_by(2).collect()
}
