//! Service identities and call edges from Kubernetes workloads and
//! docker-compose files: a `Deployment`/`StatefulSet`/... or a compose
//! service is a service; a `Service` is a host that reaches one; container
//! env entries named `*_URL`, `*_HOST`, `*_ADDR`, `*_ADDRESS`, `*_URI` or
//! `*_ENDPOINT` whose value names a host are calls from that service.
//! Compose files are read in `compose_services`, with the env entry
//! helpers here ([`push_edge`], [`host_of`]).

use super::{DocCtx, Facts, short_host};
use crate::model::calls::{IdentityKind, MeshHint, NamespaceDecl, Protocol};
use crate::model::{CallEdge, ServiceDecl, System};
use crate::yaml::Yaml;

pub(crate) const WORKLOADS: &[&str] = &[
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "Job",
    "CronJob",
    "Pod",
    "Rollout",
    "DeploymentConfig",
];
const ENV_SUFFIXES: &[&str] = &[
    "_URL",
    "_HOST",
    // `ORDER_QUEUE_HOSTNAME: rabbitmq` (Azure-Samples/aks-store-demo
    // 7ce10c51 `aks-store-all-in-one.yaml`); the app's own name
    // (`KC_HOSTNAME`, `PUBLIC_HOSTNAME`) is left out by `own_url`.
    "_HOSTNAME",
    "_ADDR",
    "_ADDRESS",
    "_URI",
    "_ENDPOINT",
    "_SERVICE_HOST",
];

/// Sniff strings for the Kubernetes kinds read here.
pub const NEEDLES: &[&str] = &[
    "kind: Deployment",
    "kind: StatefulSet",
    "kind: DaemonSet",
    "kind: ReplicaSet",
    "kind: Job",
    "kind: CronJob",
    "kind: Pod",
    "kind: Rollout",
    "kind: Service",
    "kind: DeploymentConfig",
    "kind: Namespace",
];

/// Whether a file name is a docker-compose file.
pub fn is_compose(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    (n.starts_with("docker-compose") || n.starts_with("compose"))
        && (n.ends_with(".yml") || n.ends_with(".yaml"))
}

pub use super::compose_file::is_compose_file;
use super::compose_services::compose;
pub use super::compose_services::{compose_edges, compose_env_files, env_file_paths};

/// The workload reader (no retry system of its own): services, their
/// calls and their environments.
pub const READER: super::DocReader = super::DocReader {
    name: "workload",
    needles: NEEDLES,
    read: extract,
    order: 60,
};

