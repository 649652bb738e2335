//! The normalised, format-independent model that every extractor produces
//! and every rule reads (docs/architecture.md, "The model").
//!
//! Conventions:
//! - "attempts" always means total attempts, the first call included.
//!   Extractors convert each system's own word (retries, num_retries, ...)
//!   and keep the original wording in [`Attempts::written_as`] for messages.
//! - Every value is [`Located`]: its span, and whether the file wrote it,
//!   inherited it from another block, or it is the system's default.

#[macro_use]
mod kind_tagged;
pub mod backoff;
pub mod breaker;
pub mod calls;
pub mod csharp_source;
pub mod delay;
pub mod facts;
pub mod ingress_links;
pub mod java_annotations;
pub mod redelivery;
pub mod registry;
pub mod rust_macros;
pub mod skip;
pub mod syntax;
pub mod values;
pub mod versions;

pub use breaker::{BreakerSettings, BreakerWindow, WrappedBreaker};
pub use calls::{CallEdge, ServiceDecl, UnresolvedCall};
pub use delay::{CapOrder, Delay, Jitter};
pub use facts::{
    AwsShared, AwsSharedKind, EmbeddedConfig, Facts, GoDialKind, GoDialThrough, GoField,
    GoFieldKind, LoopNote, NamedBreaker, NamedOptions, Protection, ScannedFile,
};
pub use redelivery::{AdvisedMargin, BrokerSetting, BrokerSettingKind, DelayedSend, Redelivery};
pub use syntax::Syntax;

use crate::source::Span;
use serde::Serialize;
use std::time::Duration;

/// Where a value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provenance {
    /// Written at this span.
    Written,
    /// Inherited from another block of the same file (`baseConfig`, a
    /// virtual host's policy); the span points at the written value.
    Inherited,
    /// The system's documented default; the span points at the block it
    /// applies to.
    Default,
    /// Written in another file that includes this one (an nginx setting in
    /// force at the `include`); the span points at where it applies here,
    /// and [`RetryPolicy::settings_from`] names the file.
    Included,
}

/// A value with the span that defines it and its provenance.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Located<T> {
    pub value: T,
    pub span: Span,
    pub provenance: Provenance,
}

impl<T> Located<T> {
    pub fn written(value: T, span: Span) -> Self {
        Located {
            value,
            span,
            provenance: Provenance::Written,
        }
    }
    pub fn default_at(value: T, span: Span) -> Self {
        Located {
            value,
            span,
            provenance: Provenance::Default,
        }
    }
    pub fn included(value: T, span: Span) -> Self {
        Located {
            value,
            span,
            provenance: Provenance::Included,
        }
    }
    pub fn inherited(value: T, span: Span) -> Self {
        Located {
            value,
            span,
            provenance: Provenance::Inherited,
        }
    }
    pub fn is_written(&self) -> bool {
        self.provenance == Provenance::Written
    }
    pub fn is_default(&self) -> bool {
        self.provenance == Provenance::Default
    }
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Located<U> {
        Located {
            value: f(self.value),
            span: self.span,
            provenance: self.provenance,
        }
    }
}

