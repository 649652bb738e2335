//! RL103 retries-non-idempotent: ambiguous failures (a timeout, a reset, a
//! 502/503/504, DEADLINE_EXCEEDED, hedging) retried for non-idempotent requests
//! without an idempotency key.

use super::{ambiguity, ambiguous, listed};
use crate::fix::Fix;
use crate::model::{Methods, PolicyKind, RetryOn};
use crate::rules::{Check, Emitter, PolicyCtx, Severity};

pub const CHECK: Check = Check::Policy(check);

/// HTTP methods that are not idempotent.
const UNSAFE_HTTP: &[&str] = &["POST", "PATCH", "LOCK", "CONNECT"];

/// RPC verbs that usually are not idempotent (AIP-style `Create` with a
/// client-chosen name is, and is left out).
const UNSAFE_RPC_VERBS: &[&str] = &[
    "Publish",
    "Send",
    "Post",
    "Submit",
    "Charge",
    "Pay",
    "Transfer",
    "Increment",
    "Append",
    // Kafka's Produce API appends a batch to a partition's log.
    "Produce",
    "Enqueue",
    "Push",
    "Insert",
    "Place",
    "Execute",
];

/// Whether a method or RPC name is non-idempotent.
pub fn unsafe_method(m: &str) -> bool {
    if UNSAFE_HTTP.contains(&m.to_ascii_uppercase().as_str()) && !m.contains('/') {
        return true;
    }
    let rpc = m.rsplit('/').next().unwrap_or(m);
    UNSAFE_RPC_VERBS.iter().any(|v| rpc.starts_with(v))
}

fn check(ctx: &PolicyCtx<'_>, e: &mut Emitter<'_>) {
    let p = ctx.policy;
    if !p.retries() {
        return;
    }
    // A key minted once, outside the retry, makes the retry safe; one
    // minted inside is RL501's.
    if p.idempotency.iter().any(|k| !k.inside_retry) {
        return;
    }
    let (unsafe_methods, every) = match &p.methods.value {
        Methods::All => (Vec::new(), true),
        Methods::Set(ms) => (
            ms.iter()
                .filter(|m| unsafe_method(m))
                .cloned()
                .collect::<Vec<_>>(),
            false,
        ),
        Methods::IdempotentOnly | Methods::Unknown => return,
    };
    if !every && unsafe_methods.is_empty() {
        return;
    }
    let hedge = p.kind == PolicyKind::Hedge;
    let conditions: Vec<_> = match &p.retry_on.value {
        RetryOn::AllErrors => Vec::new(),
        _ => listed(&p.retry_on.value)
            .iter()
            .filter(|c| ambiguous(&c.value))
            .collect(),
    };
    let all_errors = matches!(p.retry_on.value, RetryOn::AllErrors);
    if !hedge && !all_errors && conditions.is_empty() {
        return;
    }
    let what = if hedge {
        "sends hedged copies of".to_string()
    } else if all_errors {
        "retries every failure, timeouts included, of".to_string()
    } else {
        let texts: Vec<String> = conditions
            .iter()
            .map(|c| {
                // A default condition's span is the block it applies to,
                // whose text does not name it.
                if c.is_default() {
                    return format!("`{}` (the default)", super::condition_text(&c.value));
                }
                // Written in another file: the span is where it applies.
                if !c.is_written() {
                    return format!("`{}`", super::condition_text(&c.value));
                }
                let written = ctx.file.slice(c.span).trim().trim_matches(['"', '\'', ',']);
                // A gRPC code written as its number (Dapr's
                // `gRPCStatusCodes: "2"`) is named: `UNKNOWN`.
                if let crate::model::Condition::Grpc(name) = &c.value
                    && !names_code(written, name)
                {
                    return format!("`{name}`");
                }
                format!("`{written}`")
            })
            .collect();
        let mut texts = texts;
        texts.dedup();
        format!("retries {} for", texts.join(", "))
    };
    let whom = if every {
        "every method (POST included)".to_string()
    } else {
        unsafe_methods
            .iter()
            .map(|m| format!("`{m}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let span = if p.methods.is_written() && !every {
        p.methods.span
    } else if hedge {
        p.span
    } else {
        conditions.first().map_or(p.retry_on.span, |c| c.span)
    };
    // Why the failure leaves the outcome unknown, from the first
    // ambiguous condition.
    let why = conditions
        .first()
        .filter(|_| !hedge && !all_errors)
        .and_then(|c| ambiguity(&c.value))
        .unwrap_or("a request that timed out or failed half-way");
    let f = e.emit(
        span,
        format!(
            "{} {what} {whom} with no idempotency key: {why} may already have been processed, and the retry repeats it",
            p.describe()
        ),
        p.system.spec().fixes.idempotent,
    );
    if every {
        f.severity = Severity::Warning;
    }
    // Safe: the methods the doc says may be retried stay retried.
    if let Some(make) = p.system.spec().fixes.edits.idempotent_only
        && let Some(site) = ctx.site(f.file)
        && let Some(edits) = make(&site)
    {
        f.fix(Fix::safe("retry only idempotent requests", edits));
    }
    if span != p.methods.span && p.methods.is_written() {
        Emitter::relate(f, p.methods.span, "the methods it applies to");
    }
    if let Some(c) = conditions.first()
        && c.span != span
    {
        Emitter::relate(f, c.span, "an ambiguous failure that is retried");
    }
}

/// Whether `written` names gRPC code `name` (`UNAVAILABLE`,
/// `Unavailable`, `codes.Unavailable`, `StatusCode.UNAVAILABLE`), not
/// only its number.
fn names_code(written: &str, name: &str) -> bool {
    let flat = |s: &str| {
        s.chars()
            .filter(|c| c.is_ascii_alphabetic())
            .map(|c| c.to_ascii_uppercase())
            .collect::<String>()
    };
    flat(written).contains(&flat(name))
}
