//! Call sites in source code, found without retry words: the pre-pass
//! that gives the graph its edges from every Java and Rust file.
//!
//! A file is worth reading for calls when one multi-pattern search
//! ([`wants`]) finds a candidate call site: a URL literal, `lb://`, a gRPC
//! channel, an HTTP client type (`RestTemplate`, `WebClient`,
//! `RestClient`, Feign, `HttpClient`, `reqwest`, `tonic`), or a lookup of
//! a URL-like setting (`System.getenv`, `@Value`, `std::env::var`). Only
//! such files are read, and only lexically ([`lex`]): the string literals
//! outside comments, with the calls each is an argument of. A file that
//! also holds retry code is parsed by its language's reader, which asks
//! [`target`] the same question about each literal.
//!
//! A literal is a call target when a URL with a host starts it (or a
//! Spring `${key:default}` whose default is one), and it is not an
//! argument of a log call, an exception, an assertion, an annotation or
//! attribute, or a documentation setter; IP literals, `localhost` and
//! documentation hosts give no edge. A target that names a placeholder,
//! an environment variable or a formatted host is listed in
//! [`Facts::unresolved`], never guessed.

pub mod beans;
pub mod clients;
pub mod data_urls;
pub mod doc_fields;
mod env_default;
pub mod lex;
pub mod properties;

mod camel;
#[cfg(test)]
mod tests;

use super::Facts;
use crate::model::{CallEdge, UnresolvedCall};
use crate::source::Span;
use lex::{Lang, Lit};

/// Substrings that make a source file worth reading for calls.
pub const NEEDLES: &[&str] = &[
    "\"http://",
    "\"https://",
    "\"grpc://",
    "\"h2c://",
    "\"lb://",
    // Apache Camel's routes, for their HTTP producer endpoints
    // (`camel::http_endpoint`). One word, not one per endpoint form: past
    // 32 words the sniff's searcher (aho-corasick's Teddy) takes its
    // slower wide form, 150 M instructions more on envoyproxy/gateway.
    "org.apache.camel",
    "\"dns:///",
    "\"${",
    "RestTemplate",
    "WebClient",
    "RestClient",
    "FeignClient",
    "HttpClient",
    "ManagedChannelBuilder",
    "forAddress(",
    "reqwest",
    "tonic",
    "getenv(",
    "getInstances(",
    "LoadBalancerClient",
    // A Spring HTTP interface client (its base URL may be a field).
    "HttpServiceProxyFactory",
    // A data store's URL (`store_url`).
    "\"jdbc:",
    "\"mongodb",
    "\"redis",
    "\"amqp",
    "\"postgres",
    "\"mysql://",
    // Base URLs bound to a properties class's fields.
    "@ConfigurationProperties",
    "@Value(",
    "env::var(",
    // Rust test modules declared in their own file.
    "#[cfg(test)]",
];

pub use env_default::apply as env_defaults;

/// Whether a source file may hold a call site.
pub fn wants(bytes: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<super::Needles> =
        std::sync::LazyLock::new(|| super::Needles::new(NEEDLES.iter().copied()));
    FINDER.any_in(bytes)
}

/// What the edges of a language are shown as (`CallEdge::via`).
fn via(lang: Lang) -> &'static str {
    match lang {
        Lang::Java => "URL literal in Java",
        Lang::Rust => "URL literal",
    }
}

