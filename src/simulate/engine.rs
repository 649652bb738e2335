//! The flow of expected counts through a path's layers (the model and its
//! approximations: the module's documentation).

use super::{
    BUCKET, Breaker, EXCESS_TOLERANCE, Failure, MAX_ATTEMPTS, MAX_DT, MAX_LAYERS, MAX_STEPS,
    MAX_WORK, MIN_DT, Scenario, SimBudget, SimLayer, Wait,
};
use std::collections::VecDeque;

/// What a run gives: the load on the failing service and what callers saw.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Outcome {
    /// The time step the flow moved in, seconds.
    pub step: f64,
    /// The width of each value of `load`, seconds.
    pub bucket: f64,
    /// Requests per second reaching the failing service, per bucket.
    pub load: Vec<f64>,
    /// The load with no outage: one call per user request.
    pub normal_rps: f64,
    pub peak_rps: f64,
    /// When the peak bucket starts, seconds from the start.
    pub peak_at: f64,
    /// Requests beyond normal load over the whole run (negative: fewer).
    pub extra_requests: f64,
    /// How long after recovery the load stays above normal, seconds.
    pub excess_after_recovery: f64,
    /// User requests sent into the entry.
    pub user_requests: f64,
    /// Share of user requests that failed or never got an answer.
    pub failed_share: f64,
    /// Share that did not fail but took longer than the entry's timeout.
    pub slow_share: f64,
    /// The timeout `slow_share` is measured against, seconds.
    pub entry_timeout: Option<f64>,
}

impl Outcome {
    pub fn peak_multiple(&self) -> f64 {
        if self.normal_rps > 0.0 {
            self.peak_rps / self.normal_rps
        } else {
            0.0
        }
    }
}

/// The time grid: step length, steps, the outage as steps `[a, b)`, and
/// `tail`, the steps one lost attempt takes to fail at the bottom (0 for
/// errors).
#[derive(Clone, Copy, Debug)]
struct Grid {
    dt: f64,
    steps: usize,
    a: usize,
    b: usize,
    tail: usize,
}

impl Grid {
    fn steps_of(&self, seconds: f64) -> usize {
        if !seconds.is_finite() || seconds <= 0.0 {
            return 0;
        }
        ((seconds / self.dt).round() as usize).min(self.steps)
    }
    /// Whether an inner call that starts at `t` and would fail `o` steps
    /// later fails (else it reached the service after it recovered).
    fn fails(&self, t: usize, o: usize) -> bool {
        t >= self.a && t < self.b && t + o < self.b + self.tail
    }
}

/// How long a call into a layer takes to fail when every attempt fails:
/// `mass[o]` is the share failing `o` steps after it starts; `never` the
/// share that never returns (or returns later than the window).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Kernel {
    pub mass: Vec<f64>,
    pub never: f64,
}

impl Kernel {
    fn at_once() -> Kernel {
        Kernel {
            mass: vec![1.0],
            never: 0.0,
        }
    }
    fn lost() -> Kernel {
        Kernel {
            mass: Vec::new(),
            never: 1.0,
        }
    }
    /// Whatever would fail after `at` steps (or never) fails at `at`.
    fn clamp(&self, at: usize) -> Kernel {
        let mut mass: Vec<f64> = self.mass.iter().take(at + 1).copied().collect();
        let late: f64 = self.mass.iter().skip(at + 1).sum::<f64>() + self.never;
        if late > 0.0 {
            mass.resize(at + 1, 0.0);
            mass[at] += late;
        }
        Kernel { mass, never: 0.0 }
    }
    /// One after the other, `max` steps at most (the rest: never).
    fn then(&self, next: &[f64], max: usize) -> Kernel {
        let len = (self.mass.len() + next.len())
            .saturating_sub(1)
            .min(max + 1);
        let mut mass = vec![0.0; len];
        for (i, &x) in self.mass.iter().enumerate() {
            if x == 0.0 || i >= len {
                continue;
            }
            for (j, &y) in next.iter().enumerate() {
                if i + j >= len {
                    break;
                }
                mass[i + j] += x * y;
            }
        }
        // What does not return within `max` steps, or never, is `never`.
        let kept: f64 = mass.iter().sum();
        Kernel {
            mass,
            never: (1.0 - kept).max(0.0),
        }
    }
    fn mean(&self) -> f64 {
        let finite: f64 = self.mass.iter().sum();
        if finite <= 0.0 {
            return f64::INFINITY;
        }
        let s: f64 = self
            .mass
            .iter()
            .enumerate()
            .map(|(i, x)| i as f64 * x)
            .sum();
        s / finite
    }
}