/// Declares [`System`] from the registry's list ([`registry`]).
macro_rules! declare_system {
    ($($folder:ident { $($(#[$doc:meta])* $variant:ident: $spec:ident),* $(,)? }),* $(,)?) => {
        /// The system whose setting a policy is: one variant per entry of
        /// the registry ([`registry`]), and the Rust crates by name.
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum System {
            $($($(#[$doc])* $variant,)*)*
            RustCrate(String),
            /// A Python retry library (`tenacity`, `backoff`, `urllib3`,
            /// `celery`) or a hand-written loop (`loop`), by name:
            /// `crate::systems::python`.
            PythonLib(String),
            /// A Go retry library (`go-retryablehttp`, `backoff`,
            /// `retry-go`, `go-retry`, `client-go`) or a hand-written loop
            /// (`loop`), by name: `crate::systems::go`.
            GoLib(String),
        }
    };
}

registry::for_each_system!(declare_system);

// What each system is (label, layer, fix texts): `crate::systems`.

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Layer {
    // Declared outermost first: a call passes through the caller's code,
    // its SDK, a proxy it runs (a gateway), then its sidecar.
    Application,
    Sdk,
    Proxy,
    Mesh,
}

kind_tagged! {
    "AttemptCount", content = "n";
    /// Total attempts, the first call included.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum AttemptCount {
        Finite(u64),
        Unbounded,
        /// Set by an expression or placeholder that cannot be read statically.
        Unknown,
    }
}

impl AttemptCount {
    pub fn finite(self) -> Option<u64> {
        match self {
            AttemptCount::Finite(n) => Some(n),
            _ => None,
        }
    }
    /// Whether the policy retries at all (more than one attempt).
    pub fn retries(self) -> bool {
        !matches!(self, AttemptCount::Finite(0 | 1))
    }
}

/// Total attempts with the words the file used, for messages
/// ("`attempts: 3` (retries)" becomes 4 attempts).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Attempts {
    pub count: AttemptCount,
    /// The setting as written or as the default reads, e.g. `attempts: 3`.
    pub written_as: String,
}

kind_tagged! {
    "Condition", content = "value";
    /// One thing a policy retries on.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Condition {
        /// An HTTP status or inclusive range.
        Status { from: u16, to: u16 },
        /// A gRPC status code name, upper snake case.
        Grpc(String),
        /// An exception or error type name as written.
        Exception(String),
        /// A transport failure: connect, reset, timeout, refused ...
        Transport(String),
        /// A system-specific token that is none of the above (kept as written).
        Token(String),
        /// A result predicate or custom function the linter cannot read.
        Predicate,
    }
}

impl Condition {
    pub fn status(code: u16) -> Self {
        Condition::Status {
            from: code,
            to: code,
        }
    }
}

kind_tagged! {
    "RetryOn";
    /// What a policy retries.
    #[derive(Clone, Debug, PartialEq)]
    pub enum RetryOn {
        /// Every failure: no predicate was given.
        AllErrors,
        /// Only the listed conditions.
        Listed {
            conditions: Vec<Located<Condition>>,
        },
        /// Nothing: retries are configured but no condition enables them.
        Nothing,
        Unknown,
    }
}

kind_tagged! {
    "Methods", content = "methods";
    /// Which requests a policy retries.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Methods {
        /// Every method, POST included.
        All,
        /// The system itself retries only idempotent requests.
        IdempotentOnly,
        /// The listed methods or RPC names, upper case for HTTP methods.
        Set(Vec<String>),
        Unknown,
    }
}

kind_tagged! {
    "Budget";
    /// A retry budget, token bucket or concurrency limit.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Budget {
        /// Retries may be at most this fraction of requests.
        Ratio {
            ratio: f64,
            min_per_second: Option<f64>,
        },
        TokenBucket {
            max_tokens: f64,
            token_ratio: f64,
        },
        Concurrency {
            max: u64,
        },
        /// A retry quota whose size the linter does not model.
        Quota,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PolicyKind {
    Retry,
    /// Hedging sends further attempts without waiting for the first.
    Hedge,
    /// Opening a connection again (StackExchange.Redis `ConnectRetry`), not
    /// sending calls again: on no call edge of the graph, judged by its
    /// count alone (architecture: connections that recover are not call
    /// retries).
    Connect,
}

kind_tagged! {
    "Timeout";
    /// A timeout: off, or a finite duration.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Timeout {
        Disabled,
        Finite {
            #[serde(with = "crate::duration::serde_ms")]
            after: Duration,
        },
        Unknown,
    }
}

impl Timeout {
    pub fn finite(self) -> Option<Duration> {
        match self {
            Timeout::Finite { after } => Some(after),
            _ => None,
        }
    }
    pub fn after(d: Duration) -> Self {
        Timeout::Finite { after: d }
    }
}

/// Where an idempotency key is minted relative to the retry.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct IdempotencyKey {
    pub span: Span,
    /// What creates it (`UUID.randomUUID()`).
    pub created_by: String,
    pub inside_retry: bool,
}

/// Who the policy applies to.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct Scope {
    /// The service the policy runs in, where the file shows it.
    pub caller: Option<String>,
    /// The host or service it calls, where known.
    pub callee: Option<Located<String>>,
    /// A route or method description for messages (`route "reviews"`).
    pub route: Option<String>,
    /// The named HTTP clients the policy is the retryer of, for calls made
    /// through them in other files ([`CallEdge::client`]).
    #[serde(default)]
    pub client: Option<ClientScope>,
    /// No caller waits for the attempts: they run in the background after
    /// the call handed the work over (an asynchronous producer's queue), so
    /// no caller's time bounds them (RL304 does not apply; the load they
    /// add still counts), and what still fails after the last try is
    /// handed back where no caller waits (RL209 judges the window).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub detached: bool,
    /// Every call it retries goes to this machine (`http://127.0.0.1:{port}`,
    /// `localhost`): a process the program runs beside itself (a child
    /// server it started, a test server), not a service others share, so
    /// its retries overload nobody else (RL603 does not apply).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub this_machine: bool,
}

/// Which named HTTP clients a policy is the retryer of (Spring Cloud
/// OpenFeign).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClientScope {
    /// `client.config.<name>.retryer`: the client `name` (`default`: every
    /// client without a configuration of its own).
    Named(String),
    /// A `Retryer` built in a `@Bean` method: every named client of the
    /// service, unless properties set one (they apply over beans).
    Bean,
}

