//! Hand-written retry loops in C#, with the loop model of the Java, Rust,
//! Go and Python readers: a `for`, `while` or `do` loop whose own body
//! tries something in a `try` with a `catch`, leaves the loop on success
//! (`return` or `break` in the `try`, or a flag the `try` sets that the
//! loop's condition tests) and waits (`await Task.Delay(..)`,
//! `Thread.Sleep(..)`) before trying again. A loop that goes round after
//! a success too is a poller, not a retry. The bound is the loop's
//! condition (`attempt < 5`, `i <= maxRetries`); `while (true)` with no
//! way out of its `catch` retries for ever, one whose `catch` rethrows or
//! filters (`catch (..) when (attempt < 3)`) has a bound the reader does
//! not count. A wait computed from the attempt counter is evaluated like
//! Polly's sleep-duration lambdas.
//!
//! Also the retried scopes of the file ([`RetryScope`]): each loop's body,
//! and the delegate passed to `Execute`/`ExecuteAsync` of a Polly pipeline
//! or policy built in the file, for RL501 (`Guid.NewGuid()` minted inside
//! a retry).

use super::eval::{self, delay_function};
use super::{Ctx, args, field, named_children, span};
use crate::model::*;
use crate::systems::csharp::extract::Kind as _;
use std::time::Duration;
use tree_sitter::Node;

#[path = "statuses.rs"]
mod statuses;

#[path = "loop_items.rs"]
mod items;
use items::{condition_takes_item, per_item};

/// A retried stretch of source: a policy and the byte range whose code
/// runs again on every attempt.
pub struct RetryScope {
    pub policy: usize,
    pub start: usize,
    pub end: usize,
}

const LOOPS: &[&str] = &["for_statement", "while_statement", "do_statement"];
const BOUNDARIES: &[&str] = &[
    "lambda_expression",
    "anonymous_method_expression",
    "local_function_statement",
    "method_declaration",
    "constructor_declaration",
];

/// The loop `n` belongs to: the innermost one, not crossing a lambda or
/// local function.
fn owner_loop<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<usize> {
    let mut cur = ctx.parent(n);
    for _ in 0..super::MAX_CLIMB {
        let c = cur?;
        if LOOPS.contains(&c.kind_str()) {
            return Some(c.id());
        }
        if BOUNDARIES.contains(&c.kind_str()) {
            return None;
        }
        cur = ctx.parent(c);
    }
    None
}

/// The statement a `break` leaves: the innermost loop (a `foreach`
/// included) or `switch` around it.
fn breaks_out_of<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> Option<usize> {
    let mut cur = ctx.parent(n);
    for _ in 0..super::MAX_CLIMB {
        let c = cur?;
        if LOOPS.contains(&c.kind_str())
            || matches!(c.kind_str(), "foreach_statement" | "switch_statement")
        {
            return Some(c.id());
        }
        if BOUNDARIES.contains(&c.kind_str()) {
            return None;
        }
        cur = ctx.parent(c);
    }
    None
}

/// Whether `n` is inside a `catch` clause (before reaching `stop`).
fn in_catch<'a>(ctx: &Ctx<'a>, n: Node<'a>, stop: Node<'a>) -> bool {
    let mut cur = ctx.parent(n);
    for _ in 0..super::MAX_CLIMB {
        let Some(c) = cur else { return false };
        if c.id() == stop.id() {
            return false;
        }
        if c.kind_str() == "catch_clause" {
            return true;
        }
        cur = ctx.parent(c);
    }
    false
}

