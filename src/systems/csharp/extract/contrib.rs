//! Polly.Contrib.WaitAndRetry's sleep-duration generators given to a v7
//! `WaitAndRetry(..)`: `Backoff.ConstantBackoff`, `LinearBackoff`,
//! `ExponentialBackoff`, `DecorrelatedJitterBackoffV2` and
//! `AwsDecorrelatedJitterBackoff`, written in place or bound to a name
//! first (`var delay = Backoff..; ..WaitAndRetryAsync(delay)`).
//!
//! Read in Polly-Contrib/Polly.Contrib.WaitAndRetry 7596d2d
//! (`src/Polly.Contrib.WaitAndRetry/Backoff.*.cs`): each yields
//! `retryCount` delays (one per retry), the first `TimeSpan.Zero` when
//! `fastFirst` is true; `ConstantBackoff(delay, retryCount)` the same
//! delay; `LinearBackoff(initialDelay, retryCount, factor = 1.0)`
//! `initial + i x factor x initial`; `ExponentialBackoff(initialDelay,
//! retryCount, factor = 2.0)` `initial x factor^i`, no randomness;
//! `DecorrelatedJitterBackoffV2(medianFirstRetryDelay, retryCount)`
//! randomised delays whose medians are about `median x 2^i`, uncapped;
//! `AwsDecorrelatedJitterBackoff(minDelay, maxDelay, retryCount)`
//! `min(max, uniform(min, previous x 3))`.
//!
//! `fastFirst: true` (the last parameter of each: `ConstantBackoff(delay,
//! retryCount, fastFirst)`, `LinearBackoff(.., factor, fastFirst)`,
//! `ExponentialBackoff(.., factor, fastFirst)`,
//! `DecorrelatedJitterBackoffV2(.., seed, fastFirst)`,
//! `AwsDecorrelatedJitterBackoff(min, max, retryCount, seed, fastFirst)`)
//! yields `TimeSpan.Zero` first and one delay fewer of the series (each
//! `Enumerate` starts its loop at `i = 1`): the first retry goes at once
//! (`RetryPolicy::first_at_once`). The constant, linear, exponential and
//! AWS series then start from their first term; V2's formula goes on
//! from `t = 1`, medians `median x 2^1, 2^2, ..`
//! (`Backoff.DecorrelatedJitterV2.cs` c398dc9).

use super::eval;
use super::{Ctx, args, field, method, named_children};
use crate::model::{Delay, Jitter};
use crate::systems::csharp::extract::Kind as _;
use tree_sitter::Node;

/// What a generator says: its retries (when the count reads), how it
/// writes them, and its delay and jitter.
pub(super) struct Generated {
    pub retries: Option<u64>,
    pub written: String,
    pub delay: Delay,
    pub jitter: Jitter,
    /// `fastFirst: true`: the first retry at once.
    pub first_at_once: bool,
}

