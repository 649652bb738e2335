//! Hand-written retry loops: `for i := 0; i < n; i++ { ... }` and
//! `for { ... }` that try something, leave the loop on success (`return`
//! or `break`) and wait (`time.Sleep`, `<-time.After`) before trying
//! again, as the Java, Rust and Python readers see them. A wait taken
//! from a `Retry-After` (or `grpc-retry-pushback-ms`,
//! `x-ms-retry-after-ms`) header read in the loop is a server delay
//! (RL208): capped when the loop bounds it (`min(..)`, a comparison with
//! a maximum), jittered when it adds a random wait.

use super::eval;
use crate::systems::go::extract::KindName;
#[path = "loops_counter.rs"]
mod counter;
#[path = "loops_growth.rs"]
mod growth;
#[path = "loops_walk.rs"]
mod walk;
use super::{
    Ctx, Pkg, RetryScope, attempts, default_attempts, field, named_children, policy, span,
};
use crate::model::backoff::ServerDelay;
use crate::model::{AttemptCount, CapOrder, Delay, Facts, Jitter, Located, RetryOn};
use tree_sitter::Node;

/// Headers a server sets to say when to come back.
pub const SERVER_DELAY_HEADERS: &[&str] = &[
    "retry-after",
    "grpc-retry-pushback-ms",
    "x-ms-retry-after-ms",
];

/// The loop each node of `ctx.nodes` belongs to (innermost `for`, not
/// crossing a function literal), as an index into `ctx.nodes`; `u32::MAX`
/// for none. One pass: a parent comes before its children.
fn owner_loops(ctx: &Ctx<'_>) -> Vec<u32> {
    let k = &*super::KINDS;
    let mut owners: Vec<u32> = Vec::with_capacity(ctx.nodes.len());
    for &p in &ctx.parents {
        let owner = match ctx.nodes.get(p as usize).map(|n| n.kind_id()) {
            None => u32::MAX,
            Some(id) if id == k.for_statement => p,
            Some(id) if k.functions.contains(&id) => u32::MAX,
            Some(_) => owners[p as usize],
        };
        owners.push(owner);
    }
    owners
}

