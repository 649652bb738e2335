//! What one file says ([`Facts`], written by its extractor) and the file
//! with its facts ([`ScannedFile`]), as the link stage, the graph and the
//! rules read them.

use super::java_annotations::JavaFacts;
use super::rust_macros::RustFacts;
use super::{
    CallEdge, IncludeRef, InheritedDirective, InheritedUpstream, RetryPolicy, ServiceDecl, System,
    TimeoutSetting, UnresolvedCall,
};
use crate::diag::Diagnostic;
use crate::source::SourceFile;
use serde::{Deserialize, Deserializer, Serialize};
use std::sync::Mutex;

/// Everything one file says about retries and timeouts.
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
pub struct Facts {
    pub policies: Vec<RetryPolicy>,
    pub timeouts: Vec<TimeoutSetting>,
    pub edges: Vec<CallEdge>,
    /// Call sites whose target this file does not write (`extract::calls`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub unresolved: Vec<UnresolvedCall>,
    pub services: Vec<ServiceDecl>,
    #[serde(skip)]
    pub diagnostics: Vec<Diagnostic>,
    /// The extractors that found something they read in this file.
    #[serde(deserialize_with = "static_names")]
    pub extractors: Vec<&'static str>,
    /// Mesh-wide retry defaults this file sets (Istio meshConfig
    /// `defaultHttpRetryPolicy`, in the `istio` ConfigMap's `mesh` text or an
    /// IstioOperator): each replaces the platform's default policy wholesale
    /// on every route of that mesh that writes no policy of its own. Routes
    /// of this file are already rewritten; the graph applies it to the
    /// policies of other files whose attempts are a `Provenance::Default` of
    /// the same system.
    pub mesh_defaults: Vec<RetryPolicy>,
    /// The service mesh whose resources this file declares (an Istio
    /// VirtualService, DestinationRule or mesh config): with `mesh =
    /// "auto"` the graph puts that mesh's sidecar on every call.
    #[serde(default)]
    pub mesh: Option<System>,
    /// Kubernetes Namespaces this file declares, with their mesh injection
    /// labels.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub namespaces: Vec<super::calls::NamespaceDecl>,
    /// Gateway API `GatewayClass`es this file declares (their controllers
    /// decide who runs the Gateways of that class).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub gateway_classes: Vec<super::calls::GatewayClassDecl>,
    /// Other files this one pulls in (nginx `include`), resolved at link time.
    pub includes: Vec<IncludeRef>,
    /// nginx `upstream` blocks this file defines: their names are seen by
    /// every file the same main configuration includes.
    #[serde(default)]
    pub upstreams: Vec<InheritedUpstream>,
    /// nginx retry and timeout directives this file writes outside any
    /// block: a snippet's settings, which apply in the block that includes
    /// it.
    #[serde(default)]
    pub top_level: Vec<InheritedDirective>,
    /// Rust retry macros this file defines or calls, resolved across files
    /// by `systems::rust::extract::link_macros` after extraction.
    pub rust: RustFacts,
    /// Java retry annotations this file declares or uses, resolved across
    /// files by `link::java_retry_annotations`.
    #[serde(default)]
    pub java: JavaFacts,
    /// What the link stage needs of a C# file (its types, the names it
    /// uses, its string constants), for every `.cs` file read: not a
    /// reason to keep the file (`is_empty` leaves it out); the scan hands
    /// those of the files it does not keep to the link stage apart
    /// (`Scan::csharp`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub csharp: Option<super::csharp_source::CsharpSource>,
    /// The library versions a build file names (`pom.xml`,
    /// `build.gradle`, ...), joined to other files by
    /// `versions::join`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub build: Option<super::versions::BuildFacts>,
    /// Readings of this file that depend on the version of a library its
    /// build uses, applied by `versions::join` once the version is known.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub versioned: Vec<super::versions::Versioned>,
    /// Limits on a host's retries written apart from the retry policy (an
    /// Istio DestinationRule's `connectionPool.http.maxRetries` or
    /// `outlierDetection`, an Envoy cluster's `max_retries` circuit
    /// breaker, keyed by the cluster's name): the policies of the same
    /// system that call the host, in any file, are limited by them (RL603).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub protections: Vec<Protection>,
    /// Circuit breakers configured by name (Resilience4j
    /// `resilience4j.circuitbreaker.instances.<name>`), joined to the
    /// retries composed around them by `link::java`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub breakers: Vec<NamedBreaker>,
    /// Hand-written loops that looked like retries (they wait, or catch
    /// and go round) but were not taken as retry loops, each with why
    /// (`--format json`: a wrong call is told apart from a wrong rule).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub loops_not_taken: Vec<LoopNote>,
    /// The spans of this file's hand-written retry loops whose body calls
    /// a function or method the file declares (`extract::loop_calls`):
    /// only such a loop may retry a call of the file made elsewhere in it.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub loops_into_file: Vec<crate::source::Span>,
    /// What this file says of the AWS shared configuration (a profile's or
    /// a workload environment's `retry_mode`/`max_attempts`/`AWS_PROFILE`),
    /// or an SDK client built in code that leaves its retries to it;
    /// joined by `systems::aws::link`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub aws_shared: Vec<AwsShared>,
    /// Files the program embeds at build time and hands to a library as
    /// its configuration (Go's `//go:embed retry_policy.json` given to
    /// `grpc.WithDefaultServiceConfig`); joined by `systems::grpc::link`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub embedded_configs: Vec<EmbeddedConfig>,
    /// gRPC dials reached through an exported function of another Go
    /// package of the module (`users.NewClient(ctx, opts...)` in one file,
    /// `grpc.NewClient(target, opts...)` in the other); joined by
    /// `systems::go::link`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub go_dials_through: Vec<GoDialThrough>,
    /// Go struct fields this file fills from the environment, and call
    /// targets it takes from a field it does not fill (a config struct
    /// loaded in another package of the module); joined by
    /// `link::go_fields`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub go_fields: Vec<GoField>,
    /// Names this file reads a number from that no binding of the file
    /// gives (an imported constant, a Django setting, a Go package-level
    /// name or a field's tag default): filled by `link::values`, which
    /// reads the file again with the values other files give them.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub value_wants: Vec<super::values::ValueWant>,
    /// Options configured by name apart from the code that reads them
    /// (.NET `services.ConfigureAll<HttpStandardResilienceOptions>(..)`,
    /// `Configure<..>("catalog-standard", ..)`); joined to the handlers
    /// that read them by `systems::csharp::options`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub named_options: Vec<NamedOptions>,
    /// The request paths a gateway route forwards (Spring Cloud Gateway's
    /// `Path=/catalog/**` predicate), by the span of the route's call: only
    /// a request whose path one of them matches goes that way
    /// (`graph::routes`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub route_paths: Vec<RoutePaths>,
    /// The request paths a client sends, by the span of its call target
    /// (the base URL an HTTP interface's client is built on, and the
    /// paths of the interface's methods): each is a call of its own
    /// through a gateway's routes (`graph::routes`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub client_paths: Vec<RoutePaths>,
    /// Task-queue broker settings this file writes (Celery's broker URL,
    /// `broker_transport_options` `visibility_timeout`); joined to the
    /// retries of the same program by the system's link step.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub broker_settings: Vec<super::BrokerSetting>,
    /// Work this file sends to run later on a task queue (RL305).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub delayed_sends: Vec<super::DelayedSend>,
    /// Ingress classes, Kong Service retries and Traefik middlewares that
    /// other files' Ingresses and routers name (`link::ingress_links`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub ingress: super::ingress_links::IngressLinks,
    /// The scan's parse of a templated YAML file, kept for the link step
    /// that parses the same text again (a Kustomize resource file).
    #[serde(skip)]
    pub parse: KeptParse,
    /// The file is a test's input or expected output (a fixture folder
    /// below the scan root, `link::test_inputs`): its settings are checked
    /// like any file's, but nothing of it joins another file or reaches
    /// the call graph (a VirtualService's route, a mesh-wide default, a
    /// DestinationRule's limit). Set by the link stage, never cached.
    #[serde(skip)]
    pub test_input: bool,
}

