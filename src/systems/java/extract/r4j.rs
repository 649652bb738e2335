//! Resilience4j configured in Java code.
//!
//! - `RetryConfig.custom()` / `RetryConfig.from(base)` builder chains and
//!   builder variables mutated by later statements; `RetryConfig.ofDefaults()`.
//! - `Retry.of(name, config)`, `Retry.ofDefaults(name)`,
//!   `registry.retry(name[, config])`: one policy per instance, named after
//!   the instance (so that the graph can tie it to the YAML instance of the
//!   same name). A config that comes from outside the file leaves attempts,
//!   delay and conditions unknown.
//! - `@Retry(name = ..)` on a method: a policy whose settings live in YAML;
//!   with `@CircuitBreaker` on the same method the retry is outside the
//!   breaker (Spring Boot aspect order: Retry ( CircuitBreaker ( RateLimiter
//!   ( TimeLimiter ( Bulkhead ( method ))))), and `@TimeLimiter` bounds each
//!   attempt.
//! - Composition: `Decorators.ofX(..).withA(..).withB(..)` (later = outer),
//!   Reactor `.transform(XOperator.of(..))` chains (later = outer), and
//!   nested `outer.executeX(inner.decorateX(..))` / static `decorateX`.
//!   A time limiter inside the retry is its per-try timeout, one outside it
//!   an overall timeout.
//!
//! Semantics (resilience4j 2.x `RetryConfig.Builder`): `maxAttempts` >= 1,
//! default 3 total; default interval `IntervalFunction.ofDefaults()` = 500
//! ms fixed; `waitDuration` and `intervalBiFunction` share one slot with
//! `intervalFunction` (the last call wins in current versions, `build()`
//! rejected both in earlier ones); exceptions retried = `retryExceptions`
//! or the `retryOnException` predicate, minus `ignoreExceptions`; every
//! Throwable when none is given. `IntervalFunction.ofExponentialRandomBackoff(
//! .., maxInterval)` applies `Math.min` after `randomize`, so the cap clips
//! the jitter; multiplier default 1.5, randomisation factor 0.5.

use super::ast::Kind as _;
use super::ast::{self, Chain, MAX_DEPTH, field, span};
use super::predicates;
use super::{Ctx, Out, RetryScope, attempts_default, attempts_written};
use crate::diag::invalid_setting;
use crate::extract::Facts;
use crate::model::*;
use crate::source::Span;
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use tree_sitter::Node;

mod builder;

pub use builder::{Cfg, config, policy, status_predicate};

const MS: Duration = Duration::from_millis(1);
use crate::systems::resilience4j::{
    DEFAULT_MAX_ATTEMPTS, DEFAULT_MULTIPLIER, DEFAULT_RANDOMIZATION_FACTOR as DEFAULT_FACTOR,
    DEFAULT_WAIT, default_attempts_text,
};

/// What an expression denotes for composition.
#[derive(Clone, Debug)]
enum Kind {
    /// A retry, with its policy when it was created in this file.
    Retry(Option<usize>),
    Breaker,
    Limiter(Located<Timeout>),
}

#[derive(Clone, Debug)]
struct Layer {
    kind: Kind,
    span: Span,
}