pub fn extract(ctx: &Ctx<'_>, facts: &mut Facts, scopes: &mut Vec<RetryScope>) {
    let mut owners: Option<Vec<u32>> = None;
    let for_statement = super::KINDS.for_statement;
    for (i, &n) in ctx.nodes.iter().enumerate() {
        if n.kind_id() != for_statement {
            continue;
        }
        let owners = owners.get_or_insert_with(|| owner_loops(ctx));
        let Some(body) = field(n, "body") else {
            continue;
        };
        let head = named_children(n).into_iter().find(|c| c.id() != body.id());
        let (count, written) = match head {
            None => (AttemptCount::Unbounded, "for { .. }".to_string()),
            Some(h) if h.kind_name() == "for_clause" => match field(h, "condition") {
                Some(c) => (
                    bound(ctx, c, start(ctx, h, c)),
                    format!("for .. ; {} ; ..", super::one_line(ctx.text(c))),
                ),
                None => (AttemptCount::Unbounded, "for ;; { .. }".to_string()),
            },
            // `for _, r := range rules`: a slice, a map or a string, never
            // a count or a channel, which range with one name at most (the
            // Go specification, "For statements with range clause"; the
            // pruner leaves such loops out, `prune::loops::walks_pairs`).
            Some(h) if h.kind_name() == "range_clause" && ranges_pairs(h) => continue,
            // `for x := range queue { .. queue <- x }`: a failed item put back
            // on the channel the loop reads comes round again (issue 28, EC2
            // DWFM 2025).
            Some(h) if h.kind_name() == "range_clause" && requeues(ctx, n, h).is_some() => (
                AttemptCount::Unbounded,
                format!(
                    "for .. range {} {{ .. {} }}",
                    field(h, "right").map_or("", |r| ctx.text(r)),
                    requeues(ctx, n, h).map_or(String::new(), |s| super::one_line(ctx.text(s)))
                ),
            ),
            // `for i := range 3` (Go 1.22): a counted loop.
            Some(h) if h.kind_name() == "range_clause" && range_count(ctx, h).is_some() => (
                AttemptCount::Finite(range_count(ctx, h).unwrap_or(0)),
                format!(
                    "for .. range {}",
                    field(h, "right").map_or("", |r| ctx.text(r))
                ),
            ),
            // `for range xs` walks data; `for cond` has a bound not known here.
            Some(h) if h.kind_name() == "range_clause" => continue,
            Some(h) => (
                AttemptCount::Unknown,
                format!("for {}", super::one_line(ctx.text(h))),
            ),
        };
        // The nodes are in source order: the body's are one run of them.
        let from = ctx
            .nodes
            .partition_point(|c| c.start_byte() < body.start_byte());
        let own: Vec<Node<'_>> = (ctx.nodes[from..].iter().copied())
            .zip(&owners[from..])
            .take_while(|(c, _)| c.start_byte() < body.end_byte())
            .filter(|(c, owner)| c.end_byte() <= body.end_byte() && **owner as usize == i)
            .map(|(c, _)| c)
            .collect();
        // `for { .. if attempt >= max { break } }`: a counter bounds it.
        let (count, written) = match count {
            AttemptCount::Unbounded => {
                counter::counted(ctx, n, head, &own).unwrap_or((count, written))
            }
            _ => (count, written),
        };
        let counted_range =
            head.is_some_and(|h| h.kind_name() == "range_clause" && range_count(ctx, h).is_some());
        let requeue = !counted_range
            && head.is_some_and(|h| h.kind_name() == "range_clause")
            && sends(ctx, &own);
        if head.is_some_and(|h| h.kind_name() == "range_clause") && !requeue && !counted_range {
            continue;
        }
        // Each pass hands the call another item: a walk, not a retry.
        if !requeue && walk::walks_items(ctx, n, &own) {
            continue;
        }
        // Each pass takes another item off a queue: a consume loop.
        if !requeue && walk::takes_items(ctx, &own) {
            continue;
        }
        // Each pass asks where the last answer said: a redirect followed.
        if !requeue && walk::follows_answer(ctx, &own) {
            continue;
        }
        // Only a local port or the process's own cache is asked again.
        if super::local::only_local(ctx, own.iter().copied()) {
            continue;
        }
        let waits: Vec<Node<'_>> = own
            .iter()
            .copied()
            .filter(|c| matches!(ctx.pkg_call(*c), Some((Pkg::Time, "Sleep" | "After"))))
            .filter(|c| !walk::on_shutdown_branch(ctx, *c, n))
            .collect();
        // No wait: a retry at once only when the error path says so
        // (`if err != nil { continue }`) around something sent out (a
        // method or package call other than the standard library's local
        // ones): a client re-asking on every timeout.
        let wait = match waits.first().copied() {
            Some(w) => Some(w),
            // Only `for { }` and counted loops: `for backoff.Ongoing()`
            // and `for running()` wait or stop elsewhere.
            None if requeue => None,
            None if (head.is_none_or(|h| h.kind_name() == "for_clause") || counted_range)
                && (goes_round_on_error(ctx, n, &own)
                    || (matches!(count, AttemptCount::Finite(_))
                        && walk::leaves_on_success(ctx, &own)))
                && sends(ctx, &own)
                && !waits_elsewhere(ctx, &own) =>
            {
                None
            }
            None => continue,
        };
        // A retry leaves on success: a `return` or `break` that is not
        // the error path (`if err != nil { return err }` is a poll that
        // gives up on the first error, not a retry), does not return a
        // new error (`return fmt.Errorf("timeout ..")`: a poll's deadline)
        // and is not a `select` case (`case <-ctx.Done(): return`: a
        // shutdown, whatever the last try did).
        let exits = own.iter().any(|c| {
            matches!(c.kind_name(), "return_statement" | "break_statement")
                && !on_error_path(ctx, *c)
                && !walk::gives_up(ctx, *c)
                && !walk::on_cancel(*c, n)
                && !walk::on_stop_flag(ctx, *c, n)
        });
        let body_text = ctx.text(body);
        // A try: an error checked in the loop.
        if !requeue && (!exits || !body_text.contains("err")) {
            continue;
        }
        // Every error tested leaves the loop: a wait for a state, not a
        // retry of a call (unless it goes round on a response status).
        let statuses_tested = statuses(ctx, &own);
        if !requeue
            && statuses_tested.is_none()
            && (walk::errors_all_leave(ctx, body) || walk::tests_no_error(ctx, body))
        {
            continue;
        }
        // `case <-timeout: return` / `case <-ctx.Done(): return`, or a
        // clock test that leaves (`if time.Since(start) > limit { return
        // .. }`): a deadline ends the loop, its length not known here.
        // A clock test is written in the loop: the attempts stay written
        // (the rules that judge what a loop retries still see it), their
        // number unknown.
        let clock = count == AttemptCount::Unbounded
            && (walk::has_elapsed_cap(ctx, &own) || walk::context_deadline_leaves(ctx, n, &own));
        let count = if count == AttemptCount::Unbounded
            && (clock || has_deadline_case(ctx, n, &own) || walk::called_stops_on_cancel(ctx, &own))
        {
            AttemptCount::Unknown
        } else {
            count
        };
        let at = span(n);
        let mut p = policy(
            "loop",
            at,
            if count == AttemptCount::Unknown && !clock {
                default_attempts(count, &written, at)
            } else {
                attempts(count, &written, at)
            },
        );
        p.why.push(match wait {
            Some(w) => format!(
                "a `for` loop that checks an error, leaves on success and waits (`{}`)",
                super::one_line(ctx.text(w))
            ),
            None if requeue => "a `for .. range` over a channel that puts a failed item back on \
                                 that channel (`if err != nil { queue <- item }`): it comes round again"
                .to_string(),
            None => "a `for` loop that leaves on success and goes round at once on an error \
                     (`if err != nil { continue }`)"
                .to_string(),
        });
        let randomised = own
            .iter()
            .any(|c| matches!(ctx.pkg_call(*c), Some((Pkg::Rand, _))));
        let arg = wait.and_then(|w| super::args(w).first().copied());
        let grown = arg.and_then(|a| growth::growing(ctx, n, &own, a));
        let delay = match (grown, arg.and_then(|a| eval::duration(ctx, a))) {
            (Some(g), _) => g,
            (None, Some(d)) if d.is_zero() => Delay::None,
            (None, Some(d)) => Delay::Fixed { delay: d },
            (None, None) if wait.is_none() => Delay::None,
            (None, None) => Delay::Custom,
        };
        let wspan = wait.map_or(at, span);
        p.delay = Located::written(delay, wspan);
        p.jitter = Located::written(
            if randomised {
                Jitter::Unknown
            } else {
                Jitter::None
            },
            wspan,
        );
        // `backoff = min(backoff*2 + jitter, maxBackoff)`: the jitter is
        // added before the cap, so waits at the cap are all the cap. Read
        // as the one-sided share it is: [d, d x (1 + share)).
        if randomised
            && matches!(p.delay.value, Delay::Exponential { cap: Some(_), .. })
            && let Some(share) = arg.and_then(|a| growth::jitter_before_cap(ctx, &own, a))
        {
            p.jitter.value = Jitter::Added { factor: share };
            p.cap_order = CapOrder::AfterJitter;
        }
        // `time.Sleep(b.Duration())` with `b` a jpillora/backoff counter.
        if let Some(w) = arg.and_then(|a| super::libs::jpillora::wait(ctx, a)) {
            p.delay = Located::written(w.delay, w.at);
            p.jitter = Located::written(w.jitter, w.at);
            p.cap_order = w.cap_order;
        }
        p.retry_on = statuses_tested.unwrap_or_else(|| Located::default_at(RetryOn::Unknown, at));
        // Errors sorted on the error path (`if ne.Timeout() { continue }`):
        // only those go round (issue 28, GitHub 2023).
        if p.retry_on.value == RetryOn::Unknown
            && let Some(on) = sorted_errors(ctx, &own)
        {
            p.retry_on = on;
        }
        // The method of the call the loop repeats (`http.MethodPost`,
        // `client.Post(..)`), for RL103.
        if let Some(m) = crate::extract::http_method::of_call(ctx.src, span(body)) {
            p.methods = m;
        }
        p.server_delay = server_delay(ctx, body, &own);
        p.scope.detached = in_unwaited_goroutine(ctx, n);
        let i = facts.policies.len();
        facts.policies.push(p);
        scopes.push(RetryScope {
            policy: i,
            start: body.start_byte(),
            end: body.end_byte(),
            via_call: false,
        });
    }
}

