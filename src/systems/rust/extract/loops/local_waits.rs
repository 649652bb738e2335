//! Loops that wait rather than retry, read in the nineteenth pass
//! (`docs/loop-review.md`):
//!
//! - **A lock held on this host.** The failures are sorted and the one
//!   that goes round is SQLite's busy lock ("database is locked",
//!   `SQLITE_BUSY`): another connection of this machine holds the database
//!   file, and the pass waits for it to let go; nothing remote failed
//!   (ockam's `retry!`, an error sorted by its message).
//! - **A probe.** The function answers yes or no (`-> bool`,
//!   `-> Result<bool>`), and the pass only asks whether the peer answers: a
//!   bare connect (`TcpStream::connect_timeout(..)`) or a call named as a
//!   question (`node.is_accessible(..)`), reduced to `.is_ok()`, whose
//!   success answers `true`. No operation's result or error is handed on:
//!   it is a reachability check, every failure of which means "not yet"
//!   (ockam `is_endpoint_accessible`, `is_node_accessible`). Or a monitor
//!   task that records the answer in a flag and leaves, whatever its
//!   function answers (rustfs's peer recovery monitor: `if
//!   perform_connectivity_check(..).await.is_ok() { offline.store(false,
//!   ..); return; }`).
//! - **A readiness the loop's message names.** A string of the loop says
//!   the peer is not ready ("RPC is not ready", "not ready yet"), with no
//!   remote failure named beside it: each pass asks whether the peer has
//!   come up (espresso-sequencer's local Anvil node; the log-text form of
//!   `readiness::only_not_ready`).
//! - **This host's memory.** `io::ErrorKind::OutOfMemory` named in the
//!   loop and no remote failure: a local resource waited for.
//! - **A deletion waited for.** The function deletes a resource before the
//!   loop and the only failure that goes round is a conflict (`409`,
//!   `CONFLICT`, `AlreadyExists`): the create waits for the name to be
//!   free, every other error leaves (kata-containers `replace_job`).

use super::reach::without_strings;
use super::shape::leaves;
use super::*;

/// The words of SQLite's busy lock, as an error's message or name.
const SQLITE_BUSY: &[&str] = &[
    "database is locked",
    "database table is locked",
    "SQLITE_BUSY",
    "SQLITE_LOCKED",
    "DatabaseBusy",
    "DatabaseLocked",
];

/// SQLite's busy lock named in the loop, when nothing remote is named
/// beside it.
pub(super) fn only_sqlite_busy(spans: &Spans<'_>, the_loop: &Expr) -> Option<&'static str> {
    let text = spans.text(the_loop);
    let found = SQLITE_BUSY.iter().find(|w| text.contains(*w))?;
    let remote = names_remote(text);
    (!remote).then_some(*found)
}

/// The function's signature answers a `bool` (`-> bool`, `-> Result<bool>`,
/// `-> anyhow::Result<bool, E>`).
fn answers_bool(signature: &str) -> bool {
    let compact: String = signature.split_whitespace().collect();
    compact
        .rsplit_once("->")
        .is_some_and(|(_, ret)| ret == "bool" || ret.contains("Result<bool"))
}

/// A call that only asks whether the peer answers: a bare connect, or a
/// method named as a question.
fn asks_only(name: &str) -> bool {
    matches!(name, "connect" | "connect_timeout" | "ping")
        || ["is_", "check_", "probe", "health"]
            .iter()
            .any(|p| name.starts_with(p))
        // A check named by what it checks (`perform_connectivity_check`,
        // `liveness_probe`).
        || ["_check", "_probe"].iter().any(|s| name.ends_with(s))
}

/// The branch records the answer in a flag and leaves: `offline.store(false,
/// ..); return;` or `reachable = true; break;` (the function answers no
/// `bool`: a monitor task reports through the flag).
fn records_answer(compact: &str) -> bool {
    let flag = [".store(true,", ".store(false,", "=true;", "=false;"]
        .iter()
        .any(|f| compact.contains(f));
    let leaves =
        compact.contains("return;") || compact.contains("return}") || compact.contains("break");
    flag && leaves
}

/// The probe of a function that answers yes or no: `if <call>.is_ok() {
/// return true }` (or `Ok(true)`) in the loop's body, the call one that
/// only asks; or, in any function, the answer recorded in a flag before
/// leaving (`if check(..).await.is_ok() { offline.store(false, ..);
/// return; }`, rustfs's peer recovery monitor, twenty-seventh pass).
/// Returns the call as written.
pub(super) fn probe(spans: &Spans<'_>, signature: &str, body: &Block) -> Option<String> {
    let answers = answers_bool(signature);
    body.stmts.iter().take(64).find_map(|s| {
        let Stmt::Expr(Expr::If(i), _) = s else {
            return None;
        };
        let Expr::MethodCall(m) = &*i.cond else {
            return None;
        };
        if m.method != "is_ok" {
            return None;
        }
        let mut recv = &*m.receiver;
        if let Expr::Await(a) = recv {
            recv = &a.base;
        }
        let name = match recv {
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                _ => None,
            },
            Expr::MethodCall(mc) => Some(mc.method.to_string()),
            _ => None,
        }?;
        let then: String = spans.text(&i.then_branch).split_whitespace().collect();
        let yes = (answers && (then.contains("returntrue") || then.contains("returnOk(true)")))
            || records_answer(&then);
        (asks_only(&name) && yes).then(|| spans.text(recv).split_whitespace().collect())
    })
}

