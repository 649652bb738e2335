//! A hand-written loop's wait that grows with the attempt, as the Java
//! and Rust loop readers see it: a variable the loop multiplies
//! (`delay *= 2`, `delay = delay * 2`, `delay <<= 1`, `delay =
//! min(delay*2, maxDelay)`, a cap by `if delay > maxDelay { delay =
//! maxDelay }`), or a factor written in place (`time.Duration(1<<i) *
//! time.Second`, `base << attempt`, `math.Pow(2, float64(i))`).

use super::super::eval::{self, Num};
use super::super::{Ctx, MAX_DEPTH, Pkg, args, field, named_children};
use crate::model::Delay;
use crate::systems::go::extract::KindName;
use std::time::Duration;
use tree_sitter::Node;

/// The growing delay of `wait_arg` (the argument of the loop's
/// `time.Sleep`/`time.After`), `None` when it does not grow.
pub fn growing(ctx: &Ctx<'_>, lp: Node<'_>, own: &[Node<'_>], wait_arg: Node<'_>) -> Option<Delay> {
    // `delay + jitter` where the jitter is random: the delay's growth.
    let wait_arg = if wait_arg.kind_name() == "binary_expression"
        && field(wait_arg, "operator").is_some_and(|o| ctx.text(o) == "+")
        && let (Some(l), Some(r)) = (field(wait_arg, "left"), field(wait_arg, "right"))
    {
        match (ctx.text(l).contains("rand."), ctx.text(r).contains("rand.")) {
            (false, true) => l,
            (true, false) => r,
            _ => wait_arg,
        }
    } else {
        wait_arg
    };
    let mut expr = wait_arg;
    // `backoff := time.Duration(1<<i) * time.Second` in the loop, then
    // `time.Sleep(backoff)`.
    if expr.kind_name() == "identifier"
        && let Some(v) = ctx.binding(ctx.text(expr), expr.start_byte())
        && v.id() != expr.id()
        && own.iter().any(|o| o.id() == v.id())
    {
        expr = v;
    }
    let changing = changing(ctx, lp, own);
    if let Some((mult, base)) = in_place(ctx, expr, &changing, 0) {
        return Some(exponential(base, mult, None));
    }
    if let Some(d) = linear(ctx, expr, &changing, 0) {
        return Some(d);
    }
    if wait_arg.kind_name() != "identifier" {
        return None;
    }
    updated(ctx, lp, own, wait_arg)
}

fn exponential(base: Num, multiplier: f64, cap: Option<Duration>) -> Delay {
    if !base.duration || base.value <= 0.0 || !base.value.is_finite() || multiplier <= 1.0 {
        return Delay::Custom;
    }
    Delay::Exponential {
        base: Duration::from_nanos(base.value.min(u64::MAX as f64) as u64),
        multiplier,
        cap,
    }
}

/// A factor that grows written in the expression: the multiplier and the
/// rest of the product (the first wait).
fn in_place(ctx: &Ctx<'_>, n: Node<'_>, changing: &[&str], depth: usize) -> Option<(f64, Num)> {
    if depth > MAX_DEPTH {
        return None;
    }
    match n.kind_name() {
        "parenthesized_expression" => {
            in_place(ctx, *named_children(n).first()?, changing, depth + 1)
        }
        "binary_expression" => {
            let op = ctx.text(field(n, "operator")?);
            let (l, r) = (field(n, "left")?, field(n, "right")?);
            match op {
                // `base << attempt`: doubles per attempt.
                "<<" if mentions(ctx, r, changing) => Some((2.0, eval::num(ctx, l)?)),
                "*" => {
                    let (grows, rest) = match in_place(ctx, l, changing, depth + 1) {
                        Some(g) => (g, r),
                        None => (in_place(ctx, r, changing, depth + 1)?, l),
                    };
                    let rest = eval::num(ctx, rest)?;
                    Some((
                        grows.0,
                        Num {
                            value: grows.1.value * rest.value,
                            duration: grows.1.duration || rest.duration,
                        },
                    ))
                }
                _ => None,
            }
        }
        "call_expression" => {
            let f = field(n, "function")?;
            let a = args(n);
            if ctx.pkg_ref(f) == Some((Pkg::Math, "Pow")) {
                let k = eval::float(ctx, *a.first()?)?;
                mentions(ctx, *a.get(1)?, changing).then_some((
                    k,
                    Num {
                        value: 1.0,
                        duration: false,
                    },
                ))
            } else {
                // Conversions: `time.Duration(1<<i)`, `float64(..)`.
                let conv = ctx.pkg_ref(f) == Some((Pkg::Time, "Duration"));
                let plain = matches!(
                    ctx.text(f),
                    "int" | "int32" | "int64" | "uint" | "uint32" | "uint64" | "float64"
                );
                if !conv && !plain {
                    return None;
                }
                let (m, b) = in_place(ctx, *a.first()?, changing, depth + 1)?;
                Some((
                    m,
                    Num {
                        value: b.value,
                        duration: b.duration || conv,
                    },
                ))
            }
        }
        _ => None,
    }
}

/// A product with the loop's counter as one factor (`d := time.Second *
/// 10 * time.Duration(i)` under `for i := 1; ..; i++`,
/// GoogleCloudPlatform/microservices-demo 34ffea9's profiler start):
/// the wait grows by the rest of the product each pass: a linear backoff
/// (from a counter starting at 0 the first retry waits nothing and each
/// later one a step more; the growth, and what jitter it lacks, are the
/// same).
fn linear(ctx: &Ctx<'_>, n: Node<'_>, changing: &[&str], depth: usize) -> Option<Delay> {
    let mut factors = Vec::new();
    product(ctx, n, &mut factors, depth);
    let counter = |f: Node<'_>| -> Option<()> {
        let f = match f.kind_name() {
            "call_expression"
                if ctx.pkg_ref(field(f, "function")?) == Some((Pkg::Time, "Duration"))
                    || matches!(ctx.text(field(f, "function")?), "int" | "int64" | "float64") =>
            {
                *args(f).first()?
            }
            _ => f,
        };
        // `count+4` (goharbor/harbor c50c7ddd6e's Redis ping, `time.
        // Duration(count+4) * time.Second`): still a step per pass; the
        // first waits are longer than the model's `step x n` by the
        // constant's share, so the total is a lower bound.
        let f = match f.kind_name() {
            "parenthesized_expression" => *named_children(f).first()?,
            _ => f,
        };
        let f = match f.kind_name() {
            "binary_expression"
                if field(f, "operator").is_some_and(|o| matches!(ctx.text(o), "+" | "-")) =>
            {
                let (l, r) = (field(f, "left")?, field(f, "right")?);
                let constant = |n: Node<'_>| eval::count(ctx, n).is_some();
                if changing.contains(&ctx.text(l)) && constant(r) {
                    l
                } else if ctx.text(field(f, "operator")?) == "+"
                    && changing.contains(&ctx.text(r))
                    && constant(l)
                {
                    r
                } else {
                    return None;
                }
            }
            _ => f,
        };
        (f.kind_name() == "identifier" && changing.contains(&ctx.text(f))).then_some(())
    };
    let i = factors.iter().position(|f| counter(*f).is_some())?;
    let mut base = Num {
        value: 1.0,
        duration: false,
    };
    for (j, f) in factors.iter().enumerate() {
        if j == i {
            continue;
        }
        let v = eval::num(ctx, *f)?;
        base = Num {
            value: base.value * v.value,
            duration: base.duration || v.duration,
        };
    }
    if !base.duration || base.value <= 0.0 || !base.value.is_finite() {
        return None;
    }
    Some(Delay::Linear {
        base: Duration::from_nanos(base.value.min(u64::MAX as f64) as u64),
        cap: None,
    })
}