/// The generator `n` is, or the one the name `n` is bound to.
pub(super) fn read(ctx: &Ctx<'_>, n: Node<'_>) -> Option<Generated> {
    let call = generator_call(ctx, n, 0)?;
    let (name, _) = method(ctx, call)?;
    let a = args(ctx, call);
    // A parameter by its name, else by its place.
    let arg = |key: &str, place: usize| {
        a.iter()
            .find(|(k, _)| *k == Some(key))
            .or_else(|| a.get(place).filter(|(k, _)| k.is_none()))
            .map(|(_, v)| *v)
    };
    let dur = |key: &str, place: usize| arg(key, place).and_then(|v| eval::duration(ctx, v));
    // A delay the file does not state (a parameter, `x.Value`) leaves the
    // delay unknown; the count and the jitter still read.
    let known = |d: Option<std::time::Duration>, make: &dyn Fn(std::time::Duration) -> Delay| {
        d.map_or(Delay::Unknown, make)
    };
    // `fastFirst`, by its name or as the last parameter.
    let fast_place = match name {
        "ConstantBackoff" => 2,
        "AwsDecorrelatedJitterBackoff" => 4,
        _ => 3,
    };
    let first_at_once =
        arg("fastFirst", fast_place).and_then(|v| eval::boolean(ctx, v)) == Some(true);
    let (count_place, delay, jitter) = match name {
        "ConstantBackoff" => (
            1,
            known(dur("delay", 0), &|d| {
                if d.is_zero() {
                    Delay::None
                } else {
                    Delay::Fixed { delay: d }
                }
            }),
            Jitter::None,
        ),
        "LinearBackoff" => {
            // `initial x (1 + i x factor)`: the model's linear steps when
            // the factor is 1, another growth otherwise.
            let linear = factor(ctx, arg("factor", 2), 1.0) == Some(1.0);
            let delay = known(dur("initialDelay", 0), &|base| {
                if linear {
                    Delay::Linear { base, cap: None }
                } else {
                    Delay::Custom
                }
            });
            (1, delay, Jitter::None)
        }
        "ExponentialBackoff" => {
            let delay = match factor(ctx, arg("factor", 2), 2.0) {
                Some(multiplier) => known(dur("initialDelay", 0), &|base| Delay::Exponential {
                    base,
                    multiplier,
                    cap: None,
                }),
                None => Delay::Unknown,
            };
            (1, delay, Jitter::None)
        }
        "DecorrelatedJitterBackoffV2" => (
            1,
            known(dur("medianFirstRetryDelay", 0), &|median| {
                // After a fast first retry the series goes on from its
                // second term.
                let base = if first_at_once { median * 2 } else { median };
                Delay::Exponential {
                    base,
                    multiplier: 2.0,
                    cap: None,
                }
            }),
            Jitter::Decorrelated,
        ),
        "AwsDecorrelatedJitterBackoff" => {
            let cap = dur("maxDelay", 1);
            (
                2,
                known(dur("minDelay", 0), &|base| Delay::Decorrelated {
                    base,
                    cap,
                }),
                Jitter::Decorrelated,
            )
        }
        _ => return None,
    };
    let count = arg("retryCount", count_place);
    let retries = count
        .and_then(|c| eval::int(ctx, c))
        .and_then(|x| u64::try_from(x).ok());
    let count_text = count.map_or_else(String::new, |c| super::one_line(ctx.text(c)));
    let mut written = match retries {
        Some(r) if count_text == r.to_string() => format!("Backoff.{name}(.., {r}): {r} retries"),
        Some(r) => format!("Backoff.{name}(.., {count_text}), {count_text} = {r}: {r} retries"),
        None => format!("Backoff.{name}(.., {count_text})"),
    };
    if first_at_once {
        written.push_str(", the first at once (fastFirst)");
    }
    Some(Generated {
        retries,
        written,
        delay,
        jitter,
        first_at_once,
    })
}

/// The `Backoff.X(..)` call `n` is or stands for: written in place (a
/// `.ToList()`/`.ToArray()` after it kept), bound to a name
/// (`var delay = Backoff..`), or returned by a method of the file
/// (`WaitAndRetryAsync(Delays())`, `IEnumerable<TimeSpan> Delays() =>
/// Backoff..`).
fn generator_call<'a>(ctx: &Ctx<'a>, n: Node<'a>, depth: usize) -> Option<Node<'a>> {
    if depth > 4 {
        return None;
    }
    match n.kind_str() {
        "invocation_expression" => {
            let (name, recv) = method(ctx, n)?;
            match recv {
                Some(r) if matches!(name, "ToList" | "ToArray") => {
                    generator_call(ctx, r, depth + 1)
                }
                Some(r) => {
                    let t = ctx.text(r);
                    (t == "Backoff" || t.ends_with(".Backoff")).then_some(n)
                }
                // A method of this file: what its one `return` (or its
                // expression body) gives.
                None => {
                    let body = ctx.nodes.iter().find_map(|m| {
                        (m.kind_str() == "method_declaration"
                            && field(*m, "name").is_some_and(|x| ctx.text(x) == name))
                        .then(|| field(*m, "body"))
                        .flatten()
                    })?;
                    let returned = match body.kind_str() {
                        "arrow_expression_clause" => named_children(body).into_iter().next(),
                        _ => {
                            let returns: Vec<Node<'_>> = named_children(body)
                                .into_iter()
                                .filter(|c| c.kind_str() == "return_statement")
                                .collect();
                            match returns.as_slice() {
                                [r] => named_children(*r).into_iter().next(),
                                _ => None,
                            }
                        }
                    }?;
                    generator_call(ctx, returned, depth + 1)
                }
            }
        }
        "identifier" => match ctx.bindings.get(ctx.text(n))?.as_slice() {
            [v] => generator_call(ctx, *v, depth + 1),
            _ => None,
        },
        _ => None,
    }
}

/// A growth factor as written, or the generator's default when none is.
fn factor(ctx: &Ctx<'_>, n: Option<Node<'_>>, default: f64) -> Option<f64> {
    let Some(n) = n else {
        return Some(default);
    };
    let t = ctx
        .text(n)
        .trim()
        .trim_end_matches(['d', 'D', 'f', 'F', 'm', 'M']);
    t.parse::<f64>()
        .ok()
        .or_else(|| eval::int(ctx, n).map(|x| x as f64))
        .filter(|f| f.is_finite() && *f >= 0.0)
}