/// Read a file's call sites lexically: every call-target literal becomes
/// an edge (unless `known` already holds an edge at its span), every
/// unresolvable one an [`UnresolvedCall`]. Rust test modules declared
/// with `#[cfg(test)] mod x;` are recorded for the link step.
pub fn extract(text: &str, lang: Lang, facts: &mut Facts) {
    let lexed = lex::lex(text, lang);
    let known: std::collections::HashSet<(usize, usize)> = facts
        .edges
        .iter()
        .map(|e| (e.span.start, e.span.end))
        .collect();
    let documented = if lang == Lang::Java {
        doc_fields::documentation_only(text, &lexed.lits)
    } else {
        Default::default()
    };
    // Public sites' URLs written as data (a profile's links, sample rows).
    let data = data_urls::data_urls(text, &lexed.lits);
    for lit in &lexed.lits {
        if documented.contains(&lit.span.start) || data.contains(&lit.span.start) {
            continue;
        }
        match target(text, lit) {
            Target::Host(host) => {
                if !known.contains(&(lit.span.start, lit.span.end)) {
                    facts.edges.push(CallEdge {
                        client: None,
                        caller: None,
                        // As each language's reader names it.
                        callee: match lang {
                            Lang::Java => host,
                            Lang::Rust => super::short_host(&host),
                        },
                        span: lit.span,
                        policies: Vec::new(),
                        via: via(lang).into(),
                        protocol: text
                            .get(lit.content.start..lit.content.end)
                            .and_then(|w| store_url(w.trim_start()))
                            .map(|(_, p)| p),
                    });
                }
            }
            Target::Unresolved(what) => facts.unresolved.push(UnresolvedCall::new(lit.span, what)),
            Target::None => {}
        }
    }
    if lang == Lang::Java {
        env_default::apply(text, &lexed.lits, &mut facts.unresolved, &mut facts.edges);
        facts.java.doc_keys = doc_fields::doc_keys(text, &lexed.lits, &documented);
        facts.java.client_uses = clients::client_uses(text, &lexed.lits);
        facts.java.client_beans = beans::property_refs(text, &lexed.lits);
        facts.java.bound_beans = properties::bean_bound(text, &lexed.lits);
        for (span, written) in properties::configuration_properties(text, &lexed.lits) {
            facts.unresolved.push(UnresolvedCall::new(span, written));
        }
    }
    if lang == Lang::Rust {
        facts.rust.test_modules = lexed.test_modules.into_iter().map(|(n, _)| n).collect();
    }
    if !facts.edges.is_empty()
        || !facts.unresolved.is_empty()
        || !facts.java.client_uses.is_empty()
        || !facts.java.client_beans.is_empty()
        || !facts.java.doc_keys.is_empty()
        || !facts.java.bound_beans.is_empty()
    {
        facts.claimed_by("calls");
    }
}

/// What a string literal is, as a call site.
#[derive(Debug, PartialEq, Eq)]
pub enum Target {
    /// A call to this host (`orders:8080`).
    Host(String),
    /// A call whose target is not written here: the text as written.
    Unresolved(String),
    /// Not a call target.
    None,
}

/// Whether `lit` is a call target, and to what.
pub fn target(text: &str, lit: &Lit) -> Target {
    let Some(s) = text.get(lit.content.start..lit.content.end) else {
        return Target::None;
    };
    if lit.within.iter().any(|w| message_sink(w)) || documentation_field(text, lit.span.start) {
        return Target::None;
    }
    // A URL compared with or cut from another string
    // (`url.starts_with("http://")`, `s.replace("https://", "")`) is a
    // pattern, not a call.
    if lit
        .within
        .last()
        .is_some_and(|call| string_test(last_segment(call)))
    {
        return Target::None;
    }
    let s = s.trim_start();
    // A gRPC channel's address: `forAddress("orders", 9090)`,
    // `forTarget("dns:///orders:9090")`.
    if let Some(call) = lit.within.last()
        && matches!(last_segment(call), "forAddress" | "forTarget")
    {
        let bare = s.strip_prefix("dns:///").unwrap_or(s);
        let host = bare.split(':').next().unwrap_or("");
        return host_target(host, bare);
    }
    // A service id looked up in Spring Cloud's registry:
    // `discoveryClient.getInstances("customers")` (`DiscoveryClient`),
    // `loadBalancer.choose("customers")` (`LoadBalancerClient`); the call
    // goes to that service.
    if let Some(call) = lit.within.last()
        && service_lookup(call)
    {
        return host_target(s, s);
    }
    // A lookup of a URL-like setting: `System.getenv("ORDERS_URL")`,
    // `@Value("${orders.url}")`, `std::env::var("ORDERS_URL")`.
    if let Some(call) = lit.within.last() {
        let seg = last_segment(call);
        if matches!(seg, "getenv" | "var" | "var_os" | "getProperty") && url_key(s) {
            return Target::Unresolved(format!("env {s}"));
        }
        if call == "@Value" && s.starts_with("${") && url_key(placeholder_key(s)) {
            return placeholder(s);
        }
    }
    if s.starts_with("${") {
        return placeholder(s);
    }
    if let Some((host, _)) = store_url(s) {
        let name = host.split(':').next().unwrap_or(&host);
        return host_target(name, &host);
    }
    // An Apache Camel route sending to an HTTP endpoint:
    // `.to("http4:preference:8080/?bridgeEndpoint=true")`.
    if let Some(call) = lit.within.last()
        && let Some(host) = camel::http_endpoint(last_segment(call), s)
    {
        let name = host.split(':').next().unwrap_or(host);
        return host_target(name, host);
    }
    url_target(s)
}