/// One retry policy, normalised.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct RetryPolicy {
    pub system: System,
    pub kind: PolicyKind,
    /// The instance, route or method name, for messages.
    pub name: Option<String>,
    /// The key, block or call that defines the policy.
    pub span: Span,
    pub scope: Scope,
    pub attempts: Located<Attempts>,
    pub delay: Located<Delay>,
    pub jitter: Located<Jitter>,
    pub cap_order: CapOrder,
    pub per_try_timeout: Option<Located<Timeout>>,
    pub overall_timeout: Option<Located<Timeout>>,
    pub retry_on: Located<RetryOn>,
    pub methods: Located<Methods>,
    pub budget: Option<Located<Budget>>,
    pub idempotency: Vec<IdempotencyKey>,
    /// The backoff rules (RL201-RL204) do not apply: the proxy or mesh
    /// jitters its own back-off whatever the file says (Envoy, Istio), or
    /// passes the request to the next server at once by design (nginx), or
    /// the next connect cycle begins when the last has waited its timeout
    /// (StackExchange.Redis).
    pub platform_backoff: bool,
    /// Exception types the policy never retries, as written
    /// (`ignoreExceptions`, `noRetryFor`, `excludes`, Failsafe `abortOn`).
    pub ignores: Vec<Located<Condition>>,
    /// Where this retry is composed around a circuit breaker (the retry is
    /// the outer layer): one span per composition (`.withRetry(retry)`
    /// after `.withCircuitBreaker(..)`, `retry.executeSupplier(() ->
    /// breaker...)`, `@Retry` with `@CircuitBreaker`). Empty when none is
    /// known.
    pub wraps_breaker: Vec<Span>,
    /// What is known of the breaker it wraps: its name, its settings.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub breaker: Option<WrappedBreaker>,
    /// Where the block that would hold this policy's retry budget is, for
    /// RL601 (missing-retry-budget): the policy itself by default.
    pub budget_site: BudgetSite,
    /// Other files some of this policy's settings come from (the line of
    /// an nginx directive inherited through an `include`): its spans then
    /// point at where they apply in this file, and messages name these
    /// files.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub settings_from: Vec<SettingPlace>,
    /// Set on a use of a retry declared elsewhere: a method or class
    /// annotated with a custom annotation (`@RetryOnIo`) whose declaration
    /// carries `@Retryable`. Its settings are judged once, where they are
    /// written; only what the use adds (an idempotency key minted in the
    /// method) is judged here.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub use_of: Option<String>,
    /// The configuration section the options are bound to in code, its
    /// keys joined with `:` (.NET `GetSection("HttpClients:Catalog")`):
    /// the link step takes the settings the section writes.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub config_section: Option<String>,
    /// Why a hand-written loop was taken as a retry and how its bound was
    /// read, for `--format json` (`reasons` of its findings).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub why: Vec<String>,
    /// Where the policy waits what the server says (`Retry-After`,
    /// `grpc-retry-pushback-ms`), and whether it caps and jitters that
    /// wait (RL208).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub server_delay: Option<Located<backoff::ServerDelay>>,
    /// How long the broker that delivers this retried work waits for an
    /// acknowledgement before it delivers it again (RL305); set by the
    /// system's link step.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub redelivery: Option<Redelivery>,
    /// Where the policy is given an operation whose failure it never sees
    /// (a synchronous retry running a delegate that returns a task or a
    /// future: the failure comes back inside the task, after the policy
    /// has returned), with that operation as written, on one line. Such a
    /// policy never retries (RL105); the other rules leave it alone.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub blind: Option<Located<String>>,
    /// The first retry goes at once and `delay` gives the waits before
    /// the later ones: retry k (k >= 2) waits `delay.nominal(k - 1)`
    /// (Polly.Contrib.WaitAndRetry's `fastFirst: true`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub first_at_once: bool,
}

