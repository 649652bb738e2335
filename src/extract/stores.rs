//! Spring Boot's data-store connection properties as calls (issue 17):
//! `spring.data.mongodb.host: ts-order-mongo` is a call from the program
//! to `ts-order-mongo` over MongoDB, which no L7 retry layer handles. The
//! same keys set in a workload's or compose service's environment
//! (`SPRING_DATA_MONGODB_HOST`, Spring Boot's relaxed binding) are read
//! by [`of_key`] too, so one table serves the `application*` reader and
//! the environment reader.
//!
//! The keys, from Spring Boot's own `@ConfigurationProperties` classes
//! (spring-projects/spring-boot, `spring-boot-autoconfigure`):
//! - `MongoProperties` (`spring.data.mongodb` up to Boot 3.x,
//!   `spring.mongodb` from 4.0, where the old keys are no longer bound:
//!   `spring-boot-mongodb` 4.x metadata, `replacement =
//!   "spring.mongodb.uri"`, `since = "4.0.0"`): `host` (unset: the
//!   driver's `localhost`), `uri` (`mongodb://[user:pw@]h1[:p],h2/db`,
//!   `mongodb+srv://`);
//! - `DataSourceProperties` (`spring.datasource`): `url`, a JDBC URL
//!   (`jdbc:postgresql://h:5432/db`, `jdbc:mysql://h1,h2/db`,
//!   `jdbc:sqlserver://h:1433;databaseName=x`,
//!   `jdbc:oracle:thin:@h:1521:sid`); an embedded database
//!   (`jdbc:h2:mem:`, `jdbc:hsqldb:`, `jdbc:derby:`) calls nobody;
//!   `R2dbcProperties` (`spring.r2dbc.url`, `r2dbc:postgresql://h/db`);
//! - `RedisProperties`: `spring.redis` up to Boot 2.7, `spring.data.redis`
//!   from 3.0 (`host` default `"localhost"`, `url` `redis://...`,
//!   `sentinel.nodes` and `cluster.nodes` lists of `host:port`; read at
//!   015e79095c95 `autoconfigure/data/redis/RedisProperties.java`);
//! - `RabbitProperties` (`spring.rabbitmq`): `host` (default
//!   `localhost`), `addresses` (`h1:5672,h2`, or `amqp://user:pw@h/vhost`);
//! - `KafkaProperties` (`spring.kafka`): `bootstrap-servers` (default
//!   `localhost:9092`), and the same key under `consumer`, `producer`,
//!   `admin`, `streams`; Spring Cloud Stream's Kafka binder `brokers`.
//! - `MailProperties` (`spring.mail`): `host`, "SMTP server host", with
//!   `protocol` default `"smtp"` (spring-boot 000600c
//!   `autoconfigure/mail/MailProperties.java`): a mail server, which no
//!   HTTP layer retries.
//!
//! A default (`localhost`) or an unset key names no call: Spring's
//! defaults are this machine.

use crate::extract::Facts;
use crate::model::calls::{Protocol, ip_literal};
use crate::model::{CallEdge, UnresolvedCall};
use crate::source::Span;

/// How a store key's value is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One host name (`host`).
    Host,
    /// A URL or a comma-separated list of `host[:port]` or URLs.
    List,
}

/// The keys, with every separator dropped and lower-cased (relaxed
/// binding: `spring.data.mongodb.host`, `SPRING_DATA_MONGODB_HOST` and
/// `spring.kafka.bootstrap-servers` / `SPRING_KAFKA_BOOTSTRAPSERVERS` /
/// `SPRING_KAFKA_BOOTSTRAP_SERVERS` all meet).
const KEYS: &[(&str, Protocol, Shape)] = &[
    ("springdatamongodbhost", Protocol::Mongo, Shape::Host),
    ("springdatamongodburi", Protocol::Mongo, Shape::List),
    ("springmongodbhost", Protocol::Mongo, Shape::Host),
    ("springmongodburi", Protocol::Mongo, Shape::List),
    ("springdatasourceurl", Protocol::Sql, Shape::List),
    ("springr2dbcurl", Protocol::Sql, Shape::List),
    ("springredishost", Protocol::Redis, Shape::Host),
    ("springredisurl", Protocol::Redis, Shape::List),
    ("springredissentinelnodes", Protocol::Redis, Shape::List),
    ("springredisclusternodes", Protocol::Redis, Shape::List),
    ("springdataredishost", Protocol::Redis, Shape::Host),
    ("springdataredisurl", Protocol::Redis, Shape::List),
    ("springdataredissentinelnodes", Protocol::Redis, Shape::List),
    ("springdataredisclusternodes", Protocol::Redis, Shape::List),
    ("springrabbitmqhost", Protocol::Amqp, Shape::Host),
    ("springrabbitmqaddresses", Protocol::Amqp, Shape::List),
    ("springmailhost", Protocol::Smtp, Shape::Host),
    ("springkafkabootstrapservers", Protocol::Kafka, Shape::List),
    (
        "springkafkaconsumerbootstrapservers",
        Protocol::Kafka,
        Shape::List,
    ),
    (
        "springkafkaproducerbootstrapservers",
        Protocol::Kafka,
        Shape::List,
    ),
    (
        "springkafkaadminbootstrapservers",
        Protocol::Kafka,
        Shape::List,
    ),
    (
        "springkafkastreamsbootstrapservers",
        Protocol::Kafka,
        Shape::List,
    ),
    (
        "springcloudstreamkafkabinderbrokers",
        Protocol::Kafka,
        Shape::List,
    ),
];

