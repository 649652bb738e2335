//! A retry loop's delay: the `sleep(..)` in its body.

use super::*;

impl LoopFinder<'_, '_, '_, '_, '_> {
    pub(super) fn delay(&self, body: &Block, before: &[&Stmt]) -> (DelayT, bool) {
        let spans = self.ev.spans;
        struct Sleeps<'x> {
            out: Vec<&'x Expr>,
        }
        impl<'x> Visit<'x> for Sleeps<'x> {
            fn visit_item(&mut self, _: &'x Item) {}
            // A closure's or a spawned task's sleep is that code's own
            // (`tokio::spawn(async move { loop { .. sleep(1s) } })`), not
            // the retry's; an async block awaited in place is the loop's.
            fn visit_expr_closure(&mut self, _: &'x syn::ExprClosure) {}
            fn visit_expr_async(&mut self, _: &'x syn::ExprAsync) {}
            fn visit_expr_await(&mut self, a: &'x syn::ExprAwait) {
                if let Expr::Async(b) = &*a.base {
                    self.visit_block(&b.block);
                } else {
                    syn::visit::visit_expr_await(self, a);
                }
            }
            fn visit_expr_call(&mut self, c: &'x syn::ExprCall) {
                if let Expr::Path(p) = &*c.func
                    && p.path.segments.last().is_some_and(|s| s.ident == "sleep")
                    && let Some(a) = c.args.first()
                {
                    self.out.push(a);
                }
                syn::visit::visit_expr_call(self, c);
            }
        }
        let mut s = Sleeps { out: Vec::new() };
        s.visit_block(body);
        let Some(arg) = s.out.first() else {
            // A delay computed elsewhere (`state.sleep_backoff(b)`).
            let t = spans.block_text(body);
            // A timer's delay (`timer.delay(now + interval)`, `Delay::new`).
            if t.contains("sleep")
                || t.contains(".delay(")
                || t.contains("Delay::new(")
                || delegates(t)
                || self.own_fn_sleeps(t)
                || awaits_backoff(&crate::systems::rust::extract::squash(t))
                || awaits_progress(&crate::systems::rust::extract::squash(t))
            {
                return (
                    DelayT::Custom {
                        span: spans.block(body),
                    },
                    false,
                );
            }
            return (DelayT::None, false);
        };
        let arg_text = spans.text(*arg);
        let body_text = spans.block_text(body);
        let rand_words = ["rand", "jitter", "random", "fastrand"];
        let randomised = rand_words.iter().any(|w| arg_text.contains(w));
        let span = spans.node(*arg);
        // Duration::from_*(x)
        if let Expr::Call(c) = arg
            && let Expr::Path(p) = &*c.func
            && p.path.segments.len() >= 2
            && p.path
                .segments
                .iter()
                .rev()
                .nth(1)
                .is_some_and(|s| s.ident == "Duration")
            && let Some(x) = c.args.first()
        {
            let unit = match p
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .as_deref()
            {
                Some("from_secs") => 1.0,
                Some("from_millis") => 1e-3,
                Some("from_micros") => 1e-6,
                Some("from_nanos") => 1e-9,
                _ => 0.0,
            };
            let n = self.num(x);
            if unit > 0.0 && !matches!(n, Num::Unknown) {
                return (
                    DelayT::Fixed {
                        value: n,
                        unit,
                        span,
                    },
                    randomised,
                );
            }
            return (
                DelayT::Custom { span },
                randomised || body_text.contains("rand"),
            );
        }
        // A variable: fixed unless the loop grows it.
        if let Expr::Path(p) = arg
            && let Some(id) = p.path.get_ident()
        {
            let name = id.to_string();
            let bt = crate::systems::rust::extract::squash(body_text);
            let growth = growth(&bt, &name);
            let grows = growth.is_some();
            let var_rand = randomised
                || bt
                    .lines()
                    .any(|l| l.contains(&name) && rand_words.iter().any(|w| l.contains(w)));
            for st in before.iter().rev() {
                if let Stmt::Local(l) = st
                    && pat_ident(&l.pat).as_deref() == Some(&name)
                    && let Some(init) = &l.init
                {
                    let v = self.ev.eval_pub(&init.expr, &mut ());
                    if let Some(d) = v {
                        if grows {
                            let (mult, cap_text) = growth.unwrap_or((2.0, None));
                            let cap = cap_text.and_then(|c| self.duration_of(&c, before));
                            return (
                                DelayT::Exponential {
                                    base: d,
                                    multiplier: mult,
                                    cap,
                                    span,
                                },
                                var_rand,
                            );
                        }
                        return (
                            DelayT::Fixed {
                                value: Num::Const((d.as_secs_f64() * 1e9) as i128),
                                unit: 1e-9,
                                span,
                            },
                            var_rand,
                        );
                    }
                }
            }
            // A constant of the file (`sleep(RETRY_INTERVAL)`, declared
            // anywhere in it, before or after the function).
            if !grows && let Some(d) = self.ev.eval_pub(arg, &mut ()) {
                return (
                    DelayT::Fixed {
                        value: Num::Const((d.as_secs_f64() * 1e9) as i128),
                        unit: 1e-9,
                        span,
                    },
                    var_rand,
                );
            }
            return (DelayT::Custom { span }, var_rand);
        }
        (
            DelayT::Custom { span },
            randomised || body_text.contains("rand"),
        )
    }
}

