//! Words of the loop shape: shutdown tests, states still on their way,
//! `Ok(None)`/`Ok(false)`, non-blocking takes.

use syn::Pat;

/// A test of shutdown or cancellation (`cancel.is_cancelled()`,
/// `shutdown.is_triggered()`): the loop stops because it was told to.
pub(super) fn is_shutdown_test(cond: &str) -> bool {
    let t = cond.to_ascii_lowercase();
    [
        "cancel",
        "shutdown",
        "shutting_down",
        "is_stopped",
        "stopping",
    ]
    .iter()
    .any(|w| t.contains(w))
        // A stop signal's receiver read or awaited (`*stop_receiver.borrow()`,
        // `timeout(d, stop_rx.changed())`, `should_stop`): the word `stop`
        // in a name (zksync-era's proof senders, twenty-sixth pass).
        || cond
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|id| camel_words(id).iter().any(|w| w == "stop"))
}

/// A state that is still on its way (`CopyStatus::Pending`,
/// `State::InProgress`): an arm on it that goes round polls a state.
pub(super) fn in_progress(variant: &str) -> bool {
    matches!(
        variant,
        "Pending" | "InProgress" | "Running" | "NotReady" | "Waiting" | "Queued" | "Started"
    )
}

/// `Ok(None)` or `Ok(false)`: the call worked and said "nothing" (a
/// channel closed, a state not reached), not the attempt's success.
pub(super) fn ok_of_nothing(inner: Option<&Pat>) -> bool {
    match inner {
        Some(Pat::Ident(i)) => i.ident == "None",
        Some(Pat::Path(p)) => p.path.is_ident("None"),
        Some(Pat::Lit(l)) => matches!(&l.lit, syn::Lit::Bool(b) if !b.value),
        _ => false,
    }
}

/// Non-blocking takes: `try_` and one of these verbs. Their `Err` means
/// "not now", and a loop around one waits for a state.
const POLL_VERBS: &[&str] = &[
    "unwrap",
    "lock",
    "read",
    "write",
    "recv",
    "send",
    "acquire",
    "borrow",
    "reserve",
    "increment",
    "take",
    "pop",
    "claim",
];

pub(super) fn is_poll_call(name: &str) -> bool {
    name.strip_prefix("try_")
        .is_some_and(|rest| POLL_VERBS.iter().any(|v| rest.starts_with(v)))
        // Claiming what one holder may have (`claim_for_current_process`
        // on a PID file): its `Err` means "someone else has it".
        || name.starts_with("claim")
}

/// `None` as a pattern.
pub(super) fn none_pat(p: &Pat) -> bool {
    match p {
        Pat::Ident(i) => i.ident == "None" && i.subpat.is_none(),
        Pat::Path(p) => p.path.is_ident("None"),
        _ => false,
    }
}

/// The words of a `CamelCase` identifier (`UnprocessedBlock` -> `Unprocessed`,
/// `Block`).
fn camel_words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in name.chars() {
        if c == '_' {
            out.push(String::new());
            continue;
        }
        if c.is_ascii_uppercase() || out.is_empty() {
            out.push(String::new());
        }
        if let Some(w) = out.last_mut() {
            w.push(c.to_ascii_lowercase());
        }
    }
    out.retain(|w| !w.is_empty());
    out
}

/// An error variant saying the value is not there yet
/// (`UnprocessedBlock`, `NotYetAvailable`, `BlockPending`,
/// `Unconfirmed`): a wait, whatever else the loop does.
pub(super) fn not_yet_variant(name: &str) -> bool {
    let w = camel_words(name);
    w.iter().any(|x| {
        matches!(
            x.as_str(),
            "pending" | "unprocessed" | "unconfirmed" | "unfinalized" | "unsynced"
        )
    }) || w
        .windows(2)
        .any(|p| p[0] == "not" && matches!(p[1].as_str(), "yet" | "ready"))
}

/// A failure variant saying the attempt was called off, not that it failed
/// (`DialCancelled`, `Canceled`, `Interrupted`: another dial won a
/// tie-break, the caller dropped it): going round on it alone is no retry
/// of a failure, like `EINTR` (tari `outbound.rs`, stop 52).
pub(super) fn cancelled_variant(p: &Pat) -> bool {
    let path = match p {
        Pat::Path(p) => &p.path,
        Pat::TupleStruct(t) => &t.path,
        Pat::Struct(s) => &s.path,
        _ => return false,
    };
    path.segments.last().is_some_and(|s| {
        camel_words(&s.ident.to_string())
            .last()
            .is_some_and(|w| matches!(w.as_str(), "cancelled" | "canceled" | "interrupted"))
    })
}

/// An error pattern naming a value that is missing (`KeyNotFound(_)`,
/// `Error::NotFound`, `NoSuchKey`): a pass that goes round on it waits for
/// the value to appear.
pub(super) fn names_missing(spans: &super::Spans<'_>, p: &Pat) -> bool {
    let t = spans.text(p);
    t.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|id| {
            let w = camel_words(id);
            w.windows(2).any(|p| p[0] == "not" && p[1] == "found")
                || w.windows(3).any(|p| p[0] == "no" && p[1] == "such")
        })
}