fn is_wait(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    n.kind_str() == "invocation_expression"
        && field(n, "function").is_some_and(|f| {
            let t = ctx.text(f);
            t == "Task.Delay" || t == "Thread.Sleep" || t.ends_with(".Task.Delay")
        })
}

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) {
    for &n in &ctx.nodes {
        if !LOOPS.contains(&n.kind_str()) {
            continue;
        }
        let Some(body) = field(n, "body") else {
            continue;
        };
        let own: Vec<Node<'_>> = ctx
            .subtree(body)
            .iter()
            .copied()
            .filter(|c| owner_loop(ctx, *c) == Some(n.id()))
            .collect();
        // `while (resp.StatusCode == HttpStatusCode.ServiceUnavailable) {
        // resp = await _http.GetAsync(..); }`: the loop's own condition
        // tests the status of a response the body takes again (issue 28).
        let cond_statuses = status_condition(ctx, n, &own);
        let wait = own.iter().copied().find(|c| is_wait(ctx, *c));
        if wait.is_none() && cond_statuses.is_empty() {
            continue;
        }
        // A loop whose condition takes a new item each round
        // (`while (queue.TryDequeue(out var m))`) drains a queue: a
        // failed item is not sent again.
        if condition_takes_item(ctx, n) {
            continue;
        }
        let catches: Vec<Node<'_>> = own
            .iter()
            .copied()
            .filter(|c| c.kind_str() == "catch_clause" && !per_item(ctx, *c, n))
            .collect();
        // The catches of the tries: not one around the wait itself
        // (`try { Task.Delay(..).Wait(); } catch (AggregateException)`).
        let tries: Vec<Node<'_>> = catches
            .iter()
            .copied()
            .filter(|c| {
                ctx.parent(*c)
                    .and_then(|t| field(t, "body"))
                    .is_none_or(|b| {
                        wait.is_none_or(|wait| {
                            !(b.start_byte() <= wait.start_byte()
                                && wait.end_byte() <= b.end_byte())
                        })
                    })
            })
            .collect();
        // Response statuses that go round (issue 28): a loop with no
        // `catch` is a retry when a status test sends it round.
        let mut statuses = statuses::retried(ctx, &own, &tries);
        if statuses.is_empty() {
            statuses = cond_statuses.clone();
        }
        if catches.is_empty() && statuses.is_empty() {
            continue;
        }
        // Leaves on success: a `return` or `break` outside the `catch`;
        // a `break` only when it leaves this loop (not a `foreach` or a
        // `switch` inside it).
        let exits = own.iter().any(|c| {
            let leaves = match c.kind_str() {
                "return_statement" => true,
                "break_statement" => breaks_out_of(ctx, *c) == Some(n.id()),
                _ => false,
            };
            leaves && !in_catch(ctx, *c, body)
        });
        // A `for`/`while` whose condition fails ends the loop too.
        let condition = match n.kind_str() {
            "for_statement" => field(n, "condition"),
            _ => field(n, "condition"),
        };
        let conditional = condition.is_some_and(|c| ctx.text(c).trim() != "true");
        if !exits && !conditional {
            continue;
        }
        // A loop that does not leave on success goes round after a
        // success too: a poller (`while (!token.IsCancellationRequested)
        // { try { poll } catch { log } await Task.Delay(..); }`), not a
        // retry, unless its condition tests what its `try` sets
        // (`while (!sent && attempt < 5)`).
        if !exits && cond_statuses.is_empty() && !tests_tried_result(ctx, condition, &own, body) {
            continue;
        }
        let gives_up = own.iter().any(|c| {
            matches!(c.kind_str(), "throw_statement" | "throw_expression")
                && in_catch(ctx, *c, body)
        }) || own.iter().any(|c| {
            c.kind_str() == "catch_filter_clause"
                || (matches!(c.kind_str(), "return_statement" | "break_statement")
                    && in_catch(ctx, *c, body))
        });
        let (mut count, mut written, counter) = bound(ctx, n, condition, gives_up);
        // Only another status ends it: nothing leaves and nothing counts.
        if !cond_statuses.is_empty()
            && count == AttemptCount::Unknown
            && !exits
            && !gives_up
            && condition.is_some_and(|c| !ctx.text(c).contains("&&"))
        {
            count = AttemptCount::Unbounded;
        }
        if let Some(again) = tried_after(ctx, n, &own) {
            if let AttemptCount::Finite(k) = count {
                count = AttemptCount::Finite(k + 1);
            }
            written = format!(
                "{written}, then {} once more after the loop",
                super::one_line(ctx.text(again))
            );
        }
        let at = span(n);
        let attempts = Located::written(
            Attempts {
                count,
                written_as: written,
            },
            at,
        );
        let mut p = RetryPolicy::new(System::CSharpLoop, at, attempts);
        p.name = Some(match super::resilience::enclosing_name(ctx, n) {
            Some(m) => format!("retry loop in {m}"),
            None => "retry loop".into(),
        });
        let kind = n.kind_str().trim_end_matches("_statement");
        p.why.push(match (wait, condition) {
            (Some(wait), _) if !catches.is_empty() || cond_statuses.is_empty() => format!(
                "a `{kind}` loop that catches exceptions, leaves on success and waits (`{}`)",
                super::one_line(ctx.text(wait))
            ),
            (_, Some(c)) => format!(
                "a `{kind}` loop whose condition tests the response's status (`{}`): those statuses send the request again",
                super::one_line(ctx.text(c))
            ),
            _ => format!("a `{kind}` loop"),
        });
        let (delay, jitter) = match wait {
            Some(wait) => wait_of(ctx, wait, counter, &own),
            None => (Delay::None, Jitter::None),
        };
        let wspan = wait.map_or(at, span);
        p.delay = Located::written(delay, wspan);
        p.jitter = Located::written(jitter, wspan);
        p.retry_on = retry_on(ctx, &tries, at);
        if !statuses.is_empty() {
            p.retry_on =
                crate::extract::status_test::listed_with(p.retry_on, &statuses, "Exception");
        }
        p.methods = Located::default_at(Methods::Unknown, at);
        let i = facts.policies.len();
        facts.policies.push(p);
        scopes.push(RetryScope {
            policy: i,
            start: body.start_byte(),
            end: body.end_byte(),
        });
    }
}

