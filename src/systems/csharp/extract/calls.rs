//! HTTP calls a C# file makes through `HttpClient` (issue 19, item 5):
//! `GetFromJsonAsync`, `GetAsync`, `PostAsJsonAsync`, `PostAsync`,
//! `PutAsync`, `PatchAsync`, `DeleteAsync`, and `SendAsync` of a
//! `new HttpRequestMessage(HttpMethod.Post, ..)`, each with its HTTP
//! method. The callee is the host of an absolute URL written at the call,
//! else of the client's `BaseAddress`: set in `AddHttpClient<T>(c =>
//! c.BaseAddress = new Uri(".."))` in the same file, or assigned in the
//! typed client's class (its constructor). Aspire service discovery's
//! `https+http://catalog-api` is the host `catalog-api`.
//!
//! A call is made only through a receiver the file declares as an
//! `HttpClient` (a field, a parameter, a primary constructor parameter, a
//! local of `new HttpClient(..)` or `factory.CreateClient(..)`), so that
//! `IDistributedCache.GetAsync` or a repository's `DeleteAsync` is no call.
//!
//! The retry layers of the same file that apply to the client (a handler
//! on its `AddHttpClient<T>` or on every client through
//! `ConfigureHttpClientDefaults`) are the edge's policies, and the
//! methods of the calls made through them narrow the policies' methods
//! (as the Python reader does for the calls in a retried scope), so that a
//! POST under the standard handler is RL103 and a GET is not.

use super::address::{MARK, address};
use super::{
    Ctx, MAX_CLIMB, MAX_DEPTH, args, chain, field, method, named_children, span, type_args,
};
use crate::model::*;
use crate::systems::csharp::config_addresses::THROUGH;
use crate::systems::csharp::extract::Kind as _;
use std::collections::BTreeMap;
use tree_sitter::Node;

/// `HttpClient` methods and the HTTP method each sends
/// (`System.Net.Http.HttpClient` and `System.Net.Http.Json.HttpClientJsonExtensions`).
const VERBS: &[(&str, &str)] = &[
    ("GetAsync", "GET"),
    ("GetStringAsync", "GET"),
    ("GetStreamAsync", "GET"),
    ("GetByteArrayAsync", "GET"),
    ("GetFromJsonAsync", "GET"),
    ("GetFromJsonAsAsyncEnumerable", "GET"),
    ("PostAsync", "POST"),
    ("PostAsJsonAsync", "POST"),
    ("PutAsync", "PUT"),
    ("PutAsJsonAsync", "PUT"),
    ("PatchAsync", "PATCH"),
    ("PatchAsJsonAsync", "PATCH"),
    ("DeleteAsync", "DELETE"),
    ("DeleteFromJsonAsync", "DELETE"),
    ("SendAsync", ""),
    ("Send", ""),
];

