//! Retry crates' builders: defaults and the setters of each chain.

use super::*;
use crate::model::versions::{Change, Library, Version, Versioned};

pub(super) fn backoff_default(span: Span) -> Build {
    let mut b = Build::new(Krate::Backoff, Shape::Exponential, span);
    b.min = Located::default_at(Duration::from_millis(500), span);
    b.factor = Located::default_at(1.5, span);
    b.cap = Some(Located::default_at(Duration::from_secs(60), span));
    b.jitter = Located::default_at(Jitter::Proportional { factor: 0.5 }, span);
    b.cap_order = CapOrder::BeforeJitter;
    b.elapsed = Some(Located::default_at(Some(Duration::from_secs(900)), span));
    b.retries_written = "backoff default max_elapsed_time 15 min".into();
    b
}

pub(super) fn backoff_field(b: &mut Build, name: &str, v: &L) {
    match name {
        "initial_interval" | "current_interval" if v.dur().is_some() => {
            if let Some(d) = v.dur() {
                b.min = Located::written(d, v.span);
            }
        }
        "multiplier" if v.float().is_some() => {
            if let Some(x) = v.float() {
                b.factor = Located::written(x, v.span);
            }
        }
        "max_interval" if v.dur().is_some() => {
            if let Some(d) = v.dur() {
                b.cap = Some(Located::written(d, v.span));
            }
        }
        "randomization_factor" if v.float().is_some() => {
            if let Some(x) = v.float() {
                b.jitter = Located::written(
                    if x == 0.0 {
                        Jitter::None
                    } else {
                        Jitter::Proportional { factor: x }
                    },
                    v.span,
                );
            }
        }
        "max_elapsed_time" => match &v.v {
            V::Path(p) if p == "None" => {
                b.elapsed = Some(Located::written(None, v.span));
                b.retries = Located::written(AttemptCount::Unbounded, v.span);
                b.retries_written = "max_elapsed_time: None".into();
            }
            V::Some(inner) if inner.dur().is_some() => {
                if let Some(d) = inner.dur() {
                    b.elapsed = Some(Located::written(Some(d), v.span));
                    b.retries_written = format!("max_elapsed_time {}", crate::duration::human(d));
                    b.retries = Located::written(AttemptCount::Unbounded, v.span);
                }
            }
            // A value the file does not show (`config.retry_timeout`): the
            // written field, not the default it replaces, decides; its
            // count is unknown.
            _ => {
                b.elapsed = None;
                b.retries = Located::written(AttemptCount::Unknown, v.span);
                b.retries_written = "max_elapsed_time from a value the file does not show".into();
            }
        },
        "initial_interval" | "current_interval" | "multiplier" | "max_interval" => {
            b.delay_unknown = Some(v.span);
        }
        "randomization_factor" => b.jitter = Located::written(Jitter::Unknown, v.span),
        _ => {}
    }
}

