//! Small helpers over the tree-sitter Java tree: text of a node, method
//! call chains, literals. Everything iterates with explicit stacks or
//! bounded loops; nothing recurses on the tree's depth.

use crate::source::Span;
use std::time::Duration;
use tree_sitter::Node;

/// How deep the helpers that follow variables or nested calls may go.
pub const MAX_DEPTH: usize = 12;

pub fn span(n: Node<'_>) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

pub fn text<'t>(n: Node<'_>, src: &'t str) -> &'t str {
    src.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

crate::extract::tree_sitter::grammar_tables!(tree_sitter_java::LANGUAGE);

pub fn field<'a>(n: Node<'a>, name: &str) -> Option<Node<'a>> {
    grammar().field(n, name)
}

pub fn named_children(n: Node<'_>) -> Vec<Node<'_>> {
    // With a cursor: `named_child(i)` walks from the first child each
    // time, which is quadratic in a long class body or argument list.
    let mut cursor = n.walk();
    n.named_children(&mut cursor)
        .filter(|c| {
            let k = c.kind_str();
            k != "comment" && k != "line_comment" && k != "block_comment"
        })
        .collect()
}

/// Every node below `root` (itself included), in source order.
pub fn descendants(root: Node<'_>) -> Vec<Node<'_>> {
    descendants_until(root, |_| false)
}

/// Descendants of `root`, not entering nodes for which `stop` says so
/// (the stopped node itself is not included either). The named nodes but
/// comments, in source order (what a stack of [`named_children`] gives),
/// walked with one cursor: a vector of children per node was half the
/// cost of the loop readers' walks on apache/zookeeper 53a78e36.
pub fn descendants_until<'a>(root: Node<'a>, stop: impl Fn(Node<'a>) -> bool) -> Vec<Node<'a>> {
    let mut out = vec![root];
    let mut cursor = root.walk();
    if !cursor.goto_first_child() {
        return out;
    }
    // How deep the cursor is below the root.
    let mut depth = 1usize;
    loop {
        let n = cursor.node();
        if n.is_named() && !is_comment(n) && !stop(n) {
            out.push(n);
            if cursor.goto_first_child() {
                depth += 1;
                continue;
            }
        }
        // The next sibling, else up until one has a next sibling.
        while !cursor.goto_next_sibling() {
            if depth == 1 || !cursor.goto_parent() {
                return out;
            }
            depth -= 1;
        }
    }
}

fn is_comment(n: Node<'_>) -> bool {
    matches!(n.kind_str(), "comment" | "line_comment" | "block_comment")
}

/// Strip parentheses and casts around an expression.
pub fn unwrap_expr(mut n: Node<'_>) -> Node<'_> {
    for _ in 0..MAX_DEPTH {
        match n.kind_str() {
            "parenthesized_expression" => match named_children(n).first() {
                Some(c) => n = *c,
                None => return n,
            },
            "cast_expression" => match field(n, "value") {
                Some(c) => n = c,
                None => return n,
            },
            _ => return n,
        }
    }
    n
}

/// One call of a chain: `name(args)`, with the span from the name to the
/// closing parenthesis.
#[derive(Clone, Debug)]
pub struct Call<'a> {
    pub name: String,
    pub args: Vec<Node<'a>>,
    pub node: Node<'a>,
    pub span: Span,
}

/// A method chain `root.a(..).b(..)`: its root expression (the object of
/// the first call, if any) and the calls from first to last.
#[derive(Clone, Debug)]
pub struct Chain<'a> {
    pub root: Option<Node<'a>>,
    pub calls: Vec<Call<'a>>,
}

impl<'a> Chain<'a> {
    /// The root's text when it is a name (`RetryConfig`, `a.b.Retry`),
    /// else "".
    pub fn root_text<'t>(&self, src: &'t str) -> &'t str {
        match self.root {
            Some(r)
                if matches!(
                    r.kind_str(),
                    "identifier"
                        | "field_access"
                        | "scoped_identifier"
                        | "type_identifier"
                        | "this"
                ) && r.end_byte() - r.start_byte() <= 256 =>
            {
                text(r, src)
            }
            _ => "",
        }
    }
    pub fn first(&self) -> Option<&Call<'a>> {
        self.calls.first()
    }
    pub fn last(&self) -> Option<&Call<'a>> {
        self.calls.last()
    }
}

