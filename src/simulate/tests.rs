//! The closed forms the simulation must match.

use super::*;

/// 100 rps, the service down from 10 s to 40 s, 100 s in all.
fn scenario(failure: Failure) -> Scenario {
    let s = Scenario::new(100.0, 30.0, Some(100.0), failure);
    assert_eq!((s.outage_start, s.outage), (10.0, 30.0));
    s
}

/// The mean load over `[from, to)` seconds.
fn load(o: &Outcome, from: f64, to: f64) -> f64 {
    let (i, j) = (
        (from / o.bucket).round() as usize,
        (to / o.bucket).round() as usize,
    );
    o.load[i..j].iter().sum::<f64>() / (j - i) as f64
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn one_layer_without_jitter_multiplies_load_in_waves_at_the_wait_times() {
    // 3 attempts, 1 s apart: from the outage's start each second adds a
    // wave of the same requests again, up to 3x.
    let l = SimLayer::plain("a -> b", 3).with_waits(1.0, 1.0);
    let o = simulate(&[l], &scenario(Failure::Error), None);
    for (from, to, x) in [
        (0.0, 10.0, 1.0),
        (10.0, 11.0, 1.0),
        (11.0, 12.0, 2.0),
        (12.0, 40.0, 3.0),
        // After recovery the retries already waiting still arrive: the
        // second tries of the last second, the third of the one before;
        // then nothing fails any more.
        (40.0, 41.0, 3.0),
        (41.0, 100.0, 1.0),
    ] {
        let got = load(&o, from, to);
        assert!(close(got, 100.0 * x, 1e-6), "{from}-{to}: {got}");
    }
    assert!(close(o.peak_rps, 300.0, 1e-6));
    assert!(close(o.peak_at, 12.0, 1e-9), "{}", o.peak_at);
    assert!(close(o.excess_after_recovery, 1.0, 1e-9));
    // 28 s of requests make 2 extra tries, the last 2 s 2 and 1.
    assert!(close(
        o.extra_requests,
        100.0 * (28.0 * 2.0 + 2.0 + 1.0),
        1e-6
    ));
    // Requests of the first 28 s of the outage fail all 3 tries.
    assert!(close(o.failed_share, 2800.0 / 10_000.0, 1e-9));
}

#[test]
fn full_jitter_spreads_the_retries_uniformly_over_the_wait() {
    // 2 attempts, the retry uniform in [0, 2 s]: from the outage's start
    // the load climbs as the uniform distribution's CDF, 1 + x / 2.
    let l = SimLayer::plain("a -> b", 2).with_waits(0.0, 2.0);
    let o = simulate(&[l], &scenario(Failure::Error), None);
    let mut worst: f64 = 0.0;
    for i in 0..20 {
        let x = 0.1 * i as f64 + 0.05;
        let want = 100.0 * (1.0 + x / 2.0);
        worst = worst.max((load(&o, 10.0 + 0.1 * i as f64, 10.1 + 0.1 * i as f64) - want).abs());
    }
    // One time step (50 ms) of the 2 s ramp at most: 2.5 rps.
    assert!(worst <= 2.5, "{worst}");
    assert!(close(load(&o, 12.5, 40.0), 200.0, 1e-6));
    // No step in the ramp: the largest rise between buckets is a
    // twentieth of the doubling, not a wave.
    let rise = o.load[100..125]
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(0.0, f64::max);
    assert!(rise <= 100.0 / 20.0 + 2.5, "{rise}");
}

#[test]
fn full_jitter_matches_requests_drawn_one_by_one() {
    // A seeded draw of each request's waits, request by request, against
    // the flow of expected counts: 3 attempts, waits uniform in [0, 1 s]
    // then [0, 2 s].
    let mut l = SimLayer::plain("a -> b", 3);
    l.waits = vec![Wait { lo: 0.0, hi: 1.0 }, Wait { lo: 0.0, hi: 2.0 }];
    let s = scenario(Failure::Error);
    let o = simulate(std::slice::from_ref(&l), &s, None);
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut uniform = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng >> 11) as f64 / (1u64 << 53) as f64
    };
    // 100 rps as 2,000 rps sampled and scaled: each second 2,000 requests.
    let (per_s, scale) = (2_000.0, 100.0 / 2_000.0);
    let mut hist = vec![0.0; 1000];
    let n = (100.0 * per_s) as usize;
    for r in 0..n {
        let mut t = (r as f64 + 0.5) / per_s;
        for k in 0..3 {
            let b = ((t / 0.1) as usize).min(999);
            hist[b] += scale / 0.1;
            if !(10.0..40.0).contains(&t) || k == 2 {
                break;
            }
            t += uniform() * l.waits[k].hi;
        }
    }
    // Bucket by bucket over the outage's first 5 s and recovery's first
    // 5 s, within 10% of normal (sampling noise at 200 draws a bucket is
    // about 7%).
    for b in (100..150).chain(400..450) {
        assert!(
            (hist[b] - o.load[b]).abs() <= 10.0 + 0.05 * o.load[b],
            "bucket {b}: drawn {} flow {}",
            hist[b],
            o.load[b]
        );
    }
}