/// One call through an `HttpClient`.
struct Call<'a> {
    node: Node<'a>,
    what: &'a str,
    method: Option<String>,
    /// The absolute URL written at the call, or the client's base address.
    target: Option<String>,
    /// The `AddHttpClient<T>` scope name of the typed client, if the call
    /// is made in one.
    client: Option<String>,
}

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts) {
    name_clients(facts);
    let bases = base_addresses(ctx);
    let clients = http_client_names(ctx);
    let mut calls: Vec<Call<'_>> = Vec::new();
    for &n in &ctx.nodes {
        if n.kind_str() != "invocation_expression" {
            continue;
        }
        let Some((name, Some(recv))) = method(ctx, n) else {
            continue;
        };
        // Refit's `RestService.For<T>(httpClient, ..)`: the interface's
        // calls go through that client (their methods are the interface's
        // attributes, not read).
        let refit = name == "For" && is_rest_service(ctx, recv);
        let (name, verb, recv) = if refit {
            let Some(&(_, client)) = args(ctx, n).first() else {
                continue;
            };
            ("RestService.For", None, client)
        } else {
            let Some(&(_, verb)) = VERBS.iter().find(|(m, _)| *m == name) else {
                continue;
            };
            (name, Some(verb), recv)
        };
        let recv_name = ctx.text(recv).trim_start_matches("this.");
        let Some(made) = clients.get(recv_name) else {
            continue;
        };
        let a = if refit { Vec::new() } else { args(ctx, n) };
        let class = enclosing_class(ctx, n);
        let (client, base_key) = made.client(class);
        let Some(verb) = verb else {
            calls.push(Call {
                node: n,
                what: name,
                method: None,
                target: base_key.and_then(|c| bases.get(&c).map(|(t, _)| t.clone())),
                client,
            });
            continue;
        };
        let method = if verb.is_empty() {
            a.first().and_then(|(_, r)| request_method(ctx, *r))
        } else {
            Some(verb.to_string())
        };
        let written = if verb.is_empty() {
            a.first().and_then(|(_, r)| request_uri(ctx, *r))
        } else {
            a.first().and_then(|(_, u)| address(ctx, *u, 0))
        };
        let absolute = written.filter(|u| u.contains("://") || u.starts_with(MARK));
        let base = base_key
            .as_ref()
            .and_then(|c| bases.get(c).map(|(t, _)| t.clone()));
        calls.push(Call {
            node: n,
            what: name,
            method,
            target: absolute.or(base),
            client,
        });
    }
    // A typed client registered here whose calls are made in another
    // file: the registration is the edge, until the link step finds the
    // calls (`link::csharp_clients`).
    for (client, (target, at)) in &bases {
        let Some(at) = *at else { continue };
        if calls.iter().any(|c| c.client.as_ref() == Some(client)) {
            continue;
        }
        let via = format!("{client} {REGISTRATION}");
        let Some(host) = host_of(target) else {
            // Read from configuration: the link step puts the program's
            // value in its place (`config_addresses`).
            if target.contains(MARK) {
                let mut u = UnresolvedCall::new(span(at), format!("{target}{THROUGH}{via}"));
                u.client = Some(client.clone());
                u.policies = layers_for(facts, Some(client));
                facts.unresolved.push(u);
            }
            continue;
        };
        facts.edges.push(CallEdge {
            caller: None,
            callee: host,
            span: span(at),
            policies: layers_for(facts, Some(client)),
            via,
            client: Some(client.clone()),
            protocol: None,
        });
    }
    grpc_clients(ctx, facts);
    refit_rest_services(ctx, facts);
    // The layers of this file that apply to each call, and the methods
    // each layer is used for.
    let mut used: BTreeMap<usize, Vec<Option<String>>> = BTreeMap::new();
    for c in &calls {
        let layers = layers_for(facts, c.client.as_deref());
        for &i in &layers {
            used.entry(i).or_default().push(c.method.clone());
        }
        let via = format!(
            "{}{}{} in C#",
            if c.what.contains('.') {
                ""
            } else {
                "HttpClient."
            },
            c.what,
            c.method
                .as_deref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default()
        );
        let Some(host) = c.target.as_deref().and_then(host_of) else {
            // The base address is set where the typed client is registered,
            // in another file of the project: `link::csharp_clients`.
            let mut u = UnresolvedCall::new(
                span(c.node),
                match &c.target {
                    Some(t) if t.contains(MARK) => format!("{t}{THROUGH}{via}"),
                    Some(t) => t.clone(),
                    // A client of no registration: its address is an
                    // expression (`$"{endpoint.Url}/api/tags"`), not a
                    // base address set elsewhere.
                    None if c.client.is_none() => match args(ctx, c.node).first() {
                        Some((_, a)) if !a.kind_str().ends_with("string_literal") => {
                            format!("{via}, address `{}` not known here", written(ctx.text(*a)))
                        }
                        _ => format!("{via}{NO_BASE}"),
                    },
                    None => format!("{via}{NO_BASE}"),
                },
            );
            u.client.clone_from(&c.client);
            if c.target.as_deref().is_some_and(|t| t.contains(MARK)) {
                u.policies.clone_from(&layers);
            }
            facts.unresolved.push(u);
            continue;
        };
        facts.edges.push(CallEdge {
            caller: None,
            callee: host,
            span: span(c.node),
            policies: layers,
            via,
            client: c.client.clone(),
            protocol: None,
        });
    }
    for (i, ms) in used {
        let Some(p) = facts.policies.get_mut(i) else {
            continue;
        };
        // Only a handler that retries every method is narrowed, and only
        // when every call through it says its method.
        if p.methods.value != Methods::All || p.methods.is_written() {
            continue;
        }
        let Some(mut ms) = ms.into_iter().collect::<Option<Vec<String>>>() else {
            continue;
        };
        ms.sort();
        ms.dedup();
        p.methods = Located::default_at(Methods::Set(ms), p.span);
    }
}

