//! Spring Framework 7 core retry (`org.springframework.core.retry`): the
//! programmatic `RetryPolicy` and `RetryTemplate` that Spring's own
//! `@Retryable` is built on.
//!
//! Semantics (spring-framework 7.0 `RetryPolicy`, `RetryPolicy.Builder`,
//! `RetryTemplate`):
//! - `RetryPolicy.withDefaults()`: every exception, 3 retries (4
//!   attempts), a fixed 1000 ms back-off. `RetryPolicy.withMaxRetries(n)`:
//!   the same with n retries.
//! - `RetryPolicy.builder()`: `maxRetries` 3, `delay` 1000 ms, `multiplier`
//!   1.0 (fixed), `maxDelay` unlimited, `jitter` none (a +/- amount scaled
//!   with the multiplier, clamped to [delay, maxDelay]), `timeout` zero = no
//!   limit on all attempts together (7.0.2+); `includes` / `excludes` list
//!   exception types (every exception when none is included), `predicate`
//!   adds a test this linter cannot read. `backOff(..)` replaces all of the
//!   back-off options: `new FixedBackOff(interval, maxAttempts)` (its
//!   `maxAttempts` counts retries) is read, any other is custom.
//! - `new RetryTemplate()` uses `RetryPolicy.withDefaults()`;
//!   `new RetryTemplate(policy)` and `setRetryPolicy(policy)` use that
//!   policy; `execute(..)` and `invoke(..)` run the callback once per
//!   attempt.
//!
//! Only files that import the package (or name it in full) are read here:
//! Failsafe also has a `RetryPolicy.builder()`, and Spring Retry a
//! `RetryTemplate`.

use super::ast::Kind as _;
use super::ast::{self, field, named_children, span};
use super::spring::{callbacks, constructed, framework_backoff, retry_on};
use super::{Ctx, Out, attempts_default, attempts_written};
use crate::extract::Facts;
use crate::model::*;
use crate::source::Span;
use std::collections::HashMap;
use std::time::Duration;
use tree_sitter::Node;

const PACKAGE: &str = "org.springframework.core.retry.";
const MS: Duration = Duration::from_millis(1);
const DEFAULT_RETRIES: u64 = 3;
const DEFAULT_DELAY: Duration = Duration::from_millis(1000);

/// Whether the file uses Spring Framework 7's core retry.
pub fn wanted(ctx: &Ctx<'_>) -> bool {
    ctx.imports("org.springframework.core.retry.RetryPolicy")
        || ctx.imports("org.springframework.core.retry.RetryTemplate")
        || ctx.src.contains(PACKAGE)
}

/// Whether `RetryTemplate` in this file is Spring Framework 7's (imported,
/// by the package or by name, or written in full), not Spring Retry's.
pub fn core_template(ctx: &Ctx<'_>) -> bool {
    ctx.imports("org.springframework.core.retry.RetryTemplate")
        || ctx
            .src
            .contains("org.springframework.core.retry.RetryTemplate")
}

