//! String literals joined with `+`: a gRPC service config is often written
//! as `"{\"methodConfig\":[{" + "\"name\":[..]," + ..."` (grpc-java's own
//! tests have many). The pieces are read as one string, each byte mapped
//! back to its piece; a concatenation with any part that is not a literal
//! (a variable, a call, a number) has an unknown value and is not read.

use super::Ctx;
use super::ast::Kind as _;
use super::ast::{MAX_DEPTH, field, named_children};
use crate::source::Span;
use tree_sitter::Node;

/// At most this many pieces are joined (a generated file may hold longer
/// chains; their value is left unknown).
const MAX_PIECES: usize = 10_000;

/// Whether `n` is a `+` expression (string concatenation or addition).
fn is_plus(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    n.kind_str() == "binary_expression" && field(n, "operator").is_some_and(|o| ctx.text(o) == "+")
}

/// Whether `n` is the outermost `+` of its concatenation: no enclosing `+`
/// holds it (parentheses between are looked through).
pub fn is_top(ctx: &Ctx<'_>, n: Node<'_>) -> bool {
    if !is_plus(ctx, n) {
        return false;
    }
    let mut cur = n;
    for _ in 0..MAX_DEPTH {
        match ctx.parent(cur) {
            Some(p) if p.kind_str() == "parenthesized_expression" => cur = p,
            Some(p) => return !is_plus(ctx, p),
            None => return true,
        }
    }
    true
}

/// The parts of the concatenation `top`, left to right, parentheses
/// looked through. `None` when a part is not a string literal or there are
/// too many.
pub fn literal_pieces<'a>(top: Node<'a>, ctx: &Ctx<'a>) -> Option<Vec<Node<'a>>> {
    let mut out = Vec::new();
    let mut stack = vec![top];
    while let Some(n) = stack.pop() {
        if out.len() + stack.len() > MAX_PIECES {
            return None;
        }
        match n.kind_str() {
            "string_literal" => out.push(n),
            "parenthesized_expression" => stack.push(*named_children(n).first()?),
            _ if is_plus(ctx, n) => {
                stack.push(field(n, "right")?);
                stack.push(field(n, "left")?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The span of a string literal's content, between its quotes (`"` or a
/// text block's `"""`).
pub fn content(ctx: &Ctx<'_>, lit: Node<'_>) -> Span {
    let quote = if ctx.text(lit).starts_with("\"\"\"") {
        3
    } else {
        1
    };
    Span::new(
        lit.start_byte() + quote,
        lit.end_byte()
            .saturating_sub(quote)
            .max(lit.start_byte() + quote),
    )
}

#[cfg(test)]
mod tests {
    use crate::extract::Facts;
    use crate::model::{AttemptCount, System};

    fn facts(src: &str) -> Facts {
        let mut f = Facts::default();
        super::super::extract(src, &mut f);
        f
    }

    #[test]
    fn joined_literals_are_one_service_config_with_spans_in_each_piece() {
        let src = "class C { Object f() { return parse(\"{\\\"methodConfig\\\":[{\"\n  + \"\\\"name\\\":[{\\\"service\\\":\\\"a.B\\\"}],\"\n  + (\"\\\"retryPolicy\\\":{\\\"maxAttempts\\\": 4, \\\"initialBackoff\\\": \\\"0.1s\\\",\"\n  + \"\\\"maxBackoff\\\": \\\"1s\\\", \\\"backoffMultiplier\\\": 2,\")\n  + \"\\\"retryableStatusCodes\\\": [\\\"UNAVAILABLE\\\"]}}]}\"); } }";
        let f = facts(src);
        assert_eq!(f.policies.len(), 1, "{:?} {:?}", f.policies, f.diagnostics);
        assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
        let p = &f.policies[0];
        assert_eq!(p.system, System::Grpc);
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
        // Every span lies in the piece its text came from.
        let s = p.attempts.span;
        assert!(
            src[s.start..s.end].contains('4'),
            "{}",
            &src[s.start..s.end]
        );
        assert_eq!(src[..s.start].lines().count(), 3);
        // A code gRPC rejects is reported where it is written.
        let bad = src.replace("UNAVAILABLE", "NO_SUCH_CODE");
        let f = facts(&bad);
        assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
        let d = f.diagnostics[0].span;
        assert_eq!(&bad[d.start..d.end], "\\\"NO_SUCH_CODE\\\"");
        assert_eq!(bad[..d.start].lines().count(), 5);
    }

    #[test]
    fn a_text_block_piece_is_read() {
        let src = "class C { String s = \"\"\"\n  {\"methodConfig\": [{\"name\": [{}],\n  \"\"\" + \"\\\"retryPolicy\\\": {\\\"maxAttempts\\\": 3, \\\"initialBackoff\\\": \\\"1s\\\", \\\"maxBackoff\\\": \\\"2s\\\", \\\"backoffMultiplier\\\": 2, \\\"retryableStatusCodes\\\": [\\\"UNAVAILABLE\\\"]}}]}\"; }";
        let f = facts(src);
        assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
        assert_eq!(f.policies.len(), 1);
        assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(3));
    }

    #[test]
    fn a_part_that_is_not_a_literal_leaves_the_value_unknown() {
        let src = "class C { Object f(String rest) { return parse(\"{\\\"methodConfig\\\":[{\" + rest + \"}]}\"); } }";
        let f = facts(src);
        assert!(f.diagnostics.is_empty(), "{:?}", f.diagnostics);
        assert!(f.policies.is_empty());
    }
}
