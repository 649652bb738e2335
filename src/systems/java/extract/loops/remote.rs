//! Positive evidence that what a loop re-attempts reaches something
//! remote. A loop is a retry of a remote operation only when its condition
//! or body (the attempt that goes round, its catch clauses) shows one of:
//!
//! - a type of a network, RPC, storage or messaging package ([`NET_PACKAGES`],
//!   the one table): a receiver's declared type, a class called
//!   statically, an object created, a local declared, a caught exception;
//! - a receiver named like a remote endpoint ([`REMOTE_NOUNS`]: a client,
//!   connection, session, stub, channel, socket, proxy, api, peer, ..), in
//!   its name or its declared type's;
//! - a remote operation by its name ([`REMOTE_VERBS`]: connect, send,
//!   request, fetch, publish, replicate, ..) on a receiver not known local
//!   or as a method of the class;
//! - a URL or host value (a `://` literal other than `file:`/`classpath:`,
//!   a variable named `url`, `uri`, `host`);
//! - a kept response (a local whose type ends in `Response`);
//! - a caught exception of a remote failure ([`REMOTE_EXCEPTION_WORDS`]:
//!   socket, connect, remote, RPC, HTTP, transport, SQL, ZooKeeper, ..;
//!   `IOException` alone is not: the local disk throws it too);
//! - an operation handed in by the caller, called in the loop (a generic
//!   retry helper: `Callable<T> op` .. `op.call()`): the helper is the
//!   retry, whatever its callers hand it.
//!
//! A loop with none of these (its calls on the project's own types, a
//! local store, a state of this process) is not taken: unknown is not
//! remote. The loop's text only is read (plus the file's imports and
//! declarations): never a method body elsewhere, which the pruner may have
//! skipped.

use super::ast::{self, field};
use super::{Ctx, catches};
use crate::systems::java::extract::ast::Kind as _;
use tree_sitter::Node;