struct State<'a> {
    /// Creation call (node id) -> policy index.
    created: HashMap<usize, usize>,
    /// Innermost callables of retry layers: (node, policy).
    callables: Vec<(Node<'a>, usize)>,
}

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    let r4j =
        ctx.imports_prefix("io.github.resilience4j") || ctx.src.contains("io.github.resilience4j");
    if !r4j {
        return;
    }
    let mut st = State {
        created: HashMap::new(),
        callables: Vec::new(),
    };
    let mut consumed: HashSet<usize> = HashSet::new();
    let mut diags = Vec::new();

    // Retry instances.
    for &n in &ctx.nodes {
        if n.kind_str() != "method_invocation" {
            continue;
        }
        let Some(name_node) = field(n, "name") else {
            continue;
        };
        let method = ctx.text(name_node);
        let obj = field(n, "object");
        let obj_text = ctx.name_of(obj);
        let args = field(n, "arguments")
            .map(|x| ctx.named_children(x))
            .unwrap_or_default();
        let (name_arg, cfg) = match (ast::last_segment(obj_text), method) {
            ("Retry", "of") if args.len() >= 2 => {
                (args.first().copied(), config(ctx, args[1], &mut diags, 0))
            }
            ("Retry", "ofDefaults") => (
                args.first().copied(),
                Some(Cfg::new(span(n), n.start_byte(), false)),
            ),
            (_, "retry") if obj.is_some_and(|o| is_registry(ctx, o)) && !args.is_empty() => {
                let cfg = match args.get(1) {
                    Some(a) if ctx.string(*a).is_none() => config(ctx, *a, &mut diags, 0),
                    Some(_) => None,
                    None => obj.and_then(|o| registry_default(ctx, o, &mut diags)),
                };
                (args.first().copied(), cfg)
            }
            _ => continue,
        };
        if let Some(c) = &cfg {
            consumed.insert(c.origin);
        }
        let name = name_arg.and_then(|a| ctx.string(a));
        let p = policy(cfg.as_ref(), name, span(n));
        st.created.insert(n.id(), facts.policies.len());
        facts.policies.push(p);
    }
    // Registries built from a local config consume it.
    for &n in &ctx.nodes {
        if n.kind_str() == "method_invocation"
            && ast::last_segment(ctx.name_of(field(n, "object"))) == "RetryRegistry"
            && let Some(a) =
                field(n, "arguments").and_then(|a| ctx.named_children(a).first().copied())
            && let Some(c) = config(ctx, a, &mut Vec::new(), 0)
        {
            consumed.insert(c.origin);
        }
    }
    // Configs built here but not turned into a retry in this file.
    for &n in &ctx.nodes {
        if n.kind_str() != "method_invocation" || ctx.is_chain_link(n) {
            continue;
        }
        let c = ast::chain(n, ctx.src);
        if ast::last_segment(c.root_text(ctx.src)) != "RetryConfig"
            || !matches!(
                c.first().map(|f| f.name.as_str()),
                Some("custom" | "from" | "ofDefaults")
            )
        {
            continue;
        }
        // Only the outermost call of the chain.
        if ctx.is_chain_link(n) {
            continue;
        }
        let origin = c.first().map_or(0, |f| f.node.start_byte());
        if consumed.contains(&origin) {
            continue;
        }
        // Evaluate through the variable it is stored in, so that later
        // statements on the builder count.
        let (cfg, name) = match ctx.parent(n) {
            Some(p) if p.kind_str() == "variable_declarator" => {
                let var = field(p, "name");
                (
                    var.and_then(|v| config(ctx, v, &mut diags, 0)),
                    var.map(|v| ctx.text(v).to_string()),
                )
            }
            Some(p) if p.kind_str() == "return_statement" => (
                config(ctx, n, &mut diags, 0),
                ctx.enclosing_method(n).map(|(_, m)| m),
            ),
            _ => (config(ctx, n, &mut diags, 0), None),
        };
        let Some(cfg) = cfg else { continue };
        if !consumed.insert(origin) {
            continue;
        }
        facts.policies.push(policy(Some(&cfg), name, cfg.span));
    }

    annotations(ctx, facts, out);
    composition(ctx, facts, &mut st);
    for (node, policy) in st.callables {
        for body in ctx.callable_bodies(node) {
            out.scopes.push(RetryScope { body, policy });
        }
    }
    dedup_diags(&mut diags);
    facts.diagnostics.extend(diags);
}

fn dedup_diags(d: &mut Vec<crate::diag::Diagnostic>) {
    let mut seen = HashSet::new();
    d.retain(|x| seen.insert((x.span, x.message.clone())));
}

fn is_registry(ctx: &Ctx<'_>, o: Node<'_>) -> bool {
    // `retryRegistry`, `ResilienceUtil.getRetryRegistry()`.
    let t = if o.kind_str() == "method_invocation" {
        field(o, "name").map_or(String::new(), |n| ctx.text(n).to_ascii_lowercase())
    } else {
        ctx.name_of(Some(o)).to_ascii_lowercase()
    };
    if t.contains("retryregistry") {
        return true;
    }
    if o.kind_str() == "identifier"
        && let Some(v) = ctx.var(ctx.text(o), o)
    {
        return ast::simple_type(v.ty) == "RetryRegistry";
    }
    false
}

/// The default config of a registry built in this file.
fn registry_default(
    ctx: &Ctx<'_>,
    o: Node<'_>,
    diags: &mut Vec<crate::diag::Diagnostic>,
) -> Option<Cfg> {
    let r = ctx.resolve(o);
    if r.kind_str() != "method_invocation" {
        return None;
    }
    let c = ast::chain(r, ctx.src);
    if ast::last_segment(c.root_text(ctx.src)) != "RetryRegistry" || c.calls.len() != 1 {
        return None;
    }
    let f = c.first()?;
    match f.name.as_str() {
        "ofDefaults" => Some(Cfg::new(span(r), r.start_byte(), false)),
        "of" => config(ctx, *f.args.first()?, diags, 0),
        _ => None,
    }
}