pub fn extract(ctx: &DocCtx<'_>, facts: &mut Facts) -> bool {
    let root = ctx.root();
    let name = ctx
        .path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    // By name, or by shape (the text is looked at only for a document
    // shaped like Compose: this runs once per document).
    if is_compose(&name)
        || (root.get("services").is_some()
            && root.get("apiVersion").is_none()
            && is_compose_file(&name, ctx.text.as_bytes()))
    {
        return compose(root, facts);
    }
    let kind = root.get("kind").and_then(|k| k.as_str()).unwrap_or("");
    if root.get("apiVersion").is_none() {
        return false;
    }
    if kind == "Service" {
        return service(root, facts);
    }
    if kind == "Namespace" {
        return namespace(root, facts);
    }
    if !WORKLOADS.contains(&kind) {
        return false;
    }
    let Some(meta_name) = root.path(&["metadata", "name"]) else {
        return false;
    };
    let dapr = dapr_app_id(root);
    let label = dapr.is_none().then(|| app_name(root)).flatten();
    let Some(id) = dapr
        .or_else(|| label.clone())
        .or(meta_name.as_str().map(str::to_string))
    else {
        return false;
    };
    let template = match kind {
        "CronJob" => root.path(&["spec", "jobTemplate", "spec", "template"]),
        "Pod" => Some(root),
        _ => root.path(&["spec", "template"]),
    };
    let spec = template.and_then(|t| t.get("spec"));
    // A kustomize patch (a Deployment with no pod template) changes a
    // workload declared elsewhere; it declares none.
    if spec.and_then(|s| s.get("containers")).is_none() {
        return true;
    }
    let mut decl = ServiceDecl::new(
        id.clone(),
        meta_name.span(),
        IdentityKind::Workload,
        format!("Kubernetes {kind}"),
        Vec::new(),
    );
    decl.placement.namespace = namespace_of(root);
    // Named by a label: the object's own name, for when other workloads
    // share the label (`link::workload_names`).
    if label.is_some()
        && let Some(object) = meta_name.as_str()
    {
        decl.placement.object = Some(object.to_string());
    }
    if let Some(labels) = template.and_then(|t| t.path(&["metadata", "labels"])) {
        decl.placement.labels = string_map(labels);
    }
    // The pod template's own injection setting (annotation, or label as
    // Istio also reads it); the object's metadata does not inject.
    for key in ["annotations", "labels"] {
        if let Some(m) = template.and_then(|t| t.path(&["metadata", key])) {
            decl.placement.mesh.extend(mesh_hints(m, false));
        }
    }
    if let Some(spec) = spec {
        for list in ["containers", "initContainers"] {
            for c in spec.get(list).map(|c| c.items()).unwrap_or_default() {
                if list == "containers"
                    && let Some(image) = c.get("image").and_then(|i| i.as_str())
                    && let Some(name) = image_name(image)
                {
                    decl.placement.images.push(name);
                    // Its own `command`: not the image's program.
                    decl.placement.own_command |= c.get("command").is_some();
                }
            }
        }
    }
    facts.services.push(decl);
    let mut switches = Vec::new();
    if let Some(spec) = spec {
        for list in ["containers", "initContainers"] {
            for c in spec.get(list).map(|c| c.items()).unwrap_or_default() {
                if let Some(env) = c.get("env") {
                    super::tracing::env_list_switches(env, &mut switches);
                }
                // The list's entries, for a host's port beside it.
                let before = facts.edges.len();
                let mut pairs: Vec<(String, String)> = Vec::new();
                for env in c.get("env").map(|e| e.items()).unwrap_or_default() {
                    let Some(k) = env.get("name").and_then(|n| n.as_str()) else {
                        continue;
                    };
                    if let Some(v) = env.get("value") {
                        if let Some(text) = v.as_str() {
                            pairs.push((k.to_string(), text.to_string()));
                        }
                        env_edge(&id, k, v, facts);
                    } else if let Some(r) = env.path(&["valueFrom", "configMapKeyRef"])
                        && let (Some(map), Some(key)) = (
                            r.get("name").and_then(|n| n.as_str()),
                            r.get("key").and_then(|n| n.as_str()),
                        )
                        && address_key(k)
                    {
                        // The value is in a ConfigMap, usually another
                        // file.
                        let mut u = crate::model::UnresolvedCall::new(
                            env.span(),
                            configmap_written(k, map, key),
                        );
                        u.caller = Some(id.clone());
                        facts.unresolved.push(u);
                    }
                }
                super::env_protocol::from_ports(facts, before, &pairs);
                super::container_args::edges(&id, c, facts);
                // `envFrom: - configMapRef:` takes every key of the
                // ConfigMap; which are addresses is known only from it.
                for from in c.get("envFrom").map(|e| e.items()).unwrap_or_default() {
                    let Some(map) = from
                        .path(&["configMapRef", "name"])
                        .and_then(|n| n.as_str())
                    else {
                        continue;
                    };
                    let prefix = from.get("prefix").and_then(|p| p.as_str()).unwrap_or("");
                    let mut u = crate::model::UnresolvedCall::new(
                        from.span(),
                        configmap_all_written(map, prefix),
                    );
                    u.caller = Some(id.clone());
                    facts.unresolved.push(u);
                }
            }
        }
    }
    super::tracing::drop_off(&id, &switches, facts);
    true
}

/// `app.kubernetes.io/name` or `app` label of the pod template or object.
/// A Dapr app's id (the pod template's `dapr.io/app-id` annotation, with
/// `dapr.io/enabled: "true"`): the name other apps invoke it by through
/// their sidecars (dapr/dapr d8450742ce `pkg/injector/annotations/annotations.go`
/// `KeyAppID`; `pkg/injector/patcher/sidecar_container.go` `GetAppID`
/// falls back to the pod's name), so the workload's, before a label
/// several workloads share (eShopOnDapr's `app: eshop`).
fn dapr_app_id(root: Yaml<'_>) -> Option<String> {
    let a = root.path(&["spec", "template", "metadata", "annotations"])?;
    let on = a
        .get("dapr.io/enabled")
        .and_then(|v| v.as_str())
        .is_some_and(|v| v.trim() == "true");
    let id = a.get("dapr.io/app-id")?.as_str()?.trim();
    (on && !id.is_empty() && !id.contains(['{', '$', ' '])).then(|| id.to_string())
}

