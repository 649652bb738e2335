//! Whether a loop is a retry loop.

use super::*;

impl LoopFinder<'_, '_, '_, '_, '_> {
    /// Read one loop. Not a retry loop: `Err(None)` when it neither waits
    /// nor says it retries (not worth a note), `Err(Some(why))` when it
    /// looked like one.
    pub(super) fn analyze(&self, e: &Expr, before: &[&Stmt]) -> Result<LoopT, Option<String>> {
        let spans = self.ev.spans;
        let (body, head_span, range, cond): (&Block, Span, Option<&Expr>, Option<&Expr>) = match e {
            Expr::Loop(l) => (
                &l.body,
                l.label.as_ref().map_or(spans.node(&l.loop_token), |x| {
                    spans.node(&x.name).cover(spans.node(&l.loop_token))
                }),
                None,
                None,
            ),
            Expr::While(w) => (
                &w.body,
                spans.node(&w.while_token).cover(spans.node(&*w.cond)),
                None,
                Some(&*w.cond),
            ),
            Expr::ForLoop(f) => (
                &f.body,
                spans.node(&f.for_token).cover(spans.node(&*f.expr)),
                Some(peel_iter(&f.expr)),
                None,
            ),
            _ => return Err(None),
        };
        // From the head (and a loop's label) to the closing brace, without
        // turning the loop into tokens again.
        let span = head_span.cover(spans.block(body));
        // (Comments left out: code commented out, `//continue;`, is none.)
        let t: String = crate::systems::rust::extract::literals::without_comments(spans.text(body))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let compact = t.replace(' ', "");
        let sleeps = compact.contains("sleep(")
            || compact.contains(".delay(")
            || compact.contains("Delay::new(")
            || super::delay::awaits_backoff(&compact)
            || self.own_fn_sleeps(spans.block_text(body));
        let again = compact.contains("continue");
        // Without a sleep, only an async loop that says it retries is a
        // retry loop: compare-and-swap loops, parsers and `EINTR` loops go
        // round again at once on purpose.
        let whole = spans.slice(span).to_ascii_lowercase();
        let says_retry = ["retry", "retries", "attempt", "tries", "backoff"]
            .iter()
            .any(|w| whole.contains(w));
        let retries_io = again && says_retry && compact.contains(".await");
        if !(sleeps || retries_io) {
            return Err(None);
        }
        // A method of a type named for tests (`impl TestTemplate`, the
        // template of the test databases, `TestContext`): test support in a
        // library file, not the service's code (zksync-era's connection
        // pool, twenty-sixth pass).
        if let Some(ty) = self.impl_ty.filter(|t| {
            t.strip_prefix("Test")
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
        }) {
            return Err(Some(format!(
                "test support: a function of `{ty}`, a type named for tests, not the service's code"
            )));
        }
        if compact.contains("compare_exchange") {
            return Err(Some(
                "a compare-and-swap loop (`compare_exchange`): it goes round when another writer won, not after a failure".into(),
            ));
        }
        // A future's state machine (`fn poll_ready` looping over its states,
        // parking with `ready!(..)` or `Poll::Pending`): each pass moves the
        // state on, it does not repeat a call (vector's health-check circuit
        // breaker `poll_ready`: Open -> HalfOpen -> Closed).
        if (self.fname == "poll" || self.fname.starts_with("poll_"))
            && (compact.contains("ready!(") || compact.contains("Poll::Pending"))
        {
            return Err(Some(format!(
                "a future's state machine (`{}` parks with `ready!` or `Poll::Pending`): each pass moves the state on",
                self.fname
            )));
        }
        // Failing over: a failure asks for the leader or the next node and
        // the next pass goes there, not to the same one again.
        if [
            "ask_leader(",
            "redirect",
            "failover",
            "next_peer(",
            "next_node(",
            "exclude",
        ]
        .iter()
        .any(|w| compact.contains(w))
        {
            return Err(Some(
                "each pass goes to another node: a failure asks for the new leader or the next peer (failover)".into(),
            ));
        }
        // A redirect: with no wait, a failure that names the current leader
        // (`has_known_leader(&status) && attempt < MAX`) sends the request
        // there at once; the next pass goes to another node (restate's
        // metadata client).
        // So is one that drops the cached node it reached (`node_info
        // .invalidate(&key); continue`): the next pass resolves a new one
        // (neon's proxy after a stale-cache authentication failure).
        if !sleeps
            && (compact.to_ascii_lowercase().contains("leader") || compact.contains(".invalidate("))
        {
            return Err(Some(
                "each pass goes to another node at once: the leader the failure named, or a fresh one after the cached one was dropped (a redirect, failover), not the same call again".into(),
            ));
        }
        // A prompt: each pass asks the user again (a wrong password, an
        // invalid mnemonic), it calls no service (lighthouse's account
        // manager).
        if PROMPT_WORDS.iter().any(|w| compact.contains(w)) {
            return Err(Some(
                "a prompt: each pass reads new input from the user (stdin, a password prompt), it repeats no call to a service".into(),
            ));
        }
        // A queue consumer: the attempt is a receive from a channel (with a
        // timeout that runs periodic work), each pass takes new work.
        let receives = body.stmts.iter().any(|s| {
            matches!(s, Stmt::Expr(Expr::Match(m), _)
                if text_of_compact(spans, &m.expr).contains(".recv()"))
        });
        if receives {
            return Err(Some(
                "a queue consumer: each pass receives new work from a channel".into(),
            ));
        }
        // A stream's read loop (`#[try_stream]`): a success `yield`s its
        // item and goes round for the next one; it is a consumer, not a
        // retry (risingwave's Kinesis reader).
        if yields(body) {
            return Err(Some(
                "a stream's read loop: a success `yield`s an item and goes round for the next"
                    .into(),
            ));
        }
        // A flag set before going round and handed to the next pass's call
        // (`force_refresh = true; continue;` .. `token(force_refresh)`): the
        // next pass asks differently (a re-authentication), it does not
        // repeat the same call.
        if let Some(flag) = changed_input(before, &t, &compact) {
            return Err(Some(format!(
                "each pass asks differently: `{flag}` is set before going round and handed to the next pass's call (a refresh or re-authentication)"
            )));
        }
        // A wait for a change: each pass waits (often under a `timeout`,
        // whose `Err` is time elapsed, not a failure) for a watch's next
        // value or a notification, then tests the state (risingwave
        // `wait_for_update`).
        let waits_change = body.stmts.iter().any(|s| {
            matches!(s, Stmt::Expr(Expr::Match(m), _)
                if { let t = text_of_compact(spans, &m.expr); t.contains(".changed()") || t.contains(".notified()") })
        });
        if waits_change {
            return Err(Some(
                "a wait for a change: each pass waits for a watch's next value or a notification (`changed()`, `notified()`), it repeats no failed call".into(),
            ));
        }
        // A failure that goes round again, and a way out on success.
        let guard_text = |g: &Expr| super::shape_words::guard_with_callees(spans, self.bodies, g);
        let mut shape = shape::shape(spans, body, cond, &guard_text);
        // A `bool` result that is tested and leaves on `true` in a loop that
        // says it retries: `false` is the failure, and it goes round. What
        // makes it `false` is the callee's to say (a predicate).
        let bool_result = says_retry && bool_result_exit(body);
        if bool_result && !shape.retries_err {
            shape.retries_err = true;
            shape.success_exit = true;
            shape.classified = true;
        }
        // A walk: the path that goes round moves on to the next number or
        // offset it hands the call (`next_number += 1; continue`).
        if let Some(var) = super::walks::walk_var(spans, body, cond) {
            return Err(Some(format!(
                "a walk, not a retry: the pass that goes round moves `{var}` on and the next pass asks for that one (iteration over numbers or offsets)"
            )));
        }
        // Failover over a list of candidates: each pass takes others from
        // it and the loop ends when none is left.
        if let Some(list) = super::walks::candidates_used_up(spans, body) {
            return Err(Some(format!(
                "failover: each pass takes other candidates from `{list}` and the loop ends when none is left, it does not repeat the same call"
            )));
        }
        if !sleeps && let Some(w) = super::walks::fresh_connection(spans, body) {
            return Err(Some(format!(
                "a stale pooled connection replaced: the pass goes round at once only when the connection was `{w}` (closed by the peer), and the next pass takes a fresh one"
            )));
        }
        if let Some(why) = not_retry(&shape) {
            return Err(Some(why.into()));
        }
        // A wait for a value to appear: the pass that goes round found
        // nothing yet (`Ok(None)`, `Err(NotFound)`), and the loop's own
        // words are not a retry's, or nothing else goes round (every other
        // failure leaves: a `..._RETRY_INTERVAL` does not make it a retry).
        if shape.awaits_value
            && (shape.only_missing_round
                || !super::walks::retry_vocabulary(self.fname, spans.slice(span)))
        {
            return Err(Some(
                "a wait for a value to appear: the pass that goes round is the one where the call found nothing yet (`Ok(None)`, an error named not found), and the loop's own names are a wait's, not a retry's".into(),
            ));
        }
        // What each pass attempts is local work (the file system, a local
        // process, a local or Unix-domain socket): it cannot leave the
        // process, so it is no retry of a remote operation (`reach.rs`).
        if let Some(op) =
            super::reach::local_attempt(spans, body, cond).or_else(|| self.local_callee(body, cond))
        {
            return Err(Some(format!(
                "local work: what each pass attempts ({op}) does not leave the process (the file system, a local process, a local or Unix-domain socket), so no server is retried"
            )));
        }
        // A socket of this host reached another way than by the attempt's
        // own name (a helper, a closure, an address made before the loop,
        // the file's Unix connector), or only a not-ready error going
        // round: a readiness wait (`readiness.rs`).
        let cx = super::remote::Cx {
            spans,
            bodies: self.bodies,
            imports: self.imports,
            fname: self.fname,
            fn_span: self.fn_span,
            fn_start: self.fn_start,
            ipc_module: self.ev.ipc_module,
        };
        if !self.fname.is_empty()
            && let Some(w) =
                super::readiness::local_socket(&cx, e, before).or_else(|| self.field_socket(e))
        {
            return Err(Some(format!(
                "a readiness wait on this host: the attempt reaches a Unix-domain or vsock socket ({w}), whose peer is a process on this machine not listening yet, so no server is retried"
            )));
        }
        if !self.fname.is_empty()
            && let Some(peer) = super::readiness::names_local_peer(spans, e)
        {
            return Err(Some(format!(
                "a readiness wait on this host: the loop's own message names its peer local (`{peer}`), a process on this machine, so no server is retried"
            )));
        }
        if !self.fname.is_empty()
            && let Some(phrase) = super::local_waits::says_not_ready(spans, e)
        {
            return Err(Some(format!(
                "a readiness wait: the loop's own message says its peer is `{phrase}`, each pass asks whether it has come up, it does not repeat a failed operation"
            )));
        }
        if let Some(guard) = super::readiness::polls_state(spans, body) {
            return Err(Some(format!(
                "a poll for a state: only a success in one state leaves (`{guard}`) and every other answer, a success in another state included, goes round"
            )));
        }
        if shape.classified
            && let Some(id) = super::readiness::only_not_ready(spans, e)
        {
            return Err(Some(format!(
                "a readiness wait: the failures are sorted and only a not-ready error (`{id}`) goes round, so each pass asks whether a service has come up, it does not repeat a failed operation"
            )));
        }
        // A lock of this host, a yes-or-no probe, a deletion waited for
        // (`local_waits.rs`).
        if shape.classified
            && let Some(w) = super::local_waits::only_sqlite_busy(spans, e)
        {
            return Err(Some(format!(
                "a wait for a lock on this host: the failures are sorted and only SQLite's busy lock (`{w}`) goes round, another connection of this machine holds the database file, nothing remote failed"
            )));
        }
        if super::local_waits::only_out_of_memory(spans, e) {
            return Err(Some(
                "a wait for memory on this host: the loop names only `ErrorKind::OutOfMemory` as a failure, a local resource, so launching again retries no remote service".into(),
            ));
        }
        let signature = spans
            .source()
            .get(self.fn_span.start.min(self.fn_start)..self.fn_start)
            .unwrap_or("");
        if let Some(call) = super::local_waits::probe(spans, signature, body) {
            return Err(Some(format!(
                "a probe: each pass only asks whether the peer answers (`{call}` tested with `.is_ok()`, success answers `true` or is recorded in a flag), no operation's result or error is handed on"
            )));
        }
        if let Some(guard) = spans
            .source()
            .get(self.fn_start.min(span.start)..span.start)
            .and_then(|before| super::local_waits::waits_for_deletion(spans, before, body))
        {
            return Err(Some(format!(
                "a wait for a deletion: the function deletes the resource before the loop and only a conflict (`{guard}`) goes round while its name is still taken, every other failure leaves"
            )));
        }
        // A wait, read from the loop's function (`waits.rs`): a function
        // named for waiting, or one that reaches a loopback host, waits for
        // a state or for a process on this machine.
        // (Not when a pass connects: a connection that failed, made again,
        // is a retry whatever the function is called: `wait_for_db`.)
        if let Some(w) = super::waits::named_for_waiting(self.fname)
            && !super::waits::connects(&compact)
        {
            return Err(Some(format!(
                "a wait: the function is named for waiting (`{}`, the word `{w}`), each pass asks whether a state was reached (a node up, a transaction confirmed), it does not retry a failed operation",
                self.fname
            )));
        }
        if let Some(host) = spans
            .source()
            .get(self.fn_start.min(span.end)..span.end)
            .and_then(super::waits::loopback)
        {
            return Err(Some(format!(
                "a wait for a local process: the function reaches a loopback host (`{host}`), a process on this machine (a dev server, a local node), so no remote service is retried"
            )));
        }
        if let Some(spawn) = spans
            .source()
            .get(self.fn_start.min(span.start)..span.start)
            .and_then(super::waits::spawns_process)
        {
            return Err(Some(format!(
                "a wait for a local process: the function starts one before the loop (`{spawn}`) and each pass asks whether it answers yet, so no remote service is retried"
            )));
        }
        // Fallback over a shrinking list of candidates, at once: each pass
        // tries another one (`while !candidates.is_empty()` taking from it).
        if !sleeps
            && let Some(c) = cond
            && let Some(list) = super::waits::candidate_list(c, &compact)
        {
            return Err(Some(format!(
                "fallback: each pass tries another candidate from `{list}` (taken from the list, with no wait), not the same call again"
            )));
        }
        // `for x in items` is iteration over work, not a retry; unless the
        // items are the attempts: a schedule of delays or timeouts each
        // pass waits (`for d in [Some(1s), Some(3s), None]`, `for (attempt,
        // t) in policy.timeouts().enumerate()`).
        let schedule = match e {
            Expr::ForLoop(f) => is_schedule(&f.pat, &compact),
            _ => false,
        };
        if let Some(r) = range
            && !matches!(r, Expr::Range(_))
            && !schedule
        {
            return Err(Some(
                "a loop over items (`for x in ..` over a collection or stream), not over attempts"
                    .into(),
            ));
        }
        // A guard on the error is a predicate; a guard on the attempt
        // counter is the bound.
        let counter_names: Vec<String> = counters(&t).into_iter().map(|(n, _)| n).collect();
        let guard_on_error = ["Err(e)if", "Err(refe)if", "Err(err)if", "Err(error)if"]
            .iter()
            .any(|g| {
                compact.match_indices(g).any(|(i, _)| {
                    let after = &compact[i + g.len()..];
                    !counter_names.iter().any(|n| after.starts_with(n.as_str()))
                })
            });
        let predicate = PREDICATE_WORDS.iter().any(|w| sorts_by_word(&compact, w))
            || guard_on_error
            || shape.classified
            || shape.only_statuses;
        let range_var = match e {
            Expr::ForLoop(f) => pat_ident(&f.pat),
            _ => None,
        };
        let attempts = self.bound(body, before, head_span, range, cond, range_var);
        let (delay, randomised) = match (self.delay(body, before), cond) {
            ((DelayT::None, _), Some(c)) if super::delay::cond_waits(spans, cond, before) => (
                DelayT::Custom {
                    span: spans.node(c),
                },
                false,
            ),
            (d, _) => d,
        };
        let mut why = vec![
            "a failure goes round again (an `Err` arm, `if let Err` or a failure status that does not leave) and success leaves the loop".to_string(),
        ];
        why.push(if predicate {
            "failures are sorted: some kinds or statuses leave, others go round".to_string()
        } else {
            "every failure goes round again: no error or status test leaves".to_string()
        });
        // Positive evidence that the attempt leaves the process
        // (`remote.rs`): an attempt nothing classifies is not remote. (A
        // retry macro's arm, read with no function around it, runs the
        // expression each call site hands it: a retry helper.)
        why.push(if self.fname.is_empty() {
            "a retry macro: each pass runs the expression its call site hands it".to_string()
        } else {
            format!(
                "the attempt reaches another machine: {}",
                super::remote::evidence(&cx, e, body, cond, before).map_err(Some)?
            )
        });
        let statuses = statuses::retried(self.ev, body);
        Ok(LoopT {
            statuses: statuses
                .iter()
                .flat_map(|(s, at)| s.ranges().into_iter().map(|(a, b)| (a, b, *at)))
                .collect(),
            why,
            attempts,
            delay,
            randomised,
            predicate,
            span,
            has_timeout: compact.contains("timeout("),
            conflict: if predicate {
                super::bounds_arms::conflict_only(spans, body, &guard_text)
            } else {
                None
            },
        })
    }
}