/// Package prefixes whose types reach another process: networking, HTTP,
/// RPC, databases, coordination, messaging, object stores, cloud SDKs.
/// (Gathered from the loop fixtures, the reviewed sets of
/// `docs/loop-review.md` and the other Java readers' clients.)
pub(super) const NET_PACKAGES: &[&str] = &[
    // The JDK's network, RMI, JDBC, naming and mail.
    "java.net.",
    "javax.net.",
    "java.rmi.",
    "javax.management.remote.",
    "java.sql.",
    "javax.sql.",
    "javax.naming.",
    "javax.mail.",
    "jakarta.mail.",
    "java.nio.channels.SocketChannel",
    "java.nio.channels.ServerSocketChannel",
    "java.nio.channels.AsynchronousSocketChannel",
    "java.nio.channels.DatagramChannel",
    // HTTP and REST clients.
    "org.apache.http.",
    "org.apache.hc.",
    "okhttp3.",
    "com.squareup.okhttp.",
    "retrofit2.",
    "feign.",
    "org.asynchttpclient.",
    "org.eclipse.jetty.client.",
    "io.vertx.core.http.",
    "io.vertx.ext.web.client.",
    "reactor.netty.",
    "javax.ws.rs.",
    "jakarta.ws.rs.",
    "javax.websocket.",
    "org.springframework.web.client.",
    "org.springframework.web.reactive.function.client.",
    "org.springframework.http.client.",
    // RPC.
    "io.grpc.",
    "org.apache.thrift.",
    "org.apache.avro.ipc.",
    "org.apache.dubbo.rpc.",
    "com.alibaba.dubbo.rpc.",
    "io.netty.channel.",
    "io.netty.bootstrap.",
    "io.netty.handler.codec.http",
    // Databases and JDBC drivers, pools and templates.
    "org.postgresql.",
    "com.mysql.",
    "oracle.jdbc.",
    "com.zaxxer.hikari.",
    "org.apache.commons.dbcp",
    "com.alibaba.druid.pool.",
    "org.springframework.jdbc.",
    "org.springframework.dao.",
    "org.springframework.data.redis.",
    "org.springframework.data.mongodb.",
    "com.datastax.driver.",
    "com.datastax.oss.driver.",
    "com.mongodb.",
    "org.mongodb.",
    "redis.clients.",
    "io.lettuce.",
    "org.redisson.",
    "org.elasticsearch.client.",
    "co.elastic.clients.",
    "org.opensearch.client.",
    "org.apache.solr.client.",
    // Coordination.
    "org.apache.zookeeper.",
    "org.apache.curator.",
    "org.I0Itec.zkclient.",
    "io.etcd.jetcd.",
    "com.ecwid.consul.",
    "com.orbitz.consul.",
    // Messaging.
    "org.apache.kafka.clients.",
    "org.apache.kafka.common.errors.",
    "org.apache.kafka.common.network.",
    "org.apache.kafka.common.requests.",
    "org.springframework.kafka.",
    "org.springframework.jms.",
    "org.springframework.amqp.",
    "javax.jms.",
    "jakarta.jms.",
    "org.apache.activemq.",
    "org.apache.qpid.",
    "com.rabbitmq.",
    "org.apache.pulsar.client.",
    "org.apache.rocketmq.client.",
    "org.apache.rocketmq.remoting.",
    "org.apache.bookkeeper.client.",
    // Hadoop, HDFS, HBase, YARN.
    "org.apache.hadoop.ipc.",
    "org.apache.hadoop.hdfs.",
    "org.apache.hadoop.fs.",
    "org.apache.hadoop.net.",
    "org.apache.hadoop.hbase.client.",
    "org.apache.hadoop.hbase.ipc.",
    "org.apache.hadoop.yarn.client.",
    // Cloud SDKs and object stores.
    "com.amazonaws.",
    "software.amazon.awssdk.",
    "com.google.cloud.",
    "com.google.api.gax.",
    "com.microsoft.azure.",
    "com.azure.",
    "com.aliyun.",
    "org.jclouds.",
    "io.minio.",
    "io.kubernetes.client.",
    "io.fabric8.kubernetes.client.",
    // Kerberos and JAAS logins (a KDC).
    "javax.security.auth.login.",
    "org.apache.hadoop.security.",
    // Remote shells and file transfer.
    "com.jcraft.jsch.",
    "org.apache.sshd.client.",
    "org.apache.commons.net.",
];

/// Words of a receiver's name or declared type that name a remote
/// endpoint or its handle (matched on the camel-case words).
const REMOTE_NOUNS: &[&str] = &[
    "client",
    "conn",
    "connection",
    "session",
    "stub",
    "channel",
    "socket",
    "proxy",
    "rpc",
    "http",
    "https",
    "api",
    "endpoint",
    "peer",
    "remote",
    "broker",
    "zk",
    "zoo",
    "curator",
    "jdbc",
    "producer",
    "consumer",
    "admin",
    "transport",
    "rest",
    "web",
    "gateway",
    "bucket",
    "s3",
    "kafka",
    "redis",
    "jedis",
    "mongo",
    "cassandra",
    "solr",
    "hbase",
    "hdfs",
    "dfs",
    "ftp",
    "sftp",
    "ssh",
    "ldap",
    "jndi",
    "mq",
    "leader",
    "master",
    "fs",
    "kinit",
    "kerberos",
    "krb",
    "kdc",
];

/// Compound nouns matched anywhere in the lowercased name.
/// (A file system or object store abstraction: HDFS, S3 and the like
/// behind a project's `FileIO`.)
const REMOTE_COMPOUNDS: &[&str] = &[
    "namenode",
    "datanode",
    "zookeeper",
    "datasource",
    "filesystem",
    "fileio",
    "objectstore",
];

/// Method names (lowercased prefixes) that are a remote operation.
const REMOTE_VERBS: &[&str] = &[
    "connect",
    "reconnect",
    "send",
    "request",
    "rpc",
    "invoke",
    "fetch",
    "download",
    "upload",
    "publish",
    "produce",
    "replicate",
    "handshake",
    "postfor",
    "login",
    "relogin",
];

