//! Java source: retry policies written in code, read with tree-sitter.
//!
//! - Resilience4j programmatic configuration ([`r4j`]): `RetryConfig`
//!   builders, `Retry.of`, registry lookups, `@Retry`, and how a retry is
//!   composed with circuit breakers and time limiters.
//! - Spring Retry and Spring Framework 7 `@Retryable`, Spring Retry
//!   `RetryTemplate` builders ([`spring`]).
//! - Spring Framework 7 `RetryPolicy` and `RetryTemplate`
//!   ([`core_retry`]).
//! - Failsafe `RetryPolicy` builders ([`failsafe`]).
//! - guava-retrying `RetryerBuilder` chains ([`guava_retrying`]).
//! - OpenFeign `Retryer.Default` and `Feign.builder()` ([`feign`]).
//! - Reactor `retryWhen(..)` / `.retry(n)` on `Mono`/`Flux` chains
//!   ([`reactor`]).
//! - Hand-written retry loops ([`loops`]).
//! - Idempotency keys minted inside a retry scope, and URL literals as call
//!   edges (here).
//!
//! A file is parsed only when a cheap sniff ([`wants`]) finds a word that
//! retry code uses; a parse error is tolerated (what parses is read).
//! Nothing here recurses on the tree's depth: traversals use explicit
//! stacks, and helpers that follow variables stop at [`ast::MAX_DEPTH`].

pub mod ast;
pub mod concat;
pub mod core_retry;
pub mod failsafe;
pub mod feign;
pub mod guava_retrying;
pub mod loops;
pub mod predicates;
pub mod prune;
pub mod r4j;
pub mod reactor;
pub mod spring;

use super::Facts;
use crate::model::*;
use crate::source::Span;
use ast::{MAX_DEPTH, field, named_children, span, text, unwrap_expr};
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::{Node, Parser};

/// Words that make a Java file worth parsing.
const SNIFF: &[&str] = &[
    "retry",
    "Retry",
    "RETRY",
    "retries",
    "Retries",
    "RETRIES",
    "Failsafe",
    // A Feign client retries 5 times unless told otherwise; a Spring
    // Cloud one is a call.
    "Feign.builder",
    "FeignClient",
    "sleep",
    "parkNanos",
    "UUID",
    // Counters, not the word "attempt" of comments ("attempt to ..").
    "attempts",
    "Attempts",
    "ATTEMPTS",
    "attempt++",
    "attempt <",
    "backoff",
    "Backoff",
    "BackOff",
    "methodConfig",
];

/// Whether a `.java` file's bytes are worth parsing.
pub fn wants(bytes: &[u8]) -> bool {
    static FINDER: std::sync::LazyLock<super::Needles> =
        std::sync::LazyLock::new(|| super::Needles::new(SNIFF.iter().copied()));
    FINDER.any_in(bytes)
}

/// A variable, field or parameter: its declared type and initializer.
#[derive(Clone, Copy, Debug)]
pub struct Var<'a> {
    pub ty: &'a str,
    pub value: Option<Node<'a>>,
    pub node: Node<'a>,
    /// The method or constructor it is declared in (`None` for a field).
    pub scope: Option<usize>,
}

/// One parsed file and the indices the extractors share.
pub struct Ctx<'a> {
    pub src: &'a str,
    pub root: Node<'a>,
    /// Every named node, in source order.
    pub nodes: Vec<Node<'a>>,
    pub imports: Vec<&'a str>,
    vars: HashMap<&'a str, Vec<Var<'a>>>,
    /// Method invocations in expression statements whose chain starts at a
    /// variable (`builder.maxAttempts(3);`), by variable name.
    mutations: HashMap<&'a str, Vec<Node<'a>>>,
    /// Method declarations by name.
    methods: HashMap<&'a str, Vec<Node<'a>>>,
    /// Values assigned to a name or `this.name` with `=`, by name.
    assigns: HashMap<&'a str, Vec<Node<'a>>>,
    /// Names assigned to or incremented anywhere (`i++`, `x += 2`,
    /// `x = ..` after the declaration): their initializer is not their value.
    mutated: std::collections::HashSet<&'a str>,
    /// Each node's parent by node id (tree-sitter's own `parent()` walks
    /// down from the root, which is quadratic on deep trees).
    parents: HashMap<usize, Node<'a>>,
}

