//! Backoff arithmetic, in one place: how long a policy waits between its
//! attempts in all, and the longest its attempts can take. Every rule and
//! the graph use these, never a loop over the attempts: an attempt count
//! is a number from a file (Envoy's `num_retries` is a uint32,
//! Resilience4j's `maxAttempts` an int) and must cost no more to reason
//! about than `3`.
//!
//! The first [`EXACT_TERMS`] delays are added one by one, exactly as
//! [`Delay::nominal`] gives them (so results on ordinary policies are the
//! integer sums they always were); past them the sum is closed-form: an
//! exponential series is geometric until its first delay reaches the cap,
//! and linear after it. Arithmetic saturates at [`Duration::MAX`] and
//! never truncates a count.

use super::delay::LONGEST;
use super::{Delay, RetryPolicy};
use std::time::Duration;

/// Delays summed one at a time before the closed form takes over.
pub const EXACT_TERMS: u64 = 4096;

/// `d` x `n`, saturating; `n` is not truncated to 32 bits.
pub fn mul(d: Duration, n: u64) -> Duration {
    from_nanos(d.as_nanos().saturating_mul(n as u128))
}

/// The longest `attempts` tries of at most `per_try` each take, with
/// `backoff` between them in all, saturating.
pub fn worst_case(attempts: u64, per_try: Duration, backoff: Duration) -> Duration {
    mul(per_try, attempts).saturating_add(backoff)
}

/// A wait the server chose (a `Retry-After` header, gRPC's
/// `grpc-retry-pushback-ms`), as a policy takes it: RL208.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ServerDelay {
    /// The header, as the code or library reads it (`Retry-After`).
    pub header: String,
    /// Whether the wait is bounded by the policy (`min(wait, cap)`).
    pub capped: bool,
    /// Whether a random wait is added on top of it.
    pub jittered: bool,
    /// What takes the wait, for messages (`DefaultBackoff`, `a loop`).
    pub by: String,
    /// The retry does not wait the header at all though its library can
    /// (RL208's other half): how to make it wait it, in the library's
    /// words. `capped` and `jittered` then say nothing.
    #[serde(default, skip_serializing_if = "crate::model::skip::empty")]
    pub ignored: Option<String>,
}

impl ServerDelay {
    /// Headers a server sets to say when to come back.
    pub const HEADERS: &[&str] = &[
        "retry-after",
        "grpc-retry-pushback-ms",
        "x-ms-retry-after-ms",
    ];

    /// A server delay read in the source of a hand-written retry (the
    /// loop's body): a quoted header name, then whether the code after it
    /// caps the wait (`min(`, `if wait > max..`) and adds a random wait
    /// (`rand`). The offset is the quoted name's, in `text`.
    pub fn in_source(text: &str, by: &str) -> Option<(usize, usize, ServerDelay)> {
        let lower = text.to_ascii_lowercase();
        let quoted = Self::HEADERS.iter().find_map(|h| {
            ['"', '\''].iter().find_map(|q| {
                lower
                    .find(&format!("{q}{h}{q}"))
                    .map(|i| (i, &text[i + 1..i + 1 + h.len()], h.len() + 2))
            })
        });
        // The header's constant: Spring's and JAX-RS's
        // `HttpHeaders.RETRY_AFTER`, Rust's `http::header::RETRY_AFTER`.
        let (at, header, len) = quoted.or_else(|| {
            let i = text.find("RETRY_AFTER")?;
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            (!word(text[..i].chars().next_back())
                && !word(text[i + "RETRY_AFTER".len()..].chars().next()))
            .then_some((i, "Retry-After", "RETRY_AFTER".len()))
        })?;
        // From the start of the header's line: `min(int(h["Retry-After"]), 30)`.
        let line_start = lower[..at].rfind('\n').map_or(0, |i| i + 1);
        let after = &lower[line_start..];
        let cap_check = after.match_indices("if ").any(|(i, _)| {
            let line = after[i..].split(['{', ':', '\n']).next().unwrap_or("");
            line.contains(" > ") && line.contains("max")
        });
        Some((
            at,
            at + len,
            ServerDelay {
                header: header.to_string(),
                capped: after.contains("min(") || cap_check,
                jittered: after.contains("rand"),
                by: by.to_string(),
                ignored: None,
            },
        ))
    }
}

