//! Hand-written retry loops: `for _ in range(n):` / `while ...:` around a
//! `try`/`except` (or a status test) that goes round on failure, with
//! the wait of its `sleep` read as a delay (growth with the loop
//! variable, random jitter), and what its `except` clauses catch.

use super::Kind as _;
use super::calls::{db_call, http_call, within};
use super::eval::{self, resolve};
use super::{Args, Ctx, RetryScope, callee, field, named_children, policy, span};
use crate::model::*;
use std::time::Duration;
use tree_sitter::Node;

#[path = "again.rs"]
mod again;
#[path = "deadlines.rs"]
mod deadlines;
#[path = "delays.rs"]
mod delays;
#[path = "local_hosts.rs"]
mod local_hosts;
#[path = "own.rs"]
mod own;
#[path = "shapes.rs"]
mod shapes;
#[path = "statuses.rs"]
mod statuses;
use own::{own_nodes, owner_loop};
pub(super) use statuses::raised_in_body;

/// `for _ in range(n):` / `while ...:` around a `try`/`except` that leaves
/// the loop on success (`return` or `break`): a retry loop.
pub(super) fn loops(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) {
    again::extract(ctx, facts, scopes);
    for &n in &ctx.nodes {
        // `for delay in (1, 2, 4):` (issue 28): attempts and waits from the list.
        let listed = (n.kind_str() == "for_statement")
            .then(|| delays::waits(ctx, n))
            .flatten();
        let (count, written) = match n.kind_str() {
            "for_statement" => {
                let Some(right) = field(n, "right") else {
                    continue;
                };
                if listed.is_some() {
                    (
                        AttemptCount::Unknown,
                        format!("for .. in {}", super::one_line(ctx.text(right))),
                    )
                } else if right.kind_str() != "call" || callee(ctx, right).0 != "range" {
                    continue;
                } else {
                    let rt = ctx.text(right);
                    if rt.contains("len(") {
                        continue;
                    }
                    let args = Args::of(ctx, right);
                    let count = match args.positional.as_slice() {
                        [n] => eval::number(ctx, *n).map(|v| v.max(0.0) as u64),
                        [a, b] | [a, b, _] if args.positional.len() == 2 => {
                            match (eval::number(ctx, *a), eval::number(ctx, *b)) {
                                (Some(a), Some(b)) => Some((b - a).max(0.0) as u64),
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    (
                        count.map_or(AttemptCount::Unknown, AttemptCount::Finite),
                        format!("for .. in {}", super::one_line(rt)),
                    )
                }
            }
            "while_statement" => {
                let Some(cond) = field(n, "condition") else {
                    continue;
                };
                let forever = matches!(ctx.text(cond), "True" | "1");
                (
                    if forever {
                        AttemptCount::Unbounded
                    } else {
                        AttemptCount::Unknown
                    },
                    format!("while {}", super::one_line(ctx.text(cond))),
                )
            }
            _ => continue,
        };
        let Some(body) = field(n, "body") else {
            continue;
        };
        // The loop's own statements, not those of nested functions or loops.
        let own = own_nodes(ctx, n, body);
        let try_stmt = own
            .iter()
            .find(|c| c.kind_str() == "try_statement")
            .copied();
        let excepts: Vec<Node<'_>> = (try_stmt.map(named_children).unwrap_or_default().into_iter())
            .filter(|c| c.kind_str() == "except_clause")
            .collect();
        // Clauses that leave the loop (`except Exception: log(..); break`)
        // do not retry what they catch.
        let retried: Vec<Node<'_>> = excepts
            .iter()
            .copied()
            .filter(|e| !leaves_loop(*e))
            .collect();
        // Response statuses that go round (issue 28): a loop with no `try`
        // is a retry when a status test sends it round.
        let try_body = try_stmt.and_then(|t| field(t, "body"));
        // A `try` that only waits for a local lock, process or thread
        // (`lock.acquire(timeout=..)`, `proc.wait(..)`) tries nothing
        // remote again: its `Timeout` is the lock's, not a service's.
        if try_body.is_some_and(|b| only_local_waits(ctx, b)) {
            continue;
        }
        let statuses = statuses::retried(ctx, n, &own, &excepts, &retried, try_body);
        if retried.is_empty() && statuses.is_empty() {
            continue;
        }
        // A loop over data (`for channel in range(1, 12)` passing `channel`
        // on) is not a retry: the variable is used by the tried code.
        if let Some(var) = field(n, "left").filter(|l| l.kind_str() == "identifier")
            && uses_as_data(ctx, body, ctx.text(var))
        {
            continue;
        }
        let in_except = |c: Node<'_>| excepts.iter().any(|e| within(c, *e));
        // A drain that puts the item it took back on its queue when the
        // call fails (`except ..: outbox.append(activity)`) retries that
        // item, whether or not anything leaves the loop (issue 28,
        // Vultron #2302).
        let requeue = shapes::requeue(ctx, &own, &retried)
            .filter(|_| try_body.is_some_and(|b| shapes::delivers(ctx, b)));
        let exits: Vec<Node<'_>> = own
            .iter()
            .copied()
            .filter(|c| {
                matches!(c.kind_str(), "return_statement" | "break_statement") && !in_except(*c)
            })
            .collect();
        if requeue.is_none() && exits.is_empty() {
            continue;
        }
        // A wait for a state: every success exit tests what the answer
        // says (`if body.get("status") == expected: return`), so the loop
        // asks at its own pace whether a request failed or not: a poll.
        if requeue.is_none() && shapes::polls_state(ctx, n, &exits) {
            continue;
        }
        let sleeps: Vec<Node<'_>> = own
            .iter()
            .copied()
            .filter(|c| c.kind_str() == "call" && callee(ctx, *c).1 == "sleep")
            .collect();
        // `while` loops retry with a wait (else event or read loops), or at
        // once when an `except` sends round an HTTP or gRPC call of the
        // `try`, or a database driver's (issue 28).
        let sub = |b| {
            ctx.subtree(b)
                .iter()
                .any(|c| http_call(ctx, *c).is_some() || db_call(ctx, *c))
        };
        if requeue.is_none()
            && (n.kind_str() == "while_statement" || retried.is_empty())
            && sleeps.is_empty()
            && (retried.is_empty() || !try_body.is_some_and(sub))
        {
            continue;
        }
        // A put-back whatever happened: nothing ever drops the item; one
        // under an `if` is bounded by what the `if` tests.
        let (count, written) = match requeue {
            Some((put, always)) => (
                if always {
                    AttemptCount::Unbounded
                } else {
                    AttemptCount::Unknown
                },
                format!("{written}: .. {}", super::one_line(ctx.text(put))),
            ),
            None => (count, written),
        };
        // Every failure ends the loop: the except clauses re-raise at once,
        // or give up with a `return` (astronomer-providers 5b869ef3 Livy:
        // `if .. or attempt_num == self.retry_limit: return {..}`); or a
        // clock test leaves it (`if time.monotonic() - start > wait_for:
        // exit(..)`): capped by a length not known here.
        let count = if count == AttemptCount::Unbounded
            && (own.iter().any(|c| {
                matches!(c.kind_str(), "raise_statement" | "return_statement") && in_except(*c)
            }) || own.iter().any(|c| deadlines::clock_leaves(ctx, *c))
                || deadlines::in_scope(ctx, n))
        {
            AttemptCount::Unknown
        } else {
            count
        };
        let (count, written) = match (&listed, requeue) {
            (Some(w), None) => {
                let last = try_body.is_some_and(|b| delays::last_try_after(ctx, n, b));
                let more = if last { " and one try after it" } else { "" };
                (delays::attempts(w, last), format!("{written}{more}"))
            }
            _ => (count, written),
        };
        let header = Node::start_byte(&n)..body.start_byte();
        let at =
            crate::source::Span::new(header.start, header.end.saturating_sub(1).max(header.start));
        let mut p = policy(
            "loop",
            at,
            Located::written(
                Attempts {
                    count,
                    written_as: written,
                },
                at,
            ),
        );
        p.name = super::enclosing_function(ctx, n).map(|(f, _)| format!("retry loop in {f}"));
        let (delay, jitter) = match sleeps.first() {
            None => (Delay::None, Jitter::None),
            Some(s) => match while_counter(ctx, n, &own, *s) {
                Some((v, start)) => sleep_delay(ctx, *s, Some(v), Some(start)),
                None => sleep_delay(
                    ctx,
                    *s,
                    field(n, "left").map(|l| ctx.text(l)),
                    range_start(ctx, n),
                ),
            },
        };
        let (delay, jitter) = match (&listed, sleeps.first()) {
            (Some(w), Some(s)) if delays::sleeps_element(ctx, *s, w) => {
                (delays::delay(w), Jitter::None)
            }
            _ => (delay, jitter),
        };
        let dspan = sleeps.first().map_or(at, |s| span(*s));
        p.delay = Located::written(delay, dspan);
        p.jitter = Located::written(jitter, dspan);
        p.retry_on = except_conditions(ctx, &retried);
        // A message published again in the `try` (RL103 judges a publish).
        if let Some(m) = try_body.and_then(|b| {
            ctx.subtree(b)
                .iter()
                .filter(|c| c.kind_str() == "call")
                .find_map(|c| again::publish_method(ctx, *c))
        }) {
            p.methods = Located::written(m, at);
            p.per_try_timeout = super::libs::pika::blocked_publish_timeout(ctx);
        }
        if !statuses.is_empty() {
            p.retry_on =
                crate::extract::status_test::listed_with(p.retry_on, &statuses, "Exception");
        }
        // A wait read from `Retry-After` in the loop (RL208).
        if let Some((s, e, d)) =
            crate::model::backoff::ServerDelay::in_source(ctx.text(body), "a hand-written loop")
        {
            let b = body.start_byte();
            p.server_delay = Some(Located::written(d, crate::source::Span::new(b + s, b + e)));
        }
        p.scope.this_machine = local_hosts::only_this_machine(ctx, body);
        facts.policies.push(p);
        scopes.push(RetryScope {
            policy: facts.policies.len() - 1,
            start: body.start_byte(),
            end: body.end_byte(),
            per_call: true,
        });
    }
}

/// Whether every call of a block is a wait on something local (and there
/// is one).
fn only_local_waits(ctx: &Ctx<'_>, block: Node<'_>) -> bool {
    let calls: Vec<Node<'_>> = ctx
        .subtree(block)
        .iter()
        .copied()
        .filter(|c| c.kind_str() == "call")
        .collect();
    !calls.is_empty()
        && calls.iter().all(|c| {
            let (full, last) = callee(ctx, *c);
            full.contains('.') && again::waits_locally(&last.to_ascii_lowercase())
        })
}

/// Whether an except clause always leaves the loop: its block's own
/// statements (not those under an `if`) include a `break`, `return` or
/// `raise`, or a `yield` that hands the error out of a generator (an
/// Airflow trigger's `yield TriggerEvent({"status": "error", ..})`: its
/// consumer decides what comes next, and the loop tries nothing again
/// on its own).
fn leaves_loop(clause: Node<'_>) -> bool {
    named_children(clause)
        .into_iter()
        .filter(|c| c.kind_str() == "block")
        .flat_map(named_children)
        .any(|s| {
            matches!(
                s.kind_str(),
                "break_statement" | "return_statement" | "raise_statement"
            ) || (s.kind_str() == "expression_statement"
                && named_children(s).iter().any(|e| e.kind_str() == "yield"))
        })
}

/// Whether `var` is passed to a call in `body` (other than a log, print
/// or sleep call) or indexes something: data, not an attempt counter
/// (which is compared, counted and logged).
fn uses_as_data(ctx: &Ctx<'_>, body: Node<'_>, var: &str) -> bool {
    const QUIET: &[&str] = &[
        "debug",
        "info",
        "warning",
        "warn",
        "error",
        "exception",
        "critical",
        "log",
        "print",
        "sleep",
    ];
    const ARITH: &[&str] = &[
        "min", "max", "pow", "int", "float", "round", "abs", "uniform", "randint", "random",
    ];
    if var == "_" {
        return false;
    }
    ctx.subtree(body)
        .iter()
        .filter(|i| i.kind_str() == "identifier" && ctx.text(**i) == var)
        .any(|i| {
            let mut cur = i.parent();
            while let Some(c) = cur {
                if c.id() == body.id() {
                    return false;
                }
                match c.kind_str() {
                    // A value computed from the variable (`min(30, 2 ** i)`,
                    // `pow(2, i)`, `random.uniform(0, 2 ** i)`) goes to
                    // the call that takes it.
                    "call" if ARITH.contains(&callee(ctx, c).1) => {}
                    "call" => return !QUIET.contains(&callee(ctx, c).1),
                    "subscript" => return true,
                    _ => {}
                }
                cur = c.parent();
            }
            false
        })
}

/// The first value of a `for` loop's variable over `range(..)`: 0, or the
/// range's start where it is a number.
fn range_start(ctx: &Ctx<'_>, n: Node<'_>) -> Option<f64> {
    let right = field(n, "right").filter(|r| r.kind_str() == "call")?;
    if callee(ctx, right).1 != "range" {
        return None;
    }
    match Args::of(ctx, right).positional.as_slice() {
        [_] => Some(0.0),
        [a, ..] => eval::number(ctx, *a),
        _ => None,
    }
}

/// A `while` loop's counter and its value at the wait `sleep`: a name the
/// condition compares (`while attempt <= self.retry_attempts`), bound to a
/// number before the loop (`attempt = 0`) and raised by one in the loop
/// (`attempt += 1`); one more than that number when the loop counts before
/// it waits. haystack `link_content.py` (c7cb46c0) waits
/// `min(2 * 2 ** (attempt - 1), 10)` after `attempt += 1`: 2, 4, 8, 10 s.
fn while_counter<'a>(
    ctx: &Ctx<'a>,
    n: Node<'_>,
    own: &[Node<'_>],
    sleep: Node<'_>,
) -> Option<(&'a str, f64)> {
    if n.kind_str() != "while_statement" {
        return None;
    }
    let cond = field(n, "condition").filter(|c| c.kind_str() == "comparison_operator")?;
    let names: Vec<Node<'_>> = named_children(cond)
        .into_iter()
        .filter(|c| c.kind_str() == "identifier")
        .collect();
    names.iter().find_map(|&v| {
        let name = ctx.text(v);
        let steps: Vec<Node<'_>> = own
            .iter()
            .copied()
            .filter(|a| {
                a.kind_str() == "augmented_assignment"
                    && field(*a, "left").is_some_and(|l| ctx.text(l) == name)
            })
            .collect();
        // One step of one: `+= 1` once in the loop's own statements.
        let [step] = steps.as_slice() else {
            return None;
        };
        let by_one = field(*step, "operator").is_some_and(|o| ctx.text(o) == "+=")
            && field(*step, "right").and_then(|r| eval::number(ctx, r)) == Some(1.0);
        if !by_one {
            return None;
        }
        let first = eval::number(ctx, v)?;
        let counted = step.start_byte() < sleep.start_byte();
        Some((name, if counted { first + 1.0 } else { first }))
    })
}

/// A wait written in the loop variable (`2 ** (i - 1)`, `0.5 * 2 ** i`,
/// `1 << i`, `pow(2, i)`, `min(30, 2 ** i)`, `(i + 1) * 2`), read from its
/// values at the loop's first three values: the wait before the first
/// retry is the expression at the variable's first value (`2 ** (i - 1)`
/// over `range(n)` waits 0.5 s, then 1 s, 2 s ...), its growth the ratio
/// (or difference) of consecutive values, a cap the value far along.
fn growth_in(ctx: &Ctx<'_>, arg: Node<'_>, var: &str, start: f64) -> Option<Delay> {
    let at = |k: f64| eval::number_at(ctx, arg, var, start + k);
    let (f0, f1, f2) = (at(0.0)?, at(1.0)?, at(2.0)?);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
    if !(0.0..1e9).contains(&f0) || !f1.is_finite() || !f2.is_finite() {
        return None;
    }
    let secs = |v: f64| Duration::from_secs_f64(v.clamp(0.0, 1e9));
    if close(f0, f1) && close(f1, f2) {
        return Some(Delay::Fixed { delay: secs(f0) });
    }
    if f0 > 0.0 && f1 > f0 && close(f2 / f1, f1 / f0) {
        // Rounded: `0.1 * 3 ** i` gives 3.0000000000000004.
        let m = ((f1 / f0) * 1e6).round() / 1e6;
        // A cap (`min(30, 2 ** i)`): the value far along, when below the
        // uncapped growth.
        let cap = at(40.0)
            .filter(|c| c.is_finite() && *c < f0 * m.powi(40) * 0.999)
            .map(secs);
        return Some(Delay::Exponential {
            base: secs(f0),
            multiplier: m,
            cap,
        });
    }
    // `(i + 1) * 2` over `range(n)`: `base x n` before retry n.
    let d = f1 - f0;
    if d > 0.0 && close(f2 - f1, d) && close(f0, d) {
        let cap = at(40.0)
            .filter(|c| c.is_finite() && *c < 41.0 * d * 0.999)
            .map(secs);
        return Some(Delay::Linear { base: secs(d), cap });
    }
    None
}

/// The wait of `sleep(x)`: a constant, growth with the loop variable `i`
/// (read from its values, [`growth_in`], else `c * b ** i` from the text),
/// and `random`/`uniform` jitter.
fn sleep_delay(
    ctx: &Ctx<'_>,
    s: Node<'_>,
    var: Option<&str>,
    start: Option<f64>,
) -> (Delay, Jitter) {
    let Some(arg) = Args::of(ctx, s).positional.first().copied() else {
        return (Delay::Unknown, Jitter::Unknown);
    };
    let arg_r = resolve(ctx, arg);
    let t = ctx.text(arg_r);
    let jitter = if t.contains("random") || t.contains("uniform") || t.contains("jitter") {
        Jitter::Full
    } else {
        Jitter::None
    };
    if let Some(d) = self_grown(ctx, arg, arg_r) {
        return (d, jitter);
    }
    if let (Some(v), Some(start)) = (var, start)
        && let Some(d) = growth_in(ctx, arg_r, v, start)
    {
        return (d, jitter);
    }
    if let Some(d) = eval::wait_seconds(ctx, arg_r) {
        return (Delay::Fixed { delay: d }, jitter);
    }
    // A division is a unit (`/ 1000`: milliseconds) this reading of the
    // text would drop: not guessed.
    if (t.contains("**") || t.contains("pow(") || t.contains("<<")) && !t.contains('/') {
        // `c * b ** i`: read c and b where they are literals.
        let base = t
            .split("**")
            .next()
            .and_then(|l| l.trim().trim_start_matches('(').rsplit(['*', '(']).next())
            .and_then(|b| b.trim().parse::<f64>().ok())
            .unwrap_or(2.0);
        let factor = t
            .split('*')
            .next()
            .filter(|_| t.matches('*').count() >= 3)
            .and_then(|c| c.trim().trim_start_matches('(').parse::<f64>().ok())
            .unwrap_or(1.0);
        let uses_var = var.is_some_and(|v| t.contains(v));
        if uses_var || var.is_none() || var == Some("_") {
            return (
                Delay::Exponential {
                    base: Duration::from_secs_f64(factor.clamp(0.0, 1e9)),
                    multiplier: base,
                    cap: None,
                },
                jitter,
            );
        }
    }
    // A setting (`CONF.retry_interval`): not known here.
    (Delay::Unknown, jitter)
}

/// What the except clauses catch: a bare `except:`, `Exception` or
/// `BaseException` is every error.
fn except_conditions(ctx: &Ctx<'_>, excepts: &[Node<'_>]) -> Located<RetryOn> {
    let mut conditions = Vec::new();
    let first = excepts
        .first()
        .map_or(crate::source::Span::new(0, 0), |e| span(*e));
    for e in excepts {
        // The caught types: the clause's first named child that is not its
        // block.
        let caught = named_children(*e)
            .into_iter()
            .find(|c| c.kind_str() != "block");
        let Some(caught) = caught else {
            return Located::written(RetryOn::AllErrors, span(*e));
        };
        let alias = (caught.kind_str() == "as_pattern")
            .then(|| named_children(caught).last().map(|a| ctx.text(*a)))
            .flatten();
        let caught = if caught.kind_str() == "as_pattern" {
            named_children(caught).first().copied().unwrap_or(caught)
        } else {
            caught
        };
        let items = if matches!(caught.kind_str(), "tuple" | "parenthesized_expression") {
            named_children(caught)
        } else {
            vec![caught]
        };
        // `except ClientError as e: if e.response["Error"]["Code"] !=
        // "ConditionalCheckFailedException": raise` (Flagsmith's
        // conditional write): only the named code goes round.
        if let Some((named, at)) = alias.and_then(|a| named_codes(ctx, *e, a)) {
            conditions.extend(named.into_iter().map(|c| Located::written(c, at)));
            continue;
        }
        // `except ClientResponseError as e: if not self._retryable(e):
        // raise` (astronomer-providers 5b869ef3's Databricks, Livy and
        // HTTP hooks): a predicate sorts what goes round.
        if let Some(test) = alias.and_then(|a| predicate_test(ctx, *e, a))
            && !items.iter().any(|i| {
                let t = ctx.text(*i);
                matches!(
                    t.rsplit('.').next().unwrap_or(t),
                    "Exception" | "BaseException"
                )
            })
        {
            conditions.push(Located::written(Condition::Predicate, span(test)));
            continue;
        }
        for i in items {
            let name = ctx.text(i);
            let simple = name.rsplit('.').next().unwrap_or(name);
            if matches!(simple, "Exception" | "BaseException") {
                // `except Exception as e: if e.code == 517: sleep(1) else:
                // raise` (snuba's `RetryOnSyncError`): the test sorts the
                // exception, the others are raised.
                if let Some(test) = alias.and_then(|a| sorting_test(ctx, *e, a)) {
                    return Located::written(
                        RetryOn::Listed {
                            conditions: vec![Located::written(Condition::Predicate, span(test))],
                        },
                        span(test),
                    );
                }
                return Located::written(RetryOn::AllErrors, span(i));
            }
            conditions.push(Located::written(Condition::Exception(name.into()), span(i)));
        }
    }
    Located::written(RetryOn::Listed { conditions }, first)
}

/// The `if` of an `except .. as e:` block that tests `e` and raises (or
/// returns) on one side (`if e.code == 517: .. else: raise`, `if not
/// retryable(e): raise`): its condition, the predicate of what goes
/// round.
fn sorting_test<'a>(ctx: &Ctx<'a>, clause: Node<'a>, alias: &str) -> Option<Node<'a>> {
    let block = named_children(clause)
        .into_iter()
        .find(|c| c.kind_str() == "block")?;
    named_children(block).into_iter().find_map(|st| {
        if st.kind_str() != "if_statement" {
            return None;
        }
        let cond = field(st, "condition")?;
        let names_alias = ctx
            .text(cond)
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w == alias);
        let raises = ctx
            .subtree(st)
            .iter()
            .take(4_096)
            .any(|n| matches!(n.kind_str(), "raise_statement" | "return_statement"));
        (names_alias && raises).then_some(cond)
    })
}

/// A [`sorting_test`] that is no status comparison (`if not
/// self._retryable_error_async(e):`, not `if e.status >= 500:`, which
/// the status reading takes).
fn predicate_test<'a>(ctx: &Ctx<'a>, clause: Node<'a>, alias: &str) -> Option<Node<'a>> {
    sorting_test(ctx, clause, alias)
        .filter(|t| crate::extract::status_test::holds_for(ctx.text(*t)).is_none())
}

/// Whether an `except .. as e:` clause lets a predicate of `e` sort what
/// goes round ([`predicate_test`]).
fn sorted_by_predicate(ctx: &Ctx<'_>, clause: Node<'_>) -> bool {
    named_children(clause)
        .into_iter()
        .find(|c| c.kind_str() == "as_pattern")
        .and_then(|c| named_children(c).last().copied())
        .is_some_and(|a| predicate_test(ctx, clause, ctx.text(a)).is_some())
}

/// The codes an `except .. as e:` block lets go round: its first `if`
/// compares a part of `e` with literals and raises on the others (`if
/// e.code != "Throttled": raise`, `if e.status not in (409, 412):
/// raise`). A string is an error code (an exception name), a number from
/// 100 to 599 a status.
fn named_codes(
    ctx: &Ctx<'_>,
    clause: Node<'_>,
    alias: &str,
) -> Option<(Vec<Condition>, crate::source::Span)> {
    let block = named_children(clause)
        .into_iter()
        .find(|c| c.kind_str() == "block")?;
    let st = named_children(block)
        .into_iter()
        .find(|st| st.kind_str() == "if_statement")?;
    let cond = field(st, "condition")?;
    if cond.kind_str() != "comparison_operator" {
        return None;
    }
    let raises = field(st, "consequence").is_some_and(|b| {
        named_children(b)
            .iter()
            .any(|n| n.kind_str() == "raise_statement")
    });
    let parts = named_children(cond);
    let [left, right] = parts.as_slice() else {
        return None;
    };
    let op = ctx
        .src
        .get(left.end_byte()..right.start_byte())?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let names_alias = ctx
        .text(*left)
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == alias);
    if !raises || !names_alias {
        return None;
    }
    let literals = match op.as_str() {
        "!=" => vec![*right],
        "not in" if matches!(right.kind_str(), "tuple" | "list" | "set") => named_children(*right),
        _ => return None,
    };
    let mut out = Vec::new();
    for l in literals.into_iter().take(32) {
        out.push(match l.kind_str() {
            "string" => {
                let t = ctx
                    .text(l)
                    .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                    .trim_matches(['"', '\'']);
                if t.is_empty()
                    || !t
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
                {
                    return None;
                }
                Condition::Exception(t.to_string())
            }
            "integer" => match ctx.text(l).parse::<u16>() {
                Ok(n) if (100..=599).contains(&n) => Condition::status(n),
                _ => return None,
            },
            _ => return None,
        });
    }
    (!out.is_empty()).then(|| (out, span(cond)))
}