/// A templated YAML file's parse as the scan made it: its whole text
/// (a templated file is parsed as written, its errors counted), which is
/// also what a Kustomize build parses of it (`link::kustomize`: such a
/// file has no documents blanked), so the build need not parse it again
/// (kubeflow/manifests' `kserve_kubeflow.yaml`, 3.7 MB of definitions
/// with `{{ .Name }}` in a ConfigMap). Never cached; a fact of no finding,
/// so it prints as nothing.
#[derive(Clone, Default)]
pub struct KeptParse(pub Option<std::sync::Arc<crate::yaml::YamlFile>>);

impl std::fmt::Debug for KeptParse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeptParse")
    }
}

/// A gateway route's `Path` patterns, at the span of the route's call
/// (its `uri`).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct RoutePaths {
    pub span: crate::source::Span,
    pub paths: Vec<String>,
    /// The host names the route serves (an Ingress rule's `host`); empty:
    /// every host.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub hosts: Vec<String>,
}

/// A Go struct field, by its name (issue 21).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct GoField {
    /// The field's name (`GRPCProductServiceAddress`).
    pub field: String,
    pub kind: GoFieldKind,
}

kind_tagged! {
    "GoFieldKind";
    #[derive(Clone, Debug, PartialEq)]
    pub enum GoFieldKind {
        /// Filled from the variable `env` (`Config{F: os.Getenv("X")}`,
        /// `c.F = os.Getenv("X")`, a struct tag `env:"X"`); `owner`: the
        /// struct type the field belongs to, where the text says
        /// (`Config` of the literal, the struct the tag is declared in).
        FromEnv {
            env: String,
            #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
            owner: Option<String>,
        },
        /// A field of a struct declared with the named type `ty` (its last
        /// name: `Product *config.ProductClient` gives `ProductClient`),
        /// for a read through it (`cfg.Product.URL`) to know the struct.
        Typed { ty: String },
        /// The default its struct tag gives (`default:"3"`, kelseyhightower/
        /// envconfig; `envDefault:"3"`, caarlos0/env), as written, and the
        /// tag's line (from 1).
        Default { value: String, line: usize },
        /// The target of this file's unresolved call (index) is the field's
        /// value (`grpc.NewClient(cfg.F, ..)`).
        Target { unresolved: usize },
    }
}

