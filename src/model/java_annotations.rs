//! What Java files tell each other: retry annotations a file declares
//! (`@Retryable` on an `@interface`) and the uses of annotations it cannot
//! place, resolved across files by `link::java_retry_annotations`.

use crate::model::IdempotencyKey;
use crate::source::Span;

/// What Java files tell each other, resolved at link time
/// (`link::java_retry_annotations`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct JavaFacts {
    /// Annotation types declared here with `@Retryable` on them
    /// (`@Retryable(..) @interface RetryOnIo {}`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub retry_annotations: Vec<RetryAnnotation>,
    /// Methods and classes annotated with an annotation this file cannot
    /// place: each is a retry when a scanned file declares that
    /// annotation with `@Retryable`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub annotation_uses: Vec<AnnotationUse>,
    /// Client interfaces declared here (an HTTP interface of
    /// `@HttpExchange`/`@GetExchange` methods, a `@FeignClient`) whose
    /// methods or type carry retry annotations: a call through the
    /// interface runs inside them (`link::client_interfaces`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub client_interfaces: Vec<ClientInterface>,
    /// Clients of an interface built here (`createClient(X.class)`,
    /// Feign's `.target(X.class, url)`), with the call targets sent
    /// through them.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub client_uses: Vec<ClientUse>,
    /// Resilience4j `intervalBiFunction`s given a class or method this
    /// file does not declare (`new RetryAfterInterval()`,
    /// `Waits::fromHeader`): what it waits is read where it is declared
    /// (`link::interval_functions`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub interval_refs: Vec<IntervalRef>,
    /// Classes declared here whose code waits what the server says
    /// (`Retry-After`), with the methods that read it.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub server_delay_classes: Vec<ServerDelayClass>,
    /// `@Bean` client methods whose base URL is a member of a properties
    /// type declared elsewhere (`extract::calls::beans`), joined to the
    /// type's `@ConfigurationProperties` by `link::client_beans`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub client_beans: Vec<ClientBeanRef>,
    /// Spring keys whose `@Value` fields here only document the API
    /// (`swagger.api-gateway-url` in an OpenAPI server): the workload's
    /// environment entry that sets one is no call either
    /// (`extract::calls::doc_fields`, `link::spring_env::drop_documented`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub doc_keys: Vec<String>,
    /// `@Bean` methods annotated `@ConfigurationProperties(prefix = ..)`:
    /// the prefix is bound onto the type they return, declared in another
    /// file (`extract::calls::properties::bean_bound`, `link::bean_bound`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub bound_beans: Vec<BoundBean>,
    /// Hand-written retry loops whose try block calls methods of project
    /// types this file does not show: the link step reads those types'
    /// files (`link::java_classes`) and moves a loop whose attempts all
    /// stay in the process, or that picks its target round-robin, to
    /// `loops_not_taken`.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub open_loops: Vec<OpenLoop>,
}

/// A retry loop held open on calls of project types declared elsewhere.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OpenLoop {
    /// The loop's policy (index in this file's policies).
    pub policy: usize,
    /// The calls the try block makes on project types, each read where
    /// the type is declared (a method of this class counts as unknown).
    pub calls: Vec<OpenCall>,
    /// Calls elsewhere in the loop's body on project types (`String address
    /// = addresses.address();` before the `try`): a round-robin pick among
    /// them makes the loop failover.
    pub around: Vec<OpenCall>,
    /// The try block makes a call that can leave (a remote client, a
    /// receiver of unknown type): only a round-robin pick settles the loop.
    #[serde(default)]
    pub remote: bool,
    /// The rest of the try block is local work (a file, a process), not
    /// only values and logging.
    pub local: bool,
    /// Nothing in the loop's own file shows a remote attempt: the loop
    /// stays only when a project type it calls (`calls`, every call of the
    /// loop's body on one), read in its own file, does.
    #[serde(default)]
    pub unproven: bool,
}

/// A call of a method of a project type, as the calling file names it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct OpenCall {
    /// The type's package: from its import, else the caller's own.
    pub package: String,
    /// The type's simple name.
    pub class: String,
    pub method: String,
    pub arity: usize,
}