/// Calls that read what a user types (compact text).
const PROMPT_WORDS: &[&str] = &[
    "read_password",
    "read_input_from_user",
    "prompt_password",
    "stdin().read_line(",
    "stdin.read_line(",
    "dialoguer::",
    "inquire::",
    // (a prompt builder: `Password::new().with_prompt(..).interact()`)
    ".with_prompt(",
];

/// Why a loop of this shape is not a retry loop, if it is not one.
fn not_retry(shape: &shape::Shape) -> Option<&'static str> {
    if shape.polls {
        Some(
            "a wait for a state, not a retry of an operation: a non-blocking take (`try_lock`, `try_recv`, `try_unwrap`..) that fails, a check answering `Ok(false)`, or a status still `Pending` goes round",
        )
    } else if shape.capacity_wait {
        Some(
            "a wait for local capacity: the only failure that goes round is a full local queue or too few free slots (`QueueFull`, `NotEnoughSlots`, `Full`, `WouldBlock`), and nothing remote is asked on that path",
        )
    } else if shape.local_send {
        Some(
            "a send on an in-process channel (`tx.send(..)`, not awaited) whose receiver ended: nothing remote failed, the next pass sends to a new receiver",
        )
    } else if shape.success_stays {
        Some(
            "success goes round again (an `Ok` arm that does not leave, or leaves only when the work it ran says stop): a service loop or supervisor",
        )
    } else if !shape.retries_err {
        Some(
            "no failure goes round again: every `Err` leaves the loop (pagination, an update retried only on a conflict, a wait)",
        )
    } else if !shape.success_exit {
        Some("no way out on success: a watch, heartbeat or polling loop")
    } else {
        None
    }
}

