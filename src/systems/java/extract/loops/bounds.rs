//! A Java retry loop's bound: a counter compared to a limit in the
//! condition or in an `if` that leaves the loop.

use super::*;

pub(super) fn count(n: i128) -> AttemptCount {
    if n >= i32::MAX as i128 {
        AttemptCount::Unbounded
    } else {
        AttemptCount::Finite(n.max(1) as u64)
    }
}

/// A comparison `counter OP limit` (either side), with the counter's
/// pre/post update if written in the comparison.
pub(super) struct Cmp<'a> {
    pub(super) counter: String,
    pub(super) op: String,
    pub(super) limit: Node<'a>,
    /// `++c` or `c++` written inside the comparison: Some(pre).
    pub(super) inc: Option<bool>,
    pub(super) dec: bool,
    pub(super) node: Node<'a>,
}

pub(super) fn comparison<'a>(ctx: &Ctx<'a>, e: Node<'a>) -> Option<Cmp<'a>> {
    let e = ast::unwrap_expr(e);
    if e.kind_str() != "binary_expression" {
        return None;
    }
    let op = ctx.text(field(e, "operator")?).to_string();
    if !matches!(op.as_str(), "<" | "<=" | ">" | ">=" | "==" | "!=") {
        return None;
    }
    let l = ast::unwrap_expr(field(e, "left")?);
    let r = ast::unwrap_expr(field(e, "right")?);
    let side = |x: Node<'a>| -> Option<(String, Option<bool>, bool)> {
        match x.kind_str() {
            "identifier" => Some((ctx.text(x).to_string(), None, false)),
            "field_access" => field(x, "field").map(|f| (ctx.text(f).to_string(), None, false)),
            "update_expression" => {
                let t = ctx.text(x);
                let id = ctx
                    .named_children(x)
                    .first()
                    .map(|i| ctx.text(*i).to_string())?;
                let pre = t.starts_with("++") || t.starts_with("--");
                let dec = t.contains("--");
                Some((id, Some(pre), dec))
            }
            // An atomic counter (`attempts.incrementAndGet()`,
            // `retryCount.intValue()`): the object is the counter.
            "method_invocation" => atomic_step(ctx, x).map(|(id, step)| match step {
                Some((pre, dec)) => (id.to_string(), Some(pre), dec),
                None => (id.to_string(), None, false),
            }),
            _ => None,
        }
    };
    let flip = |o: &str| -> String {
        match o {
            "<" => ">",
            "<=" => ">=",
            ">" => "<",
            ">=" => "<=",
            o => o,
        }
        .to_string()
    };
    if let Some((c, inc, dec)) = side(l)
        && (ctx.int(r).is_some() || r.kind_str() != "update_expression")
        && !(r.kind_str() == "identifier" && ctx.int(r).is_none() && ctx.int(l).is_some())
    {
        return Some(Cmp {
            counter: c,
            op,
            limit: r,
            inc,
            dec,
            node: e,
        });
    }
    let (c, inc, dec) = side(r)?;
    Some(Cmp {
        counter: c,
        op: flip(&op),
        limit: l,
        inc,
        dec,
        node: e,
    })
}

/// A method of an atomic counter on a plain name: the name and, for a
/// step, whether it is taken before the value is read and whether it
/// counts down (`c.incrementAndGet()` is `(c, Some((true, false)))`,
/// `c.getAndDecrement()` is `(c, Some((false, true)))`, a read such as
/// `c.get()` or `c.intValue()` is `(c, None)`).
pub(super) fn atomic_step<'a>(
    ctx: &Ctx<'a>,
    call: Node<'_>,
) -> Option<(&'a str, Option<(bool, bool)>)> {
    let obj = field(call, "object").filter(|o| o.kind_str() == "identifier")?;
    if field(call, "arguments").is_some_and(|a| !ctx.named_children(a).is_empty()) {
        return None;
    }
    let step = match ctx.text(field(call, "name")?) {
        "incrementAndGet" => Some((true, false)),
        "getAndIncrement" => Some((false, false)),
        "decrementAndGet" => Some((true, true)),
        "getAndDecrement" => Some((false, true)),
        "get" | "intValue" | "longValue" | "getPlain" | "getAcquire" => None,
        _ => return None,
    };
    Some((ctx.text(obj), step))
}