/// Apply a builder method; false when the method is not one the crate has
/// (the value is then unknown).
pub(super) fn apply(b: &mut Build, name: &str, args: &[L], span: Span, text: &str) -> bool {
    const DELAY_SETTERS: &[&str] = &[
        "with_factor",
        "base",
        "with_min_delay",
        "with_delay",
        "with_max_delay",
        "max_delay",
        "retry_bounds",
        "factor",
        "with_initial_backoff",
        "with_max_backoff",
        "with_initial_interval",
        "with_max_interval",
        "with_multiplier",
    ];
    if DELAY_SETTERS.contains(&name)
        && args
            .iter()
            .any(|a| a.float().is_none() && a.dur().is_none())
    {
        b.delay_unknown = Some(span);
    }
    let written = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let a0 = args.first();
    match (b.krate, name) {
        // Passthrough on every builder.
        (_, "clone" | "build" | "make_backoff" | "into" | "unwrap" | "expect" | "to_owned") => {}
        (_, "with_jitter_seed" | "with_retry_mode" | "with_reconnect_mode") => {}
        (Krate::Backon, "with_jitter") => b.jitter = Located::written(Jitter::Additive, span),
        (Krate::Backon, "with_factor") | (Krate::RetryPolicies, "base") => {
            if let Some(x) = a0.and_then(L::float) {
                b.factor = Located::written(x, span);
            }
        }
        (Krate::Backon, "with_min_delay" | "with_delay") => {
            if let Some(d) = a0.and_then(L::dur) {
                b.min = Located::written(d, span);
            }
        }
        (Krate::Backon, "with_max_delay") | (Krate::TokioRetry, "max_delay") => {
            if let Some(d) = a0.and_then(L::dur) {
                b.cap = Some(Located::written(d, span));
            }
        }
        (Krate::Backon, "without_max_delay") => b.cap = None,
        (Krate::Backon, "with_max_times") | (Krate::TokioRetry | Krate::Retry, "take") => {
            b.retries = match a0.and_then(L::int) {
                Some(n) if n >= 0 => Located::written(AttemptCount::Finite(n as u64), span),
                _ => Located::written(AttemptCount::Unknown, span),
            };
            b.retries_written = format!("{} (retries)", written(text));
        }
        (Krate::Backon, "without_max_times") => {
            b.retries = Located::written(AttemptCount::Unbounded, span);
            b.retries_written = written(text);
        }
        (Krate::Backon, "with_total_delay") => match a0.map(|a| &a.v) {
            Some(V::Some(d)) => b.elapsed = Some(Located::written(d.dur(), span)),
            Some(V::Path(p)) if p == "None" => b.elapsed = None,
            _ => b.elapsed = Some(Located::written(None, span)),
        },
        (Krate::RetryPolicies, "retry_bounds") => {
            if let (Some(lo), Some(hi)) = (a0.and_then(L::dur), args.get(1).and_then(L::dur)) {
                b.min = Located::written(lo, span);
                b.cap = Some(Located::written(hi, span));
            }
        }
        (Krate::RetryPolicies, "jitter") => {
            let j = match a0.map(|a| &a.v) {
                Some(V::Path(p)) if p.ends_with("None") => Jitter::None,
                Some(V::Path(p)) if p.ends_with("Full") || p.ends_with("Bounded") => Jitter::Full,
                _ => Jitter::Unknown,
            };
            b.jitter = Located::written(j, span);
        }
        (Krate::RetryPolicies, "build_with_max_retries") => {
            b.retries = match a0.and_then(L::int) {
                Some(n) if n >= 0 => Located::written(AttemptCount::Finite(n as u64), span),
                _ => Located::written(AttemptCount::Unknown, span),
            };
            let shown = match a0.and_then(L::int) {
                Some(n) if !text.contains(&n.to_string()) => format!(" = {n}"),
                _ => String::new(),
            };
            b.retries_written = format!("{}{shown} (retries)", written(text));
        }
        (
            Krate::RetryPolicies,
            "build_with_total_retry_duration" | "build_with_total_retry_duration_and_limit_retries",
        ) => {
            b.elapsed = Some(Located::written(a0.and_then(L::dur), span));
            b.retries = Located::written(AttemptCount::Unbounded, span);
            b.retries_written = written(text);
        }
        (Krate::RetryPolicies, "build_with_total_retry_duration_and_max_retries") => {
            b.elapsed = Some(Located::written(a0.and_then(L::dur), span));
            b.retries = match args.get(1).and_then(L::int) {
                Some(n) if n >= 0 => Located::written(AttemptCount::Finite(n as u64), span),
                _ => Located::written(AttemptCount::Unknown, span),
            };
            b.retries_written = written(text);
        }
        (Krate::TokioRetry, "factor") => {
            if let Some(x) = a0.and_then(L::float) {
                b.min = Located::written(b.min.value.mul_f64(x.max(0.0)), span);
            }
        }
        (Krate::TokioRetry | Krate::Retry, "map") => {
            let t = crate::systems::rust::extract::squash(text);
            let j = if t.contains("jitter") {
                Jitter::Full
            } else {
                Jitter::Unknown
            };
            b.jitter = Located::written(j, span);
        }
        (Krate::Backoff, n) if n.starts_with("with_") => {
            let field = &n[5..];
            if let Some(v) = a0 {
                backoff_field(b, field, v);
            }
        }
        (Krate::Aws, "with_max_attempts") => {
            b.retries = match a0.and_then(L::int) {
                Some(n) if n >= 1 => Located::written(AttemptCount::Finite(n as u64 - 1), span),
                _ => Located::written(AttemptCount::Unknown, span),
            };
            b.retries_written = format!("{} (attempts)", written(text));
        }
        (Krate::Aws, "with_initial_backoff") => {
            if let Some(d) = a0.and_then(L::dur) {
                b.min = Located::written(d, span);
            }
        }
        (Krate::Aws, "with_max_backoff") => {
            if let Some(d) = a0.and_then(L::dur) {
                b.cap = Some(Located::written(d, span));
            }
        }
        _ => return false,
    }
    true
}