/// A `@Bean` method that binds a prefix onto the type it returns.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BoundBean {
    /// The prefix as written (`stock.lookup`).
    pub prefix: String,
    /// The returned type's simple name (`LookupSettings`).
    pub ty: String,
    /// Where the prefix is written.
    pub span: Span,
}

/// A client bean's base URL read from a properties type's member
/// (`clientProperties.catalogServiceUri()`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClientBeanRef {
    /// The type's simple name (`ClientProperties`).
    pub props_type: String,
    /// The member path as Spring binds it (`catalogServiceUri`,
    /// `orders.baseUrl`).
    pub path: String,
    /// The member read, in the `baseUrl(..)` argument.
    pub span: Span,
}

/// An interval function named here and declared in another file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct IntervalRef {
    /// The policy (index in this file's policies) that waits it.
    pub policy: usize,
    /// The class's simple name.
    pub class: String,
    /// The method a reference names (`Waits::fromHeader`), if any.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub method: Option<String>,
    pub span: Span,
}

/// A class whose code takes the server's wait.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ServerDelayClass {
    pub class: String,
    /// Its methods that read the header.
    pub methods: Vec<String>,
    pub delay: crate::model::backoff::ServerDelay,
    /// Where the header is read.
    pub span: Span,
}

impl JavaFacts {
    pub fn is_empty(&self) -> bool {
        self.retry_annotations.is_empty()
            && self.annotation_uses.is_empty()
            && self.client_interfaces.is_empty()
            && self.client_uses.is_empty()
            && self.interval_refs.is_empty()
            && self.server_delay_classes.is_empty()
            && self.client_beans.is_empty()
            && self.doc_keys.is_empty()
            && self.bound_beans.is_empty()
    }
}

/// A client interface and the retry policies its methods or type carry.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClientInterface {
    /// The simple name (`InventoryClient`).
    pub name: String,
    /// With the file's package, when it has one.
    pub qualified: Option<String>,
    /// The whole declaration: a call target written inside it (the
    /// `@FeignClient` `url`, an `@HttpExchange` URL) is called through it.
    pub span: Span,
    /// The policies (indices into the file's) of its retry annotations.
    pub policies: Vec<usize>,
    /// The request paths its methods send (`/catalog/api/products/{code}`
    /// of `@HttpExchange("/catalog")` and `@GetExchange("/api/products/{code}")`);
    /// empty: not known, or some method names none.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub paths: Vec<String>,
}

/// A client of an interface built in a file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClientUse {
    /// The interface's simple name, as written in `X.class`.
    pub interface: String,
    /// Where the client is built (`createClient(InventoryClient.class)`).
    pub span: Span,
    /// The call targets it sends to: the literal given as its base URL,
    /// or the `@Value` literal of the field given.
    pub targets: Vec<Span>,
    /// With no base URL of its own: the client type (`RestClient`) whose
    /// injected builder (a `RestClient.Builder` parameter of the `@Bean`
    /// method) builds it; its base URL is the one the program's
    /// customizer or builder bean sets (`link::client_interfaces`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub builder: Option<String>,
}

/// A retry annotation declared in a file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RetryAnnotation {
    /// The simple name (`RetryOnIo`).
    pub name: String,
    /// With the file's package (`com.acme.retry.RetryOnIo`), when it has one.
    pub qualified: Option<String>,
    /// The index of the policy read from its `@Retryable`.
    pub policy: usize,
}

/// `@RetryOnIo` on a method or class.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnnotationUse {
    /// The annotation's simple name (`RetryOnIo`).
    pub annotation: String,
    /// Which annotation that is, when the file says: its single-type
    /// import, its qualified name as written, or the file's own package
    /// (no import of that name and no wildcard import). `None` when a
    /// wildcard import leaves it open.
    #[serde(default)]
    pub qualified: Option<String>,
    /// The annotation as written.
    pub span: Span,
    /// The method or class name.
    pub target: String,
    /// Idempotency keys minted in its body (in the method, or in the
    /// class's methods), as a retry of the whole would see them.
    pub keys: Vec<IdempotencyKey>,
}