/// `name = name + k` (or `- k`): the counter stepped by an assignment;
/// Some(true) when it counts down.
fn steps_by_assignment(ctx: &Ctx<'_>, d: Node<'_>, name: &str) -> Option<bool> {
    if d.kind_str() != "assignment_expression"
        || field(d, "operator").is_none_or(|o| ctx.text(o) != "=")
        || field(d, "left").is_none_or(|l| ctx.text(l) != name)
    {
        return None;
    }
    let r = ast::unwrap_expr(field(d, "right")?);
    if r.kind_str() != "binary_expression" {
        return None;
    }
    let op = ctx.text(field(r, "operator")?);
    let l = ast::unwrap_expr(field(r, "left")?);
    let k = ast::unwrap_expr(field(r, "right")?);
    (ctx.text(l) == name && ctx.int(k).is_some_and(|k| k > 0))
        .then_some(op)
        .and_then(|op| match op {
            "+" => Some(false),
            "-" => Some(true),
            _ => None,
        })
}

/// Comparisons in a condition joined by `&&`.
pub(super) fn conjuncts<'a>(ctx: &Ctx<'a>, e: Node<'a>) -> Vec<Node<'a>> {
    junctions(ctx, e, &["&&"])
}

/// Whether the counter is decremented in the loop's own nodes.
pub(super) fn decrements(ctx: &Ctx<'_>, own: &[Node<'_>], name: &str) -> bool {
    own.iter().any(|d| match d.kind_str() {
        "update_expression" => {
            ctx.text(*d).contains("--")
                && ctx
                    .named_children(*d)
                    .first()
                    .is_some_and(|i| ctx.text(*i) == name)
        }
        "assignment_expression" => {
            field(*d, "left").is_some_and(|l| ctx.text(l) == name)
                && field(*d, "operator").is_some_and(|o| ctx.text(o) == "-=")
                || steps_by_assignment(ctx, *d, name) == Some(true)
        }
        "method_invocation" => {
            atomic_step(ctx, *d).is_some_and(|(n, s)| n == name && s.is_some_and(|(_, dec)| dec))
        }
        _ => false,
    })
}

/// The operands of a condition split on the given boolean operators.
pub(super) fn junctions<'a>(ctx: &Ctx<'a>, e: Node<'a>, ops: &[&str]) -> Vec<Node<'a>> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        let x = ast::unwrap_expr(x);
        if x.kind_str() == "binary_expression"
            && field(x, "operator").is_some_and(|o| ops.contains(&ctx.text(o)))
        {
            if let (Some(l), Some(r)) = (field(x, "left"), field(x, "right")) {
                stack.push(r);
                stack.push(l);
            }
        } else {
            out.push(x);
        }
        if out.len() > 64 {
            break;
        }
    }
    out
}

/// The start value of a counter: its initializer before the loop.
pub(super) fn start_of(ctx: &Ctx<'_>, name: &str, lp: Node<'_>) -> Option<i128> {
    let v = ctx.var(name, lp)?;
    // A field keeps its value across calls: its initializer is not where
    // this loop starts.
    v.scope?;
    let x = v.value?;
    // `new AtomicInteger(3)`, `new AtomicInteger()` (zero).
    if x.kind_str() == "object_creation_expression"
        && field(x, "type").is_some_and(|t| {
            matches!(
                ast::last_segment(ctx.text(t)),
                "AtomicInteger" | "AtomicLong"
            )
        })
    {
        let args = field(x, "arguments")
            .map(|x| ctx.named_children(x))
            .unwrap_or_default();
        return match args.first() {
            None => Some(0),
            Some(a) if args.len() == 1 => ctx.int(*a),
            _ => None,
        };
    }
    ctx.int(x)
}