/// Whether the loop's condition reads a name its `try` bodies assign
/// outside a `catch` (a success flag, a result).
fn tests_tried_result(
    ctx: &Ctx<'_>,
    condition: Option<Node<'_>>,
    own: &[Node<'_>],
    body: Node<'_>,
) -> bool {
    let Some(c) = condition else {
        return false;
    };
    let read: Vec<&str> = ctx
        .subtree(c)
        .iter()
        .filter(|x| x.kind_str() == "identifier")
        .map(|x| ctx.text(*x))
        .collect();
    own.iter()
        .filter(|t| t.kind_str() == "try_statement")
        .filter_map(|t| field(*t, "body"))
        .flat_map(|b| ctx.subtree(b).iter())
        .filter(|a| a.kind_str() == "assignment_expression" && !in_catch(ctx, **a, body))
        .filter_map(|a| field(*a, "left"))
        .any(|l| read.contains(&ctx.text(l).trim_start_matches("this.")))
}

/// The last try after the loop (Ocelot's `Retry.Operation`: the loop
/// retries, then `return operation.Invoke();` once more): a call of the
/// statement right after the loop that the loop's `try` makes too.
fn tried_after<'a>(ctx: &Ctx<'a>, n: Node<'a>, own: &[Node<'a>]) -> Option<Node<'a>> {
    let tried: Vec<&str> = own
        .iter()
        .filter(|c| c.kind_str() == "try_statement")
        .filter_map(|t| field(*t, "body"))
        .flat_map(|b| ctx.subtree(b).iter())
        .filter(|c| c.kind_str() == "invocation_expression" && !is_wait(ctx, **c))
        .map(|c| ctx.text(*c).trim())
        .collect();
    let mut next = n.next_named_sibling();
    // Comments and logging may stand between the loop and the last try.
    for _ in 0..4 {
        let stmt = next?;
        if !matches!(
            stmt.kind_str(),
            "comment" | "return_statement" | "expression_statement" | "local_declaration_statement"
        ) {
            return None;
        }
        if let Some(call) = ctx.subtree(stmt).iter().find(|c| {
            c.kind_str() == "invocation_expression" && tried.contains(&ctx.text(**c).trim())
        }) {
            return Some(*call);
        }
        next = stmt.next_named_sibling();
    }
    None
}