/// `time.sleep(w)` after `w = min(w * 2, cap)` (or `w = w * 2`, `w *=
/// 2` read as its binding) in the loop, `w` first bound to a number
/// before it (snuba's `poll_system_query`): the wait doubles from the
/// first value times the factor, up to the cap.
fn self_grown(ctx: &Ctx<'_>, arg: Node<'_>, bound: Node<'_>) -> Option<Delay> {
    if arg.kind_str() != "identifier" || bound.id() == arg.id() {
        return None;
    }
    let name = ctx.text(arg);
    let (product, cap) = if bound.kind_str() == "call" && callee(ctx, bound).1 == "min" {
        let a = Args::of(ctx, bound).positional;
        let i = a.iter().position(|x| x.kind_str() == "binary_operator")?;
        let cap = a
            .iter()
            .enumerate()
            .find(|(j, _)| *j != i)
            .and_then(|(_, c)| eval::wait_seconds(ctx, *c));
        (a[i], cap)
    } else {
        (bound, None)
    };
    if product.kind_str() != "binary_operator"
        || field(product, "operator").map(|o| ctx.text(o)) != Some("*")
    {
        return None;
    }
    let (l, r) = (field(product, "left")?, field(product, "right")?);
    let k = if ctx.text(l) == name {
        eval::number(ctx, r)?
    } else if ctx.text(r) == name {
        eval::number(ctx, l)?
    } else {
        return None;
    };
    let first = ctx
        .bindings
        .get(name)?
        .iter()
        .find(|v| v.end_byte() <= bound.start_byte() && v.id() != bound.id())
        .and_then(|v| eval::number(ctx, *v))?;
    if !(k > 1.0 && k < 100.0 && first > 0.0 && first < 1e9) {
        return None;
    }
    let base = (first * k).min(cap.map_or(f64::MAX, |c| c.as_secs_f64()));
    Some(Delay::Exponential {
        base: Duration::from_secs_f64(base),
        multiplier: k,
        cap,
    })
}