kind_tagged! {
    "BudgetSite";
    /// Where a policy's retry budget is (or would be) configured.
    #[derive(Clone, Debug, PartialEq)]
    pub enum BudgetSite {
        /// In the policy itself (a gRPC service config's `retryThrottling`, a
        /// Linkerd ServiceProfile's `retryBudget`).
        Policy,
        /// In another block of the same file: an Envoy route's retries are
        /// budgeted by its cluster's `circuit_breakers`. `what` names the block
        /// for messages, e.g. ``cluster `payments` ``.
        Block { span: Span, what: String },
        /// In a block this file does not show (an Envoy route whose cluster is
        /// defined in another file): whether there is a budget is unknown.
        Unseen,
        /// The mechanism has no budget to set (Linkerd's annotation retries,
        /// limited per request instead).
        NotOffered,
    }
}

impl RetryPolicy {
    /// A policy with the given attempts and nothing else known; extractors
    /// fill in the rest.
    pub fn new(system: System, span: Span, attempts: Located<Attempts>) -> Self {
        RetryPolicy {
            system,
            kind: PolicyKind::Retry,
            name: None,
            span,
            scope: Scope::default(),
            attempts,
            delay: Located::default_at(Delay::Unknown, span),
            jitter: Located::default_at(Jitter::Unknown, span),
            cap_order: CapOrder::BeforeJitter,
            per_try_timeout: None,
            overall_timeout: None,
            retry_on: Located::default_at(RetryOn::Unknown, span),
            methods: Located::default_at(Methods::Unknown, span),
            budget: None,
            idempotency: Vec::new(),
            platform_backoff: false,
            ignores: Vec::new(),
            wraps_breaker: Vec::new(),
            breaker: None,
            budget_site: BudgetSite::Policy,
            settings_from: Vec::new(),
            use_of: None,
            config_section: None,
            why: Vec::new(),
            server_delay: None,
            redelivery: None,
            blind: None,
            first_at_once: false,
        }
    }