/// The policies of this file for the client `scope` (`AddHttpClient<T>`):
/// those written on it, and those on every client.
fn layers_for(facts: &Facts, scope: Option<&str>) -> Vec<usize> {
    facts
        .policies
        .iter()
        .enumerate()
        .filter(|(_, p)| match &p.scope.client {
            Some(ClientScope::Named(c)) => c == "default" || Some(c.as_str()) == scope,
            _ => false,
        })
        .map(|(i, _)| i)
        .collect()
}

/// The base address of each typed client, by its class name: from
/// `AddHttpClient<T>(c => c.BaseAddress = ..)` (the last type argument is
/// the implementation), or `BaseAddress = ..` assigned inside class `T`.
fn base_addresses<'a>(ctx: &Ctx<'a>) -> BTreeMap<String, (String, Option<Node<'a>>)> {
    let mut out = BTreeMap::new();
    for &n in &ctx.nodes {
        if n.kind_str() != "assignment_expression" {
            continue;
        }
        let Some(left) = field(n, "left") else {
            continue;
        };
        let l = ctx.text(left);
        if l != "BaseAddress" && !l.ends_with(".BaseAddress") {
            continue;
        }
        let Some(v) = field(n, "right").and_then(|r| address(ctx, r, 0)) else {
            continue;
        };
        // Written in an `AddHttpClient<T>(..)` lambda, or in a
        // `.ConfigureHttpClient(..)` after a registration (`AddHttpClient`,
        // Refit's `AddRefitClient<T>()`)?
        let mut cur = ctx.parent(n);
        let mut typed = None;
        for _ in 0..MAX_CLIMB {
            let Some(c) = cur else { break };
            if c.kind_str() == "invocation_expression" {
                match method(ctx, c).map(|(m, _)| m) {
                    Some("AddHttpClient") => {
                        typed = client_key(ctx, c);
                        break;
                    }
                    Some("ConfigureHttpClient") => {
                        typed = chain(c)
                            .into_iter()
                            .filter(|r| r.id() != c.id())
                            .find_map(|r| client_key(ctx, r));
                        break;
                    }
                    _ => {}
                }
            }
            cur = ctx.parent(c);
        }
        let value = field(n, "right");
        match typed {
            Some(t) => {
                out.insert(t, (v, value));
            }
            None => {
                if let Some(t) = enclosing_class(ctx, n) {
                    out.entry(format!("AddHttpClient<{t}>"))
                        .or_insert((v, None));
                }
            }
        }
    }
    out
}

/// The key a registration's base address is kept under, as
/// [`name_clients`] names the clients of handlers: the implementation (the
/// last type argument) of `AddHttpClient<I, T>`, the name of
/// `AddHttpClient("name")`, Refit's `AddRefitClient<T>`.
fn client_key(ctx: &Ctx<'_>, c: Node<'_>) -> Option<String> {
    match method(ctx, c)?.0 {
        "AddHttpClient" => match type_args(ctx, c).last() {
            Some(t) => Some(format!("AddHttpClient<{t}>")),
            None => args(ctx, c)
                .first()
                .filter(|(_, a)| a.kind_str() == "string_literal")
                .map(|(_, a)| format!("AddHttpClient({})", ctx.text(*a))),
        },
        _ => super::resilience::registration(ctx, c).filter(|r| r.starts_with("AddRefitClient<")),
    }
}

/// Refit's `RestService.For<T>("http://orders-api")`: a client Refit
/// builds itself, with its own `HttpClient` (no handler of the factory
/// applies), calling that address (github.com/reactiveui/refit
/// `Refit/RestService.cs`, `For<T>(string hostUrl)`). `For<T>(httpClient)`
/// takes a client made elsewhere: not read.
fn refit_rest_services(ctx: &Ctx<'_>, facts: &mut Facts) {
    for &n in &ctx.nodes {
        if n.kind_str() != "invocation_expression" {
            continue;
        }
        let Some(("For", Some(recv))) = method(ctx, n) else {
            continue;
        };
        if !is_rest_service(ctx, recv) {
            continue;
        }
        let Some(target) = args(ctx, n).first().and_then(|(_, a)| address(ctx, *a, 0)) else {
            continue;
        };
        let t = type_args(ctx, n).first().copied().unwrap_or("");
        let via = format!("RestService.For<{t}> in C#");
        let Some(host) = host_of(&target) else {
            if target.contains(MARK) {
                let u = UnresolvedCall::new(span(n), format!("{target}{THROUGH}{via}"));
                facts.unresolved.push(u);
            }
            continue;
        };
        facts.edges.push(CallEdge {
            caller: None,
            callee: host,
            span: span(n),
            policies: Vec::new(),
            via,
            client: None,
            protocol: None,
        });
    }
}