/// Annotations of a method declaration: (simple name, node).
pub fn method_annotations<'a>(ctx: &Ctx<'a>, m: Node<'a>) -> Vec<(&'a str, Node<'a>)> {
    let mut out = Vec::new();
    for c in ctx.named_children(m) {
        if c.kind_str() != "modifiers" {
            continue;
        }
        for a in ctx.named_children(c) {
            if matches!(a.kind_str(), "annotation" | "marker_annotation")
                && let Some(name) = field(a, "name")
            {
                out.push((ast::last_segment(ctx.text(name)), a));
            }
        }
    }
    out
}

/// `key = value` pairs of an annotation, and its single unnamed value
/// under the key `value`.
pub fn annotation_args<'a>(ctx: &Ctx<'a>, a: Node<'a>) -> Vec<(&'a str, Node<'a>, Span)> {
    let Some(list) = field(a, "arguments") else {
        return Vec::new();
    };
    ctx.named_children(list)
        .into_iter()
        .filter_map(|e| {
            if e.kind_str() == "element_value_pair" {
                let k = field(e, "key")?;
                let v = field(e, "value")?;
                Some((ctx.text(k), v, span(e)))
            } else {
                Some(("value", e, span(e)))
            }
        })
        .collect()
}

fn annotations<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    let retry_annotation = ctx.imports("io.github.resilience4j.retry.annotation.Retry");
    for &m in &ctx.nodes {
        if m.kind_str() != "method_declaration" {
            continue;
        }
        let anns = method_annotations(ctx, m);
        let Some((_, retry)) = anns.iter().find(|(n, a)| {
            *n == "Retry"
                && (retry_annotation
                    || field(*a, "name")
                        .is_some_and(|x| ctx.text(x).starts_with("io.github.resilience4j")))
        }) else {
            continue;
        };
        let args = annotation_args(ctx, *retry);
        let name = args
            .iter()
            .find(|(k, ..)| *k == "name")
            .and_then(|(_, v, _)| ctx.string(*v));
        let at = span(*retry);
        let mut p = policy(None, name, at);
        p.attempts.value.written_as = "maxAttempts (set for the instance in configuration)".into();
        // One Java method is retried; its HTTP method is not visible here.
        p.methods = Located::default_at(Methods::Unknown, at);
        if let Some((_, cb)) = anns.iter().find(|(n, _)| *n == "CircuitBreaker") {
            p.wraps_breaker.push(at);
            // Its settings are the configuration's instance of this name.
            p.breaker = Some(WrappedBreaker {
                name: annotation_args(ctx, *cb)
                    .iter()
                    .find(|(k, ..)| *k == "name")
                    .and_then(|(_, v, _)| ctx.string(*v)),
                settings: None,
            });
        }
        if let Some((_, tl)) = anns.iter().find(|(n, _)| *n == "TimeLimiter") {
            p.per_try_timeout = Some(Located::written(Timeout::Unknown, span(*tl)));
        }
        let idx = facts.policies.len();
        facts.policies.push(p);
        if let Some(body) = field(m, "body") {
            out.scopes.push(RetryScope { body, policy: idx });
        }
    }
}

/// What `n` denotes: a retry, a circuit breaker or a time limiter.
fn kind_of(ctx: &Ctx<'_>, st: &State<'_>, n: Node<'_>) -> Option<Kind> {
    let n = ast::unwrap_expr(n);
    let r = ctx.resolve(n);
    if let Some(i) = st.created.get(&r.id()) {
        return Some(Kind::Retry(Some(*i)));
    }
    let ty = if n.kind_str() == "identifier" || n.kind_str() == "field_access" {
        let name = if n.kind_str() == "field_access" {
            field(n, "field").map_or("", |f| ctx.text(f))
        } else {
            ctx.text(n)
        };
        ctx.var(name, n).map_or("", |v| ast::simple_type(v.ty))
    } else {
        ""
    };
    let (root, last) = if r.kind_str() == "method_invocation" {
        let c = ast::chain(r, ctx.src);
        (
            ast::last_segment(c.root_text(ctx.src)).to_string(),
            c.last().map(|l| l.name.clone()).unwrap_or_default(),
        )
    } else {
        (String::new(), String::new())
    };
    if ty == "Retry" || root == "Retry" || (last == "retry" && is_registry_chain(ctx, r)) {
        return Some(Kind::Retry(None));
    }
    if ty == "CircuitBreaker" || root == "CircuitBreaker" || last == "circuitBreaker" {
        return Some(Kind::Breaker);
    }
    if ty == "TimeLimiter" || root == "TimeLimiter" || last == "timeLimiter" {
        return Some(Kind::Limiter(limiter_timeout(ctx, n)));
    }
    None
}