/// A loop condition that awaits the next tick of a retry timer
/// (`while retry_timer.next().await.is_some()`, `while let Some(_) =
/// backoff.next().await`): the stream sleeps before it yields, so each pass
/// waits there (rustfs `RetryTimer`, a `Stream` whose `poll_next` ticks an
/// interval of doubling, jittered length, twenty-fifth pass). The
/// receiver, or the type of the `let` that built it, is named for a timer,
/// a back-off or an interval.
pub(super) fn cond_waits(spans: &Spans<'_>, cond: Option<&Expr>, before: &[&Stmt]) -> bool {
    let Some(c) = cond else { return false };
    let t = crate::systems::rust::extract::squash(spans.text(c));
    let waits = |w: &str| {
        let w = w.to_ascii_lowercase();
        ["timer", "backoff", "interval", "ticker"]
            .iter()
            .any(|x| w.contains(x))
    };
    [".next().await", ".tick().await"].iter().any(|call| {
        t.match_indices(call).take(4).any(|(i, _)| {
            let recv =
                crate::extract::calls::lex::trailing(&t[..i], |c| c.is_alphanumeric() || c == '_');
            !recv.is_empty()
                && (waits(recv) || before.iter().rev().take(64).any(|s| {
                    matches!(s, Stmt::Local(l)
                    if pat_ident(&l.pat).as_deref() == Some(recv)
                        && l.init.as_ref().is_some_and(|i| {
                            matches!(&*i.expr, Expr::Call(c)
                                if matches!(&*c.func, Expr::Path(p)
                                    if p.path.segments.iter().any(|s| waits(&s.ident.to_string()))))
                        }))
                }))
        })
    })
}

/// What a loop hands its bound and delay to: a retry object's method.
const DELEGATES: &[&str] = &[
    "should_retry(",
    "next_backoff(",
    "backoff.next(",
    "retry_after(",
    "policy.retry(",
];

/// A helper named for a back-off, awaited (`exponential_backoff(attempt,
/// base, max, &cancel).await`): it waits, for as long as it computes.
/// `compact` has no whitespace.
pub(super) fn awaits_backoff(compact: &str) -> bool {
    let b = compact.as_bytes();
    // (or a name going on from it: `backoff_and_wait(&mut b).await`)
    let calls = compact.match_indices("backoff").filter_map(|(i, _)| {
        let rest = &compact[i..];
        let name = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        rest[name..]
            .starts_with('(')
            .then(|| (i, &rest[..name + 1]))
    });
    calls.into_iter().any(|(i, w)| {
        let mut depth = 0usize;
        for (j, &c) in b.iter().enumerate().skip(i + w.len() - 1).take(512) {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return compact[j + 1..].starts_with(".await");
                    }
                }
                _ => {}
            }
        }
        false
    })
}

/// A wait for progress before going round (`self.pending.await_one_delivery().await?`,
/// `.wait_for_capacity(..).await`): backpressure, the next pass comes when
/// something outstanding completed (risingwave's Kafka sink on
/// `QueueFull`). `compact` has no whitespace.
pub(super) fn awaits_progress(compact: &str) -> bool {
    [".await_", ".wait_for", ".wait_until"].iter().any(|w| {
        compact.match_indices(w).any(|(i, _)| {
            let rest = &compact[i + 1..];
            let name_end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            rest[name_end..].starts_with("()") && rest[name_end + 2..].starts_with(".await")
                || rest[name_end..].starts_with('(')
                    && rest[name_end..]
                        .find(')')
                        .is_some_and(|j| rest[name_end + j + 1..].starts_with(".await"))
        })
    })
}

impl LoopFinder<'_, '_, '_, '_, '_> {
    /// The loop calls a short function of this file whose body sleeps at
    /// its top level (`self.retry_delay().await` with `async fn
    /// retry_delay(&self) { sleep(self.options().l1_retry_delay).await }`:
    /// EspressoSystems espresso-sequencer `L1Client`, nineteenth pass,
    /// unseen); a sleep nested in the work a function does is not a wait
    /// between attempts (shadowsocks-rust's hedged `lookup_remote_inner`).
    /// One level, at most 16 functions read.
    pub(super) fn own_fn_sleeps(&self, loop_text: &str) -> bool {
        let code = super::reach::without_strings(loop_text);
        let mut budget = 16usize;
        super::readiness::called_names(&code)
            .into_iter()
            .any(|name| {
                name != self.fname
                    && self.bodies.iter().filter(|(n, ..)| n == name).take(4).any(
                        |(_, _, block, _)| {
                            if budget == 0 {
                                return false;
                            }
                            budget -= 1;
                            block.stmts.len() <= 4 && block.stmts.iter().any(sleep_stmt)
                        },
                    )
            })
    }
}