/// The factors of a product (`a * b * (c)`), at most [`MAX_DEPTH`] deep.
/// A conversion of a product is its factors (`time.Duration(attempt*2) *
/// time.Second`, dapr/dapr d8450742ce `.build-tools/cmd/zz-e2e-perf.go`'s
/// copy retry, was read as a fixed `2s`): the units come from the other
/// factors.
fn product<'t>(ctx: &Ctx<'_>, n: Node<'t>, out: &mut Vec<Node<'t>>, depth: usize) {
    if depth > MAX_DEPTH || out.len() > 16 {
        return;
    }
    match n.kind_name() {
        "parenthesized_expression" => match named_children(n).first() {
            Some(inner) => product(ctx, *inner, out, depth + 1),
            None => out.push(n),
        },
        "binary_expression" if field(n, "operator").is_some_and(|o| o.kind_name() == "*") => {
            for side in ["left", "right"] {
                if let Some(s) = field(n, side) {
                    product(ctx, s, out, depth + 1);
                }
            }
        }
        "call_expression" => match (field(n, "function"), args(n).as_slice()) {
            (Some(f), [a])
                if (ctx.pkg_ref(f) == Some((Pkg::Time, "Duration"))
                    || matches!(ctx.text(f), "int" | "int64" | "float64"))
                    && is_product(*a) =>
            {
                product(ctx, *a, out, depth + 1)
            }
            _ => out.push(n),
        },
        _ => out.push(n),
    }
}

