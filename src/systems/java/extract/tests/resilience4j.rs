//! Resilience4j in Java code: builder chains, interval functions,
//! registries, composition order and annotations.

use super::*;

#[test]
fn resilience4j_custom_chain() {
    let src = format!(
        "{R4J}class C {{ Retry r = Retry.of(\"payments\", RetryConfig.custom().maxAttempts(5).waitDuration(Duration.ofSeconds(2)).retryExceptions(IOException.class).ignoreExceptions(BusinessException.class).build()); }}"
    );
    let p = one(&src);
    assert_eq!(p.system, System::Resilience4j);
    assert_eq!(p.name.as_deref(), Some("payments"));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(2)
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(
        conditions[0].value,
        Condition::Exception("IOException".into())
    );
    assert_eq!(
        p.ignores[0].value,
        Condition::Exception("BusinessException".into())
    );
}

#[test]
fn resilience4j_defaults_and_interval_functions() {
    let p = one(&format!(
        "{R4J}class C {{ Retry r = Retry.ofDefaults(\"a\"); }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(p.delay.value, Delay::Fixed { delay: ms(500) });
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);

    let cases = [
        (
            "IntervalFunction.ofExponentialBackoff()",
            Delay::Exponential {
                base: ms(500),
                multiplier: 1.5,
                cap: None,
            },
            Jitter::None,
            CapOrder::BeforeJitter,
        ),
        (
            "IntervalFunction.ofExponentialBackoff(100, 2.0, 1000)",
            Delay::Exponential {
                base: ms(100),
                multiplier: 2.0,
                cap: Some(ms(1000)),
            },
            Jitter::None,
            CapOrder::BeforeJitter,
        ),
        (
            "IntervalFunction.ofRandomized(Duration.ofMillis(300), 0.2)",
            Delay::Fixed { delay: ms(300) },
            Jitter::Proportional { factor: 0.2 },
            CapOrder::BeforeJitter,
        ),
        (
            "IntervalFunction.ofExponentialRandomBackoff(100, 2.0, 0.3)",
            Delay::Exponential {
                base: ms(100),
                multiplier: 2.0,
                cap: None,
            },
            Jitter::Proportional { factor: 0.3 },
            CapOrder::BeforeJitter,
        ),
        (
            "IntervalFunction.ofExponentialRandomBackoff(100, 2.0, 5000)",
            Delay::Exponential {
                base: ms(100),
                multiplier: 2.0,
                cap: Some(ms(5000)),
            },
            Jitter::Proportional { factor: 0.5 },
            CapOrder::AfterJitter,
        ),
        (
            "IntervalFunction.ofExponentialRandomBackoff(Duration.ofMillis(100), 2.0, 0.25, Duration.ofSeconds(3))",
            Delay::Exponential {
                base: ms(100),
                multiplier: 2.0,
                cap: Some(ms(3000)),
            },
            Jitter::Proportional { factor: 0.25 },
            CapOrder::AfterJitter,
        ),
        (
            "attempt -> 100L * attempt",
            Delay::Custom,
            Jitter::Unknown,
            CapOrder::BeforeJitter,
        ),
    ];
    for (f, d, j, o) in cases {
        let p = one(&format!(
            "{R4J}class C {{ RetryConfig c = RetryConfig.custom().intervalFunction({f}).build(); }}"
        ));
        assert_eq!(p.delay.value, d, "{f}");
        assert_eq!(p.jitter.value, j, "{f}");
        assert_eq!(p.cap_order, o, "{f}");
        assert_eq!(p.name.as_deref(), Some("c"));
    }
}

#[test]
fn resilience4j_interval_conflicts_are_rl902() {
    let f = facts(&format!(
        "{R4J}class C {{ RetryConfig c = RetryConfig.custom().waitDuration(Duration.ofMillis(100)).intervalFunction(IntervalFunction.ofExponentialBackoff()).build(); }}"
    ));
    assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
    assert_eq!(f.diagnostics[0].code, "RL902");
    let f = facts(&format!(
        "{R4J}class C {{ RetryConfig c = RetryConfig.custom().maxAttempts(-1).build(); }}"
    ));
    assert_eq!(f.diagnostics.len(), 1);
    assert!(f.diagnostics[0].message.contains("maxAttempts"));
}

#[test]
fn resilience4j_registry_lookup_keeps_the_instance_name() {
    let src = format!(
        "{R4J}import io.github.resilience4j.retry.RetryRegistry;\nclass C {{ static final String NAME = \"backendB\"; Retry retry; C(RetryRegistry registry) {{ this.retry = registry.retry(NAME); }} }}"
    );
    let p = one(&src);
    assert_eq!(p.name.as_deref(), Some("backendB"));
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
    assert_eq!(p.delay.value, Delay::Unknown);
    assert_eq!(p.retry_on.value, RetryOn::Unknown);
    // A registry built here from a config gives its instances that config.
    let src = format!(
        "{R4J}import io.github.resilience4j.retry.RetryRegistry;\nclass C {{ RetryRegistry reg = RetryRegistry.of(RetryConfig.custom().maxAttempts(7).build()); Retry r = reg.retry(\"x\"); }}"
    );
    let p = one(&src);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(7));
}