#[test]
fn a_twenty_percent_budget_caps_the_load_at_one_point_two() {
    let mut l = SimLayer::plain("a -> b", 5).with_waits(0.5, 0.5);
    l.budget = Some(SimBudget::Ratio {
        ratio: 0.2,
        min_per_second: 0.0,
    });
    let o = simulate(&[l], &scenario(Failure::Error), None);
    assert!(o.peak_multiple() <= 1.2 + 1e-9, "{}", o.peak_multiple());
    assert!(close(load(&o, 12.0, 40.0), 120.0, 1e-6));
    // Without the budget: 5x.
    let l = SimLayer::plain("a -> b", 5).with_waits(0.5, 0.5);
    let o = simulate(&[l], &scenario(Failure::Error), None);
    assert!(close(o.peak_multiple(), 5.0, 1e-6));
}

#[test]
fn an_open_breaker_stops_the_load_and_keeps_it_off_after_recovery() {
    let mut l = SimLayer::plain("a -> b", 3).with_waits(0.1, 0.1);
    l.breaker = Some(Breaker {
        retried_when_open: false,
        ..BREAKER_DEFAULTS
    });
    let s = Scenario::new(100.0, 30.0, Some(120.0), Failure::Error);
    let o = simulate(std::slice::from_ref(&l), &s, None);
    // 100 failed calls open it within the outage's first second.
    assert!(load(&o, 11.0, 40.0) == 0.0, "{}", load(&o, 11.0, 40.0));
    // Open for 60 s: nothing gets through after recovery either, then
    // the half-open calls succeed and it closes.
    assert!(load(&o, 40.0, 70.0) == 0.0);
    assert!(close(load(&o, 72.0, 120.0), 100.0, 1e-6));
    // Every user request while it is open fails.
    assert!(o.failed_share > 0.5, "{}", o.failed_share);
    // Retrying the open breaker's error sends no load either: the
    // retries are refused too, only later.
    l.breaker = Some(BREAKER_DEFAULTS);
    let retried = simulate(&[l], &s, None);
    assert!(load(&retried, 11.0, 40.0) == 0.0);
}

#[test]
fn nested_layers_multiply() {
    let layers = vec![
        SimLayer::plain("a -> b", 3),
        SimLayer::plain("a -> b sidecar", 3),
        SimLayer::plain("b -> c", 3),
    ];
    let o = simulate(&layers, &scenario(Failure::Error), None);
    assert!(close(o.peak_multiple(), 27.0, 1e-6));
    assert!(close(load(&o, 10.0, 40.0), 2700.0, 1e-6));
    assert!(close(load(&o, 40.0, 100.0), 100.0, 1e-6));
}

