use super::*;

fn yaml(text: &str) -> Facts {
    let f = crate::yaml::parse(text);
    assert!(f.errors.is_empty(), "{:?}", f.errors);
    let props = crate::systems::spring::extract::flatten_yaml(f.root(&f.documents[0]));
    let mut facts = Facts::default();
    extract_props(&props, Some("orders"), &mut facts);
    facts
}

fn props(text: &str) -> Facts {
    let f = crate::systems::spring::properties::parse(text, true);
    let mut facts = Facts::default();
    extract_props(&f.documents[0], Some("orders"), &mut facts);
    facts
}

fn policy<'f>(facts: &'f Facts, name: &str) -> &'f RetryPolicy {
    facts
        .policies
        .iter()
        .find(|p| p.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no {name}"))
}

fn codes(facts: &Facts) -> Vec<&'static str> {
    facts.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn yaml_and_properties_read_the_same() {
    let y = yaml(
        "resilience4j.retry:\n  instances:\n    a:\n      max-attempts: 4\n      wait-duration: PT0.5s\n      enable-exponential-backoff: true\n      exponential-backoff-multiplier: 3\n      retry-exceptions:\n        - java.io.IOException\n        - java.util.concurrent.TimeoutException\n",
    );
    let p = props(
        "resilience4j.retry.instances.a.maxAttempts=4\nresilience4j.retry.instances.a.waitDuration=500\nresilience4j.retry.instances.a.enableExponentialBackoff=TRUE\nresilience4j.retry.instances.a.exponentialBackoffMultiplier=3\nresilience4j.retry.instances.a.retryExceptions=java.io.IOException, java.util.concurrent.TimeoutException\n",
    );
    for facts in [&y, &p] {
        assert!(facts.diagnostics.is_empty(), "{:?}", facts.diagnostics);
        let a = policy(facts, "a");
        assert_eq!(a.attempts.value.count, AttemptCount::Finite(4));
        assert_eq!(
            a.delay.value,
            Delay::Exponential {
                base: Duration::from_millis(500),
                multiplier: 3.0,
                cap: None
            }
        );
        assert_eq!(a.jitter.value, Jitter::None);
        let RetryOn::Listed { conditions } = &a.retry_on.value else {
            panic!()
        };
        assert_eq!(conditions.len(), 2);
        assert_eq!(a.scope.caller.as_deref(), Some("orders"));
    }
    let y_list = yaml(
        "resilience4j.retry.instances.a.retryExceptions[0]: x.A\nresilience4j.retry.instances.a.retryExceptions[1]: x.B\n",
    );
    let RetryOn::Listed { conditions } = &policy(&y_list, "a").retry_on.value else {
        panic!()
    };
    assert_eq!(conditions.len(), 2);
}

#[test]
fn interval_settings_without_wait_duration_are_ignored() {
    // CommonRetryConfigurationProperties builds the interval only where
    // waitDuration is set; backendB keeps default's fixed 10 s.
    let facts = props(
        "resilience4j.retry.configs.default.waitDuration=PT10S\nresilience4j.retry.instances.backendB.maxAttempts=5\nresilience4j.retry.instances.backendB.enableExponentialBackoff=true\nresilience4j.retry.instances.backendB.exponentialBackoffMultiplier=2\nresilience4j.retry.instances.backendB.enableRandomizedWait=false\n",
    );
    let b = policy(&facts, "backendB");
    assert_eq!(b.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(
        b.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(10)
        }
    );
    assert_eq!(b.delay.provenance, Provenance::Inherited);
    assert_eq!(b.jitter.value, Jitter::None);
    assert!(!b.jitter.is_written());
    assert_eq!(codes(&facts), ["RL901"]);
    assert!(facts.diagnostics[0].message.contains("a fixed `10s`"));
    assert_eq!(facts.diagnostics[0].related.len(), 2);
}

#[test]
fn flags_merge_from_the_base_but_the_factor_does_not() {
    let facts = yaml(
        "resilience4j.retry:\n  configs:\n    default:\n      enableRandomizedWait: true\n      randomizedWaitFactor: 0.2\n      enableExponentialBackoff: true\n  instances:\n    a:\n      waitDuration: 1s\n",
    );
    let a = policy(&facts, "a");
    assert_eq!(a.jitter.value, Jitter::Proportional { factor: 0.5 });
    assert_eq!(a.jitter.provenance, Provenance::Inherited);
    assert!(matches!(a.delay.value, Delay::Exponential { multiplier, .. } if multiplier == 1.5));
    // configs.default sets no waitDuration: as a policy of its own it
    // waits the default 500 ms, but its flags still reach `a`.
    assert!(codes(&facts).is_empty());
    let d = policy(&facts, "configs.default");
    assert_eq!(
        d.delay.value,
        Delay::Fixed {
            delay: Duration::from_millis(500)
        }
    );
}