/// One half of a gRPC dial made in another Go package with the caller's
/// options (issue 21).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct GoDialThrough {
    /// The exported function (`NewClient`).
    pub func: String,
    /// The dial (for [`GoDialKind::Dials`]) or the call of the function.
    pub span: crate::source::Span,
    pub kind: GoDialKind,
}

kind_tagged! {
    "GoDialKind";
    #[derive(Clone, Debug, PartialEq)]
    pub enum GoDialKind {
        /// This file's `func` dials with the options of its variadic
        /// parameter: the dial's edge or unresolved call (indices), the
        /// policies of its own options, and whether its own options turn
        /// retries off (`grpc.WithDisableRetry()`).
        Dials {
            edge: Option<usize>,
            unresolved: Option<usize>,
            policies: Vec<usize>,
            retries_disabled: bool,
        },
        /// This file calls `func` of the package `import` with dial options:
        /// the policies retrying around the call, those its options give,
        /// the embedded configs (indices of `embedded_configs`) they use, and
        /// whether they turn retries off.
        Passes {
            import: String,
            around: Vec<usize>,
            options: Vec<usize>,
            embeds: Vec<usize>,
            retries_disabled: bool,
        },
    }
}

/// Options configured by name where no handler is (issue 19).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct NamedOptions {
    /// The name the options are configured for; `None`: every name
    /// (`ConfigureAll`, `PostConfigureAll`).
    pub name: Option<String>,
    /// The call.
    pub span: crate::source::Span,
    /// Applied after every `Configure` of the name (`PostConfigure`,
    /// `PostConfigureAll`): over what the handler itself writes.
    pub post: bool,
    /// What the call writes (its written settings; the rest is the
    /// library's defaults, unwritten).
    pub settings: RetryPolicy,
}

/// A configuration file embedded in the program and used here.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct EmbeddedConfig {
    /// The path as the directive writes it, relative to this file's folder.
    pub path: String,
    /// Where it is used (the option's argument).
    pub span: crate::source::Span,
    /// This file's call edges it configures (a dial's).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub edges: Vec<usize>,
    /// This file's unresolved calls it configures (a dial whose target is
    /// `env X`): the edge the link step makes of one keeps the policies.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub unresolved: Vec<usize>,
}

/// One place of the AWS shared configuration's retry settings, or one
/// client that reads them (issues 20 and 21).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct AwsShared {
    pub kind: AwsSharedKind,
    /// `retry_mode` / `AWS_RETRY_MODE` / the mode the code writes, when
    /// valid (`standard`, `adaptive`, `legacy`). In an environment, an
    /// empty value stands for a variable passed through from where the
    /// program is deployed (compose `- AWS_RETRY_MODE`, a Kubernetes
    /// `valueFrom`, `${VAR}` unset): set, its value unknown; likewise
    /// `attempts` 0 and an empty `profile`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub mode: Option<super::Located<String>>,
    /// `max_attempts` / `AWS_MAX_ATTEMPTS` (attempts, the first included),
    /// or the attempts the code writes.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub attempts: Option<super::Located<u64>>,
    /// The profile chosen: `AWS_PROFILE` in an environment, the profile a
    /// client names (`WithSharedConfigProfile`, `Session(profile_name=)`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub profile: Option<super::Located<String>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub enum AwsSharedKind {
    /// A profile of a shared config file, by name (`default`).
    Profile(String),
    /// The environment of a workload or compose service, by its name, and
    /// for a compose service built here its build context (relative to the
    /// compose file's folder): the programs under it run with it.
    Env {
        caller: String,
        #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
        context: Option<String>,
    },
    /// The `ENV` instructions of a Dockerfile's final stage: the
    /// environment of the programs under the Dockerfile's folder (the
    /// build context), below any workload's own.
    Image,
    /// A plain `.env` file: the environment of the programs under its
    /// folder that load it into their process (`LoadsDotenv`), below the
    /// workload's and the image's (python-dotenv and godotenv do not
    /// override variables already set).
    DotEnv,
    /// A source file that loads `.env` into its process environment
    /// (python-dotenv `load_dotenv()`, godotenv `Load()`).
    LoadsDotenv,
    /// A client of the AWS SDK for Java 2.x built in code: the index of its
    /// policy in this file (legacy mode when no mode is set; the profile's
    /// `max_attempts` is not read), and the attempts the service's own
    /// default fixes in every mode (DynamoDB's 9), if it has one.
    JavaClient {
        policy: usize,
        #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
        service_attempts: Option<u64>,
    },
    /// A client built in code: the index of its policy in this file, and
    /// whether its SDK is botocore (legacy mode when no mode is set; the
    /// other SDKs default to standard).
    Client { policy: usize, botocore: bool },
}