#[test]
fn a_per_try_timeout_retries_a_service_that_never_answers() {
    // Timeouts: tries at 0, 1 s, 2 s after each request, 3x from 2 s in.
    let mut l = SimLayer::plain("a -> b", 3);
    l.per_try = Some(1.0);
    let o = simulate(&[l], &scenario(Failure::Timeout), Some(10.0));
    assert!(close(load(&o, 10.0, 11.0), 100.0, 1e-6));
    assert!(close(load(&o, 12.0, 40.0), 300.0, 1e-6));
    // Without a timeout nobody retries a call that hangs: 1x, and every
    // request of the outage waits past the entry's timeout.
    let o = simulate(
        &[SimLayer::plain("a -> b", 3)],
        &scenario(Failure::Timeout),
        Some(5.0),
    );
    assert!(close(o.peak_multiple(), 1.0, 1e-9));
    assert!(close(o.failed_share, 0.3, 1e-9), "{}", o.failed_share);
}

#[test]
fn ten_layers_at_a_thousand_rps_stay_bounded() {
    let layers: Vec<SimLayer> = (0..10)
        .map(|i| SimLayer::plain(&format!("layer {i}"), 3))
        .collect();
    let s = Scenario::new(1000.0, 30.0, Some(120.0), Failure::Error);
    let o = simulate(&layers, &s, None);
    assert!(close(o.peak_multiple(), 59_049.0, 1e-3));
    assert_eq!(o.load.len(), 1200);
    // The kernels stay within the outage.
    let (dt, k) = engine::kernels_for_test(&layers, &s);
    assert!(
        k.iter()
            .all(|k| k.mass.len() as f64 * dt <= 30.0 + 2.0 * dt)
    );
}

#[test]
fn numbers_out_of_range_are_held() {
    let s = Scenario::new(f64::NAN, -5.0, Some(1e12), Failure::Error);
    assert_eq!(s.rps, 0.0);
    assert_eq!(s.outage, 0.0);
    assert_eq!(s.duration, MAX_SECONDS);
    let mut l = SimLayer::plain("x", 1_000_000);
    l.waits = vec![
        Wait {
            lo: 1e9,
            hi: f64::INFINITY
        };
        3
    ];
    let o = simulate(
        &[l],
        &Scenario::new(1e12, 1e9, None, Failure::Timeout),
        None,
    );
    assert!(o.load.iter().all(|x| x.is_finite()));
    // The most work a run may take: 64 layers of 100 attempts, a day's
    // outage. The step grows (here to an hour) rather than the run.
    let layers: Vec<SimLayer> = (0..200)
        .map(|i| SimLayer::plain(&format!("{i}"), 100).with_waits(0.0, 1.0))
        .collect();
    let s = Scenario::new(1000.0, MAX_SECONDS, Some(MAX_SECONDS), Failure::Error);
    let t = std::time::Instant::now();
    let o = simulate(&layers, &s, None);
    assert!(o.step >= 10.0, "{}", o.step);
    assert!(o.load.iter().all(|x| x.is_finite()));
    assert!(t.elapsed().as_secs() < 60, "{:?}", t.elapsed());
}

#[test]
fn a_layer_that_does_not_retry_what_it_sees_adds_nothing() {
    // An outer layer that does not retry the `500` of the layer below,
    // over one that retries: 3x, not 9x.
    let mut outer = SimLayer::plain("a -> b", 3);
    outer.retries_failure = false;
    let inner = SimLayer::plain("b -> c", 3);
    let o = simulate(&[outer, inner], &scenario(Failure::Error), None);
    assert!(close(o.peak_multiple(), 3.0, 1e-6), "{}", o.peak_multiple());
    // One that retries only its own timeouts, over a service that never
    // answers: a 1 s per-try timeout, 2 retries.
    let mut l = SimLayer::plain("a -> b", 3);
    l.per_try = Some(1.0);
    l.retries_failure = false;
    let o = simulate(std::slice::from_ref(&l), &scenario(Failure::Timeout), None);
    assert!(close(load(&o, 12.0, 40.0), 300.0, 1e-6));
    l.retries_timeout = false;
    let o = simulate(&[l], &scenario(Failure::Timeout), None);
    assert!(close(o.peak_multiple(), 1.0, 1e-9));
}