fn app_name(root: Yaml<'_>) -> Option<String> {
    for labels in [
        root.path(&["spec", "template", "metadata", "labels"]),
        root.path(&["metadata", "labels"]),
    ] {
        let Some(labels) = labels else { continue };
        for key in ["app.kubernetes.io/name", "app"] {
            if let Some(v) = labels.get(key).and_then(|v| v.as_str()) {
                return Some(v.to_string());
            }
        }
    }
    None
}

/// `metadata.namespace`, where written.
fn namespace_of(root: Yaml<'_>) -> Option<String> {
    root.path(&["metadata", "namespace"])
        .and_then(|n| n.as_str())
        .map(str::to_string)
}

/// A map of strings (labels, a selector), at most 64 entries.
fn string_map(m: Yaml<'_>) -> Vec<(String, String)> {
    m.entries()
        .iter()
        .take(64)
        .filter_map(|e| e.value.as_str().map(|v| (e.key.to_string(), v.to_string())))
        .collect()
}

/// An image's name without registry, path or tag:
/// `gcr.io/x/cartservice:v1` is `cartservice`.
pub(super) fn image_name(image: &str) -> Option<String> {
    let last = image.rsplit('/').next()?;
    let name = last.split(['@', ':']).next()?;
    (!name.is_empty() && !name.contains('$') && !name.contains('{')).then(|| name.to_string())
}

/// Mesh injection settings among labels or annotations. A namespace
/// injects with `istio-injection: enabled` or an `istio.io/rev` label; a
/// pod with `sidecar.istio.io/inject`; either with `linkerd.io/inject`
/// (Istio: istio.io/latest/docs/setup/additional-setup/sidecar-injection/;
/// Linkerd: linkerd.io/2/features/proxy-injection/).
fn mesh_hints(m: Yaml<'_>, namespace: bool) -> Vec<MeshHint> {
    let mut out = Vec::new();
    for e in m.entries().iter().take(256) {
        let value = e.value.as_str().unwrap_or("").trim().to_ascii_lowercase();
        let hint = match e.key {
            "istio-injection" if namespace => Some((System::Istio, value == "enabled")),
            "istio.io/rev" if namespace => Some((System::Istio, !value.is_empty())),
            "sidecar.istio.io/inject" if !namespace => Some((System::Istio, value == "true")),
            "linkerd.io/inject" => {
                Some((System::Linkerd, value == "enabled" || value == "ingress"))
            }
            _ => None,
        };
        if let Some((mesh, on)) = hint {
            out.push(MeshHint {
                mesh,
                on,
                span: e.value.span(),
            });
        }
    }
    out
}

/// Istio ambient mode's namespace label (`ambient` puts its pods in the
/// mesh without sidecars) and the label naming the waypoint a namespace's
/// or Service's traffic goes through
/// (istio.io/latest/docs/ambient/usage/add-workloads/,
/// istio.io/latest/docs/ambient/usage/waypoint/; istio/istio
/// pkg/config/constants: `DataplaneModeLabel`, `AmbientUseWaypointLabel`).
const DATAPLANE_MODE: &str = "istio.io/dataplane-mode";
const USE_WAYPOINT: &str = "istio.io/use-waypoint";
/// The waypoint's namespace when it is not the labelled object's
/// (istio/istio `pilot/pkg/serviceregistry/ambient/waypoints.go`
/// `GetUseWaypoint`: `label.IoIstioUseWaypointNamespace`, at 86c9f01).
const USE_WAYPOINT_NAMESPACE: &str = "istio.io/use-waypoint-namespace";

/// The `istio.io/use-waypoint` label among `labels`, with its span:
/// `<namespace>/<name>` when `istio.io/use-waypoint-namespace` names the
/// waypoint's namespace (`none` stays `none`: Istio reserves the word).
fn waypoint_label(labels: Yaml<'_>) -> Option<(String, crate::source::Span)> {
    let v = labels.get(USE_WAYPOINT)?;
    let name = v.as_str()?.trim();
    if name.is_empty() {
        return None;
    }
    let ns = labels
        .get(USE_WAYPOINT_NAMESPACE)
        .and_then(|n| n.as_str())
        .map(str::trim)
        .filter(|n| !n.is_empty() && !n.contains('/'));
    Some(match ns {
        Some(ns) if name != "none" => (format!("{ns}/{name}"), v.span()),
        _ => (name.to_string(), v.span()),
    })
}

