//! How calls are named and marked, as extractors write them and the graph
//! reads them: a host as a service name ([`short_host`]), a call outside
//! any mesh ([`outside_mesh`]), a retryer built by a `@Bean` method
//! ([`Scope::BEAN_RETRYER`]).

use super::Scope;
use crate::source::Span;
use serde::Serialize;

/// A host as a service name: `orders.shop.svc.cluster.local:8080` and
/// `http://orders:8080/x` are `orders`; external names stay whole.
pub fn short_host(host: &str) -> String {
    let h = host.trim();
    let h = h.split_once("://").map_or(h, |(_, rest)| rest);
    let h = h.split(['/', '?']).next().unwrap_or(h);
    let h = h.rsplit_once('@').map_or(h, |(_, rest)| rest);
    let h = match h.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => h,
    };
    let h = h.trim_end_matches('.');
    let labels: Vec<&str> = h.split('.').collect();
    const TLDS: &[&str] = &[
        "com",
        "org",
        "net",
        "io",
        "dev",
        "cloud",
        "app",
        "co",
        "uk",
        "de",
        "internal",
        "local",
        "aws",
        "amazonaws",
    ];
    // `svc.ns.svc.cluster.local`; a StatefulSet pod's own name,
    // `pod.svc.ns.svc.cluster.local`, reaches the same service.
    if let Some(i) = labels.iter().position(|l| *l == "svc") {
        return if i >= 3 { labels[i - 2] } else { labels[0] }.to_string();
    }
    if labels.len() == 2 && !TLDS.contains(&labels[1]) {
        labels[0].to_string()
    } else {
        h.to_string()
    }
}

/// The namespace a cluster host names, where it names one
/// (`orders.shop`, `orders.shop.svc.cluster.local`, a StatefulSet pod's
/// `orders-0.orders.shop.svc.cluster.local`: `shop`); the labels
/// [`short_host`] drops. A two-label host is read as `name.namespace`
/// (the caller decides whether such a namespace is declared).
pub fn host_namespace(host: &str) -> Option<String> {
    let h = host.trim();
    let h = h.split_once("://").map_or(h, |(_, rest)| rest);
    let h = h.split(['/', '?']).next().unwrap_or(h);
    let h = h.rsplit_once('@').map_or(h, |(_, rest)| rest);
    let h = match h.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => h,
    };
    let labels: Vec<&str> = h.trim_end_matches('.').split('.').collect();
    match labels.iter().position(|l| *l == "svc") {
        Some(i) if i >= 2 => Some(labels[i - 1].to_string()),
        Some(_) => None,
        None if labels.len() == 2 => Some(labels[1].to_string()),
        None => None,
    }
}

/// The IP address a call target (`10.96.0.12:8080`, `http://10.5.0.5/x`)
/// is written as, when it is one a program calls: not this machine
/// (loopback) nor every interface (unspecified). Such a target names a
/// service only where a manifest gives that address to one (a Kubernetes
/// Service's `clusterIP`, a compose service's `ipv4_address`); the graph
/// drops the others.
pub fn ip_literal(target: &str) -> Option<String> {
    let ip = ip_of(target)?;
    (!ip.is_loopback() && !ip.is_unspecified()).then(|| ip.to_string())
}

