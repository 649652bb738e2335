//! Values read from the Rust and Java source files of the corpus, as the
//! libraries they use read them.

use super::*;

pub(super) fn corpus_rust_sources_are_read_as_the_crates_read_them() {
    let shared = common::shared_dir();
    let (scan, _) = common::run(&shared.join("corpus"), &[]);
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

pub(super) fn corpus_java_values_are_read_as_the_systems_read_them() {
    let shared = common::shared_dir();
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
    // What it retries and ignores comes from the `backendB` instance of
    // the demo's application.yml (its `default` config), found at link
    // time and placed at the registry call.
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!("{:?}", p.retry_on)
    };
    let names = |cs: &[Located<Condition>]| -> Vec<String> {
        cs.iter()
            .map(|c| match &c.value {
                Condition::Exception(n) => n.rsplit('.').next().unwrap().to_string(),
                other => format!("{other:?}"),
            })
            .collect()
    };
    assert_eq!(
        names(conditions),
        [
            "HttpServerErrorException",
            "TimeoutException",
            "IOException"
        ]
    );
    assert_eq!(names(&p.ignores), ["BusinessException"]);
    assert!(conditions.iter().all(|c| c.span == p.span));
    assert_eq!(p.retry_on.provenance, Provenance::Inherited);
    assert_eq!(p.settings_from.len(), 1);
    assert!(
        p.settings_from[0]
            .to_string()
            .ends_with("resilience4j-spring-boot2-demo/src/main/resources/application.yml:78"),
        "{:?}",
        p.settings_from
    );
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