fn text_of_compact(spans: &Spans<'_>, e: &Expr) -> String {
    spans.text(e).split_whitespace().collect()
}

/// `if attempt().await { return; }` at the top of the body: a `bool`
/// result where `true` is success and `false` goes round. Calls that read
/// a state (`is_ready()`, `has_..`, `check_..`) or try to take something
/// are polls, not attempts.
fn bool_result_exit(body: &Block) -> bool {
    body.stmts.iter().any(|s| {
        let Stmt::Expr(Expr::If(i), _) = s else {
            return false;
        };
        if i.else_branch.is_some() || !shape::block_leaves(&i.then_branch) {
            return false;
        }
        let mut c = &*i.cond;
        if let Expr::Await(a) = c {
            c = &a.base;
        }
        // A test over what another call returned (`condition(check().await)`)
        // judges a state: a poll.
        let judges = |args: &syn::punctuated::Punctuated<Expr, syn::Token![,]>| {
            args.iter().any(|a| {
                struct A(bool);
                impl<'a> Visit<'a> for A {
                    fn visit_expr_await(&mut self, _: &'a syn::ExprAwait) {
                        self.0 = true;
                    }
                }
                let mut v = A(false);
                v.visit_expr(a);
                v.0
            })
        };
        match c {
            Expr::Call(call) if judges(&call.args) => return false,
            Expr::MethodCall(m) if judges(&m.args) => return false,
            _ => {}
        }
        let name = match c {
            Expr::Call(call) => match &*call.func {
                Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                _ => None,
            },
            Expr::MethodCall(m) => Some(m.method.to_string()),
            _ => None,
        };
        name.is_some_and(|n| {
            ![
                "is_",
                "has_",
                "check",
                "can_",
                "contains",
                "exists",
                "poll",
                "wait",
                "ready",
                "get",
                "try_",
                "peek",
                "condition",
                "predicate",
                "matches",
            ]
            .iter()
            .any(|p| n.starts_with(p))
                && !shape::is_poll_call(&n)
        })
    })
}