/// A wait as shares per step: a fixed wait is split between the two steps
/// around it (so its mean is kept), a uniform one goes to the nearest
/// step.
fn wait_steps(w: Wait, dt: f64, max: usize) -> Vec<f64> {
    let lo = (w.lo.max(0.0) / dt).min(max as f64);
    let hi = (w.hi.max(w.lo).max(0.0) / dt).min(max as f64);
    if hi - lo < 1e-9 {
        let i = lo.floor() as usize;
        let f = lo - lo.floor();
        let mut v = vec![0.0; i + 2];
        v[i] = 1.0 - f;
        v[i + 1] = f;
        return v;
    }
    let first = (lo + 0.5).floor() as usize;
    let last = (hi + 0.5).floor() as usize;
    let mut v = vec![0.0; last + 1];
    for (j, slot) in v.iter_mut().enumerate().skip(first) {
        let (from, to) = ((j as f64 - 0.5).max(lo), (j as f64 + 0.5).min(hi));
        if to > from {
            *slot = (to - from) / (hi - lo);
        }
    }
    v
}

/// The time grid for a scenario: the finest step of 10 ms to an hour that
/// keeps the run within [`MAX_STEPS`] steps and [`MAX_WORK`] for these
/// layers.
fn grid(s: &Scenario, layers: &[SimLayer]) -> Grid {
    let attempts: f64 = layers
        .iter()
        .map(|l| f64::from(l.attempts))
        .sum::<f64>()
        .max(1.0);
    let mut dt = MIN_DT;
    for c in [
        MIN_DT, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, MAX_DT,
    ] {
        dt = c;
        let outage = (s.outage / c).ceil() + 1.0;
        if s.duration / c <= MAX_STEPS as f64 && attempts * outage * outage <= MAX_WORK {
            break;
        }
    }
    let steps = ((s.duration / dt).round() as usize).clamp(1, MAX_STEPS);
    let a = ((s.outage_start / dt).round() as usize).min(steps);
    let b = (((s.outage_start + s.outage) / dt).round() as usize).clamp(a, steps);
    Grid {
        dt,
        steps,
        a,
        b,
        tail: 0,
    }
}

/// The layers as simulated: at most [`MAX_LAYERS`], attempts within
/// [`MAX_ATTEMPTS`], a wait for every retry.
fn sane(layers: &[SimLayer]) -> Vec<SimLayer> {
    layers
        .iter()
        .take(MAX_LAYERS)
        .map(|l| {
            let mut l = l.clone();
            l.attempts = l.attempts.clamp(1, MAX_ATTEMPTS);
            l.waits
                .resize(l.attempts as usize - 1, Wait { lo: 0.0, hi: 0.0 });
            l
        })
        .collect()
}

/// How long one attempt of `l` takes to fail, given its inner kernel:
/// cut at its per-try timeout or hedging delay.
fn attempt_kernel(l: &SimLayer, inner: &Kernel, g: &Grid) -> Kernel {
    match l.per_try.into_iter().chain(l.hedge).reduce(f64::min) {
        Some(p) => inner.clamp(g.steps_of(p)),
        None => inner.clone(),
    }
}

/// The share of an attempt's failures `o` steps in that the layer
/// retries: those its own timeout ended (at the cut) are retried if it
/// retries timeouts, the others if it retries the failure below.
fn retried_share(l: &SimLayer, o: usize, g: &Grid) -> f64 {
    let cut = l
        .per_try
        .into_iter()
        .chain(l.hedge)
        .reduce(f64::min)
        .map(|p| g.steps_of(p));
    let retried = if cut == Some(o) {
        l.retries_timeout
    } else {
        l.retries_failure
    };
    if retried { 1.0 } else { 0.0 }
}

