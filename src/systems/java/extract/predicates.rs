//! Retry predicates that accept everything: `retryOnException(t -> true)`,
//! `retryIf(e -> { return true; })`, `Predicates.alwaysTrue()`, or a
//! method reference to a method of this file that returns `true` for every
//! input. Such a predicate narrows nothing: the policy retries every error,
//! as if no predicate were given.

use super::Ctx;
use super::ast::Kind as _;
use super::ast::{field, named_children, unwrap_expr};
use crate::model::{Condition, Located};
use crate::source::Span;
use tree_sitter::Node;

/// The condition a predicate that accepts every input stands for: every
/// `Throwable` (and, for a result predicate, every result as well).
pub fn catch_all(span: Span) -> Located<Condition> {
    Located::written(Condition::Exception("Throwable".into()), span)
}

/// Whether the predicate expression `n` returns `true` for every input.
pub fn accepts_all<'a>(ctx: &Ctx<'a>, n: Node<'a>) -> bool {
    let n = ctx.resolve(n);
    match n.kind_str() {
        "lambda_expression" => field(n, "body").is_some_and(|b| body_is_true(ctx, b)),
        "method_reference" => {
            // `this::retryAll`, `Policies::always`: the method's name is the
            // last identifier; every method of that name here must return
            // `true` whatever it is given.
            let Some(name) = named_children(n).last().map(|c| ctx.text(*c)) else {
                return false;
            };
            let methods = ctx.methods_named(name);
            !methods.is_empty()
                && methods
                    .iter()
                    .all(|m| field(*m, "body").is_some_and(|b| body_is_true(ctx, b)))
        }
        // Guava's `Predicates.alwaysTrue()`.
        "method_invocation" => {
            let t = ctx.text(n);
            t.ends_with("alwaysTrue()")
                && field(n, "arguments").is_some_and(|a| named_children(a).is_empty())
        }
        _ => false,
    }
}

/// A lambda or method body that is `true`, or a block every `return` of
/// which returns `true` (statements before it may log or count).
fn body_is_true(ctx: &Ctx<'_>, body: Node<'_>) -> bool {
    if body.kind_str() != "block" {
        return is_true(ctx, body);
    }
    // The block's own returns: not those of a lambda or class inside it.
    let nested = |n: Node<'_>| {
        matches!(
            n.kind_str(),
            "lambda_expression" | "class_body" | "method_declaration"
        )
    };
    let returns: Vec<Node<'_>> = ctx
        .descendants_until(body, nested)
        .into_iter()
        .filter(|n| n.kind_str() == "return_statement")
        .collect();
    !returns.is_empty()
        && returns
            .iter()
            .all(|r| named_children(*r).first().is_some_and(|v| is_true(ctx, *v)))
}

/// `true`, `Boolean.TRUE`, `(true)`.
fn is_true(ctx: &Ctx<'_>, e: Node<'_>) -> bool {
    let e = unwrap_expr(e);
    matches!(
        ctx.text(e),
        "true" | "Boolean.TRUE" | "java.lang.Boolean.TRUE"
    )
}

#[cfg(test)]
mod tests {
    use crate::extract::Facts;
    use crate::model::{Condition, RetryOn, RetryPolicy};

    fn policy(src: &str) -> RetryPolicy {
        let mut f = Facts::default();
        super::super::extract(src, &mut f);
        assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
        f.policies.remove(0)
    }

    fn catches_all(p: &RetryPolicy) -> bool {
        match &p.retry_on.value {
            RetryOn::Listed { conditions } => conditions
                .iter()
                .any(|c| c.value == Condition::Exception("Throwable".into())),
            RetryOn::AllErrors => true,
            _ => false,
        }
    }

    const R4J: &str = "import io.github.resilience4j.retry.Retry;\nimport io.github.resilience4j.retry.RetryConfig;\n";

    #[test]
    fn predicates_that_accept_everything_retry_every_error() {
        for pred in [
            "t -> true",
            "(Throwable t) -> true",
            "t -> { return true; }",
            "t -> { log(t); return true; }",
            "t -> (Boolean.TRUE)",
            "this::always",
            "C::always",
            "Predicates.alwaysTrue()",
        ] {
            let p = policy(&format!(
                "{R4J}class C {{ static boolean always(Throwable t) {{ return true; }} Retry r = Retry.of(\"a\", RetryConfig.custom().maxAttempts(3).retryOnException({pred}).build()); }}"
            ));
            assert!(catches_all(&p), "{pred}: {:?}", p.retry_on.value);
        }
    }

    #[test]
    fn predicates_that_choose_narrow() {
        for pred in [
            "t -> t instanceof java.io.IOException",
            "t -> { if (t instanceof java.io.IOException) { return true; } return false; }",
            "this::transient",
            "Other::unknown",
        ] {
            let p = policy(&format!(
                "{R4J}class C {{ boolean transient(Throwable t) {{ return t instanceof java.io.IOException; }} Retry r = Retry.of(\"a\", RetryConfig.custom().maxAttempts(3).retryOnException({pred}).build()); }}"
            ));
            assert!(!catches_all(&p), "{pred}: {:?}", p.retry_on.value);
        }
    }

    #[test]
    fn failsafe_guava_reactor_and_spring_predicates() {
        let failsafe = policy(
            "import dev.failsafe.RetryPolicy;\nclass C { RetryPolicy<Object> p = RetryPolicy.builder().handleIf(e -> true).withMaxRetries(2).build(); }",
        );
        assert!(catches_all(&failsafe), "{:?}", failsafe.retry_on.value);
        let guava = policy(
            "import com.github.rholder.retry.RetryerBuilder;\nclass C { Object r = RetryerBuilder.newBuilder().retryIfException(e -> true).withStopStrategy(StopStrategies.stopAfterAttempt(3)).build(); }",
        );
        assert!(catches_all(&guava), "{:?}", guava.retry_on.value);
    }
}