/// The `retry` crate's `NoDelay`: every retry at once, for ever.
pub(super) fn retry_no_delay(span: Span) -> Build {
    let mut b = Build::new(Krate::Retry, Shape::Constant, span);
    b.min = Located::written(Duration::ZERO, span);
    b.retries_written = "no .take(n)".into();
    b
}

impl<'a> Eval<'a, '_> {
    /// The `retry` crate's delay iterators (retry 2.2.0, `src/delay/mod.rs`
    /// and `src/delay/random.rs`, cited in this module's head): endless
    /// until `.take(n)`, no cap, no jitter unless `.map(jitter)`.
    pub(super) fn retry_crate_delays(
        &self,
        owner: &str,
        name: &str,
        args: &[&'a Expr],
        span: Span,
        f: &mut Frame,
    ) -> Option<Build> {
        let arg = |i: usize, f: &mut Frame| args.get(i).map(|a| self.eval(a, f));
        let millis = |l: &L| {
            l.float()
                .map(|ms| Duration::try_from_secs_f64(ms.max(0.0) / 1e3).unwrap_or(Duration::MAX))
        };
        let shape = match owner {
            "Exponential" => Shape::Exponential,
            "Fibonacci" => Shape::Fibonacci,
            _ => Shape::Constant,
        };
        let mut b = Build::new(Krate::Retry, shape, span);
        b.retries_written = "no .take(n)".into();
        let first = arg(0, f)?;
        match (owner, name) {
            (
                "Range",
                "from_millis_exclusive"
                | "from_millis_inclusive"
                | "try_from_millis_exclusive"
                | "try_from_millis_inclusive",
            ) => {
                // Uniform in [lo, hi]: the midpoint, plus or minus the
                // half-width as a proportion of it.
                let (lo, hi) = (first.float()?, arg(1, f)?.float()?);
                if !(0.0 <= lo && lo < hi) {
                    return None;
                }
                let mid = (lo + hi) / 2.0;
                b.min = Located::written(millis(&L::new(V::Float(mid), first.span))?, first.span);
                b.jitter = Located::written(
                    Jitter::Proportional {
                        factor: (hi - lo) / (hi + lo),
                    },
                    span,
                );
            }
            ("Range", _) => return None,
            (_, "from_millis" | "from_millis_with_factor" | "from_millis_with_base_factor") => {
                b.min = Located::written(millis(&first)?, first.span);
                // `from_millis`: factor 2.0 from retry 2.0 on (2.2.0
                // f3c92f3 `src/delay/mod.rs`); 1.x (1.3.1 3f4d0fd) set
                // `factor: base as f64`, what `from_millis_with_base_factor`
                // does now: the facts hold 2.x, `versioned` the 1.x reading
                // the build's Cargo.lock selects.
                if owner == "Exponential" && name == "from_millis" {
                    b.factor_before_2 = Some(Located::written(first.float()?, first.span));
                }
                b.factor = match name {
                    "from_millis_with_factor" => {
                        let x = arg(1, f)?;
                        Located::written(x.float()?, x.span)
                    }
                    "from_millis_with_base_factor" => Located::written(first.float()?, first.span),
                    _ => Located::default_at(2.0, span),
                };
            }
            (_, "from") => b.min = Located::written(first.dur()?, first.span),
            _ => return None,
        }
        Some(b)
    }
}

impl Build {
    /// The reading of a `retry` crate delay that changed in 2.0:
    /// `Exponential::from_millis(b)` multiplied by `b` before (1.3.1
    /// `src/delay/mod.rs`: `factor: base as f64`) and by 2 since (2.0.0,
    /// commit 0900ff8 "Use a default factor of 2"). The rest of what is read
    /// (`Fixed`, `Fibonacci`, `NoDelay`, `.take(n)`, `jitter`, `Range`,
    /// `OperationResult`) is the same in 1.3.1 and 2.2.0 but for full
    /// jitter's rounding (`ceil` per part before 2.2.0, `mul_f64` since).
    /// `p` is the policy as pushed at index `policy`: a delay the uses
    /// replaced is left alone.
    pub fn versioned(&self, p: &RetryPolicy, policy: usize) -> Option<Versioned> {
        let factor = self.factor_before_2.clone()?;
        if p.delay != self.delay() {
            return None;
        }
        let mut old = self.clone();
        old.factor = factor;
        Some(Versioned {
            library: Library::Retry,
            since: Version::new(2, 0, 0),
            older: vec![Change::Delay {
                policy,
                span: p.span,
                delay: old.delay(),
            }],
            newer: Vec::new(),
        })
    }
}