fn is_rest_service(ctx: &Ctx<'_>, recv: Node<'_>) -> bool {
    matches!(ctx.text(recv), "RestService" | "Refit.RestService")
}

/// `AddGrpcClient<T>(o => o.Address = new Uri(".."))`: the client's calls
/// go to that address through the HTTP client factory, so the handlers on
/// every client apply (the registration is the edge: the calls are the
/// generated client's methods).
fn grpc_clients(ctx: &Ctx<'_>, facts: &mut Facts) {
    for &n in &ctx.nodes {
        if n.kind_str() != "assignment_expression" {
            continue;
        }
        let Some(left) = field(n, "left") else {
            continue;
        };
        let l = ctx.text(left);
        if l != "Address" && !l.ends_with(".Address") {
            continue;
        }
        let Some(value) = field(n, "right") else {
            continue;
        };
        // `new Uri(config["GrpcSettings:DiscountUrl"]!)`: the key kept
        // for the link step (`{config:..}`).
        let Some(target) = address(ctx, value, 0) else {
            continue;
        };
        let host = host_of(&target);
        if host.is_none() && !target.contains(MARK) {
            continue;
        }
        let mut cur = ctx.parent(n);
        for _ in 0..MAX_CLIMB {
            let Some(c) = cur else { break };
            if c.kind_str() == "invocation_expression"
                && method(ctx, c).is_some_and(|(m, _)| m == "AddGrpcClient")
            {
                let t = type_args(ctx, c).last().copied().unwrap_or("");
                let client = format!("AddGrpcClient<{t}>");
                let Some(host) = host else {
                    let via = format!("{client} Address (gRPC) in C#");
                    let mut u = UnresolvedCall::new(span(value), format!("{target}{THROUGH}{via}"));
                    u.policies = layers_for(facts, Some(&client));
                    u.client = Some(client);
                    u.protocol = Some(crate::model::calls::Protocol::Grpc);
                    facts.unresolved.push(u);
                    break;
                };
                facts.edges.push(CallEdge {
                    caller: None,
                    callee: host,
                    span: span(value),
                    policies: layers_for(facts, Some(&client)),
                    via: format!("{client} Address (gRPC) in C#"),
                    client: Some(client),
                    // The address says `http://`; the client speaks gRPC.
                    protocol: Some(crate::model::calls::Protocol::Grpc),
                });
                break;
            }
            cur = ctx.parent(c);
        }
    }
}

/// How a name came to hold an `HttpClient`.
enum Made {
    /// Declared as one (a field, property or parameter): given by the
    /// factory to the typed client it is in.
    Injected,
    /// `factory.CreateClient("name")` (the name's literal as written, `""`
    /// for none): the named client's handlers apply.
    Factory(String),
    /// `new HttpClient(..)`: no handler of the factory applies.
    New,
}

impl Made {
    /// The client a call through such a name is made with (as the
    /// handlers name it), and the key of the base address it takes: a
    /// client made here takes the base address its class gives it
    /// (`new() { BaseAddress = .. }`).
    fn client(&self, class: Option<&str>) -> (Option<String>, Option<String>) {
        let client = match self {
            Made::Injected => class.map(|c| format!("AddHttpClient<{c}>")),
            Made::Factory(name) => Some(format!("AddHttpClient({name})")),
            Made::New => None,
        };
        let base_key = match self {
            Made::New => class.map(|c| format!("AddHttpClient<{c}>")),
            _ => client.clone(),
        };
        (client, base_key)
    }
}

