//! The simulation's benchmark (issue 24; `scripts/bench.sh --simulate`,
//! PERFORMANCE.md): a path of 10 retry layers of 3 attempts each (full
//! jitter on a doubling 100 ms wait, a 2 s per-try timeout on every other
//! layer, a 20% budget and a circuit breaker on two of them) at 1,000
//! requests/s for 120 s, the last service down for 30 s, as errors and as
//! timeouts. Prints the median wall time of RUNS runs (default 5) each.

use retrylint::simulate::{
    BREAKER_DEFAULTS, Breaker, Failure, Scenario, SimBudget, SimLayer, Wait, simulate,
};
use std::time::Instant;

fn layers() -> Vec<SimLayer> {
    (0..10)
        .map(|i| {
            let mut l = SimLayer::plain(&format!("layer {i}"), 3);
            l.waits = (0..2)
                .map(|k| Wait {
                    lo: 0.0,
                    hi: 0.1 * 2f64.powi(k),
                })
                .collect();
            if i % 2 == 1 {
                l.per_try = Some(2.0);
            }
            if i == 3 {
                l.budget = Some(SimBudget::Ratio {
                    ratio: 0.2,
                    min_per_second: 10.0,
                });
            }
            if i == 6 {
                l.breaker = Some(Breaker {
                    retried_when_open: false,
                    ..BREAKER_DEFAULTS
                });
            }
            l
        })
        .collect()
}

fn main() {
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5)
        .max(1);
    let layers = layers();
    for failure in [Failure::Error, Failure::Timeout] {
        let s = Scenario::new(1000.0, 30.0, Some(120.0), failure);
        let mut times = Vec::new();
        let mut peak = 0.0;
        for _ in 0..runs {
            let t = Instant::now();
            let o = simulate(&layers, &s, Some(10.0));
            times.push(t.elapsed().as_secs_f64());
            peak = o.peak_multiple();
        }
        times.sort_by(f64::total_cmp);
        println!(
            "10 layers x 3 attempts, 1000 rps, 120 s, outage 30 s ({failure:?}): median {:.1} ms of {runs} runs (min {:.1} ms, max {:.1} ms), peak {peak:.1}x",
            times[runs / 2] * 1000.0,
            times[0] * 1000.0,
            times[runs - 1] * 1000.0
        );
    }
}
