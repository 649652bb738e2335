//! The response statuses a Python retry loop retries (issue 28): tests of
//! `resp.status_code` (`if r.status_code in (429, 503): sleep; continue`,
//! `if r.ok: return r`), and `raise_for_status()` in a `try` whose
//! retried `except` takes the error it raises (requests `HTTPError`,
//! httpx `HTTPStatusError`, aiohttp `ClientResponseError`, or a catch-all).
//! Read with [`crate::extract::status_test`].

use super::{Ctx, field, named_children, span};
use crate::extract::status_test::{self, Statuses, Test};
use crate::source::Span;
use tree_sitter::Node;

/// Exception names that take the error `raise_for_status()` raises.
const STATUS_ERRORS: &[&str] = &[
    "Exception",
    "BaseException",
    "HTTPError",
    "RequestException",
    "HTTPStatusError",
    "ClientResponseError",
    "ClientError",
];

/// The names an `except` clause catches; empty for a bare `except:`.
fn caught(ctx: &Ctx<'_>, e: Node<'_>) -> Vec<String> {
    let Some(c) = named_children(e).into_iter().find(|c| c.kind() != "block") else {
        return Vec::new();
    };
    let c = if c.kind() == "as_pattern" {
        named_children(c).first().copied().unwrap_or(c)
    } else {
        c
    };
    let items = if matches!(c.kind(), "tuple" | "parenthesized_expression") {
        named_children(c)
    } else {
        vec![c]
    };
    items
        .into_iter()
        .map(|i| {
            let t = ctx.text(i);
            t.rsplit('.').next().unwrap_or(t).to_string()
        })
        .collect()
}

/// The statuses the loop retries and where the first test is written.
/// `own`: the loop's own nodes; `retried`: its `except` clauses that go
/// round; `try_body`: the `try` block, if any.
pub(super) fn retried(
    ctx: &Ctx<'_>,
    own: &[Node<'_>],
    retried: &[Node<'_>],
    try_body: Option<Node<'_>>,
) -> Option<(Statuses, Span)> {
    let takes: Vec<Vec<String>> = retried.iter().map(|e| caught(ctx, *e)).collect();
    let catches = |name: Option<&str>| {
        takes.iter().any(|names| {
            names.is_empty()
                || names.iter().any(|n| {
                    matches!(n.as_str(), "Exception" | "BaseException") || Some(n.as_str()) == name
                })
        })
    };
    let inside = |n: Node<'_>, b: Node<'_>| b.start_byte() <= n.start_byte() && n.end_byte() <= b.end_byte();
    let in_try = |n: Node<'_>| try_body.is_some_and(|b| inside(n, b));
    let leaves = |b: Node<'_>| {
        own.iter().any(|c| {
            inside(*c, b)
                && match c.kind() {
                    "return_statement" | "break_statement" => true,
                    "raise_statement" => {
                        let raised = named_children(*c).first().map(|x| {
                            let t = ctx.text(*x);
                            let t = t.split('(').next().unwrap_or(t);
                            t.rsplit('.').next().unwrap_or(t).to_string()
                        });
                        !(in_try(*c) && catches(raised.as_deref()))
                    }
                    _ => false,
                }
        })
    };
    let mut tests = Vec::new();
    let mut first: Option<Span> = None;
    for &n in own {
        match n.kind() {
            "if_statement" | "elif_clause" => {
                let (Some(cond), Some(then)) = (field(n, "condition"), field(n, "consequence"))
                else {
                    continue;
                };
                let Some(holds) = status_test::holds_for(ctx.text(cond)) else {
                    continue;
                };
                let else_round = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() == "else_clause")
                    .and_then(|e| field(e, "body"))
                    .map(|b| !leaves(b));
                tests.push(Test {
                    holds,
                    then_round: !leaves(then),
                    else_round,
                });
                first.get_or_insert(span(cond));
            }
            "call" if in_try(n) && ctx.text(n).ends_with("raise_for_status()") => {
                let takes_it = takes.iter().any(|names| {
                    names.is_empty() || names.iter().any(|c| STATUS_ERRORS.contains(&c.as_str()))
                });
                if takes_it {
                    tests.push(Test {
                        holds: Statuses::range(400, 599),
                        then_round: true,
                        else_round: None,
                    });
                    first.get_or_insert(span(n));
                }
            }
            _ => {}
        }
    }
    let s = status_test::retried(&tests);
    (!s.is_empty()).then(|| (s, first.unwrap_or_else(|| Span::new(0, 0))))
}
