//! The registry of systems: one line per system (or family of systems that
//! share a folder). Each line names the folder `src/systems/<folder>/` and
//! the [`System`](super::System) variants it defines, each with the name of
//! its `SystemSpec` static in that folder.
//!
//! The list is handed to a callback macro, which makes of it:
//! - the `System` enum (`crate::model`),
//! - the exhaustive `System::spec` match (`crate::systems`),
//! - the YAML/JSON document readers, from each folder's `DOC_READERS`
//!   (`crate::systems::read`).
//!
//! Adding a system is one folder (`scripts/new-system.sh`), one line
//! here, and its `pub mod` in `src/systems/mod.rs` (rustfmt only formats
//! files it reaches through `mod` items, so the module is not declared by
//! the macro; a test checks every folder is registered). A library named by its name (`System::RustCrate`, `System::PythonLib`)
//! is not a variant of the list: it carries its name, and its folder's
//! `crate_spec` / `lib_spec` gives its words (the folder is still listed).

/// Call `$callback!` with every system of the registry.
macro_rules! for_each_system {
    ($callback:ident) => {
        $callback! {
            resilience4j { Resilience4j: SPEC },
            spring {
                SpringRetry: SPRING_RETRY,
                SpringFramework: SPRING_FRAMEWORK,
                SpringCloudGateway: SPRING_CLOUD_GATEWAY,
                SpringAmqp: SPRING_AMQP,
                /// Spring Cloud Config client retry (`spring.cloud.config.retry`).
                SpringCloudConfig: SPRING_CLOUD_CONFIG,
                /// Spring Kafka non-blocking retry topics (`spring.kafka.retry.topic`).
                SpringKafka: SPRING_KAFKA,
                /// Spring Cloud Stream consumer retry (`consumer.max-attempts`).
                SpringCloudStream: SPRING_CLOUD_STREAM,
            },
            java {
                Failsafe: FAILSAFE,
                /// guava-retrying `RetryerBuilder` (`com.github.rholder.retry`).
                GuavaRetrying: GUAVA_RETRYING,
                /// OpenFeign's client `Retryer` (`feign.Retryer.Default`).
                Feign: FEIGN,
                JavaLoop: JAVA_LOOP,
                /// Project Reactor `retryWhen(Retry.backoff(..))` / `.retry(n)` on a
                /// `Mono`/`Flux` (WebClient calls).
                Reactor: REACTOR,
            },
            istio { Istio: SPEC },
            envoy { Envoy: SPEC },
            nginx { Nginx: NGINX, IngressNginx: INGRESS_NGINX },
            gateway_api { GatewayApi: SPEC },
            linkerd { Linkerd: SPEC },
            grpc { Grpc: SPEC },
            aws { AwsSdk: SPEC },
            dotnet { Polly: POLLY, DotnetStandard: STANDARD },
            rust { RustLoop: RUST_LOOP },
            knative { Knative: SPEC },
            python {},
        }
    };
}

pub(crate) use for_each_system;