/// What a loop's error path retries when every `continue` on it lies under
/// a test that sorts the error: a timeout (`ne.Timeout()`,
/// `os.IsTimeout(err)`, `errors.Is(err, context.DeadlineExceeded)`) or
/// gRPC codes (`status.Code(err) == codes.Unavailable`); the other errors
/// leave. `None` when a `continue` goes round for every error, or a test
/// is of something else.
fn sorted_errors(ctx: &Ctx<'_>, own: &[Node<'_>]) -> Option<Located<RetryOn>> {
    use crate::model::Condition;
    let mut conditions = Vec::new();
    let rounds: Vec<Node<'_>> = own
        .iter()
        .copied()
        .filter(|c| c.kind_name() == "continue_statement" && on_error_path(ctx, *c))
        .collect();
    if rounds.is_empty() {
        return None;
    }
    for r in rounds {
        // The innermost `if` holding the `continue`, below the loop.
        let mut cur = r.parent();
        let mut test = None;
        for _ in 0..64 {
            let Some(c) = cur else { break };
            if c.kind_name() == "for_statement" || c.kind_name() == "func_literal" {
                break;
            }
            if c.kind_name() == "if_statement" {
                test = field(c, "condition");
                break;
            }
            cur = c.parent();
        }
        let cond = test?;
        let t = ctx.text(cond);
        if let Some(codes) = crate::extract::grpc_code_test::codes(t) {
            conditions.extend(
                codes
                    .into_iter()
                    .map(|c| Located::written(Condition::Grpc(c), span(cond))),
            );
        } else if t.contains(".Timeout()")
            || t.contains("IsTimeout(")
            || t.contains("DeadlineExceeded")
        {
            conditions.push(Located::written(
                Condition::Transport("timeout".into()),
                span(cond),
            ));
        } else {
            return None;
        }
    }
    let at = conditions.first()?.span;
    Some(Located::written(RetryOn::Listed { conditions }, at))
}

