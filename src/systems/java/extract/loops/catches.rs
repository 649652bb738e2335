//! What a loop's catch clauses say: the types a catch that goes round
//! retries, and a success test after the `try` on what the catch stored.

use super::ast::{self, field, span};
use super::{Ctx, bounds, helpers, nested, statements};
use crate::source::Span;
use crate::systems::java::extract::ast::Kind as _;
use tree_sitter::Node;

pub(super) fn compares_with_null(ctx: &Ctx<'_>, e: Node<'_>) -> bool {
    let e = ast::unwrap_expr(e);
    e.kind_str() == "binary_expression"
        && field(e, "operator").is_some_and(|o| matches!(ctx.text(o), "!=" | "=="))
        && [field(e, "left"), field(e, "right")]
            .into_iter()
            .flatten()
            .any(|x| x.kind_str() == "null_literal")
}

/// `if (err == null) return;` where a catch that goes round stores what it
/// caught in `err`, or `if (ok) break;` where the try block sets `ok =
/// true`: success leaves after the `try`.
pub(super) fn outcome_test_leaves(
    ctx: &Ctx<'_>,
    s: Node<'_>,
    block: Node<'_>,
    retrying: &[Node<'_>],
) -> bool {
    if s.kind_str() != "if_statement" || field(s, "alternative").is_some() {
        return false;
    }
    let leaves = field(s, "consequence").is_some_and(|b| {
        statements(b)
            .iter()
            .any(|x| matches!(x.kind_str(), "return_statement" | "break_statement"))
    });
    let Some(cond) = field(s, "condition").map(ast::unwrap_expr) else {
        return false;
    };
    if !leaves {
        return false;
    }
    let assigned = |within: Node<'_>, name: &str, value: &dyn Fn(Node<'_>) -> bool| {
        ctx.descendants_until(within, nested).into_iter().any(|d| {
            d.kind_str() == "assignment_expression"
                && field(d, "left").is_some_and(|l| ctx.text(l) == name)
                && field(d, "right").is_some_and(|r| value(ast::unwrap_expr(r)))
        })
    };
    if cond.kind_str() == "identifier" {
        let name = ctx.text(cond);
        return statements(block).iter().any(|st| {
            st.kind_str() == "expression_statement"
                && assigned(*st, name, &|r| ctx.text(r) == "true")
        });
    }
    if !(compares_with_null(ctx, cond)
        && field(cond, "operator").is_some_and(|o| ctx.text(o) == "=="))
    {
        return false;
    }
    let Some(var) = [field(cond, "left"), field(cond, "right")]
        .into_iter()
        .flatten()
        .find(|x| x.kind_str() == "identifier")
    else {
        return false;
    };
    let name = ctx.text(var);
    retrying.iter().any(|c| {
        let param = ctx
            .named_children(*c)
            .into_iter()
            .find(|p| p.kind_str() == "catch_formal_parameter")
            .and_then(|p| field(p, "name"))
            .map(|n| ctx.text(n));
        param.is_some_and(|p| {
            field(*c, "body").is_some_and(|b| assigned(b, name, &|r| ctx.text(r) == p))
        })
    })
}

