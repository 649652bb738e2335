//! `retrylint simulate`: what a path's retry layers do to the service at
//! its end while that service is down (docs/architecture.md, "Simulate").
//!
//! # The model
//!
//! Callers send `rps` requests per second into the path's entry. Each
//! request goes down the path once: through every retry layer of every
//! call, outermost first (the graph's [`crate::graph::Edge::layers`]), to
//! the last service. From `outage_start` for `outage` seconds that service
//! fails every request it receives, then it recovers:
//!
//! - `Failure::Error`: it is down: connections to it are refused (a
//!   proxy or sidecar in between answers `503`).
//! - `Failure::Timeout`: it never answers a request sent during the
//!   outage; a layer's per-try timeout ends the attempt (the request it
//!   gave up on keeps going below it: what the layers beneath do is still
//!   load), and a layer with no timeout above an unanswered call waits for
//!   ever (it never retries).
//!
//! A layer on the last hop retries if its conditions cover that (a
//! transport failure, `503`, gRPC `UNAVAILABLE`; for timeouts `504`,
//! `DEADLINE_EXCEEDED`); a layer further up sees the service below it
//! give up with a `500` and retries only if it retries that (Istio's
//! default, nginx's `proxy_next_upstream error timeout` do not). A
//! condition list that cannot be read counts as retried.
//!
//! Everything else answers at once; time is spent only in back-off waits
//! and timeouts. A layer makes its attempts in turn: attempt `k + 1`
//! starts when attempt `k` has failed and the layer's delay before retry
//! `k` has passed, drawn from the delay's jitter as a uniform interval
//! ([`Jitter`]). Hedging sends the next copy when the last fails or its
//! hedging delay passes, whichever is first. A retry budget lets through,
//! per time step, at most `ratio` x the layer's first attempts (plus its
//! minimum rate) as retries; the rest fail at once. A gRPC token bucket
//! stops retries while its tokens are at or below half. A circuit breaker
//! inside a retry layer opens when the failure rate of its last
//! `window` calls reaches its threshold, stays open for `open_for`, then
//! lets `half_open_calls` through and closes if they succeed; while open,
//! calls fail at once without reaching the layer below, and the retry
//! gives up at once where it treats the open breaker's error as not
//! retryable.
//!
//! # How it is computed
//!
//! Not request by request: the simulation moves *expected counts* through
//! fixed time steps (`dt`, 10 ms to an hour, the finest that keeps the run
//! within [`MAX_STEPS`] steps and [`MAX_WORK`]), which is exact for these rules in
//! expectation and needs no random numbers, so the same input gives the
//! same output on every machine. Every call into a layer behaves the same
//! whatever is above it, so each layer is reduced to a kernel: the
//! distribution of how long one of its calls takes to fail when every
//! attempt fails (`Kernel`, computed from the innermost layer outwards).
//! Then the flow of calls is pushed from the entry down: for each layer,
//! per time step and attempt number, the calls that make that attempt,
//! which reach the layer below, fail after the kernel's time (a call that
//! reaches the service after it recovered succeeds), and wait their
//! delay before the next attempt. The load on the failing service is the
//! flow of calls into the innermost layer. Work is bounded: at most
//! [`MAX_STEPS`] steps, [`MAX_LAYERS`] layers, [`MAX_ATTEMPTS`] attempts per
//! layer, kernels no longer than the outage plus one lost attempt; a path
//! of 10 layers at 1,000 rps for 120 s takes milliseconds
//! (`scripts/bench.sh --simulate`, PERFORMANCE.md).
//!
//! Approximations, each named where it is made: a budget's or breaker's
//! refusals are not in the kernel an outer layer sees (the outer layer
//! waits as if every attempt below ran); an overall timeout stops the
//! attempts whose expected start is past it; a decorrelated jitter is the
//! interval `[base, min(cap, 3 x delay)]`; a concurrency budget counts a
//! retry as in flight from the step it starts in until the step it fails
//! in (one that fails at once holds no place); an AWS retry quota is one
//! client's (a fleet of `n` clients has `n` quotas: less limiting); an
//! unknown jitter is taken as none (the worst case).