/// A data store's URL (`jdbc:postgresql://postgres:5432/db`,
/// `mongodb://orders-db:27017`, `redis://cache:6379`, `amqp://rabbitmq`):
/// its first host, with the store's protocol from the scheme
/// ([`Protocol::of_target`]); an embedded database (`jdbc:h2:mem:`), an
/// HTTP or gRPC URL, or a scheme of no store gives none.
///
/// [`Protocol::of_target`]: crate::model::calls::Protocol::of_target
pub fn store_url(s: &str) -> Option<(String, crate::model::calls::Protocol)> {
    use crate::model::calls::Protocol;
    let scheme = match s.strip_prefix("jdbc:") {
        Some(rest) => rest.split(':').next().unwrap_or(""),
        None => s.split_once("://")?.0,
    };
    if scheme.is_empty()
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '+')
    {
        return None;
    }
    let p = Protocol::of_target(s)?;
    if matches!(p, Protocol::Http | Protocol::Grpc) {
        return None;
    }
    let (host, _) = super::stores::targets(super::stores::Shape::List, s)
        .into_iter()
        .next()?;
    Some((host, p))
}

/// What a text is as a call target when it is a URL (`http://orders:8080/x`,
/// `lb://orders`): the host, unresolved when a hole stands for it, else
/// not a call target.
pub fn url_target(s: &str) -> Target {
    if !starts_with_url(s) {
        return Target::None;
    }
    match url_host_or_hole(s) {
        Some(Ok(host)) => {
            let name = host.rsplit_once(':').map_or(host, |(h, p)| {
                if p.chars().all(|c| c.is_ascii_digit()) {
                    h
                } else {
                    host
                }
            });
            match host_target(name, host) {
                // `lb://ORDER-SERVICE`: a registry service id, looked up
                // without regard to case (Eureka keys its registry by the
                // upper-cased name, as `spring::cloud_gateway` reads a
                // route's `lb:` URI), so the program named `order-service`.
                Target::Host(h) if s.trim_start_matches('"').starts_with("lb:") => {
                    Target::Host(h.to_ascii_lowercase())
                }
                t => t,
            }
        }
        Some(Err(())) => Target::Unresolved(s.to_string()),
        None => Target::None,
    }
}

/// Whether `call` looks a service id up in Spring Cloud Commons'
/// `DiscoveryClient.getInstances(String serviceId)` or
/// `LoadBalancerClient.choose(String serviceId)`.
fn service_lookup(call: &str) -> bool {
    let seg = last_segment(call);
    let receiver = call[..call.len() - seg.len()].to_ascii_lowercase();
    seg == "getInstances"
        || (seg == "choose" && (receiver.contains("balancer") || receiver.contains("lbclient")))
}

/// A Spring placeholder `${key}` or `${key:default}` at the start of a
/// literal: its default's host when it has one, else unresolved.
fn placeholder(s: &str) -> Target {
    let key = placeholder_key(s);
    let default = s
        .strip_prefix("${")
        .and_then(|r| r.split_once('}'))
        .and_then(|(inner, _)| inner.split_once(':'))
        .map(|(_, d)| d);
    if let Some(d) = default
        && starts_with_url(d)
        && let Some(Ok(host)) = url_host_or_hole(d)
    {
        let name = host.split(':').next().unwrap_or(host);
        return host_target(name, host);
    }
    // The placeholder ends at its matching `}` (every `{` nests, as in
    // Spring's `PropertyPlaceholderHelper`: `${url:#{null}}`).
    let mut depth = 0usize;
    let end = s
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ => return false,
            }
            depth == 0
        })
        .map_or(s.len(), |(i, _)| i + 1);
    if url_key(key) || starts_with_url(&s[end..]) {
        Target::Unresolved(s[..end].to_string())
    } else {
        Target::None
    }
}

fn placeholder_key(s: &str) -> &str {
    s.strip_prefix("${")
        .and_then(|r| r.split(['}', ':']).next())
        .unwrap_or("")
}