/// What a catch that goes round retries: the types it catches, or, when
/// it tests the caught exception or its cause and throws every other one
/// (`if (e.getCause() instanceof UnknownHostException) { .. } else { throw
/// e; }`, `if (!(e instanceof X)) throw e;`), the types tested.
pub(super) fn retried_types(ctx: &Ctx<'_>, c: Node<'_>) -> Vec<(String, Span)> {
    let caught = catch_types(ctx, c);
    let param = ctx
        .named_children(c)
        .into_iter()
        .find(|p| p.kind_str() == "catch_formal_parameter")
        .and_then(|p| field(p, "name"))
        .map(|n| ctx.text(n));
    let (Some(param), Some(body)) = (param, field(c, "body")) else {
        return caught;
    };
    // The caught exception, or a local of the catch unwrapping it
    // (`Throwable cause = stripExecutionException(e);`).
    let mut subjects = vec![param];
    for s in ctx.named_children(body) {
        if s.kind_str() == "local_variable_declaration" {
            for d in ctx.named_children(s) {
                if d.kind_str() == "variable_declarator"
                    && let (Some(n), Some(v)) = (field(d, "name"), field(d, "value"))
                    && ctx
                        .descendants(v)
                        .into_iter()
                        .any(|i| i.kind_str() == "identifier" && ctx.text(i) == param)
                {
                    subjects.push(ctx.text(n));
                }
            }
        }
    }
    let tests_subject = |x: Node<'_>| {
        let t = ctx.text(ast::unwrap_expr(x));
        subjects
            .iter()
            .any(|p| t == *p || t.starts_with(&format!("{p}.")))
    };
    for s in ctx.named_children(body) {
        if s.kind_str() != "if_statement" {
            continue;
        }
        let Some(cond) = field(s, "condition").map(ast::unwrap_expr) else {
            continue;
        };
        // `!(x instanceof A || x instanceof B) || n >= max`: the negated
        // list is the test, a count beside it only caps.
        let cond = bounds::junctions(ctx, cond, &["||"])
            .into_iter()
            .find(|p| p.kind_str() == "unary_expression" && ctx.text(*p).starts_with('!'))
            .unwrap_or(cond);
        let (negated, test) =
            if cond.kind_str() == "unary_expression" && ctx.text(cond).starts_with('!') {
                match ctx.named_children(cond).first() {
                    Some(x) => (true, ast::unwrap_expr(*x)),
                    None => continue,
                }
            } else {
                (false, cond)
            };
        // `x instanceof A || x instanceof B`: each is a type that goes round.
        let tests = bounds::junctions(ctx, test, &["||"]);
        if tests.len() > 1
            && tests.iter().all(|t| {
                t.kind_str() == "instanceof_expression"
                    && field(*t, "left").is_some_and(tests_subject)
            })
        {
            let other = if negated {
                field(s, "consequence")
            } else {
                field(s, "alternative").map(|a| {
                    if a.kind_str() == "else" {
                        ctx.named_children(a).first().copied().unwrap_or(a)
                    } else {
                        a
                    }
                })
            };
            if other.is_some_and(|b| {
                statements(b)
                    .last()
                    .is_some_and(|l| helpers::leaves(ctx, *l))
            }) {
                return tests
                    .iter()
                    .filter_map(|t| field(*t, "right"))
                    .map(|r| (ctx.text(r).to_string(), span(r)))
                    .collect();
            }
            continue;
        }
        if test.kind_str() != "instanceof_expression" {
            continue;
        }
        let (Some(left), Some(right)) = (field(test, "left"), field(test, "right")) else {
            continue;
        };
        if !tests_subject(left) {
            continue;
        }
        // The branch taken for every other exception leaves.
        let other = if negated {
            field(s, "consequence")
        } else {
            field(s, "alternative").map(|a| {
                if a.kind_str() == "else" {
                    ctx.named_children(a).first().copied().unwrap_or(a)
                } else {
                    a
                }
            })
        };
        if other.is_some_and(|b| {
            statements(b)
                .last()
                .is_some_and(|l| helpers::leaves(ctx, *l))
        }) {
            return vec![(ctx.text(right).to_string(), span(right))];
        }
    }
    // The cause chain walked in a loop of the catch (`do { if (cause
    // instanceof OptimisticLockException) { ..; break; } cause =
    // cause.getCause(); } while (cause != null ..)`) and every other
    // exception thrown after it (`if (cause == null || ..) throw t;`): the
    // type the walk looks for goes round (apache/ambari `Users`, nineteenth
    // pass).
    let stmts = ctx.named_children(body);
    for (k, s) in stmts.iter().enumerate() {
        if !matches!(
            s.kind_str(),
            "do_statement" | "while_statement" | "for_statement"
        ) {
            continue;
        }
        let inner = ctx.descendants(*s);
        let walks = inner.iter().take(512).any(|d| {
            d.kind_str() == "assignment_expression"
                && field(*d, "right").is_some_and(|r| ctx.text(r).contains(".getCause()"))
                && field(*d, "left").is_some_and(|l| subjects.contains(&ctx.text(l)))
        });
        let Some(ty) = inner.iter().take(512).find_map(|d| {
            (d.kind_str() == "instanceof_expression"
                && field(*d, "left").is_some_and(tests_subject))
            .then(|| field(*d, "right"))
            .flatten()
        }) else {
            continue;
        };
        let rest_throws = stmts[k + 1..].iter().any(|x| {
            x.kind_str() == "if_statement"
                && field(*x, "consequence").is_some_and(|b| {
                    statements(b)
                        .last()
                        .is_some_and(|l| helpers::leaves(ctx, *l))
                })
        });
        if walks && rest_throws {
            return vec![(ctx.text(ty).to_string(), span(ty))];
        }
    }
    caught
}

pub(super) fn catch_types(ctx: &Ctx<'_>, c: Node<'_>) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for p in ctx.named_children(c) {
        if p.kind_str() != "catch_formal_parameter" {
            continue;
        }
        for t in ctx.named_children(p) {
            if t.kind_str() == "catch_type" {
                for ty in ctx.named_children(t) {
                    out.push((ctx.text(ty).to_string(), span(ty)));
                }
            }
        }
    }
    out
}

