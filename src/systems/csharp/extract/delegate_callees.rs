//! The methods of the file a retried delegate runs by name: a pipeline or
//! policy that runs `ct => SendOrderAsync(order, ct)` (or the method group
//! `pipeline.ExecuteAsync(SendOrderAsync, ct)`) runs that method's body
//! again on every attempt, so the calls and the keys minted there are
//! retried as if written in the delegate. Followed [`MAX_DEPTH`] levels
//! down, within the class that runs the delegate, at most [`MAX_RANGES`]
//! bodies.

use super::{Ctx, field, method};
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

/// How many calls deep a delegate's same-class callees are followed.
const MAX_DEPTH: usize = 2;

/// How many method bodies one delegate may add.
const MAX_RANGES: usize = 16;

const TYPES: &[&str] = &[
    "class_declaration",
    "struct_declaration",
    "record_declaration",
    "record_struct_declaration",
    "interface_declaration",
];

/// The file's methods and local functions by name, found once per file
/// (only for a file that runs a delegate).
pub struct Methods<'a>(Vec<(&'a str, Node<'a>)>);

impl<'a> Methods<'a> {
    pub fn new(ctx: &Ctx<'a>) -> Self {
        Methods(
            ctx.nodes
                .iter()
                .filter(|n| {
                    matches!(
                        n.kind_str(),
                        "method_declaration" | "local_function_statement"
                    )
                })
                .filter_map(|&n| Some((ctx.text(field(n, "name")?), n)))
                .collect(),
        )
    }

    /// Whether the file declares a method of this name.
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|(m, _)| *m == name)
    }
}

/// The byte ranges of the bodies of the methods `delegate` (a lambda, an
/// anonymous method, or a method group's name) runs, beyond its own text:
/// methods of the class holding `at` (the execution), called by their bare
/// name or through `this.`, and what those call in turn. The method
/// holding the execution itself is never one.
pub fn bodies(
    ctx: &Ctx<'_>,
    methods: &Methods<'_>,
    at: Node<'_>,
    delegate: Node<'_>,
) -> Vec<(usize, usize)> {
    let class = enclosing(at, TYPES).map_or((0, ctx.src.len()), |c| (c.start_byte(), c.end_byte()));
    let own = enclosing(at, &["method_declaration", "local_function_statement"])
        .map(|m| (m.start_byte(), m.end_byte()));
    let named = |name: &str| -> Vec<(usize, usize)> {
        methods
            .0
            .iter()
            .filter(|(m, n)| {
                *m == name
                    && class.0 <= n.start_byte()
                    && n.end_byte() <= class.1
                    && Some((n.start_byte(), n.end_byte())) != own
            })
            .map(|(_, n)| {
                let b = field(*n, "body").unwrap_or(*n);
                (b.start_byte(), b.end_byte())
            })
            .collect()
    };
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut level: Vec<(usize, usize)> = if delegate.kind_str() == "identifier" {
        named(ctx.text(delegate))
    } else {
        vec![(delegate.start_byte(), delegate.end_byte())]
    };
    if delegate.kind_str() == "identifier" {
        out.extend(level.iter().copied());
    }
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for &(start, end) in &level {
            for name in called(ctx, start, end) {
                for r in named(name) {
                    if out.len() < MAX_RANGES && !out.contains(&r) {
                        out.push(r);
                        next.push(r);
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    out
}

/// The names of the methods called from `start` to `end` by a bare name
/// (`SendAsync(..)`) or through `this.` (`this.SendAsync(..)`).
fn called<'a>(ctx: &Ctx<'a>, start: usize, end: usize) -> Vec<&'a str> {
    invocations_in(ctx, start, end)
        .filter_map(|n| {
            let (m, recv) = method(ctx, n)?;
            match recv {
                None => Some(m),
                Some(r) if r.kind_str() == "this_expression" || ctx.text(r) == "this" => Some(m),
                Some(_) => None,
            }
        })
        .collect()
}

/// The invocations written from `start` to `end` (the file's nodes are in
/// source order).
pub(super) fn invocations_in<'a, 'c>(
    ctx: &'c Ctx<'a>,
    start: usize,
    end: usize,
) -> impl Iterator<Item = Node<'a>> + 'c {
    let from = ctx.nodes.partition_point(|x| x.start_byte() < start);
    ctx.nodes[from..]
        .iter()
        .take_while(move |n| n.start_byte() < end)
        .filter(move |n| n.kind_str() == "invocation_expression" && n.end_byte() <= end)
        .copied()
}

/// The nearest ancestor of `n` of one of `kinds`.
fn enclosing<'a>(n: Node<'a>, kinds: &[&str]) -> Option<Node<'a>> {
    let mut cur = n.parent();
    while let Some(p) = cur {
        if kinds.contains(&p.kind_str()) {
            return Some(p);
        }
        cur = p.parent();
    }
    None
}