/// The attempts of `l` whose expected start comes before its overall
/// timeout (all of them without one).
fn attempts_made(l: &SimLayer, attempt: &Kernel, g: &Grid) -> usize {
    let Some(overall) = l.overall else {
        return l.attempts as usize;
    };
    let limit = overall / g.dt;
    let mut start = 0.0;
    let mut n = 1;
    for w in l.waits.iter() {
        start += attempt.mean() + (w.lo + w.hi) / 2.0 / g.dt;
        if start >= limit {
            break;
        }
        n += 1;
    }
    n
}

/// Kernels of every layer, innermost last: `out[d]` is how a call into
/// layer `d` fails; `out[layers.len()]` the failing service itself.
fn kernels(layers: &[SimLayer], g: &Grid, failure: Failure) -> Vec<Kernel> {
    let window = (g.b - g.a) + g.tail + 1;
    let mut out = vec![match failure {
        Failure::Error => Kernel::at_once(),
        Failure::Timeout => Kernel::lost(),
    }];
    for l in layers.iter().rev() {
        crate::guard::checkpoint();
        let inner = out.last().cloned().unwrap_or_else(Kernel::at_once);
        let one = attempt_kernel(l, &inner, g);
        let n = attempts_made(l, &one, g);
        // Failures the layer retries, and those that end it at once.
        let split = |keep: bool| -> Vec<f64> {
            let mass = one.mass.iter().enumerate();
            mass.map(|(o, w)| {
                let r = retried_share(l, o, g);
                w * if keep { r } else { 1.0 - r }
            })
            .collect()
        };
        let (again, end) = (split(true), split(false));
        // Attempt k starts after k - 1 retried failures and their waits.
        let mut start = Kernel::at_once();
        let mut k = Kernel {
            mass: Vec::new(),
            never: 0.0,
        };
        for i in 0..n {
            add(&mut k, &start.then(&end, window));
            let failed = start.then(&again, window);
            if i + 1 == n {
                add(&mut k, &failed);
                break;
            }
            let wait = wait_steps(l.waits[i], g.dt, window);
            start = failed.then(&wait, window);
        }
        k.never = (1.0 - k.mass.iter().sum::<f64>()).max(0.0);
        if let Some(o) = l.overall {
            k = k.clamp(g.steps_of(o));
        }
        out.push(k);
    }
    out.reverse();
    out
}

/// Adds `part`'s mass to `k`'s.
fn add(k: &mut Kernel, part: &Kernel) {
    if k.mass.len() < part.mass.len() {
        k.mass.resize(part.mass.len(), 0.0);
    }
    for (i, x) in part.mass.iter().enumerate() {
        k.mass[i] += x;
    }
}

/// A breaker's state over the run.
struct BreakerRun {
    cfg: Breaker,
    open_until: Option<usize>,
    half_open_left: Option<f64>,
    probes: (f64, f64),
    recent: VecDeque<(f64, f64)>,
    calls: f64,
    fails: f64,
    open_steps: usize,
    /// A time-based window, in steps.
    window_steps: Option<usize>,
}

