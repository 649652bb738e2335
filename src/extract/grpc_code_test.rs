//! The gRPC status codes a condition tests (issue 28, App Engine 2016):
//! `e.getStatus().getCode() == Status.Code.UNAVAILABLE` (Java),
//! `status.Code(err) == codes.Unavailable` (Go), `e.StatusCode ==
//! StatusCode.Unavailable` (C#), joined by `||`. Language-neutral text, as
//! [`crate::extract::status_test`] reads HTTP statuses; a condition that is
//! anything else as well (`&&`, another comparison) is not read, so that
//! a loop is never taken as retrying codes it may not retry.

/// The canonical gRPC status codes, by their numeric value (grpc/grpc
/// `doc/statuscodes.md`).
pub const CODES: [&str; 17] = [
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
];

/// Qualifiers a code constant is written with: Java `Status.Code.X` /
/// `Code.X`, Go `codes.X`, C# `StatusCode.X`.
const QUALIFIERS: &[&str] = &["Code", "codes", "StatusCode"];

/// The codes `cond` holds for, in upper snake case, when it is only
/// equality tests of a code against code constants; else `None`.
pub fn codes(cond: &str) -> Option<Vec<String>> {
    if cond.len() > 2_000 || cond.contains("&&") || cond.contains("!=") {
        return None;
    }
    let mut out = Vec::new();
    for part in cond.split("||") {
        let part = part.trim().trim_start_matches('(').trim_end_matches(')');
        let (a, b) = part
            .split_once("==")
            .or_else(|| part.split_once(".equals("))?;
        let code = constant(b.trim().trim_end_matches(')')).or_else(|| constant(a.trim()))?;
        // The other side reads a code (`getCode()`, `Code(err)`,
        // `StatusCode`, a local named `code`).
        let other = if constant(a.trim()).is_some() { b } else { a };
        if !other.to_ascii_lowercase().contains("code") {
            return None;
        }
        if !out.contains(&code) {
            out.push(code);
        }
    }
    (!out.is_empty()).then_some(out)
}

/// `Status.Code.UNAVAILABLE`, `codes.DeadlineExceeded`: the code, upper
/// snake case, when it is one.
fn constant(t: &str) -> Option<String> {
    let (qual, name) = t.rsplit_once('.')?;
    let last_qual = qual.rsplit('.').next().unwrap_or(qual);
    if !QUALIFIERS.contains(&last_qual) {
        return None;
    }
    let mut snake = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase()
            && i > 0
            && !name.contains('_')
            && name != name.to_ascii_uppercase()
        {
            snake.push('_');
        }
        snake.push(c.to_ascii_uppercase());
    }
    CODES.contains(&snake.as_str()).then_some(snake)
}

#[cfg(test)]
mod tests {
    use super::codes;

    #[test]
    fn reads_code_tests_in_each_spelling() {
        assert_eq!(
            codes(
                "e.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED\n || e.getStatus().getCode() == Status.Code.UNAVAILABLE"
            ),
            Some(vec!["DEADLINE_EXCEEDED".into(), "UNAVAILABLE".into()])
        );
        assert_eq!(
            codes("status.Code(err) == codes.ResourceExhausted"),
            Some(vec!["RESOURCE_EXHAUSTED".into()])
        );
        assert_eq!(
            codes("ex.StatusCode == StatusCode.Unavailable"),
            Some(vec!["UNAVAILABLE".into()])
        );
        assert_eq!(
            codes("Status.Code.UNAVAILABLE.equals(code)"),
            Some(vec!["UNAVAILABLE".into()])
        );
    }

    #[test]
    fn reads_nothing_else() {
        // HTTP statuses, a conjunction, a negation, an unknown constant.
        assert_eq!(
            codes("resp.StatusCode == HttpStatusCode.ServiceUnavailable"),
            None
        );
        assert_eq!(
            codes("code == Status.Code.UNAVAILABLE && attempt < 3"),
            None
        );
        assert_eq!(codes("code != Status.Code.UNAVAILABLE"), None);
        assert_eq!(
            codes("e.getStatusCode() == StatusCode.ServiceUnavailable"),
            None
        );
        assert_eq!(codes("x == Mode.UNAVAILABLE"), None);
    }
}