/// At most this many targets are read from one value.
const MAX_TARGETS: usize = 16;

/// The store a property or environment variable names, in any of
/// Spring's spellings; a list index (`nodes[0]`, `NODES_0_`) is dropped.
pub fn of_key(key: &str) -> Option<(Protocol, Shape)> {
    let mut k: String = key
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '[')
        .collect::<String>()
        .to_ascii_lowercase();
    if let Some(i) = k.find('[') {
        k.truncate(i);
    }
    let k = k.trim_end_matches(|c: char| c.is_ascii_digit());
    KEYS.iter()
        .find(|(name, _, _)| *name == k)
        .map(|(_, p, s)| (*p, *s))
}

/// The hosts a store value names (`host[:port]`), each with its byte
/// range in `value`: a list's items, a URL's hosts (`mongodb://a:1,b:2/db`,
/// `jdbc:mysql://a,b/db`, `jdbc:oracle:thin:@h:1521:sid`). Embedded
/// databases, placeholders and empty items give none.
pub fn targets(shape: Shape, value: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    if shape == Shape::Host {
        let t = value.trim();
        if !t.is_empty() {
            let at = value.find(t).unwrap_or(0);
            out.push((t.to_string(), at..at + t.len()));
        }
        return out;
    }
    let mut start = 0usize;
    for item in value.split(',') {
        let range = start..start + item.len();
        start += item.len() + 1;
        if out.len() >= MAX_TARGETS {
            break;
        }
        let lead = item.len() - item.trim_start().len();
        let t = item.trim();
        if t.is_empty() {
            continue;
        }
        // The authority of a URL (after the scheme and user info) up to
        // its path; the first item of `scheme://a:1,b:2/db` carries the
        // scheme, the others are bare `host:port[/db]`.
        let (skip, rest) = match t.find("://") {
            Some(i) => (i + 3, &t[i + 3..]),
            None => match t.strip_prefix("jdbc:oracle:") {
                // `jdbc:oracle:thin:@host:1521:sid`, `@//host:1521/svc`.
                Some(r) => match r.find('@') {
                    Some(j) => {
                        let after = r[j + 1..].trim_start_matches('/');
                        (t.len() - after.len(), after)
                    }
                    None => continue,
                },
                None if t.contains(':') && t.starts_with("jdbc:") => continue,
                None => (0, t),
            },
        };
        let (skip, rest) = match rest.find(['/', ';', '?']) {
            Some(i) => (skip, &rest[..i]),
            None => (skip, rest),
        };
        let (skip, host) = match rest.rfind('@') {
            Some(i) => (skip + i + 1, &rest[i + 1..]),
            None => (skip, rest),
        };
        // Oracle's `host:1521:sid`: the host.
        let host = if t.starts_with("jdbc:oracle:") {
            host.split(':').next().unwrap_or(host)
        } else {
            host
        };
        if host.is_empty() || host.contains("${") {
            continue;
        }
        let at = range.start + lead + skip;
        out.push((host.to_string(), at..at + host.len()));
    }
    out
}

/// The calls a store value makes, pushed on `facts`: an edge to each
/// host it names (not this machine), with the store's protocol; a value
/// that is a placeholder nothing resolved is listed as unresolved, with
/// the protocol its call will have. `span_of` gives the source span of a
/// byte range of `value`; `whole` is the value's. Returns whether any call
/// was pushed.
pub fn push(
    caller: Option<&str>,
    (protocol, shape): (Protocol, Shape),
    value: &str,
    whole: Span,
    span_of: &dyn Fn(std::ops::Range<usize>) -> Span,
    via: &str,
    facts: &mut Facts,
) -> bool {
    if value.contains("${") && value.trim_start().starts_with("${") {
        let mut u = UnresolvedCall::new(whole, value.trim());
        u.caller = caller.map(str::to_string);
        u.protocol = Some(protocol);
        facts.unresolved.push(u);
        return true;
    }
    let mut pushed = false;
    for (target, range) in targets(shape, value) {
        let callee = match crate::extract::workload::host_of(&target) {
            Some(h) => h,
            None => match ip_literal(&target) {
                Some(ip) => ip,
                None => continue,
            },
        };
        facts.edges.push(CallEdge {
            caller: caller.map(str::to_string),
            callee,
            span: span_of(range),
            policies: Vec::new(),
            via: via.to_string(),
            client: None,
            protocol: Some(protocol),
        });
        pushed = true;
    }
    pushed
}