/// Whether the counter is incremented in the loop's own nodes (or header),
/// and where the first increment is.
pub(super) fn increments<'a>(
    ctx: &Ctx<'a>,
    lp: Node<'a>,
    own: &[Node<'a>],
    name: &str,
) -> Option<Node<'a>> {
    let upd = field(lp, "update")
        .into_iter()
        .flat_map(|x| ctx.descendants(x));
    own.iter().copied().chain(upd).find(|d| match d.kind_str() {
        "update_expression" => {
            ctx.text(*d).contains("++")
                && ctx
                    .named_children(*d)
                    .first()
                    .is_some_and(|i| ctx.text(*i) == name)
        }
        "assignment_expression" => {
            field(*d, "left")
                .is_some_and(|l| ctx.text(l) == name || ctx.text(l) == format!("this.{name}"))
                && field(*d, "operator").is_some_and(|o| ctx.text(o) == "+=")
                || steps_by_assignment(ctx, *d, name) == Some(false)
        }
        // `attempts.incrementAndGet()` on an AtomicInteger.
        "method_invocation" => {
            atomic_step(ctx, *d).is_some_and(|(n, s)| n == name && s.is_some_and(|(_, dec)| !dec))
        }
        _ => false,
    })
}

pub(super) fn bound(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    own: &[Node<'_>],
    header: Span,
) -> Located<Attempts> {
    let cond = field(lp, "condition");
    let infinite = cond.is_none_or(|c| {
        let t = ctx
            .text(c)
            .trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace())
            .to_string();
        t == "true"
    });
    let written = |count: AttemptCount, what: String, s: Span| {
        Located::written(
            Attempts {
                count,
                written_as: what,
            },
            s,
        )
    };
    // 1. The condition compares a counter with a limit.
    if let Some(c) = cond.filter(|_| !infinite) {
        for part in conjuncts(ctx, c) {
            let Some(cmp) = comparison(ctx, part) else {
                continue;
            };
            let what = ctx.text(cmp.node).to_string();
            let s = span(cmp.node);
            let Some(limit) = ctx.int(cmp.limit) else {
                if ctx.text(cmp.limit).ends_with("MAX_VALUE") {
                    return written(AttemptCount::Unbounded, what, s);
                }
                // A limit the file does not hold, if the counter moves.
                if cmp.inc.is_some() || increments(ctx, lp, own, &cmp.counter).is_some() {
                    return written(AttemptCount::Unknown, what, s);
                }
                continue;
            };
            if limit >= i32::MAX as i128 {
                return written(AttemptCount::Unbounded, what, s);
            }
            let start = if lp.kind_str() == "for_statement" {
                header_counter(ctx, lp)
                    .1
                    .or_else(|| start_of(ctx, &cmp.counter, lp))
            } else {
                start_of(ctx, &cmp.counter, lp)
            };
            // Counting down: `retries-- > 0`, `i > 0; i--`.
            let down = cmp.dec
                || field(lp, "update").is_some_and(|u| ctx.text(u).contains("--"))
                || own.iter().any(|d| {
                    d.kind_str() == "update_expression"
                        && ctx.text(*d).contains("--")
                        && mentions(ctx, *d, &cmp.counter)
                });
            // Stepped by a factor (`for (sleep = 10; sleep <= 10000; sleep
            // *= 10)`): one attempt per step.
            if let (Some(s0), Some(k)) = (start, factor(ctx, lp, &cmp.counter))
                && s0 > 0
                && !down
            {
                let mut n = 0;
                let mut v = s0;
                while n < 64 && (v < limit || (cmp.op == "<=" && v == limit)) {
                    n += 1;
                    v = v.saturating_mul(k);
                }
                return written(count(n), what, s);
            }
            let n = match (start, down, cmp.op.as_str()) {
                (Some(s), false, "<") => limit - s - i128::from(cmp.inc == Some(true)),
                (Some(s), false, "<=") => limit - s + 1 - i128::from(cmp.inc == Some(true)),
                (Some(s), false, "!=") => limit - s,
                (Some(s), true, ">") => s - limit - i128::from(cmp.inc == Some(true)),
                (Some(s), true, ">=") => s - limit + 1 - i128::from(cmp.inc == Some(true)),
                _ => return written(AttemptCount::Unknown, what, s),
            };
            // A do-while runs its body once before the first test.
            let n = if lp.kind_str() == "do_statement" && cmp.inc.is_none() && !down {
                n.max(1)
            } else {
                n
            };
            return written(count(n), what, s);
        }
    }
    // 2. An `if` that leaves the loop once a counter reaches a limit.
    for &d in own {
        if d.kind_str() != "if_statement" {
            continue;
        }
        let Some(cons) = field(d, "consequence") else {
            continue;
        };
        // (or sets the flag the condition negates: `if (count > MAX_RETRY)
        // { end = true; }` under `while (!end)`)
        let cond_text = cond.map_or("", |c| ctx.text(c));
        let ends =
            |s: Node<'_>| helpers::leaves(ctx, s) || catches::stops_by_flag(ctx, s, cond_text);
        let leaves = statements(cons).iter().any(|s| ends(*s));
        // `if (retries > 0) { retries--; } else { throw e; }`: the else
        // branch leaves when the comparison fails.
        let else_leaves = !leaves
            && field(d, "alternative").is_some_and(|a| {
                let a = if a.kind_str() == "else" {
                    ctx.named_children(a).first().copied().unwrap_or(a)
                } else {
                    a
                };
                statements(a).iter().any(|s| ends(*s))
            });
        if !leaves && !else_leaves {
            continue;
        }
        let Some(c) = field(d, "condition") else {
            continue;
        };
        // The else branch runs when any operand of `a && b` fails: each
        // comparison in it is a cap.
        let parts = if else_leaves {
            conjuncts(ctx, c)
        } else {
            junctions(ctx, c, &["&&", "||"])
        };
        for part in parts {
            if catches::retry_object_count(ctx, part) {
                let what = format!("a limit kept by the retry object: {}", ctx.text(part));
                return written(AttemptCount::Unknown, what, span(part));
            }
            let Some(mut cmp) = comparison(ctx, part) else {
                continue;
            };
            if else_leaves {
                cmp.op = match cmp.op.as_str() {
                    ">" => "<=",
                    ">=" => "<",
                    "<" => ">=",
                    "<=" => ">",
                    "==" => "!=",
                    _ => "==",
                }
                .to_string();
            }
            // A value growing by a factor (`wait = Math.max(1, wait * 2)`)
            // that leaves once it reaches a limit: a few passes, bounded.
            if matches!(cmp.op.as_str(), ">" | ">=") && grows_geometrically(ctx, own, &cmp.counter)
            {
                return written(
                    AttemptCount::Unknown,
                    ctx.text(cmp.node).to_string(),
                    span(cmp.node),
                );
            }
            // Counting down to an exit: `if (--attemptsLeft <= 0) throw e;`.
            if cmp.dec || decrements(ctx, own, &cmp.counter) {
                let what = ctx.text(cmp.node).to_string();
                let s = span(cmp.node);
                let (Some(start), Some(limit)) =
                    (start_of(ctx, &cmp.counter, lp), ctx.int(cmp.limit))
                else {
                    return written(AttemptCount::Unknown, what, s);
                };
                // Counted down after the test (`if (retry <= 0) throw e;
                // retry--;`): one more attempt than counted down before it.
                let after = !cmp.dec
                    && own
                        .iter()
                        .filter(|x| {
                            x.kind_str() == "update_expression"
                                && ctx.text(**x).contains("--")
                                && mentions(ctx, **x, &cmp.counter)
                                || x.kind_str() == "assignment_expression"
                                    && field(**x, "left")
                                        .is_some_and(|l| ctx.text(l) == cmp.counter)
                                    && field(**x, "operator").is_some_and(|o| ctx.text(o) == "-=")
                        })
                        .all(|x| x.start_byte() > d.end_byte());
                let n = match cmp.op.as_str() {
                    "<=" | "==" => start - limit,
                    "<" => start - limit + 1,
                    _ => return written(AttemptCount::Unknown, what, s),
                } + i128::from(after);
                return written(count(n), what, s);
            }
            let inc = match cmp.inc {
                Some(pre) => Some(pre),
                None => {
                    increments(ctx, lp, own, &cmp.counter).map(|i| i.start_byte() < d.start_byte())
                }
            };
            let Some(inc_before) = inc else { continue };
            let what = ctx.text(cmp.node).to_string();
            let s = span(cmp.node);
            let Some(limit) = ctx.int(cmp.limit) else {
                return written(AttemptCount::Unknown, what, s);
            };
            if limit >= i32::MAX as i128 {
                return written(AttemptCount::Unbounded, what, s);
            }
            let start = start_of(ctx, &cmp.counter, lp).unwrap_or(0);
            let n = match (inc_before, cmp.op.as_str()) {
                (true, ">=" | "==") => limit - start,
                (true, ">") => limit - start + 1,
                (false, ">=" | "==") => limit - start + 1,
                (false, ">") => limit - start + 2,
                _ => return written(AttemptCount::Unknown, what, s),
            };
            return written(count(n), what, s);
        }
    }
    // 3. A deadline: an `if` on the clock that leaves (either branch), or
    // a method of this class, called in the loop, that throws once the
    // clock passes a deadline (`deadlineMs = maybeUpdateDeadlineOrThrow(..)`).
    for &d in own {
        if d.kind_str() == "if_statement"
            && field(d, "condition").is_some_and(|c| clock_test(ctx, c))
            && ["consequence", "alternative"].iter().any(|f| {
                field(d, f).is_some_and(|b| {
                    let b = if b.kind_str() == "else" {
                        ctx.named_children(b).first().copied().unwrap_or(b)
                    } else {
                        b
                    };
                    statements(b).iter().any(|s| helpers::leaves(ctx, *s))
                })
            })
        {
            let c = field(d, "condition").unwrap_or(d);
            return written(
                AttemptCount::Unknown,
                format!("a deadline: {}", ctx.text(c)),
                span(c),
            );
        }
    }
    if let Some(call) = helpers::deadline_call(ctx, own) {
        return written(
            AttemptCount::Unknown,
            format!("a deadline checked in `{}`", ctx.text(call)),
            span(call),
        );
    }
    // A retry policy asked with the attempt counter
    // (`retryPolicy.allowRetry(attempts, elapsed)`), or a method of this
    // class that throws once its own count runs out (`retryNext(ex)` with
    // `if (!canRetry()) throw ..`): a limit the file does not show.
    if let Some(call) = policy_call(ctx, lp, own) {
        return written(
            AttemptCount::Unknown,
            format!("a limit decided by `{}`", ctx.text(call)),
            span(call),
        );
    }
    // A retry decision asked in an `if` that leaves either way
    // (`if (shouldRetryFailedRead(i)) { seek(..); } else { throw e; }`).
    if let Some(call) = decision_call(ctx, own) {
        return written(
            AttemptCount::Unknown,
            format!("a limit decided by `{}`", ctx.text(call)),
            span(call),
        );
    }
    if let Some(call) = helpers::capped_call(ctx, own) {
        return written(
            AttemptCount::Unknown,
            format!("a limit checked in `{}`", ctx.text(call)),
            span(call),
        );
    }
    // A limit kept in a field of this class and read by a method the loop
    // calls (`while (.. && willReconnect())` reading
    // `maxReconnectAttempts`), with a way out of the loop once it says no:
    // the count is configured, not absent.
    if let Some(call) = helpers::limit_call(ctx, lp)
        && own.iter().any(|d| {
            d.kind_str() == "if_statement"
                && field(*d, "consequence")
                    .is_some_and(|b| statements(b).iter().any(|s| helpers::leaves(ctx, *s)))
        })
    {
        return written(
            AttemptCount::Unknown,
            format!("a limit kept in a field, read by `{}`", ctx.text(call)),
            span(call),
        );
    }
    if let Some(a) = catches::flag_bound(ctx, lp, own, cond.map_or("", |c| ctx.text(c))) {
        let what = format!("a limit through the flag: {}", ctx.text(a));
        return written(AttemptCount::Unknown, what, span(a));
    }
    if infinite {
        let t = cond.map_or("for (;;)".to_string(), |c| format!("while {}", ctx.text(c)));
        return written(AttemptCount::Unbounded, t, header);
    }
    // A flag loop (`while (!done)`) with no counter has no limit; a
    // condition that asks something else (`policy.attempt()`) has one the
    // file does not show.
    let t = cond.map_or(String::new(), |c| ctx.text(c).to_string());
    let flag = cond.is_some_and(|c| {
        let inner = ast::unwrap_expr(c);
        let inner = if inner.kind_str() == "unary_expression" {
            ctx.named_children(inner)
                .first()
                .map_or(inner, |x| ast::unwrap_expr(*x))
        } else {
            inner
        };
        matches!(inner.kind_str(), "identifier" | "field_access")
    });
    // A liveness condition (`while (keepLooping())`, `while
    // (this.isSourceActive())`, `while (running && !isStopped())`) asks
    // whether the service runs, not how many attempts are left.
    let alive = cond.is_some_and(|c| {
        let parts = conjuncts(ctx, c);
        parts.iter().any(|p| liveness(ctx, *p))
            && parts.iter().all(|p| {
                let inner = ast::unwrap_expr(*p);
                let inner = if inner.kind_str() == "unary_expression" {
                    ctx.named_children(inner)
                        .first()
                        .map_or(inner, |x| ast::unwrap_expr(*x))
                } else {
                    inner
                };
                matches!(inner.kind_str(), "identifier" | "field_access") || liveness(ctx, *p)
            })
    });
    if flag || alive {
        written(
            AttemptCount::Unbounded,
            format!("while {t} (no attempt limit)"),
            header,
        )
    } else {
        written(AttemptCount::Unknown, format!("while {t}"), header)
    }
}