/// A product, maybe in parentheses.
fn is_product(n: Node<'_>) -> bool {
    match n.kind_name() {
        "parenthesized_expression" => named_children(n).first().is_some_and(|i| is_product(*i)),
        "binary_expression" => field(n, "operator").is_some_and(|o| o.kind_name() == "*"),
        _ => false,
    }
}

/// The names the loop changes: its `for` clause's update (`i++`) and what
/// its own code assigns or increments.
fn changing<'a>(ctx: &Ctx<'a>, lp: Node<'_>, own: &[Node<'_>]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let update = named_children(lp)
        .into_iter()
        .find(|c| c.kind_name() == "for_clause")
        .and_then(|c| field(c, "update"));
    for s in update.into_iter().chain(own.iter().copied()) {
        match s.kind_name() {
            "inc_statement" | "dec_statement" => {
                out.extend(named_children(s).into_iter().next().map(|t| ctx.text(t)));
            }
            // `i, backoff = i+1, backoff*2`: each name of the list.
            "assignment_statement" => {
                if let Some(l) = field(s, "left") {
                    out.extend(named_children(l).into_iter().map(|t| ctx.text(t)));
                }
            }
            _ => {}
        }
    }
    out
}

/// The assignments of `own` and of the `for` clause's update, one
/// (target, operator, value, whether it runs before the wait at
/// `wait_at`) per name (`i, backoff = i+1, backoff*2` gives two). The
/// clause's update runs after the body, so after the wait.
fn assignments<'t>(
    ctx: &Ctx<'_>,
    lp: Node<'t>,
    own: &[Node<'t>],
    wait_at: usize,
) -> Vec<(Node<'t>, &'static str, Node<'t>, bool)> {
    let update = named_children(lp)
        .into_iter()
        .find(|c| c.kind_name() == "for_clause")
        .and_then(|c| field(c, "update"))
        .filter(|u| u.kind_name() == "assignment_statement");
    let mut out = Vec::new();
    for (u, in_clause) in own
        .iter()
        .map(|o| (*o, false))
        .chain(update.map(|u| (u, true)))
    {
        if u.kind_name() != "assignment_statement" {
            continue;
        }
        let (Some(l), Some(r), Some(op)) =
            (field(u, "left"), field(u, "right"), field(u, "operator"))
        else {
            continue;
        };
        let op = match ctx.text(op) {
            "*=" => "*=",
            "<<=" => "<<=",
            "=" => "=",
            "+=" => "+=",
            _ => continue,
        };
        let before_wait = !in_clause && u.end_byte() <= wait_at;
        let (ls, rs) = (named_children(l), named_children(r));
        if ls.len() == rs.len() {
            for (a, b) in ls.into_iter().zip(rs) {
                out.push((a, op, b, before_wait));
            }
        } else if let Some(b) = rs.into_iter().next() {
            out.push((l, op, b, before_wait));
        }
        if out.len() > 64 {
            break;
        }
    }
    out
}

/// Whether `n` names one of `changing`.
fn mentions(ctx: &Ctx<'_>, n: Node<'_>, changing: &[&str]) -> bool {
    ctx.text(n)
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| !w.is_empty() && changing.contains(&w))
}