/// The store calls of one Spring configuration document's properties
/// (`application*.yml`/`.properties`, a ConfigMap's embedded file).
pub fn from_props(props: &[crate::extract::prop::Prop], caller: Option<&str>, facts: &mut Facts) {
    for p in props {
        let key = p.key();
        let Some(store) = of_key(&key) else { continue };
        let pushed = push(
            caller,
            store,
            &p.value,
            p.value_span,
            &|r| p.sub_span(r),
            &format!("`{key}`"),
            facts,
        );
        // `spring.rabbitmq.host=${RABBITMQ_HOST:localhost}`: the default
        // is a developer's machine, and the deployed host is the
        // variable's. Listed with the store's protocol, so that the link
        // step reads the placeholder at the span again and joins the
        // workload's entry, which then speaks the store's protocol too
        // (a placeholder stood here: each of its bytes maps to the whole
        // `${..}`, at least four bytes).
        if !pushed && p.value_map.iter().any(|s| s.end - s.start >= 4) {
            let mut u = UnresolvedCall::new(p.value_span, p.value.trim());
            u.caller = caller.map(str::to_string);
            u.protocol = Some(store.0);
            facts.unresolved.push(u);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts(shape: Shape, v: &str) -> Vec<String> {
        targets(shape, v)
            .into_iter()
            .map(|(h, r)| {
                assert_eq!(&v[r], h, "range of {h} in {v}");
                h
            })
            .collect()
    }

    #[test]
    fn keys_in_every_spelling() {
        for k in [
            "spring.data.mongodb.host",
            "SPRING_DATA_MONGODB_HOST",
            "spring.data.mongodb.uri",
            "spring.mongodb.host",
        ] {
            assert_eq!(of_key(k).unwrap().0, Protocol::Mongo, "{k}");
        }
        for k in [
            "spring.kafka.bootstrap-servers",
            "SPRING_KAFKA_BOOTSTRAP_SERVERS",
            "spring.kafka.bootstrapServers",
            "spring.kafka.producer.bootstrap-servers",
            "spring.kafka.bootstrap-servers[0]",
        ] {
            assert_eq!(of_key(k).unwrap().0, Protocol::Kafka, "{k}");
        }
        assert_eq!(of_key("spring.redis.host").unwrap().0, Protocol::Redis);
        assert_eq!(
            of_key("spring.data.redis.cluster.nodes[1]").unwrap(),
            (Protocol::Redis, Shape::List)
        );
        assert_eq!(of_key("SPRING_DATASOURCE_URL").unwrap().0, Protocol::Sql);
        assert_eq!(
            of_key("spring.rabbitmq.addresses").unwrap().0,
            Protocol::Amqp
        );
        assert_eq!(of_key("SPRING_MAIL_HOST").unwrap().0, Protocol::Smtp);
        assert_eq!(of_key("spring.mail.port"), None);
        assert_eq!(of_key("spring.data.mongodb.port"), None);
        assert_eq!(of_key("spring.datasource.username"), None);
        assert_eq!(of_key("orders.url"), None);
    }

    #[test]
    fn hosts_of_urls_and_lists() {
        assert_eq!(hosts(Shape::Host, " ts-order-mongo "), ["ts-order-mongo"]);
        assert_eq!(
            hosts(
                Shape::List,
                "mongodb://u:p@m1:27017,m2:27017/db?replicaSet=rs"
            ),
            ["m1:27017", "m2:27017"]
        );
        assert_eq!(
            hosts(Shape::List, "jdbc:postgresql://pg:5432/orders"),
            ["pg:5432"]
        );
        assert_eq!(
            hosts(Shape::List, "jdbc:mysql://db1,db2:3307/shop"),
            ["db1", "db2:3307"]
        );
        assert_eq!(
            hosts(Shape::List, "jdbc:sqlserver://mssql:1433;databaseName=x"),
            ["mssql:1433"]
        );
        assert_eq!(hosts(Shape::List, "jdbc:oracle:thin:@ora:1521:XE"), ["ora"]);
        assert_eq!(
            hosts(Shape::List, "jdbc:oracle:thin:@//ora2:1521/svc"),
            ["ora2"]
        );
        assert!(hosts(Shape::List, "jdbc:h2:mem:testdb").is_empty());
        assert!(hosts(Shape::List, "jdbc:hsqldb:file:db").is_empty());
        assert_eq!(
            hosts(Shape::List, "kafka-0:9092, kafka-1:9092"),
            ["kafka-0:9092", "kafka-1:9092"]
        );
        assert_eq!(
            hosts(Shape::List, "amqp://guest:guest@rabbit:5672/vh"),
            ["rabbit:5672"]
        );
        assert!(hosts(Shape::List, "${KAFKA}").is_empty());
        assert!(hosts(Shape::List, " , ").is_empty());
    }
}
