//! Reactor `Retry` specs and idempotency keys in reactive chains.

use super::*;

const REACTOR: &str = "import reactor.core.publisher.Mono;\nimport reactor.util.retry.Retry;\n";

#[test]
fn reactor_retry_specs() {
    let p = one(&format!(
        "{REACTOR}class C {{ Mono<String> f() {{ return webClient.post().uri(\"http://payments:8080/charges\").retrieve().bodyToMono(String.class).timeout(Duration.ofSeconds(2)).retryWhen(Retry.backoff(3, Duration.ofMillis(100)).maxBackoff(Duration.ofSeconds(5)).filter(e -> e instanceof IOException || e instanceof TimeoutException)).timeout(Duration.ofSeconds(10)); }} }}"
    ));
    assert_eq!(p.system, System::Reactor);
    assert_eq!(p.name.as_deref(), Some("f"));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: ms(100),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(5))
        }
    );
    assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.5 });
    assert_eq!(p.methods.value, Methods::Set(vec!["POST".into()]));
    assert_eq!(
        p.per_try_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(2))
    );
    assert_eq!(
        p.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(10))
    );
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(conditions.len(), 2);

    let p = one(&format!(
        "{REACTOR}class C {{ Mono<String> f() {{ return mono.retryWhen(Retry.fixedDelay(5, Duration.ofSeconds(1))); }} }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(1)
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);
    assert_eq!(p.methods.value, Methods::Unknown);

    let p = one(&format!(
        "{REACTOR}class C {{ Mono<String> f() {{ return client.get().retrieve().bodyToMono(String.class).retry(); }} }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
    assert_eq!(p.delay.value, Delay::None);
    let p = one(&format!(
        "{REACTOR}class C {{ Mono<String> f() {{ return client.get().retrieve().bodyToMono(String.class).retryWhen(Retry.indefinitely()); }} }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
    // A registry lookup named `retry` is not Reactor's.
    assert!(
        facts(&format!(
            "{REACTOR}class C {{ Object r = registry.retry(\"x\"); }}"
        ))
        .policies
        .iter()
        .all(|p| p.system != System::Reactor)
    );
}

#[test]
fn reactor_keys_at_assembly_and_in_lambdas() {
    // Built once: every resubscription sends the same key.
    let p = one(&format!(
        "{REACTOR}class C {{ Mono<String> f() {{ return webClient.post().header(\"Idempotency-Key\", UUID.randomUUID().toString()).retrieve().bodyToMono(String.class).retryWhen(Retry.backoff(3, Duration.ofMillis(100))); }} }}"
    ));
    assert_eq!(p.idempotency.len(), 1);
    assert!(!p.idempotency[0].inside_retry);
    // Inside Mono.defer: a new key per attempt.
    let p = one(&format!(
        "{REACTOR}class C {{ Mono<String> f() {{ return Mono.defer(() -> webClient.post().header(\"Idempotency-Key\", UUID.randomUUID().toString()).retrieve().bodyToMono(String.class)).retryWhen(Retry.backoff(3, Duration.ofMillis(100))); }} }}"
    ));
    assert_eq!(p.idempotency.len(), 1);
    assert!(p.idempotency[0].inside_retry);
}

#[test]
fn reactor_spec_built_by_a_helper_method() {
    let p = one(&format!(
        "{REACTOR}class C {{ static final int MAX = 3; Mono<String> f(String u) {{ return webClient.post().uri(u).retrieve().bodyToMono(String.class).retryWhen(spec(u)); }} private Retry spec(String u) {{ return Retry.backoff(MAX, Duration.ofMillis(500)).jitter(0.5).filter(e -> e.getMessage().equals(u)); }} }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(p.name.as_deref(), Some("f"));
    // Two methods of that name, or two returns: not followed.
    for helper in [
        "private Retry spec(String u) { return Retry.max(1); } private Retry spec() { return Retry.max(2); }",
        "private Retry spec(String u) { if (u.isEmpty()) { return Retry.max(1); } return Retry.max(2); }",
    ] {
        let f = facts(&format!(
            "{REACTOR}class C {{ Mono<String> f(String u) {{ return webClient.get().retrieve().bodyToMono(String.class).retryWhen(spec(u)); }} {helper} }}"
        ));
        assert!(f.policies.iter().all(|p| p.system != System::Reactor));
    }
}