/// Words of an exception's simple name that say a remote call failed.
const REMOTE_EXCEPTION_WORDS: &[&str] = &[
    "Socket",
    "Connect",
    "Remote",
    "Rpc",
    "RPC",
    "Http",
    "HTTP",
    "Transport",
    "Network",
    "UnknownHost",
    "NoRouteToHost",
    "Unavailable",
    "SQL",
    "Sql",
    "Keeper",
    "Jms",
    "JMS",
    "Thrift",
    "Grpc",
    "StatusRuntime",
    "Amazon",
    "Sdk",
    "Aws",
    "Mongo",
    "Jedis",
    "Redis",
    "Kafka",
    "Broker",
    "Leader",
    "DataAccess",
];

/// The package a type's simple or qualified name comes from, by the
/// file's imports (`None`: not imported, a wildcard, or this package).
fn import_of<'a>(ctx: &Ctx<'a>, ty: &'a str) -> Option<&'a str> {
    let base = ty
        .split('<')
        .next()
        .unwrap_or(ty)
        .trim_end_matches("[]")
        .trim();
    if base.contains('.') && base.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Some(base);
    }
    // `Outer.Inner`: the outer type's import.
    let first = base.split('.').next().unwrap_or(base);
    ctx.imports
        .iter()
        .copied()
        .find(|i| ast::last_segment(i) == first)
}

/// The type comes from a package of [`NET_PACKAGES`].
fn net_type(ctx: &Ctx<'_>, ty: &str) -> bool {
    import_of(ctx, ty).is_some_and(|i| NET_PACKAGES.iter().any(|p| i.starts_with(p)))
}

/// The lowercased camel-case words of a name (`restTemplate` -> `rest`,
/// `template`; `ZK_CLIENT` -> `zk`, `client`).
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let boundary = c.is_ascii_uppercase()
            && i > 0
            && (chars[i - 1].is_ascii_lowercase()
                || chars[i - 1].is_ascii_digit()
                || (chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase())
                    && chars[i - 1].is_ascii_uppercase()));
        if boundary && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn remote_noun(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    REMOTE_COMPOUNDS.iter().any(|w| l.contains(w))
        || words(name).iter().any(|w| {
            REMOTE_NOUNS.contains(&w.trim_end_matches('s')) || REMOTE_NOUNS.contains(&w.as_str())
        })
}

fn remote_exception(ctx: &Ctx<'_>, ty: &str) -> bool {
    let simple = ast::last_segment(ty.split('<').next().unwrap_or(ty));
    net_type(ctx, ty) || REMOTE_EXCEPTION_WORDS.iter().any(|w| simple.contains(w))
}

/// Types whose receivers are a function handed in (a generic helper's
/// operation).
fn operation_type(ty: &str) -> bool {
    let base = ast::last_segment(ty.split('<').next().unwrap_or(ty).trim());
    [
        "Callable",
        "Supplier",
        "Function",
        "Operation",
        "Action",
        "Runnable",
        "Command",
        "Task",
    ]
    .iter()
    .any(|w| base.ends_with(w) || base.contains(&format!("{w}With")))
}

/// What in the loop shows a remote attempt, for the reasons; `None` when
/// nothing does.
pub(super) fn evidence(ctx: &Ctx<'_>, lp: Node<'_>) -> Option<String> {
    evidence_in(ctx, lp, true)
}

/// [`evidence`] in a method read for the link step: an operation handed
/// in there is not the loop's (`helper` off).
pub(super) fn method_evidence(ctx: &Ctx<'_>, m: Node<'_>) -> Option<String> {
    evidence_in(ctx, m, false)
}

