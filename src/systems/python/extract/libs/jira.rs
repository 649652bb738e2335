//! The `jira` client (pycontribs/jira): `JIRA(server, .., max_retries=3,
//! timeout=None)` sends every request through its `ResilientSession`,
//! which retries by itself: a client retry layer under every call the
//! program makes to Jira.
//!
//! pycontribs/jira, commit 4dfccbeab2f205bddc8365bc655b3d097579c250:
//! `jira/client.py` `JIRA.__init__` (`max_retries: int = 3`, `timeout:
//! .. = None`, `self._session.max_retries = max_retries`) and
//! `jira/resilientsession.py` `ResilientSession.request` (`while
//! retry_number <= self.max_retries`: `max_retries` retries after the
//! first try) and `__recoverable`: a `ConnectionError` waits `10 x
//! 2^counter` s (counter from 1: 20 s, 40 s, ..), a `429` the same or
//! twice its `Retry-After`, a `503` only twice its `Retry-After` (without
//! one it is not retried); each wait is `min(max_retry_delay, d) x
//! random.uniform(0.5, 1.0)` with `max_retry_delay = 60`. Every method
//! goes round, a POST included.

use super::super::{Args, Ctx, callee, span};
use crate::model::backoff::ServerDelay;
use crate::model::*;
use std::time::Duration;
use tree_sitter::Node;

/// `JIRA.__init__`'s `max_retries: int = 3`: retries after the first try.
const MAX_RETRIES: u64 = 3;
/// `10 x 2^1` s: the first wait before the jitter.
const FIRST_WAIT: Duration = Duration::from_secs(20);
/// `ResilientSession.__init__`'s `max_retry_delay: int = 60`.
const MAX_RETRY_DELAY: Duration = Duration::from_secs(60);

/// Whether the call builds a `jira` client (`JIRA(..)`, `jira.JIRA(..)`).
pub(crate) fn is_client(ctx: &Ctx<'_>, call: Node<'_>) -> bool {
    let (full, last) = callee(ctx, call);
    ctx.imports("jira") && last == "JIRA" && (full == "JIRA" || full == "jira.JIRA")
}

/// The retry policy of the client built at `call`.
pub(crate) fn client_policy(ctx: &Ctx<'_>, call: Node<'_>) -> RetryPolicy {
    let at = span(call);
    let args = Args::of(ctx, call);
    let attempts = match args.kw("max_retries") {
        Some(m) => super::max_retries(ctx, m),
        None => Located::default_at(
            Attempts {
                count: AttemptCount::Finite(MAX_RETRIES + 1),
                written_as: format!(
                    "no max_retries: the client's default of {MAX_RETRIES} retries"
                ),
            },
            at,
        ),
    };
    let mut p = RetryPolicy::new(System::PythonLib("jira".into()), at, attempts);
    p.name = Some("JIRA(..)".into());
    // `min(60, 10 x 2^n) x uniform(0.5, 1)`: the band [0.5 d, d] around
    // 0.75 d, a third of it either side; the cap is taken before the
    // jitter.
    p.delay = Located::default_at(
        Delay::Exponential {
            base: FIRST_WAIT.mul_f64(0.75),
            multiplier: 2.0,
            cap: Some(MAX_RETRY_DELAY.mul_f64(0.75)),
        },
        at,
    );
    p.jitter = Located::default_at(Jitter::Proportional { factor: 1.0 / 3.0 }, at);
    p.cap_order = CapOrder::BeforeJitter;
    p.retry_on = Located::default_at(
        RetryOn::Listed {
            conditions: vec![
                Located::default_at(Condition::Transport("connection".into()), at),
                Located::default_at(Condition::Status { from: 429, to: 429 }, at),
                Located::default_at(Condition::Status { from: 503, to: 503 }, at),
            ],
        },
        at,
    );
    p.why
        .push("a `503` goes round only when it carries `Retry-After`".into());
    p.server_delay = Some(Located::default_at(
        ServerDelay {
            header: "Retry-After".into(),
            capped: true,
            jittered: true,
            by: "the jira client".into(),
            ignored: None,
        },
        at,
    ));
    p.per_try_timeout = Some(match args.kw("timeout") {
        Some(t) => super::super::timeout_at(ctx, t),
        None => Located::default_at(Timeout::Disabled, at),
    });
    p
}