/// A `continue` inside an `if err != nil` block of the loop's own.
fn goes_round_on_error(ctx: &Ctx<'_>, lp: Node<'_>, own: &[Node<'_>]) -> bool {
    own.iter().any(|c| {
        c.kind_name() == "continue_statement" && continues(ctx, *c, lp) && on_error_path(ctx, *c)
    })
}

/// Whether `continue` goes round the loop `lp`: it has no label, or
/// `lp`'s. `continue kindsLoop` of an outer loop leaves this one
/// (open-policy-agent/gatekeeper dd8507eb97 `pkg/audit/manager.go`: a
/// failed page of a listing goes on to the next kind).
fn continues(ctx: &Ctx<'_>, c: Node<'_>, lp: Node<'_>) -> bool {
    let Some(label) = named_children(c).into_iter().next() else {
        return true;
    };
    lp.parent()
        .filter(|p| p.kind_name() == "labeled_statement")
        .and_then(|p| field(p, "label"))
        .is_some_and(|l| ctx.text(l) == ctx.text(label))
}

/// A loop that waits without `time.Sleep`: a `select` or a channel
/// receive (an event or ticker loop: the `continue` takes the next event),
/// or a call named like a wait (`backoff.Wait()`, `b.NextBackOff()`,
/// `pause(..)`).
fn waits_elsewhere(ctx: &Ctx<'_>, own: &[Node<'_>]) -> bool {
    own.iter().any(|c| match c.kind_name() {
        "select_statement" | "receive_statement" => true,
        "unary_expression" => field(*c, "operator").is_some_and(|o| ctx.text(o) == "<-"),
        "call_expression" => field(*c, "function").is_some_and(|f| {
            let name = match f.kind_name() {
                "selector_expression" => field(f, "field").map_or("", |x| ctx.text(x)),
                _ => ctx.text(f),
            }
            .to_ascii_lowercase();
            ["wait", "sleep", "backoff", "pause", "delay"]
                .iter()
                .any(|w| name.contains(w))
        }),
        _ => false,
    })
}

