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
    // Spring Retry on interface methods: L12 all defaults (3 attempts,
    // fixed 1000 ms, any exception: RL102), L15 retryFor SQLException with the default back-off,
    // L18 maxAttempts 2 with @Backoff(delay = 100): all fixed, unjittered.
    // L21-22 read their attempts and delay from placeholders: unknown, so
    // nothing is claimed about them.
    (
        "eugenp/tutorials/spring-scheduling/src/main/java/com/baeldung/springretry/MyService.java",
        &[("RL102", 12), ("RL203", 12), ("RL203", 15), ("RL203", 18)],
    ),
    // Registry instance `backendB` (its settings live in application.yml).
    // Retry wraps the circuit breaker (L152, L159, L187, L196), but the
    // instance's exception list is not in this file, so RL104 cannot judge
    // it here; the TimeLimiter on the async path is per attempt.
    (
        "resilience4j/resilience4j-spring-boot2-demo/src/main/java/io/github/robwin/controller/BackendBController.java",
        &[],
    ),
    // RetryConfig.from(a registry config) + retryOnResult(status >= 500)
    // for any HTTP method and no idempotency key (RL103); the circuit
    // breaker wraps the retry (L77, L99), the right order. Attempts and
    // back-off come from the registry.
    (
        "signalapp/Signal-Server/service/src/main/java/org/whispersystems/textsecuregcm/http/FaultTolerantHttpClient.java",
        &[("RL103", 234)],
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

#[test]
fn corpus_java_values_are_read_as_the_systems_read_them() {
    let Some(shared) = common::shared() else {
        return;
    };
    let (scan, _) = common::run(&shared.join("corpus"), &[]);
    let line = |suffix: &str, span: retrylint::source::Span| {
        scan.files
            .iter()
            .find(|f| f.source.display_path().ends_with(suffix))
            .map(|f| f.source.line_col(span.start).line)
            .unwrap()
    };

    let my = "springretry/MyService.java";
    let ps = policies_of(&scan, my);
    assert_eq!(ps.len(), 4);
    let p = named(&ps, "retryService");
    assert_eq!(p.system, System::SpringRetry);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(1)
        }
    );
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);
    let p = named(&ps, "retryServiceWithCustomization");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(2));
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_millis(100)
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
    let p = named(&ps, "retryServiceWithExternalConfiguration");
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
    assert_eq!(p.delay.value, Delay::Unknown);

    let b = "controller/BackendBController.java";
    let ps = policies_of(&scan, b);
    assert_eq!(ps.len(), 1);
    let p = named(&ps, "backendB");
    assert_eq!(line(b, p.span), 61);
    assert_eq!(p.retry_on.value, RetryOn::Unknown);
    let wraps: Vec<usize> = p.wraps_breaker.iter().map(|s| line(b, *s)).collect();
    assert_eq!(wraps, [152, 159, 187, 196]);
    assert_eq!(p.per_try_timeout.as_ref().unwrap().value, Timeout::Unknown);

    let s = "http/FaultTolerantHttpClient.java";
    let ps = policies_of(&scan, s);
    assert_eq!(ps.len(), 1);
    let p = ps[0];
    assert_eq!(p.system, System::Resilience4j);
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
    assert_eq!(p.methods.value, Methods::All);
    assert!(p.wraps_breaker.is_empty(), "the breaker is the outer layer");
    assert!(p.idempotency.is_empty());
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!("retryOnResult is read: {:?}", p.retry_on)
    };
    assert_eq!(
        conditions[0].value,
        Condition::Status { from: 500, to: 599 }
    );
    assert_eq!(line(s, conditions[0].span), 234);
    assert_eq!(line(s, p.retry_on.span), 234);
}