/// A host that names a service (not this machine, not documentation);
/// `written` is kept as the callee. An IP literal (`http://10.0.0.5:8080`)
/// is a call too: the graph joins it to the service a manifest gives that
/// address (a Service's `clusterIP`, a compose `ipv4_address`) and drops
/// it where none does (`graph::build`), as it does for the addresses of
/// environment entries; loopback and unspecified addresses are this
/// machine.
fn host_target(name: &str, written: &str) -> Target {
    let n = name.to_ascii_lowercase();
    if n.is_empty() || n.contains(['{', '}', '%', '$', ' ', '+']) {
        return Target::Unresolved(written.to_string());
    }
    if n.starts_with('[') || n.chars().all(|c| c.is_ascii_digit() || c == '.') {
        // `[fd00::5]:80` or `10.0.0.5`: an address, kept when it is one.
        return match crate::model::calls::ip_literal(written) {
            Some(_) => Target::Host(written.to_string()),
            None => Target::None,
        };
    }
    if matches!(n.as_str(), "localhost" | "0.0.0.0")
        || NOT_SERVICES.contains(&n.as_str())
        || n.starts_with("example.")
        || n.ends_with(".example.com")
        || n.ends_with(".example.org")
        || n.starts_with("docs.")
        || n.ends_with(".readthedocs.io")
        || !n
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    {
        return Target::None;
    }
    Target::Host(written.to_string())
}

/// Whether a host (with its port, or a URL) names a service a call can
/// reach: not this machine, not documentation (an IP literal does, where
/// a manifest gives it to a service: the graph decides).
pub fn names_service(host: &str) -> bool {
    let short = super::short_host(host);
    matches!(host_target(&short, &short), Target::Host(_))
}

/// Hosts that name a schema, a standard or documentation, not a service
/// a program calls.
const NOT_SERVICES: &[&str] = &[
    "www.w3.org",
    "w3.org",
    "java.sun.com",
    "xmlns.jcp.org",
    "xml.org",
    "www.apache.org",
    "apache.org",
    "json-schema.org",
    "schemas.xmlsoap.org",
    "www.springframework.org",
    "spring.io",
    "example.com",
    "example.org",
    "www.example.com",
    "github.com",
    "www.github.com",
    "gitlab.com",
    "bitbucket.org",
    "stackoverflow.com",
    "en.wikipedia.org",
    "swagger.io",
    "www.apache.org",
    "opensource.org",
    "www.gnu.org",
];

/// Whether the text starts with a URL of a scheme a service call uses.
fn starts_with_url(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once("://") else {
        return false;
    };
    matches!(
        scheme.to_ascii_lowercase().as_str(),
        "http" | "https" | "grpc" | "grpcs" | "h2c" | "ws" | "wss" | "lb"
    )
}

/// The host (with its port) of the URL starting `s`: `Err` when a
/// placeholder or format hole stands for it (`http://${host}:8080`,
/// `http://%s/x`, `http://{}/x`, `"http://" + host`).
fn url_host_or_hole(s: &str) -> Option<Result<&str, ()>> {
    let (_, rest) = s.split_once("://")?;
    if rest.is_empty() || rest.starts_with(['$', '{', '%']) {
        return Some(Err(()));
    }
    let end = rest
        .find(['/', '?', '#', '"', '\'', ' ', '\\'])
        .unwrap_or(rest.len());
    let host = rest[..end].trim_end_matches(':');
    let bare = host.rsplit('@').next().unwrap_or(host);
    if bare.contains(['$', '{', '%']) {
        // `http://orders:${port}` names its host; the port is unknown.
        let name = bare.split([':', '$', '{', '%']).next().unwrap_or("");
        if name.is_empty() || !bare[name.len()..].starts_with(':') {
            return Some(Err(()));
        }
        return Some(Ok(name));
    }
    Some(Ok(bare))
}

/// Whether a setting's name says it holds a URL or an address
/// (`ORDERS_URL`, `orders.base-url`, `paymentServiceUri`, `REDIS_ADDR`).
pub fn url_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase().replace(['-', '_'], ".");
    k.ends_with("url")
        || k.ends_with("uri")
        || ["addr", "address", "host", "endpoint", "target"]
            .iter()
            .any(|w| k == *w || k.ends_with(&format!(".{w}")))
}

/// The last segment of a call name: `log.info` -> `info`, `std::env::var`
/// -> `var`, `println!` -> `println!`.
/// String methods whose argument is a pattern to look for, in Java and
/// Rust.
fn string_test(method: &str) -> bool {
    matches!(
        method,
        "starts_with"
            | "ends_with"
            | "strip_prefix"
            | "strip_suffix"
            | "trim_start_matches"
            | "contains"
            | "split_once"
            | "find"
            | "replace"
            | "startsWith"
            | "endsWith"
            | "equals"
            | "equalsIgnoreCase"
            | "indexOf"
            | "replaceFirst"
            | "replaceAll"
    )
}

