//! The vocabulary of remote work (fifteenth pass): the one table the loop
//! reader consults for positive evidence that an attempt reaches another
//! machine ([`super::remote`]).
//!
//! Derived from the crates the readers already know (the HTTP and gRPC
//! clients of `src/extract/calls` and `clients.rs`, the AWS SDK and the
//! retry crates' targets of `eval`), the crates the loop fixtures and the
//! reviewed loops of `docs/loop-review.md` call (tikv, neon, qdrant, iggy,
//! surrealdb, hyperlane, linera, ldk-node, crates.io, AppFlowy), and the
//! usual network, RPC, storage and messaging clients. A crate is listed by
//! its first path segment as code names it (`aws_sdk_s3::..`); a prefix
//! ending in `_` stands for a family (`aws_sdk_`, `google_cloud_`).
//! Crates that mostly serve (web frameworks) or stay on this machine
//! (`rusqlite`, `sled`, `rocksdb`, `interprocess`) are not listed.

/// Crates whose paths and types are remote work: HTTP, gRPC and RPC
/// clients, databases and caches over the network, message brokers, object
/// stores and cloud SDKs, cluster coordinators, chain nodes' RPC clients.
pub(super) const CRATES: &[&str] = &[
    // HTTP and WebSocket clients
    "reqwest",
    "reqwest_middleware",
    "hyper",
    "hyper_util",
    "h2",
    "h3",
    "ureq",
    "isahc",
    "surf",
    "awc",
    "attohttpc",
    "curl",
    "tungstenite",
    "tokio_tungstenite",
    "async_tungstenite",
    "websocket",
    // transports and RPC
    "quinn",
    "tonic",
    "grpcio",
    "tarpc",
    "jsonrpsee",
    "jsonrpc",
    "capnp_rpc",
    "libp2p",
    "tokio_rustls",
    "tokio_native_tls",
    "native_tls",
    "russh",
    "ssh2",
    "openssh",
    "lettre",
    "ldap3",
    "trust_dns_resolver",
    "hickory_resolver",
    // databases and caches reached over the network
    "sqlx",
    "tokio_postgres",
    "postgres",
    "deadpool_postgres",
    "deadpool_redis",
    "bb8",
    "bb8_postgres",
    "bb8_redis",
    "mysql",
    "mysql_async",
    "tiberius",
    "sea_orm",
    "redis",
    "fred",
    "mongodb",
    "scylla",
    "cdrs_tokio",
    "clickhouse",
    "elasticsearch",
    "opensearch",
    "tikv_client",
    "qdrant_client",
    "meilisearch_sdk",
    "influxdb2",
    // messaging
    "rdkafka",
    "kafka",
    "rskafka",
    "lapin",
    "amiquip",
    "async_nats",
    "nats",
    "rumqttc",
    "paho_mqtt",
    "pulsar",
    "fluvio",
    "iggy",
    // object stores and cloud SDKs
    "object_store",
    "opendal",
    "aws_sdk_",
    "aws_smithy_",
    "rusoto_",
    "azure_",
    "google_cloud_",
    "gcp_",
    "s3",
    "rust_s3",
    "cloud_storage",
    // cluster coordinators
    "kube",
    "kube_client",
    "kube_runtime",
    "etcd_client",
    "etcd_rs",
    "zookeeper",
    "consul",
    // chain nodes' RPC clients
    "web3",
    "ethers",
    "ethers_providers",
    "alloy",
    "alloy_provider",
    "solana_client",
    "solana_rpc_client",
    "bitcoincore_rpc",
    "electrum_client",
    "esplora_client",
];

/// Standard and runtime modules whose listed types alone are remote
/// (`tokio::net::UnixStream` is not: the same host).
pub(super) const NET_MODULES: &[(&str, &[&str])] = &[
    ("std::net", &["TcpStream", "UdpSocket", "ToSocketAddrs"]),
    ("tokio::net", &["TcpStream", "UdpSocket", "lookup_host"]),
    ("async_std::net", &["TcpStream", "UdpSocket"]),
    ("smol::net", &["TcpStream", "UdpSocket"]),
];