/// A call that leaves the process: a method call (`client.Get(..)`,
/// `conn.Do(..)`) or a call of a package other than the standard
/// library's local ones (time, fmt, os, strconv, math, rand, uuid).
fn sends(ctx: &Ctx<'_>, own: &[Node<'_>]) -> bool {
    own.iter().any(|c| {
        c.kind_name() == "call_expression"
            && field(*c, "function").is_some_and(|f| f.kind_name() == "selector_expression")
            && !matches!(
                ctx.pkg_call(*c),
                Some((
                    Pkg::Time
                        | Pkg::Fmt
                        | Pkg::Os
                        | Pkg::Strconv
                        | Pkg::Math
                        | Pkg::Rand
                        | Pkg::Uuid,
                    _
                ))
            )
    })
}

/// Whether `n` is inside an `if err != nil` block, or an `if` that tests
/// an error's gRPC code (`status.Code(err) == codes.Unavailable`, `st.Code()
/// == codes.ResourceExhausted` after `st, _ := status.FromError(err)`):
/// written after `if err == nil { return }`, that test is the error path
/// too (issue 28).
fn on_error_path(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    let (mut from, mut cur) = (n, n.parent());
    for _ in 0..64 {
        let Some(c) = cur else { return false };
        match c.kind_name() {
            "for_statement" | "func_literal" => return false,
            // The `else` of `if err != nil` is the path with no error
            // (`if err != nil {..} else if bad(resp) {..} else { break }`).
            "if_statement"
                if field(c, "alternative").is_none_or(|a| a.id() != from.id())
                    && field(c, "condition").is_some_and(|k| {
                        let t = ctx.text(k);
                        t.contains("err != nil")
                            || crate::extract::grpc_code_test::codes(t).is_some()
                    }) =>
            {
                return true;
            }
            _ => {}
        }
        (from, cur) = (c, c.parent());
    }
    false
}

/// A `select` case receiving from a channel whose body returns or
/// breaks out of the loop `lp` by its label (`case <-cancel: break
/// loop`, goharbor/harbor c50c7ddd6e's `TestTCPConn`, whose caller sends
/// on `cancel` when its `time.After(timeout)` fires; a plain `break`
/// leaves only the `select`).
fn has_deadline_case(ctx: &Ctx<'_>, lp: Node<'_>, own: &[Node<'_>]) -> bool {
    let label = lp
        .parent()
        .filter(|p| p.kind() == "labeled_statement")
        .and_then(|p| field(p, "label"))
        .map(|l| ctx.text(l));
    let leaves = |s: Node<'_>| match s.kind() {
        "return_statement" => true,
        "break_statement" => {
            label.is_some_and(|l| named_children(s).first().is_some_and(|b| ctx.text(*b) == l))
        }
        _ => false,
    };
    own.iter().any(|c| {
        c.kind_name() == "communication_case"
            && ctx.text(*c).trim_start().starts_with("case <-")
            && named_children(*c)
                .iter()
                .filter(|s| s.kind_name() == "statement_list")
                .flat_map(|s| named_children(*s))
                .any(leaves)
    })
}

/// A loop run by a goroutine nobody waits on (`go func(..) { for .. }
/// (..)` whose body sends on no channel and signals no `WaitGroup`):
/// the caller has returned, so no caller's time bounds the attempts
/// (goharbor/harbor c50c7ddd6e's background tag of a pulled artifact,
/// `repoproxy/proxy.go`).
fn in_unwaited_goroutine(ctx: &Ctx<'_>, lp: Node<'_>) -> bool {
    let mut cur = lp.parent();
    for _ in 0..64 {
        let Some(c) = cur else { return false };
        if c.kind() == "func_literal" {
            let go = c
                .parent()
                .filter(|p| p.kind() == "call_expression")
                .and_then(|p| p.parent())
                .is_some_and(|g| g.kind() == "go_statement");
            return go && !signals(ctx, c, 0);
        }
        if matches!(c.kind(), "function_declaration" | "method_declaration") {
            return false;
        }
        cur = c.parent();
    }
    false
}