/// A call named like a retry decision (`allowRetry`, `shouldRetry`,
/// `canRetry`) handed a counter the loop increments.
fn policy_call<'a>(ctx: &Ctx<'a>, lp: Node<'a>, own: &[Node<'a>]) -> Option<Node<'a>> {
    own.iter().copied().find(|d| {
        d.kind_str() == "method_invocation"
            && field(*d, "name").is_some_and(|n| {
                let l = ctx.text(n).to_ascii_lowercase();
                l.contains("retry") && !l.contains("retryable")
            })
            && field(*d, "arguments").is_some_and(|a| {
                ctx.descendants(a).into_iter().any(|i| {
                    i.kind_str() == "identifier" && increments(ctx, lp, own, ctx.text(i)).is_some()
                })
            })
    })
}

/// The call an `if` asks whether to try again (`shouldRetryFailedRead(i)`,
/// `!canRetry()`), when one of its branches leaves the loop.
fn decision_call<'a>(ctx: &Ctx<'a>, own: &[Node<'a>]) -> Option<Node<'a>> {
    own.iter().copied().find_map(|d| {
        if d.kind_str() != "if_statement" {
            return None;
        }
        let c = ast::unwrap_expr(field(d, "condition")?);
        let c = if c.kind_str() == "unary_expression" && ctx.text(c).starts_with('!') {
            ast::unwrap_expr(*ctx.named_children(c).first()?)
        } else {
            c
        };
        let name = field(c, "name").map(|n| ctx.text(n).to_ascii_lowercase())?;
        let asks = c.kind_str() == "method_invocation"
            && name.contains("retr")
            && !name.contains("retryable")
            && !name.contains("retriable");
        let leaves = ["consequence", "alternative"].iter().any(|f| {
            field(d, f).is_some_and(|b| {
                let b = if b.kind_str() == "else" {
                    ctx.named_children(b).first().copied().unwrap_or(b)
                } else {
                    b
                };
                statements(b).iter().any(|s| helpers::leaves(ctx, *s))
            })
        });
        (asks && leaves).then_some(c)
    })
}

/// A call that asks whether the service is alive: `keepLooping()`,
/// `isRunning()`, `this.isSourceActive()`, `!isStopped()`,
/// `!Thread.currentThread().isInterrupted()`, with no arguments. A method
/// of this class whose body reads a count or a clock is no such call.
fn liveness(ctx: &Ctx<'_>, e: Node<'_>) -> bool {
    let e = ast::unwrap_expr(e);
    let (negated, call) = if e.kind_str() == "unary_expression" && ctx.text(e).starts_with('!') {
        (
            true,
            ctx.named_children(e)
                .first()
                .map_or(e, |x| ast::unwrap_expr(*x)),
        )
    } else {
        (false, e)
    };
    if call.kind_str() != "method_invocation"
        || field(call, "arguments").is_some_and(|a| !ctx.named_children(a).is_empty())
    {
        return false;
    }
    let name = field(call, "name").map_or("", |n| ctx.text(n));
    let l = name.to_ascii_lowercase();
    const UP: &[&str] = &[
        "running", "active", "alive", "looping", "started", "open", "enabled",
    ];
    const DOWN: &[&str] = &[
        "stopped",
        "stopping",
        "closed",
        "closing",
        "shutdown",
        "interrupted",
        "disposed",
        "cancelled",
        "terminated",
    ];
    let asks = if negated {
        l.starts_with("is") && DOWN.iter().any(|w| l.ends_with(w))
    } else {
        (l.starts_with("is") || l.starts_with("keep") || l.starts_with("should"))
            && UP.iter().any(|w| l.contains(w))
    };
    if !asks {
        return false;
    }
    // A method of this class that reads a count or a clock decides more
    // than liveness.
    let own = field(call, "object").is_none_or(|o| o.kind_str() == "this");
    !(own
        && ctx.methods_named(name).iter().any(|m| {
            field(*m, "body").is_some_and(|b| {
                let t = ctx.text(b).to_ascii_lowercase();
                helpers::time_words(&t) || t.contains("attempt") || t.contains("retr")
            })
        }))
}

/// `d = Math.max(1, d * 2)`, `d = d * 2`, `d *= 2`: the variable grows by
/// a factor each pass.
fn grows_geometrically(ctx: &Ctx<'_>, own: &[Node<'_>], name: &str) -> bool {
    own.iter().any(|d| {
        if d.kind_str() != "assignment_expression"
            || field(*d, "left").is_none_or(|l| ctx.text(l) != name)
        {
            return false;
        }
        let Some(r) = field(*d, "right").map(ast::unwrap_expr) else {
            return false;
        };
        match field(*d, "operator").map_or("", |o| ctx.text(o)) {
            "*=" => ctx.float(r).is_some_and(|k| k > 1.0),
            "=" => {
                let bounded = r.kind_str() == "method_invocation"
                    && field(r, "name").is_some_and(|n| matches!(ctx.text(n), "max" | "min"));
                let parts = if bounded {
                    field(r, "arguments")
                        .map(|x| ctx.named_children(x))
                        .unwrap_or_default()
                } else {
                    vec![r]
                };
                parts
                    .iter()
                    .any(|a| super::wait::growth(ctx, *a, name).is_some_and(|(k, _)| k > 1.0))
            }
            _ => false,
        }
    })
}