/// An arm's guard asking whether the error says the value is missing
/// (`err.is_blob_not_available_to_read_error()`, `e.is_not_found()`,
/// `e.is_not_yet_written()`): what goes round waits for it to appear. A
/// service, server, host or node "not available" is an outage, not this.
pub(super) fn guard_names_missing(guard: &str) -> bool {
    guard
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|id| {
            let w = camel_words(id);
            let outage = w.iter().any(|x| {
                matches!(
                    x.as_str(),
                    "service" | "server" | "host" | "node" | "peer" | "endpoint" | "backend"
                )
            });
            w.windows(2).any(|p| {
                p[0] == "not"
                    && (p[1] == "found" || p[1] == "yet" || (p[1] == "available" && !outage))
            })
        })
}

/// A failure arm whose pattern names a local capacity condition (a full
/// queue, too few slots: `QueueFull`, `TrySendError::Full`,
/// `NotEnoughSlots`, `WouldBlock`, `NoCapacity`) and whose body asks
/// nothing remote (no call awaited but a sleep).
pub(super) fn capacity_arm(spans: &super::Spans<'_>, pat: &Pat, body: &syn::Expr) -> bool {
    let t = spans.text(pat);
    let names = t
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|id| {
            let w = camel_words(id);
            w.last().is_some_and(|l| l == "full")
                || w.first().is_some_and(|f| f == "not") && w.get(1).is_some_and(|x| x == "enough")
                || id == "WouldBlock"
                || w.windows(2).any(|p| p[0] == "no" && p[1] == "capacity")
        });
    if !names {
        return false;
    }
    let b: String = spans.text(body).split_whitespace().collect();
    b.split(';')
        .all(|stmt| !stmt.contains(".await") || stmt.contains("sleep("))
}

/// A match that sorts an attempt's outcome three ways by the variants of
/// a categorizing answer (not `Ok`/`Err`/`Some`/`None`: those are the
/// result and the policy): one arm leaves with success (`return Ok(..)`),
/// one leaves with a failure (`return Err(..)`, `bail!`), one goes round
/// (`Retryable(e) => errors.push(e)`, `NonRetryable(e) => return Err(..)`).
pub(super) fn sorts_outcome(spans: &super::Spans<'_>, m: &syn::ExprMatch) -> bool {
    if matches!(&*m.expr, syn::Expr::Tuple(_)) {
        return false;
    }
    // (a bare `Ok`/`Err`/`Some`/`None` is the result or the policy;
    // `Outcome::Ok(v)` is the categorizing answer's own)
    let own_path = |p: &syn::Path| {
        p.segments.len() > 1
            || p.segments.last().is_some_and(|s| {
                !matches!(s.ident.to_string().as_str(), "Ok" | "Err" | "Some" | "None")
            })
    };
    let own = |a: &syn::Arm| match &a.pat {
        Pat::TupleStruct(t) => own_path(&t.path),
        Pat::Path(p) => own_path(&p.path),
        Pat::Struct(s) => own_path(&s.path),
        Pat::Or(o) => match o.cases.first() {
            Some(Pat::TupleStruct(t)) => own_path(&t.path),
            Some(Pat::Path(p)) => own_path(&p.path),
            _ => false,
        },
        _ => false,
    };
    let body = |a: &syn::Arm| -> String { spans.text(&a.body).split_whitespace().collect() };
    let arms: Vec<&syn::Arm> = m.arms.iter().filter(|a| own(a)).collect();
    let leaves_with =
        |a: &syn::Arm, w: &str| super::shape_exits::leaves(&a.body) && body(a).contains(w);
    let ok = arms
        .iter()
        .any(|a| leaves_with(a, "returnOk(") && !leaves_with(a, "returnErr("));
    let err = arms
        .iter()
        .any(|a| leaves_with(a, "returnErr(") || leaves_with(a, "bail!"));
    let stays = arms.iter().any(|a| !super::shape_exits::leaves(&a.body));
    ok && err && stays
}

/// An arm guard's text followed by the bodies of the file's functions it
/// calls (`Err(e) if should_retry(&e, attempt)`, whose body is
/// `matches!(e, Error::ConfigNotFound) && attempt < MAX`): what the guard
/// asks is in its callee, one level, the function found by a name the file
/// declares once (rustfs's decommission resume and force-delete journal,
/// twenty-sixth pass).
pub(super) fn guard_with_callees(
    spans: &super::Spans<'_>,
    bodies: &[(String, Option<&str>, &syn::Block, super::Span)],
    guard: &syn::Expr,
) -> String {
    struct Calls(Vec<String>);
    impl<'a> syn::visit::Visit<'a> for Calls {
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
            if let syn::Expr::Path(p) = &*c.func {
                match super::segments(&p.path).as_slice() {
                    [f] => self.0.push(f.clone()),
                    [s, f] if s == "Self" => self.0.push(f.clone()),
                    _ => {}
                }
            }
            syn::visit::visit_expr_call(self, c);
        }
        fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
            if matches!(&*m.receiver, syn::Expr::Path(p) if p.path.is_ident("self")) {
                self.0.push(m.method.to_string());
            }
            syn::visit::visit_expr_method_call(self, m);
        }
    }
    let mut calls = Calls(Vec::new());
    syn::visit::Visit::visit_expr(&mut calls, guard);
    let mut out = spans.text(guard).to_string();
    for name in calls.0.iter().take(4) {
        let mut defs = bodies.iter().filter(|(n, ..)| n == name).take(2);
        if let (Some((_, _, block, _)), None) = (defs.next(), defs.next()) {
            out.push(' ');
            out.push_str(&crate::systems::rust::extract::literals::without_comments(
                spans.block_text(block),
            ));
        }
    }
    out
}
