//! C# source (`*.cs`), read with tree-sitter-c-sharp: the standard HTTP
//! resilience handler (`AddStandardResilienceHandler`, with its options
//! lambda and `DisableForUnsafeHttpMethods()`/`DisableFor(..)`, on one
//! named or typed client or on every client through
//! `ConfigureHttpClientDefaults`), Polly v8 retry strategies
//! (`AddRetry(new RetryStrategyOptions { .. })` with the timeouts and
//! circuit breakers of the same builder) and Polly v7 policies
//! (`Policy.Handle<T>().WaitAndRetryAsync(n, attempt => ..)` with the
//! sleep lambda evaluated, `RetryForever`, `HandleTransientHttpError`) and
//! EF Core's `EnableRetryOnFailure(..)`, and the HTTP calls made through
//! `HttpClient` ([`calls`]).
//! Defaults and the options model: [`crate::systems::dotnet::model`].
//!
//! Only files that mention a word this reader reads are parsed
//! ([`wants`]). The parse is the shared budgeted one
//! (`crate::extract::tree_sitter`): a file whose error recovery exceeds
//! the budget is an RL903 finding. Every walk uses an explicit stack or a
//! bounded climb; value evaluation stops at [`MAX_DEPTH`].

pub mod address;
mod apphost;
mod blind;
mod breaker;
pub mod calls;
#[cfg(test)]
mod calls_tests;
mod connections;
mod contrib;
mod dapr;
mod delegate_callees;
mod efcore;
mod eval;
mod executions;
mod hedging;
mod loops;
mod options;
mod polly_v7;
mod rabbitmq;
mod redis;
mod resilience;
mod retry_after;
mod sdk;
pub mod servicebus;
mod should_handle;
#[cfg(test)]
mod tests;
mod yarp;

use crate::extract::tree_sitter::IdMap;
use crate::model::Facts;
use crate::source::Span;
use std::collections::HashMap;
use tree_sitter::Node;

crate::extract::tree_sitter::grammar_tables!(tree_sitter_c_sharp::LANGUAGE);

/// The extractor's name in [`Facts::extractors`].
pub const NAME: &str = "csharp";

/// The client name that joins a retry around RabbitMQ publishing
/// (`pipeline.Execute(() => channel.BasicPublish(..))`) to the AMQP edges
/// of the services that build it (an Aspire AppHost's `WithReference` of
/// a RabbitMQ resource): the graph's named-client lookup
/// ([`crate::model::ClientScope::Named`], [`crate::model::CallEdge::client`]).
pub const AMQP_PUBLISH: &str = "RabbitMQ publishing";

/// How deep value evaluation may follow names and nested expressions.
pub const MAX_DEPTH: usize = 12;

/// Nodes a file may have before the reader stops looking.
const MAX_NODES: usize = 2_000_000;

/// How far a climb to an enclosing node may go.
const MAX_CLIMB: usize = 10_000;

/// Words that make a `.cs` file worth parsing.
const NEEDLES: &[&str] = &[
    "ResilienceHandler",
    "HedgingHandler",
    "AddRetry",
    "RetryStrategyOptions",
    "WaitAndRetry",
    "RetryAsync(",
    "Retry(",
    "RetryForever",
    "EnableRetryOnFailure",
    // .NET Aspire's EF Core integrations, which retry by default.
    "SqlServerDbContext<",
    "NpgsqlDbContext<",
    "MySqlDbContext<",
    "OracleDatabaseDbContext<",
    "HttpClient",
    // Refit clients (`AddRefitClient<T>()`, `RestService.For<T>(..)`).
    "AddRefitClient",
    "RestService.For",
    "AddGrpcClient",
    "DistributedApplication",
    "MaxRetries",
    "RetryMode.",
    "NetworkTimeout",
    "RetryProvider(",
    "Task.Delay(",
    "Thread.Sleep(",
    // StackExchange.Redis's connect retry (`redis`).
    "ConnectRetry",
    "connectRetry",
    "connectretry",
    // Standard handler options set where no handler reads them.
    "HttpStandardResilienceOptions",
    // RabbitMQ.Client's connection recovery interval.
    "NetworkRecoveryInterval",
    // Azure Service Bus clients, senders and receivers.
    "ServiceBus",
    // YARP destinations in code and direct forwarding.
    "DestinationConfig",
    "MapForwarder",
    "IHttpForwarder",
    // Dapr service invocation (`dapr`).
    "InvokeMethod",
    "CreateInvokeHttpClient",
    // ASP.NET Core's named request timeouts, which YARP routes name.
    "AddRequestTimeouts",
    // Connection strings read by name (`connections`).
    "GetConnectionString",
    "ConnectionStrings:",
];

