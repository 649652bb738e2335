//! The regression corpus in `../shared/corpus` (real files at their original
//! paths, with INDEX.tsv as ground truth). Skipped with a notice when absent.
//!
//! For each file an extractor covers, the findings must be exactly the ones
//! listed here: a missing one is a missed anti-pattern, an extra one a false
//! alarm. Each entry says why, from INDEX.tsv.

mod common;

use retrylint::model::*;
use std::collections::BTreeSet;
use std::time::Duration;

/// (file below corpus/, [(code, line)]) for every file a covered format reads.
const EXPECTED: &[(&str, &[(&str, usize)])] = &[
    // Malformed route: host/subset beside a null destination (L13-15); the
    // retries (attempts 3, perTryTimeout 2s, no route timeout) are still read
    // and the DestinationRule document after `---` too.
    (
        "nilesh93/training-istio/05-resilliency/all-together.yaml",
        &[("RL901", 14), ("RL901", 15), ("RL304", 17)],
    ),
    // attempts: 0 on all three hops: no retries, nothing to report.
    (
        "redhat-developer-demos/istio-tutorial/istiofiles/virtual-service-no-retries.yml",
        &[],
    ),
    // attempts 3, perTryTimeout 2s, no route timeout: up to 4 x 2s.
    (
        "redhat-developer-demos/istio-tutorial/istiofiles/virtual-service-recommendation-v2_retry.yml",
        &[("RL304", 13)],
    ),
    // configs.default: waitDuration 100 (unitless = 100 ms), fixed and
    // unjittered, inherited by backendA and backendB: reported once.
    (
        "resilience4j/resilience4j-spring-boot2-demo/src/main/resources/application.yml",
        &[("RL203", 68)],
    ),
    // maxRetryAttempts everywhere (removed in 2.0.0); fixed unjittered
    // delays; exponential without jitter (L16-20) with 6 attempts; no
    // retryExceptions (every Throwable retried) except predicateExample's
    // resultPredicate, and java.lang.Exception in throwingException (L44);
    // the randomised but constant 2s of intervalFunctionRandomExample.
    (
        "thombergs/code-examples/resilience4j/springboot-resilience4j/src/main/resources/application.yml",
        &[
            ("RL102", 6),
            ("RL102", 11),
            ("RL102", 16),
            ("RL102", 23),
            ("RL202", 27),
            ("RL102", 30),
            ("RL102", 44),
            ("RL102", 48),
            ("RL901", 7),
            ("RL203", 8),
            ("RL901", 12),
            ("RL203", 13),
            ("RL203", 17),
            ("RL206", 19),
            ("RL901", 19),
            ("RL901", 25),
            ("RL901", 31),
            ("RL203", 32),
            ("RL901", 36),
            ("RL203", 38),
            ("RL901", 42),
            ("RL203", 45),
            ("RL901", 49),
            ("RL203", 50),
        ],
    ),
    // backon: RetryLayer::default() stores ExponentialBuilder::default()
    // (L141): 1s x2 up to 60s, 3 retries, no jitter; every use retries only
    // `is_temporary()` errors (`.when`), so only the missing jitter counts.
    (
        "apache/opendal/core/layers/retry/src/lib.rs",
        &[("RL203", 141)],
    ),
    // reqwest-retry: two RetryTransientMiddleware layers (L658, L680),
    // jittered (Jitter::Bounded), 2s..30s, DEFAULT_RETRIES 3 => 4 attempts;
    // the layering is an in-file edge: 4 x 4 = 16 attempts per call, above
    // the amplification threshold, so RL401 (RL402 defers to it).
    (
        "astral-sh/uv/crates/uv-client/src/base_client.rs",
        &[("RL401", 1173)],
    ),
    // tower Policy: default() 3 retries, server_retry() 15 retries => 16
    // attempts (L109); 504 retried for any method without a key (RL103 at
    // GATEWAY_TIMEOUT, L117) and no per-try timeout on either policy
    // (RL302). tower's backoff is jittered.
    (
        "kube-rs/kube/kube-client/src/client/retry.rs",
        &[
            ("RL206", 109),
            ("RL302", 109),
            ("RL103", 117),
            ("RL302", 130),
        ],
    ),
    // utils::retry!(.., 4, 5000): `retries > $count` => 6 attempts, a fixed
    // unjittered 5 s sleep, every sqlx error retried (the macro is defined
    // in utils.rs).
    (
        "osintbuddy/osintbuddy/rs/src/db.rs",
        &[("RL102", 6), ("RL206", 15), ("RL203", 16)],
    ),
    // The macro's default arm retry!($f, 5, 100): 7 attempts, fixed 100 ms.
    (
        "osintbuddy/osintbuddy/rs/src/utils.rs",
        &[("RL102", 18), ("RL206", 18), ("RL203", 18)],
    ),
];