/// A `Namespace` with its mesh injection labels and annotations.
fn namespace(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let Some(meta_name) = root.path(&["metadata", "name"]) else {
        return false;
    };
    let Some(name) = meta_name.as_str() else {
        return false;
    };
    let mut mesh = Vec::new();
    for key in ["labels", "annotations"] {
        if let Some(m) = root.path(&["metadata", key]) {
            mesh.extend(mesh_hints(m, true));
        }
    }
    let labels = root.path(&["metadata", "labels"]);
    let ambient = labels
        .and_then(|l| l.get(DATAPLANE_MODE))
        .filter(|v| v.as_str().is_some_and(|v| v.trim() == "ambient"))
        .map(|v| v.span());
    facts.namespaces.push(NamespaceDecl {
        name: name.to_string(),
        span: meta_name.span(),
        mesh,
        ambient,
        waypoint: labels.and_then(waypoint_label),
    });
    true
}

/// A `Service` is a host: its name reaches the pods its selector picks
/// (joined to the workloads by the graph).
fn service(root: Yaml<'_>, facts: &mut Facts) -> bool {
    let Some(meta_name) = root.path(&["metadata", "name"]) else {
        return false;
    };
    let Some(host) = meta_name.as_str() else {
        return false;
    };
    let mut decl = ServiceDecl::new(
        host,
        meta_name.span(),
        IdentityKind::KubeService,
        "Kubernetes Service",
        vec![host.to_string()],
    );
    decl.placement.namespace = namespace_of(root);
    // A fixed `clusterIP` reaches the Service as its name does.
    let ips = root.path(&["spec", "clusterIP"]).into_iter().chain(
        root.path(&["spec", "clusterIPs"])
            .map(|l| l.items())
            .unwrap_or_default(),
    );
    for ip in ips.take(8) {
        if let Some(ip) = ip.as_str().and_then(crate::model::calls::ip_literal) {
            decl.hosts.push(ip);
        }
    }
    if let Some(selector) = root.path(&["spec", "selector"]) {
        decl.placement.labels = string_map(selector);
    }
    decl.placement.protocol = ports_protocol(root);
    decl.placement.waypoint = root.path(&["metadata", "labels"]).and_then(waypoint_label);
    facts.services.push(decl);
    true
}

/// The protocol of a Service's ports, where they say one: `appProtocol`,
/// else the port's name (`tcp-redis`, `grpc`), else a well-known port
/// number. Ports that say nothing (`prom`, `8801`) are left out when the
/// others say HTTP or gRPC, which a sidecar retries; a protocol no L7 layer
/// retries must be said by every port, so that no HTTP call loses its
/// sidecar layer to a neighbouring port.
fn ports_protocol(root: Yaml<'_>) -> Option<Protocol> {
    let mut found: Option<Protocol> = None;
    let mut silent = false;
    for p in root
        .path(&["spec", "ports"])
        .map(|p| p.items())
        .unwrap_or_default()
        .iter()
        .take(64)
    {
        let text = |k: &str| p.get(k).and_then(|v| v.as_str()).map(str::to_string);
        let number = |k: &str| {
            p.get(k)
                .and_then(|v| v.as_str().map(str::to_string))
                .and_then(|v| v.parse::<u16>().ok())
        };
        let proto = text("appProtocol")
            .and_then(|a| Protocol::of_name(&a))
            .or_else(|| text("name").and_then(|n| Protocol::of_name(&n)))
            .or_else(|| number("port").and_then(Protocol::of_port))
            .or_else(|| number("targetPort").and_then(Protocol::of_port));
        match (proto, found) {
            (None, _) => silent = true,
            (Some(p), Some(f)) if p != f => return None,
            (Some(p), _) => found = Some(p),
        }
    }
    found.filter(|p| p.is_l7() || !silent)
}

pub use crate::model::calls::COMPOSE_VIA;

fn env_edge(caller: &str, key: &str, value: Yaml<'_>, facts: &mut Facts) {
    let Some(v) = value.as_str() else { return };
    let span = value.span();
    push_edge(caller, key, v, span, facts);
}

