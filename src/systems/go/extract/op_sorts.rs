//! What a retried operation decides itself: the errors it ends the retry
//! on by returning success. woodpecker's volume removal returns `nil, nil`
//! for every error but "volume in use" (`if err == nil ||
//! !isErrVolumeInUse(err) { return nil, nil }`): only that error goes
//! round, a predicate written inside the operation. traefik's retry
//! middleware returns `nil` once its response writer has written through
//! to the client and fails with an error it makes itself
//! (`fmt.Errorf("attempt %d failed", ..)`), never one a call returned: what
//! counts as a failure is the operation's own judgement, not known here.

use super::{Ctx, field, named_children, span};
use crate::source::Span;
use crate::systems::go::extract::KindName;
use tree_sitter::Node;

/// Nodes of an operation looked at, at most.
const MAX_NODES: usize = 20_000;

/// What an operation's returns say of the errors that go round.
#[derive(Debug, PartialEq, Eq)]
pub enum Sorting {
    /// Success is returned for the errors an `if` tests negatively
    /// (`!isErrVolumeInUse(err)`): the others alone go round.
    Predicate(Span),
    /// Every failure is an error the operation makes itself, after
    /// returning success on a condition of its own (not a status code).
    Own(Span),
}

/// The sorting the operation spanning `start..end` (a function literal or
/// declaration) does, if any.
pub fn sorting(ctx: &Ctx<'_>, start: usize, end: usize) -> Option<Sorting> {
    let f = ctx.nodes.iter().find(|n| {
        n.start_byte() == start
            && n.end_byte() == end
            && matches!(
                n.kind_name(),
                "func_literal" | "function_declaration" | "method_declaration"
            )
    })?;
    let body = field(*f, "body")?;
    let mut ifs = Vec::new();
    let mut returns = Vec::new();
    let mut stack = vec![body];
    let mut seen = 0;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > MAX_NODES {
            return None;
        }
        match n.kind_name() {
            // A function of its own: its returns are not the operation's.
            "func_literal" => continue,
            "if_statement" => ifs.push(n),
            "return_statement" => returns.push(n),
            _ => {}
        }
        stack.extend(named_children(n));
    }
    // `if <err tested negatively> { return .., nil }`.
    let success_ifs: Vec<Node<'_>> = ifs
        .iter()
        .copied()
        .filter(|i| {
            field(*i, "consequence").is_some_and(|b| {
                statements(b)
                    .into_iter()
                    .any(|s| s.kind_name() == "return_statement" && last_is_nil(ctx, s))
            })
        })
        .collect();
    for i in &success_ifs {
        if let Some(c) = field(*i, "condition")
            && negated_error_test(ctx, c)
        {
            return Some(Sorting::Predicate(span(c)));
        }
    }
    let failures: Vec<Node<'_>> = returns
        .iter()
        .copied()
        .filter(|r| last(r).is_some_and(|e| ctx.text(e) != "nil"))
        .collect();
    if failures.is_empty()
        || failures
            .iter()
            .any(|r| mentions_error(ctx, *r) || last(r).is_some_and(|e| !made_here(ctx, e)))
    {
        return None;
    }
    success_ifs.iter().find_map(|i| {
        let c = field(*i, "condition")?;
        let t = ctx.text(c);
        (!t.contains("Status") && !t.contains(".Code") && !mentions_error(ctx, c))
            .then(|| Sorting::Own(span(c)))
    })
}

/// The statements of a block (tree-sitter-go wraps them in a
/// `statement_list`).
pub(super) fn statements(block: Node<'_>) -> Vec<Node<'_>> {
    named_children(block)
        .into_iter()
        .flat_map(|c| {
            if c.kind_name() == "statement_list" {
                named_children(c)
            } else {
                vec![c]
            }
        })
        .collect()
}

/// An error the operation makes itself: `fmt.Errorf(..)`, `errors.New(..)`
/// (any `Errorf`/`New` of a package), or a sentinel (`ErrNotReady`). A
/// call of anything else returns what it was given (`return
/// c.Send(evt)`: the client's error, passed on).
fn made_here(ctx: &Ctx<'_>, e: Node<'_>) -> bool {
    match e.kind_name() {
        "identifier" | "selector_expression" => !error_name(ctx.text(e)),
        "call_expression" => field(e, "function").is_some_and(|f| {
            let t = ctx.text(f);
            f.kind_name() == "selector_expression"
                && (t.ends_with(".Errorf") || t.ends_with(".New"))
        }),
        _ => false,
    }
}

/// The last value a `return` gives (the error of `return v, err`).
fn last<'a>(r: &Node<'a>) -> Option<Node<'a>> {
    let list = named_children(*r).into_iter().next()?;
    if list.kind_name() == "expression_list" {
        named_children(list).into_iter().last()
    } else {
        Some(list)
    }
}

fn last_is_nil(ctx: &Ctx<'_>, r: Node<'_>) -> bool {
    last(&r).is_some_and(|e| ctx.text(e) == "nil")
}

/// A name that holds an error: `err`, `rerr`, `lastErr`.
fn error_name(name: &str) -> bool {
    name.ends_with("err") || name.ends_with("Err")
}

/// Whether `n` reads a name that holds an error.
fn mentions_error(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    let mut stack = vec![n];
    let mut seen = 0;
    while let Some(x) = stack.pop() {
        seen += 1;
        if seen > MAX_NODES {
            return true;
        }
        if x.kind_name() == "identifier" && error_name(ctx.text(x)) {
            return true;
        }
        stack.extend(named_children(x));
    }
    false
}

/// A condition that tests an error negatively: `!isRetryable(err)`,
/// `!errors.Is(err, ErrBusy)`, `err != ErrBusy` (not `err != nil`).
fn negated_error_test(ctx: &Ctx<'_>, c: Node<'_>) -> bool {
    let mut stack = vec![c];
    let mut seen = 0;
    while let Some(x) = stack.pop() {
        seen += 1;
        if seen > MAX_NODES {
            return false;
        }
        match x.kind_name() {
            "unary_expression" if field(x, "operator").is_some_and(|o| ctx.text(o) == "!") => {
                if let Some(op) = field(x, "operand").map(strip_parens)
                    && op.kind_name() == "call_expression"
                    && field(op, "arguments").is_some_and(|a| {
                        named_children(a)
                            .into_iter()
                            .any(|a| a.kind_name() == "identifier" && error_name(ctx.text(a)))
                    })
                {
                    return true;
                }
            }
            "binary_expression" if field(x, "operator").is_some_and(|o| ctx.text(o) == "!=") => {
                if let (Some(l), Some(r)) = (field(x, "left"), field(x, "right")) {
                    let err =
                        |n: Node<'_>| n.kind_name() == "identifier" && error_name(ctx.text(n));
                    let nil = |n: Node<'_>| ctx.text(n) == "nil";
                    if (err(l) && !nil(r)) || (err(r) && !nil(l)) {
                        return true;
                    }
                }
            }
            _ => {}
        }
        stack.extend(named_children(x));
    }
    false
}

fn strip_parens(mut n: Node<'_>) -> Node<'_> {
    for _ in 0..8 {
        if n.kind_name() != "parenthesized_expression" {
            break;
        }
        match named_children(n).into_iter().next() {
            Some(inner) => n = inner,
            None => break,
        }
    }
    n
}