/// The condition tests the flag itself negated (`while (!done)`), not
/// something read through it (`while (!result.getStatus().isFinished())`
/// polls a state the call returned).
pub(super) fn negated_flag(cond_text: &str, name: &str) -> bool {
    let pat = format!("!{name}");
    cond_text.match_indices(&pat).any(|(i, _)| {
        let before_ok = cond_text[..i]
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.'));
        let after_ok = cond_text[i + pat.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '('));
        before_ok && after_ok
    })
}

/// A catch that sets the flag the loop condition tests so that the loop
/// ends (`stopRetry = true;` under `while (.. && !stopRetry)`): it leaves,
/// like a `break`.
pub(super) fn ends_by_flag(ctx: &Ctx<'_>, c: Node<'_>, cond_text: &str) -> bool {
    let Some(body) = field(c, "body") else {
        return false;
    };
    statements(body)
        .into_iter()
        .any(|s| stops_by_flag(ctx, s, cond_text))
}

/// The statement sets the flag the loop condition negates (`end = true;`
/// under `while (!end)`): the loop ends after this pass.
pub(super) fn stops_by_flag(ctx: &Ctx<'_>, s: Node<'_>, cond_text: &str) -> bool {
    s.kind_str() == "expression_statement"
        && ctx.named_children(s).first().is_some_and(|e| {
            e.kind_str() == "assignment_expression"
                && field(*e, "right").is_some_and(|r| ctx.text(r) == "true")
                && field(*e, "left").is_some_and(|l| negated_flag(cond_text, ctx.text(l)))
        })
}

/// `continue OUTER;` naming a loop around this one (`APPS: for (..) { for
/// (;;) { try { .. break; } catch (CancellationException e) { continue APPS;
/// } } }`): the catch leaves this loop for the next pass of the outer one.
/// A `continue` naming this loop's own label goes round, as a bare one does.
pub(super) fn continues_outer(ctx: &Ctx<'_>, stmt: Node<'_>, lp: Node<'_>) -> bool {
    if stmt.kind_str() != "continue_statement" {
        return false;
    }
    let Some(label) = ctx
        .named_children(stmt)
        .into_iter()
        .find(|c| c.kind_str() == "identifier")
    else {
        return false;
    };
    let own = ctx
        .parent(lp)
        .filter(|p| p.kind_str() == "labeled_statement");
    !own.is_some_and(|p| {
        ctx.named_children(p)
            .into_iter()
            .find(|c| c.kind_str() == "identifier")
            .is_some_and(|l| ctx.text(l) == ctx.text(label))
    })
}

/// A catch of only exceptions that say another thread or writer got there
/// first: a local state that changed under the call
/// (`IndexOutOfBoundsException` after a concurrent removal,
/// `IllegalAccessException` after another thread's `setAccessible(false)`,
/// `ConcurrentModificationException`) or a duplicate key: no remote call
/// failed, and the next pass reads anew. A stale version in a
/// compare-and-set is a conflict ([`conflict_only`]): reported when it goes
/// round at once (eighteenth pass).
pub(super) fn race_only(ctx: &Ctx<'_>, catch: Node<'_>) -> bool {
    let types = super::catch_types(ctx, catch);
    !types.is_empty()
        && types
            .iter()
            .all(|(t, _)| race_only_type(ast::last_segment(t)))
}

/// An exception type [`race_only`] takes (its last segment).
fn race_only_type(t: &str) -> bool {
    const RACES: &[&str] = &[
        "IndexOutOfBoundsException",
        "ArrayIndexOutOfBoundsException",
        "ConcurrentModificationException",
        "IllegalAccessException",
        "NoSuchElementException",
        "SQLIntegrityConstraintViolationException",
        "DuplicateKeyException",
    ];
    RACES.contains(&t)
}

/// Stale-version conflicts of a compare-and-set.
const CONFLICTS: &[&str] = &[
    "BadVersionException",
    "ZkBadVersionException",
    "OptimisticLockingFailureException",
    "ObjectOptimisticLockingFailureException",
    "OptimisticLockException",
    "StaleObjectStateException",
    "VersionConflictEngineException",
];

/// A catch of only races ([`race_only`]) and stale-version conflicts, at
/// least one a conflict: another writer won, and the next pass reads what
/// it wrote. Such a loop ends when this writer wins, so it is not
/// unbounded and it retries one kind of failure; but it is a retry under
/// contention, and one at once is reported (RL201, eighteenth pass: the
/// losers all go round together and the work grows with the square of the
/// writers, Brooker's "Exponential Backoff And Jitter", AWS 2015, and
/// Square's Multipass outage of March 2017).
pub(super) fn conflict_only(ctx: &Ctx<'_>, catch: Node<'_>) -> bool {
    let types = super::catch_types(ctx, catch);
    types
        .iter()
        .any(|(t, _)| CONFLICTS.contains(&ast::last_segment(t)))
        && types.iter().all(|(t, _)| {
            let t = ast::last_segment(t);
            CONFLICTS.contains(&t) || race_only_type(t)
        })
}