/// Whether an environment variable's name says it holds a call target.
fn address_key(key: &str) -> bool {
    let upper = key.to_ascii_uppercase();
    // `ORDER_DESTINATIONS_ORDERSERVICEURL`: Spring's relaxed binding of
    // `order.destinations.orderServiceUrl` (its last word ends in URL).
    let last = upper.rsplit('_').next().unwrap_or(&upper);
    let camel = ["URL", "URI"]
        .iter()
        .any(|s| last.len() > s.len() && last.ends_with(s));
    (camel || ENV_SUFFIXES.iter().any(|s| upper.ends_with(s))) && !upper.starts_with("AWS_")
}

/// How an unresolved call whose value a ConfigMap key holds is written:
/// `env <ENV> from ConfigMap <map> key <key>` (`link::configmap_env`
/// reads it back with [`configmap_ref`]).
pub fn configmap_written(env: &str, map: &str, key: &str) -> String {
    format!("env {env} from ConfigMap {map} key {key}")
}

/// How a workload's `envFrom` of a whole ConfigMap is written until the
/// ConfigMap is read: `envFrom ConfigMap <map> prefix <prefix>`
/// (`link::configmap_env` reads it back with [`configmap_all_ref`] and
/// drops it: unread, it names no call).
pub fn configmap_all_written(map: &str, prefix: &str) -> String {
    format!("envFrom ConfigMap {map} prefix {prefix}")
}

/// The (map, prefix) of a [`configmap_all_written`] text.
pub fn configmap_all_ref(written: &str) -> Option<(&str, &str)> {
    let rest = written.strip_prefix("envFrom ConfigMap ")?;
    let (map, prefix) = rest.split_once(" prefix ")?;
    (!map.contains(' ')).then_some((map, prefix))
}

/// The (env, map, key) of a [`configmap_written`] text.
pub fn configmap_ref(written: &str) -> Option<(&str, &str, &str)> {
    match written.split(' ').collect::<Vec<_>>()[..] {
        ["env", env, "from", "ConfigMap", map, "key", key] => Some((env, map, key)),
        _ => None,
    }
}

/// The environment variable an edge of [`push_edge`] was read from
/// (its `via`: ``env `ORDERS_URL` ``, with what follows it: a ConfigMap,
/// an `env_file`, compose's prefix).
pub fn env_name_of(via: &str) -> Option<&str> {
    let (_, rest) = via.split_once("env `")?;
    let (name, _) = rest.split_once('`')?;
    (!name.is_empty() && !name.contains(' ')).then_some(name)
}