/// The loop's bound and its counter with the counter's first value:
/// `for (var i = 0; i < 5; i++)`, `while (attempt < maxAttempts)`,
/// `while (attempt++ < 3)`.
fn bound<'a>(
    ctx: &Ctx<'a>,
    n: Node<'a>,
    condition: Option<Node<'a>>,
    gives_up: bool,
) -> (AttemptCount, String, Option<Counter<'a>>) {
    let head = match n.kind_str() {
        "for_statement" => "for",
        "while_statement" => "while",
        _ => "do .. while",
    };
    let Some(c) = condition.filter(|c| ctx.text(*c).trim() != "true") else {
        return if gives_up {
            (
                AttemptCount::Unknown,
                format!("{head} (true) {{ .. }}, ended by a check in the `catch`"),
                None,
            )
        } else {
            (
                AttemptCount::Unbounded,
                format!("{head} (true) {{ .. }}"),
                None,
            )
        };
    };
    let written = format!("{head} ({})", super::one_line(ctx.text(c)));
    if c.kind_str() != "binary_expression" {
        return (AttemptCount::Unknown, written, None);
    }
    let (Some(l), Some(op), Some(r)) = (field(c, "left"), field(c, "operator"), field(c, "right"))
    else {
        return (AttemptCount::Unknown, written, None);
    };
    let left = ctx.text(l).trim();
    let name = left.trim_matches(|c| c == '+' || c == '-').trim();
    // Counted up or down: in the condition (`attempt++ < 3`,
    // `retries-- > 0`, `--left > 0`), in the `for` update, or in the body
    // (`remaining--;`), else by the comparison (`<` up, `>` down).
    let prefix = left.starts_with("++") || left.starts_with("--");
    let steps = |t: &str, op: &str| {
        t.contains(&format!("{name}{op}"))
            || t.contains(&format!("{op}{name}"))
            || t.contains(&format!("{name} {}= 1", &op[..1]))
    };
    let own_text = field(n, "update")
        .map(|u| ctx.text(u))
        .or_else(|| field(n, "body").map(|b| ctx.text(b)))
        .unwrap_or("");
    let down = if left.contains("--") {
        true
    } else if left.contains("++") {
        false
    } else if steps(own_text, "--") && !steps(own_text, "++") {
        true
    } else if steps(own_text, "++") && !steps(own_text, "--") {
        false
    } else {
        matches!(ctx.text(op), ">" | ">=")
    };
    let start = ctx
        .binding(name, c.start_byte())
        .and_then(|v| eval::int(ctx, v))
        .unwrap_or(0);
    let limit = eval::int(ctx, r);
    // The values compared: from `start` (a prefix step compares the
    // stepped value, one fewer try).
    let first = match (prefix, down) {
        (false, _) => start,
        (true, false) => start + 1,
        (true, true) => start - 1,
    };
    let count = match (ctx.text(op), limit, down) {
        ("<", Some(k), false) if k > first => AttemptCount::Finite((k - first) as u64),
        ("<=", Some(k), false) if k >= first => AttemptCount::Finite((k - first + 1) as u64),
        (">", Some(k), true) if first > k => AttemptCount::Finite((first - k) as u64),
        (">=", Some(k), true) if first >= k => AttemptCount::Finite((first - k + 1) as u64),
        _ => AttemptCount::Unknown,
    };
    let plain =
        l.kind_str() == "identifier" || name.chars().all(|c| c.is_alphanumeric() || c == '_');
    (
        count,
        written,
        plain.then_some(Counter {
            name,
            first: first as f64,
            down,
        }),
    )
}