fn evidence_in(ctx: &Ctx<'_>, lp: Node<'_>, helper: bool) -> Option<String> {
    for d in ctx.descendants(lp) {
        if given_up_in_handler(ctx, d, lp) {
            continue;
        }
        let found = match d.kind_str() {
            "catch_clause" => catches::catch_types(ctx, d)
                .into_iter()
                .find(|(t, _)| remote_exception(ctx, t))
                .map(|(t, _)| format!("a remote failure is caught (`{t}`)")),
            "method_invocation" => call_evidence(ctx, d, lp, helper),
            "object_creation_expression" => field(d, "type")
                .map(|t| ctx.text(t))
                .filter(|t| net_type(ctx, t) || remote_noun(ast::last_segment(t)))
                .map(|t| format!("a remote client or request is made (`new {t}`)")),
            "local_variable_declaration" => field(d, "type").map(|t| ctx.text(t)).and_then(|t| {
                if net_type(ctx, t) {
                    Some(format!("a `{t}` of a network package is used"))
                } else {
                    // The answer of a request (`LocatorStatusResponse
                    // response = statusFor(port, address)`).
                    words(ast::last_segment(t))
                        .last()
                        .is_some_and(|w| w == "response")
                        .then(|| format!("a response is kept (`{t}`)"))
                }
            }),
            "string_literal" => {
                let s = ctx.text(d);
                (s.contains("://") && !s.contains("file:") && !s.contains("classpath:"))
                    .then(|| format!("a URL is named ({s})"))
            }
            "identifier"
                if ctx
                    .parent(d)
                    .or_else(|| d.parent())
                    .is_some_and(|a| a.kind_str() == "argument_list") =>
            {
                // A remote endpoint handed to the call (`trigger(broker)`,
                // `addPeer(group, conf, self)` with a `PeerId self`).
                let name = ctx.text(d);
                let ty = ctx.var(name, d).map_or("", |v| v.ty);
                (!super::reach::local_type(ctx, ty)
                    && (net_type(ctx, ty)
                        || remote_noun(name)
                        || remote_noun(ast::last_segment(ty))
                        || url_name(name)))
                .then(|| format!("a remote endpoint is handed to the call (`{name}`)"))
            }
            "identifier" => {
                let name = ctx.text(d);
                url_name(name).then(|| format!("a URL or host is handed on (`{name}`)"))
            }
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A class named a server (`HttpServer`, `RpcServer`): this process's own,
/// so its own methods (`bind()`, `closeChannels()`) reach no other one
/// (asterixdb `HttpServer.recover`, stop 52).
pub(super) fn server_class(name: &str) -> bool {
    words(name).last().is_some_and(|w| w == "server")
}

/// A node in a catch handler of the loop, inside a try of its own whose
/// every catch leaves (`catch (BlockExhausted e) { try { fresh =
/// Supplier.send(..); } catch (IOException x) { throw new X(x); } }`): a
/// step taken after the failure whose own failure gives up, so it is not
/// what goes round (asterixdb `CachingTxnIdFactory.create`, stop 52). A
/// bare `reconnect()` in a handler is not this: it is kept as evidence.
pub(super) fn given_up_in_handler(ctx: &Ctx<'_>, d: Node<'_>, lp: Node<'_>) -> bool {
    let mut n = d;
    let mut own_try = false;
    // The parent from `Ctx`'s map (tree-sitter's `parent` walks down from
    // the root each time: 28 M instructions of apache/zookeeper 53a78e36).
    while let Some(p) = ctx.parent(n).or_else(|| n.parent()) {
        if p.id() == lp.id() {
            return false;
        }
        match p.kind_str() {
            "try_statement" if !own_try && field(p, "body").is_some_and(|b| b.id() == n.id()) => {
                let catches: Vec<Node<'_>> = ctx
                    .named_children(p)
                    .into_iter()
                    .filter(|c| c.kind_str() == "catch_clause")
                    .collect();
                own_try = !catches.is_empty()
                    && catches.iter().all(|c| {
                        field(*c, "body")
                            .and_then(|b| ctx.named_children(b).last().copied())
                            .is_some_and(|l| super::helpers::leaves(ctx, l))
                    });
                if !own_try {
                    return false;
                }
            }
            "catch_clause" if own_try => return true,
            _ => {}
        }
        n = p;
    }
    false
}

/// A variable named for a URL or a host.
fn url_name(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.ends_with("url")
        || l.ends_with("uri")
        || l.ends_with("host")
        || l == "hostname"
        || l == "hostandport"
}

fn call_evidence(ctx: &Ctx<'_>, d: Node<'_>, lp: Node<'_>, helper: bool) -> Option<String> {
    let name = field(d, "name").map_or("", |n| ctx.text(n));
    let lname = name.to_ascii_lowercase();
    let verb = REMOTE_VERBS.iter().any(|v| lname.starts_with(v));
    let own_class = || {
        ctx.ancestor(d, &["class_declaration", "interface_declaration"])
            .and_then(|c| field(c, "name"))
            .map_or("", |n| ctx.text(n))
    };
    let Some(o) = field(d, "object")
        .map(ast::unwrap_expr)
        .filter(|o| o.kind_str() != "this")
    else {
        // A method of this class: its name, or the class's (a file
        // system abstraction's own retry), unless it is a server.
        if remote_noun(own_class()) && !server_class(own_class()) {
            return Some(format!(
                "`{name}(..)` is a method of `{}`, a remote endpoint or store",
                own_class()
            ));
        }
        return verb.then(|| format!("a remote operation is called (`{name}(..)`)"));
    };
    let (var_name, var) = match o.kind_str() {
        "identifier" => (ctx.text(o), ctx.var(ctx.text(o), o)),
        "field_access" if field(o, "object").is_some_and(|x| ctx.text(x) == "this") => {
            let f = field(o, "field")?;
            (ctx.text(f), ctx.var(ctx.text(f), f))
        }
        _ => {
            // A chain: its root's.
            let c = ast::chain(d, ctx.src);
            let root = c.root?;
            if root.kind_str() != "identifier" {
                return None;
            }
            (ctx.text(root), ctx.var(ctx.text(root), root))
        }
    };
    let ty = var.map_or("", |v| v.ty);
    let local_ty = super::reach::local_type(ctx, ty);
    if let Some(v) = var {
        if net_type(ctx, ty) {
            return Some(format!("`{var_name}` is a `{ty}` of a network package"));
        }
        // A function handed in by the caller (a parameter, or a field
        // the constructor was handed), called here: a generic retry
        // helper (its callers decide what is retried).
        if helper
            && operation_type(ty)
            && (v.scope.is_none()
                || (v.node.kind_str() == "formal_parameter"
                    && ctx
                        .enclosing_method(lp)
                        .is_some_and(|(m, _)| ast::within(v.node, m))))
        {
            return Some(format!(
                "a generic retry helper: the operation is handed in (`{var_name}`, a `{ty}`)"
            ));
        }
    } else if var_name.starts_with(|c: char| c.is_ascii_uppercase()) && net_type(ctx, var_name) {
        return Some(format!("`{var_name}` is a class of a network package"));
    }
    if local_ty {
        return None;
    }
    if remote_noun(var_name) || (!ty.is_empty() && remote_noun(ast::last_segment(ty))) {
        return Some(format!(
            "`{var_name}.{name}(..)` is called on a remote endpoint or its handle"
        ));
    }
    verb.then(|| format!("a remote operation is called (`{var_name}.{name}(..)`)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_camel_case_and_underscores() {
        assert_eq!(words("restTemplate"), ["rest", "template"]);
        assert_eq!(words("ZK_CLIENT"), ["zk", "client"]);
        assert_eq!(words("HTTPClient"), ["http", "client"]);
        assert_eq!(words("s3Client"), ["s3", "client"]);
    }

    #[test]
    fn nouns_are_whole_words() {
        assert!(remote_noun("kafkaProducer"));
        assert!(remote_noun("nameNode"));
        assert!(remote_noun("clients"));
        assert!(!remote_noun("region"));
        assert!(!remote_noun("apiary"));
        assert!(!remote_noun("loadMonitor"));
        assert!(!remote_noun("segment"));
    }
}