pub fn push_edge(
    caller: &str,
    key: &str,
    value: &str,
    span: crate::source::Span,
    facts: &mut Facts,
) {
    // `ApiSettings__GatewayAddress`: a key a .NET program may read.
    super::config_env::record(caller, key, value, span, facts);
    // `REACT_APP_API_URL`, `ROOT_URL`, `Cors__AllowedOrigins__0`: the
    // app's own public address or a browser's target, no call of the
    // workload's.
    if super::own_url::own_public_url(key, value) {
        return;
    }
    // `SPRING_DATA_MONGODB_HOST`, `SPRING_KAFKA_BOOTSTRAP_SERVERS`: a
    // Spring Boot data-store setting, a call with the store's protocol.
    if let Some(store) = super::stores::of_key(key) {
        let via = format!("env `{key}`");
        super::stores::push(Some(caller), store, value, span, &|_| span, &via, facts);
        return;
    }
    // One call of the variable: (callee, where, what the value says it
    // speaks, how it was read).
    let edge = |callee: String, at: crate::source::Span, protocol, via: String| CallEdge {
        client: None,
        caller: Some(caller.to_string()),
        callee,
        span: at,
        policies: Vec::new(),
        via,
        protocol,
    };
    let via = format!("env `{key}`");
    if !address_key(key) {
        // `AUTHORS_SITE: http://authors:7001`: a URL in a variable of any
        // other name, a call only toward a service the scan declares,
        // which the graph alone knows (`URL_VALUE_VIA`).
        if let Some(host) = url_value(key, value) {
            let via = format!("{via}{}", crate::model::calls::URL_VALUE_VIA);
            let protocol = crate::model::calls::Protocol::of_target(value);
            facts.edges.push(edge(host, span, protocol, via));
            return;
        }
        // `MYSQL_SERVICE: mysqldb.travel-agency:3306`, `PORTAL_SERVICES:
        // "voyages.fr;http://voyages.travel-portal:8000,.."`: a
        // `host:port`, or a list of URLs among other words (kiali/demos
        // 7ee39129 `travels/`), each a call toward a declared service the
        // same way; the protocol from the scheme, the port or the name.
        if key.to_ascii_uppercase().starts_with("AWS_") {
            return;
        }
        let via = format!("{via}{}", crate::model::calls::URL_VALUE_VIA);
        for (t, at) in items(value, span).into_iter().take(16) {
            if let Some(host) = url_value(key, t).or_else(|| host_port(t)) {
                let protocol = crate::model::calls::Protocol::of_target(t)
                    .or_else(|| super::env_protocol::of_key(key));
                facts.edges.push(edge(host, at, protocol, via.clone()));
            }
        }
        return;
    }
    // `http://payments-a:8080,http://payments-b:8080`: a client given a
    // list calls each address (failover or spreading), one edge per host.
    if value.contains(',') && !value.contains("${") {
        // The value's bytes start one later in a quoted scalar.
        let lead = usize::from(span.end - span.start == value.len() + 2);
        let mut at = 0usize;
        for item in value.split(',').take(16) {
            let start = span.start + lead + at + (item.len() - item.trim_start().len());
            at += item.len() + 1;
            let t = item.trim();
            if let Some(callee) = host_of(t).or_else(|| crate::model::calls::ip_literal(t)) {
                let at = crate::source::Span::new(start, start + t.len());
                let protocol = crate::model::calls::Protocol::of_target(t);
                facts.edges.push(edge(callee, at, protocol, via.clone()));
            }
        }
        return;
    }
    // A URL names its scheme (RFC 3986): a bare word in a `*_URL` entry is
    // a mode the program reads, not a host (`CLOUDANT_URL: 'local'`,
    // IBM/cloud-native-starter 62f55c4 `authors-nodejs/deployment/`).
    let upper = key.to_ascii_uppercase();
    let v = value.trim();
    if (upper.ends_with("URL") || upper.ends_with("URI"))
        && !v.is_empty()
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return;
    }
    let Some(host) = host_of(value) else {
        // `10.5.0.5:8080`: a service only where a manifest gives it that
        // address; the graph joins it or drops it.
        if let Some(ip) = crate::model::calls::ip_literal(value) {
            facts.edges.push(edge(ip, span, None, via));
            return;
        }
        // `${CART_ADDR}`: set where the file is used (`.env`, the shell).
        if value.contains("${") {
            let mut u = crate::model::UnresolvedCall::new(span, value.trim());
            u.caller = Some(caller.to_string());
            facts.unresolved.push(u);
        }
        return;
    };
    // The value says what the client speaks (`postgresql://`, a
    // well-known port), wherever the edge is shown: an `envFrom` entry
    // holds no value to read it from again.
    // The entry's name may say it where the value does not
    // (`GRPC_PRODUCT_HOST: product`).
    let protocol = crate::model::calls::Protocol::of_target(value)
        .or_else(|| super::env_protocol::of_key(key));
    facts.edges.push(edge(host, span, protocol, via));
}

/// The items of a list value (split at `,` and `;`), each with its span
/// in `span`, the value's (one later in a quoted scalar).
fn items(value: &str, span: crate::source::Span) -> Vec<(&str, crate::source::Span)> {
    let lead = usize::from(span.end - span.start == value.len() + 2);
    let mut out = Vec::new();
    let mut at = 0usize;
    for item in value.split([',', ';']) {
        let start = span.start + lead + at + (item.len() - item.trim_start().len());
        at += item.len() + 1;
        let t = item.trim();
        if !t.is_empty() {
            out.push((t, crate::source::Span::new(start, start + t.len())));
        }
    }
    out
}

/// The host of a `host:port` without a scheme (`mysqldb.shop:3306`),
/// the port a number: not a listen address (`:8000`, `0.0.0.0:8000`),
/// nor a time or a ratio of other words.
fn host_port(t: &str) -> Option<String> {
    let (host, port) = t.rsplit_once(':')?;
    let named = host.chars().any(|c| c.is_ascii_alphabetic())
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
    (named && port.parse::<u16>().is_ok_and(|p| p > 0))
        .then(|| host_of(t))
        .flatten()
}

/// The host of a variable's value that is one URL with a scheme
/// (`http://authors:7001`), for a variable whose name is no address's.
fn url_value(key: &str, value: &str) -> Option<String> {
    let v = value.trim();
    let (scheme, _) = v.split_once("://")?;
    let scheme_ok = !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.' | ':'));
    if !scheme_ok || v.contains(',') || key.to_ascii_uppercase().starts_with("AWS_") {
        return None;
    }
    host_of(v)
}