impl BreakerRun {
    fn new(cfg: Breaker, g: &Grid) -> BreakerRun {
        BreakerRun {
            cfg,
            open_until: None,
            half_open_left: None,
            probes: (0.0, 0.0),
            recent: VecDeque::new(),
            calls: 0.0,
            fails: 0.0,
            open_steps: g.steps_of(cfg.open_for).max(1),
            window_steps: cfg.window_secs.map(|w| g.steps_of(w).max(1)),
        }
    }
    fn start_step(&mut self, t: usize) {
        if self.open_until.is_some_and(|u| t >= u) {
            self.open_until = None;
            self.half_open_left = Some(self.cfg.half_open_calls);
            self.probes = (0.0, 0.0);
        }
    }
    /// How much of `m` calls it lets through now.
    fn admit(&mut self, m: f64) -> f64 {
        if self.open_until.is_some() {
            return 0.0;
        }
        match &mut self.half_open_left {
            Some(left) => {
                let pass = m.min(*left);
                *left -= pass;
                pass
            }
            None => m,
        }
    }
    fn record(&mut self, calls: f64, fails: f64) {
        if self.half_open_left.is_some() {
            self.probes.0 += calls;
            self.probes.1 += fails;
        } else {
            match self.recent.back_mut() {
                Some(last) => {
                    last.0 += calls;
                    last.1 += fails;
                }
                None => self.recent.push_back((calls, fails)),
            }
            self.calls += calls;
            self.fails += fails;
        }
    }
    fn end_step(&mut self, t: usize) {
        let rate = |c: f64, f: f64| if c > 0.0 { f / c } else { 0.0 };
        if self.half_open_left.is_some() {
            if self.probes.0 > 0.0 && self.half_open_left.is_some_and(|l| l <= 1e-9) {
                self.half_open_left = None;
                if rate(self.probes.0, self.probes.1) >= self.cfg.threshold {
                    self.open_until = Some(t + self.open_steps);
                } else {
                    self.recent.clear();
                    self.calls = 0.0;
                    self.fails = 0.0;
                }
            }
            return;
        }
        while let Some(&(c, f)) = self.recent.front() {
            let keep = match self.window_steps {
                // One entry per step: the last `w` steps are judged.
                Some(w) => self.recent.len() <= w,
                None => self.calls - c < self.cfg.window,
            };
            if keep {
                break;
            }
            self.recent.pop_front();
            self.calls -= c;
            self.fails -= f;
        }
        if self.calls >= self.cfg.min_calls && rate(self.calls, self.fails) >= self.cfg.threshold {
            self.open_until = Some(t + 1 + self.open_steps);
            self.recent.clear();
            self.calls = 0.0;
            self.fails = 0.0;
        }
        self.recent.push_back((0.0, 0.0));
    }
}

/// What one layer does with the calls that enter it.
struct LayerFlow {
    /// Calls into the layer below, per step.
    below: Vec<f64>,
    /// This layer's calls that failed, per step.
    failed: Vec<f64>,
    /// Calls that never returned.
    hung: f64,
}