fn from_nanos(n: u128) -> Duration {
    const NANOS: u128 = 1_000_000_000;
    match u64::try_from(n / NANOS) {
        Ok(secs) => Duration::new(secs, (n % NANOS) as u32),
        Err(_) => Duration::MAX,
    }
}

fn from_secs(s: f64) -> Duration {
    if s.is_nan() || s <= 0.0 {
        return Duration::ZERO;
    }
    Duration::try_from_secs_f64(s).unwrap_or(Duration::MAX)
}

impl RetryPolicy {
    /// The time the policy waits between its attempts in all (nominal
    /// delays, no jitter); `None` when the attempts or the delays are not
    /// known. See the module.
    pub fn total_backoff(&self) -> Option<Duration> {
        let n = self.attempts.value.count.finite()?;
        self.delay.value.total_backoff(self.waits(n))
    }

    /// How many terms of `delay` a policy of `attempts` attempts waits:
    /// one per retry, one fewer when the first retry goes at once.
    pub fn waits(&self, attempts: u64) -> u64 {
        attempts.saturating_sub(if self.first_at_once { 2 } else { 1 })
    }

    /// The nominal wait before retry `k` (1-based), the first at once
    /// where the policy says so.
    pub fn wait_before(&self, k: u32) -> Option<Duration> {
        match (self.first_at_once, k) {
            (true, 0 | 1) => Some(Duration::ZERO),
            (true, k) => self.delay.value.nominal(k - 1),
            (false, k) => self.delay.value.nominal(k),
        }
    }

    /// The longest the policy's attempts can take: attempts x per-try
    /// timeout + backoff (an unreadable delay counts as none), saturating;
    /// `None` without a finite count and per-try timeout.
    pub fn worst_case_time(&self) -> Option<Duration> {
        let n = self.attempts.value.count.finite()?;
        let t = self.per_try_timeout.as_ref()?.value.finite()?;
        let b = self.total_backoff().unwrap_or_default();
        Some(worst_case(n, t, b))
    }
}

impl Delay {
    /// The sum of the delays before retries 1..=`retries` (a policy of n
    /// attempts waits before n - 1 retries), as [`Delay::nominal`] gives
    /// each; `None` for a delay the linter cannot read.
    pub fn total_backoff(&self, retries: u64) -> Option<Duration> {
        match self {
            Delay::None => Some(Duration::ZERO),
            Delay::Fixed { delay } => Some(mul(*delay, retries)),
            Delay::Decorrelated { base, .. } => Some(mul(*base, retries)),
            Delay::Growing { .. } | Delay::Custom | Delay::Unknown => None,
            Delay::Linear { .. }
            | Delay::Exponential { .. }
            | Delay::Fibonacci { .. }
            | Delay::Quadratic { .. } => {
                let exact = retries.min(EXACT_TERMS);
                let mut sum = Duration::ZERO;
                let mut last = Duration::ZERO;
                for k in 1..=exact {
                    last = self.nominal(k as u32)?;
                    sum = sum.saturating_add(last);
                }
                if retries == exact {
                    return Some(sum);
                }
                Some(sum.saturating_add(self.tail(exact, retries - exact, last)))
            }
        }
    }

