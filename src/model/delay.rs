//! How long a policy waits between attempts ([`Delay`]), how the wait is
//! randomised ([`Jitter`]) and where a cap applies ([`CapOrder`]); kept
//! apart from `model.rs` for its size, re-exported there.

use serde::Serialize;
use std::time::Duration;

kind_tagged! {
    "Delay";
    #[derive(Clone, Debug, PartialEq)]
    pub enum Delay {
        /// Attempts follow each other at once.
        None,
        Fixed {
            #[serde(with = "crate::duration::serde_ms")]
            delay: Duration,
        },
        Exponential {
            #[serde(with = "crate::duration::serde_ms")]
            base: Duration,
            multiplier: f64,
            #[serde(with = "crate::duration::serde_opt_ms")]
            cap: Option<Duration>,
        },
        Decorrelated {
            #[serde(with = "crate::duration::serde_ms")]
            base: Duration,
            #[serde(with = "crate::duration::serde_opt_ms")]
            cap: Option<Duration>,
        },
        /// `base` x n before retry n, up to `cap` (Polly's `Linear`).
        Linear {
            #[serde(with = "crate::duration::serde_ms")]
            base: Duration,
            #[serde(with = "crate::duration::serde_opt_ms")]
            cap: Option<Duration>,
        },
        /// Each delay the sum of the two before it, `first`, `second`,
        /// `first + second`, ..., each held at `cap`. The readers give the
        /// libraries' own starts: backon, tokio-retry and the `retry` crate
        /// `base, base` (1, 1, 2, 3, 5); sethvargo/go-retry `base, 2 x base`;
        /// aiohttp_retry `2m, 3m` (each reader cites its source).
        Fibonacci {
            #[serde(with = "crate::duration::serde_ms")]
            first: Duration,
            #[serde(with = "crate::duration::serde_ms")]
            second: Duration,
            #[serde(with = "crate::duration::serde_opt_ms")]
            cap: Option<Duration>,
        },
        /// `base` x n x n before retry n, up to `cap` (segmentio/kafka-go's
        /// `backoff(attempt, WriteBackoffMin, WriteBackoffMax)`, `dialer.go`).
        Quadratic {
            #[serde(with = "crate::duration::serde_ms")]
            base: Duration,
            #[serde(with = "crate::duration::serde_opt_ms")]
            cap: Option<Duration>,
        },
        /// A delay that grows by `multiplier` each attempt from a first
        /// value not known here (`backoff := t.backoff` then `backoff *=
        /// 2`, argo-cd's `retryTransport`), up to `cap` when one is known:
        /// neither fixed nor none, its waits not known.
        Growing {
            multiplier: f64,
            #[serde(with = "crate::duration::serde_opt_ms")]
            cap: Option<Duration>,
        },
        /// A delay function the linter cannot read (a lambda, a custom class).
        Custom,
        /// Set by an expression or placeholder.
        Unknown,
    }
}

impl Delay {
    /// The delay before retry `n` (1-based: the wait after the first
    /// failed attempt), before any jitter, with the cap applied.
    pub fn nominal(&self, n: u32) -> Option<Duration> {
        match self {
            Delay::None => Some(Duration::ZERO),
            Delay::Fixed { delay } => Some(*delay),
            Delay::Exponential {
                base,
                multiplier,
                cap,
            } => {
                let raw = base.as_secs_f64() * multiplier.powi(exponent(n));
                // (A negative delay, from a negative multiplier, is none.)
                let raw = if raw.is_finite() {
                    raw.max(0.0)
                } else {
                    f64::MAX
                };
                let d = Duration::from_secs_f64(raw.min(1e12));
                Some(cap.map_or(d, |c| d.min(c)))
            }
            Delay::Decorrelated { base, .. } => Some(*base),
            Delay::Linear { base, cap } => {
                let d = base.saturating_mul(n.max(1));
                Some(cap.map_or(d, |c| d.min(c)))
            }
            Delay::Fibonacci { first, second, cap } => {
                let ceiling = cap.map_or(LONGEST, |c| c.min(LONGEST));
                Some(fibonacci(*first, *second, n, ceiling))
            }
            Delay::Quadratic { base, cap } => {
                let ceiling = cap.map_or(LONGEST, |c| c.min(LONGEST));
                let n = u64::from(n.max(1));
                let d = crate::model::backoff::mul(*base, n.saturating_mul(n));
                Some(d.min(ceiling))
            }
            Delay::Growing { .. } | Delay::Custom | Delay::Unknown => None,
        }
    }

    /// The delay before retry `n` before the cap, for reasoning about caps.
    pub fn uncapped(&self, n: u32) -> Option<f64> {
        match self {
            Delay::Exponential {
                base, multiplier, ..
            } => Some(base.as_secs_f64() * multiplier.powi(exponent(n))),
            Delay::Fibonacci { first, second, .. } => {
                let (mut x, mut y) = (first.as_secs_f64(), second.as_secs_f64());
                if x == 0.0 && y == 0.0 {
                    return Some(0.0);
                }
                // A non-zero start passes f64's range in under 1,600 steps.
                for _ in 1..n {
                    if x.is_infinite() {
                        break;
                    }
                    (x, y) = (y, x + y);
                }
                Some(x)
            }
            Delay::Quadratic { base, .. } => {
                let n = f64::from(n.max(1));
                Some(base.as_secs_f64() * n * n)
            }
            other => other.nominal(n).map(|d| d.as_secs_f64()),
        }
    }
}

/// The longest delay [`Delay::nominal`] gives (1e12 s): past it a
/// series is held, so sums stay finite.
pub const LONGEST: Duration = Duration::from_secs(1_000_000_000_000);

/// Term `n` (1-based) of the series `first`, `second`, `first + second`,
/// ..., held at `ceiling`. A non-zero start passes 1e12 s within about
/// 105 steps, so the loop is short whatever `n` is; an all-zero start is
/// zero throughout.
fn fibonacci(first: Duration, second: Duration, n: u32, ceiling: Duration) -> Duration {
    if first.is_zero() && second.is_zero() {
        return Duration::ZERO;
    }
    let (mut x, mut y) = (first, second);
    for _ in 1..n {
        if x >= ceiling && y >= ceiling {
            break;
        }
        (x, y) = (y, x.saturating_add(y));
    }
    x.min(ceiling)
}

/// The power of the multiplier in the delay before retry `n`: n - 1, held
/// at `i32::MAX` rather than wrapped to a negative power.
fn exponent(n: u32) -> i32 {
    n.saturating_sub(1).min(i32::MAX as u32) as i32
}

kind_tagged! {
    "Jitter";
    #[derive(Clone, Debug, PartialEq)]
    pub enum Jitter {
        None,
        /// Uniform in [0, d].
        Full,
        /// Uniform in [d/2, d].
        Equal,
        /// Uniform in [d x (1 - f), d x (1 + f)].
        Proportional {
            factor: f64,
        },
        Decorrelated,
        /// Uniform in [d, 2d) (backon).
        Additive,
        /// Uniform in [d, d x (1 + f)): a share of the delay added at random
        /// and never taken off (one-sided: Kubernetes' `wait.Jitter`, a
        /// loop's `d + rand(d/10)`). `Proportional` is the two-sided band.
        Added {
            factor: f64,
        },
        Unknown,
    }
}

impl Jitter {
    pub fn is_none(&self) -> bool {
        matches!(self, Jitter::None)
    }
}

/// Whether a delay cap is applied before or after the randomisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CapOrder {
    BeforeJitter,
    AfterJitter,
}