/// Names the file declares as an `HttpClient`: fields, properties,
/// parameters (primary constructors included) and locals of that type, and
/// locals of `new HttpClient(..)` or `.CreateClient(..)`.
fn http_client_names<'a>(ctx: &Ctx<'a>) -> BTreeMap<&'a str, Made> {
    let mut out = BTreeMap::new();
    let is_client = |t: &str| {
        let t = t.trim().trim_end_matches('?');
        t == "HttpClient" || t == "System.Net.Http.HttpClient"
    };
    for &n in &ctx.nodes {
        match n.kind_str() {
            "parameter" | "property_declaration" => {
                if field(n, "type").is_some_and(|t| is_client(ctx.text(t)))
                    && let Some(name) = field(n, "name")
                {
                    out.entry(ctx.text(name)).or_insert(Made::Injected);
                }
            }
            "variable_declaration" => {
                let typed = field(n, "type").is_some_and(|t| is_client(ctx.text(t)));
                for d in named_children(n)
                    .into_iter()
                    .filter(|d| d.kind_str() == "variable_declarator")
                {
                    let Some(name) = field(d, "name") else {
                        continue;
                    };
                    let kids = named_children(d);
                    let value = kids.last().filter(|_| kids.len() > 1);
                    let made = match value {
                        Some(v)
                            if ctx.text(*v).starts_with("new HttpClient(")
                                || (typed
                                    && v.kind_str() == "implicit_object_creation_expression") =>
                        {
                            Made::New
                        }
                        Some(v) if ctx.text(*v).contains(".CreateClient(") => {
                            let lit = ctx.subtree(*v).iter().find_map(|x| {
                                (x.kind_str() == "invocation_expression"
                                    && method(ctx, *x).is_some_and(|(m, _)| m == "CreateClient"))
                                .then(|| {
                                    args(ctx, *x)
                                        .first()
                                        .filter(|(_, a)| a.kind_str() == "string_literal")
                                        .map_or("\"\"", |(_, a)| ctx.text(*a))
                                })
                            });
                            Made::Factory(lit.unwrap_or("\"\"").to_string())
                        }
                        _ if typed => Made::Injected,
                        _ => continue,
                    };
                    out.insert(ctx.text(name), made);
                }
            }
            _ => {}
        }
    }
    out
}

/// How the written target of a call ends whose client's base address is
/// set in another file.
/// An expression as a message quotes it: on one line, at most 80
/// characters.
fn written(text: &str) -> String {
    let one = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one.char_indices().nth(80) {
        Some((i, _)) => format!("{}..", &one[..i]),
        None => one,
    }
}

pub const NO_BASE: &str = ", base address not set in this file";

/// How a registration edge's via ends; `link::csharp_clients` replaces
/// such an edge by the calls made through the client.
pub const REGISTRATION: &str = "BaseAddress in C#";

/// The service a URL names: the host of `http://catalog-api/x` and of
/// Aspire service discovery's `https+http://catalog-api`; none for a
/// relative path or a host built at run time. Service discovery's
/// `http://_grpc.catalog-api` names the endpoint `grpc` of the service
/// `catalog-api` (Microsoft.Extensions.ServiceDiscovery's
/// `ServiceEndpointQuery.TryParse`: a host that starts with `_` and has a
/// `.` is `_{endpointName}.{serviceName}`; https://github.com/dotnet/aspire
/// `src/Microsoft.Extensions.ServiceDiscovery.Abstractions/ServiceEndpointQuery.cs`,
/// commit a19e8a2): the service, not `_grpc`.
pub(crate) fn host_of(target: &str) -> Option<String> {
    let (_, rest) = target.split_once("://")?;
    let rest = match rest.strip_prefix('_') {
        Some(named) => named.split_once('.')?.1,
        None => rest,
    };
    let host = crate::model::calls::short_host(rest);
    (!host.is_empty() && !host.contains('{')).then_some(host)
}

/// Which clients each HTTP handler of the file is for, as the graph joins
/// them to calls ([`ClientScope::Named`]): the typed client of its
/// `AddHttpClient<T>` (the implementation, the last type argument), or
/// `default` for every client (`ConfigureHttpClientDefaults`).
fn name_clients(facts: &mut Facts) {
    for p in &mut facts.policies {
        let Some(name) = p.name.as_deref() else {
            continue;
        };
        let client = if name.starts_with("ConfigureHttpClientDefaults") {
            "default".to_string()
        } else if let Some(rest) = name.strip_prefix("AddHttpClient<")
            && let Some((types, _)) = rest.split_once('>')
        {
            let last = types.rsplit(',').next().unwrap_or(types).trim();
            format!("AddHttpClient<{last}>")
        } else if let Some(rest) = name.strip_prefix("AddRefitClient<")
            && let Some((t, _)) = rest.split_once('>')
        {
            format!("AddRefitClient<{t}>")
        } else if let Some(rest) = name.strip_prefix("AddHttpClient(\"")
            && let Some((named, _)) = rest.split_once("\")")
        {
            format!("AddHttpClient(\"{named}\")")
        } else {
            continue;
        };
        p.scope.client = Some(ClientScope::Named(client));
    }
}