/// Whether a target is this machine's address (`127.0.0.1`, `[::]`,
/// `0.0.0.0`): a call to the program itself or to a local helper, no
/// service of the graph.
pub fn this_machine(target: &str) -> bool {
    ip_of(target).is_some_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

/// The IP address a target names, with or without scheme, port and
/// brackets.
fn ip_of(target: &str) -> Option<std::net::IpAddr> {
    let h = target.trim();
    let h = h.split_once("://").map_or(h, |(_, rest)| rest);
    let h = h.split(['/', '?']).next().unwrap_or(h);
    let h = h.rsplit_once('@').map_or(h, |(_, rest)| rest);
    let bare = h
        .strip_prefix('[')
        .and_then(|r| r.split_once(']'))
        .map(|(a, _)| a);
    let h = match bare {
        Some(a) => a,
        None => match h.rsplit_once(':') {
            Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
            _ => h,
        },
    };
    h.parse().ok()
}

/// What declares a service identity ([`super::ServiceDecl::kind`]): the
/// graph decides from it who owns a file, what runs in a cluster, and
/// what a sidecar sits beside, never from the text of `source`.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum IdentityKind {
    /// A Kubernetes workload (Deployment, StatefulSet, ...): it runs the
    /// service's pods, and owns the file that declares it.
    Workload,
    /// A Kubernetes Service: a host that reaches the pods its selector picks.
    KubeService,
    /// A mesh route or policy for a host (Istio VirtualService or
    /// DestinationRule, Linkerd ServiceProfile): the host is in the mesh.
    MeshRoute,
    /// The application's own name (`spring.application.name`).
    AppName,
    /// A build unit that makes a program (a Maven module, a Cargo binary
    /// package, a Go module, a folder with a Dockerfile ...), relative to
    /// the scan root.
    BuildUnit,
    /// A docker-compose service.
    Compose,
    /// A proxy's upstream (an Envoy cluster's endpoint): reached, not run.
    #[default]
    Upstream,
    /// A project or resource a .NET Aspire AppHost runs
    /// (`AddProject<Projects.X>("name")`, `AddRedis("name")`), with the
    /// protocol a resource speaks.
    AppHost,
    /// A program a Spring Cloud Config server serves the file to (a shared
    /// `application*` file of its location goes to every client): the
    /// file's settings and calls are each such client's, not the server's.
    ConfigClient,
}

impl IdentityKind {
    /// Whether the declaration says which program a file belongs to.
    pub fn owns_file(self) -> bool {
        matches!(
            self,
            IdentityKind::Workload | IdentityKind::AppName | IdentityKind::BuildUnit
        )
    }

    /// Whether the declaration shows the service in a Kubernetes cluster.
    pub fn in_cluster(self) -> bool {
        matches!(
            self,
            IdentityKind::Workload | IdentityKind::KubeService | IdentityKind::MeshRoute
        )
    }
}

/// What a call speaks, as far as retry layers care: HTTP and gRPC are
/// retried by L7 layers (a mesh's sidecar, HTTP middleware, a gRPC
/// service config); the others only by their own driver.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    /// Nothing says: treated as HTTP (a sidecar detects HTTP by sniffing).
    #[default]
    Unknown,
    Http,
    Grpc,
    Redis,
    Sql,
    Mongo,
    Kafka,
    Amqp,
    /// A mail server (Spring Boot's `spring.mail.host`).
    Smtp,
    /// Another TCP protocol (a Service port named `tcp`, memcached, ...).
    Tcp,
}

/// Well-known ports of protocols no L7 layer retries.
const PORTS: &[(u16, Protocol)] = &[
    (6379, Protocol::Redis),
    (26379, Protocol::Redis),
    (3306, Protocol::Sql),
    (5432, Protocol::Sql),
    (1433, Protocol::Sql),
    (1521, Protocol::Sql),
    (26257, Protocol::Sql),
    (27017, Protocol::Mongo),
    (9092, Protocol::Kafka),
    (5672, Protocol::Amqp),
    // SMTP, SMTPS (RFC 8314) and submission (RFC 6409).
    (25, Protocol::Smtp),
    (465, Protocol::Smtp),
    (587, Protocol::Smtp),
    (11211, Protocol::Tcp),
    (2181, Protocol::Tcp),
    (9042, Protocol::Tcp),
];

impl Protocol {
    /// Whether L7 retry layers (a mesh's sidecar route, HTTP middleware)
    /// apply to calls of this protocol.
    pub fn is_l7(self) -> bool {
        matches!(self, Protocol::Unknown | Protocol::Http | Protocol::Grpc)
    }