impl<'a> Ctx<'a> {
    pub fn new(src: &'a str, root: Node<'a>) -> Self {
        let mut nodes = Vec::new();
        let mut parents = HashMap::new();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            nodes.push(n);
            for k in named_children(n).into_iter().rev() {
                parents.insert(k.id(), n);
                stack.push(k);
            }
        }
        let pctx = Parents(&parents);
        let mut imports = Vec::new();
        let mut vars: HashMap<&'a str, Vec<Var<'a>>> = HashMap::new();
        let mut mutations: HashMap<&'a str, Vec<Node<'a>>> = HashMap::new();
        let mut methods: HashMap<&'a str, Vec<Node<'a>>> = HashMap::new();
        let mut assigns: HashMap<&'a str, Vec<Node<'a>>> = HashMap::new();
        let mut mutated = std::collections::HashSet::new();
        for &n in &nodes {
            match n.kind() {
                "import_declaration" => {
                    let t = text(n, src)
                        .trim_start_matches("import")
                        .trim()
                        .trim_start_matches("static ")
                        .trim_end_matches(';')
                        .trim();
                    imports.push(t);
                }
                "variable_declarator" => {
                    let Some(name) = field(n, "name").map(|x| text(x, src)) else {
                        continue;
                    };
                    let ty = pctx
                        .parent(n)
                        .and_then(|p| field(p, "type"))
                        .map_or("", |t| text(t, src));
                    let scope = pctx.enclosing_method(n).map(|m| m.id());
                    vars.entry(name).or_default().push(Var {
                        ty,
                        value: field(n, "value"),
                        node: n,
                        scope,
                    });
                }
                "formal_parameter" | "catch_formal_parameter" => {
                    let Some(name) = field(n, "name").map(|x| text(x, src)) else {
                        continue;
                    };
                    let ty = field(n, "type").map_or("", |t| text(t, src));
                    let scope = pctx.enclosing_method(n).map(|m| m.id());
                    vars.entry(name).or_default().push(Var {
                        ty,
                        value: None,
                        node: n,
                        scope,
                    });
                }
                "expression_statement" => {
                    if let Some(e) = named_children(n).first()
                        && e.kind() == "method_invocation"
                    {
                        let c = ast::chain(*e, src);
                        if let Some(r) = c.root
                            && r.kind() == "identifier"
                        {
                            mutations.entry(text(r, src)).or_default().push(*e);
                        }
                    }
                }
                "method_declaration" => {
                    if let Some(name) = field(n, "name") {
                        methods.entry(text(name, src)).or_default().push(n);
                    }
                }
                "update_expression" => {
                    if let Some(id) = named_children(n).first()
                        && id.kind() == "identifier"
                    {
                        mutated.insert(text(*id, src));
                    }
                }
                "assignment_expression" => {
                    if let Some(l) = field(n, "left")
                        && l.kind() == "identifier"
                    {
                        mutated.insert(text(l, src));
                    }
                    let op = field(n, "operator").map_or("", |o| text(o, src));
                    if let (Some(l), Some(r), "=") = (field(n, "left"), field(n, "right"), op) {
                        let name = match l.kind() {
                            "identifier" => Some(text(l, src)),
                            "field_access" => field(l, "field").map(|f| text(f, src)),
                            _ => None,
                        };
                        if let Some(name) = name {
                            assigns.entry(name).or_default().push(r);
                        }
                    }
                }
                _ => {}
            }
        }
        Ctx {
            src,
            root,
            nodes,
            imports,
            vars,
            mutations,
            methods,
            assigns,
            mutated,
            parents,
        }
    }

    pub fn parent(&self, n: Node<'_>) -> Option<Node<'a>> {
        self.parents.get(&n.id()).copied()
    }

    /// Whether `n` is the object of a method call (an inner link of a
    /// chain).
    pub fn is_chain_link(&self, n: Node<'_>) -> bool {
        self.parent(n).is_some_and(|p| {
            p.kind() == "method_invocation" && field(p, "object").is_some_and(|o| o.id() == n.id())
        })
    }

    /// The nearest ancestor of one of `kinds`.
    pub fn ancestor(&self, n: Node<'_>, kinds: &[&str]) -> Option<Node<'a>> {
        Parents(&self.parents).ancestor(n, kinds)
    }

    /// The method or constructor that contains `n`, with its name.
    pub fn enclosing_method(&self, n: Node<'_>) -> Option<(Node<'a>, String)> {
        let m = Parents(&self.parents).enclosing_method(n)?;
        let name = field(m, "name").map(|x| self.text(x).to_string())?;
        Some((m, name))
    }

    /// The name of the policy built at `n`: the variable it is assigned
    /// to, else the method it is built in (`@Bean Retryer feignRetryer()`).
    pub fn policy_name(&self, n: Node<'_>) -> Option<String> {
        match self.parent(n) {
            Some(par) if par.kind() == "variable_declarator" => {
                field(par, "name").map(|x| self.text(x).to_string())
            }
            _ => self.enclosing_method(n).map(|(_, m)| m),
        }
    }

    /// The value of a name as seen from `at`: its initializer, else the
    /// first value assigned to it.
    pub fn value_of(&self, name: &str, at: Node<'_>) -> Option<Node<'a>> {
        if let Some(v) = self.var(name, at)
            && let Some(val) = v.value
        {
            return Some(val);
        }
        self.assigns.get(name).and_then(|v| v.first().copied())
    }

    pub fn text(&self, n: Node<'_>) -> &'a str {
        self.src.get(n.start_byte()..n.end_byte()).unwrap_or("")
    }

    /// The text of a name (`retry`, `this.retry`, `a.b.Retry`), or "" for
    /// any other expression, so that callers never scan a long expression.
    pub fn name_of(&self, n: Option<Node<'_>>) -> &'a str {
        match n {
            Some(n)
                if matches!(
                    n.kind(),
                    "identifier"
                        | "field_access"
                        | "scoped_identifier"
                        | "type_identifier"
                        | "this"
                ) && n.end_byte() - n.start_byte() <= 256 =>
            {
                self.text(n)
            }
            _ => "",
        }
    }

    /// Whether the file imports `name` (a class or a package with `.*`).
    pub fn imports(&self, class: &str) -> bool {
        let pkg = class.rsplit_once('.').map_or("", |(p, _)| p);
        self.imports
            .iter()
            .any(|i| *i == class || (i.ends_with(".*") && i.trim_end_matches(".*") == pkg))
    }

    /// Whole method chains (not links of longer ones) whose root's last
    /// name segment is `root` and whose first call is one of `first`:
    /// `RetryPolicy.builder()...build()`, `Failsafe.with(..)...`.
    pub fn chains(&self, root: &str, first: &[&str]) -> Vec<(Node<'a>, ast::Chain<'a>)> {
        self.nodes
            .iter()
            .filter(|n| n.kind() == "method_invocation" && !self.is_chain_link(**n))
            .map(|&n| (n, ast::chain(n, self.src)))
            .filter(|(_, c)| {
                ast::last_segment(c.root_text(self.src)) == root
                    && c.first().is_some_and(|f| first.contains(&f.name.as_str()))
            })
            .collect()
    }

    /// `name` in this file's package (`com.acme.Name`), or `name` alone in
    /// the default package.
    pub fn qualified(&self, name: &str) -> String {
        let package = named_children(self.root)
            .into_iter()
            .find(|n| n.kind() == "package_declaration")
            .map(|p| {
                self.text(p)
                    .trim_start_matches("package")
                    .trim_end_matches(';')
                    .trim()
                    .to_string()
            });
        match package {
            Some(p) if !p.is_empty() => format!("{p}.{name}"),
            _ => name.to_string(),
        }
    }

    pub fn imports_prefix(&self, prefix: &str) -> bool {
        self.imports.iter().any(|i| i.starts_with(prefix))
    }

    /// The variable `name` as seen from `at`: a local of the same method
    /// declared before `at`, else a field, else any declaration.
    pub fn var(&self, name: &str, at: Node<'_>) -> Option<Var<'a>> {
        let vs = self.vars.get(name)?;
        let scope = self.enclosing_method(at).map(|(m, _)| m.id());
        vs.iter()
            .rev()
            .find(|v| {
                v.scope.is_some() && v.scope == scope && v.node.start_byte() <= at.start_byte()
            })
            .or_else(|| vs.iter().find(|v| v.scope.is_none()))
            .or_else(|| vs.iter().find(|v| v.scope == scope))
            .copied()
    }

    /// Statements calling methods on the variable `v` after its declaration,
    /// in the same method.
    pub fn mutations_of(&self, name: &str, v: &Var<'a>) -> Vec<Node<'a>> {
        self.mutations
            .get(name)
            .map(|ms| {
                ms.iter()
                    .copied()
                    .filter(|m| {
                        m.start_byte() > v.node.start_byte()
                            && self.enclosing_method(*m).map(|(x, _)| x.id()) == v.scope
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn methods_named(&self, name: &str) -> &[Node<'a>] {
        self.methods.get(name).map_or(&[], |v| v.as_slice())
    }

    /// Follow an identifier to its initializer, a few steps deep.
    pub fn resolve(&self, n: Node<'a>) -> Node<'a> {
        let mut cur = unwrap_expr(n);
        for _ in 0..MAX_DEPTH {
            if cur.kind() != "identifier" {
                break;
            }
            match self.value_of(self.text(cur), cur) {
                Some(v) if v.id() != cur.id() && !ast::within(cur, v) => cur = unwrap_expr(v),
                _ => break,
            }
        }
        cur
    }

    /// An integer value: a literal, a constant, simple arithmetic, or a
    /// limit of `Integer`, `Long`, `Short` or `Byte` (`MAX_VALUE`,
    /// `MIN_VALUE`), each its own type's.
    pub fn int(&self, n: Node<'a>) -> Option<i128> {
        self.int_d(n, 0)
    }

    fn int_d(&self, n: Node<'a>, depth: usize) -> Option<i128> {
        if depth > MAX_DEPTH {
            return None;
        }
        let n = unwrap_expr(n);
        let t = self.text(n);
        match n.kind() {
            "decimal_integer_literal" | "hex_integer_literal" | "binary_integer_literal" => {
                ast::int_literal(t)
            }
            "identifier" => {
                // A variable that changes has no single value.
                if self.mutated.contains(t) {
                    return None;
                }
                let v = self.var(t, n)?;
                self.int_d(v.value?, depth + 1)
            }
            "field_access" | "scoped_identifier" => match t {
                // java.lang's limits (`Integer.MAX_VALUE` is 2^31-1, not
                // Long's 2^63-1).
                "Integer.MAX_VALUE" | "java.lang.Integer.MAX_VALUE" => Some(i32::MAX.into()),
                "Integer.MIN_VALUE" | "java.lang.Integer.MIN_VALUE" => Some(i32::MIN.into()),
                "Long.MAX_VALUE" | "java.lang.Long.MAX_VALUE" => Some(i64::MAX.into()),
                "Long.MIN_VALUE" | "java.lang.Long.MIN_VALUE" => Some(i64::MIN.into()),
                "Short.MAX_VALUE" | "java.lang.Short.MAX_VALUE" => Some(i16::MAX.into()),
                "Short.MIN_VALUE" | "java.lang.Short.MIN_VALUE" => Some(i16::MIN.into()),
                "Byte.MAX_VALUE" | "java.lang.Byte.MAX_VALUE" => Some(i8::MAX.into()),
                "Byte.MIN_VALUE" | "java.lang.Byte.MIN_VALUE" => Some(i8::MIN.into()),
                _ => None,
            },
            "unary_expression" => {
                let op = n.child(0).map(|c| self.text(c))?;
                let v = self.int_d(*named_children(n).first()?, depth + 1)?;
                match op {
                    "-" => Some(-v),
                    "+" => Some(v),
                    _ => None,
                }
            }
            "binary_expression" => {
                let l = self.int_d(field(n, "left")?, depth + 1)?;
                let r = self.int_d(field(n, "right")?, depth + 1)?;
                let op = field(n, "operator").map(|o| self.text(o))?;
                match op {
                    "*" => l.checked_mul(r),
                    "+" => l.checked_add(r),
                    "-" => l.checked_sub(r),
                    "/" if r != 0 => Some(l / r),
                    "<<" if (0..64).contains(&r) => l.checked_mul(1i128 << r),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A floating value (`1.5`, `2`, a constant).
    pub fn float(&self, n: Node<'a>) -> Option<f64> {
        let r = self.resolve(n);
        match r.kind() {
            "decimal_floating_point_literal" => ast::float_literal(self.text(r)),
            _ => self.int(r).map(|i| i as f64),
        }
    }

    /// A string value: a literal, a constant, or a concatenation of both.
    pub fn string(&self, n: Node<'a>) -> Option<String> {
        let mut out = String::new();
        let mut stack = vec![(n, 0usize)];
        while let Some((cur, depth)) = stack.pop() {
            if depth > MAX_DEPTH || out.len() > 4096 {
                return None;
            }
            let cur = unwrap_expr(cur);
            match cur.kind() {
                "string_literal" => out.push_str(ast::string_literal(cur, self.src)?),
                "identifier" => stack.push((self.var(self.text(cur), cur)?.value?, depth + 1)),
                "binary_expression"
                    if field(cur, "operator").map(|o| self.text(o)) == Some("+") =>
                {
                    stack.push((field(cur, "right")?, depth + 1));
                    stack.push((field(cur, "left")?, depth + 1));
                }
                _ => return None,
            }
        }
        Some(out)
    }

    /// A duration: `Duration.ofMillis(100)`, `Duration.of(2, SECONDS)`,
    /// `Duration.parse("PT1S")`, `TimeUnit.SECONDS.toMillis(2)`, or a
    /// number in `unit`.
    pub fn duration(&self, n: Node<'a>, unit: Duration) -> Option<Duration> {
        let n = self.resolve(n);
        if n.kind() == "method_invocation" {
            let c = ast::chain(n, self.src);
            let root = c.root_text(self.src);
            let first = c.first()?;
            let arg = |i: usize| first.args.get(i).copied();
            let base = if ast::last_segment(root) == "Duration" {
                let per = match first.name.as_str() {
                    "ofNanos" => Duration::from_nanos(1),
                    "ofMillis" => Duration::from_millis(1),
                    "ofSeconds" => Duration::from_secs(1),
                    "ofMinutes" => Duration::from_secs(60),
                    "ofHours" => Duration::from_secs(3600),
                    "ofDays" => Duration::from_secs(86400),
                    "of" => ast::time_unit(self.text(arg(1)?))?,
                    "parse" => {
                        let s = self.string(arg(0)?)?;
                        return crate::duration::parse_iso8601(&s).ok();
                    }
                    _ => return None,
                };
                ast::scale(per, self.int(arg(0)?)? as f64)?
            } else if let Some(u) = ast::time_unit(root) {
                let target = match first.name.as_str() {
                    "toMillis" => Duration::from_millis(1),
                    "toSeconds" => Duration::from_secs(1),
                    "toNanos" => Duration::from_nanos(1),
                    "toMicros" => Duration::from_micros(1),
                    _ => return None,
                };
                let d = ast::scale(u, self.int(arg(0)?)? as f64)?;
                // Re-express in `unit`: the number is in `target` units.
                let n = d.as_secs_f64() / target.as_secs_f64();
                return ast::scale(unit, n);
            } else {
                return None;
            };
            // `.plusMillis(..)` and the like are rare; only a bare factory
            // call is read.
            return (c.calls.len() == 1).then_some(base);
        }
        let v = self.int(n)?;
        (v >= 0).then(|| ast::scale(unit, v as f64)).flatten()
    }

    /// The methods whose bodies a method reference or lambda stands for.
    pub fn callable_bodies(&self, n: Node<'a>) -> Vec<Node<'a>> {
        let n = self.resolve(n);
        match n.kind() {
            "lambda_expression" => field(n, "body").into_iter().collect(),
            "method_reference" => {
                let kids = named_children(n);
                let Some(last) = kids.last() else {
                    return Vec::new();
                };
                let recv = kids.first().map(|k| self.text(*k)).unwrap_or("");
                if kids.len() == 2
                    && (recv == "this" || recv.chars().next().is_some_and(char::is_uppercase))
                {
                    self.methods_named(self.text(*last))
                        .iter()
                        .filter_map(|m| field(*m, "body"))
                        .collect()
                } else {
                    Vec::new()
                }
            }
            "object_creation_expression" => n
                .named_children(&mut n.walk())
                .filter(|c| c.kind() == "class_body")
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Parent lookups over a prebuilt map.
struct Parents<'m, 'a>(&'m HashMap<usize, Node<'a>>);

impl<'a> Parents<'_, 'a> {
    fn parent(&self, n: Node<'_>) -> Option<Node<'a>> {
        self.0.get(&n.id()).copied()
    }
    fn ancestor(&self, n: Node<'_>, kinds: &[&str]) -> Option<Node<'a>> {
        let mut cur = self.parent(n);
        while let Some(c) = cur {
            if kinds.contains(&c.kind()) {
                return Some(c);
            }
            cur = self.parent(c);
        }
        None
    }
    fn enclosing_method(&self, n: Node<'_>) -> Option<Node<'a>> {
        self.ancestor(n, &["method_declaration", "constructor_declaration"])
    }
}

/// A retry scope: code that runs once per attempt of policy `policy`.
#[derive(Clone, Copy, Debug)]
pub struct RetryScope<'a> {
    pub body: Node<'a>,
    pub policy: usize,
}

pub use crate::model::java_annotations::{AnnotationUse, JavaFacts, RetryAnnotation};

/// Annotations of these packages are never a project's own retry
/// annotation.
const FOREIGN_ANNOTATIONS: &[&str] = &[
    "java.",
    "javax.",
    "jakarta.",
    "org.springframework.",
    "org.junit.",
    "lombok.",
    "com.fasterxml.",
    "io.swagger.",
    "org.mockito.",
    "io.micrometer.",
    "io.github.resilience4j.",
    "org.jetbrains.",
    "org.checkerframework.",
    "edu.umd.cs.findbugs.",
    "com.google.",
];

/// `java.lang` annotations, used without an import.
const JAVA_LANG_ANNOTATIONS: &[&str] = &[
    "Override",
    "Deprecated",
    "SuppressWarnings",
    "FunctionalInterface",
    "SafeVarargs",
];

/// Methods and classes carrying an annotation that may be a project's own
/// retry annotation: one not of a well-known package (by its import or
/// qualified name) nor of `java.lang`.
fn annotation_uses(ctx: &Ctx<'_>, facts: &mut Facts) {
    for &m in &ctx.nodes {
        if !matches!(m.kind(), "method_declaration" | "class_declaration") {
            continue;
        }
        for (name, a) in r4j::method_annotations(ctx, m) {
            if !name.starts_with(|c: char| c.is_ascii_uppercase())
                || JAVA_LANG_ANNOTATIONS.contains(&name)
                || matches!(name, "Retryable" | "Retry" | "Backoff" | "Recover")
            {
                continue;
            }
            let written = field(a, "name").map_or("", |n| ctx.text(n));
            let suffix = format!(".{name}");
            let foreign = |path: &str| FOREIGN_ANNOTATIONS.iter().any(|p| path.starts_with(p));
            if written.contains('.') && foreign(written) {
                continue;
            }
            if ctx
                .imports
                .iter()
                .any(|i| i.ends_with(&suffix) && foreign(i))
            {
                continue;
            }
            let Some(target) = field(m, "name").map(|n| ctx.text(n).to_string()) else {
                continue;
            };
            let keys = field(m, "body")
                .map(|b| keys_in(ctx, b))
                .unwrap_or_default();
            let qualified = if written.contains('.') {
                Some(written.to_string())
            } else if let Some(i) = ctx.imports.iter().find(|i| i.ends_with(&suffix)) {
                Some(i.to_string())
            } else if ctx.imports.iter().any(|i| i.ends_with(".*")) {
                None
            } else {
                Some(ctx.qualified(name))
            };
            facts.java.annotation_uses.push(AnnotationUse {
                annotation: name.to_string(),
                qualified,
                span: span(a),
                target,
                keys,
            });
        }
    }
}

/// What the extractors of one file share besides [`Facts`].
#[derive(Default)]
pub struct Out<'a> {
    /// Code that runs again on each attempt (idempotency keys, URL edges).
    pub scopes: Vec<RetryScope<'a>>,
    /// Code whose calls a retry repeats although it does not run again
    /// (a Reactor chain re-subscribed with the request built once): URL
    /// edges only.
    pub call_scopes: Vec<RetryScope<'a>>,
}

/// Progress steps a parse of `len` bytes may take: real code needs about
/// one per 200 bytes, pathological error recovery hundreds per byte.
pub fn parse_budget(len: usize) -> u64 {
    2_000 + len as u64 / 4
}

/// Read one Java file.
pub fn extract(text: &str, facts: &mut Facts) {
    extract_with(text, facts, true)
}

/// Read one Java file, skipping the method bodies no reader needs when
/// `prune` (see [`prune`]; tests compare both ways).
pub fn extract_with(text: &str, facts: &mut Facts, prune: bool) {
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_java::LANGUAGE.into())
        .is_err()
    {
        return;
    }
    if prune {
        let skip = prune::skippable(text);
        if !skip.is_empty()
            && parser
                .set_included_ranges(&prune::included(text, &skip))
                .is_err()
        {
            let _ = parser.set_included_ranges(&[]);
        }
    }
    // Error recovery can go on for minutes on a few kilobytes of broken
    // text (a fuzzer found one): the parse gets a budget of progress steps
    // in proportion to the file, far above what real code needs (at most
    // 0.03 per byte over the fixtures, the corpus, the bench tree and
    // 10,000 fuzz inputs), and a file that exceeds it is a finding.
    let budget = parse_budget(text.len());
    let mut steps = 0u64;
    let mut progress = |_: &tree_sitter::ParseState| {
        steps += 1;
        // (The scan's time guard cannot unwind through the C parser: it
        // stops the parse here and unwinds below.)
        if steps > budget || (steps.is_multiple_of(1024) && crate::guard::expired()) {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let bytes = text.as_bytes();
    let parsed = parser.parse_with_options(
        &mut |i, _| bytes.get(i..).unwrap_or_default(),
        None,
        Some(tree_sitter::ParseOptions::new().progress_callback(&mut progress)),
    );
    let Some(tree) = parsed else {
        crate::guard::stop_if_expired();
        if steps > budget {
            facts.diagnostics.push(crate::diag::unparsable_file::file(
                &format!(
                    "the Java parser gave up after `{budget}` steps of recovering from syntax errors"
                ),
                "fix the syntax errors (the file does not compile as it is), or exclude it if it is generated",
            ));
            facts.claimed_by("java");
        }
        return;
    };
    let ctx = Ctx::new(text, tree.root_node());
    let mut out = Out::default();
    let before = facts.policies.len();
    r4j::extract(&ctx, facts, &mut out);
    spring::extract(&ctx, facts, &mut out);
    failsafe::extract(&ctx, facts, &mut out);
    guava_retrying::extract(&ctx, facts, &mut out);
    feign::extract(&ctx, facts, &mut out);
    reactor::extract(&ctx, facts, &mut out);
    loops::extract(&ctx, facts, &mut out);
    idempotency_keys(&ctx, facts, &out);
    annotation_uses(&ctx, facts);
    url_edges(&ctx, facts, &out);
    // Resilience4j, Failsafe and Reactor bound single attempts with a composed
    // TimeLimiter / Timeout: when only the whole is bounded, the per-try
    // timeout is missing, not unknown.
    for p in &mut facts.policies[before..] {
        if matches!(
            p.system,
            System::Resilience4j | System::Failsafe | System::Reactor
        ) && p.overall_timeout.is_some()
            && p.per_try_timeout.is_none()
        {
            p.per_try_timeout = Some(Located::default_at(Timeout::Disabled, p.span));
        }
    }
    if facts.policies.len() > before || !facts.edges.is_empty() || !facts.diagnostics.is_empty() {
        facts.claimed_by("java");
    }
}

/// Attempts written in the file.
pub fn attempts_written(count: AttemptCount, written_as: String, span: Span) -> Located<Attempts> {
    Located::written(Attempts { count, written_as }, span)
}

/// Attempts that are the system's default.
pub fn attempts_default(count: AttemptCount, written_as: &str, span: Span) -> Located<Attempts> {
    Located::default_at(
        Attempts {
            count,
            written_as: written_as.to_string(),
        },
        span,
    )
}

/// Whether a name (of a header, field, variable or setter) names an
/// idempotency or request key.
pub fn names_key(name: &str) -> bool {
    let n: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect();
    n.contains("idempot")
        || n.contains("requestid")
        || n.contains("requestkey")
        || n.contains("dedup")
        || n.contains("clienttoken")
}

/// What mints a random id, as written (`UUID.randomUUID()`).
pub(crate) fn random_id(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    if n.kind() != "method_invocation" {
        return false;
    }
    let name = field(n, "name").map_or("", |x| ctx.text(x));
    let obj = ctx.name_of(field(n, "object"));
    matches!(
        (ast::last_segment(obj), name),
        ("UUID", "randomUUID")
            | ("UlidCreator", "getUlid" | "getMonotonicUlid")
            | (
                "RandomStringUtils",
                "randomAlphanumeric" | "randomAlphabetic" | "random"
            )
            | ("NanoIdUtils", "randomNanoId")
            | ("ObjectId", "get")
            | ("KsuidGenerator" | "Ksuid", "generate")
    ) || (obj.is_empty() && name == "randomUUID")
}

/// Whether the random id at `n` ends up as an idempotency or request key:
/// an argument next to a key-named string (`header("Idempotency-Key",
/// ..)`), of a key-named setter (`setIdempotencyKey(..)`), or assigned to
/// a key-named variable or field.
pub(crate) fn used_as_key(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    let mut cur = n;
    for _ in 0..8 {
        let Some(p) = ctx.parent(cur) else {
            return false;
        };
        match p.kind() {
            "argument_list" => {
                for a in named_children(p) {
                    if let Some(s) = ast::string_literal(a, ctx.src)
                        && names_key(s)
                    {
                        return true;
                    }
                }
                if let Some(call) = ctx.parent(p)
                    && let Some(name) = field(call, "name")
                    && names_key(ctx.text(name))
                {
                    return true;
                }
                cur = ctx.parent(p).unwrap_or(p);
            }
            "variable_declarator" => {
                return field(p, "name").is_some_and(|x| names_key(ctx.text(x)));
            }
            "assignment_expression" => {
                return field(p, "left").is_some_and(|x| names_key(ctx.text(x)));
            }
            "element_value_pair" | "pair" => {
                return field(p, "key").is_some_and(|x| names_key(ctx.text(x)));
            }
            "method_invocation"
            | "parenthesized_expression"
            | "cast_expression"
            | "binary_expression" => {
                cur = p;
            }
            _ => return false,
        }
    }
    false
}

/// Attach idempotency keys to the policy whose scope uses them: minted
/// inside the scope (`inside_retry`), or minted once before it and used as
/// a key inside.
fn idempotency_keys(ctx: &Ctx<'_>, facts: &mut Facts, out: &Out<'_>) {
    let mut seen = std::collections::HashSet::new();
    for s in &out.scopes {
        let Some(p) = facts.policies.get_mut(s.policy) else {
            continue;
        };
        for key in keys_in(ctx, s.body) {
            if seen.insert((s.policy, key.span.start)) {
                p.idempotency.push(key);
            }
        }
    }
}

/// Idempotency keys a retry of `body` sends: minted inside it (a new key
/// per attempt), or minted outside and used in it (`inside_retry` false).
fn keys_in(ctx: &Ctx<'_>, body: Node<'_>) -> Vec<IdempotencyKey> {
    let mut keys = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for n in ast::descendants(body) {
        if n.kind() == "identifier"
            && let Some(v) = ctx.var(ctx.text(n), n)
            && !ast::within(v.node, body)
            && let Some(value) = v.value
            && (names_key(ctx.text(n)) || used_as_key(ctx, n))
            && let Some(minted) = ast::descendants(value)
                .into_iter()
                .find(|d| random_id(ctx, *d))
        {
            if seen.insert(minted.start_byte()) {
                keys.push(IdempotencyKey {
                    span: span(minted),
                    created_by: ctx.text(minted).to_string(),
                    inside_retry: false,
                });
            }
            continue;
        }
        if random_id(ctx, n) && used_as_key(ctx, n) && seen.insert(n.start_byte()) {
            keys.push(IdempotencyKey {
                span: span(n),
                created_by: ctx.text(n).to_string(),
                inside_retry: true,
            });
        }
    }
    keys
}

/// Hosts that name a schema or a standard, not a service.
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
    "example.com",
    "www.example.com",
];

/// The host of the first URL in a string: `http://payments:8080/x` ->
/// `payments:8080`.
pub fn url_host(s: &str) -> Option<&str> {
    let i = s.find("://")?;
    let scheme = s[..i]
        .rsplit(|c: char| !c.is_ascii_alphanumeric() && c != '+')
        .next()?;
    if !matches!(
        scheme.to_ascii_lowercase().as_str(),
        "http" | "https" | "grpc" | "grpcs" | "h2c" | "ws" | "wss"
    ) {
        return None;
    }
    let rest = &s[i + 3..];
    let end = rest
        .find(['/', '?', '#', '"', '\'', '}', ' ', '$'])
        .unwrap_or(rest.len());
    let host = &rest[..end];
    let bare = host.rsplit('@').next().unwrap_or(host);
    let name = bare.split(':').next().unwrap_or(bare);
    if name.is_empty()
        || NOT_SERVICES.contains(&name)
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    {
        return None;
    }
    Some(bare)
}

/// URL literals as call edges, with the retry policies whose scope holds
/// them.
fn url_edges(ctx: &Ctx<'_>, facts: &mut Facts, out: &Out<'_>) {
    // String literals that are parts of a `+` concatenation: read joined,
    // never piece by piece.
    let mut joined: std::collections::HashSet<usize> = std::collections::HashSet::new();
    for &n in &ctx.nodes {
        if n.kind() != "binary_expression"
            || !concat::is_top(ctx, n)
            || !ctx.text(n).contains("ethodConfig")
        {
            continue;
        }
        let mut cursor = n.walk();
        let mut stack = vec![n];
        while let Some(m) = stack.pop() {
            if m.kind() == "string_literal" {
                joined.insert(m.id());
            } else if matches!(m.kind(), "binary_expression" | "parenthesized_expression") {
                stack.extend(m.named_children(&mut cursor));
            }
        }
        // A part that is not a literal: the value is unknown, not an error.
        if let Some(pieces) = concat::literal_pieces(n, ctx) {
            let spans: Vec<Span> = pieces.iter().map(|p| concat::content(ctx, *p)).collect();
            super::grpc::extract_json_pieces(ctx.src, &spans, facts);
        }
    }
    for &n in &ctx.nodes {
        if n.kind() != "string_literal" {
            continue;
        }
        let Some(s) = ast::string_literal(n, ctx.src) else {
            continue;
        };
        // A gRPC service config written as a Java string (`"{\"methodConfig\"
        // ..."` or a text block): the gRPC reader, with spans mapped back here.
        if s.contains("methodConfig") && !joined.contains(&n.id()) {
            super::grpc::extract_json_literal(ctx.src, concat::content(ctx, n), facts);
        }
        let Some(host) = url_host(s) else { continue };
        if feign::in_feign_client(ctx, n) {
            continue;
        }
        let policies: Vec<usize> = out
            .scopes
            .iter()
            .chain(&out.call_scopes)
            .filter(|sc| ast::within(n, sc.body))
            .map(|sc| sc.policy)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        facts.edges.push(CallEdge {
            client: None,
            caller: None,
            callee: host.to_string(),
            span: span(n),
            policies,
            via: "URL literal in Java".into(),
        });
    }
}

#[cfg(test)]
mod tests;