/// Whether a goroutine's body hands anything back: a channel send or a
/// `.Done()` call (a `WaitGroup`); deeper than the bound, it may.
fn signals(ctx: &Ctx<'_>, n: Node<'_>, depth: usize) -> bool {
    if depth > super::MAX_DEPTH * 4 {
        return true;
    }
    match n.kind() {
        "send_statement" => true,
        "call_expression"
            if field(n, "function").is_some_and(|f| {
                f.kind() == "selector_expression"
                    && field(f, "field").is_some_and(|x| ctx.text(x) == "Done")
            }) =>
        {
            true
        }
        _ => named_children(n)
            .into_iter()
            .any(|k| signals(ctx, k, depth + 1)),
    }
}

/// Whether a range clause names two values (`k, v := range m`).
fn ranges_pairs(h: Node<'_>) -> bool {
    field(h, "left").is_some_and(|l| named_children(l).len() >= 2)
}

/// The count of `for i := range 3` / `for range maxTries` (Go 1.22's
/// range over an integer): `None` when the range is not a number.
fn range_count(ctx: &Ctx<'_>, h: Node<'_>) -> Option<u64> {
    eval::count(ctx, field(h, "right")?)
}

/// `i < 5`, `i <= n`, `attempt < maxRetries`: the loop's bound.
fn bound(ctx: &Ctx<'_>, c: Node<'_>, start: u64) -> AttemptCount {
    if c.kind_name() != "binary_expression" {
        return AttemptCount::Unknown;
    }
    let (Some(op), Some(r)) = (field(c, "operator"), field(c, "right")) else {
        return AttemptCount::Unknown;
    };
    match (ctx.text(op), eval::count(ctx, r)) {
        ("<", Some(n)) => AttemptCount::Finite(n.saturating_sub(start)),
        ("<=", Some(n)) => AttemptCount::Finite(n.saturating_add(1).saturating_sub(start)),
        _ => AttemptCount::Unknown,
    }
}

/// The first value of the counter a `for` clause's condition tests: the
/// number its initializer gives it (`attempt := 1; attempt <= 4` makes 4
/// attempts, issue 28, fleetd #14757), else 0.
fn start(ctx: &Ctx<'_>, clause: Node<'_>, cond: Node<'_>) -> u64 {
    let Some(var) = field(cond, "left").filter(|l| l.kind_name() == "identifier") else {
        return 0;
    };
    let Some(init) =
        field(clause, "initializer").filter(|i| i.kind_name() == "short_var_declaration")
    else {
        return 0;
    };
    match (field(init, "left"), field(init, "right")) {
        (Some(l), Some(r)) if ctx.text(l) == ctx.text(var) => {
            let r = named_children(r).into_iter().next().unwrap_or(r);
            eval::count(ctx, r).unwrap_or(0)
        }
        _ => 0,
    }
}