/// The service a URL or `host:port` names, if it names one.
pub fn host_of(value: &str) -> Option<String> {
    let v = value.trim();
    if v.is_empty() || v.contains("${") || v.contains("{{") || v.contains(' ') {
        return None;
    }
    let has_scheme = v.contains("://");
    let host = short_host(v);
    let plain = host
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_');
    if !plain || host.is_empty() || host == "localhost" || host.parse::<std::net::IpAddr>().is_ok()
    {
        return None;
    }
    // `http://FRONTEND_IP_ADDRESS`, `YOUR_HOST:8080`: a placeholder for
    // the reader to replace, written as a constant's name (no DNS name
    // has an underscore and no lower-case letter; compose's `my_db` has
    // both). Seen in bank-of-anthos `extras/postgres-hpa/loadgenerator.yaml`.
    if host.contains('_') && !host.chars().any(|c| c.is_ascii_lowercase()) {
        return None;
    }
    // Digits alone name no service: a Kubernetes Service's name is a
    // DNS-1035 label, which starts with a letter (kubernetes/kubernetes
    // `pkg/apis/core/validation/validation.go`: `ValidateServiceName =
    // NameIsDNS1035Label`): a number in such an entry is a count, as
    // `MAX_IDLE_CONNS_PER_HOST: "1000"` (knative eventing's
    // `imc-dispatcher`, in kubeflow/manifests 009c8808).
    if host.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    // A bare word is a host only in a `*_HOST`/`*_ADDR` style entry, which
    // the caller checked; a value with a scheme or port is clearly one.
    if !has_scheme
        && !v.contains(':')
        && !v.contains('.')
        && v.chars().any(|c| c.is_ascii_uppercase())
    {
        return None;
    }
    Some(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_word_in_a_url_entry_is_no_call() {
        let edges = |key: &str, value: &str| {
            let mut facts = Facts::default();
            push_edge(
                "authors",
                key,
                value,
                crate::source::Span::new(0, 1),
                &mut facts,
            );
            facts
                .edges
                .iter()
                .map(|e| e.callee.clone())
                .collect::<Vec<_>>()
        };
        assert!(edges("CLOUDANT_URL", "local").is_empty());
        assert!(edges("PAYMENTS_URI", "none").is_empty());
        assert_eq!(edges("CLOUDANT_URL", "http://cloudant:5984"), ["cloudant"]);
        assert_eq!(edges("ORDERS_URL", "orders:8080"), ["orders"]);
        // A bare word is a host in a `*_HOST` entry.
        assert_eq!(edges("REDIS_HOST", "redis"), ["redis"]);
    }

    #[test]
    fn hosts_from_env_values() {
        // A number in a `*_HOST` entry (`MAX_IDLE_CONNS_PER_HOST: "1000"`).
        assert_eq!(host_of("1000"), None);
        assert_eq!(
            host_of("http://payments:8080/api").as_deref(),
            Some("payments")
        );
        assert_eq!(
            host_of("payments.shop.svc.cluster.local:9090").as_deref(),
            Some("payments")
        );
        assert_eq!(host_of("ledger").as_deref(), Some("ledger"));
        // Placeholders written as constants' names are not hosts; a
        // compose service with an underscore is.
        assert_eq!(host_of("http://FRONTEND_IP_ADDRESS").as_deref(), None);
        assert_eq!(host_of("YOUR_HOST:8080").as_deref(), None);
        assert_eq!(host_of("http://my_db:5432").as_deref(), Some("my_db"));
        assert_eq!(host_of("http://localhost:8080"), None);
        assert_eq!(host_of("10.0.0.1:80"), None);
        assert_eq!(
            crate::model::calls::ip_literal("http://10.0.0.1:80/x").as_deref(),
            Some("10.0.0.1")
        );
        assert_eq!(
            crate::model::calls::ip_literal("[fd00::5]:80").as_deref(),
            Some("fd00::5")
        );
        assert_eq!(crate::model::calls::ip_literal("127.0.0.1:80"), None);
        assert_eq!(crate::model::calls::ip_literal("orders:80"), None);
        assert_eq!(host_of("${PAYMENTS}"), None);
        assert_eq!(
            host_of("https://api.stripe.com/v1").as_deref(),
            Some("api.stripe.com")
        );
    }
}