    pub fn label(self) -> &'static str {
        match self {
            Protocol::Unknown => "unknown",
            Protocol::Http => "HTTP",
            Protocol::Grpc => "gRPC",
            Protocol::Redis => "Redis",
            Protocol::Sql => "SQL",
            Protocol::Mongo => "MongoDB",
            Protocol::Kafka => "Kafka",
            Protocol::Amqp => "AMQP",
            Protocol::Smtp => "SMTP",
            Protocol::Tcp => "TCP",
        }
    }

    /// From a protocol name as Kubernetes and Istio write it: a Service
    /// port's `appProtocol`, or its name's prefix (`tcp-redis`, `grpc-web`,
    /// `http2`), per Istio's protocol selection
    /// (istio.io/latest/docs/ops/configuration/traffic-management/protocol-selection/).
    pub fn of_name(name: &str) -> Option<Protocol> {
        let n = name.trim().to_ascii_lowercase();
        let n = n.rsplit_once('/').map_or(n.as_str(), |(_, p)| p);
        let head = n.split(['-', '_']).next().unwrap_or(n);
        Some(match head {
            "http" | "http2" | "https" | "h2c" | "websocket" => Protocol::Http,
            "grpc" => Protocol::Grpc,
            "redis" => Protocol::Redis,
            "mysql" | "postgres" | "postgresql" | "sql" | "mssql" => Protocol::Sql,
            "mongo" | "mongodb" => Protocol::Mongo,
            "kafka" => Protocol::Kafka,
            "amqp" | "amqps" | "rabbitmq" => Protocol::Amqp,
            "smtp" | "smtps" => Protocol::Smtp,
            "tcp" | "tls" | "udp" | "memcached" | "zookeeper" => Protocol::Tcp,
            _ => return None,
        })
    }

    /// From a well-known port.
    pub fn of_port(port: u16) -> Option<Protocol> {
        PORTS
            .iter()
            .find(|(p, _)| *p == port)
            .map(|(_, proto)| *proto)
    }

    /// From a call target as written: its scheme (`mongodb://`,
    /// `jdbc:mysql:`, `redis://`, `http://`), else a well-known port
    /// (`redis-cart:6379`).
    pub fn of_target(target: &str) -> Option<Protocol> {
        let t = target.trim().trim_matches(['"', '\'', '`']);
        // Spring Cloud Gateway's `lb:http://ORDER-SERVICE`: the load
        // balancer's scheme before the request's.
        let t = t
            .strip_prefix("lb:")
            .filter(|r| r.contains("://"))
            .unwrap_or(t);
        // `jdbc:mysql://...`: any JDBC URL is SQL.
        if t.starts_with("jdbc:") {
            return Some(Protocol::Sql);
        }
        if let Some((scheme, _)) = t.split_once("://") {
            let scheme = scheme.to_ascii_lowercase();
            let scheme = scheme.split('+').next().unwrap_or(&scheme).to_string();
            return match scheme.as_str() {
                "http" | "https" | "http4" | "https4" | "ws" | "wss" | "lb" => Some(Protocol::Http),
                "grpc" | "grpcs" | "dns" | "xds" => Some(Protocol::Grpc),
                "rediss" => Some(Protocol::Redis),
                "postgresql" | "sql" | "mariadb" | "sqlserver" | "cockroachdb" => {
                    Some(Protocol::Sql)
                }
                "nats" | "tcp" | "memcached" | "zk" => Some(Protocol::Tcp),
                other => Protocol::of_name(other),
            };
        }
        // An Apache Camel HTTP endpoint (`http4:preference:8080/x`,
        // `https:orders`): its component is the scheme.
        if ["http4:", "https4:", "http:", "https:"]
            .iter()
            .any(|c| t.starts_with(c))
        {
            return Some(Protocol::Http);
        }
        let host_port = t.split(['/', '?']).next().unwrap_or(t);
        let port = host_port.rsplit_once(':')?.1;
        Protocol::of_port(port.parse().ok()?)
    }
}