/// Whether a C# file mentions anything this reader reads.
pub fn wants(bytes: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<crate::extract::Needles> =
        std::sync::LazyLock::new(|| crate::extract::Needles::new(NEEDLES.iter().copied()));
    FINDER.any_in(bytes)
}

/// Read one C# file. Never panics; problems become findings.
pub fn extract(text: &str, facts: &mut Facts) {
    let source = super::source::read(text);
    facts.csharp = (!source.is_empty()).then_some(source);
    if !wants(text.as_bytes()) {
        return;
    }
    let Some(tree) = crate::extract::tree_sitter::parse_source(
        tree_sitter_c_sharp::LANGUAGE.into(),
        text,
        "C#",
        "compile",
        NAME,
        facts,
    ) else {
        return;
    };
    let ctx = Ctx::new(text, tree.root_node());
    let before = (
        facts.policies.len(),
        facts.edges.len(),
        facts.unresolved.len(),
        facts.services.len(),
        facts.timeouts.len(),
    );
    resilience::extract(&ctx, facts);
    sdk::extract(&ctx, facts);
    redis::extract(&ctx, facts);
    options::extract(&ctx, facts);
    rabbitmq::extract(&ctx, facts);
    servicebus::extract(&ctx, facts);
    let mut scopes = Vec::new();
    loops::extract(&ctx, facts, &mut scopes);
    let loop_scopes = scopes.len();
    let mut pipeline_uses = Vec::new();
    executions::executions(&ctx, facts, &mut scopes, &mut pipeline_uses);
    executions::idempotency_keys(&ctx, facts, &scopes);
    executions::publishers(&ctx, facts, &scopes);
    let pipelines = executions::pipeline_keys(&ctx, facts);
    crate::extract::loop_calls::record(
        tree.root_node(),
        text,
        &crate::extract::loop_calls::CSHARP,
        before.0,
        facts,
    );
    calls::extract(&ctx, facts);
    connections::extract(&ctx, facts);
    yarp::extract(&ctx, facts);
    yarp::request_timeouts(&ctx, facts);
    dapr::extract(&ctx, facts);
    apphost::extract(&ctx, facts);
    // Every call of the file is read: those a pipeline of the file runs
    // carry it.
    executions::attach(facts, &scopes[loop_scopes..]);
    if !pipelines.is_empty() || !pipeline_uses.is_empty() {
        let c = facts.csharp.get_or_insert_with(Default::default);
        c.pipelines = pipelines;
        c.pipeline_uses = pipeline_uses;
    }
    let after = (
        facts.policies.len(),
        facts.edges.len(),
        facts.unresolved.len(),
        facts.services.len(),
        facts.timeouts.len(),
    );
    if after != before || !facts.diagnostics.is_empty() {
        facts.claimed_by(NAME);
    }
}

/// The parsed file: its text, every node in source order, each node's
/// parent, and the values bound to names (locals, fields, constants,
/// property initialisers).
pub struct Ctx<'a> {
    pub src: &'a str,
    pub nodes: Vec<Node<'a>>,
    pub bindings: HashMap<&'a str, Vec<Node<'a>>>,
    /// Each indexed node's parent by node id: tree-sitter's own
    /// `Node::parent` walks down from the root on every call.
    parents: IdMap<Node<'a>>,
    /// Each invocation's [`method`], read once (every pass asks it of
    /// every invocation), by node id.
    methods: IdMap<(&'a str, Option<Node<'a>>)>,
}

/// Every named node below `root` (itself included, comments too) in
/// source order, at most [`MAX_NODES`], and each one's parent.
fn index<'a>(root: Node<'a>) -> (Vec<Node<'a>>, IdMap<Node<'a>>) {
    crate::extract::tree_sitter::index_named(root, |_| true, MAX_NODES)
}

