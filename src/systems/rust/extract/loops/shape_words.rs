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
