//! Rules of the `conditions` category (RL1xx): what a policy retries.

pub mod retries_client_errors;
pub mod retries_every_error;
pub mod retries_non_idempotent;
pub mod retries_open_circuit;
pub mod sync_retry_over_async;

use crate::model::{Condition, Located, RetryOn};

/// gRPC codes that a retry cannot fix.
pub const NON_TRANSIENT_GRPC: &[&str] = &[
    "INVALID_ARGUMENT",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "UNAUTHENTICATED",
    "FAILED_PRECONDITION",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
];

/// Exception types that mean "the request was wrong", by the words their
/// names are made of.
const CLIENT_ERROR_EXCEPTIONS: &[&str] = &[
    "HttpClientErrorException",
    "BadRequest",
    "NotFound",
    "Unauthorized",
    "Forbidden",
    "IllegalArgumentException",
    "IllegalStateException",
    "ValidationException",
    "ConstraintViolation",
    "UnprocessableEntity",
    "InvalidArgument",
    "AuthenticationException",
    "AccessDenied",
    "NumberFormatException",
    "NullPointerException",
    "ClassCastException",
];

/// Catch-all exception types: listing one retries every error.
pub const CATCH_ALL_EXCEPTIONS: &[&str] = &[
    "Exception",
    "Throwable",
    "RuntimeException",
    "Error",
    "BaseException",
];

/// The unqualified name of a Java/.NET/Rust type path.
pub fn simple_name(name: &str) -> &str {
    name.rsplit(['.', ':', '$']).next().unwrap_or(name).trim()
}

/// The listed conditions, or nothing for every other kind of `RetryOn`.
pub fn listed(r: &RetryOn) -> &[Located<Condition>] {
    match r {
        RetryOn::Listed { conditions } => conditions,
        _ => &[],
    }
}

/// A condition as people write it, for messages about conditions nobody
/// wrote: `502`, `500-599`, `reset`, `DEADLINE_EXCEEDED`.
pub fn condition_text(c: &Condition) -> String {
    match c {
        Condition::Status { from, to } if from == to => from.to_string(),
        Condition::Status { from, to } if to - from == 99 && from % 100 == 0 => {
            format!("{}xx", from / 100)
        }
        Condition::Status { from, to } => format!("{from}-{to}"),
        Condition::Exception(n) => simple_name(n).to_string(),
        Condition::Grpc(s) | Condition::Transport(s) | Condition::Token(s) => s.clone(),
        Condition::Predicate => "a predicate".into(),
    }
}

/// The 4xx statuses that say "not now" rather than "not this request":
/// the same request may succeed later, so retrying them is meant.
/// - 408 Request Timeout: the server gave up waiting for the request (RFC
///   9110 §15.5.9: the client "MAY repeat that request");
/// - 423 Locked: the resource is locked (RFC 4918 §11.3); a lock is held
///   for a while and then let go (often sent with `Retry-After`, as a
///   concurrency slot that frees), so the same request then succeeds;
/// - 429 Too Many Requests: rate limited (RFC 6585 §4), with `Retry-After`.
pub const TRANSIENT_CLIENT_STATUSES: &[u16] = &[408, 423, 429];

/// What about `c` makes it a client error, for the message; `None` when it
/// is not one.
pub fn client_error(c: &Condition) -> Option<String> {
    match c {
        Condition::Status { from, to } => {
            let (lo, hi) = ((*from).max(400), (*to).min(499));
            if lo > hi {
                return None;
            }
            let bad: Vec<u16> = (lo..=hi)
                .filter(|c| !TRANSIENT_CLIENT_STATUSES.contains(c))
                .collect();
            if bad.is_empty() {
                None
            } else if lo == 400 && hi == 499 {
                Some("4xx".into())
            } else if bad.len() == 1 {
                Some(bad[0].to_string())
            } else {
                Some(format!("{lo}-{hi}"))
            }
        }
        Condition::Grpc(code) => NON_TRANSIENT_GRPC
            .contains(&code.as_str())
            .then(|| code.clone()),
        Condition::Exception(name) => {
            let simple = simple_name(name);
            CLIENT_ERROR_EXCEPTIONS
                .iter()
                .any(|w| simple.contains(w))
                .then(|| name.clone())
        }
        _ => None,
    }
}

/// Whether a failure leaves it unknown if the request was processed: a
/// timeout, a reset after the request was sent, a 502/503/504 (Envoy's
/// `gateway-error`), gRPC DEADLINE_EXCEEDED/INTERNAL/UNKNOWN.
///
/// 503 is among them: a sidecar or gateway answers 503 itself when the
/// upstream connection resets or its timeout fires after the request was
/// forwarded (Envoy `upstream_reset_before_response_started`, "no healthy
/// upstream" aside), so the service may have done the work.
pub fn ambiguous(c: &Condition) -> bool {
    ambiguity(c).is_some()
}

/// Why a failure is ambiguous, as a noun phrase for messages ("... may
/// already have been processed"); `None` when it is not.
pub fn ambiguity(c: &Condition) -> Option<&'static str> {
    match c {
        Condition::Status { from, to } => {
            let has = |code: u16| (*from..=*to).contains(&code);
            if has(503) && (has(502) || has(504)) {
                Some(
                    "a request answered `502`, `503` or `504` (a sidecar or gateway answers so itself when the upstream fails, resets or times out after the request was forwarded)",
                )
            } else if has(503) {
                Some(
                    "a request answered `503` (a sidecar or gateway also answers 503 when the upstream resets or times out after the request was forwarded)",
                )
            } else if has(502) || has(504) {
                Some(
                    "a request answered `502` or `504` (a gateway answers so when the upstream fails or times out after the request was forwarded)",
                )
            } else {
                None
            }
        }
        Condition::Grpc(code) => {
            matches!(code.as_str(), "DEADLINE_EXCEEDED" | "INTERNAL" | "UNKNOWN")
                .then_some("a call whose deadline passed or that failed inside the server")
        }
        Condition::Transport(t) => {
            let t = t.to_ascii_lowercase();
            let timeout = t.contains("timeout") || t.contains("timed");
            transport_ambiguous(&t).then_some(if timeout {
                "a request that timed out"
            } else {
                "a request whose connection failed after it was sent (a reset)"
            })
        }
        Condition::Exception(name) => {
            let s = simple_name(name);
            (s.contains("Timeout")
                || s == "IOException"
                || s.contains("SocketException")
                // A connection lost or reset while the request was out
                // (pika's `StreamLostError`, Python's `ConnectionResetError`).
                || s.contains("StreamLost")
                || s.contains("ConnectionReset")
                || s.contains("ResourceAccess")
                || s.contains("Interrupted")
                || CATCH_ALL_EXCEPTIONS.contains(&s))
            .then_some("a request that timed out or failed half-way")
        }
        Condition::Token(_) | Condition::Predicate => None,
    }
}

fn transport_ambiguous(t: &str) -> bool {
    // Failures before the request is sent are safe to retry.
    let before_send = t.contains("connect")
        || t.contains("refused")
        || t.contains("before-request")
        || t.contains("before_request");
    // nginx's `error` (and a Rust policy's `Err(..)`) covers an
    // error "passing a request to [the server], or reading the
    // response header" (nginx `proxy_next_upstream`): after the
    // request was sent.
    !before_send
        && (t == "error"
            || t.contains("reset")
            || t.contains("timeout")
            || t.contains("timed")
            || t.contains("post-connect"))
}