impl<'a> Ctx<'a> {
    fn new(src: &'a str, root: Node<'a>) -> Self {
        let (nodes, parents) = index(root);
        let mut bindings: HashMap<&'a str, Vec<Node<'a>>> = HashMap::new();
        let mut methods = IdMap::default();
        for &n in &nodes {
            let (name, value) = match n.kind_str() {
                "invocation_expression" => {
                    if let Some(m) = method_of(src, n) {
                        methods.insert(n.id(), m);
                    }
                    continue;
                }
                // `int retries = 3;`, `const int Retries = 3;`: the value
                // is the declarator's last named child.
                "variable_declarator" => {
                    let kids = named_children(n);
                    let value = kids.last().copied().filter(|_| kids.len() > 1);
                    (field(n, "name"), value)
                }
                // `public int RetryCount { get; set; } = 10;`
                "property_declaration" => (
                    field(n, "name"),
                    field(n, "value").filter(|v| v.kind_str() != "arrow_expression_clause"),
                ),
                // `int retries = 3` (a parameter's default: what applies
                // when a caller passes none).
                "parameter" => (
                    field(n, "name"),
                    named_children(n)
                        .into_iter()
                        .skip_while(|c| Some(c.id()) != field(n, "name").map(|x| x.id()))
                        .nth(1),
                ),
                // `_retryCount = retryCount;` (a field set in a constructor).
                // An assignment under an `if`, `catch` or `switch`
                // (`if (wait < 0) wait = 0;`) holds only sometimes: not
                // the name's value.
                "assignment_expression" => {
                    let left = field(n, "left").filter(|l| l.kind_str() == "identifier");
                    let plain = field(n, "operator").is_some_and(|o| text(o, src) == "=");
                    let plain = plain && !conditional(&parents, n);
                    (left.filter(|_| plain), field(n, "right"))
                }
                _ => continue,
            };
            if let (Some(k), Some(v)) = (name, value) {
                bindings.entry(text(k, src)).or_default().push(v);
            }
        }
        Ctx {
            src,
            nodes,
            bindings,
            parents,
            methods,
        }
    }

    /// `n`'s parent, what `Node::parent` gives: from the file's index,
    /// tree-sitter's walk from the root only for a node the index lacks.
    pub fn parent(&self, n: Node<'a>) -> Option<Node<'a>> {
        parent_in(&self.parents, n)
    }

    pub fn text(&self, n: Node<'_>) -> &'a str {
        text(n, self.src)
    }

    /// The value bound to `name` most recently before `at`, else the first
    /// binding of it anywhere in the file (a field declared below).
    pub fn binding(&self, name: &str, at: usize) -> Option<Node<'a>> {
        let all = self.bindings.get(name)?;
        all.iter()
            .rev()
            .find(|v| v.end_byte() <= at)
            .or_else(|| all.first())
            .copied()
    }

    /// The nodes inside `n` (itself included), in source order.
    pub fn subtree(&self, n: Node<'_>) -> &[Node<'a>] {
        let from = self
            .nodes
            .partition_point(|x| x.start_byte() < n.start_byte());
        let Some(at) = self.nodes[from..]
            .iter()
            .take_while(|x| x.start_byte() == n.start_byte())
            .position(|x| x.id() == n.id())
            .map(|i| from + i)
        else {
            return &[];
        };
        let len = self.nodes[at + 1..]
            .iter()
            .take_while(|x| x.start_byte() < n.end_byte())
            .count();
        &self.nodes[at..at + 1 + len]
    }
}

/// `n`'s parent from `parents` (an [`index`]'s), else tree-sitter's.
fn parent_in<'a>(parents: &IdMap<Node<'a>>, n: Node<'a>) -> Option<Node<'a>> {
    match parents.get(&n.id()) {
        Some(&p) => Some(p),
        None => n.parent(),
    }
}

/// Whether `n` runs only on some paths of its function: under an `if`,
/// a `catch` or a `switch` section.
fn conditional<'a>(parents: &IdMap<Node<'a>>, n: Node<'a>) -> bool {
    let mut cur = parent_in(parents, n);
    for _ in 0..MAX_CLIMB {
        let Some(c) = cur else { return false };
        match c.kind_str() {
            "if_statement" | "catch_clause" | "switch_section" | "conditional_expression" => {
                return true;
            }
            "method_declaration"
            | "constructor_declaration"
            | "local_function_statement"
            | "lambda_expression"
            | "anonymous_method_expression"
            | "class_declaration" => return false,
            _ => {}
        }
        cur = parent_in(parents, c);
    }
    false
}

pub fn span(n: Node<'_>) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

pub fn text<'t>(n: Node<'_>, src: &'t str) -> &'t str {
    src.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

/// `n`'s child in field `name` (`child_by_field_name`, the field's id
/// from the grammar's table).
pub fn field<'a>(n: Node<'a>, name: &str) -> Option<Node<'a>> {
    grammar().field(n, name)
}

pub fn named_children(n: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = n.walk();
    n.named_children(&mut cursor)
        .filter(|c| c.kind_str() != "comment")
        .collect()
}

/// Source text on one line, for messages.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An invocation's method name (`AddRetry` of `builder.AddRetry(..)`,
/// `AddHttpClient` of `AddHttpClient<T>(..)`) and its receiver, if any.
pub fn method<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> Option<(&'a str, Option<Node<'a>>)> {
    match ctx.methods.get(&call.id()) {
        Some(&m) => Some(m),
        None => method_of(ctx.src, call),
    }
}