/// A wait taken from a server's header in the loop's own code.
fn server_delay(ctx: &Ctx<'_>, body: Node<'_>, own: &[Node<'_>]) -> Option<Located<ServerDelay>> {
    let lower = ctx.text(body).to_ascii_lowercase();
    let header = SERVER_DELAY_HEADERS
        .iter()
        .find(|h| lower.contains(&format!("\"{h}\"")))?;
    let lit = own.iter().copied().find(|c| {
        c.kind_name() == "interpreted_string_literal"
            && ctx.text(*c).to_ascii_lowercase() == format!("\"{header}\"")
    })?;
    let after = &lower[lit.end_byte().saturating_sub(body.start_byte())..];
    let capped = after.contains("min(") || after.contains("math.min") || has_cap_check(after);
    let jittered = after.contains("rand.");
    Some(Located::written(
        ServerDelay {
            header: ctx.text(lit).trim_matches('"').to_string(),
            capped,
            jittered,
            by: "a hand-written loop".into(),
            ignored: None,
        },
        span(lit),
    ))
}

/// `if wait > maxWait {` in the text: the loop bounds the wait.
fn has_cap_check(text: &str) -> bool {
    text.match_indices("if ").any(|(i, _)| {
        let line = text[i..].split(['{', '\n']).next().unwrap_or("");
        line.contains(" > ") && line.contains("max")
    })
}

/// The response statuses a loop retries (issue 28), from its `if` tests
/// (`if resp.StatusCode >= 500 { continue }`, `if resp.StatusCode ==
/// http.StatusOK { return }`) and `switch resp.StatusCode` cases, with
/// the errors it checks beside them (a predicate the reader does not
/// sort); `None` when the loop tests no status.
fn statuses(ctx: &Ctx<'_>, own: &[Node<'_>]) -> Option<Located<RetryOn>> {
    use crate::extract::status_test::{self, Statuses, Test};
    use crate::model::Condition;
    // A branch leaves when the loop's own `return`/`break` lies in it and
    // no `continue` does.
    let has = |b: Node<'_>, kinds: &[&str]| {
        own.iter().any(|c| {
            kinds.contains(&c.kind_name())
                && b.start_byte() <= c.start_byte()
                && c.end_byte() <= b.end_byte()
        })
    };
    let leaves = |b: Node<'_>| {
        has(b, &["return_statement", "break_statement"]) && !has(b, &["continue_statement"])
    };
    let mut tests = Vec::new();
    for &c in own {
        match c.kind_name() {
            "if_statement" => {
                let Some(cond) = field(c, "condition") else {
                    continue;
                };
                let Some(holds) = status_test::holds_for(ctx.text(cond)) else {
                    continue;
                };
                let Some(then) = field(c, "consequence") else {
                    continue;
                };
                let else_round = field(c, "alternative")
                    .filter(|a| a.kind_name() == "block")
                    .map(|a| !leaves(a));
                tests.push(Test {
                    holds,
                    then_round: !leaves(then),
                    else_round,
                    at: span(cond),
                });
            }
            "expression_switch_statement" => {
                let Some(v) = field(c, "value") else {
                    continue;
                };
                if status_test::holds_for(&format!("{} == 200", ctx.text(v))).is_none() {
                    continue;
                }
                let mut listed = Statuses::none();
                let mut default = None;
                for case in named_children(c) {
                    match case.kind_name() {
                        "expression_case" => {
                            let Some(vals) = field(case, "value") else {
                                continue;
                            };
                            let Some(holds) =
                                status_test::pattern(&ctx.text(vals).replace(',', "|"))
                            else {
                                continue;
                            };
                            listed = listed.union(&holds);
                            tests.push(Test {
                                holds,
                                then_round: !leaves(case),
                                else_round: None,
                                at: span(vals),
                            });
                        }
                        "default_case" => default = Some(case),
                        _ => {}
                    }
                }
                if let Some(d) = default {
                    tests.push(Test {
                        holds: listed.not(),
                        then_round: !leaves(d),
                        else_round: None,
                        at: span(d),
                    });
                }
            }
            _ => {}
        }
    }
    let parts = status_test::retried(&tests);
    let at = parts.first()?.1;
    let mut conditions = status_test::conditions_at(&parts);
    conditions.push(Located::written(Condition::Predicate, at));
    Some(Located::written(RetryOn::Listed { conditions }, at))
}

/// `for x := range ch { .. if err != nil { ch <- x } }`: the send on the
/// error path that puts the loop's own item back on the channel it ranges
/// over. Another channel (a dead-letter queue) or another value (new work)
/// is not a retry.
fn requeues<'a>(ctx: &Ctx<'a>, lp: Node<'a>, h: Node<'a>) -> Option<Node<'a>> {
    let ch = field(h, "right")?;
    let vars: Vec<&str> = field(h, "left")
        .map(|l| {
            let mut v = vec![ctx.text(l)];
            v.extend(named_children(l).into_iter().map(|c| ctx.text(c)));
            v
        })
        .unwrap_or_default();
    let body = field(lp, "body")?;
    // A send is written `ch <- v`: a body without the arrow sends
    // nothing (most range loops; the walk below was a quarter to a third
    // of the loop reader on envoyproxy/gateway d32f2829's
    // `controller.go` and `securitypolicy.go`).
    if !ctx.text(body).contains("<-") {
        return None;
    }
    let mut stack = vec![body];
    let mut seen = 0usize;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 20_000 {
            return None;
        }
        if n.kind_name() == "func_literal"
            || (n.kind_name() == "for_statement" && n.id() != lp.id())
        {
            continue;
        }
        if n.kind_name() == "send_statement"
            && field(n, "channel").is_some_and(|c| ctx.text(c) == ctx.text(ch))
            && field(n, "value").is_some_and(|v| vars.contains(&ctx.text(v)))
            && on_error_path(ctx, n)
        {
            return Some(n);
        }
        stack.extend(named_children(n));
    }
    None
}