#[test]
fn corpus_findings_match_the_ground_truth() {
    let Some(shared) = common::shared() else {
        return;
    };
    let corpus = shared.join("corpus");
    let (scan, findings) = common::run(&corpus, &[]);
    assert!(
        !scan.notices.iter().any(|n| n.internal),
        "internal errors: {:?}",
        scan.notices
    );
    let mut failures = Vec::new();
    for (file, expected) in EXPECTED {
        let want: BTreeSet<(String, usize)> =
            expected.iter().map(|(c, l)| (c.to_string(), *l)).collect();
        let got: BTreeSet<(String, usize)> = findings
            .iter()
            .filter(|f| {
                scan.file(f.file)
                    .display_path()
                    .ends_with(&format!("corpus/{file}"))
            })
            .map(|f| {
                let line = scan.file(f.file).line_col(f.span.start).line;
                (f.rule.code.to_string(), line)
            })
            .collect();
        for missing in want.difference(&got) {
            failures.push(format!("{file}: missed {missing:?}"));
        }
        for extra in got.difference(&want) {
            failures.push(format!("{file}: false alarm {extra:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{failures:#?}\n\n{}",
        common::concise(&scan, &findings)
    );
}

fn policies_of<'a>(scan: &'a retrylint::Scan, suffix: &str) -> Vec<&'a RetryPolicy> {
    scan.files
        .iter()
        .filter(|f| f.source.display_path().ends_with(suffix))
        .flat_map(|f| &f.facts.policies)
        .collect()
}

fn named<'a>(ps: &[&'a RetryPolicy], name: &str) -> &'a RetryPolicy {
    ps.iter()
        .find(|p| p.name.as_deref() == Some(name))
        .unwrap_or_else(|| {
            panic!(
                "no policy {name}: {:?}",
                ps.iter().map(|p| &p.name).collect::<Vec<_>>()
            )
        })
}