/// A conflict test in an arm's guard.
fn conflict(guard: &str) -> bool {
    guard.contains("409") || guard.contains("CONFLICT") || guard.contains("AlreadyExists")
}

/// The deletion before the loop and the conflict that alone goes round:
/// `jobs.delete(name, ..)` then `match jobs.create(..) { Ok(_) => return,
/// Err(e) if e.code == 409 => sleep, Err(err) => return Err(..) }`.
pub(super) fn waits_for_deletion(
    spans: &Spans<'_>,
    before_loop: &str,
    body: &Block,
) -> Option<String> {
    if !without_strings(before_loop).contains(".delete(") {
        return None;
    }
    body.stmts.iter().take(64).find_map(|s| {
        let Stmt::Expr(Expr::Match(m), _) = s else {
            return None;
        };
        let errs: Vec<&syn::Arm> = m
            .arms
            .iter()
            .filter(|a| super::shape::pat_variant(&a.pat).is_some_and(|(n, _)| n == "Err"))
            .collect();
        let staying: Vec<&&syn::Arm> = errs.iter().filter(|a| !leaves(&a.body)).collect();
        let [only] = staying.as_slice() else {
            return None;
        };
        let syn::Pat::Guard(g) = &only.pat else {
            return None;
        };
        let guard: String = spans.text(&*g.guard).split_whitespace().collect();
        (errs.len() > 1 && conflict(&guard)).then_some(guard)
    })
}

/// Phrases of a message saying the peer is not ready yet.
/// ("not yet available, waiting": a start-up wait for a database that
/// may be restarting with the service, neon's storage controller.)
const NOT_READY: &[&str] = &[
    "not ready",
    "isn't ready",
    "not yet ready",
    "not up yet",
    "not yet available",
    "not available yet",
];

/// A string of the loop that says its peer is not ready, when no remote
/// failure is named in the loop's code.
pub(super) fn says_not_ready(spans: &Spans<'_>, the_loop: &Expr) -> Option<&'static str> {
    let text = spans.text(the_loop);
    let lower = text.to_ascii_lowercase();
    let phrase = NOT_READY.iter().find(|p| {
        lower
            .match_indices(*p)
            .take(16)
            .any(|(i, _)| lower[..i].matches('"').count() % 2 == 1)
    })?;
    let remote = names_remote(text);
    (!remote).then_some(*phrase)
}

/// A shortage of this host's memory named in the loop
/// (`io::ErrorKind::OutOfMemory`), when nothing remote is named beside it:
/// the failure that goes round is a local resource (memory to lock for an
/// io_uring instance), waited for; launching again reaches no other
/// machine (neon's `thread_local_system`, twenty-fourth pass).
pub(super) fn only_out_of_memory(spans: &Spans<'_>, the_loop: &Expr) -> bool {
    let text = spans.text(the_loop);
    let compact: String = without_strings(text).split_whitespace().collect();
    compact.contains("ErrorKind::OutOfMemory") && !names_remote(text)
}

/// Whether the code of `text` (its strings left out) names a remote
/// failure (`ConnectionRefused`, `Timeout`...): then a wait named beside
/// it is no local wait.
fn names_remote(text: &str) -> bool {
    without_strings(text)
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .take(4096)
        .any(|id| {
            super::network::REMOTE_ERRORS.contains(&id) || super::network::remote_failure_name(id)
        })
}
