//! A retry written without a loop: a `try` whose `except` makes the same
//! call once more (`except ConnectionClosed: self.connect();
//! self.channel.basic_publish(..)`), two attempts in all, with the wait of
//! a `sleep` before the second, if any. A `try` inside a loop is the loop
//! reader's.
//!
//! Or a retry by recursion: a function whose `except` calls the function
//! itself again while a counter it decrements lasts (`if count > 0:
//! count -= 1; .. return wrapper(*args, **kwargs)`, freqtrade c9ae5e1e9's
//! `@retrier` and `@retrier_async` in `freqtrade/exchange/common.py`),
//! or with no counter at all: the function called again with its own
//! arguments, under a test of the error or none (grafana/oncall
//! 3666186a9 `tools/migrators/lib/network.py`: `if status_code == 429:
//! sleep(Retry-After); return api_call(method, base_url, path,
//! **kwargs)`), which nothing but Python's recursion limit stops.

use super::super::{Ctx, RetryScope, callee, field, named_children, policy, span};
use super::{except_conditions, owner_loop, sleep_delay};
use crate::model::backoff::ServerDelay;
use crate::model::*;
use crate::systems::python::extract::Kind as _;
use tree_sitter::Node;

/// The call a statement makes at its top: `f(..)`, `x = f(..)`, `return
/// f(..)`, `await f(..)`.
fn stmt_call(s: Node<'_>) -> Option<Node<'_>> {
    let first = named_children(s).first().copied()?;
    let e = match (s.kind_str(), first.kind_str()) {
        ("expression_statement", "assignment") => field(first, "right")?,
        ("expression_statement" | "return_statement", _) => first,
        _ => return None,
    };
    let e = if e.kind_str() == "await" {
        named_children(e).first().copied()?
    } else {
        e
    };
    (e.kind_str() == "call").then_some(e)
}

/// A wait for a local process or thread (`proc.wait(timeout=10)`,
/// `proc.communicate()`, `worker.join()`): made again after a kill or a
/// timeout it waits once more for the same local end, nothing remote is
/// tried again.
/// A lock's `acquire(timeout=..)` waits for a local holder too.
pub(super) fn waits_locally(method: &str) -> bool {
    matches!(method, "wait" | "communicate" | "join" | "acquire")
}

/// A message published again (pika's `channel.basic_publish(..)`, AMQP
/// `Basic.Publish`; a client's `.publish(..)`): a `Publish`, which a
/// broker appends once more when the first went through before the
/// connection was lost.
pub(super) fn publish_method(ctx: &Ctx<'_>, call: Node<'_>) -> Option<Methods> {
    let (full, last) = callee(ctx, call);
    // A class's own `_publish` wrapper too (robot-shop's payment).
    (full.contains('.') && matches!(last.trim_start_matches('_'), "basic_publish" | "publish"))
        .then(|| Methods::Set(vec!["Publish".to_string()]))
}

/// Whether a name the call passes is bound again by the statements before
/// it (`file_id = doc.other_id` then `update(file_id, ..)`), or a field of
/// the object whose method it is set (`cl.engagement = eng` then
/// `cl.save()`: DefectDojo's checklist saved as a new row when none is
/// stored): the same call text made with another input, a fallback
/// rather than a retry. The object itself made again (`self.db =
/// connect(..)` then `self.db.insert(..)`) is a reconnection, and the
/// call a retry.
fn argument_rebound(ctx: &Ctx<'_>, call: Node<'_>, before: &[Node<'_>]) -> bool {
    let receiver = field(call, "function")
        .filter(|f| f.kind_str() == "attribute")
        .and_then(|f| field(f, "object"))
        .map(|o| norm(ctx, o));
    let field_set = |l: Node<'_>| {
        l.kind_str() == "attribute"
            && receiver.is_some()
            && field(l, "object").map(|o| norm(ctx, o)) == receiver
    };
    if before.iter().any(|s| {
        named_children(*s)
            .first()
            .filter(|a| matches!(a.kind_str(), "assignment" | "augmented_assignment"))
            .and_then(|a| field(*a, "left"))
            .is_some_and(field_set)
    }) {
        return true;
    }
    let Some(args) = field(call, "arguments") else {
        return false;
    };
    let passed: Vec<&str> = ctx
        .subtree(args)
        .iter()
        .filter(|c| c.kind_str() == "identifier")
        .map(|c| ctx.text(*c))
        .collect();
    before.iter().any(|s| {
        named_children(*s)
            .first()
            .filter(|a| matches!(a.kind_str(), "assignment" | "augmented_assignment"))
            .and_then(|a| field(*a, "left"))
            .is_some_and(|l| {
                ctx.subtree(l)
                    .iter()
                    .any(|c| c.kind_str() == "identifier" && passed.contains(&ctx.text(*c)))
            })
    })
}

/// A call's text without blanks, to compare two writings of one call.
fn norm(ctx: &Ctx<'_>, n: Node<'_>) -> String {
    ctx.text(n).split_whitespace().collect()
}

pub(super) fn extract(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) {
    for &n in &ctx.nodes {
        if n.kind_str() != "try_statement" || owner_loop(n).is_some() {
            continue;
        }
        if recursive(ctx, n, facts, scopes) {
            continue;
        }
        let Some(body) = field(n, "body") else {
            continue;
        };
        let tried: Vec<(String, Node<'_>)> = named_children(body)
            .into_iter()
            .filter_map(stmt_call)
            .filter(|c| {
                let (full, last) = callee(ctx, *c);
                let l = last.to_ascii_lowercase();
                full.contains('.')
                    && !l.contains("log")
                    && !l.contains("print")
                    && !waits_locally(&l)
            })
            .map(|c| (norm(ctx, c), c))
            .collect();
        if tried.is_empty() {
            continue;
        }
        for (clause, block) in except_blocks(n) {
            let stmts = named_children(block);
            let Some((i, again)) = stmts.iter().enumerate().find_map(|(i, s)| {
                let c = stmt_call(*s)?;
                let t = norm(ctx, c);
                tried.iter().any(|(x, _)| *x == t).then_some((i, c))
            }) else {
                continue;
            };
            if argument_rebound(ctx, again, &stmts[..i]) {
                continue;
            }
            let sleep = stmts[..i]
                .iter()
                .filter_map(|s| stmt_call(*s))
                .find(|c| callee(ctx, *c).1 == "sleep");
            let at = span(again);
            let mut p = policy(
                "loop",
                at,
                Located::written(
                    Attempts {
                        count: AttemptCount::Finite(2),
                        written_as: format!(
                            "`{}` once more in `except`",
                            super::super::one_line(ctx.text(again))
                        ),
                    },
                    at,
                ),
            );
            p.name = super::super::enclosing_function(ctx, n)
                .map(|(f, _)| format!("retry in except in {f}"));
            wait_and_errors(ctx, &mut p, sleep, clause, at);
            if let Some(m) = publish_method(ctx, again) {
                p.methods = Located::written(m, at);
                // A publish on a blocked connection waits as long as pika's
                // `blocked_connection_timeout` lets it.
                p.per_try_timeout = super::super::libs::pika::blocked_publish_timeout(ctx);
            }
            push_per_call(p, n, facts, scopes);
            break;
        }
    }
}

/// What an `except` clause that tries again waits (its `sleep(..)`, none
/// when it has none) and which errors it catches.
fn wait_and_errors(
    ctx: &Ctx<'_>,
    p: &mut RetryPolicy,
    sleep: Option<Node<'_>>,
    clause: Node<'_>,
    at: crate::source::Span,
) {
    let (delay, jitter) = match sleep {
        None => (Delay::None, Jitter::None),
        Some(s) => sleep_delay(ctx, s, None, None),
    };
    let dspan = sleep.map_or(at, span);
    p.delay = Located::written(delay, dspan);
    p.jitter = Located::written(jitter, dspan);
    p.retry_on = except_conditions(ctx, &[clause]);
}

/// The `except` clauses of a `try` statement with their blocks.
fn except_blocks(n: Node<'_>) -> impl Iterator<Item = (Node<'_>, Node<'_>)> {
    named_children(n)
        .into_iter()
        .filter(|c| c.kind_str() == "except_clause")
        .filter_map(|clause| {
            let block = named_children(clause)
                .into_iter()
                .find(|c| c.kind_str() == "block")?;
            Some((clause, block))
        })
}

/// The call of `name` (the function around) a statement makes, `await`
/// or not: `return wrapper(*a, **kw)`, `return await self.f(..)`.
fn calls_itself(ctx: &Ctx<'_>, s: Node<'_>, name: &str) -> bool {
    stmt_call(s).is_some_and(|c| {
        let (full, last) = callee(ctx, c);
        last == name && (full == name || full == format!("self.{name}"))
    })
}

/// A `try` whose `except` calls the function around it again under a
/// counter test (`if count > 0:` with `count -= 1`): a retry by
/// recursion, `count`'s first value plus one attempts (the value
/// `kwargs.pop("count", N)` or the name's binding gives, parameters at
/// their defaults). A wait is the `sleep` the branch always makes; one
/// under a further test (freqtrade's only for `DDosProtection`) leaves
/// the other errors retried at once, as read.
fn recursive(ctx: &Ctx<'_>, n: Node<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) -> bool {
    let Some((name, func)) = super::super::enclosing_function(ctx, n) else {
        return false;
    };
    if name.is_empty() {
        return false;
    }
    for (clause, block) in except_blocks(n) {
        // `if count > 0:` (or `count >= 1`, `0 < count`) among the
        // clause's statements, its branch decrementing `count` and
        // calling the function again.
        for test in named_children(block)
            .into_iter()
            .filter(|s| s.kind_str() == "if_statement")
        {
            let (Some(cond), Some(branch)) = (field(test, "condition"), field(test, "consequence"))
            else {
                continue;
            };
            let Some(counter) = counter_of(ctx, cond) else {
                continue;
            };
            let stmts = named_children(branch);
            let decrements = stmts.iter().any(|s| {
                named_children(*s).first().is_some_and(|a| {
                    a.kind_str() == "augmented_assignment"
                        && field(*a, "left").is_some_and(|l| ctx.text(l) == counter)
                        && ctx.text(*a).contains("-=")
                })
            });
            let Some(again) = stmts.iter().find(|s| calls_itself(ctx, **s, name)) else {
                continue;
            };
            if !decrements {
                continue;
            }
            let first = first_count(ctx, func, n, counter);
            let at = span(*again);
            let mut p = policy(
                "loop",
                at,
                Located::written(
                    Attempts {
                        count: first.map_or(AttemptCount::Unknown, |k| {
                            AttemptCount::Finite(k.saturating_add(1))
                        }),
                        written_as: format!(
                            "`{}` again in `except` while `{}`",
                            super::super::one_line(ctx.text(*again)),
                            super::super::one_line(ctx.text(cond))
                        ),
                    },
                    at,
                ),
            );
            p.name = Some(format!("retry by recursion in {name}"));
            let sleep = stmts
                .iter()
                .filter_map(|s| stmt_call(*s))
                .find(|c| callee(ctx, *c).1 == "sleep");
            wait_and_errors(ctx, &mut p, sleep, clause, at);
            push_per_call(p, n, facts, scopes);
            return true;
        }
    }
    uncounted(ctx, n, name, func, facts, scopes)
}

/// A call of the function itself with its own arguments in an `except`
/// (in the clause's block, or a branch of an `if` there), with no
/// counter: a retry without a limit (RL205), the branch's `sleep` its
/// wait, the `if`'s status test (`status_code == 429`) what it retries.
fn uncounted(
    ctx: &Ctx<'_>,
    n: Node<'_>,
    name: &str,
    func: Node<'_>,
    facts: &mut Facts,
    scopes: &mut Vec<RetryScope>,
) -> bool {
    // Each round first waits for a lock's holder to let go: the call
    // again is a turn in a lock race, bounded by that wait.
    if waits_for_lock_first(ctx, func, n) {
        return false;
    }
    let params = own_parameters(ctx, func);
    for (clause, block) in except_blocks(n) {
        // The clause's block and the branches of its `if` statements,
        // each with the test that leads there.
        let mut branches: Vec<(Node<'_>, Option<Node<'_>>)> = vec![(block, None)];
        for test in named_children(block)
            .into_iter()
            .filter(|s| s.kind_str() == "if_statement")
        {
            if let Some(b) = field(test, "consequence") {
                branches.push((b, field(test, "condition")));
            }
            for c in named_children(test) {
                if c.kind_str() == "elif_clause"
                    && let Some(b) = field(c, "consequence")
                {
                    branches.push((b, field(c, "condition")));
                }
            }
        }
        for (branch, cond) in branches {
            let stmts = named_children(branch);
            let Some((i, again)) = stmts.iter().enumerate().find_map(|(i, s)| {
                stmt_call(*s)
                    .filter(|_| calls_itself(ctx, *s, name))
                    .map(|c| (i, c))
            }) else {
                continue;
            };
            if !passes_own(ctx, again, &params) || argument_rebound(ctx, again, &stmts[..i]) {
                continue;
            }
            let at = span(again);
            let when = cond.map_or(String::new(), |c| {
                format!(" when `{}`", super::super::one_line(ctx.text(c)))
            });
            let mut p = policy(
                "loop",
                at,
                Located::written(
                    Attempts {
                        count: AttemptCount::Unbounded,
                        written_as: format!(
                            "`{}` again in `except`{when}, with no count",
                            super::super::one_line(ctx.text(again))
                        ),
                    },
                    at,
                ),
            );
            p.name = Some(format!("retry by recursion in {name}"));
            let sleep = stmts[..i]
                .iter()
                .filter_map(|s| stmt_call(*s))
                .find(|c| callee(ctx, *c).1 == "sleep");
            wait_and_errors(ctx, &mut p, sleep, clause, at);
            if let Some(c) = cond
                && let Some(holds) = crate::extract::status_test::holds_for(ctx.text(c))
            {
                p.retry_on = crate::extract::status_test::listed_with(
                    p.retry_on,
                    &[(holds, span(c))],
                    "Exception",
                );
            }
            // A wait read from `Retry-After` in the branch (RL208).
            if let Some((s, e, d)) =
                ServerDelay::in_source(ctx.text(branch), "a retry by recursion")
            {
                let b = branch.start_byte();
                p.server_delay = Some(Located::written(d, crate::source::Span::new(b + s, b + e)));
            }
            push_per_call(p, n, facts, scopes);
            return true;
        }
    }
    false
}

/// Whether the function, before the `try` `n`, calls a wait for a lock
/// (`self.wait_for_lock(key, timeout)`, `lock.acquire(..)`,
/// `wait_until_unlocked(..)`): a call of the function again waits for the
/// holder before it tries (prefect's file lock: `FileExistsError` from
/// another holder, then `acquire_lock(..)` again, which first waits).
fn waits_for_lock_first(ctx: &Ctx<'_>, func: Node<'_>, n: Node<'_>) -> bool {
    let Some(body) = field(func, "body") else {
        return false;
    };
    ctx.subtree(body)
        .iter()
        .take(1_024)
        .filter(|c| c.kind() == "call" && c.end_byte() <= n.start_byte())
        .any(|c| {
            let (full, last) = callee(ctx, *c);
            let (full, last) = (full.to_ascii_lowercase(), last.to_ascii_lowercase());
            (last.contains("lock") && last.contains("wait"))
                || (last == "acquire" && full.contains("lock"))
        })
}

/// The parameters of a function as a call passes them on (`a`, `*args`,
/// `**kwargs`), without `self` and `cls`.
fn own_parameters(ctx: &Ctx<'_>, func: Node<'_>) -> Vec<String> {
    let Some(ps) = field(func, "parameters") else {
        return Vec::new();
    };
    named_children(ps)
        .into_iter()
        .filter_map(|p| {
            let (prefix, id) = match p.kind_str() {
                "identifier" => ("", Some(p)),
                "typed_parameter" => match named_children(p).first().copied() {
                    Some(c) if c.kind_str() == "list_splat_pattern" => {
                        ("*", named_children(c).first().copied())
                    }
                    Some(c) if c.kind_str() == "dictionary_splat_pattern" => {
                        ("**", named_children(c).first().copied())
                    }
                    c => ("", c),
                },
                "default_parameter" | "typed_default_parameter" => ("", field(p, "name")),
                "list_splat_pattern" => ("*", named_children(p).first().copied()),
                "dictionary_splat_pattern" => ("**", named_children(p).first().copied()),
                _ => return None,
            };
            Some(format!("{prefix}{}", ctx.text(id?)))
        })
        .filter(|p| p != "self" && p != "cls")
        .collect()
}

/// Whether a call passes exactly the function's own parameters, each as
/// itself (`f(a, b, **kwargs)`, `f(a, b=b)`): the same request again.
fn passes_own(ctx: &Ctx<'_>, call: Node<'_>, params: &[String]) -> bool {
    let Some(args) = field(call, "arguments") else {
        return false;
    };
    let mut passed: Vec<String> = Vec::new();
    for a in named_children(args) {
        let name = match a.kind_str() {
            "identifier" => ctx.text(a).to_string(),
            "list_splat" | "dictionary_splat" => {
                let prefix = if a.kind_str() == "list_splat" {
                    "*"
                } else {
                    "**"
                };
                match named_children(a).first() {
                    Some(i) if i.kind_str() == "identifier" => format!("{prefix}{}", ctx.text(*i)),
                    _ => return false,
                }
            }
            "keyword_argument" => {
                let (Some(k), Some(v)) = (field(a, "name"), field(a, "value")) else {
                    return false;
                };
                if ctx.text(k) != ctx.text(v) {
                    return false;
                }
                ctx.text(v).to_string()
            }
            "comment" => continue,
            _ => return false,
        };
        passed.push(name);
    }
    let mut want = params.to_vec();
    want.sort();
    passed.sort();
    !passed.is_empty() && passed == want
}

/// `count > 0`, `count >= 1`, `0 < count`: the counter's name.
fn counter_of<'a>(ctx: &Ctx<'a>, cond: Node<'_>) -> Option<&'a str> {
    if cond.kind_str() != "comparison_operator" {
        return None;
    }
    let parts = named_children(cond);
    let [l, r] = parts.as_slice() else {
        return None;
    };
    let op = ctx.text(cond)[ctx.text(*l).len()..]
        .split_whitespace()
        .next()?;
    match (l.kind_str(), r.kind_str(), op, ctx.text(*l), ctx.text(*r)) {
        ("identifier", "integer", ">", _, "0") | ("identifier", "integer", ">=", _, "1") => {
            Some(ctx.text(*l))
        }
        ("integer", "identifier", "<", "0", _) => Some(ctx.text(*r)),
        _ => None,
    }
}

/// The counter's first value: `count = kwargs.pop("count", N)` (or
/// `.get`), `count = N` in the function before the `try`, or a parameter
/// `count=N`; `N` read with parameters at their defaults (`retries` of
/// the decorator's factory).
fn first_count(ctx: &Ctx<'_>, func: Node<'_>, try_at: Node<'_>, counter: &str) -> Option<u64> {
    let value = ctx
        .subtree(func)
        .iter()
        .copied()
        .filter(|c| c.end_byte() <= try_at.start_byte() && c.kind_str() == "assignment")
        .filter(|a| field(*a, "left").is_some_and(|l| ctx.text(l) == counter))
        .filter_map(|a| field(a, "right"))
        .next_back()
        .map(|r| {
            if r.kind_str() == "call"
                && matches!(callee(ctx, r).1, "pop" | "get")
                && let Some(args) = field(r, "arguments")
                && let [_, d] = named_children(args).as_slice()
            {
                *d
            } else {
                r
            }
        })
        .or_else(|| {
            let params = field(func, "parameters")?;
            named_children(params)
                .into_iter()
                .filter(|p| p.kind_str() == "default_parameter")
                .find(|p| field(*p, "name").is_some_and(|x| ctx.text(x) == counter))
                .and_then(|p| field(p, "value"))
        })?;
    let v = super::super::eval::number_at(ctx, value, "", 0.0)?;
    (v >= 0.0 && v.is_finite() && v < 1e9).then_some(v as u64)
}

/// A retry's policy, and the function `n` as the scope each call of it
/// repeats (a retry by recursion, a publish sent again).
fn push_per_call(p: RetryPolicy, n: Node<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) {
    facts.policies.push(p);
    scopes.push(RetryScope {
        policy: facts.policies.len() - 1,
        start: n.start_byte(),
        end: n.end_byte(),
        per_call: true,
    });
}