/// The collection under iterator adapters that keep its length
/// (`(0..3).with_position()`, `delays.iter().enumerate()`).
pub(super) fn peel_iter(e: &Expr) -> &Expr {
    let mut cur = e;
    for _ in 0..8 {
        match cur {
            Expr::Paren(p) => cur = &p.expr,
            Expr::Reference(r) => cur = &r.expr,
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && matches!(
                        m.method.to_string().as_str(),
                        "enumerate" | "with_position" | "iter" | "into_iter" | "copied" | "cloned"
                    ) =>
            {
                cur = &m.receiver
            }
            _ => break,
        }
    }
    cur
}

/// A `for` whose items are the attempts: a binding named for them
/// (`attempt`, `attempt_id`), named as a wait in a body that waits
/// (`retry_delay`, `timeout_duration`), or handed to a sleep or a timeout
/// (`sleep(d)`, `timeout(t, ..)`).
fn is_schedule(pat: &syn::Pat, compact: &str) -> bool {
    let mut names = Vec::new();
    fn walk(p: &syn::Pat, out: &mut Vec<String>) {
        match p {
            syn::Pat::Ident(i) => out.push(i.ident.to_string()),
            syn::Pat::Tuple(t) => t.elems.iter().for_each(|e| walk(e, out)),
            syn::Pat::Type(t) => walk(&t.pat, out),
            _ => {}
        }
    }
    walk(pat, &mut names);
    let waits = compact.contains("sleep(") || compact.contains("timeout(");
    names.iter().any(|n| {
        n.contains("attempt")
            || (waits
                && ["delay", "timeout", "backoff"]
                    .iter()
                    .any(|w| n.contains(w)))
            || ["sleep(", "timeout("].iter().any(|c| {
                compact.contains(&format!("{c}{n})")) || compact.contains(&format!("{c}{n},"))
            })
    })
}

