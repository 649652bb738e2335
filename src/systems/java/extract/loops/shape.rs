//! The shape of a loop the retry reader took apart: its head, the
//! counter its `for` header declares, whether that counter picks an
//! element, and the "why" line naming its bound.

use super::*;

/// The loop's head: `while (..)`, `for (..)`, or `do`.
pub(super) fn head(ctx: &Ctx<'_>, lp: Node<'_>, body: Node<'_>, cond: Option<Node<'_>>) -> Span {
    let header_end = match lp.kind_str() {
        "do_statement" => cond.map_or(lp.end_byte(), |c| c.end_byte()),
        _ => body.start_byte(),
    };
    let header = if lp.kind_str() == "do_statement" {
        Span::new(lp.start_byte(), lp.start_byte() + 2)
    } else {
        Span::new(lp.start_byte(), header_end.max(lp.start_byte()))
    };
    Span::new(
        header.start,
        header.start
            + ctx
                .src
                .get(header.start..header.end)
                .unwrap_or("")
                .trim_end()
                .len(),
    )
}

/// Whether the counter selects an element: `a[i]`, `list.get(i)`,
/// `params.get("" + i)`.
pub(super) fn indexes_with(ctx: &Ctx<'_>, own: &[Node<'_>], counter: &str) -> bool {
    own.iter().any(|&d| {
        if d.kind_str() != "identifier" || ctx.text(d) != counter {
            return false;
        }
        // A schedule of waits (`Thread.sleep(delays[attempt])`) is no walk.
        let mut up = d;
        for _ in 0..6 {
            let Some(p) = ctx.parent(up) else { break };
            if p.kind_str() == "method_invocation"
                && field(p, "name").is_some_and(|n| is_sleep_name(ctx.text(n)))
            {
                return false;
            }
            up = p;
        }
        let mut cur = d;
        for _ in 0..4 {
            let Some(p) = ctx.parent(cur) else {
                return false;
            };
            match p.kind_str() {
                "array_access" => return field(p, "index").is_some_and(|i| ast::within(d, i)),
                "argument_list" => {
                    return ctx
                        .parent(p)
                        .and_then(|call| field(call, "name"))
                        .is_some_and(|n| {
                            matches!(
                                ctx.text(n),
                                "get"
                                    | "charAt"
                                    | "elementAt"
                                    | "getOrDefault"
                                    | "getProperty"
                                    | "getParameter"
                                    | "subList"
                                    | "item"
                            )
                        });
                }
                "binary_expression" | "parenthesized_expression" | "cast_expression" => cur = p,
                _ => return false,
            }
        }
        false
    })
}

/// The counter declared and updated in a `for` header.
pub(super) fn header_counter(ctx: &Ctx<'_>, lp: Node<'_>) -> (Option<String>, Option<i128>) {
    if lp.kind_str() != "for_statement" {
        return (None, None);
    }
    let Some(init) = field(lp, "init") else {
        return (None, None);
    };
    for d in ctx.descendants(init) {
        if d.kind_str() == "variable_declarator" {
            let name = field(d, "name").map(|x| ctx.text(x).to_string());
            let v = field(d, "value").and_then(|v| ctx.int(v));
            return (name, v);
        }
        if d.kind_str() == "assignment_expression" {
            let name = field(d, "left").map(|x| ctx.text(x).to_string());
            let v = field(d, "right").and_then(|v| ctx.int(v));
            return (name, v);
        }
    }
    (None, None)
}

/// The "why" line of a loop taken as a retry that says what bounds it.
pub(super) fn bound_why(p: &RetryPolicy) -> String {
    format!(
        "bound: `{}` ({})",
        p.attempts.value.written_as,
        match p.attempts.value.count {
            AttemptCount::Finite(n) => format!("{n} attempts"),
            AttemptCount::Unbounded => "no limit".to_string(),
            AttemptCount::Unknown => "a count the file does not show".to_string(),
        }
    )
}