#[test]
fn corpus_values_are_read_as_the_systems_read_them() {
    let Some(shared) = common::shared() else {
        return;
    };
    let (scan, _) = common::run(&shared.join("corpus"), &[]);

    let demo = policies_of(
        &scan,
        "resilience4j-spring-boot2-demo/src/main/resources/application.yml",
    );
    let a = named(&demo, "backendA");
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        a.delay.value,
        Delay::Fixed {
            delay: Duration::from_millis(100)
        }
    );
    assert_eq!(a.delay.provenance, Provenance::Inherited);
    let RetryOn::Listed { conditions } = &a.retry_on.value else {
        panic!("retryExceptions are listed")
    };
    assert_eq!(conditions.len(), 3);

    let th = policies_of(
        &scan,
        "springboot-resilience4j/src/main/resources/application.yml",
    );
    let exp = named(&th, "intervalFunctionExponentialExample");
    assert_eq!(exp.attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(
        exp.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: None
        }
    );
    assert_eq!(exp.jitter.value, Jitter::None);
    let rnd = named(&th, "intervalFunctionRandomExample");
    assert_eq!(rnd.jitter.value, Jitter::Proportional { factor: 0.5 });
    assert_eq!(named(&th, "basic").retry_on.value, RetryOn::AllErrors);

    let vs = policies_of(&scan, "virtual-service-recommendation-v2_retry.yml");
    assert_eq!(vs.len(), 1);
    assert_eq!(vs[0].attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        vs[0].per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(2))
    );
    assert!(vs[0].platform_backoff);
    let off = policies_of(&scan, "virtual-service-no-retries.yml");
    assert_eq!(off.len(), 3, "attempts: 0 is a policy of one attempt");
    assert!(off.iter().all(|p| !p.retries()));

    // Rust: backon's default builder stored in a struct field.
    let od = policies_of(&scan, "opendal/core/layers/retry/src/lib.rs");
    assert_eq!(od.len(), 1);
    assert_eq!(od[0].system, System::RustCrate("backon".into()));
    assert_eq!(od[0].attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(od[0].jitter.value, Jitter::None);
    assert!(od[0].jitter.is_default());
    assert_eq!(
        od[0].delay.value,
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(60))
        }
    );
    assert!(matches!(od[0].retry_on.value, RetryOn::Listed { .. }));

    // uv: two jittered middlewares, 4 attempts each, on one edge.
    let uv_file = scan
        .files
        .iter()
        .find(|f| {
            f.source
                .display_path()
                .ends_with("uv-client/src/base_client.rs")
        })
        .unwrap();
    let mw: Vec<&RetryPolicy> = uv_file
        .facts
        .policies
        .iter()
        .filter(|p| p.system == System::RustCrate("reqwest-retry".into()))
        .collect();
    assert_eq!(mw.len(), 2);
    for p in &mw {
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
        assert_eq!(p.jitter.value, Jitter::Full);
        assert_eq!(p.methods.value, Methods::All);
    }
    let layered: Vec<&CallEdge> = uv_file
        .facts
        .edges
        .iter()
        .filter(|e| e.policies.len() == 2)
        .collect();
    assert_eq!(layered.len(), 1);

    // kube: tower Policy, 429/503/504 for every method, no per-try timeout.
    let kube = policies_of(&scan, "kube-client/src/client/retry.rs");
    assert_eq!(kube.len(), 2);
    let counts: Vec<AttemptCount> = kube.iter().map(|p| p.attempts.value.count).collect();
    assert!(counts.contains(&AttemptCount::Finite(4)));
    assert!(counts.contains(&AttemptCount::Finite(16)));
    for p in &kube {
        assert_eq!(p.methods.value, Methods::All);
        assert_ne!(p.jitter.value, Jitter::None);
        assert_eq!(
            p.per_try_timeout.as_ref().map(|t| t.value),
            Some(Timeout::Disabled)
        );
        let RetryOn::Listed { conditions } = &p.retry_on.value else {
            panic!("statuses are listed")
        };
        let codes: Vec<&Condition> = conditions.iter().map(|c| &c.value).collect();
        assert_eq!(
            codes,
            [
                &Condition::status(429),
                &Condition::status(503),
                &Condition::status(504)
            ]
        );
    }

    // osintbuddy: the macro's semantics at its call site in another file.
    let db = policies_of(&scan, "osintbuddy/rs/src/db.rs");
    assert_eq!(db.len(), 1);
    assert_eq!(db[0].attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(
        db[0].delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(5)
        }
    );
    assert_eq!(db[0].retry_on.value, RetryOn::AllErrors);
    let utils = policies_of(&scan, "osintbuddy/rs/src/utils.rs");
    assert_eq!(utils.len(), 1);
    assert_eq!(utils[0].attempts.value.count, AttemptCount::Finite(7));
}

#[test]
fn the_corpus_scan_completes_without_internal_errors() {
    let Some(shared) = common::shared() else {
        return;
    };
    let out = assert_cmd::Command::cargo_bin("retrylint")
        .unwrap()
        .args(["check", "--format", "json"])
        .arg(shared.join("corpus"))
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    assert!(
        code == 0 || code == 1,
        "exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let _: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
}