/// A statement that is a sleep: `sleep(d).await;`, `thread::sleep(d);`.
fn sleep_stmt(s: &Stmt) -> bool {
    let Stmt::Expr(e, _) = s else { return false };
    let e = match e {
        Expr::Await(a) => &*a.base,
        e => e,
    };
    matches!(e, Expr::Call(c) if matches!(&*c.func, Expr::Path(p)
        if p.path.segments.last().is_some_and(|x| x.ident == "sleep")))
}

/// Whether a loop leaves its delay to a retry object
/// (`state.should_retry(..)`, `backoff.next()`).
fn delegates(body: &str) -> bool {
    let t = crate::systems::rust::extract::squash(body);
    DELEGATES.iter().any(|w| t.contains(w))
}

/// Whether a loop leaves its bound to a retry object: a call of
/// [`DELEGATES`] whose "no more" can end the loop. One unwrapped
/// (`backoff.next().unwrap()`, `.expect("always returns some value")`)
/// cannot: the loop asks for a delay it assumes is always there, and stops
/// only on success (vector's `connect_backoff` loops retry for ever).
pub(super) fn delegates_bound(body: &str) -> bool {
    let t = crate::systems::rust::extract::squash(body);
    DELEGATES.iter().any(|w| {
        t.match_indices(w).any(|(i, _)| {
            let rest = &t[i + w.len()..];
            // The call's closing parenthesis (no nested calls in these).
            let after = rest.find(')').map_or("", |j| &rest[j + 1..]);
            ![".unwrap()", ".expect(", ".unwrap_or"]
                .iter()
                .any(|u| after.starts_with(u))
        })
    })
}

/// How the loop grows the delay variable `name`, in the body's text
/// without spaces: `name *= 2`, `name = name * 2`, `name = (name *
/// 2).min(max)`, `name = min(name * 2, max)`, `name = name.saturating_mul(2)`;
/// the multiplier (2 when unread) and the cap as written.
fn growth(compact: &str, name: &str) -> Option<(f64, Option<String>)> {
    if compact.contains(&format!("{name}*=")) {
        return Some((
            multiplier_in(compact, &format!("{name}*=")).unwrap_or(2.0),
            None,
        ));
    }
    let key = format!("{name}=");
    for (i, _) in compact.match_indices(&key) {
        // Not `==`, `<=`, `>=`, `!=` and not a longer name.
        let prev = compact[..i].chars().next_back();
        if prev.is_some_and(|c| c.is_alphanumeric() || "_.=<>!".contains(c))
            || compact[i + key.len()..].starts_with('=')
        {
            continue;
        }
        let rhs = &compact[i + key.len()..];
        let stmt = &rhs[..rhs.find(';').unwrap_or(rhs.len())];
        let mul = [
            format!("{name}*"),
            format!("{name}.saturating_mul("),
            format!("{name}.checked_mul("),
            format!("{name}.mul_f64("),
            format!("{name}.mul_f32("),
        ]
        .into_iter()
        .find(|k| stmt.contains(k.as_str()));
        let Some(k) = mul else { continue };
        let mult = multiplier_in(stmt, &k).unwrap_or(2.0);
        let cap = stmt
            .find(".min(")
            .map(|j| &stmt[j + 5..])
            .or_else(|| {
                // `min(name * 2, max)`: the argument after the comma.
                stmt.starts_with("min(")
                    .then_some(stmt)
                    .or_else(|| stmt.find("::min(").map(|j| &stmt[j..]))
                    .and_then(|s| s.rfind(',').map(|j| &s[j + 1..]))
            })
            .map(|c| {
                let mut depth = 0i32;
                c.chars()
                    .take_while(|ch| {
                        match ch {
                            '(' => depth += 1,
                            ')' if depth == 0 => return false,
                            ')' => depth -= 1,
                            _ => {}
                        }
                        true
                    })
                    .collect::<String>()
            });
        return Some((mult, cap));
    }
    None
}

impl LoopFinder<'_, '_, '_, '_, '_> {
    /// A duration written as text: a local bound before the loop, a
    /// constant, or a `Duration::from_*` call.
    fn duration_of(&self, text: &str, before: &[&Stmt]) -> Option<Duration> {
        for st in before.iter().rev() {
            if let Stmt::Local(l) = st
                && pat_ident(&l.pat).as_deref() == Some(text)
                && let Some(init) = &l.init
            {
                return self.ev.eval_pub(&init.expr, &mut ());
            }
        }
        let e: Expr = syn::parse_str(text).ok()?;
        self.ev.eval_pub(&e, &mut ())
    }
}

pub(super) fn multiplier_in(compact: &str, key: &str) -> Option<f64> {
    let i = compact.find(key)? + key.len();
    let num: String = compact[i..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    num.parse().ok()
}