fn is_registry_chain(ctx: &Ctx<'_>, r: Node<'_>) -> bool {
    field(r, "object").is_some_and(|o| is_registry(ctx, o))
}

/// The timeout of a time limiter expression.
fn limiter_timeout(ctx: &Ctx<'_>, n: Node<'_>) -> Located<Timeout> {
    let r = ctx.resolve(n);
    let unknown = Located::written(Timeout::Unknown, span(n));
    if r.kind_str() != "method_invocation" {
        return unknown;
    }
    let c = ast::chain(r, ctx.src);
    if ast::last_segment(c.root_text(ctx.src)) != "TimeLimiter" {
        return unknown;
    }
    let Some(f) = c.first() else { return unknown };
    let default = Located::default_at(Timeout::after(Duration::from_secs(1)), span(r));
    match f.name.as_str() {
        "ofDefaults" => default,
        "of" => {
            let Some(a) = f.args.last() else {
                return default;
            };
            if let Some(d) = ctx.duration(*a, MS) {
                return Located::written(Timeout::after(d), span(*a));
            }
            let cfg = ctx.resolve(*a);
            if cfg.kind_str() == "method_invocation" {
                let cc = ast::chain(cfg, ctx.src);
                if let Some(t) = cc.calls.iter().find(|x| x.name == "timeoutDuration")
                    && let Some(d) = t.args.first().and_then(|x| ctx.duration(*x, MS))
                {
                    return Located::written(Timeout::after(d), t.span);
                }
                if ast::last_segment(cc.root_text(ctx.src)) == "TimeLimiterConfig" {
                    return default;
                }
            }
            unknown
        }
        _ => unknown,
    }
}