/// A loop's counter: its name, its first value in the loop, and whether
/// it counts down.
#[derive(Clone, Copy)]
struct Counter<'a> {
    name: &'a str,
    first: f64,
    down: bool,
}

/// A random draw: `Random.Shared.Next(..)`, a seeded `new Random(seed).Next(..)`.
fn is_random(ctx: &Ctx<'_>, c: Node<'_>) -> bool {
    let t = ctx.text(c);
    let on_random = |r: Node<'_>| ctx.text(r).contains("Random") || ctx.text(r).contains("random");
    let drawn = || {
        super::method(ctx, c).is_some_and(|(name, recv)| {
            matches!(name, "Next" | "NextDouble" | "NextInt64") && recv.is_some_and(on_random)
        })
    };
    c.kind_str() == "invocation_expression"
        && (t.starts_with("Random.Shared.")
            || t.contains("random.Next")
            || t.contains("Random().Next")
            || drawn())
}

/// The wait: `Task.Delay(1000)` (milliseconds), `Task.Delay(TimeSpan..)`,
/// or a function of the counter; random numbers in the loop are jitter.
fn wait_of(
    ctx: &Ctx<'_>,
    wait: Node<'_>,
    counter: Option<Counter<'_>>,
    own: &[Node<'_>],
) -> (Delay, Jitter) {
    let random = own.iter().any(|c| is_random(ctx, *c));
    let jitter = |j: Jitter| if random { Jitter::Unknown } else { j };
    let Some((_, a)) = args(ctx, wait).into_iter().next() else {
        return (Delay::Unknown, jitter(Jitter::None));
    };
    // A wait variable changed after each failure: `delay *= 2` doubles
    // it, `delay += step` grows it (read as a custom growth).
    if a.kind_str() == "identifier" {
        let name = ctx.text(a);
        let growth = own.iter().find_map(|c| {
            (c.kind_str() == "assignment_expression"
                && field(*c, "left").is_some_and(|l| ctx.text(l).trim() == name))
            .then(|| field(*c, "operator").map(|o| ctx.text(o)))
            .flatten()
            .filter(|o| *o != "=")
            .map(|o| (o, field(*c, "right")))
        });
        if let Some((op, step)) = growth {
            let base = eval::duration(ctx, a);
            let factor = step.and_then(|s| eval::int(ctx, s));
            let d = match (op, base, factor) {
                ("*=", Some(b), Some(k)) if k > 1 && !b.is_zero() => Delay::Exponential {
                    base: b,
                    multiplier: k as f64,
                    cap: None,
                },
                _ => Delay::Custom,
            };
            return (d, jitter(Jitter::None));
        }
    }
    // A function of the counter, read at its first values (before the
    // counter's value as the loop starts could be taken for the wait).
    if let Some(k) = counter
        && mentions(ctx, a, k.name, &mut { MENTION_BUDGET })
    {
        // Counted down, the wait of the first retries is the function at
        // falling values: not one of the model's growths.
        if k.down {
            return (Delay::Custom, jitter(Jitter::None));
        }
        if let Some((d, j)) = delay_function(ctx, k.name, a, k.first) {
            return (d, if random { Jitter::Unknown } else { j });
        }
    }
    // A random draw alone (`Random.Shared.Next(100, 400)`, evaluated at
    // its nominal 0) is a wait of unread shape, not none.
    let drawn = ctx.subtree(a).iter().any(|c| is_random(ctx, *c));
    if drawn
        && (eval::int(ctx, a).is_some_and(|ms| ms <= 0)
            || eval::duration(ctx, a).is_some_and(|d| d.is_zero()))
    {
        return (Delay::Custom, Jitter::Unknown);
    }
    // `int millisecondsDelay`.
    if let Some(ms) = eval::int(ctx, a) {
        let d = Duration::from_millis(ms.max(0) as u64);
        return if d.is_zero() {
            (Delay::None, jitter(Jitter::None))
        } else {
            (Delay::Fixed { delay: d }, jitter(Jitter::None))
        };
    }
    if let Some(d) = eval::duration(ctx, a) {
        return if d.is_zero() {
            (Delay::None, jitter(Jitter::None))
        } else {
            (Delay::Fixed { delay: d }, jitter(Jitter::None))
        };
    }
    (Delay::Custom, Jitter::Unknown)
}

/// Whether expression `n` uses `name`, itself or through the names it
/// uses (`delay` bound to `TimeSpan.FromSeconds(Math.Pow(2, i))`); at
/// most [`MENTION_BUDGET`] bindings are followed.
fn mentions(ctx: &Ctx<'_>, n: Node<'_>, name: &str, budget: &mut usize) -> bool {
    for x in ctx.subtree(n) {
        if x.kind_str() != "identifier" {
            continue;
        }
        if ctx.text(*x) == name {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if let Some(v) = ctx
            .binding(ctx.text(*x), x.start_byte())
            .filter(|v| v.id() != n.id())
            && mentions(ctx, v, name, budget)
        {
            return true;
        }
    }
    false
}

/// How many name bindings [`mentions`] may follow.
const MENTION_BUDGET: usize = 64;

/// What the loop retries: the types its `catch` clauses name; a bare
/// `catch` or `catch (Exception)` without a filter retries every error.
fn retry_on(ctx: &Ctx<'_>, catches: &[Node<'_>], at: crate::source::Span) -> Located<RetryOn> {
    let mut conditions = Vec::new();
    for &c in catches {
        let decl = named_children(c)
            .into_iter()
            .find(|x| x.kind_str() == "catch_declaration");
        let filtered = named_children(c)
            .iter()
            .any(|x| x.kind_str() == "catch_filter_clause");
        let ty = decl
            .and_then(|d| field(d, "type"))
            .map(|t| ctx.text(t).trim());
        match ty {
            None | Some("Exception" | "System.Exception") if !filtered => {
                return Located::written(RetryOn::AllErrors, span(c));
            }
            None | Some("Exception" | "System.Exception") => {
                conditions.push(Located::written(Condition::Predicate, span(c)))
            }
            Some(t) => conditions.push(Located::written(Condition::Exception(t.into()), span(c))),
        }
    }
    if conditions.is_empty() {
        return Located::default_at(RetryOn::Unknown, at);
    }
    Located::written(RetryOn::Listed { conditions }, at)
}

/// The failure statuses a `while`/`do` loop's own condition holds for, when
/// it tests the status of a response the body assigns again
/// (`resp = await _http.GetAsync(..)`); empty otherwise (a counter, a job
/// state compared with a constant).
fn status_condition(
    ctx: &Ctx<'_>,
    n: Node<'_>,
    own: &[Node<'_>],
) -> Vec<(crate::extract::status_test::Statuses, crate::source::Span)> {
    use crate::extract::status_test::{self, Test};
    if !matches!(n.kind_str(), "while_statement" | "do_statement") {
        return Vec::new();
    }
    let Some(c) = field(n, "condition") else {
        return Vec::new();
    };
    let Some(holds) = status_test::holds_for(ctx.text(c)) else {
        return Vec::new();
    };
    // A local of the condition assigned from a call in the body.
    let names: Vec<&str> = ctx
        .subtree(c)
        .iter()
        .filter(|d| d.kind_str() == "identifier")
        .map(|d| ctx.text(*d))
        .collect();
    let retaken = own.iter().any(|d| {
        d.kind_str() == "assignment_expression"
            && field(*d, "left").is_some_and(|l| names.contains(&ctx.text(l).trim()))
            && field(*d, "right").is_some_and(|r| {
                ctx.subtree(r)
                    .iter()
                    .any(|x| x.kind_str() == "invocation_expression")
            })
    });
    if !retaken {
        return Vec::new();
    }
    status_test::retried(&[Test {
        holds,
        then_round: true,
        else_round: Some(false),
        at: span(c),
    }])
}