pub fn extract<'a>(ctx: &Ctx<'a>, facts: &mut Facts, out: &mut Out<'a>) {
    // Policy expressions, by node id.
    let mut policies: HashMap<usize, usize> = HashMap::new();
    for (n, c) in ctx.chains(
        "RetryPolicy",
        &["withDefaults", "withMaxRetries", "builder"],
    ) {
        let Some(first) = c.first() else { continue };
        let at = span(n);
        let p = match first.name.as_str() {
            "withDefaults" => defaults(at),
            "withMaxRetries" => {
                let arg = first.args.first().copied();
                let mut p = defaults(at);
                p.attempts = attempts_written(
                    retries(ctx, arg),
                    format!("withMaxRetries({})", arg.map_or("", |a| ctx.text(a))),
                    first.span,
                );
                p
            }
            "builder" => builder(ctx, &c.calls[1..], at),
            _ => continue,
        };
        let mut p = p;
        p.name = name_of(ctx, n);
        policies.insert(n.id(), facts.policies.len());
        facts.policies.push(p);
    }
    // `x.setRetryPolicy(p)` / `this.x.setRetryPolicy(p)`: (x, p, span).
    let setters: Vec<(Node<'a>, Node<'a>, Span)> = ctx
        .nodes
        .iter()
        .filter(|n| {
            n.kind_str() == "method_invocation"
                && field(**n, "name").is_some_and(|x| ctx.text(x) == "setRetryPolicy")
        })
        .filter_map(|&n| {
            let obj = field(n, "object")?;
            let obj = match obj.kind_str() {
                "field_access" => field(obj, "field")?,
                _ => obj,
            };
            let arg = *field(n, "arguments").map(named_children)?.first()?;
            Some((obj, arg, span(n)))
        })
        .collect();
    // Templates, by the id of their `new RetryTemplate(..)`.
    let mut templates: HashMap<usize, usize> = HashMap::new();
    // Only Spring Framework 7's templates (Spring Retry's are read by
    // `spring`).
    let nodes: &[Node<'a>] = if core_template(ctx) { &ctx.nodes } else { &[] };
    for &n in nodes {
        if n.kind_str() != "object_creation_expression" {
            continue;
        }
        let ty = ast::simple_type(field(n, "type").map_or("", |t| ctx.text(t)));
        if ty != "RetryTemplate" {
            continue;
        }
        let args = field(n, "arguments")
            .map(named_children)
            .unwrap_or_default();
        // The policy: a setter on the variable or field holding the
        // template (in any method) wins over the constructor's argument.
        let setter = setters
            .iter()
            .rev()
            .find_map(|&(obj, arg, at)| (ctx.resolve(obj).id() == n.id()).then_some((arg, at)));
        let chosen = setter.or_else(|| args.first().map(|a| (*a, span(*a))));
        let idx = match chosen {
            Some((arg, at)) => match policies.get(&ctx.resolve(arg).id()) {
                Some(&i) => i,
                None => {
                    // A policy built elsewhere (a bean, a method): unknown.
                    let mut p = RetryPolicy::new(
                        System::SpringFramework,
                        at,
                        attempts_written(
                            AttemptCount::Unknown,
                            "a RetryPolicy built outside this expression".into(),
                            at,
                        ),
                    );
                    p.name = name_of(ctx, n);
                    p.methods = Located::default_at(Methods::Unknown, at);
                    facts.policies.push(p);
                    facts.policies.len() - 1
                }
            },
            None => {
                let at = span(n);
                let mut p = defaults(at);
                p.name = name_of(ctx, n);
                facts.policies.push(p);
                facts.policies.len() - 1
            }
        };
        templates.insert(n.id(), idx);
    }
    if templates.is_empty() {
        return;
    }
    // `template.execute(() -> ..)` / `invoke(..)`: once per attempt.
    callbacks(ctx, &templates, &["execute", "invoke"], out);
}

/// The variable a policy or template is assigned to (a policy passed to
/// `new RetryTemplate(..)` takes the template's), else the method it is
/// built in.
fn name_of(ctx: &Ctx<'_>, n: Node<'_>) -> Option<String> {
    let mut cur = n;
    for _ in 0..3 {
        match ctx.parent(cur) {
            Some(par) if par.kind_str() == "variable_declarator" => {
                return field(par, "name").map(|x| ctx.text(x).to_string());
            }
            Some(par)
                if matches!(
                    par.kind_str(),
                    "argument_list" | "object_creation_expression"
                ) =>
            {
                cur = par;
            }
            _ => break,
        }
    }
    ctx.enclosing_method(n).map(|(_, m)| m)
}

/// `RetryPolicy.withDefaults()` at `at`.
fn defaults(at: Span) -> RetryPolicy {
    let attempts = attempts_default(
        AttemptCount::Finite(DEFAULT_RETRIES + 1),
        "maxRetries 3 (RetryPolicy.withDefaults())",
        at,
    );
    let mut p = RetryPolicy::new(System::SpringFramework, at, attempts);
    p.methods = Located::default_at(Methods::Unknown, at);
    p.delay = Located::default_at(
        Delay::Fixed {
            delay: DEFAULT_DELAY,
        },
        at,
    );
    p.jitter = Located::default_at(Jitter::None, at);
    p.retry_on = Located::default_at(RetryOn::AllErrors, at);
    p.overall_timeout = Some(Located::default_at(Timeout::Disabled, at));
    p
}

/// n retries as attempts (n + 1); unknown when `n` cannot be read.
fn retries<'a>(ctx: &Ctx<'a>, arg: Option<Node<'a>>) -> AttemptCount {
    arg.and_then(|a| ctx.int(a))
        .map_or(AttemptCount::Unknown, |n| {
            AttemptCount::Finite((n.max(0) as u64).saturating_add(1))
        })
}