fn flow(l: &SimLayer, input: &[f64], inner: &Kernel, g: &Grid) -> LayerFlow {
    let one = attempt_kernel(l, inner, g);
    let n = attempts_made(l, &one, g).max(1);
    let horizon = g.steps;
    let waits: Vec<Vec<f64>> = l
        .waits
        .iter()
        .map(|w| wait_steps(*w, g.dt, horizon))
        .collect();
    let mut x = vec![vec![0.0; horizon]; n];
    x[0].copy_from_slice(&input[..horizon]);
    let mut below = vec![0.0; horizon];
    let mut failed = vec![0.0; horizon];
    let mut hung = 0.0;
    let mut breaker = l.breaker.map(|b| BreakerRun::new(b, g));
    let mut tokens = match l.budget {
        Some(SimBudget::Tokens { max_tokens, .. }) => max_tokens,
        Some(SimBudget::Quota { capacity, .. }) => capacity,
        _ => 0.0,
    };
    // Retries in flight, and those that end per step (a concurrency budget).
    let mut in_flight: f64 = 0.0;
    let mut ends = if matches!(l.budget, Some(SimBudget::Concurrency { .. })) {
        vec![0.0; horizon + 1]
    } else {
        Vec::new()
    };
    // Retry k + 1 of calls that failed attempt k at step f.
    let retry = |x: &mut Vec<Vec<f64>>, failed: &mut Vec<f64>, k: usize, f: usize, m: f64| {
        if k + 1 < n {
            for (o, w) in waits[k].iter().enumerate() {
                if f + o < horizon && *w > 0.0 {
                    x[k + 1][f + o] += m * w;
                }
            }
        } else if f < horizon {
            failed[f] += m;
        }
    };
    for t in 0..horizon {
        if t % 256 == 0 {
            crate::guard::checkpoint();
        }
        if let Some(b) = breaker.as_mut() {
            b.start_step(t);
        }
        if let Some(e) = ends.get(t) {
            in_flight = (in_flight - e).max(0.0);
        }
        let mut budget_left = match l.budget {
            Some(SimBudget::Ratio {
                ratio,
                min_per_second,
            }) => ratio.max(0.0) * x[0][t] + min_per_second.max(0.0) * g.dt,
            Some(SimBudget::Tokens { max_tokens, .. }) if tokens <= max_tokens / 2.0 => 0.0,
            Some(SimBudget::Concurrency { max }) => {
                // The share of this step's retries that will hold a place:
                // those still failing after the step (the rest end in it).
                let held = if t >= g.a && t < g.b {
                    one.never
                        + one
                            .mass
                            .iter()
                            .enumerate()
                            .filter(|&(o, w)| o > 0 && *w > 0.0 && g.fails(t, o))
                            .map(|(_, w)| w)
                            .sum::<f64>()
                } else {
                    0.0
                };
                if held > 0.0 {
                    (max - in_flight).max(0.0) / held
                } else {
                    f64::INFINITY
                }
            }
            Some(SimBudget::Quota { cost, .. }) if cost > 0.0 => tokens / cost,
            _ => f64::INFINITY,
        };
        let budget_at_start = budget_left;
        let (mut step_fails, mut step_ok, mut retries_ok) = (0.0, 0.0, 0.0);
        for k in 0..n {
            let mut m = x[k][t];
            if m <= 0.0 {
                continue;
            }
            if k > 0 {
                let allowed = m.min(budget_left);
                budget_left -= allowed;
                failed[t] += m - allowed;
                m = allowed;
            }
            let pass = breaker.as_mut().map_or(m, |b| b.admit(m));
            let refused = m - pass;
            if refused > 0.0 {
                let retried = l.breaker.is_some_and(|b| b.retried_when_open);
                if retried {
                    retry(&mut x, &mut failed, k, t, refused);
                } else {
                    failed[t] += refused;
                }
            }
            if pass <= 0.0 {
                continue;
            }
            below[t] += pass;
            let mut fail_share = 0.0;
            if t >= g.a && t < g.b {
                for (o, w) in one.mass.iter().enumerate() {
                    if *w > 0.0 && g.fails(t, o) {
                        fail_share += w;
                        if k > 0 && o > 0 && !ends.is_empty() {
                            in_flight += pass * w;
                            ends[(t + o).min(horizon)] += pass * w;
                        }
                        let r = retried_share(l, o, g);
                        if r > 0.0 {
                            retry(&mut x, &mut failed, k, t + o, pass * w * r);
                        }
                        if r < 1.0 && t + o < horizon {
                            failed[t + o] += pass * w * (1.0 - r);
                        }
                    }
                }
                hung += pass * one.never;
                fail_share += one.never;
                if k > 0 && !ends.is_empty() {
                    // A retry that never returns keeps its place.
                    in_flight += pass * one.never;
                }
            }
            step_fails += pass * fail_share;
            step_ok += pass * (1.0 - fail_share);
            if k > 0 {
                retries_ok += pass * (1.0 - fail_share);
            }
            if let Some(b) = breaker.as_mut() {
                b.record(pass, pass * fail_share);
            }
        }
        if let Some(SimBudget::Tokens {
            max_tokens,
            token_ratio,
        }) = l.budget
        {
            tokens = (tokens - step_fails + token_ratio * step_ok).clamp(0.0, max_tokens);
        }
        if let Some(SimBudget::Quota {
            capacity,
            cost,
            success_increment,
        }) = l.budget
        {
            let spent = (budget_at_start - budget_left) * cost;
            tokens = (tokens - spent + cost * retries_ok + success_increment * step_ok)
                .clamp(0.0, capacity);
        }
        if let Some(b) = breaker.as_mut() {
            b.end_step(t);
        }
    }
    LayerFlow {
        below,
        failed,
        hung,
    }
}

