//! The system registry: what rules and the graph need to know about each
//! retry system (Istio, Envoy, Resilience4j, ...), declared once next to
//! the system, in its own folder (`src/systems/<name>/`, one per system or
//! family): its spec and defaults (`mod.rs`), its reader (`extract.rs`
//! or `extract/`), its file claims and sniff words, and its fix texts.
//!
//! The registry's list (`crate::model::registry`, one line per system or
//! family) makes the [`System`] variants, the folders' modules, the
//! exhaustive [`System::spec`] match and the document readers: a line
//! does not compile until its folder, its spec and its readers exist.
//! Rules read `p.system.spec().fixes.jitter` and never match on a system
//! themselves.
//!
//! Each module also holds the system's defaults as named constants, with
//! the upstream source they come from cited next to them; extractors and
//! the graph read them from there.

// The folders (rustfmt and the compiler's module tree follow `mod` items,
// not a macro's output, so they are listed here as well as in the
// registry; `every_folder_is_registered` checks the two agree).
pub mod aws;
pub mod cloud_tasks;
pub mod csharp;
pub mod dapr;
pub mod dotnet;
pub mod edit;
pub mod envoy;
pub mod envoy_gateway;
pub mod gateway_api;
pub mod go;
pub mod grpc;
pub mod ingress_classes;
pub mod istio;
pub mod java;
pub mod knative;
pub mod linkerd;
pub mod nginx;
pub mod python;
pub mod read;
pub mod resilience4j;
pub mod rust;
pub mod spring;
pub mod sqs;
pub mod varnish;

pub use read::{
    BlankedText, DOC_EXTRACTORS, Sniffed, blank_other_kinds, blank_unread_docs, classify,
    classify_sniffed, extract, extract_overlay, extract_rendered, extract_sniffed,
    extract_with_outer, supported_by_name, wanted_by_name,
};
pub use spring::SPRING_NEEDLES;