/// Words of a receiver's or a value's name (split at `_` and case) that
/// name a client of another machine: a call on `self.pd_client`,
/// `conn`, `session`, `stub`, `channel`, `JsonRpcClient` is remote.
pub(super) const CLIENT_WORDS: &[&str] = &[
    "client",
    "clients",
    "conn",
    "connection",
    "connections",
    "session",
    "stub",
    "channel",
    "rpc",
    "http",
    "https",
    "grpc",
    "api",
    "transport",
    "remote",
    "upstream",
    "ws",
    "websocket",
    "s3",
    "bucket",
    "broker",
    "kafka",
    "producer",
    "redis",
    "etcd",
    "kube",
    "k8s",
    "pool",
    "peer",
    "peers",
    "db",
    "database",
    "storage",
    "store",
    "catalog",
    "connector",
];

/// Words of an attempted call's own name that are a remote operation
/// whatever it is called on (`connect_once`, `fetch_block`,
/// `send_request`, `upload_part`). `ipc_connect` and a Unix-domain socket
/// are local work, read before ([`super::reach`]).
pub(super) const REMOTE_CALL_WORDS: &[&str] = &[
    "connect",
    "reconnect",
    "dial",
    "request",
    "rpc",
    "http",
    "grpc",
    "fetch",
    "download",
    "upload",
    "publish",
    "subscribe",
];

/// Calls whose whole name is a remote operation: name resolution.
pub(super) const REMOTE_CALLS: &[&str] = &["to_socket_addrs", "lookup_host", "resolve_host"];

/// Methods that are a remote operation on whatever the attempt calls them
/// on (`queue.send(msg)`, `session.execute(q)`, `stub.call(req)`), unless
/// the receiver is an in-process sender ([`in_process_sender`]).
pub(super) const REMOTE_METHODS: &[&str] = &[
    "send", "request", "execute", "connect", "query", "call", "publish", "put", "post",
];

/// Whether a name (a method, a variant, a type) names a remote service's
/// refusal: rate limits and overload (`is_too_many_invalidations_error`,
/// `Throttled`, `RateLimited`, `ServiceOverloaded`).
pub(super) fn remote_failure_name(name: &str) -> bool {
    let w = words(name);
    let has = |x: &str| w.iter().any(|y| y == x);
    w.iter().any(|y| {
        y.starts_with("throttl")
            || matches!(
                y.as_str(),
                "ratelimit" | "ratelimited" | "overloaded" | "unavailable"
            )
    }) || (has("too") && has("many"))
        || (has("rate") && (has("limit") || has("limited")))
}

/// A receiver named for an in-process channel's sending end (`tx`,
/// `sender`, `events_tx`, `done_sender`, `sink`).
pub(super) fn in_process_sender(name: &str) -> bool {
    words(name)
        .iter()
        .any(|w| matches!(w.as_str(), "tx" | "sender" | "sink" | "notifier" | "signal"))
}

/// Names a remote call's failure carries: transport errors, gRPC codes,
/// HTTP statuses (`Code::Unavailable`, `StatusCode::BAD_GATEWAY`,
/// `ErrorKind::ConnectionRefused`, `e.is_connect()`).
pub(super) const REMOTE_ERRORS: &[&str] = &[
    "StatusCode",
    "Unavailable",
    "DeadlineExceeded",
    "ConnectionRefused",
    "ConnectionReset",
    "ConnectionAborted",
    "NotConnected",
    "HostUnreachable",
    "NetworkUnreachable",
    "TooManyRequests",
    "TOO_MANY_REQUESTS",
    "ServiceUnavailable",
    "SERVICE_UNAVAILABLE",
    "BadGateway",
    "BAD_GATEWAY",
    "GatewayTimeout",
    "GATEWAY_TIMEOUT",
    "is_connect",
    "is_timeout",
    "is_request",
    "is_server_error",
];