#[test]
fn base_config_chains_and_instance_named_default() {
    let facts = yaml(
        "resilience4j.retry:\n  configs:\n    default:\n      maxAttempts: 7\n    shared:\n      waitDuration: 2s\n  instances:\n    a:\n      baseConfig: shared\n    default:\n      waitDuration: 1s\n",
    );
    // shared inherits default (7 attempts); a inherits shared.
    let a = policy(&facts, "a");
    assert_eq!(a.attempts.value.count, AttemptCount::Finite(7));
    assert_eq!(a.attempts.provenance, Provenance::Inherited);
    assert_eq!(
        a.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(2)
        }
    );
    // An instance named `default` does not inherit configs.default.
    let d = policy(&facts, "default");
    assert_eq!(d.attempts.value.count, AttemptCount::Finite(3));
    assert!(d.attempts.is_default());
}

#[test]
fn exponential_capped_at_its_base_is_flat() {
    let facts = yaml(
        "resilience4j.retry.instances.a:\n  waitDuration: 10s\n  enableExponentialBackoff: true\n  exponentialBackoffMultiplier: 2\n  exponentialMaxWaitDuration: PT10s\n",
    );
    let a = policy(&facts, "a");
    assert_eq!(
        a.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(10)
        }
    );
    assert_eq!(a.cap_order, CapOrder::BeforeJitter);
}

#[test]
fn cap_after_jitter_only_with_explicit_multiplier_and_factor() {
    let with = yaml(
        "resilience4j.retry.instances.a:\n  waitDuration: 1s\n  enableExponentialBackoff: true\n  enableRandomizedWait: true\n  exponentialBackoffMultiplier: 2\n  randomizedWaitFactor: 0.5\n  exponentialMaxWaitDuration: 4s\n",
    );
    let a = policy(&with, "a");
    assert_eq!(a.cap_order, CapOrder::AfterJitter);
    assert!(
        matches!(a.delay.value, Delay::Exponential { cap: Some(c), .. } if c == Duration::from_secs(4))
    );
    let without = yaml(
        "resilience4j.retry.instances.a:\n  waitDuration: 1s\n  enableExponentialBackoff: true\n  enableRandomizedWait: true\n  exponentialBackoffMultiplier: 2\n  exponentialMaxWaitDuration: 4s\n",
    );
    assert!(matches!(
        policy(&without, "a").delay.value,
        Delay::Exponential { cap: None, .. }
    ));
}

#[test]
fn zero_waits_and_custom_intervals() {
    let facts = yaml(
        "resilience4j.retry.instances:\n  a:\n    waitDuration: 0\n  b:\n    waitDuration: 0\n    enableExponentialBackoff: true\n  c:\n    waitDuration: 1s\n    intervalBiFunction: com.x.MyInterval\n",
    );
    assert_eq!(policy(&facts, "a").delay.value, Delay::None);
    assert_eq!(policy(&facts, "b").delay.value, Delay::Unknown);
    assert_eq!(policy(&facts, "c").delay.value, Delay::Custom);
    assert_eq!(codes(&facts), ["RL902"]);
}

#[test]
fn rejected_values() {
    let facts = yaml(
        "resilience4j.retry.instances.a:\n  maxAttempts: 0\n  waitDuration: -1s\n  randomizedWaitFactor: 1\n  exponentialBackoffMultiplier: 0\n  enableRandomizedWait: yes\n  eventConsumerBufferSize: 0\n",
    );
    assert_eq!(codes(&facts), ["RL902"; 6]);
    assert_eq!(
        policy(&facts, "a").attempts.value.count,
        AttemptCount::Unknown
    );
}

#[test]
fn section_typos_and_placeholders() {
    let facts = yaml(
        "resilience4j.retry:\n  instance:\n    a:\n      maxAttempts: 3\n  instances:\n    b:\n      maxAttempts: ${RETRIES:3}\n      waitDuration: ${WAIT}\n",
    );
    assert_eq!(codes(&facts), ["RL901"]);
    assert!(facts.diagnostics[0].message.contains("`instance`"));
    assert_eq!(
        policy(&facts, "b").attempts.value.count,
        AttemptCount::Unknown
    );
}

