//! A Java retry loop's wait: the sleep in its body (or in a helper method
//! of the same class), its growth and randomness.

use super::*;

pub(super) fn is_random(t: &str) -> bool {
    t.contains("random")
        || t.contains("Random")
        || t.contains("nextInt")
        || t.contains("nextLong")
        || t.contains("nextDouble")
}

/// The wait between attempts.
pub(super) fn wait(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    own: &[Node<'_>],
    header: Span,
) -> (Located<Delay>, Located<Jitter>) {
    const MS: Duration = Duration::from_millis(1);
    for &d in own {
        if d.kind_str() != "method_invocation" {
            continue;
        }
        let name = field(d, "name").map_or("", |x| ctx.text(x));
        let obj = ctx.name_of(field(d, "object"));
        let args = field(d, "arguments")
            .map(|x| ctx.named_children(x))
            .unwrap_or_default();
        // A retry object's own wait (`retryPolicy.retryWaitMilli(true)`,
        // x-pipe's `RetryNTimes`): it sleeps for as long as it decides.
        if is_retry_object_wait(name) {
            let s = span(d);
            return (
                Located::written(Delay::Custom, s),
                Located::written(Jitter::Unknown, s),
            );
        }
        // A retry object's decision that waits before it answers:
        // `retryPolicy.retry(e)` inside a `try` that catches
        // `InterruptedException` (hyracks-util's `IRetryPolicy.retry`
        // "throws InterruptedException"; its `ExponentialRetryPolicy` sleeps
        // a random time up to a growing delay before answering true).
        if is_retry_object_name(obj)
            && !name.starts_with("get")
            && !name.starts_with("set")
            && interrupt_caught_around(ctx, d, lp)
        {
            let s = span(d);
            return (
                Located::written(Delay::Custom, s),
                Located::written(Jitter::Unknown, s),
            );
        }
        let (unit, arg) = match (ast::last_segment(obj), name) {
            ("Thread", "sleep") => (MS, args.first().copied()),
            (u, "sleep") if ast::time_unit(u).is_some() => {
                (ast::time_unit(u).unwrap_or(MS), args.first().copied())
            }
            ("LockSupport", "parkNanos") => (Duration::from_nanos(1), args.last().copied()),
            // Also imported statically: `sleepUninterruptibly(3, SECONDS)`,
            // and a project's own helper handed a unit
            // (`ThreadUtils.sleep(1, TimeUnit.SECONDS)`).
            (_, n)
                if args.len() == 2
                    && (n == "sleepUninterruptibly"
                        || (is_sleep_name(n)
                            && n != "wait"
                            && ast::time_unit(ctx.text(args[1])).is_some())) =>
            {
                (
                    args.get(1)
                        .and_then(|u| ast::time_unit(ctx.text(*u)))
                        .unwrap_or(MS),
                    args.first().copied(),
                )
            }
            (_, "wait") if args.len() == 1 => (MS, args.first().copied()),
            // `Unsafe.park(false, nanos)`.
            (_, "park") if args.len() == 2 => (Duration::from_nanos(1), args.last().copied()),
            // The unit first: `ThreadUtils.sleep(TimeUnit.SECONDS, 5)`.
            (_, n)
                if args.len() == 2
                    && is_sleep_name(n)
                    && n != "wait"
                    && ast::time_unit(ctx.text(args[0])).is_some() =>
            {
                (
                    ast::time_unit(ctx.text(args[0])).unwrap_or(MS),
                    args.get(1).copied(),
                )
            }
            (_, n) if is_sleep_name(n) && n != "wait" => (MS, args.first().copied()),
            _ => continue,
        };
        let s = span(d);
        let Some(arg) = arg else {
            return (
                Located::written(Delay::Custom, s),
                Located::written(Jitter::Unknown, s),
            );
        };
        return delay_of(ctx, lp, own, arg, unit, s);
    }
    // A method of this class that sleeps (`retryDelay(attempt)`).
    if let Some(call) = helpers::sleeping_call(ctx, own) {
        let s = span(call);
        return (
            Located::written(Delay::Custom, s),
            Located::written(Jitter::Unknown, s),
        );
    }
    // An inner `while` that waits for a state before the attempt
    // (`while (transport == null) { mutex.wait(100); .. }`): the pass waits,
    // for as long as that takes.
    let inner_wait = field(lp, "body")
        .map(|b| {
            ctx.descendants_until(b, |n| {
                matches!(
                    n.kind_str(),
                    "lambda_expression" | "class_body" | "method_declaration"
                ) || (n.kind_str() != "while_statement" && LOOPS.contains(&n.kind_str()))
            })
        })
        .unwrap_or_default()
        .into_iter()
        .filter(|d| d.kind_str() == "while_statement")
        .flat_map(|w| {
            field(w, "body")
                .map(|b| own_nodes(ctx, b))
                .unwrap_or_default()
        })
        .find(|d| {
            d.kind_str() == "method_invocation"
                && field(*d, "name").is_some_and(|n| {
                    let n = ctx.text(n);
                    n == "sleep" || n == "wait" || n == "await" || n == "parkNanos"
                })
                && field(*d, "arguments").is_some_and(|a| !ctx.named_children(a).is_empty())
        });
    if let Some(call) = inner_wait {
        let s = span(call);
        return (
            Located::written(Delay::Custom, s),
            Located::written(Jitter::Unknown, s),
        );
    }
    (
        Located::default_at(Delay::None, header),
        Located::default_at(Jitter::None, header),
    )
}

/// A method named for waiting before a retry (`retryWaitMilli`,
/// `waitForRetry`, `retryWait`); not a getter of the delay
/// (`getRetryWaitMillis()`, which a sleep is handed).
fn is_retry_object_wait(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.contains("retr") && l.contains("wait") && !l.starts_with("get") && !l.starts_with("set")
}

/// A receiver named for a retry or backoff object (`retryPolicy`,
/// `retryer`, `backoff`), its last segment.
fn is_retry_object_name(obj: &str) -> bool {
    let l = ast::last_segment(obj).to_ascii_lowercase();
    l.contains("retr") || l.contains("backoff")
}

/// Whether `call` sits in the body of a `try` (inside the loop `lp`) that
/// catches `InterruptedException`: the call blocks, a wait.
fn interrupt_caught_around(ctx: &Ctx<'_>, call: Node<'_>, lp: Node<'_>) -> bool {
    let mut cur = call;
    for _ in 0..16 {
        let Some(par) = ctx.parent(cur) else {
            return false;
        };
        if par.id() == lp.id() {
            return false;
        }
        if par.kind_str() == "try_statement"
            && field(par, "body").is_some_and(|b| ast::within(call, b))
            && ctx
                .named_children(par)
                .into_iter()
                .filter(|c| c.kind_str() == "catch_clause")
                .any(|c| {
                    catch_types(ctx, c)
                        .iter()
                        .any(|(t, _)| ast::last_segment(t) == "InterruptedException")
                })
        {
            return true;
        }
        cur = par;
    }
    false
}

pub(super) fn delay_of(
    ctx: &Ctx<'_>,
    lp: Node<'_>,
    own: &[Node<'_>],
    arg: Node<'_>,
    unit: Duration,
    s: Span,
) -> (Located<Delay>, Located<Jitter>) {
    let arg = ast::unwrap_expr(arg);
    let t = ctx.text(arg);
    // A variable: look at what the loop does to it.
    let (var, var_updates): (Option<&str>, Vec<Node<'_>>) = if arg.kind_str() == "identifier" {
        let name = ctx.text(arg);
        let ups = own
            .iter()
            .copied()
            .filter(|d| {
                d.kind_str() == "assignment_expression"
                    && field(*d, "left").is_some_and(|l| ctx.text(l) == name)
            })
            .collect();
        (Some(name), ups)
    } else {
        (None, Vec::new())
    };
    let upd_text: String = var_updates
        .iter()
        .map(|u| ctx.text(*u))
        .collect::<Vec<_>>()
        .join(";");
    let init_text = var
        .and_then(|v| ctx.var(v, lp))
        .and_then(|v| v.value)
        .map_or("", |v| ctx.text(v));
    let random =
        is_random(t) || is_random(&upd_text) || (var_updates.is_empty() && is_random(init_text));
    let jitter = if !random {
        Jitter::None
    } else if arg.kind_str() == "method_invocation" && is_random(t) {
        Jitter::Full
    } else if t.contains('+') {
        Jitter::Additive
    } else {
        Jitter::Unknown
    };
    let jitter = Located::written(jitter, s);
    // Exponential growth written in place: `base * Math.pow(2, attempt)`,
    // `base << attempt`, `1L << attempt`.
    if t.contains("Math.pow") || t.contains("<<") {
        let base = exp_base(ctx, arg).and_then(|b| ast::scale(unit, b as f64));
        let mult = pow_base(ctx, arg).unwrap_or(2.0);
        let d = match base {
            Some(base) => Delay::Exponential {
                base,
                multiplier: mult,
                cap: None,
            },
            None => Delay::Custom,
        };
        return (Located::written(d, s), jitter);
    }
    if let Some(v) = var
        && !var_updates.is_empty()
    {
        // `delay *= 2`, `delay = delay * 2`, `delay <<= 1`,
        // `delay = Math.min(delay * 2, MAX)`.
        let mut mult = None;
        let mut cap = None;
        for u in &var_updates {
            let op = field(*u, "operator").map_or("", |o| ctx.text(o));
            let Some(r) = field(*u, "right") else {
                continue;
            };
            match op {
                "*=" => mult = ctx.float(r),
                "<<=" => {
                    mult = ctx
                        .int(r)
                        .filter(|x| (0..32).contains(x))
                        .map(|x| (1u64 << x) as f64)
                }
                "=" => {
                    let rt = ctx.text(r);
                    if let Some((m, c)) = growth(ctx, r, v) {
                        mult = Some(m);
                        cap = c.and_then(|c| ast::scale(unit, c as f64));
                    } else if rt.contains(v) && rt.contains('*') {
                        mult = None;
                    }
                }
                _ => {}
            }
        }
        let base = ctx
            .var(v, lp)
            .and_then(|x| x.value)
            .and_then(|x| ctx.int(x))
            .and_then(|b| ast::scale(unit, b as f64));
        let d = match (mult, base) {
            (Some(multiplier), Some(base)) if multiplier > 1.0 => Delay::Exponential {
                base,
                multiplier,
                cap,
            },
            _ => Delay::Custom,
        };
        return (Located::written(d, s), jitter);
    }
    if let Some(n) = ctx.int(arg) {
        let d = ast::scale(unit, n.max(0) as f64)
            .map_or(Delay::Unknown, |delay| Delay::Fixed { delay });
        return (Located::written(d, s), jitter);
    }
    if arg.kind_str() == "method_invocation"
        && let Some(d) = ctx.duration(arg, unit)
    {
        return (Located::written(Delay::Fixed { delay: d }, s), jitter);
    }
    // Grows with the attempt (`attempt * 1000`) or is computed elsewhere.
    let d = if arg.kind_str() == "binary_expression" || arg.kind_str() == "method_invocation" {
        Delay::Custom
    } else {
        Delay::Unknown
    };
    (Located::written(d, s), jitter)
}

/// `Math.min(v * k, cap)` or `v * k`: (k, cap).
pub(super) fn growth(ctx: &Ctx<'_>, r: Node<'_>, v: &str) -> Option<(f64, Option<i128>)> {
    let r = ast::unwrap_expr(r);
    if r.kind_str() == "method_invocation" && field(r, "name").is_some_and(|n| ctx.text(n) == "min")
    {
        let args = field(r, "arguments")
            .map(|x| ctx.named_children(x))
            .unwrap_or_default();
        for (i, a) in args.iter().enumerate() {
            if let Some((m, _)) = growth(ctx, *a, v) {
                let cap = args.get(1 - i.min(1)).and_then(|c| ctx.int(*c));
                return Some((m, cap));
            }
        }
        return None;
    }
    if r.kind_str() == "binary_expression" {
        let op = field(r, "operator").map_or("", |o| ctx.text(o));
        let l = ast::unwrap_expr(field(r, "left")?);
        let rr = ast::unwrap_expr(field(r, "right")?);
        let k = if ctx.text(l) == v {
            rr
        } else if ctx.text(rr) == v {
            l
        } else {
            return None;
        };
        return match op {
            "*" => ctx.float(k).map(|m| (m, None)),
            "<<" => ctx
                .int(k)
                .filter(|x| (0..32).contains(x))
                .map(|x| ((1u64 << x) as f64, None)),
            _ => None,
        };
    }
    None
}

/// The constant factor in `base * Math.pow(..)` / `base << n`.
pub(super) fn exp_base(ctx: &Ctx<'_>, e: Node<'_>) -> Option<i128> {
    let e = ast::unwrap_expr(e);
    if e.kind_str() != "binary_expression" {
        return None;
    }
    let op = field(e, "operator").map_or("", |o| ctx.text(o));
    let l = field(e, "left")?;
    let r = field(e, "right")?;
    match op {
        "<<" => ctx.int(l),
        "*" => ctx.int(l).or_else(|| ctx.int(r)),
        _ => None,
    }
}

/// The `2` of `Math.pow(2, n)`.
pub(super) fn pow_base(ctx: &Ctx<'_>, e: Node<'_>) -> Option<f64> {
    for d in ctx.descendants(e) {
        if d.kind_str() == "method_invocation"
            && field(d, "name").is_some_and(|n| ctx.text(n) == "pow")
        {
            let args = field(d, "arguments")
                .map(|x| ctx.named_children(x))
                .unwrap_or_default();
            return args.first().and_then(|a| ctx.float(*a));
        }
    }
    None
}

/// The try block waits on a result with a timeout (`future.get(100,
/// MILLISECONDS)`, `latch.await(1, SECONDS)`) and only the timeout goes
/// round.
pub(super) fn waits_for_result(ctx: &Ctx<'_>, block: Node<'_>, retrying: &[Node<'_>]) -> bool {
    let only = |name: &str| {
        retrying.iter().all(|c| {
            let types = catch_types(ctx, *c);
            !types.is_empty() && types.iter().all(|(t, _)| ast::last_segment(t) == name)
        })
    };
    // A socket read whose timeout goes round (`read()` catching
    // `SocketTimeoutException`): waiting again for data.
    if only("SocketTimeoutException")
        && ctx.descendants_until(block, nested).into_iter().any(|d| {
            d.kind_str() == "method_invocation"
                && field(d, "name").is_some_and(|n| {
                    matches!(
                        ctx.text(n),
                        "read" | "readLine" | "readFully" | "receive" | "accept"
                    )
                })
        })
    {
        return true;
    }
    if only("TimeoutException")
        && ctx.descendants_until(block, nested).into_iter().any(|d| {
            d.kind_str() == "method_invocation"
                && field(d, "name").is_some_and(|n| matches!(ctx.text(n), "get" | "await" | "poll"))
                && field(d, "arguments").is_some_and(|a| ctx.named_children(a).len() == 2)
        })
    {
        return true;
    }
    // Only a timeout goes round (`TimeoutIOException`, ..) and the try
    // waits on a future it is handed or holds (`IOUtils.getFromFuture(future,
    // name, timeout)`, apache/ratis): the same future waited on again,
    // nothing sent again.
    let timeouts = retrying.iter().all(|c| {
        let types = catch_types(ctx, *c);
        !types.is_empty()
            && types.iter().all(|(t, _)| {
                let t = ast::last_segment(t);
                t.contains("Timeout") && t != "SocketTimeoutException"
            })
    });
    timeouts
        && ctx.descendants_until(block, nested).into_iter().any(|d| {
            d.kind_str() == "method_invocation"
                && [field(d, "object"), field(d, "arguments")]
                    .into_iter()
                    .flatten()
                    .flat_map(|x| ctx.descendants(x))
                    .any(|i| {
                        i.kind_str() == "identifier" && {
                            let name = ctx.text(i);
                            name.to_ascii_lowercase().contains("future")
                                || ctx.var(name, i).is_some_and(|v| {
                                    v.ty.contains("Future") || v.ty.contains("Promise")
                                })
                        }
                    })
        })
}

/// Whether a camelCase or snake_case name has `word` as one of its words.
fn has_word(name: &str, word: &str) -> bool {
    let mut words = Vec::new();
    let mut cur = String::new();
    for ch in name.chars() {
        if ch == '_' || ch == '.' {
            words.push(std::mem::take(&mut cur));
        } else if ch.is_uppercase() {
            words.push(std::mem::take(&mut cur));
            cur.push(ch.to_ascii_lowercase());
        } else {
            cur.push(ch);
        }
    }
    words.push(cur);
    words.iter().any(|w| w == word)
}

/// The try block takes a lock (`lock()`, `tryLock()`, `lockFile.lock()`,
/// `lockCreateStatement.execute()`): going round waits for the holder.
pub(super) fn takes_lock(ctx: &Ctx<'_>, block: Node<'_>) -> bool {
    ctx.descendants_until(block, nested).into_iter().any(|d| {
        d.kind_str() == "method_invocation"
            && (field(d, "name")
                .is_some_and(|n| matches!(ctx.text(n), "lock" | "tryLock" | "lockInterruptibly"))
                || field(d, "object")
                    .filter(|o| o.kind_str() == "identifier" || o.kind_str() == "field_access")
                    .is_some_and(|o| {
                        let t = ctx.text(o);
                        has_word(t, "lock") || has_word(t, "locker")
                    }))
    })
}

/// The try connects to this host (`"localhost:" + port`): a wait for a
/// server this process started to come up, not a retry against a shared
/// service (pinot `ZkStarter`).
pub(super) fn connects_locally(ctx: &Ctx<'_>, block: Node<'_>) -> bool {
    ctx.descendants_until(block, nested).into_iter().any(|d| {
        d.kind_str() == "string_literal" && {
            let t = ctx.text(d).trim_matches('"');
            t.starts_with("localhost") || t.starts_with("127.0.0.1")
        }
    })
}

/// The try connects (`sock.connect(addr, 5000)`) to a server this method
/// started before the loop (`zkRunner.start(dir, config)`, a `Process`
/// built and started): a readiness poll of its own daemon, not a retry
/// against a shared service (apache/giraph `ZooKeeperManager`, sixteenth
/// pass).
pub(super) fn polls_started_server(ctx: &Ctx<'_>, lp: Node<'_>, block: Node<'_>) -> bool {
    let connects = ctx.descendants_until(block, nested).into_iter().any(|d| {
        d.kind_str() == "method_invocation"
            && field(d, "name").is_some_and(|n| ctx.text(n) == "connect")
    });
    let Some((m, _)) = connects.then(|| ctx.enclosing_method(lp)).flatten() else {
        return false;
    };
    ctx.descendants_until(m, nested)
        .into_iter()
        .filter(|d| d.end_byte() <= lp.start_byte())
        .any(|d| {
            d.kind_str() == "method_invocation"
                && field(d, "name").is_some_and(|n| matches!(ctx.text(n), "start" | "exec"))
                && field(d, "object").is_some_and(|o| {
                    let t = ctx.text(o);
                    ["server", "runner", "process", "daemon"]
                        .iter()
                        .any(|w| has_word(t, w))
                        || t.contains("ProcessBuilder")
                        || t.contains("getRuntime")
                })
        })
}

/// The try waits, with a timeout, on something the loop did not make:
/// `future.get(1, SECONDS)` or `node.awaitDisabled(1, SECONDS)` on a
/// variable declared before the loop and not assigned in it. Each pass
/// waits on the same result or state again; nothing is sent again,
/// whatever goes round.
pub(super) fn waits_on_same(ctx: &Ctx<'_>, lp: Node<'_>, block: Node<'_>) -> bool {
    let assigned_in_loop = |name: &str| {
        ctx.descendants(lp).into_iter().any(|d| {
            (d.kind_str() == "assignment_expression"
                && field(d, "left").is_some_and(|l| ctx.text(l) == name))
                || (d.kind_str() == "variable_declarator"
                    && field(d, "name").is_some_and(|l| ctx.text(l) == name))
        })
    };
    ctx.descendants_until(block, nested).into_iter().any(|d| {
        if d.kind_str() != "method_invocation" {
            return false;
        }
        let name = field(d, "name").map_or("", |n| ctx.text(n));
        let args = field(d, "arguments").map_or(0, |a| ctx.named_children(a).len());
        let waits = (name == "get" && args == 2)
            || ((name.starts_with("await") || name.starts_with("waitFor")) && args >= 1);
        waits
            && field(d, "object").is_some_and(|o| {
                // Declared before the loop (a field, a parameter, a
                // local, an enhanced `for`'s element): not made anew.
                o.kind_str() == "identifier" && !assigned_in_loop(ctx.text(o))
            })
    })
}