/// Flatten a method invocation chain. `RetryConfig.custom().maxAttempts(3)`
/// has root `RetryConfig` and calls `custom`, `maxAttempts`.
pub fn chain<'a>(n: Node<'a>, src: &str) -> Chain<'a> {
    // Iterative: a chain of any length costs one pass.
    let mut calls = Vec::new();
    let mut cur = unwrap_expr(n);
    let mut root = None;
    for _ in 0..1_000_000 {
        if cur.kind_str() != "method_invocation" {
            root = Some(cur);
            break;
        }
        let name_node = field(cur, "name");
        let args = field(cur, "arguments")
            .map(named_children)
            .unwrap_or_default();
        let start = name_node.map_or(cur.start_byte(), |n| n.start_byte());
        calls.push(Call {
            name: name_node
                .map(|n| text(n, src).to_string())
                .unwrap_or_default(),
            args,
            node: cur,
            span: Span::new(start, cur.end_byte()),
        });
        match field(cur, "object") {
            Some(o) => cur = unwrap_expr(o),
            None => break,
        }
    }
    calls.reverse();
    Chain { root, calls }
}

/// The simple name of a type: `RetryConfig.Builder<HttpResponse<?>>` ->
/// `Builder`, `io.github.resilience4j.retry.Retry` -> `Retry`.
pub fn simple_type(t: &str) -> &str {
    let base = t.split('<').next().unwrap_or(t).trim();
    base.rsplit('.').next().unwrap_or(base).trim()
}

/// The last segment of a dotted name.
pub fn last_segment(t: &str) -> &str {
    t.rsplit('.').next().unwrap_or(t).trim()
}

/// A Java integer literal: `3`, `1_000L`, `0x10`.
pub fn int_literal(s: &str) -> Option<i128> {
    let t = s.trim().replace('_', "");
    let t = t.trim_end_matches(['l', 'L']);
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r.trim()),
        None => (false, t),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        i128::from_str_radix(b, 2).ok()?
    } else {
        t.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// A Java floating or integer literal as f64: `1.5`, `2d`, `2.0f`, `3`.
pub fn float_literal(s: &str) -> Option<f64> {
    let t = s.trim().replace('_', "");
    let t = t.trim_end_matches(['d', 'D', 'f', 'F', 'l', 'L']);
    t.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// The contents of a string literal node (`"abc"` -> `abc`), without
/// interpreting escapes.
pub fn string_literal<'t>(n: Node<'_>, src: &'t str) -> Option<&'t str> {
    if n.kind_str() != "string_literal" {
        return None;
    }
    let t = text(n, src);
    let t = t
        .strip_prefix("\"\"\"")
        .and_then(|r| r.strip_suffix("\"\"\""))
        .unwrap_or(t);
    Some(t.strip_prefix('"')?.strip_suffix('"').unwrap_or(""))
}

/// `TimeUnit.SECONDS` / `ChronoUnit.SECONDS` / `SECONDS` -> one unit.
pub fn time_unit(s: &str) -> Option<Duration> {
    Some(match last_segment(s) {
        "NANOSECONDS" | "NANOS" => Duration::from_nanos(1),
        "MICROSECONDS" | "MICROS" => Duration::from_micros(1),
        "MILLISECONDS" | "MILLIS" => Duration::from_millis(1),
        "SECONDS" => Duration::from_secs(1),
        "MINUTES" => Duration::from_secs(60),
        "HOURS" => Duration::from_secs(3600),
        "DAYS" => Duration::from_secs(86400),
        _ => return None,
    })
}

/// `unit x n`, saturating, for a non-negative count.
pub fn scale(unit: Duration, n: f64) -> Option<Duration> {
    let secs = unit.as_secs_f64() * n;
    (secs.is_finite() && (0.0..1e12).contains(&secs)).then(|| Duration::from_secs_f64(secs))
}

/// Whether `node` is inside `outer` (by byte range).
pub fn within(node: Node<'_>, outer: Node<'_>) -> bool {
    node.start_byte() >= outer.start_byte() && node.end_byte() <= outer.end_byte()
}

/// Class names of a `Class[]` annotation or argument value:
/// `IOException.class`, `{A.class, B.class}`.
pub fn class_literals<'a>(n: Node<'a>, src: &str) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for d in descendants(n) {
        if d.kind_str() == "class_literal"
            && let Some(t) = named_children(d).first()
        {
            out.push((text(*t, src).to_string(), span(d)));
        }
    }
    out
}