pub mod engine;
pub mod from_graph;
#[cfg(test)]
mod tests;

pub use engine::{Outcome, simulate};
pub use from_graph::{PathChoice, SimPath, choose_path, cut_to_owned, fixed_variant, path_layers};

/// The finest time step and the coarsest, in seconds.
pub const MIN_DT: f64 = 0.01;
pub const MAX_DT: f64 = 3_600.0;
/// Time steps of the whole run at most: the step grows until the run fits.
pub const MAX_STEPS: usize = 4_000;
/// The work of a run at most, as attempts x outage steps squared summed
/// over the layers (each attempt in each outage step spreads over a
/// kernel as long as the outage): the step grows until the run fits.
pub const MAX_WORK: f64 = 2e8;
/// Layers simulated at most (the outermost are kept).
pub const MAX_LAYERS: usize = 64;
/// Attempts per layer at most (an unbounded layer makes this many).
pub const MAX_ATTEMPTS: u32 = 100;
/// The limits of the scenario's numbers.
pub const MAX_RPS: f64 = 1e7;
pub const MAX_SECONDS: f64 = 86_400.0;
/// Output buckets, seconds.
pub const BUCKET: f64 = 0.1;
/// Load above normal by more than this share counts as excess.
pub const EXCESS_TOLERANCE: f64 = 0.05;

/// How the last service fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Failure {
    /// It answers at once with an error.
    Error,
    /// It never answers.
    Timeout,
}

/// What is simulated.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Scenario {
    /// User requests per second into the entry.
    pub rps: f64,
    /// When the outage starts, seconds from the start.
    pub outage_start: f64,
    /// How long it lasts, seconds.
    pub outage: f64,
    /// The whole run, seconds.
    pub duration: f64,
    pub failure: Failure,
}

impl Scenario {
    /// The audit's scenario: the deepest service down for 30 s at 100 rps.
    pub fn audit_default() -> Scenario {
        Scenario::new(100.0, 30.0, None, Failure::Error)
    }

    /// The outage starts after 10 s (or a tenth of the run); the run lasts
    /// `duration` or, by default, the outage plus 10 s before and 60 s
    /// after. Every number is held within [`MAX_RPS`] and [`MAX_SECONDS`].
    pub fn new(rps: f64, outage: f64, duration: Option<f64>, failure: Failure) -> Scenario {
        let clamp = |x: f64, hi: f64| if x.is_finite() { x.clamp(0.0, hi) } else { 0.0 };
        let rps = clamp(rps, MAX_RPS);
        let outage = clamp(outage, MAX_SECONDS);
        let duration = match duration {
            Some(d) => clamp(d, MAX_SECONDS).max(BUCKET),
            None => (outage + 70.0).min(MAX_SECONDS),
        };
        let outage_start = (duration / 10.0).min(10.0);
        Scenario {
            rps,
            outage_start,
            outage: outage.min(duration - outage_start),
            duration,
            failure,
        }
    }
}

/// The delay before one retry: uniform in `[lo, hi]` seconds.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Wait {
    pub lo: f64,
    pub hi: f64,
}

/// A retry budget.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum SimBudget {
    /// Retries at most `ratio` x first attempts, plus `min_per_second`.
    Ratio { ratio: f64, min_per_second: f64 },
    /// gRPC `retryThrottling`: a failure takes a token, a success gives
    /// back `token_ratio`; retries stop while tokens <= max / 2.
    Tokens { max_tokens: f64, token_ratio: f64 },
    /// At most `max` retries in flight at once (Envoy's `max_retries`
    /// circuit breaker, Istio's `connectionPool.http.maxRetries`): a retry
    /// that would exceed it fails at once. A retry that fails within the
    /// time step it starts in holds no place.
    Concurrency { max: f64 },
    /// The AWS SDKs' retry quota of one client: a retry takes `cost`
    /// tokens (refused when fewer are left), a successful retry gives its
    /// cost back and every successful attempt adds `success_increment`,
    /// up to `capacity`.
    Quota {
        capacity: f64,
        cost: f64,
        success_increment: f64,
    },
}