    /// The delays before retries `done + 1 ..= done + rest`, closed-form.
    /// `last` is the delay before retry `done`.
    fn tail(&self, done: u64, rest: u64, last: Duration) -> Duration {
        match self {
            Delay::Linear { base, cap } => {
                // Delay k is base x k until it reaches the cap.
                let b = base.as_nanos();
                let reach = match cap {
                    Some(c) if b > 0 => c.as_nanos().div_ceil(b).max(1),
                    _ => u128::MAX,
                };
                let from = done as u128 + 1;
                let to = done as u128 + rest as u128;
                let grow_to = to.min(reach.saturating_sub(1));
                let mut sum = 0u128;
                if grow_to >= from {
                    // base x (from + ... + grow_to)
                    let terms = grow_to - from + 1;
                    let ks = (from + grow_to).saturating_mul(terms) / 2;
                    sum = b.saturating_mul(ks);
                }
                if let Some(c) = cap {
                    let capped = to - grow_to.max(done as u128);
                    sum = sum.saturating_add(c.as_nanos().saturating_mul(capped));
                }
                from_nanos(sum)
            }
            Delay::Exponential {
                base,
                multiplier,
                cap,
            } => {
                // `nominal` never gives more than 1e12 s, nor more than the cap.
                let ceiling = cap.map_or(Duration::from_secs(1_000_000_000_000), |c| {
                    c.min(Duration::from_secs(1_000_000_000_000))
                });
                let m = *multiplier;
                if last >= ceiling && (m >= 1.0 || m.is_nan()) {
                    return mul(ceiling, rest);
                }
                let b = base.as_secs_f64();
                let c = ceiling.as_secs_f64();
                let secs = if m < 0.0 {
                    // Odd powers are negative delays, read as none; even
                    // powers grow by m² per two retries.
                    let first_even = done + (done % 2);
                    let evens = (done + rest).saturating_sub(first_even).div_ceil(2);
                    geometric(b, m * m, first_even / 2, evens, c)
                } else {
                    geometric(b, m, done, rest, c)
                };
                from_secs(secs)
            }
            Delay::Fibonacci { first, second, cap } => {
                // Past the exact terms a non-zero series is at its ceiling
                // (it passes 1e12 s within about 105 terms).
                if first.is_zero() && second.is_zero() {
                    return Duration::ZERO;
                }
                let ceiling = cap.map_or(LONGEST, |c| c.min(LONGEST));
                mul(ceiling, rest)
            }
            Delay::Quadratic { base, cap } => {
                // Delay k is base x k² until it reaches the ceiling (at
                // most 1e21 ns, so k stays under 3.2e10 for a non-zero
                // base and the sums of k² under 1.1e31: no overflow).
                let b = base.as_nanos();
                if b == 0 {
                    return Duration::ZERO;
                }
                let ceiling = cap.map_or(LONGEST, |c| c.min(LONGEST)).as_nanos();
                // The first k with b x k² >= ceiling.
                let mut reach = ((ceiling as f64 / b as f64).sqrt() as u128).max(1);
                while reach > 1 && b * (reach - 1) * (reach - 1) >= ceiling {
                    reach -= 1;
                }
                while b * reach * reach < ceiling {
                    reach += 1;
                }
                let from = done as u128 + 1;
                let to = done as u128 + rest as u128;
                let grow_to = to.min(reach - 1);
                let squares = |m: u128| m * (m + 1) * (2 * m + 1) / 6;
                let mut sum = 0u128;
                if grow_to >= from {
                    sum = b.saturating_mul(squares(grow_to) - squares(from - 1));
                }
                let capped = to - grow_to.max(done as u128);
                from_nanos(sum.saturating_add(ceiling.saturating_mul(capped)))
            }
            _ => Duration::ZERO,
        }
    }
}