fn last_segment(call: &str) -> &str {
    call.rsplit(['.', ':', ' ']).next().unwrap_or(call)
}

/// Words of a field name that say its URL is for people to read: a link
/// in an error or a description, never called by the program.
const DOC_FIELD_WORDS: &[&str] = &[
    "link",
    "href",
    "doc",
    "docs",
    "documentation",
    "help",
    "homepage",
    "website",
    "issue",
    "issues",
    "discussion",
    "discussions",
    "license",
    "changelog",
];

/// Whether the literal at `start` is the value of a field or named
/// argument whose name says documentation (`issue_link: "https://.."` in
/// an error struct: meilisearch/meilisearch 5cb2f2e94
/// `crates/meilisearch/src/personalization/mod.rs`; `helpUrl = "..."`),
/// split at `_` and at capitals.
pub fn documentation_field(text: &str, start: usize) -> bool {
    let before = text.get(..start).unwrap_or_default().trim_end();
    let Some(before) = before.strip_suffix([':', '=']) else {
        return false;
    };
    // `a::b` paths and `==`, `<=`, `!=`, `=>` are no field.
    if before.ends_with([':', '=', '!', '<', '>']) {
        return false;
    }
    let (name, _) = data_urls::trailing_ident(before);
    let words = crate::extract::name_words::name_words(name);
    words.iter().any(|w| DOC_FIELD_WORDS.contains(&w.as_str()))
}

/// Whether a string passed to `call` is a message (a log line, an
/// exception, an assertion, documentation), not a call target.
fn message_sink(call: &str) -> bool {
    if call.starts_with('@') {
        // Annotations: documentation (`@ApiOperation`, `@Schema`), mappings
        // served, not called; a Feign client's `url` is read by its reader.
        return call != "@Value";
    }
    if call.starts_with("#[") {
        return true;
    }
    let seg = last_segment(call);
    let receiver = call[..call.len() - seg.len()]
        .trim_end_matches(['.', ':'])
        .to_ascii_lowercase();
    // `new IllegalStateException(..)`, `Status.UNAVAILABLE.withDescription`,
    // `io::Error::new(..)`, `MyError(..)`.
    let typed = seg.starts_with(|c: char| c.is_ascii_uppercase());
    if typed && (seg.ends_with("Exception") || seg.ends_with("Error")) {
        return true;
    }
    if seg == "new" && (receiver.ends_with("error") || receiver.ends_with("exception")) {
        return true;
    }
    let seg_l = seg.to_ascii_lowercase();
    if matches!(
        seg,
        "println!"
            | "print!"
            | "eprintln!"
            | "eprint!"
            | "info!"
            | "warn!"
            | "error!"
            | "debug!"
            | "trace!"
            | "event!"
            | "panic!"
            | "bail!"
            | "anyhow!"
            | "ensure!"
            | "unreachable!"
            | "todo!"
            | "unimplemented!"
            | "expect"
            | "context"
            | "with_context"
            | "wrap_err"
            | "fail"
    ) || seg.starts_with("assert")
        || seg.starts_with("debug_assert")
    {
        return true;
    }
    if matches!(
        seg_l.as_str(),
        "info"
            | "debug"
            | "warn"
            | "warning"
            | "error"
            | "trace"
            | "fatal"
            | "println"
            | "print"
            | "printf"
    ) && (receiver.contains("log") || receiver.ends_with("out") || receiver.ends_with("err"))
    {
        return true;
    }
    // Documentation setters (Swagger/OpenAPI `termsOfServiceUrl`,
    // `license`, `contact`, `description`).
    [
        "termsofservice",
        "license",
        "contact",
        "description",
        "externaldocs",
        "summary",
        "title",
        "documentation",
    ]
    .iter()
    .any(|w| seg_l.contains(w))
}

/// A literal's span in `text`, for callers that have only the span (the
/// Java reader): the lexed literal that starts there.
pub fn lit_at(lits: &[Lit], span: Span) -> Option<&Lit> {
    lits.binary_search_by_key(&span.start, |l| l.span.start)
        .ok()
        .map(|i| &lits[i])
}