/// A circuit breaker configured by name.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct NamedBreaker {
    pub system: System,
    /// The instance name, or `configs.default` for the settings every
    /// instance without its own takes.
    pub name: String,
    pub settings: super::Located<super::BreakerSettings>,
}

/// A loop the loop readers looked at and did not take as a retry loop.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct LoopNote {
    /// The loop's head (`while (..)`, `loop`, `for .. in ..`).
    pub span: crate::source::Span,
    /// Why it is not a retry loop, in the model's words.
    pub reasons: Vec<String>,
}

/// A limit on the retries towards a host, written apart from the retry
/// policy: a retry circuit breaker or outlier ejection.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Protection {
    /// The system whose retries it limits.
    pub system: System,
    /// The host it applies to, short (`reviews`, not
    /// `reviews.prod.svc.cluster.local`).
    pub host: String,
    /// What limits them, for messages (`connectionPool.http.maxRetries: 10`).
    pub what: String,
    pub span: crate::source::Span,
    /// The retry circuit breaker's limit (concurrent retries to the host)
    /// when that is what limits them; `link::retry_limits` gives it to the
    /// policies that call the host as their `Budget::Concurrency`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub max_retries: Option<u64>,
}

impl Facts {
    pub fn is_empty(&self) -> bool {
        self.policies.is_empty()
            && self.timeouts.is_empty()
            && self.edges.is_empty()
            && self.unresolved.is_empty()
            && self.services.is_empty()
            && self.diagnostics.is_empty()
            && self.mesh_defaults.is_empty()
            && self.namespaces.is_empty()
            && self.gateway_classes.is_empty()
            && self.includes.is_empty()
            && self.upstreams.is_empty()
            && self.top_level.is_empty()
            && self.rust.is_empty()
            && self.java.is_empty()
            && self.build.is_none()
            && self.versioned.is_empty()
            && self.protections.is_empty()
            && self.breakers.is_empty()
            && self.loops_not_taken.is_empty()
            && self.aws_shared.is_empty()
            && self.embedded_configs.is_empty()
            && self.go_dials_through.is_empty()
            && self.go_fields.is_empty()
            && self.named_options.is_empty()
            && self.route_paths.is_empty()
            && self.broker_settings.is_empty()
            && self.delayed_sends.is_empty()
            && self.ingress.is_empty()
    }

    pub fn claimed_by(&mut self, extractor: &'static str) {
        if !self.extractors.contains(&extractor) {
            self.extractors.push(extractor);
        }
    }
}

/// One file that had something to say, with its text kept for rendering.
#[derive(Debug)]
pub struct ScannedFile {
    pub source: SourceFile,
    pub facts: Facts,
    /// The syntax the file was read with; `None` for a file reported
    /// without being read (too large, not valid UTF-8).
    pub syntax: Option<super::Syntax>,
}

impl ScannedFile {
    /// A copy of this file as read, not linked yet (its line index built
    /// again when asked).
    pub fn duplicate(&self) -> ScannedFile {
        ScannedFile {
            source: crate::source::SourceFile::new(
                self.source.path.clone(),
                self.source.text.clone(),
            ),
            facts: self.facts.clone(),
            syntax: self.syntax,
        }
    }
}

/// Deserialise names that are `&'static str` in memory (the extractors'
/// names): each distinct name is interned once.
pub fn static_names<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<&'static str>, D::Error> {
    static NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let names = Vec::<String>::deserialize(d)?;
    let mut known = NAMES.lock().unwrap_or_else(|p| p.into_inner());
    Ok(names
        .into_iter()
        .map(|n| match known.iter().find(|k| **k == n) {
            Some(k) => *k,
            None => {
                let k: &'static str = Box::leak(n.into_boxed_str());
                known.push(k);
                k
            }
        })
        .collect())
}