/// The innermost finite timeout, which ends a lost attempt at the bottom.
fn lost_attempt(layers: &[SimLayer]) -> Option<f64> {
    layers.iter().rev().find_map(|l| {
        l.per_try
            .into_iter()
            .chain(l.hedge)
            .chain(l.overall)
            .reduce(f64::min)
    })
}

/// Simulate `layers` (outermost first) under `s`; `entry_timeout` is what
/// the entry gives a user request (the slow share is measured against
/// it).
pub fn simulate(layers: &[SimLayer], s: &Scenario, entry_timeout: Option<f64>) -> Outcome {
    let layers = sane(layers);
    let mut g = grid(s, &layers);
    if s.failure == Failure::Timeout {
        g.tail = lost_attempt(&layers).map_or(0, |t| g.steps_of(t));
    }
    let kernels = kernels(&layers, &g, s.failure);
    let per_step = s.rps * g.dt;
    let input = vec![per_step; g.steps];
    let mut flow_in = input.clone();
    let mut top: Option<LayerFlow> = None;
    for (d, l) in layers.iter().enumerate() {
        let f = flow(l, &flow_in, &kernels[d + 1], &g);
        flow_in = f.below.clone();
        if d == 0 {
            top = Some(f);
        }
    }
    let user_requests: f64 = input.iter().sum();
    // Without layers, a request at the failing service fails as it does.
    let failed = match &top {
        Some(f) => f.failed.iter().sum::<f64>() + f.hung,
        None => input[g.a..g.b].iter().sum(),
    };
    // Slow: still waiting at the entry's timeout, and not to fail.
    let whole = &kernels[0];
    let slow = entry_timeout.map_or(0.0, |te| {
        let te = g.steps_of(te);
        let mut slow = 0.0;
        for (s_, x) in input.iter().enumerate().take(g.b).skip(g.a) {
            let left = g.b + g.tail - s_;
            let mut p = whole.never;
            if left > te {
                p += whole.mass.iter().skip(left).sum::<f64>();
            }
            slow += x * p.min(1.0);
        }
        slow
    });
    summarise(&flow_in, &g, s, user_requests, failed, slow, entry_timeout)
}

fn summarise(
    at_service: &[f64],
    g: &Grid,
    s: &Scenario,
    users: f64,
    failed: f64,
    slow: f64,
    entry_timeout: Option<f64>,
) -> Outcome {
    let bucket = BUCKET.max(g.dt);
    let per = ((bucket / g.dt).round() as usize).max(1);
    let load: Vec<f64> = at_service
        .chunks(per)
        .map(|c| c.iter().sum::<f64>() / (c.len() as f64 * g.dt))
        .collect();
    let (mut peak_rps, mut peak_at) = (0.0, 0.0);
    for (i, &r) in load.iter().enumerate() {
        if r > peak_rps + 1e-9 {
            peak_rps = r;
            peak_at = i as f64 * bucket;
        }
    }
    let recovery = g.b as f64 * g.dt;
    let limit = s.rps * (1.0 + EXCESS_TOLERANCE) + 1e-9;
    let last_excess = load
        .iter()
        .enumerate()
        .rev()
        .find(|(i, r)| (*i as f64 + 1.0) * bucket > recovery && **r > limit)
        .map(|(i, _)| i);
    let excess_after_recovery =
        last_excess.map_or(0.0, |i| ((i as f64 + 1.0) * bucket - recovery).max(0.0));
    let total: f64 = at_service.iter().sum();
    let share = |x: f64| {
        if users > 0.0 {
            (x / users).clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    Outcome {
        step: g.dt,
        bucket,
        load,
        normal_rps: s.rps,
        peak_rps,
        peak_at,
        extra_requests: total - users,
        excess_after_recovery,
        user_requests: users,
        failed_share: share(failed),
        slow_share: share(slow).min(1.0 - share(failed)),
        entry_timeout,
    }
}

#[cfg(test)]
pub(super) fn kernels_for_test(layers: &[SimLayer], s: &Scenario) -> (f64, Vec<Kernel>) {
    let g = grid(s, layers);
    (g.dt, kernels(layers, &g, s.failure))
}