/// `RetryPolicy.builder()` followed by `calls` (up to `build()`).
fn builder<'a>(ctx: &Ctx<'a>, calls: &[ast::Call<'a>], at: Span) -> RetryPolicy {
    let mut attempts = attempts_default(
        AttemptCount::Finite(DEFAULT_RETRIES + 1),
        "maxRetries 3 (default)",
        at,
    );
    let mut delay: Option<(Option<Duration>, Span)> = None;
    let mut jitter: Option<(Option<Duration>, Span)> = None;
    let mut cap: Option<(Option<Duration>, Span)> = None;
    let mut mult: Option<(Option<f64>, Span)> = None;
    let mut custom: Option<(Delay, Span)> = None;
    let mut overall = None;
    let mut conditions = Vec::new();
    let mut ignores = Vec::new();
    let mut predicate = None;
    let classes = |call: &ast::Call<'a>| -> Vec<Located<Condition>> {
        call.args
            .iter()
            .flat_map(|x| ast::class_literals(*x, ctx.src))
            .map(|(n, s)| Located::written(Condition::Exception(n), s))
            .collect()
    };
    for call in calls {
        let arg = call.args.first().copied();
        let dur = || arg.and_then(|a| ctx.duration(a, MS));
        match call.name.as_str() {
            "maxRetries" => {
                let text = arg.map_or("", |a| ctx.text(a));
                attempts =
                    attempts_written(retries(ctx, arg), format!("maxRetries({text})"), call.span);
            }
            "delay" => delay = Some((dur(), call.span)),
            "jitter" => jitter = Some((dur(), call.span)),
            "maxDelay" => cap = Some((dur(), call.span)),
            "multiplier" => mult = Some((arg.and_then(|a| ctx.float(a)), call.span)),
            "timeout" => {
                overall = Some(match dur() {
                    Some(t) if t.is_zero() => Located::written(Timeout::Disabled, call.span),
                    Some(t) => Located::written(Timeout::after(t), call.span),
                    None => Located::written(Timeout::Unknown, call.span),
                });
            }
            "includes" => conditions.extend(classes(call)),
            "excludes" => ignores.extend(classes(call)),
            "predicate" if arg.is_some_and(|a| super::predicates::accepts_all(ctx, a)) => {
                conditions.push(super::predicates::catch_all(call.span));
            }
            "predicate" => predicate = Some(call.span),
            "backOff" => {
                let fixed = arg
                    .and_then(|a| constructed(ctx, a))
                    .and_then(|(ty, args, _)| (ty == "FixedBackOff").then_some(args));
                match fixed.as_deref() {
                    Some([interval, max]) => {
                        let d = ctx.duration(*interval, MS);
                        custom = Some((
                            d.map_or(Delay::Unknown, |delay| Delay::Fixed { delay }),
                            call.span,
                        ));
                        attempts = attempts_written(
                            retries(ctx, Some(*max)),
                            format!("FixedBackOff(.., {})", ctx.text(*max)),
                            call.span,
                        );
                    }
                    _ => {
                        custom = Some((Delay::Custom, call.span));
                        attempts = attempts_written(
                            AttemptCount::Unknown,
                            "backOff(..) (its own limit)".into(),
                            call.span,
                        );
                    }
                }
            }
            _ => {}
        }
    }
    let mut p = RetryPolicy::new(System::SpringFramework, at, attempts);
    p.methods = Located::default_at(Methods::Unknown, at);
    match custom {
        Some((d, s)) => {
            let j = if matches!(d, Delay::Fixed { .. }) {
                Jitter::None
            } else {
                Jitter::Unknown
            };
            p.delay = Located::written(d, s);
            p.jitter = Located::written(j, s);
        }
        None => {
            let value = |x: &Option<(Option<Duration>, Span)>, default: Option<Duration>| {
                x.as_ref().map_or(default, |(d, _)| *d)
            };
            let (d, j, order) = framework_backoff(
                value(&delay, Some(DEFAULT_DELAY)),
                value(&jitter, Some(Duration::ZERO)),
                mult.as_ref().map_or(Some(1.0), |(m, _)| *m),
                cap.as_ref().and_then(|(d, _)| *d),
            );
            let delay_span = [
                delay.as_ref().map(|x| x.1),
                mult.as_ref().map(|x| x.1),
                cap.as_ref().map(|x| x.1),
            ]
            .into_iter()
            .flatten()
            .reduce(Span::cover);
            p.delay = match delay_span {
                Some(s) => Located::written(d, s),
                None => Located::default_at(d, at),
            };
            p.jitter = match &jitter {
                Some((_, s)) => Located::written(j, *s),
                None => Located::default_at(j, at),
            };
            p.cap_order = order;
        }
    }
    p.overall_timeout = Some(overall.unwrap_or_else(|| Located::default_at(Timeout::Disabled, at)));
    p.retry_on = retry_on(conditions, predicate, at);
    p.ignores = ignores;
    p
}

#[cfg(test)]
mod tests {
    use crate::extract::Facts;
    use crate::model::*;
    use crate::systems::java::extract as java;
    use std::time::Duration;