/// [`method`] read from the tree.
fn method_of<'a>(src: &'a str, call: Node<'a>) -> Option<(&'a str, Option<Node<'a>>)> {
    let f = field(call, "function")?;
    let (name, recv) = match f.kind_str() {
        "member_access_expression" => (field(f, "name")?, field(f, "expression")),
        "identifier" | "generic_name" => (f, None),
        _ => return None,
    };
    let name = match name.kind_str() {
        "generic_name" => named_children(name).into_iter().next()?,
        _ => name,
    };
    Some((text(name, src), recv))
}

/// An invocation's arguments (the expressions; named arguments with their
/// names).
pub fn args<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> Vec<(Option<&'a str>, Node<'a>)> {
    let Some(list) = field(call, "arguments") else {
        return Vec::new();
    };
    named_children(list)
        .into_iter()
        .filter(|a| a.kind_str() == "argument")
        .filter_map(|a| {
            let name = field(a, "name").map(|n| ctx.text(n));
            let value = named_children(a).into_iter().last()?;
            Some((name, value))
        })
        .collect()
}

/// The type arguments of a generic method name (`T` of `AddHttpClient<T>`).
pub fn type_args<'a>(ctx: &Ctx<'a>, call: Node<'a>) -> Vec<&'a str> {
    let Some(f) = field(call, "function") else {
        return Vec::new();
    };
    let g = match f.kind_str() {
        "member_access_expression" => field(f, "name"),
        _ => Some(f),
    };
    let Some(g) = g.filter(|g| g.kind_str() == "generic_name") else {
        return Vec::new();
    };
    named_children(g)
        .into_iter()
        .filter(|c| c.kind_str() == "type_argument_list")
        .flat_map(named_children)
        .map(|t| ctx.text(t))
        .collect()
}

/// The invocations of a fluent chain that `call` ends, innermost
/// (first called) first: `a.B().C().D()` from `D` gives `B, C, D`.
pub fn chain<'a>(call: Node<'a>) -> Vec<Node<'a>> {
    let mut out = vec![call];
    let mut cur = call;
    for _ in 0..MAX_CLIMB {
        let Some(recv) = field(cur, "function").and_then(|f| field(f, "expression")) else {
            break;
        };
        if recv.kind_str() != "invocation_expression" {
            break;
        }
        out.push(recv);
        cur = recv;
    }
    out.reverse();
    out
}

/// The innermost lambda `n` is written in, and the invocation the lambda
/// is an argument of.
pub fn enclosing_lambda_call<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<(Node<'a>, Node<'a>)> {
    let mut cur = ctx.parent(n);
    let mut lambda = None;
    for _ in 0..MAX_CLIMB {
        let c = cur?;
        match c.kind_str() {
            "lambda_expression" | "anonymous_method_expression" => lambda = Some(c),
            "invocation_expression" if lambda.is_some() => return Some((lambda?, c)),
            _ => {}
        }
        cur = ctx.parent(c);
    }
    None
}

/// A retry count as attempts, the shape EF Core's `maxRetryCount` and the
/// Azure SDK's `MaxRetries` share (duplicates D8): the written count of
/// retries (`key`, at `at`, shown as `key{sep}value`: `maxRetryCount: 4`
/// for an argument, `MaxRetries = 4` for a property) plus the first try,
/// or `default` retries when nothing is written. A negative count is the `negative` reading: a
/// finding with its reason and one attempt, or unknown without a reason.
pub(super) fn retries_or_default(
    ctx: &Ctx<'_>,
    written: Option<(Node<'_>, Span)>,
    (key, sep): (&str, &str),
    default: u64,
    anchor: Span,
    negative: Option<&str>,
    facts: &mut Facts,
) -> crate::model::Located<crate::model::Attempts> {
    use crate::model::{AttemptCount, Attempts, Located};
    let Some((v, at)) = written else {
        return Located::default_at(
            Attempts {
                count: AttemptCount::Finite(default + 1),
                written_as: format!("{key}: {default} (the default, retries)"),
            },
            anchor,
        );
    };
    let text = one_line(ctx.text(v));
    let count = match eval::int(ctx, v) {
        Some(n) if n >= 0 => AttemptCount::Finite(n as u64 + 1),
        Some(n) => match negative {
            Some(reason) => {
                facts.diagnostics.push(crate::diag::invalid_setting::value(
                    span(v),
                    key,
                    &n.to_string(),
                    reason,
                ));
                AttemptCount::Finite(1)
            }
            None => AttemptCount::Unknown,
        },
        None => AttemptCount::Unknown,
    };
    Located::written(
        Attempts {
            count,
            written_as: format!("{key}{sep}{text} (retries)"),
        },
        at,
    )
}