/// Where a declared service runs, as far as the graph joins and the mesh
/// care ([`super::ServiceDecl::placement`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Placement {
    /// A workload's pod labels; a Kubernetes Service's selector.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub labels: Vec<(String, String)>,
    /// The namespace written in its metadata.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub namespace: Option<String>,
    /// A workload's own mesh injection setting (pod template annotation or
    /// label).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub mesh: Vec<MeshHint>,
    /// A Kubernetes Service's protocol, where its ports say one (all of
    /// them the same).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub protocol: Option<Protocol>,
    /// The images a workload runs (their names without registry or tag):
    /// a build unit of that name is this workload.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub images: Vec<String>,
    /// A Gateway API `Gateway`'s `gatewayClassName`, where it is written:
    /// the class's controller (a `GatewayClass` in another file) tells who
    /// runs it.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub gateway_class: Option<(String, crate::source::Span)>,
    /// A Kubernetes Service's `istio.io/use-waypoint` label: the Istio
    /// ambient waypoint its callers' traffic goes through (`none`: not the
    /// namespace's either), `<namespace>/<name>` where
    /// `istio.io/use-waypoint-namespace` puts it in another namespace.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub waypoint: Option<(String, crate::source::Span)>,
    /// A compose service's `build` context as written (`..`, `./orders`,
    /// `build: {context: ..}`), relative to the compose file: the program
    /// built there is this service (`link::units`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub build: Option<String>,
    /// The folder of a compose service's `build.dockerfile`, relative to
    /// the context (`Services/Orders/Orders.Api` for `context: .` and
    /// `dockerfile: Services/Orders/Orders.Api/Dockerfile`): the program
    /// there is the service before the context's own.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub dockerfile_dir: Option<String>,
    /// The program a compose service's `build` context holds, as its
    /// build manifest names it (set by `link::units`): the graph joins the
    /// compose service to it.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub unit: Option<String>,
    /// A workload named by a label (`app: eshop`): its object's own name
    /// (`metadata.name`), for when other workloads share the label
    /// (`link::workload_names`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub object: Option<String>,
    /// A workload that runs an image with a command of its own (a
    /// container's `command`, a compose `entrypoint`): maybe another
    /// program than the image's (emojivoto's `vote-bot` runs
    /// `emojivoto-vote-bot` from the `emojivoto-web` image).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub own_command: bool,
    /// A compose service's bind mounts: the host paths of its `volumes`
    /// as written (`./config/nginx.conf` of
    /// `./config/nginx.conf:/etc/nginx/nginx.conf:ro`), relative to the
    /// compose file: a configuration file mounted there is this service's
    /// (`link::units`), not the program whose source folder holds it.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub mounts: Vec<String>,
}

/// A Gateway API `GatewayClass`: its name and `spec.controllerName`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GatewayClassDecl {
    pub name: String,
    pub controller: String,
    pub span: crate::source::Span,
}

impl Placement {
    pub fn is_empty(&self) -> bool {
        *self == Placement::default()
    }
}

/// A mesh injection setting: `istio-injection: enabled`, `istio.io/rev`,
/// `sidecar.istio.io/inject: "false"`, `linkerd.io/inject: enabled` ...
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeshHint {
    pub mesh: super::System,
    /// Injected (`true`) or explicitly not (`false`).
    pub on: bool,
    /// Where it is written.
    pub span: crate::source::Span,
}

/// A Kubernetes Namespace and its mesh injection labels/annotations.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NamespaceDecl {
    pub name: String,
    pub span: crate::source::Span,
    pub mesh: Vec<MeshHint>,
    /// `istio.io/dataplane-mode: ambient`: its pods run in Istio's ambient
    /// mode (no sidecar; ztunnel carries L4 only).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub ambient: Option<crate::source::Span>,
    /// `istio.io/use-waypoint`: the waypoint proxy the calls to its
    /// services go through (L7 policy, retries among it);
    /// `<namespace>/<name>` as on a Service's.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub waypoint: Option<(String, crate::source::Span)>,
}