/// Words of a value's name that hold where a remote end is: a URL, an
/// endpoint, a host (handed to what a pass attempts).
/// Words of a value handed to a call that name a connection to another
/// machine (`Semaphore::acquire(client, ..)`, `run(&mut conn)`): narrower
/// than [`CLIENT_WORDS`], whose `store`, `pool` or `db` also name local
/// things an argument often is.
pub(super) const HANDLE_WORDS: &[&str] = &[
    "client",
    "clients",
    "conn",
    "connection",
    "connections",
    "session",
    "stub",
];

/// Words that make a name a property of a connection, not one (`session_id`,
/// `client_name`, `conn_timeout`).
pub(super) const PROPERTY_WORDS: &[&str] = &[
    "id", "ids", "name", "names", "key", "count", "timeout", "config", "opts", "options", "kind",
];

pub(super) const ADDRESS_WORDS: &[&str] = &["url", "urls", "uri", "endpoint", "endpoints", "host"];

/// URL schemes of remote ends in a string literal (`"https://.."`,
/// `"postgres://.."`; written without `://` here, so this table is not a
/// URL to the call reader); loopback hosts are waits, read before.
pub(super) const SCHEMES: &[&str] = &[
    "http",
    "https",
    "grpc",
    "grpcs",
    "ws",
    "wss",
    "postgres",
    "postgresql",
    "mysql",
    "redis",
    "rediss",
    "mongodb",
    "mongodb+srv",
    "amqp",
    "amqps",
    "nats",
    "kafka",
    "s3",
    "gs",
    "tcp",
];

/// Whether `first` (a path's first segment) is a listed crate.
pub(super) fn is_crate(first: &str) -> bool {
    CRATES
        .iter()
        .any(|c| first == *c || (c.ends_with('_') && first.starts_with(c)))
}

/// The words of an identifier, lower case: split at `_` and at case
/// changes (`JsonRpcClient` -> json, rpc, client; `pd_client` -> pd,
/// client; `HTTPClient` -> http, client).
pub(super) fn words(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in ident.split(|c: char| c == '_' || !c.is_alphanumeric()) {
        let cs: Vec<char> = part.chars().collect();
        let mut cur = String::new();
        for (i, &c) in cs.iter().enumerate() {
            let starts = i > 0
                && c.is_uppercase()
                && (cs[i - 1].is_lowercase()
                    || cs[i - 1].is_ascii_digit()
                    || cs.get(i + 1).is_some_and(|n| n.is_lowercase()));
            if starts && !cur.is_empty() {
                out.push(std::mem::take(&mut cur).to_ascii_lowercase());
            }
            cur.push(c);
        }
        if !cur.is_empty() {
            out.push(cur.to_ascii_lowercase());
        }
    }
    out
}

/// The first word of `ident` in `list`.
pub(super) fn word_in(ident: &str, list: &[&str]) -> Option<String> {
    words(ident)
        .into_iter()
        .find(|w| list.contains(&w.as_str()))
}

#[cfg(test)]
#[test]
fn identifiers_split_into_words_and_crates_match_by_family() {
    assert_eq!(words("JsonRpcClient"), ["json", "rpc", "client"]);
    assert_eq!(words("pd_client"), ["pd", "client"]);
    assert_eq!(words("HTTPClient"), ["http", "client"]);
    assert_eq!(words("connect_once"), ["connect", "once"]);
    assert!(is_crate("aws_sdk_s3") && is_crate("reqwest") && !is_crate("rusqlite"));
    assert_eq!(word_in("self_conn", CLIENT_WORDS).as_deref(), Some("conn"));
    assert_eq!(word_in("connection_manager", REMOTE_CALL_WORDS), None);
}