/// A test of the clock: written in the condition, or through a local the
/// clock gave its value (`long time = System.currentTimeMillis() - start;
/// if (time > MAX_RETRY_TIME) throw ..`), or through a method of this class
/// that answers a value read from the clock (`if (remaining(timeout, start)
/// <= 0) ..`).
pub(super) fn clock_test(ctx: &Ctx<'_>, c: Node<'_>) -> bool {
    helpers::time_words(ctx.text(c))
        || ctx.descendants(c).into_iter().any(|d| {
            (d.kind_str() == "identifier"
                && ctx
                    .var(ctx.text(d), d)
                    .and_then(|v| v.value)
                    .is_some_and(|v| helpers::time_words(ctx.text(v))))
                || helpers::own_clock_call(ctx, d)
        })
}

/// The factor a `for` header's update multiplies the counter by
/// (`i *= 10`, `i = i * 2`), when it is a whole number above one.
fn factor(ctx: &Ctx<'_>, lp: Node<'_>, counter: &str) -> Option<i128> {
    if lp.kind_str() != "for_statement" {
        return None;
    }
    let u = ast::unwrap_expr(field(lp, "update")?);
    if u.kind_str() != "assignment_expression"
        || field(u, "left").map(|l| ctx.text(l)) != Some(counter)
    {
        return None;
    }
    let r = ast::unwrap_expr(field(u, "right")?);
    let k = match field(u, "operator").map(|o| ctx.text(o))? {
        "*=" => ctx.int(r)?,
        "=" if r.kind_str() == "binary_expression"
            && field(r, "operator").is_some_and(|o| ctx.text(o) == "*") =>
        {
            let (a, b) = (field(r, "left")?, field(r, "right")?);
            if ctx.text(a) == counter {
                ctx.int(b)?
            } else if ctx.text(b) == counter {
                ctx.int(a)?
            } else {
                return None;
            }
        }
        _ => return None,
    };
    (k > 1).then_some(k)
}