#[test]
fn ignored_exceptions_come_from_the_nearest_block() {
    let facts = props(
        "resilience4j.retry.configs.default.ignoreExceptions=io.github.resilience4j.circuitbreaker.CallNotPermittedException\nresilience4j.retry.instances.a.maxAttempts=3\nresilience4j.retry.instances.b.ignoreExceptions[0]=x.Busy\n",
    );
    let names = |p: &RetryPolicy| -> Vec<(String, Provenance)> {
        p.ignores
            .iter()
            .map(|c| match &c.value {
                Condition::Exception(n) => (n.clone(), c.provenance),
                other => panic!("{other:?}"),
            })
            .collect()
    };
    assert_eq!(
        names(policy(&facts, "a")),
        [(
            "io.github.resilience4j.circuitbreaker.CallNotPermittedException".to_string(),
            Provenance::Inherited
        )]
    );
    assert_eq!(
        names(policy(&facts, "b")),
        [("x.Busy".to_string(), Provenance::Written)]
    );
}

#[test]
fn time_limiters_inherit() {
    let facts = props(
        "resilience4j.timelimiter.configs.default.timeoutDuration=PT10S\nresilience4j.timelimiter.instances.backendA.baseConfig=default\nresilience4j.timelimiter.instances.backendA.timeoutDuration=PT5S\nresilience4j.timelimiter.instances.backendB.cancelRunningFuture=false\nresilience4j.timelimiter.instances.backendC.timeoutDuration=2s\n",
    );
    let t: Vec<(String, Timeout)> = facts
        .timeouts
        .iter()
        .map(|t| (t.name.clone().unwrap(), t.timeout.value))
        .collect();
    assert_eq!(
        t,
        [
            (
                "configs.default".into(),
                Timeout::after(Duration::from_secs(10))
            ),
            ("backendA".into(), Timeout::after(Duration::from_secs(5))),
            ("backendB".into(), Timeout::after(Duration::from_secs(10))),
            ("backendC".into(), Timeout::after(Duration::from_secs(2))),
        ]
    );
}

#[test]
fn circuit_breakers_are_read_with_their_base_config_and_defaults() {
    let f = yaml(
        "resilience4j.circuitbreaker:\n  configs:\n    default:\n      waitDurationInOpenState: 10s\n    slow:\n      slidingWindowType: TIME_BASED\n      slidingWindowSize: 30\n  instances:\n    a:\n      failureRateThreshold: 25\n      minimumNumberOfCalls: 5\n    b:\n      baseConfig: slow\n      permittedNumberOfCallsInHalfOpenState: 3\n    c:\n      failureRateThreshold: lots\n",
    );
    let get = |n: &str| {
        f.breakers
            .iter()
            .find(|b| b.name == n)
            .unwrap_or_else(|| panic!("no breaker {n}"))
    };
    let a = get("a").settings.value;
    assert_eq!((a.failure_ratio, a.min_calls), (0.25, 5));
    // From configs.default; the rest Resilience4j's defaults.
    assert_eq!(a.open_for, Duration::from_secs(10));
    assert_eq!(a.window, BreakerWindow::Calls { count: 100 });
    assert_eq!(a.half_open_calls, 10);
    assert!(get("a").settings.is_written());
    let b = get("b").settings.value;
    assert_eq!(
        b.window,
        BreakerWindow::Time {
            length: Duration::from_secs(30)
        }
    );
    assert_eq!(b.half_open_calls, 3);
    // `baseConfig: slow`, and `slow` itself builds on configs.default.
    assert_eq!(b.open_for, Duration::from_secs(10));
    // configs.default is recorded for instances nobody configures.
    assert_eq!(
        get(breakers::DEFAULT_CONFIG_NAME).settings.value.open_for,
        Duration::from_secs(10)
    );
    // A value that is not a percentage is reported; the default stays.
    assert_eq!(get("c").settings.value.failure_ratio, 0.5);
    assert_eq!(codes(&f), vec!["RL902"]);
    assert!(
        f.diagnostics[0].message.contains("`lots`"),
        "{}",
        f.diagnostics[0].message
    );
}