/// Namespaces no mesh injects: the cluster's and the meshes' own.
pub const SYSTEM_NAMESPACES: &[&str] = &[
    "kube-system",
    "kube-public",
    "kube-node-lease",
    "istio-system",
    "istio-operator",
    "linkerd",
    "linkerd-viz",
    "linkerd-jaeger",
    "cert-manager",
    "ingress-nginx",
    "gatekeeper-system",
];

/// The start of [`super::CallEdge::via`] for calls a docker-compose file
/// shows.
pub const COMPOSE_VIA: &str = "docker-compose";

/// Whether a call shown `via` this runs outside any service mesh (a
/// docker-compose network): no sidecar handles it.
pub fn outside_mesh(via: &str) -> bool {
    via.starts_with(COMPOSE_VIA)
}

/// Marks [`super::CallEdge::via`] of a call read from a variable whose
/// name says nothing of an address (`AUTHORS_SITE: http://authors:7001`,
/// BuoyantIO/booksapp `booksapp.yml`) but whose value is a URL: the graph
/// keeps it only where the scan declares the URL's host as a service
/// ([`url_value_only`]); an identity provider's or the site's own public
/// URL in such a variable is a setting, not a call.
pub const URL_VALUE_VIA: &str = " (a URL)";

/// Whether a call shown `via` this is kept only toward a declared
/// service ([`URL_VALUE_VIA`]).
pub fn url_value_only(via: &str) -> bool {
    via.contains(URL_VALUE_VIA)
}

/// The end of [`super::CallEdge::via`] for a call whose target is a
/// variable the workload takes with every other key of a ConfigMap
/// (`envFrom`): handed to it whether or not its program reads it, so the
/// graph keeps the call only where the caller's code or configuration
/// reads the variable ([`whole_map_env`]).
pub const WHOLE_MAP_VIA: &str = " (envFrom)";

/// The same for a variable a compose service takes with every other line
/// of an `env_file`.
pub const WHOLE_FILE_VIA: &str = " (env_file)";

/// The variable a call shown `via` a whole ConfigMap or `env_file` reads
/// (`env \`CONTACTS_API_ADDR\` from ConfigMap \`service-api-config\` (envFrom)`),
/// and how it was handed over (`envFrom`, `env_file`).
pub fn whole_map_env(via: &str) -> Option<(&str, &'static str)> {
    let (rest, how) = match via.strip_suffix(WHOLE_MAP_VIA) {
        Some(r) => (r, "envFrom"),
        None => (via.strip_suffix(WHOLE_FILE_VIA)?, "env_file"),
    };
    let start = rest.find("env `")? + "env `".len();
    let len = rest[start..].find('`')?;
    Some((&rest[start..start + len], how))
}

impl Scope {
    /// The route of a retry layer built in a `@Bean` method (a Feign
    /// `Retryer` bean), for messages: the graph reads the typed
    /// [`super::ClientScope::Bean`].
    pub const BEAN_RETRYER: &'static str = "@Bean Retryer";
}

/// A call from one service to another, as a file shows it.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct CallEdge {
    /// The calling service, where the file shows it.
    pub caller: Option<String>,
    /// The callee host or service name as written (normalised later).
    pub callee: String,
    pub span: Span,
    /// Indices into `Facts::policies` of the retry layers that apply to
    /// this call within the file.
    pub policies: Vec<usize>,
    pub via: String,
    /// The named client the call is made through (a `@FeignClient`'s
    /// `contextId` or name): its per-client configuration in another file
    /// (`spring.cloud.openfeign.client.config.<client>`) applies.
    #[serde(default)]
    pub client: Option<String>,
    /// What the call speaks where its code says so and its target does
    /// not: a gRPC client registered with an `http://` address
    /// (`AddGrpcClient<T>(o => o.Address = new("http://basket-api"))`).
    /// The graph takes it before the target's scheme.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub protocol: Option<Protocol>,
}

