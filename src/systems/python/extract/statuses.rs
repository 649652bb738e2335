//! The response statuses a Python retry loop retries (issue 28): tests of
//! `resp.status_code` (`if r.status_code in (429, 503): sleep; continue`,
//! `if r.ok: return r`), and `raise_for_status()` in a `try` whose
//! retried `except` takes the error it raises (requests `HTTPError`,
//! httpx `HTTPStatusError`, aiohttp `ClientResponseError`, or a catch-all).
//! Read with [`crate::extract::status_test`].

use super::{Ctx, field, named_children, span};
use crate::extract::status_test::{self, Statuses, Test};
use crate::source::Span;
use crate::systems::python::extract::Kind as _;
use tree_sitter::Node;

/// Exception names that take the error `raise_for_status()` raises.
const STATUS_ERRORS: &[&str] = &[
    "Exception",
    "BaseException",
    "OSError",
    "IOError",
    "HTTPError",
    "RequestException",
    "HTTPStatusError",
    "ClientResponseError",
    "ClientError",
];

/// The names an `except` clause catches; empty for a bare `except:`.
fn caught(ctx: &Ctx<'_>, e: Node<'_>) -> Vec<String> {
    let Some(c) = named_children(e)
        .into_iter()
        .find(|c| c.kind_str() != "block")
    else {
        return Vec::new();
    };
    let c = if c.kind_str() == "as_pattern" {
        named_children(c).first().copied().unwrap_or(c)
    } else {
        c
    };
    let items = if matches!(c.kind_str(), "tuple" | "parenthesized_expression") {
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

/// Words of a loop that waits for a state rather than retrying a failure
/// (metaflow's spot monitor polls until a notice answers 200): its
/// function's name or its wait's text.
const POLL_WORDS: &[&str] = &["poll", "monitor", "watch", "wait_for", "wait_until"];

/// The statuses the loop retries, each with the test it comes from.
/// `own`: the loop's own nodes; `excepts`: the `except` clauses of its
/// `try` in order, `retried` those that go round; `try_body`: the `try`
/// block, if any; `lp`: the loop.
pub(super) fn retried(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    own: &[Node<'_>],
    excepts: &[Node<'_>],
    retried: &[Node<'_>],
    try_body: Option<Node<'_>>,
) -> Vec<(Statuses, Span)> {
    // The loop's function name and its wait's argument (`POLL_INTERVAL`).
    let names = format!(
        "{} {}",
        super::super::enclosing_function(ctx, lp).map_or("", |(f, _)| f),
        field(lp, "body")
            .map_or("", |b| ctx.text(b))
            .split("sleep(")
            .nth(1)
            .map_or("", |t| t.split(')').next().unwrap_or(""))
    );
    let takes: Vec<Vec<String>> = retried.iter().map(|e| caught(ctx, *e)).collect();
    let catches = |name: Option<&str>| {
        takes.iter().any(|names| {
            names.is_empty()
                || names.iter().any(|n| {
                    matches!(n.as_str(), "Exception" | "BaseException") || Some(n.as_str()) == name
                })
        })
    };
    let inside =
        |n: Node<'_>, b: Node<'_>| b.start_byte() <= n.start_byte() && n.end_byte() <= b.end_byte();
    let in_try = |n: Node<'_>| try_body.is_some_and(|b| inside(n, b));
    // A branch leaves on its own `return`/`break` or an uncaught `raise`,
    // unless a `continue` of it goes round (`if attempt < n: continue`).
    let leaves = |b: Node<'_>| {
        let mut leave = false;
        for c in own.iter().filter(|c| inside(**c, b)) {
            match c.kind_str() {
                "continue_statement" => return false,
                "return_statement" | "break_statement" => leave = true,
                "raise_statement" => {
                    let raised = named_children(*c).first().map(|x| {
                        let t = ctx.text(*x);
                        let t = t.split('(').next().unwrap_or(t);
                        t.rsplit('.').next().unwrap_or(t).to_string()
                    });
                    if !(in_try(*c) && catches(raised.as_deref())) {
                        leave = true;
                    }
                }
                _ => {}
            }
        }
        leave
    };
    // The error `raise_for_status()` raises goes to the first `except`
    // that takes it: round when that one goes round.
    // Not when that `except` sorts the error by a predicate (`if not
    // self._retryable_error_async(e): raise`): the statuses are its.
    let status_error_round = excepts
        .iter()
        .find(|e| {
            let names = caught(ctx, **e);
            names.is_empty() || names.iter().any(|c| STATUS_ERRORS.contains(&c.as_str()))
        })
        .is_some_and(|e| {
            retried.iter().any(|r| r.id() == e.id()) && !super::sorted_by_predicate(ctx, *e)
        });
    let mut tests = Vec::new();
    for &n in own {
        match n.kind_str() {
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
                    .find(|c| c.kind_str() == "else_clause")
                    .and_then(|e| field(e, "body"))
                    .map(|b| !leaves(b));
                tests.push(Test {
                    holds,
                    then_round: !leaves(then),
                    else_round,
                    at: span(cond),
                });
            }
            "call"
                if in_try(n)
                    && status_error_round
                    && ctx.text(n).ends_with("raise_for_status()") =>
            {
                tests.push(Test {
                    holds: Statuses::range(400, 599),
                    then_round: true,
                    else_round: None,
                    at: span(n),
                });
            }
            _ => {}
        }
    }
    // A wait for a state: only tests that leave on the state it waits for.
    let lower = names.to_ascii_lowercase();
    let polls = POLL_WORDS.iter().any(|w| lower.contains(w));
    if polls
        && !tests
            .iter()
            .any(|t| t.then_round || t.else_round == Some(true))
    {
        return Vec::new();
    }
    status_test::retried(&tests)
}

/// The statuses a retry library retries through `raise_for_status()` in
/// the function it wraps (`@retry(retry=retry_if_exception_type(
/// httpx.HTTPStatusError))`): the call raises for every 4xx and 5xx, and
/// the library goes round when what it retries (`on`) takes that error.
/// Not a call inside a `try` of the body, whose `except` handles it, nor
/// one of a nested function. Empty when there is none.
pub(in super::super) fn raised_in_body(
    ctx: &Ctx<'_>,
    body: Node<'_>,
    on: &crate::model::RetryOn,
) -> Vec<(Statuses, Span)> {
    use crate::model::{Condition, RetryOn};
    let takes = match on {
        RetryOn::AllErrors => true,
        RetryOn::Listed { conditions } => conditions.iter().any(|c| {
            matches!(&c.value, Condition::Exception(e)
                if STATUS_ERRORS.contains(&e.rsplit('.').next().unwrap_or(e)))
        }),
        RetryOn::Nothing | RetryOn::Unknown => false,
    };
    if !takes {
        return Vec::new();
    }
    let handled = |c: Node<'_>| {
        let mut cur = c.parent();
        while let Some(p) = cur {
            if p.id() == body.id() {
                return false;
            }
            if matches!(
                p.kind_str(),
                "try_statement" | "function_definition" | "lambda" | "class_definition"
            ) {
                return true;
            }
            cur = p.parent();
        }
        true
    };
    // Each call under a status test (haystack's `if res.status_code in
    // status_codes_to_retry: res.raise_for_status()`) raises for the
    // statuses that test lets through; under any other condition, not
    // known here.
    let holds_at = |call: Node<'_>| {
        let mut holds = Statuses::range(400, 599);
        let mut cur = call.parent();
        while let Some(p) = cur.filter(|p| p.id() != body.id()) {
            match p.kind_str() {
                "if_statement" | "elif_clause" => {
                    let in_then = field(p, "consequence").is_some_and(|t| {
                        t.start_byte() <= call.start_byte() && call.end_byte() <= t.end_byte()
                    });
                    let test =
                        field(p, "condition").and_then(|c| status_test::holds_for(ctx.text(c)));
                    match test {
                        Some(t) if in_then => holds = holds.intersect(&t),
                        _ => return None,
                    }
                }
                "else_clause"
                | "while_statement"
                | "conditional_expression"
                | "match_statement" => return None,
                _ => {}
            }
            cur = p.parent();
        }
        Some(holds)
    };
    let tests: Vec<Test> = ctx
        .subtree(body)
        .iter()
        .copied()
        .filter(|c| {
            c.kind_str() == "call" && ctx.text(*c).ends_with("raise_for_status()") && !handled(*c)
        })
        .filter_map(|call| {
            Some(Test {
                holds: holds_at(call)?,
                then_round: true,
                else_round: None,
                at: span(call),
            })
        })
        .collect();
    status_test::retried(&tests)
}