/// The sum of min(b x m^e, c) for e in `from .. from + count`, in seconds,
/// for m >= 0: a geometric run and a run of terms held at `c` (after the
/// geometric one when the series grows, before it when it shrinks).
fn geometric(b: f64, m: f64, from: u64, count: u64, c: f64) -> f64 {
    if count == 0 || b <= 0.0 {
        return 0.0;
    }
    let end = from.saturating_add(count);
    let term = |e: u64| (b * m.powf(e as f64)).min(c);
    if m == 1.0 || m == 0.0 {
        return term(from) + term(from.saturating_add(1)) * (count - 1) as f64;
    }
    // The exponent where b x m^e crosses c.
    let cross = {
        let e = ((c / b).ln() / m.ln()).ceil();
        if e.is_nan() || e <= 0.0 {
            0
        } else if e >= u64::MAX as f64 {
            u64::MAX
        } else {
            e as u64
        }
    };
    let cross = cross.clamp(from, end);
    // b m^lo (m^k - 1) / (m - 1): the k terms from exponent lo.
    let run = |lo: u64, hi: u64| {
        if hi <= lo {
            return 0.0;
        }
        b * m.powf(lo as f64) * (m.powf((hi - lo) as f64) - 1.0) / (m - 1.0)
    };
    let sum = if m > 1.0 {
        run(from, cross) + c * (end - cross) as f64
    } else {
        c * (cross - from) as f64 + run(cross, end)
    };
    if sum.is_nan() { f64::MAX } else { sum }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// The sum as the rules computed it before: one delay at a time.
    fn by_hand(d: &Delay, retries: u64) -> Duration {
        (1..=retries)
            .map(|k| d.nominal(k as u32).unwrap_or_default())
            .fold(Duration::ZERO, Duration::saturating_add)
    }

    /// Equal but for the rounding of each of `terms` delays to a whole
    /// nanosecond (which the sum one at a time does and the closed form
    /// does not) and for f64's relative precision.
    fn close(a: Duration, b: Duration, terms: u64) -> bool {
        let (a, b) = (a.as_secs_f64(), b.as_secs_f64());
        (a - b).abs() <= terms as f64 * 1e-9 + 1e-9 * a.max(b)
    }

    #[test]
    fn small_counts_are_the_exact_integer_sums() {
        let delays = [
            Delay::None,
            Delay::Fixed { delay: ms(250) },
            Delay::Exponential {
                base: ms(100),
                multiplier: 2.0,
                cap: Some(ms(1000)),
            },
            Delay::Exponential {
                base: ms(3),
                multiplier: 1.5,
                cap: None,
            },
            Delay::Linear {
                base: ms(7),
                cap: Some(ms(50)),
            },
            Delay::Decorrelated {
                base: ms(10),
                cap: None,
            },
            Delay::Fibonacci {
                first: ms(1),
                second: ms(1),
                cap: Some(ms(60_000)),
            },
            Delay::Quadratic {
                base: ms(100),
                cap: Some(ms(1000)),
            },
        ];
        for d in &delays {
            for n in [0, 1, 2, 3, 10, 100, EXACT_TERMS] {
                assert_eq!(d.total_backoff(n), Some(by_hand(d, n)), "{d:?} x {n}");
            }
        }
        assert_eq!(Delay::Custom.total_backoff(3), None);
    }

    #[test]
    fn the_closed_form_agrees_with_the_sum_past_the_exact_terms() {
        let delays = [
            Delay::Exponential {
                base: Duration::from_nanos(1),
                multiplier: 1.001,
                cap: Some(ms(5)),
            },
            Delay::Exponential {
                base: ms(1),
                multiplier: 1.0001,
                cap: None,
            },
            Delay::Exponential {
                base: ms(100),
                multiplier: 0.999,
                cap: None,
            },
            Delay::Exponential {
                base: ms(1),
                multiplier: 2.0,
                cap: Some(ms(60_000)),
            },
            Delay::Linear {
                base: Duration::from_micros(1),
                cap: Some(ms(9)),
            },
            Delay::Linear {
                base: Duration::from_micros(1),
                cap: None,
            },
            Delay::Fibonacci {
                first: Duration::from_nanos(1),
                second: Duration::from_nanos(2),
                cap: Some(ms(7)),
            },
            Delay::Fibonacci {
                first: ms(1),
                second: ms(1),
                cap: None,
            },
            Delay::Quadratic {
                base: Duration::from_nanos(3),
                cap: Some(ms(900)),
            },
            Delay::Quadratic {
                base: Duration::from_nanos(1),
                cap: None,
            },
        ];
        for d in &delays {
            for n in [EXACT_TERMS + 1, 9_000, 20_000, 50_001] {
                let fast = d.total_backoff(n).unwrap();
                let slow = by_hand(d, n);
                assert!(close(fast, slow, n), "{d:?} x {n}: {fast:?} vs {slow:?}");
            }
        }
    }

    #[test]
    fn fibonacci_is_the_sum_of_the_two_delays_before() {
        // The `retry` crate's `Fibonacci::from_millis(1)` (1, 1, 2, 3, 5,
        // ...): 26 retries wait F(1) + ... + F(26) = F(28) - 1 ms in all
        // (rustup's download retry); modelled as x1.618 it was 438.987 s.
        let retry = Delay::Fibonacci {
            first: ms(1),
            second: ms(1),
            cap: None,
        };
        let firsts: Vec<_> = (1..=7).map(|n| retry.nominal(n).unwrap()).collect();
        assert_eq!(firsts, [1, 1, 2, 3, 5, 8, 13].map(ms));
        assert_eq!(retry.total_backoff(26), Some(ms(317_810)));
        // sethvargo/go-retry starts base, 2 x base; a cap holds each term.
        let go = Delay::Fibonacci {
            first: ms(10),
            second: ms(20),
            cap: Some(ms(45)),
        };
        let firsts: Vec<_> = (1..=5).map(|n| go.nominal(n).unwrap()).collect();
        assert_eq!(firsts, [10, 20, 30, 45, 45].map(ms));
        assert!((go.uncapped(5).unwrap() - 0.08).abs() < 1e-12);
        // Zero throughout, and huge retry numbers, stay instant.
        let zero = Delay::Fibonacci {
            first: Duration::ZERO,
            second: Duration::ZERO,
            cap: None,
        };
        assert_eq!(zero.nominal(u32::MAX), Some(Duration::ZERO));
        assert_eq!(zero.total_backoff(u64::MAX), Some(Duration::ZERO));
        assert_eq!(retry.nominal(u32::MAX), Some(LONGEST));
        assert_eq!(retry.total_backoff(u64::MAX), Some(Duration::MAX));
    }

    #[test]
    fn quadratic_is_the_square_of_the_retry_times_the_base() {
        // kafka-go's writer: WriteBackoffMin 100 ms x n², at most
        // WriteBackoffMax 1 s (dialer.go `backoff`, 3ce2979).
        let kafka = Delay::Quadratic {
            base: ms(100),
            cap: Some(ms(1000)),
        };
        let firsts: Vec<_> = (1..=5).map(|n| kafka.nominal(n).unwrap()).collect();
        assert_eq!(firsts, [100, 400, 900, 1000, 1000].map(ms));
        // 10 attempts: 9 retries, 100 + 400 + 900 + 6 x 1000 ms.
        assert_eq!(kafka.total_backoff(9), Some(ms(7400)));
        assert!((kafka.uncapped(5).unwrap() - 2.5).abs() < 1e-12);
        let open = Delay::Quadratic {
            base: ms(1),
            cap: None,
        };
        assert_eq!(open.nominal(u32::MAX), Some(LONGEST));
        assert_eq!(open.total_backoff(u64::MAX), Some(Duration::MAX));
    }

    #[test]
    fn huge_counts_are_instant_and_saturate_without_truncating() {
        let n = u32::MAX as u64 + 1;
        assert_eq!(mul(ms(1), n), Duration::from_millis(n));
        assert_eq!(mul(Duration::MAX, 2), Duration::MAX);
        assert_eq!(
            worst_case(n, Duration::from_secs(1), Duration::ZERO),
            Duration::from_secs(n)
        );
        let exp = Delay::Exponential {
            base: ms(25),
            multiplier: 2.0,
            cap: Some(ms(250)),
        };
        // 25 + 50 + 100 + 200, then 250 each.
        let retries = 4_294_967_294u64;
        assert_eq!(
            exp.total_backoff(retries),
            Some(ms(375) + mul(ms(250), retries - 4))
        );
        let start = std::time::Instant::now();
        for d in [
            exp,
            Delay::Exponential {
                base: ms(1),
                multiplier: 1.0000001,
                cap: None,
            },
            Delay::Exponential {
                base: ms(1),
                multiplier: f64::NAN,
                cap: None,
            },
            Delay::Exponential {
                base: ms(1),
                multiplier: -3.0,
                cap: Some(ms(9)),
            },
            Delay::Linear {
                base: ms(1),
                cap: None,
            },
        ] {
            for n in [u32::MAX as u64, n, u64::MAX] {
                let t = d.total_backoff(n).unwrap();
                assert!(t > Duration::ZERO, "{d:?} x {n}");
            }
        }
        // A stall check, not a speed test: a loop over 2^64 retries would
        // never end; the closed form takes microseconds, so a minute only
        // fails if the loop came back (a loaded CI machine cannot stretch
        // microseconds to a minute).
        assert!(start.elapsed() < Duration::from_secs(60));
        assert_eq!(
            Delay::Linear {
                base: Duration::MAX,
                cap: None
            }
            .total_backoff(u64::MAX),
            Some(Duration::MAX)
        );
    }
}