/// `doRetry = (retryCount >= 0);` under `while (doRetry)` (or `done =
/// attempts >= max;` under `while (!done)`): the flag the condition tests
/// is set from a comparison of a counter the loop counts up or down, so the
/// loop stops once the count runs out, as a `break` under that test would
/// (apache/sqoop `SQLServerAsyncDBExecThread.write`, sixteenth pass).
pub(super) fn flag_bound<'a>(
    ctx: &Ctx<'a>,
    lp: Node<'a>,
    own: &[Node<'a>],
    cond_text: &str,
) -> Option<Node<'a>> {
    let flag = cond_text
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let flag = flag.strip_prefix('!').unwrap_or(flag).trim();
    if flag.is_empty() || !flag.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return None;
    }
    own.iter().copied().find(|e| {
        e.kind_str() == "assignment_expression"
            && field(*e, "operator").is_some_and(|o| ctx.text(o) == "=")
            && field(*e, "left").is_some_and(|l| ctx.text(l) == flag)
            && field(*e, "right")
                .and_then(|r| bounds::comparison(ctx, r))
                .is_some_and(|c| {
                    c.inc.is_some()
                        || c.dec
                        || bounds::decrements(ctx, own, &c.counter)
                        || bounds::increments(ctx, lp, own, &c.counter).is_some()
                })
    })
}

/// `_retryTimer.getRemainingRetriesNum() <= 0`, `retries.remaining() == 0`:
/// a comparison of the count a retry object keeps (a receiver named for a
/// retry, a method named for what is left) under an `if` that leaves: the
/// object bounds the loop (linkedin/databus `BootstrapApplierThread.reset`,
/// seventeenth pass, read after the changes).
pub(super) fn retry_object_count(ctx: &Ctx<'_>, e: Node<'_>) -> bool {
    let e = ast::unwrap_expr(e);
    if e.kind_str() != "binary_expression"
        || !field(e, "operator")
            .is_some_and(|o| matches!(ctx.text(o), "<" | "<=" | "==" | ">" | ">="))
    {
        return false;
    }
    [field(e, "left"), field(e, "right")]
        .into_iter()
        .flatten()
        .map(ast::unwrap_expr)
        .any(|x| {
            x.kind_str() == "method_invocation"
                && field(x, "object").is_some_and(|o| {
                    let o = ctx.text(o).to_ascii_lowercase();
                    o.contains("retr") || o.contains("attempt") || o.contains("backoff")
                })
                && field(x, "name").is_some_and(|n| {
                    let n = ctx.text(n).to_ascii_lowercase();
                    n.contains("remaining") || n.contains("left")
                })
                && field(x, "arguments").is_some_and(|a| ctx.named_children(a).is_empty())
        })
}

/// A catch that goes round only when what it caught is an interruption of
/// this thread and throws everything else: `catch (Throwable e) { if
/// (causedByInterrupt(e) || Thread.interrupted()) { .. } else { throw e; }
/// }`, or `if (!(e instanceof InterruptedException) &&
/// !Thread.currentThread().isInterrupted()) throw e;` before going round.
/// Like a catch of `InterruptedException` alone, no failed call goes round
/// (apache/asterixdb `CloudRetryableRequestUtil.run`, twenty-first pass).
/// Every `||` part of the test (every `&&` part of the negated one) must
/// name an interruption: `isRetryable(e) || interrupted` still retries.
pub(super) fn round_only_on_interrupt(ctx: &Ctx<'_>, c: Node<'_>) -> bool {
    let Some(body) = field(c, "body") else {
        return false;
    };
    let names_interrupt = |p: &str| p.to_ascii_lowercase().contains("interrupt");
    let block_leaves = |b: Node<'_>| match b.kind_str() {
        "block" => ctx
            .named_children(b)
            .last()
            .is_some_and(|l| helpers::leaves(ctx, *l)),
        _ => helpers::leaves(ctx, b),
    };
    ctx.named_children(body).into_iter().any(|s| {
        if s.kind_str() != "if_statement" {
            return false;
        }
        let (Some(cond), Some(then)) = (field(s, "condition"), field(s, "consequence")) else {
            return false;
        };
        let text = ctx.text(ast::unwrap_expr(cond)).trim();
        match field(s, "alternative") {
            Some(other) => {
                !block_leaves(then) && block_leaves(other) && text.split("||").all(names_interrupt)
            }
            None => {
                block_leaves(then)
                    && text.split("&&").all(|p| {
                        let p = p.trim();
                        p.starts_with('!') && names_interrupt(p)
                    })
            }
        }
    })
}