    /// This policy as it applies at `at`, another place (in another file):
    /// every value placed there as [`Provenance::Inherited`], with no
    /// idempotency keys, compositions or settings places of its own.
    pub fn rebased(&self, at: Span) -> RetryPolicy {
        fn at_<T: Clone>(l: &Located<T>, at: Span) -> Located<T> {
            Located::inherited(l.value.clone(), at)
        }
        let mut retry_on = at_(&self.retry_on, at);
        if let RetryOn::Listed { conditions } = &mut retry_on.value {
            for c in conditions {
                *c = Located::inherited(c.value.clone(), at);
            }
        }
        RetryPolicy {
            system: self.system.clone(),
            kind: self.kind,
            name: self.name.clone(),
            span: at,
            scope: self.scope.clone(),
            attempts: at_(&self.attempts, at),
            delay: at_(&self.delay, at),
            jitter: at_(&self.jitter, at),
            cap_order: self.cap_order,
            per_try_timeout: self.per_try_timeout.as_ref().map(|t| at_(t, at)),
            overall_timeout: self.overall_timeout.as_ref().map(|t| at_(t, at)),
            retry_on,
            methods: at_(&self.methods, at),
            budget: self.budget.as_ref().map(|b| at_(b, at)),
            idempotency: Vec::new(),
            platform_backoff: self.platform_backoff,
            ignores: self.ignores.iter().map(|c| at_(c, at)).collect(),
            wraps_breaker: Vec::new(),
            breaker: None,
            budget_site: match &self.budget_site {
                BudgetSite::Block { .. } => BudgetSite::Unseen,
                other => other.clone(),
            },
            settings_from: Vec::new(),
            use_of: None,
            config_section: None,
            why: Vec::new(),
            server_delay: self.server_delay.as_ref().map(|d| at_(d, at)),
            redelivery: self.redelivery.clone(),
            blind: self.blind.as_ref().map(|b| at_(b, at)),
            first_at_once: self.first_at_once,
        }
    }

    /// "`backendA` (Resilience4j)" and the like, for messages, which start
    /// in lower case.
    pub fn describe(&self) -> String {
        let from = match self.settings_from.as_slice() {
            [] => String::new(),
            places => format!(", with settings from {}", group_lines(places)),
        };
        let system = match &self.use_of {
            // A use that quotes its own value (`configuration section
            // `Http:Orders``) is not quoted again.
            Some(a) if a.contains('`') => format!("{} through {a}", self.system.label()),
            Some(a) => format!("{} through `{a}`", self.system.label()),
            None => self.system.label(),
        };
        match &self.name {
            Some(n) => format!("`{n}` ({system}{from})"),
            None => format!("the {system} policy{from}"),
        }
    }

    /// For a hedging policy whose copies go out on a timer (gRPC
    /// `hedgingDelay`, the .NET hedging handler's `Delay`), the time between
    /// copies: they run side by side, so the slowest answer comes after
    /// (copies - 1) x min(delay, per-try timeout) + one per-try timeout, not
    /// after every attempt in turn. `None` for retries, and for Envoy, whose
    /// hedged copy goes out only when a try times out.
    pub fn hedge_delay(&self) -> Option<Duration> {
        if self.kind != PolicyKind::Hedge || self.system == System::Envoy {
            return None;
        }
        match self.delay.value {
            Delay::Fixed { delay } => Some(delay),
            Delay::None => Some(Duration::ZERO),
            _ => None,
        }
    }

    /// Whether this policy retries at all.
    pub fn retries(&self) -> bool {
        self.attempts.value.count.retries()
            && !matches!(self.retry_on.value, RetryOn::Nothing)
            && self.blind.is_none()
    }
}

/// A line of another scanned file that a policy takes settings from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct SettingPlace {
    /// The file, as findings show its path.
    pub path: String,
    /// 1-based.
    pub line: usize,
}

/// `path:line`, as tests and messages write a place.
impl PartialEq<&str> for SettingPlace {
    fn eq(&self, other: &&str) -> bool {
        other.rsplit_once(':') == Some((self.path.as_str(), self.line.to_string().as_str()))
    }
}

impl std::fmt::Display for SettingPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.path, self.line)
    }
}