/// A call site whose target is not written where it is made: a Spring
/// placeholder, an environment variable, a formatted host. Listed, never
/// guessed (`extract::calls`).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct UnresolvedCall {
    pub span: Span,
    /// What stands for the target, as written (`${orders.url}`,
    /// `env ORDERS_URL`, `http://%s/x`).
    pub written: String,
    /// The calling service, where the link step can tell it (the file's
    /// build unit or application name), so that a call left unresolved
    /// still names who makes it.
    #[serde(default)]
    pub caller: Option<String>,
    /// The callee when the target resolves to an empty string: a
    /// `@FeignClient` whose `url` is empty calls its `name` through the
    /// load balancer.
    #[serde(default)]
    pub if_empty: Option<String>,
    /// The named client the call is made through (as [`CallEdge::client`]).
    #[serde(default)]
    pub client: Option<String>,
    /// The retry policies of the file that apply to the call once it is
    /// resolved (as [`CallEdge::policies`]): a Spring Cloud Gateway route's
    /// Retry filters.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub policies: Vec<usize>,
    /// What the call speaks where the setting says so and its value will
    /// not (`spring.data.mongodb.host: ${MONGO_HOST}`): the edge it
    /// resolves to keeps it (as [`CallEdge::protocol`]).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub protocol: Option<Protocol>,
    /// The callee of an `env X` target when no workload of the caller
    /// sets `X`: the default the code falls back to
    /// (`os.getenv("X", "cart")`, `System.getenv("X") == null ? "mysql" : ..`,
    /// Go's `if !ok { host = "rabbitmq" }`). An entry that sets `X` wins.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub if_unset: Option<String>,
}

impl UnresolvedCall {
    /// A call site whose target `written` is not resolved here.
    pub fn new(span: Span, written: impl Into<String>) -> Self {
        Self {
            span,
            written: written.into(),
            caller: None,
            if_empty: None,
            client: None,
            policies: Vec::new(),
            protocol: None,
            if_unset: None,
        }
    }
}

/// A service identity a file declares.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ServiceDecl {
    pub name: String,
    pub span: Span,
    /// How the identity is known, for people: `spring.application.name`,
    /// `Kubernetes Deployment` ... The graph reads [`ServiceDecl::kind`].
    pub source: String,
    /// What declares it, as the graph reads it.
    #[serde(default)]
    pub kind: IdentityKind,
    /// Hosts that reach this service.
    pub hosts: Vec<String>,
    /// Where the declaration runs: a workload's pod labels, a Kubernetes
    /// Service's selector, the namespace, mesh injection, the protocol of a
    /// Service's ports (`Placement`).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub placement: Placement,
    /// How long the platform that runs it lets it work on one request
    /// (Knative's revision `timeoutSeconds`): a caller that gives up sooner
    /// and retries leaves work running behind it (RL303).
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub request_timeout: Option<super::Located<super::Timeout>>,
}

impl ServiceDecl {
    /// A declaration with nothing known about where it runs.
    pub fn new(
        name: impl Into<String>,
        span: Span,
        kind: IdentityKind,
        source: impl Into<String>,
        hosts: Vec<String>,
    ) -> Self {
        ServiceDecl {
            name: name.into(),
            span,
            source: source.into(),
            kind,
            hosts,
            placement: Placement::default(),
            request_timeout: None,
        }
    }
}

#[cfg(test)]
mod host_tests {
    use super::short_host;

    #[test]
    fn hosts_normalise_to_service_names() {
        assert_eq!(short_host("orders.shop.svc.cluster.local:8080"), "orders");
        assert_eq!(
            short_host("orders-0.orders.shop.svc.cluster.local:8080"),
            "orders"
        );
        assert_eq!(short_host("orders.shop.svc"), "orders");
        assert_eq!(short_host("http://payments:8080/api"), "payments");
        assert_eq!(short_host("reviews.prod"), "reviews");
        assert_eq!(short_host("orders"), "orders");
        assert_eq!(short_host("api.stripe.com"), "api.stripe.com");
        assert_eq!(
            short_host("dynamodb.us-east-1.amazonaws.com"),
            "dynamodb.us-east-1.amazonaws.com"
        );
    }
}
