//! The system registry: what rules and the graph need to know about each
//! retry system (Istio, Envoy, Resilience4j, ...), declared once next to
//! the system, in its own module (one file per system or family).
//!
//! [`System::spec`] is the one table that lists them. Its match is
//! exhaustive, so a new [`System`] variant does not compile until its
//! descriptor exists; rules read `p.system.spec().fixes.jitter` and never
//! match on a system themselves.
//!
//! Each module also holds the system's defaults as named constants, with
//! the upstream source they come from cited next to them; extractors and
//! the graph read them from there.

pub mod aws;
pub mod dotnet;
pub mod envoy;
pub mod gateway_api;
pub mod grpc;
pub mod istio;
pub mod java;
pub mod linkerd;
pub mod nginx;
pub mod python;
pub mod resilience4j;
pub mod rust;
pub mod spring;

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
    /// This system's descriptor: the registry of systems.
    pub fn spec(&self) -> &'static SystemSpec {
        match self {
            System::Resilience4j => &resilience4j::SPEC,
            System::SpringRetry => &spring::SPRING_RETRY,
            System::SpringFramework => &spring::SPRING_FRAMEWORK,
            System::SpringCloudGateway => &spring::SPRING_CLOUD_GATEWAY,
            System::SpringAmqp => &spring::SPRING_AMQP,
            System::SpringCloudConfig => &spring::SPRING_CLOUD_CONFIG,
            System::SpringKafka => &spring::SPRING_KAFKA,
            System::SpringCloudStream => &spring::SPRING_CLOUD_STREAM,
            System::Failsafe => &java::FAILSAFE,
            System::GuavaRetrying => &java::GUAVA_RETRYING,
            System::Feign => &java::FEIGN,
            System::JavaLoop => &java::JAVA_LOOP,
            System::Reactor => &java::REACTOR,
            System::Istio => &istio::SPEC,
            System::Envoy => &envoy::SPEC,
            System::Nginx => &nginx::NGINX,
            System::IngressNginx => &nginx::INGRESS_NGINX,
            System::GatewayApi => &gateway_api::SPEC,
            System::Linkerd => &linkerd::SPEC,
            System::Grpc => &grpc::SPEC,
            System::AwsSdk => &aws::SPEC,
            System::Polly => &dotnet::POLLY,
            System::DotnetStandard => &dotnet::STANDARD,
            System::RustCrate(name) => rust::crate_spec(name),
            System::RustLoop => &rust::RUST_LOOP,
            System::PythonLib(name) => python::lib_spec(name),
        }
    }

    /// Human name used in messages and reports: a Rust crate's own name.
    pub fn label(&self) -> String {
        match self {
            System::RustCrate(name) => name.clone(),
            System::PythonLib(name) => python::lib_label(name),
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
        let mut all = vec![
            System::Resilience4j,
            System::SpringRetry,
            System::SpringFramework,
            System::SpringCloudGateway,
            System::SpringAmqp,
            System::Failsafe,
            System::GuavaRetrying,
            System::Feign,
            System::JavaLoop,
            System::Istio,
            System::Envoy,
            System::Nginx,
            System::IngressNginx,
            System::GatewayApi,
            System::Linkerd,
            System::Grpc,
            System::AwsSdk,
            System::Polly,
            System::DotnetStandard,
            System::RustLoop,
            System::PythonLib("tenacity".into()),
            System::SpringCloudConfig,
            System::SpringKafka,
            System::SpringCloudStream,
            System::Reactor,
        ];
        for c in ["backon", "backoff", "tokio-retry", "reqwest-retry", "tower"] {
            all.push(System::RustCrate(c.into()));
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
}