/// `name` multiplied in the loop: its first value (bound before the
/// loop), the factor and a cap.
fn updated(ctx: &Ctx<'_>, lp: Node<'_>, own: &[Node<'_>], wait: Node<'_>) -> Option<Delay> {
    let name = ctx.text(wait);
    // `backoff := 50 * time.Millisecond` inside the loop: each pass starts
    // from the first value again, so `backoff *= 2` after the wait never
    // reaches the next one (a fixed wait).
    // A reassignment in the loop (`backoff = min(backoff*2, max)` before
    // the wait) grows it instead.
    let declared = |v: Node<'_>| {
        let mut cur = v.parent();
        for _ in 0..3 {
            match cur {
                Some(c) if matches!(c.kind_name(), "short_var_declaration" | "var_spec") => {
                    return true;
                }
                Some(c) if c.kind_name() == "assignment_statement" => return false,
                Some(c) => cur = c.parent(),
                None => return false,
            }
        }
        false
    };
    if ctx
        .binding(name, wait.start_byte())
        .is_some_and(|v| own.iter().any(|o| o.id() == v.id()) && declared(v))
    {
        return None;
    }
    let mut mult = None;
    let mut cap = None;
    // `wait *= 2` before `time.Sleep(wait)`: the first wait is already
    // multiplied once.
    let mut grown_first = false;
    for (l, op, r, before_wait) in assignments(ctx, lp, own, wait.start_byte()) {
        if ctx.text(l) != name {
            continue;
        }
        match op {
            "*=" => {
                mult = eval::float(ctx, r);
                grown_first |= before_wait;
            }
            "<<=" => {
                mult = eval::count(ctx, r)
                    .filter(|k| *k < 32)
                    .map(|k| (1u64 << k) as f64);
                grown_first |= before_wait;
            }
            "=" => {
                if let Some((m, c)) = times(ctx, r, name, 0) {
                    mult = Some(m);
                    cap = cap.or(c);
                    grown_first |= before_wait;
                } else if !mentions(ctx, r, &[name]) {
                    // `if delay > maxDelay { delay = maxDelay }`.
                    cap = eval::duration(ctx, r).or(cap);
                } else {
                    return Some(Delay::Custom);
                }
            }
            "+=" => return Some(Delay::Custom),
            _ => {}
        }
    }
    let mult = mult?;
    // `for i, backoff := 1, 2*time.Second; ..; i, backoff = i+1,
    // backoff*2` (goharbor/harbor c50c7ddd6e's blob copy): the first
    // value is the clause's initializer's.
    let before = init_value(ctx, lp, name).or_else(|| ctx.binding(name, lp.start_byte()))?;
    let Some(mut first) = eval::num(ctx, before) else {
        // `backoff := t.backoff` (a field, a parameter): the growth is
        // written, the first wait is not (argo-cd's `retryTransport`).
        return (mult > 1.0 && mult.is_finite()).then_some(Delay::Growing {
            multiplier: mult,
            cap,
        });
    };
    if grown_first {
        first.value *= mult;
        if let Some(c) = cap {
            first.value = first.value.min(c.as_nanos() as f64);
        }
    }
    Some(exponential(first, mult, cap))
}

/// The value the `for` clause's initializer gives `name`.
fn init_value<'t>(ctx: &Ctx<'_>, lp: Node<'t>, name: &str) -> Option<Node<'t>> {
    let init = named_children(lp)
        .into_iter()
        .find(|c| c.kind() == "for_clause")
        .and_then(|c| field(c, "initializer"))
        .filter(|i| i.kind() == "short_var_declaration")?;
    let (l, r) = (
        named_children(field(init, "left")?),
        named_children(field(init, "right")?),
    );
    if l.len() != r.len() {
        return None;
    }
    let k = l.iter().position(|n| ctx.text(*n) == name)?;
    Some(r[k])
}