    fn read(body: &str) -> Facts {
        let src = format!(
            "import org.springframework.core.retry.RetryPolicy;\nimport org.springframework.core.retry.RetryTemplate;\nimport java.time.Duration;\nclass C {{\n{body}\n}}\n"
        );
        let mut f = Facts::default();
        java::extract(&src, &mut f);
        f
    }

    #[test]
    fn builder_options_and_defaults() {
        let f = read(
            "RetryPolicy p = RetryPolicy.builder().maxRetries(5).delay(Duration.ofMillis(100)).multiplier(2).maxDelay(Duration.ofSeconds(2)).includes(java.io.IOException.class).excludes(IllegalStateException.class).timeout(Duration.ofSeconds(10)).build();",
        );
        let p = &f.policies[0];
        assert_eq!(p.system, System::SpringFramework);
        assert_eq!(p.name.as_deref(), Some("p"));
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(6));
        assert_eq!(
            p.delay.value,
            Delay::Exponential {
                base: Duration::from_millis(100),
                multiplier: 2.0,
                cap: Some(Duration::from_secs(2)),
            }
        );
        assert_eq!(p.jitter.value, Jitter::None);
        assert!(p.jitter.is_default());
        assert_eq!(
            p.overall_timeout.as_ref().unwrap().value,
            Timeout::after(Duration::from_secs(10))
        );
        let RetryOn::Listed { conditions } = &p.retry_on.value else {
            panic!("{:?}", p.retry_on)
        };
        assert_eq!(
            conditions[0].value,
            Condition::Exception("java.io.IOException".into())
        );
        assert_eq!(p.ignores.len(), 1);

        let f =
            read("RetryPolicy p = RetryPolicy.builder().jitter(Duration.ofMillis(250)).build();");
        let p = &f.policies[0];
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
        assert!(p.attempts.is_default());
        assert_eq!(
            p.delay.value,
            Delay::Fixed {
                delay: Duration::from_secs(1)
            }
        );
        assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.25 });
        assert_eq!(p.retry_on.value, RetryOn::AllErrors);
    }

    #[test]
    fn factories_templates_and_their_callbacks() {
        let f = read(
            "RetryTemplate a = new RetryTemplate();\nRetryTemplate b = new RetryTemplate(RetryPolicy.withMaxRetries(2));\nint go(Api api) { return b.execute(() -> api.charge(req.header(\"Idempotency-Key\", java.util.UUID.randomUUID().toString()))); }",
        );
        let counts: Vec<AttemptCount> = f.policies.iter().map(|p| p.attempts.value.count).collect();
        assert_eq!(counts, [AttemptCount::Finite(3), AttemptCount::Finite(4)]);
        assert!(f.policies[0].attempts.is_written());
        assert_eq!(f.policies[0].attempts.value.written_as, "withMaxRetries(2)");
        assert!(f.policies[1].attempts.is_default());
        // The key minted inside the callback is minted on every attempt.
        assert_eq!(f.policies[0].idempotency.len(), 1);
        assert!(f.policies[0].idempotency[0].inside_retry);
    }

    #[test]
    fn a_custom_back_off_and_a_setter() {
        let f = read(
            "RetryTemplate t = new RetryTemplate();\nvoid init() { t.setRetryPolicy(RetryPolicy.builder().backOff(new org.springframework.util.backoff.FixedBackOff(200, 1)).build()); }",
        );
        let p = &f.policies[0];
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
        assert_eq!(
            p.delay.value,
            Delay::Fixed {
                delay: Duration::from_millis(200)
            }
        );
        assert_eq!(f.policies.len(), 1, "the template uses the set policy");
    }

    #[test]
    fn a_spring_retry_template_next_to_a_core_class_stays_spring_retrys() {
        let mut f = Facts::default();
        java::extract(
            "import org.springframework.core.retry.RetryException;\nimport org.springframework.retry.support.RetryTemplate;\nclass C { RetryTemplate t = RetryTemplate.builder().maxAttempts(2).build(); }\n",
            &mut f,
        );
        assert_eq!(f.policies.len(), 1);
        assert_eq!(f.policies[0].system, System::SpringRetry);
        assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(2));
    }

    #[test]
    fn failsafe_and_spring_retry_files_are_not_read_here() {
        let mut f = Facts::default();
        java::extract(
            "import dev.failsafe.RetryPolicy;\nclass C { RetryPolicy<Object> p = RetryPolicy.builder().withMaxRetries(2).build(); }\n",
            &mut f,
        );
        assert!(f.policies.iter().all(|p| p.system == System::Failsafe));
    }
}