/// The class (or record, struct) `n` is written in.
fn enclosing_class<'a>(ctx: &Ctx<'a>, n: Node<'_>) -> Option<&'a str> {
    let mut cur = ctx.parent(n);
    for _ in 0..MAX_CLIMB {
        let c = cur?;
        if matches!(
            c.kind_str(),
            "class_declaration" | "record_declaration" | "struct_declaration"
        ) {
            return field(c, "name").map(|x| ctx.text(x));
        }
        cur = ctx.parent(c);
    }
    None
}

/// The method of `new HttpRequestMessage(HttpMethod.Post, ..)`, written at
/// the call or bound to the name passed.
fn request_method(ctx: &Ctx<'_>, r: Node<'_>) -> Option<String> {
    let m = request_args(ctx, r)?.into_iter().next()?;
    let t = ctx.text(m);
    let name = t.strip_prefix("HttpMethod.")?;
    Some(name.to_ascii_uppercase())
}

fn request_uri(ctx: &Ctx<'_>, r: Node<'_>) -> Option<String> {
    let u = request_args(ctx, r)?.into_iter().nth(1)?;
    string(ctx, u, 0)
}

/// The arguments of the `new HttpRequestMessage(..)` that `r` is.
fn request_args<'a>(ctx: &Ctx<'a>, r: Node<'a>) -> Option<Vec<Node<'a>>> {
    let mut r = r;
    for _ in 0..MAX_DEPTH {
        if r.kind_str() != "identifier" {
            break;
        }
        r = ctx.binding(ctx.text(r), r.start_byte())?;
    }
    if r.kind_str() != "object_creation_expression"
        || !field(r, "type").is_some_and(|t| ctx.text(t).ends_with("HttpRequestMessage"))
    {
        return None;
    }
    let list = field(r, "arguments")?;
    Some(
        named_children(list)
            .into_iter()
            .filter(|a| a.kind_str() == "argument")
            .filter_map(|a| named_children(a).into_iter().last())
            .collect(),
    )
}

/// A string value: a literal, the part of an interpolated string before
/// its first hole, `new Uri(..)` of one, or a name bound to one.
pub(super) fn string(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    match n.kind_str() {
        "string_literal" | "verbatim_string_literal" | "raw_string_literal" => {
            let t = ctx.text(n);
            Some(t.trim_start_matches('@').trim_matches('"').to_string())
        }
        "interpolated_string_expression" => {
            let t = ctx.text(n).trim_start_matches(['$', '@']).trim_matches('"');
            let head = t.split('{').next().unwrap_or("");
            // The holes are kept as `{}` so that a host built from one is
            // not taken for a name.
            Some(if head.len() < t.len() {
                format!("{head}{{}}")
            } else {
                head.to_string()
            })
        }
        // `new Uri("..")`, and `new("..")` assigned to `BaseAddress`.
        "implicit_object_creation_expression" => string(ctx, implicit_first_arg(n)?, depth + 1),
        "object_creation_expression"
            if field(n, "type").is_some_and(|t| ctx.text(t).ends_with("Uri")) =>
        {
            let first = args(ctx, n).into_iter().next()?.1;
            string(ctx, first, depth + 1)
        }
        "identifier" => string(ctx, ctx.binding(ctx.text(n), n.start_byte())?, depth + 1),
        _ => None,
    }
}

/// The first argument of `new(..)` (an implicit object creation).
pub(super) fn implicit_first_arg(n: Node<'_>) -> Option<Node<'_>> {
    let list = named_children(n)
        .into_iter()
        .find(|c| c.kind_str() == "argument_list")?;
    let first = named_children(list)
        .into_iter()
        .find(|a| a.kind_str() == "argument")?;
    named_children(first).last().copied()
}