/// `name * k`, `k * name`, `min(name*k, cap)`: the factor and the cap.
fn times(ctx: &Ctx<'_>, r: Node<'_>, name: &str, depth: usize) -> Option<(f64, Option<Duration>)> {
    if depth > MAX_DEPTH {
        return None;
    }
    match r.kind_name() {
        "parenthesized_expression" => times(ctx, *named_children(r).first()?, name, depth + 1),
        "binary_expression" if field(r, "operator").is_some_and(|o| ctx.text(o) == "*") => {
            let (l, rr) = (field(r, "left")?, field(r, "right")?);
            let k = if ctx.text(l) == name {
                rr
            } else if ctx.text(rr) == name {
                l
            } else {
                return None;
            };
            Some((eval::float(ctx, k)?, None))
        }
        // `name*k + jitter` where the jitter is random: the growth.
        "binary_expression" if field(r, "operator").is_some_and(|o| ctx.text(o) == "+") => {
            let (l, rr) = (field(r, "left")?, field(r, "right")?);
            match (random(ctx, l), random(ctx, rr)) {
                (false, true) => times(ctx, l, name, depth + 1),
                (true, false) => times(ctx, rr, name, depth + 1),
                _ => None,
            }
        }
        "call_expression" if field(r, "function").is_some_and(|f| ctx.text(f) == "min") => {
            let a = args(r);
            let i = a
                .iter()
                .position(|x| times(ctx, *x, name, depth + 1).is_some())?;
            let (m, _) = times(ctx, a[i], name, depth + 1)?;
            let cap = a
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .find_map(|(_, c)| eval::duration(ctx, *c));
            Some((m, cap))
        }
        _ => None,
    }
}

/// Whether `n` is random: it calls `rand.`, directly or through a name
/// bound to such a value.
fn random(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    let t = ctx.text(n);
    if t.contains("rand.") {
        return true;
    }
    n.kind_name() == "identifier"
        && ctx
            .binding(t, n.start_byte())
            .is_some_and(|v| v.id() != n.id() && ctx.text(v).contains("rand."))
}

/// Jitter added before the cap in the variable that grows (`backoff =
/// min(backoff*2 + jitter, maxBackoff)`, with `jitter` a random share of
/// `backoff`): once the growth passes the cap, every wait is exactly the
/// cap (issue 28, fleetdm/fleet #53357). The jitter's share of the delay:
/// `rand.Int63n(int64(backoff) / 10)` is 0.1, a random value of the whole
/// delay 1. `None` for any other shape.
pub fn jitter_before_cap(ctx: &Ctx<'_>, own: &[Node<'_>], wait_arg: Node<'_>) -> Option<f64> {
    if wait_arg.kind_name() != "identifier" {
        return None;
    }
    let name = ctx.text(wait_arg);
    own.iter().find_map(|u| {
        if u.kind_name() != "assignment_statement" {
            return None;
        }
        let (l, r) = (field(*u, "left")?, field(*u, "right")?);
        if ctx.text(l) != name {
            return None;
        }
        let r = named_children(r).into_iter().next().unwrap_or(r);
        if r.kind_name() != "call_expression"
            || field(r, "function").map(|f| ctx.text(f)) != Some("min")
        {
            return None;
        }
        let sum = args(r).into_iter().find(|a| {
            a.kind_name() == "binary_expression"
                && field(*a, "operator").is_some_and(|o| ctx.text(o) == "+")
        })?;
        let j = [field(sum, "left")?, field(sum, "right")?]
            .into_iter()
            .find(|x| random(ctx, *x))?;
        let j = if j.kind_name() == "identifier" {
            ctx.binding(ctx.text(j), j.start_byte()).unwrap_or(j)
        } else {
            j
        };
        let jt = ctx.text(j);
        if !jt.contains(name) {
            return None;
        }
        // `.. name) / k` or `name / k`: a k-th of the delay.
        let share = jt
            .split(name)
            .nth(1)
            .and_then(|rest| rest.trim_start_matches(')').trim_start().strip_prefix('/'))
            .and_then(|k| {
                let k: String = k
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_ascii_digit())
                    .collect();
                k.parse::<f64>().ok()
            })
            .filter(|k| *k >= 1.0)
            .map_or(1.0, |k| 1.0 / k);
        Some(share)
    })
}
