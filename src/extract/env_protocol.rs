//! What an environment entry's call speaks when its value does not say
//! (issue 17, stop 52): a host with no scheme and no port
//! (`ORDER_QUEUE_HOSTNAME: rabbitmq`, `GRPC_PRODUCT_HOST: product`) names
//! no protocol, and a callee whose Service has an AMQP and an HTTP port
//! (a broker with its management page) says none either, so the call
//! was taken for HTTP and given a sidecar's HTTP retries.
//!
//! Two things beside the value say it:
//! - the entry's name, when one of its words names a protocol
//!   (`GRPC_PRODUCT_HOST`, `REDIS_HOSTNAME`, `KAFKA_ADDR`);
//! - the port entry written beside it, `<stem>_PORT` for `<stem>_HOST`,
//!   `_HOSTNAME`, `_ADDR`, `_ADDRESS` or `_SERVER` in the same list
//!   (`ORDER_QUEUE_PORT: "5672"`), when it is a well-known port
//!   ([`Protocol::of_port`]).

use super::Facts;
use crate::model::calls::Protocol;

/// Words of an entry's name that say what its call speaks. Only names of
/// one protocol or of a server of one: `tcp`, `tls` or `http` say how,
/// not what (`TLS_HOST` may wrap anything).
const KEY_WORDS: &[(&str, Protocol)] = &[
    ("grpc", Protocol::Grpc),
    ("redis", Protocol::Redis),
    ("amqp", Protocol::Amqp),
    ("rabbitmq", Protocol::Amqp),
    ("kafka", Protocol::Kafka),
    ("mongo", Protocol::Mongo),
    ("mongodb", Protocol::Mongo),
    ("postgres", Protocol::Sql),
    ("postgresql", Protocol::Sql),
    ("mysql", Protocol::Sql),
    ("mariadb", Protocol::Sql),
    ("mssql", Protocol::Sql),
    ("memcached", Protocol::Tcp),
    ("smtp", Protocol::Smtp),
];

/// The endings of a host entry whose port entry is `<stem>_PORT`.
const HOST_ENDINGS: &[&str] = &["_HOSTNAME", "_HOST", "_ADDRESS", "_ADDR", "_SERVER"];

/// The protocol the words of `key` name, when they name exactly one.
pub fn of_key(key: &str) -> Option<Protocol> {
    let mut found = None;
    for w in super::name_words::name_words(key) {
        if let Some((_, p)) = KEY_WORDS.iter().find(|(k, _)| *k == w) {
            match found {
                Some(f) if f != *p => return None,
                _ => found = Some(*p),
            }
        }
    }
    found
}

/// Give each call of `facts.edges[from..]` that says no protocol the one
/// its port entry says: `env` holds the (name, value) entries of the list
/// the calls were read from.
pub fn from_ports(facts: &mut Facts, from: usize, env: &[(String, String)]) {
    if env.is_empty() {
        return;
    }
    for e in facts.edges.iter_mut().skip(from) {
        if e.protocol.is_some() {
            continue;
        }
        let Some(name) = super::workload::env_name_of(&e.via) else {
            continue;
        };
        e.protocol = port_of(name, env);
    }
}

/// The well-known protocol of the `<stem>_PORT` entry beside `name`.
fn port_of(name: &str, env: &[(String, String)]) -> Option<Protocol> {
    let upper = name.to_ascii_uppercase();
    let stem = HOST_ENDINGS
        .iter()
        .find_map(|s| upper.strip_suffix(s))
        .filter(|s| !s.is_empty())?;
    let port_key = format!("{stem}_PORT");
    let (_, v) = env
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(&port_key))?;
    let port = v.trim().trim_matches(['"', '\'']).parse::<u16>().ok()?;
    Protocol::of_port(port)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_that_says_one_protocol() {
        assert_eq!(of_key("GRPC_PRODUCT_HOST"), Some(Protocol::Grpc));
        assert_eq!(of_key("REDIS_HOSTNAME"), Some(Protocol::Redis));
        assert_eq!(of_key("catalogGrpcAddr"), Some(Protocol::Grpc));
        assert_eq!(of_key("ORDER_QUEUE_HOSTNAME"), None);
        assert_eq!(of_key("TLS_HOST"), None);
        // Two protocols: which the call speaks is not said.
        assert_eq!(of_key("GRPC_REDIS_PROXY_HOST"), None);
    }

    #[test]
    fn the_port_beside_a_host() {
        let env = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let e = env(&[
            ("ORDER_QUEUE_HOSTNAME", "rabbitmq"),
            ("ORDER_QUEUE_PORT", "\"5672\""),
        ]);
        assert_eq!(port_of("ORDER_QUEUE_HOSTNAME", &e), Some(Protocol::Amqp));
        let e = env(&[("DB_HOST", "db"), ("db_port", "5432")]);
        assert_eq!(port_of("DB_HOST", &e), Some(Protocol::Sql));
        // An unknown port, another stem's port, no stem.
        let e = env(&[("API_HOST", "api"), ("API_PORT", "8080"), ("PORT", "6379")]);
        assert_eq!(port_of("API_HOST", &e), None);
        assert_eq!(port_of("HOST", &e), None);
    }
}