/// Whether `word` in the loop sorts failures. A response status tested
/// only as the success exit (`if res.status().is_success() { break }`)
/// sorts nothing: every other status goes round.
fn sorts_by_word(compact: &str, word: &str) -> bool {
    let w = word.replace(' ', "");
    if w != "status()" {
        return compact.contains(&w);
    }
    compact
        .match_indices(&w)
        .any(|(i, _)| !compact[i + w.len()..].starts_with(".is_success()"))
}

/// A `let mut flag = false;` before the loop that the body sets
/// (`flag = true;`) and hands to a call that is not a sleep (`(flag)`,
/// `(flag,`, `,flag)`).
fn changed_input(before: &[&Stmt], spaced: &str, compact: &str) -> Option<String> {
    before.iter().find_map(|s| {
        let Stmt::Local(l) = s else { return None };
        let name = pat_ident(&l.pat)?;
        let init = l.init.as_ref()?;
        if !matches!(
            &*init.expr,
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Bool(_),
                ..
            })
        ) {
            return None;
        }
        // (in the spaced text: the compact one glues comments to code)
        let set = spaced.match_indices(name.as_str()).any(|(i, _)| {
            let rest = spaced[i + name.len()..].trim_start();
            !spaced[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.')
                && rest.strip_prefix('=').is_some_and(|r| {
                    let r = r.trim_start();
                    r.starts_with("true;") || r.starts_with("false;")
                })
        });
        let handed = [
            format!("({name})"),
            format!("({name},"),
            format!(",{name})"),
        ]
        .iter()
        .any(|h| {
            compact.match_indices(h.as_str()).any(|(i, _)| {
                let callee = crate::extract::calls::lex::trailing(&compact[..i], |c| {
                    c.is_alphanumeric() || c == '_'
                });
                !callee.is_empty() && !callee.contains("sleep") && callee != "Some"
            })
        });
        (set && handed).then_some(name)
    })
}

/// A `yield` of the body's own (not a word in a comment, not in a closure).
fn yields(body: &Block) -> bool {
    struct Y(bool);
    impl<'a> Visit<'a> for Y {
        fn visit_item(&mut self, _: &'a Item) {}
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_yield(&mut self, _: &'a syn::ExprYield) {
            self.0 = true;
        }
    }
    let mut y = Y(false);
    y.visit_block(body);
    y.0
}
