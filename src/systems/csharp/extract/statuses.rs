//! The response statuses a C# retry loop retries (issue 28): tests of
//! the response (`if (response.IsSuccessStatusCode) return ..;`,
//! `if (response.StatusCode == HttpStatusCode.TooManyRequests) { await
//! Task.Delay(..); continue; }`, `(int)response.StatusCode >= 500`), and
//! `EnsureSuccessStatusCode()` in a `try` whose retrying `catch` takes
//! the `HttpRequestException` it throws. Read with
//! [`crate::extract::status_test`].

use super::{Ctx, field, named_children, span};
use crate::extract::status_test::{self, Statuses, Test};
use crate::source::Span;
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

/// The type a `catch` takes; `None` for `catch { }` and `catch (Exception)`.
fn caught<'a>(ctx: &Ctx<'a>, c: Node<'_>) -> Option<&'a str> {
    let decl = named_children(c)
        .into_iter()
        .find(|x| x.kind_str() == "catch_declaration")?;
    let t = ctx.text(field(decl, "type")?).trim();
    let t = t.rsplit('.').next().unwrap_or(t);
    (t != "Exception").then_some(t)
}

/// The statuses the loop retries and where the first test is written.
/// `own`: the loop's own nodes; `catches`: the catches of its tries.
pub(super) fn retried(
    ctx: &Ctx<'_>,
    own: &[Node<'_>],
    catches: &[Node<'_>],
) -> Vec<(Statuses, Span)> {
    let takes = |name: &str| {
        catches
            .iter()
            .any(|c| caught(ctx, *c).is_none_or(|t| t == name))
    };
    let inside =
        |n: Node<'_>, b: Node<'_>| b.start_byte() <= n.start_byte() && n.end_byte() <= b.end_byte();
    // Inside the `try` block of one of the catches.
    let in_try = |n: Node<'_>| {
        catches.iter().any(|c| {
            ctx.parent(*c)
                .and_then(|t| field(t, "body"))
                .is_some_and(|b| inside(n, b))
        })
    };
    // A branch leaves on its own `return`/`break` or an uncaught `throw`,
    // unless a `continue` of it goes round.
    let leaves = |b: Node<'_>| {
        !own.iter()
            .any(|c| inside(*c, b) && c.kind_str() == "continue_statement")
            && own.iter().any(|c| {
                inside(*c, b)
                    && match c.kind_str() {
                        "return_statement" | "break_statement" => true,
                        "throw_statement" => {
                            let thrown = named_children(*c)
                                .first()
                                .filter(|e| e.kind_str() == "object_creation_expression")
                                .and_then(|e| field(*e, "type"))
                                .map(|t| ctx.text(t).rsplit('.').next().unwrap_or("").to_string());
                            !(in_try(*c) && thrown.is_some_and(|t| takes(&t)))
                        }
                        _ => false,
                    }
            })
    };
    let mut tests = Vec::new();
    for &n in own {
        match n.kind_str() {
            "if_statement" => {
                let (Some(cond), Some(then)) = (field(n, "condition"), field(n, "consequence"))
                else {
                    continue;
                };
                let Some(holds) = status_test::holds_for(ctx.text(cond)) else {
                    continue;
                };
                let else_round = field(n, "alternative")
                    .filter(|a| a.kind_str() != "if_statement")
                    .map(|a| !leaves(a));
                tests.push(Test {
                    holds,
                    then_round: !leaves(then),
                    else_round,
                    at: span(cond),
                });
            }
            "invocation_expression"
                if in_try(n)
                    && ctx.text(n).ends_with("EnsureSuccessStatusCode()")
                    && takes("HttpRequestException") =>
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
    status_test::retried(&tests)
}