#[test]
fn resilience4j_builder_mutated_by_statements() {
    // Signal's FaultTolerantHttpClient shape.
    let src = format!(
        "{R4J}class C {{ void build() {{ final RetryConfig.Builder<HttpResponse<?>> b = RetryConfig.from(registry().getDefaultConfig());\n b.retryOnResult(response -> response.statusCode() >= 500);\n retry = registry().retry(\"x\", b.build()); }} RetryRegistry registry() {{ return null; }} }}"
    );
    let f = facts(&src);
    let p = &f.policies[0];
    assert_eq!(f.policies.len(), 1);
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!("{:?}", p.retry_on)
    };
    assert_eq!(
        conditions.len(),
        1,
        "the base config's exceptions are not known"
    );
    assert_eq!(
        conditions[0].value,
        Condition::Status { from: 500, to: 599 }
    );
    assert_eq!(line_of(&src, p.retry_on.span), 4);
}

#[test]
fn composition_order_decides_who_wraps_whom() {
    let head = format!(
        "{R4J}class C {{ CircuitBreaker cb = CircuitBreaker.ofDefaults(\"b\"); Retry retry = Retry.ofDefaults(\"r\");\n"
    );
    let wraps = |body: &str| {
        let f = facts(&format!("{head}{body}\n}}"));
        f.policies[0].wraps_breaker.len()
    };
    assert_eq!(
        wraps(
            "String a() { return Decorators.ofSupplier(this::x).withCircuitBreaker(cb).withRetry(retry).get(); }"
        ),
        1
    );
    assert_eq!(
        wraps(
            "String a() { return Decorators.ofSupplier(this::x).withRetry(retry).withCircuitBreaker(cb).get(); }"
        ),
        0
    );
    assert_eq!(
        wraps("String a() { return cb.executeSupplier(retry.decorateSupplier(this::x)); }"),
        0
    );
    assert_eq!(
        wraps("String a() { return retry.executeSupplier(() -> cb.executeSupplier(this::x)); }"),
        1
    );
    assert_eq!(
        wraps(
            "String a() { return Retry.decorateSupplier(retry, CircuitBreaker.decorateSupplier(cb, this::x)).get(); }"
        ),
        1
    );
    assert_eq!(
        wraps(
            "String a() { Supplier<String> s = CircuitBreaker.decorateSupplier(cb, this::x); return Retry.decorateSupplier(retry, s).get(); }"
        ),
        1
    );
    assert_eq!(
        wraps(
            "Mono<String> a(Mono<String> m) { return m.transform(CircuitBreakerOperator.of(cb)).transform(RetryOperator.of(retry)); }"
        ),
        1
    );
    assert_eq!(
        wraps(
            "Mono<String> a(Mono<String> m) { return m.transform(RetryOperator.of(retry)).transform(CircuitBreakerOperator.of(cb)); }"
        ),
        0
    );
}

#[test]
fn time_limiters_inside_and_outside_the_retry() {
    let src = format!(
        "{R4J}class C {{ Retry retry = Retry.ofDefaults(\"r\"); TimeLimiter a = TimeLimiter.of(Duration.ofSeconds(2)); TimeLimiter b = TimeLimiter.of(TimeLimiterConfig.custom().timeoutDuration(Duration.ofSeconds(9)).build());\n Object f(S s) {{ return Decorators.ofCompletionStage(s).withTimeLimiter(a, x).withRetry(retry, x).withTimeLimiter(b, x).get(); }} }}"
    );
    let p = one(&src);
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(2))
    );
    assert_eq!(
        p.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(9))
    );
}

#[test]
fn retry_annotation_with_circuit_breaker() {
    let src = "import io.github.resilience4j.retry.annotation.Retry;\nimport io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker;\nclass C {\n @Retry(name = \"backendA\") @CircuitBreaker(name = \"backendA\") @TimeLimiter(name = \"backendA\") public String a() { return \"\"; }\n @Retry(name = BACKEND) public String b() { return \"\"; }\n static final String BACKEND = \"backendC\";\n}";
    let f = facts(src);
    assert_eq!(f.policies.len(), 2);
    let a = &f.policies[0];
    assert_eq!(a.name.as_deref(), Some("backendA"));
    assert_eq!(a.wraps_breaker.len(), 1);
    assert_eq!(a.per_try_timeout.as_ref().unwrap().value, Timeout::Unknown);
    assert_eq!(a.attempts.value.count, AttemptCount::Unknown);
    assert_eq!(f.policies[1].name.as_deref(), Some("backendC"));
    assert!(f.policies[1].wraps_breaker.is_empty());
}