/// Makes, from the registry's list (`crate::model::registry`):
/// [`System::spec`], every registered variant, the registered folders and
/// their document readers.
macro_rules! register {
    ($($folder:ident { $($(#[$doc:meta])* $variant:ident: $spec:ident),* $(,)? }),* $(,)?) => {
        /// The folders of the registry, by module name.
        pub const FOLDERS: &[&str] = &[$(stringify!($folder),)*];

        impl System {
            /// This system's descriptor: the registry of systems.
            pub fn spec(&self) -> &'static SystemSpec {
                match self {
                    $($(System::$variant => &$folder::$spec,)*)*
                    System::RustCrate(name) => rust::crate_spec(name),
                    System::PythonLib(name) => python::lib_spec(name),
                    System::GoLib(name) => go::lib_spec(name),
                }
            }
        }

        /// Every registered variant (the Rust crates, which carry their
        /// name, are not listed).
        pub const REGISTERED: &[System] = &[$($(System::$variant,)*)*];

        /// Every folder's YAML/JSON document readers, in registry order.
        pub(crate) const FOLDER_READERS: &[&[crate::extract::DocReader]] =
            &[$($folder::DOC_READERS,)*];
    };
}

crate::model::registry::for_each_system!(register);

use crate::model::{Layer, System};
use std::fmt;

/// What rules and the graph know about one system.
#[derive(Debug)]
pub struct SystemSpec {
    /// Human name used in messages and reports.
    pub label: &'static str,
    /// Which layer of a call path the system sits in.
    pub layer: Layer,
    /// Whether the system offers a retry budget or throttle (RL601).
    pub offers_budget: bool,
    /// Whether the overall timeout only stops new attempts and lets the
    /// one in flight finish (nginx's `*_next_upstream_timeout`), rather
    /// than cutting the call off.
    pub timeout_stops_new_attempts: bool,
    /// How to fix what the rules find, in the system's own words.
    pub fixes: Fixes,
    /// The error an open circuit breaker throws in this system (RL104).
    pub open_circuit: Option<OpenCircuit>,
    /// For a mesh: the retries its sidecar makes on a call no route policy
    /// covers (the graph adds them as an implicit layer).
    pub sidecar_default: Option<SidecarDefault>,
    /// Whether a policy in code may only name an instance whose settings
    /// are in the service's configuration files (Resilience4j
    /// `@Retry(name = "payments")`): the graph takes the configured one.
    pub named_instances: bool,
    /// The service every client of the system calls, whether or not a file
    /// names the host (an AWS SDK client calls AWS).
    pub endpoint: Option<&'static Endpoint>,
    /// Whether something limits the system's retries as a whole even when
    /// the file writes nothing: a retry circuit breaker (Envoy's
    /// `max_retries`, 3 concurrent retries per cluster), passive outlier
    /// ejection (nginx `max_fails=1 fail_timeout=10s`), or a circuit
    /// breaker inside the retry (the .NET standard resilience pipeline).
    /// RL603 does not report such a system's retries of the overload signal.
    pub retries_limited_by_default: bool,
    /// What the system's retry quota (`Budget::Quota`) holds and costs,
    /// where it has one (the simulation draws on it).
    pub retry_quota: Option<RetryQuota>,
    /// Whether the retried work runs in the background, with no caller
    /// waiting on it, and is dropped when the last attempt fails (a task
    /// queue deletes the task): RL209 judges how long such a retry keeps
    /// trying, and RL304 (a caller's deadline) does not apply.
    pub background: bool,
    /// Whether the system is a hand-written retry loop: it retries the
    /// calls in its body only, never a client the file builds for calls
    /// elsewhere (the graph's one-policy-per-file fallback).
    pub loop_body: bool,
    /// For a runtime whose sidecar carries the calls its SDK makes by
    /// name (Dapr service invocation by app id): how the `via` of such a
    /// call begins. The graph puts the system's policy for the callee
    /// (`scope.callee`; none: every callee without one) on those calls
    /// only, where the policy's `scope.caller` is none or the caller.
    pub invoked_via: Option<&'static str>,
    /// Whether the system is a program of its own that reads its
    /// configuration files (nginx, Envoy, Varnish), unlike a proxy built
    /// into an application (YARP, Spring Cloud Gateway): such a file's
    /// calls are made by whoever runs it (the compose service that mounts
    /// it, a folder's image), never by the Go, Java, Rust, .NET or Python
    /// program whose source tree holds it (`link::units`).
    pub own_process: bool,
}

/// A retry quota: a retry takes `cost` tokens (`timeout_cost` after a
/// timeout) and is refused when fewer are left; a successful retry gives
/// its cost back and every successful call adds `success_increment`, up
/// to `capacity`. Held per client.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RetryQuota {
    pub capacity: f64,
    pub cost: f64,
    pub timeout_cost: f64,
    pub success_increment: f64,
}

impl SystemSpec {
    /// A system with no fix texts of its own and no budget.
    pub const fn plain(label: &'static str, layer: Layer) -> Self {
        SystemSpec {
            label,
            layer,
            offers_budget: false,
            timeout_stops_new_attempts: false,
            fixes: Fixes::GENERIC,
            open_circuit: None,
            sidecar_default: None,
            named_instances: false,
            endpoint: None,
            retries_limited_by_default: false,
            retry_quota: None,
            background: false,
            loop_body: false,
            invoked_via: None,
            own_process: false,
        }
    }
}

/// The `help` of each rule that speaks the system's words.
#[derive(Debug)]
pub struct Fixes {
    /// How to add jitter (RL201 missing-backoff, RL203 unjittered-backoff).
    pub jitter: &'static str,
    /// How to bound the retries (RL205 unbounded-retries).
    pub bound: &'static str,
    /// How to retry only transient failures (RL102 retries-every-error).
    pub predicate: &'static str,
    /// How to add a retry budget (RL601 missing-retry-budget).
    pub budget: &'static str,
    /// What limits the retries when no budget is set (RL601).
    pub unbudgeted: &'static str,
    /// How to write a defaulted policy down (RL403 implicit-retries).
    pub explicit: &'static str,
    /// How to limit retries of the overload signal (RL603
    /// retries-overload-without-budget).
    pub overload: &'static str,
    /// How to make a retried request safe to repeat (RL103
    /// retries-non-idempotent).
    pub idempotent: &'static str,
    /// How to let the retry see the operation's failure (RL105
    /// sync-retry-over-async).
    pub blind: &'static str,
    /// The edits that make some of these fixes in the system's files.
    pub edits: edit::FixEdits,
}

impl Fixes {
    /// The words for a system that has none of its own.
    pub const GENERIC: Fixes = Fixes {
        jitter: "randomise each delay (full jitter: a uniform delay between 0 and the backoff) and grow it exponentially",
        bound: "set a small attempt limit (3 to 5 in total) or a maximum elapsed time, and let the caller or a circuit breaker handle longer outages",
        predicate: "retry only transient failures: timeouts, connection errors, 503/UNAVAILABLE, 429",
        budget: "limit retries to a fraction of the requests with a retry budget or token bucket",
        unbudgeted: "in an outage every failed call is retried, however many fail",
        explicit: "write the retry policy you want explicitly (`attempts: 0` to turn retries off at this hop), so that it is visible and counted",
        overload: "limit the retries as a whole (a retry budget or token bucket, or a circuit breaker inside the retry), or stop retrying the service's overload answers (`503`, `429`, `RESOURCE_EXHAUSTED`, timeouts) and retry only failures to connect",
        idempotent: "retry ambiguous failures only for idempotent methods (GET, PUT, DELETE), or send an idempotency key created once, before the retry, and deduplicate on the server",
        blind: "retry with an asynchronous policy that awaits the operation, so that its failure reaches the retry",
        edits: edit::FixEdits::NONE,
    };
}

/// A mesh's retries on a call that no route policy covers.
#[derive(Debug)]
pub struct SidecarDefault {
    /// The policy, anchored at a place that shows the call.
    pub policy: fn(crate::source::Span) -> crate::model::RetryPolicy,
    /// The retries it makes, for messages.
    pub retries: u64,
    /// What is missing, in the mesh's words (`no VirtualService for`,
    /// followed by the host).
    pub uncovered: &'static str,
}

/// A provider's service that every client of a system calls.
#[derive(Debug)]
pub struct Endpoint {
    /// The service's name in the graph.
    pub service: &'static str,
    /// Hosts ending so are that service.
    pub host_suffix: &'static str,
    /// How the call is shown (`via`).
    pub via: &'static str,
}

/// Every provider endpoint of the registry, for naming hosts.
pub static ENDPOINTS: &[&Endpoint] = &[&aws::ENDPOINT];

/// The error an open breaker throws, and its supertypes (simple names).
#[derive(Debug)]
pub struct OpenCircuit {
    pub error: &'static str,
    pub supertypes: &'static [&'static str],
}

impl System {
    /// Human name used in messages and reports: a Rust crate's own name.
    pub fn label(&self) -> String {
        match self {
            System::RustCrate(name) => name.clone(),
            System::PythonLib(name) => python::lib_label(name),
            System::GoLib(name) => go::lib_label(name),
            other => other.spec().label.into(),
        }
    }

    /// Whether the system offers a retry budget or throttle (RL601).
    pub fn offers_budget(&self) -> bool {
        self.spec().offers_budget
    }

    /// Whether the overall timeout only stops new attempts and lets the
    /// one in flight finish (nginx's `*_next_upstream_timeout`), rather
    /// than cutting the call off.
    pub fn timeout_stops_new_attempts(&self) -> bool {
        self.spec().timeout_stops_new_attempts
    }

    /// Which layer of a call path this system sits in.
    pub fn layer(&self) -> Layer {
        self.spec().layer
    }
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One value of every variant (and of every Rust crate with words of
    /// its own).
    fn every_system() -> Vec<System> {
        let mut all = REGISTERED.to_vec();
        for c in [
            "backon",
            "backoff",
            "tokio-retry",
            "reqwest-retry",
            "tower",
            "retry",
        ] {
            all.push(System::RustCrate(c.into()));
        }
        for l in [
            "tenacity", "backoff", "urllib3", "celery", "dramatiq", "loop",
        ] {
            all.push(System::PythonLib(l.into()));
        }
        for l in [
            "go-retryablehttp",
            "backoff",
            "retry-go",
            "go-retry",
            "client-go",
            "loop",
        ] {
            all.push(System::GoLib(l.into()));
        }
        all
    }

    #[test]
    fn fix_texts_follow_the_message_conventions() {
        for s in every_system() {
            let f = &s.spec().fixes;
            for text in [
                f.jitter,
                f.bound,
                f.predicate,
                f.budget,
                f.unbudgeted,
                f.overload,
                f.explicit,
            ] {
                assert!(!text.is_empty(), "{s}");
                assert!(!text.ends_with('.'), "{s}: {text}");
                assert!(
                    !text.starts_with(|c: char| c.is_ascii_uppercase()),
                    "{s}: {text}"
                );
            }
        }
    }

    #[test]
    fn a_rust_crate_is_labelled_by_its_name() {
        assert_eq!(System::RustCrate("backon".into()).label(), "backon");
        assert_eq!(System::RustCrate("tower".into()).label(), "tower");
        assert_eq!(
            System::RustCrate("tower".into()).spec().fixes.jitter,
            Fixes::GENERIC.jitter
        );
        assert_eq!(
            System::RustCrate("tokio-retry".into()).spec().fixes.bound,
            "add `.take(3)` to the strategy iterator"
        );
    }

    #[test]
    fn only_systems_with_a_budget_have_budget_words() {
        for s in every_system() {
            let spec = s.spec();
            assert_eq!(
                spec.offers_budget,
                spec.fixes.budget != Fixes::GENERIC.budget,
                "{s}"
            );
            assert!(
                spec.label
                    .chars()
                    .next()
                    .is_some_and(|c| !c.is_whitespace())
            );
        }
    }

    /// Readers are offered a document in a fixed order (their facts are
    /// kept in it): the registry's folders do not reorder them.
    #[test]
    fn document_readers_keep_their_order() {
        let names: Vec<&str> = DOC_EXTRACTORS.iter().map(|(n, _, _)| *n).collect();
        let known = [
            "istio",
            "spring",
            "envoy",
            "gatewayapi",
            "linkerd",
            "workload",
            "ingress-nginx",
            "grpc",
            "dotnet",
            "aws",
        ];
        let seen: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| known.contains(n))
            .collect();
        assert_eq!(seen, known);
    }

    /// Every folder of `src/systems/` is declared by a `pub mod` line, the
    /// registry (else build.rs and the compiler never see it).
    #[test]
    fn every_folder_is_registered() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/systems");
        let mut folders: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .filter(|e| e.path().join("mod.rs").is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != "read")
            .collect();
        folders.sort();
        let mut registered: Vec<String> = FOLDERS.iter().map(|s| s.to_string()).collect();
        registered.sort();
        assert_eq!(folders, registered);
    }
}