/// The layers an expression applies, innermost first, and the innermost
/// callable they wrap.
fn layers<'a>(
    ctx: &Ctx<'a>,
    st: &State<'a>,
    n: Node<'a>,
    depth: usize,
) -> (Vec<Layer>, Option<Node<'a>>) {
    if depth > MAX_DEPTH {
        return (Vec::new(), None);
    }
    let n = ast::unwrap_expr(n);
    match n.kind_str() {
        "identifier" => {
            // A local holding a decorated callable.
            match ctx.var(ctx.text(n), n).and_then(|v| v.value) {
                Some(v)
                    if v.id() != n.id()
                        && v.kind_str() != "lambda_expression"
                        && v.kind_str() != "method_reference" =>
                {
                    let (l, inner) = layers(ctx, st, v, depth + 1);
                    if l.is_empty() {
                        (l, Some(n))
                    } else {
                        (l, inner)
                    }
                }
                _ => (Vec::new(), Some(n)),
            }
        }
        "lambda_expression" => {
            let body = field(n, "body");
            let expr = match body {
                Some(b) if b.kind_str() == "block" => {
                    let stmts = ctx.named_children(b);
                    match stmts.as_slice() {
                        [s] if matches!(
                            s.kind_str(),
                            "return_statement" | "expression_statement"
                        ) =>
                        {
                            ctx.named_children(*s).first().copied()
                        }
                        _ => None,
                    }
                }
                other => other,
            };
            match expr {
                Some(e) => {
                    let (l, inner) = layers(ctx, st, e, depth + 1);
                    if l.is_empty() {
                        (l, Some(n))
                    } else {
                        (l, inner)
                    }
                }
                None => (Vec::new(), Some(n)),
            }
        }
        "method_invocation" => {
            let c = ast::chain(n, ctx.src);
            let root = ast::last_segment(c.root_text(ctx.src)).to_string();
            let Some(first) = c.first() else {
                return (Vec::new(), Some(n));
            };
            if root == "Decorators" && first.name.starts_with("of") {
                let (mut l, inner) = match first.args.first() {
                    Some(a) => layers(ctx, st, *a, depth + 1),
                    None => (Vec::new(), None),
                };
                for call in &c.calls[1..] {
                    let arg = call.args.first().copied();
                    let kind = match call.name.as_str() {
                        "withRetry" => arg.map(|a| match kind_of(ctx, st, a) {
                            Some(Kind::Retry(i)) => Kind::Retry(i),
                            _ => Kind::Retry(None),
                        }),
                        "withCircuitBreaker" => Some(Kind::Breaker),
                        "withTimeLimiter" => arg.map(|a| Kind::Limiter(limiter_timeout(ctx, a))),
                        _ => None,
                    };
                    if let Some(kind) = kind {
                        l.push(Layer {
                            kind,
                            span: call.span,
                        });
                    }
                }
                return (l, inner);
            }
            if c.calls
                .iter()
                .any(|x| x.name.starts_with("transform") || x.name == "compose")
            {
                let (mut l, inner) = match c.root {
                    Some(r) => layers(ctx, st, r, depth + 1),
                    None => (Vec::new(), None),
                };
                for call in &c.calls {
                    if !(call.name.starts_with("transform") || call.name == "compose") {
                        continue;
                    }
                    let Some(op) = call.args.first() else {
                        continue;
                    };
                    let oc = ast::chain(ast::unwrap_expr(*op), ctx.src);
                    let arg = oc.first().and_then(|f| f.args.first().copied());
                    let kind = match ast::last_segment(oc.root_text(ctx.src)) {
                        "RetryOperator" => {
                            Some(Kind::Retry(arg.and_then(|a| match kind_of(ctx, st, a) {
                                Some(Kind::Retry(i)) => i,
                                _ => None,
                            })))
                        }
                        "CircuitBreakerOperator" => Some(Kind::Breaker),
                        "TimeLimiterOperator" => {
                            arg.map(|a| Kind::Limiter(limiter_timeout(ctx, a)))
                        }
                        _ => None,
                    };
                    if let Some(kind) = kind {
                        l.push(Layer {
                            kind,
                            span: call.span,
                        });
                    }
                }
                return (l, inner);
            }
            let Some(last) = c.last() else {
                return (Vec::new(), Some(n));
            };
            if !(last.name.starts_with("decorate") || last.name.starts_with("execute")) {
                // `.get()`, `.apply(..)`, `.toCompletableFuture()` on a
                // decorated callable: look at what it is called on.
                return match field(n, "object") {
                    Some(o) if o.kind_str() == "method_invocation" => layers(ctx, st, o, depth + 1),
                    _ => (Vec::new(), Some(n)),
                };
            }
            let Some(inner_arg) = last.args.last().copied() else {
                return (Vec::new(), Some(n));
            };
            // Static `Retry.decorateSupplier(retry, inner)` or instance
            // `retry.decorateSupplier(inner)`.
            let kind = if c.calls.len() == 1
                && matches!(root.as_str(), "Retry" | "CircuitBreaker" | "TimeLimiter")
            {
                let inst = last.args.first().copied();
                match root.as_str() {
                    "Retry" => Some(Kind::Retry(inst.and_then(|a| match kind_of(ctx, st, a) {
                        Some(Kind::Retry(i)) => i,
                        _ => None,
                    }))),
                    "CircuitBreaker" => Some(Kind::Breaker),
                    _ => Some(Kind::Limiter(
                        inst.map_or(Located::written(Timeout::Unknown, last.span), |a| {
                            limiter_timeout(ctx, a)
                        }),
                    )),
                }
            } else {
                field(last.node, "object").and_then(|o| kind_of(ctx, st, o))
            };
            let Some(kind) = kind else {
                return (Vec::new(), Some(n));
            };
            let (mut l, inner) = layers(ctx, st, inner_arg, depth + 1);
            l.push(Layer {
                kind,
                span: last.span,
            });
            (l, inner)
        }
        _ => (Vec::new(), Some(n)),
    }
}

fn composition<'a>(ctx: &Ctx<'a>, facts: &mut Facts, st: &mut State<'a>) {
    let mut wraps: HashSet<(usize, Span)> = HashSet::new();
    let mut callables: HashSet<(usize, usize)> = HashSet::new();
    for &n in &ctx.nodes {
        if n.kind_str() != "method_invocation" {
            continue;
        }
        // Only the outermost call of a chain.
        if ctx.is_chain_link(n) {
            continue;
        }
        let (ls, inner) = layers(ctx, st, n, 0);
        for (i, l) in ls.iter().enumerate() {
            let Kind::Retry(Some(idx)) = l.kind else {
                continue;
            };
            if let Some(inner) = inner
                && callables.insert((inner.id(), idx))
            {
                st.callables.push((inner, idx));
            }
            let Some(p) = facts.policies.get_mut(idx) else {
                continue;
            };
            for (j, other) in ls.iter().enumerate() {
                match &other.kind {
                    Kind::Breaker if j < i && wraps.insert((idx, l.span)) => {
                        p.wraps_breaker.push(l.span);
                    }
                    Kind::Limiter(t) if j < i && p.per_try_timeout.is_none() => {
                        p.per_try_timeout = Some(t.clone());
                    }
                    Kind::Limiter(t) if j > i && p.overall_timeout.is_none() => {
                        p.overall_timeout = Some(t.clone());
                    }
                    _ => {}
                }
            }
        }
    }
}