#[test]
fn a_concurrency_budget_caps_retries_at_its_size_over_their_duration() {
    // Every attempt hangs until its 1 s per-try timeout: 3 attempts make
    // 3x. With at most 10 retries in flight, each holding its place 1 s,
    // 10 retries a second get through (Little's law): 110 rps.
    let mut l = SimLayer::plain("a -> b", 3);
    l.per_try = Some(1.0);
    let s = scenario(Failure::Timeout);
    let o = simulate(std::slice::from_ref(&l), &s, None);
    assert!(
        close(load(&o, 13.0, 40.0), 300.0, 1e-6),
        "{}",
        load(&o, 13.0, 40.0)
    );
    l.budget = Some(SimBudget::Concurrency { max: 10.0 });
    let o = simulate(std::slice::from_ref(&l), &s, None);
    let got = load(&o, 13.0, 40.0);
    assert!(close(got, 110.0, 1.0), "{got}");
    // Attempts that fail at once hold no place: no limit then.
    let mut l = SimLayer::plain("a -> b", 3);
    l.budget = Some(SimBudget::Concurrency { max: 10.0 });
    let o = simulate(&[l], &scenario(Failure::Error), None);
    assert!(close(o.peak_multiple(), 3.0, 1e-6), "{}", o.peak_multiple());
}

#[test]
fn a_retry_quota_lets_its_capacity_over_cost_retries_through_then_none() {
    // 500 tokens at 5 a retry: 100 retries, then the outage's calls are
    // tried once (nothing succeeds to earn tokens back).
    let quota = SimBudget::Quota {
        capacity: 500.0,
        cost: 5.0,
        success_increment: 1.0,
    };
    let mut l = SimLayer::plain("a -> b", 3).with_waits(0.1, 0.1);
    l.budget = Some(quota);
    let o = simulate(std::slice::from_ref(&l), &scenario(Failure::Error), None);
    assert!(close(o.extra_requests, 100.0, 1.0), "{}", o.extra_requests);
    assert!(close(load(&o, 12.0, 40.0), 100.0, 1e-6));
    // A timeout's retry costs 10: half as many.
    l.budget = Some(SimBudget::Quota {
        capacity: 500.0,
        cost: 10.0,
        success_increment: 1.0,
    });
    l.per_try = Some(0.5);
    let o = simulate(&[l], &scenario(Failure::Timeout), None);
    let during = (load(&o, 10.0, 40.0) - 100.0) * 30.0;
    assert!(close(during, 50.0, 1.0), "{during}");
    // After recovery successful calls earn tokens back (1 each, and a
    // successful retry its 10): the attempts lost in the outage's last
    // half second are retried then.
    assert!(o.extra_requests > during + 10.0, "{}", o.extra_requests);
}

#[test]
fn a_time_window_breaker_judges_the_last_seconds_not_the_last_calls() {
    // Opens at half failures once 10 calls are in its 1 s window: within
    // the outage's first tenth of a second at 100 rps; then open 5 s,
    // 1 call half-open, open again while the service is down.
    let mut l = SimLayer::plain("a -> b", 1);
    l.breaker = Some(Breaker {
        threshold: 0.5,
        min_calls: 10.0,
        window: 0.0,
        window_secs: Some(1.0),
        open_for: 5.0,
        half_open_calls: 1.0,
        retried_when_open: false,
    });
    let s = scenario(Failure::Error);
    let o = simulate(&[l], &s, None);
    assert!(load(&o, 10.0, 10.1) > 0.0);
    let during = load(&o, 10.5, 40.0);
    assert!(during < 1.0, "{during}");
    // After recovery the next half-open call succeeds and it closes.
    assert!(
        close(load(&o, 46.0, 100.0), 100.0, 1e-6),
        "{}",
        load(&o, 46.0, 100.0)
    );
}