/// `a.conf:3`, `a.conf:4`, `a.conf:5`, `b.conf:9` as "`a.conf` lines 3-5,
/// `b.conf` line 9" (files in first-seen order).
fn group_lines(places: &[SettingPlace]) -> String {
    let mut files: Vec<(&str, Vec<usize>)> = Vec::new();
    for p in places {
        let file = p.path.as_str();
        let at = match files.iter().position(|(f, _)| *f == file) {
            Some(at) => at,
            None => {
                files.push((file, Vec::new()));
                files.len() - 1
            }
        };
        files[at].1.push(p.line);
    }
    files
        .into_iter()
        .map(|(file, mut lines)| {
            lines.sort_unstable();
            lines.dedup();
            let mut runs: Vec<String> = Vec::new();
            let mut i = 0;
            while i < lines.len() {
                let mut j = i;
                while j + 1 < lines.len() && lines[j + 1] == lines[j] + 1 {
                    j += 1;
                }
                runs.push(if i == j {
                    lines[i].to_string()
                } else {
                    format!("{}-{}", lines[i], lines[j])
                });
                i = j + 1;
            }
            match lines.len() {
                0 => format!("`{file}`"),
                1 => format!("`{file}` line {}", runs.join(", ")),
                _ => format!("`{file}` lines {}", runs.join(", ")),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A timeout that is not part of a retry policy (a TimeLimiter, a proxy's
/// read timeout).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct TimeoutSetting {
    pub system: System,
    pub name: Option<String>,
    /// What the timeout bounds, e.g. `timelimiter`, `proxy_read_timeout`.
    pub what: String,
    pub timeout: Located<Timeout>,
}

/// A file a configuration pulls in (nginx `include`). Extraction never
/// reads another file: includes are resolved when files are linked.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct IncludeRef {
    pub system: System,
    /// The path or glob as written (`conf.d/*.conf`, `/etc/nginx/mime.types`).
    pub pattern: String,
    /// The span of the pattern.
    pub span: Span,
    /// The block the included text is read in: `main`, `http`, `server`,
    /// `location /api` ...
    pub context: String,
    /// The retry and timeout directives in force where the `include` is
    /// (written in an enclosing block of this file, or inherited by this
    /// file from its own includer): the included file's passes inherit
    /// them unless they write their own.
    #[serde(default)]
    pub inherited: Vec<InheritedDirective>,
}

/// A directive an included nginx file inherits from the file including it.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct InheritedDirective {
    pub name: String,
    pub args: Vec<String>,
    /// Its span in the file that writes it.
    pub span: Span,
    /// Where it is written; `None` while it is the including file's own
    /// (the link step knows that file's path).
    pub from: Option<SettingPlace>,
}

/// An nginx `upstream` block an included file can call.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct InheritedUpstream {
    pub name: String,
    /// The arguments of each `server` line (address, then flags).
    pub servers: Vec<Vec<String>>,
    /// Peers chosen by Lua (`balancer_by_lua*`).
    pub dynamic: bool,
}

#[cfg(test)]
mod tests {
    use super::{SettingPlace, group_lines};

    #[test]
    fn places_are_grouped_by_file_with_line_ranges() {
        let p = |v: &[(&str, usize)]| {
            group_lines(
                &v.iter()
                    .map(|(path, line)| SettingPlace {
                        path: path.to_string(),
                        line: *line,
                    })
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            p(&[("a.conf", 4), ("a.conf", 3), ("a.conf", 5)]),
            "`a.conf` lines 3-5"
        );
        assert_eq!(
            p(&[("n/a.conf", 9), ("b.conf", 2), ("n/a.conf", 11)]),
            "`n/a.conf` lines 9, 11, `b.conf` line 2"
        );
        // A Windows path's drive colon is part of the path.
        assert_eq!(p(&[("c:/x.conf", 2)]), "`c:/x.conf` line 2");
    }
}