/// A circuit breaker between a retry layer and the call it retries.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Breaker {
    /// Failure share that opens it (0-1).
    pub threshold: f64,
    /// Calls it needs before it judges.
    pub min_calls: f64,
    /// The calls it judges (count-based window).
    pub window: f64,
    /// Or the seconds it judges (time-based window).
    pub window_secs: Option<f64>,
    /// Seconds it stays open.
    pub open_for: f64,
    /// Calls let through half-open.
    pub half_open_calls: f64,
    /// Whether the retry around it retries its "open" error.
    pub retried_when_open: bool,
}

/// Resilience4j's circuit breaker defaults (resilience4j
/// `resilience4j-circuitbreaker/src/main/java/io/github/resilience4j/circuitbreaker/CircuitBreakerConfig.java`,
/// commit 027f1a9: `DEFAULT_FAILURE_RATE_THRESHOLD = 50`,
/// `DEFAULT_MINIMUM_NUMBER_OF_CALLS = 100`, `DEFAULT_SLIDING_WINDOW_SIZE =
/// 100`, `DEFAULT_WAIT_DURATION_IN_OPEN_STATE = 60` seconds,
/// `DEFAULT_PERMITTED_CALLS_IN_HALF_OPEN_STATE = 10`): a composed breaker
/// whose settings are not known (not configured, or not read) is taken
/// with these.
pub const BREAKER_DEFAULTS: Breaker = Breaker {
    threshold: 0.5,
    min_calls: 100.0,
    window: 100.0,
    window_secs: None,
    open_for: 60.0,
    half_open_calls: 10.0,
    retried_when_open: true,
};

/// One retry layer as the simulation reads it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SimLayer {
    /// "orders -> payments: Resilience4j `payments`".
    pub label: String,
    /// Total attempts, the first included (1: no retries).
    pub attempts: u32,
    /// The wait before retry 1, 2, ... (`attempts - 1` of them).
    pub waits: Vec<Wait>,
    pub per_try: Option<f64>,
    pub overall: Option<f64>,
    /// Copies sent this far apart side by side (hedging).
    pub hedge: Option<f64>,
    pub budget: Option<SimBudget>,
    pub breaker: Option<Breaker>,
    /// Whether it retries the failure the layer below returns (a refused
    /// connection on the last hop, a `500` above it).
    pub retries_failure: bool,
    /// Whether it retries when its own per-try timeout (or hedging delay)
    /// ends an attempt.
    pub retries_timeout: bool,
}

impl SimLayer {
    /// A layer of `attempts` with no waits and nothing else.
    pub fn plain(label: &str, attempts: u32) -> SimLayer {
        let attempts = attempts.clamp(1, MAX_ATTEMPTS);
        SimLayer {
            label: label.to_string(),
            attempts,
            waits: vec![Wait { lo: 0.0, hi: 0.0 }; attempts as usize - 1],
            per_try: None,
            overall: None,
            hedge: None,
            budget: None,
            breaker: None,
            retries_failure: true,
            retries_timeout: true,
        }
    }

    /// The same wait (`lo..hi` seconds) before every retry.
    pub fn with_waits(mut self, lo: f64, hi: f64) -> SimLayer {
        self.waits = vec![Wait { lo, hi }; self.attempts as usize - 1];
        self
    }
}

/// A path and its fixed variant, simulated under one scenario.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Comparison {
    pub scenario: Scenario,
    pub found: SimPath,
    pub found_outcome: Outcome,
    pub fixed: SimPath,
    pub fixed_outcome: Outcome,
}

impl Comparison {
    pub fn run(path: SimPath, scenario: &Scenario) -> Comparison {
        let fixed = fixed_variant(&path);
        Comparison {
            found_outcome: simulate(&path.layers, scenario, path.entry_timeout),
            fixed_outcome: simulate(&fixed.layers, scenario, fixed.entry_timeout),
            scenario: scenario.clone(),
            found: path,
            fixed,
        }
    }

    /// The failing service's name.
    pub fn target(&self) -> &str {
        self.found.services.last().map_or("", String::as_str)
    }
}
