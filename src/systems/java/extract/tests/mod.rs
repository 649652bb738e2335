use super::*;
use std::time::Duration;

mod gateway_routes;
mod pruning;
mod reactor_retry;
mod resilience4j;
mod retry_loops;
mod walk;

fn facts(src: &str) -> Facts {
    let mut f = Facts::default();
    extract(src, &mut f);
    f
}

fn one(src: &str) -> RetryPolicy {
    let f = facts(src);
    assert_eq!(f.policies.len(), 1, "{:#?}", f.policies);
    f.policies.into_iter().next().unwrap()
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn line_of(src: &str, s: Span) -> usize {
    src[..s.start].lines().count().max(1)
}

const SR: &str = "import org.springframework.retry.annotation.Retryable;\nimport org.springframework.retry.annotation.Backoff;\n";
const F7: &str = "import org.springframework.resilience.annotation.Retryable;\n";
const R4J: &str = "import io.github.resilience4j.retry.Retry;\nimport io.github.resilience4j.retry.RetryConfig;\n";

#[test]
fn sniff_wants_only_retry_looking_files() {
    assert!(wants(b"class A { void f() { Thread.sleep(1); } }"));
    assert!(wants(b"@Retryable class A {}"));
    assert!(wants(b"String id = UUID.randomUUID();"));
    assert!(!wants(
        b"class A { int add(int a, int b) { return a + b; } }"
    ));
}

#[test]
fn spring_retry_defaults_and_fixed_delays() {
    let p = one(&format!("{SR}interface S {{ @Retryable void a(); }}"));
    assert_eq!(p.system, System::SpringRetry);
    assert_eq!(p.name.as_deref(), Some("a"));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert!(p.attempts.is_default());
    assert_eq!(p.delay.value, Delay::Fixed { delay: ms(1000) });
    assert!(p.delay.is_default());
    assert_eq!(p.jitter.value, Jitter::None);
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);

    let p = one(&format!(
        "{SR}interface S {{ @Retryable(value = {{IOException.class, TimeoutException.class}}, noRetryFor = IllegalArgumentException.class, maxAttempts = 5, backoff = @Backoff(500)) void a(); }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(p.delay.value, Delay::Fixed { delay: ms(500) });
    assert!(p.delay.is_written());
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(conditions.len(), 2);
    assert_eq!(p.ignores.len(), 1);
}

#[test]
fn spring_retry_backoff_kinds() {
    let p = one(&format!(
        "{SR}interface S {{ @Retryable(backoff = @Backoff(delay = 100, multiplier = 2, maxDelay = 1000)) void a(); }}"
    ));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: ms(100),
            multiplier: 2.0,
            cap: Some(ms(1000))
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
    // maxDelay below the delay: ExponentialBackOffPolicy's 30 s default.
    let p = one(&format!(
        "{SR}interface S {{ @Retryable(backoff = @Backoff(delay = 100, multiplier = 3, random = true)) void a(); }}"
    ));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: ms(100),
            multiplier: 3.0,
            cap: Some(ms(30_000))
        }
    );
    assert_eq!(p.jitter.value, Jitter::Additive);
    assert_eq!(p.cap_order, CapOrder::AfterJitter);
    // delay + maxDelay without multiplier: uniform in [100, 300].
    let p = one(&format!(
        "{SR}interface S {{ @Retryable(backoff = @Backoff(delay = 100, maxDelay = 300)) void a(); }}"
    ));
    assert_eq!(p.delay.value, Delay::Fixed { delay: ms(200) });
    assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.5 });
}

#[test]
fn spring_retry_expressions_are_unknown_not_guessed() {
    let p = one(&format!(
        "{SR}interface S {{ @Retryable(retryFor = SQLException.class, maxAttemptsExpression = \"${{retry.maxAttempts}}\", backoff = @Backoff(delayExpression = \"${{retry.maxDelay}}\")) void a(); }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
    assert!(p.attempts.value.written_as.contains("retry.maxAttempts"));
    assert_eq!(p.delay.value, Delay::Unknown);
    let p = one(&format!(
        "{SR}interface S {{ @Retryable(backoff = @Backoff(delay = 100, multiplierExpression = \"#{{2}}\")) void a(); }}"
    ));
    assert_eq!(p.delay.value, Delay::Unknown);
}

#[test]
fn spring_framework_seven_counts_retries() {
    let p = one(&format!("{F7}class S {{ @Retryable void a() {{}} }}"));
    assert_eq!(p.system, System::SpringFramework);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(p.delay.value, Delay::Fixed { delay: ms(1000) });
    assert_eq!(p.jitter.value, Jitter::None);
    assert_eq!(p.overall_timeout.as_ref().unwrap().value, Timeout::Disabled);
    assert!(p.overall_timeout.as_ref().unwrap().is_default());

    let p = one(&format!(
        "{F7}class S {{ @Retryable(includes = IOException.class, excludes = FileNotFoundException.class, maxRetries = 2, delay = 2, jitter = 1, multiplier = 2, maxDelay = 10, timeUnit = TimeUnit.SECONDS, timeout = 30) void a() {{}} }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(2),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(10))
        }
    );
    assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.5 });
    assert_eq!(
        p.overall_timeout.as_ref().unwrap().value,
        Timeout::after(Duration::from_secs(30))
    );
    assert_eq!(p.ignores.len(), 1);

    let p = one(&format!(
        "{F7}class S {{ @Retryable(maxRetriesString = \"${{x}}\", delayString = \"500ms\") void a() {{}} }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
    assert_eq!(p.delay.value, Delay::Fixed { delay: ms(500) });
}

#[test]
fn retryable_without_imports_is_told_apart_by_attributes() {
    let p = one("class S { @Retryable(maxRetries = 1) void a() {} }");
    assert_eq!(p.system, System::SpringFramework);
    let p = one("class S { @Retryable(maxAttempts = 2) void a() {} }");
    assert_eq!(p.system, System::SpringRetry);
    // A bare annotation of unknown origin is not guessed.
    assert!(
        facts("class S { @Retryable void a() {} }")
            .policies
            .is_empty()
    );
}

#[test]
fn custom_retry_annotations_are_declared_and_used() {
    // A declaration: a policy named after the annotation, and no scope.
    let f = facts(&format!(
        "{SR}import java.lang.annotation.*;\n@Target(ElementType.METHOD) @Retryable(maxAttempts = 4) public @interface RetryOnIo {{}}"
    ));
    assert_eq!(f.policies.len(), 1);
    assert_eq!(f.policies[0].name.as_deref(), Some("@RetryOnIo"));
    let a = &f.java.retry_annotations;
    assert_eq!(
        (
            a.len(),
            a[0].name.as_str(),
            a[0].qualified.as_deref(),
            a[0].policy
        ),
        (1, "RetryOnIo", Some("RetryOnIo"), 0)
    );
    assert!(f.java.annotation_uses.is_empty());
    // Uses: the project's own annotations, with the keys their methods
    // mint; not those of well-known packages or java.lang, nor Retryable.
    let src = "import com.acme.retry.RetryOnIo;\nimport org.springframework.transaction.annotation.Transactional;\nimport org.springframework.web.bind.annotation.*;\nclass C {\n  @Override @Transactional @RetryOnIo public R charge(Api api) { String idempotencyKey = UUID.randomUUID().toString(); return api.charge(idempotencyKey); }\n  @GetMapping(\"/x\") @Audited R get() { return null; }\n  @org.junit.jupiter.api.Test void t() {}\n}";
    let f = facts(src);
    let uses: Vec<(&str, &str, usize)> = f
        .java
        .annotation_uses
        .iter()
        .map(|u| (u.annotation.as_str(), u.target.as_str(), u.keys.len()))
        .collect();
    // `GetMapping` comes from a wildcard import: kept, and harmless unless
    // a scanned file declares it with @Retryable.
    assert_eq!(
        uses,
        [
            ("RetryOnIo", "charge", 1),
            ("GetMapping", "get", 0),
            ("Audited", "get", 0)
        ]
    );
    assert!(f.java.annotation_uses[0].keys[0].inside_retry);
    assert!(f.policies.is_empty());
}

#[test]
fn feign_retryers_and_builders() {
    let fg = "import feign.Feign;\nimport feign.Retryer;\n";
    // Retryer.Default(period, maxPeriod, maxAttempts): the first wait is
    // 1.5 periods, growing x1.5 up to maxPeriod.
    let p = one(&format!(
        "{fg}class C {{ @Bean Retryer feignRetryer() {{ return new Retryer.Default(200, TimeUnit.SECONDS.toMillis(2), 3); }} }}"
    ));
    assert_eq!(p.system, System::Feign);
    assert_eq!(p.name.as_deref(), Some("feignRetryer"));
    // Built in a `@Bean` method: every named client's retryer.
    assert_eq!(p.scope.client, Some(ClientScope::Bean));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert!(p.attempts.is_written());
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: ms(300),
            multiplier: 1.5,
            cap: Some(Duration::from_secs(2))
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
    assert_eq!(p.methods.value, Methods::All);
    // No arguments: 5 attempts from 150 ms, capped at 1 s, all defaults.
    let p = one(&format!(
        "{fg}class C {{ Retryer r = new Retryer.Default(); }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert!(p.attempts.is_written(), "asked for, not a fallback");
    assert_eq!(p.scope.client, None);
    assert!(p.delay.is_default());
    assert!(
        matches!(p.delay.value, Delay::Exponential { base, cap: Some(c), .. } if base == ms(150) && c == ms(1000))
    );
    // A builder without .retryer(..) retries by default, and its target
    // URL is called through that retryer; NEVER_RETRY adds no policy; a
    // written retryer is the builder's.
    let f = facts(&format!(
        "{fg}class C {{ A a() {{ return Feign.builder().target(A.class, \"http://payments:8080\"); }} B b() {{ return Feign.builder().retryer(Retryer.NEVER_RETRY).target(B.class, \"http://ledger:8080\"); }} D d() {{ return Feign.builder().retryer(new Retryer.Default(100, 1000, 2)).target(D.class, \"http://stock:8080\"); }} }}"
    ));
    assert_eq!(f.policies.len(), 2, "{:#?}", f.policies);
    let implicit = f
        .policies
        .iter()
        .position(|p| p.attempts.is_default())
        .unwrap();
    assert_eq!(
        f.policies[implicit].attempts.value.count,
        AttemptCount::Finite(5)
    );
    let written = 1 - implicit;
    let edge = |host: &str| f.edges.iter().find(|e| e.callee.starts_with(host)).unwrap();
    assert_eq!(edge("payments").policies, [implicit]);
    assert!(edge("ledger").policies.is_empty());
    assert_eq!(edge("stock").policies, [written]);
    // A builder kept in a variable may get its retryer later: no default.
    assert!(
        facts(&format!(
            "{fg}class C {{ Feign.Builder b = Feign.builder().encoder(new E()); }}"
        ))
        .policies
        .is_empty()
    );
    // Without a Feign import nothing is read.
    assert!(
        facts("class C { Retryer r = new Retryer.Default(); }")
            .policies
            .is_empty()
    );
    // A Spring Cloud @FeignClient is a call through a named client: to its
    // url's host (not also a URL literal edge), else to the named service;
    // a placeholder names nothing.
    let f = facts(
        "import org.springframework.cloud.openfeign.FeignClient;\n@FeignClient(name = \"payments\") interface P {}\n@FeignClient(value = \"stock\", contextId = \"stockAdmin\", url = \"http://stock-admin:8080/api\") interface S {}\n@FeignClient(\"ledger\") interface L {}\n@FeignClient(name = \"${svc.name}\") interface X {}\n",
    );
    let edges: Vec<(&str, Option<&str>)> = f
        .edges
        .iter()
        .map(|e| (e.callee.as_str(), e.client.as_deref()))
        .collect();
    assert_eq!(
        edges,
        [
            ("payments", Some("payments")),
            ("stock-admin:8080", Some("stockAdmin")),
            ("ledger", Some("ledger")),
        ]
    );
}

#[test]
fn guava_retrying_retryers() {
    let gr = "import com.github.rholder.retry.*;\nimport static com.github.rholder.retry.WaitStrategies.fibonacciWait;\n";
    // Defaults: never stops, no wait.
    let p = one(&format!(
        "{gr}class C {{ Retryer<Object> r = RetryerBuilder.<Object>newBuilder().retryIfException().build(); }}"
    ));
    assert_eq!(p.system, System::GuavaRetrying);
    assert_eq!(p.name.as_deref(), Some("r"));
    assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
    assert!(p.attempts.is_default());
    assert_eq!(p.delay.value, Delay::None);
    assert!(matches!(&p.retry_on.value, RetryOn::Listed { conditions }
        if conditions[0].value == Condition::Exception("Exception".into())));
    // exponentialWait(m, max, unit): 2m ms first, doubling, capped; no jitter.
    let p = one(&format!(
        "{gr}class C {{ Retryer<Object> r = RetryerBuilder.newBuilder().retryIfExceptionOfType(IOException.class).retryIfResult(Objects::isNull).withStopStrategy(StopStrategies.stopAfterAttempt(4)).withWaitStrategy(WaitStrategies.exponentialWait(100, 5, TimeUnit.MINUTES)).withAttemptTimeLimiter(AttemptTimeLimiters.fixedTimeLimit(2, TimeUnit.SECONDS)).build(); }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: ms(200),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(300))
        }
    );
    assert_eq!(p.jitter.value, Jitter::None);
    assert!(p.jitter.is_written());
    assert_eq!(
        p.per_try_timeout.map(|t| t.value),
        Some(Timeout::after(Duration::from_secs(2)))
    );
    assert!(matches!(&p.retry_on.value, RetryOn::Listed { conditions } if conditions.len() == 2));
    // A strategy held in a variable; stopAfterDelay bounds the time only;
    // a statically imported wait strategy.
    let f = facts(&format!(
        "{gr}class C {{ static final WaitStrategy W = WaitStrategies.randomExponentialWait(1, TimeUnit.MINUTES); Retryer<Object> a = RetryerBuilder.newBuilder().retryIfRuntimeException().withWaitStrategy(W).withStopStrategy(StopStrategies.stopAfterDelay(30, TimeUnit.SECONDS)).build(); Retryer<Object> b = RetryerBuilder.newBuilder().retryIfException().withWaitStrategy(fibonacciWait(100, 2, TimeUnit.MINUTES)).withStopStrategy(StopStrategies.neverStop()).build(); }}"
    ));
    assert_eq!(f.policies.len(), 2);
    let a = &f.policies[0];
    assert_eq!(a.jitter.value, Jitter::Full);
    assert!(
        matches!(a.delay.value, Delay::Exponential { cap: Some(c), .. } if c == Duration::from_secs(60))
    );
    assert_eq!(a.attempts.value.count, AttemptCount::Unbounded);
    assert_eq!(
        a.overall_timeout.as_ref().map(|t| t.value),
        Some(Timeout::after(Duration::from_secs(30)))
    );
    let b = &f.policies[1];
    // 100 ms x 1, 1, 2, 3, .. held at 2 min.
    assert_eq!(
        b.delay.value,
        Delay::Fibonacci {
            first: Duration::from_millis(100),
            second: Duration::from_millis(100),
            cap: Some(Duration::from_secs(120)),
        }
    );
    assert!(b.attempts.is_written());
    // Without a retryIf.. call nothing is retried: no policy; without the
    // import, a RetryerBuilder of another library is not read.
    assert!(facts(&format!("{gr}class C {{ Retryer<Object> r = RetryerBuilder.newBuilder().withStopStrategy(StopStrategies.stopAfterAttempt(3)).build(); }}")).policies.is_empty());
    assert!(facts("class C { Retryer<Object> r = RetryerBuilder.newBuilder().retryIfException().build(); }").policies.is_empty());
    // A builder configured further elsewhere is not judged by its start.
    assert!(facts(&format!("{gr}class C {{ RetryerBuilder<Object> b = RetryerBuilder.newBuilder().retryIfException(); }}")).policies.is_empty());
    // The callable of `retryer.call(..)` is a retry scope (RL501).
    let f = facts(&format!(
        "{gr}class C {{ Retryer<Object> r = RetryerBuilder.newBuilder().retryIfException().withStopStrategy(StopStrategies.stopAfterAttempt(3)).build(); Object g() throws Exception {{ return r.call(() -> api.post(\"/x\", Map.of(\"Idempotency-Key\", UUID.randomUUID()))); }} }}"
    ));
    let keys = &f.policies[0].idempotency;
    assert_eq!(keys.len(), 1, "{keys:#?}");
    assert!(keys[0].inside_retry);
}

#[test]
fn failsafe_policies() {
    let fs = "import dev.failsafe.*;\n";
    let p = one(&format!(
        "{fs}class C {{ RetryPolicy<Object> p = RetryPolicy.ofDefaults(); }}"
    ));
    assert_eq!(p.system, System::Failsafe);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(p.delay.value, Delay::None);
    let p = one(&format!(
        "{fs}class C {{ RetryPolicy<Object> p = RetryPolicy.builder().withMaxRetries(-1).withDelay(Duration.ofMillis(100), Duration.ofMillis(300)).handle(IOException.class).abortOn(CircuitBreakerOpenException.class).build(); }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
    assert_eq!(p.delay.value, Delay::Fixed { delay: ms(200) });
    assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.5 });
    assert_eq!(p.ignores.len(), 1);
    let p = one(&format!(
        "{fs}class C {{ RetryPolicy<Object> p = RetryPolicy.builder().withMaxAttempts(4).withBackoff(1, 30, ChronoUnit.SECONDS).withJitter(0.1).build(); }}"
    ));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: Duration::from_secs(1),
            multiplier: 2.0,
            cap: Some(Duration::from_secs(30))
        }
    );
    assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.1 });
    // Failsafe.with(retry, breaker): the first policy is outermost.
    let f = facts(&format!(
        "{fs}class C {{ RetryPolicy<Object> p = RetryPolicy.ofDefaults(); CircuitBreaker<Object> cb = CircuitBreaker.ofDefaults(); Object g() {{ return Failsafe.with(p, cb).get(() -> 1); }} Object h() {{ return Failsafe.with(cb, p).get(() -> 1); }} }}"
    ));
    assert_eq!(f.policies[0].wraps_breaker.len(), 1);
}

#[test]
fn retry_template_builder() {
    let p = one(
        "import org.springframework.retry.support.RetryTemplate;\nclass C { RetryTemplate t = RetryTemplate.builder().retryOn(IOException.class).build(); }",
    );
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(p.delay.value, Delay::None, "no back-off unless set");
    let p = one(
        "class C { RetryTemplate t = RetryTemplate.builder().maxAttempts(6).exponentialBackoff(Duration.ofMillis(100), 2, Duration.ofSeconds(5), true).build(); }",
    );
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(6));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: ms(100),
            multiplier: 2.0,
            cap: Some(ms(5000))
        }
    );
    assert_eq!(p.jitter.value, Jitter::Additive);
    let p = one(
        "class C { RetryTemplate t = RetryTemplate.builder().infiniteRetry().fixedBackoff(250).build(); }",
    );
    assert_eq!(p.attempts.value.count, AttemptCount::Unbounded);
    assert_eq!(p.delay.value, Delay::Fixed { delay: ms(250) });
}

fn loop_policy(body: &str) -> Option<RetryPolicy> {
    let src = format!(
        "import java.io.IOException;\nclass C {{ static final int MAX = 4; Object f(Api api) throws Exception {{\n{body}\n return null; }} }}"
    );
    let f = facts(&src);
    f.policies
        .into_iter()
        .find(|p| p.system == System::JavaLoop)
}

fn loop_attempts(body: &str) -> AttemptCount {
    loop_policy(body)
        .unwrap_or_else(|| panic!("no retry loop in {body}"))
        .attempts
        .value
        .count
}

#[test]
fn classic_retry_template_with_setters() {
    let src = "import org.springframework.retry.support.RetryTemplate;\nclass C { RetryTemplate t() {\n RetryTemplate retryTemplate = new RetryTemplate();\n SimpleRetryPolicy rp = new SimpleRetryPolicy();\n rp.setMaxAttempts(5);\n ExponentialBackOffPolicy bo = new ExponentialBackOffPolicy();\n bo.setInitialInterval(200);\n bo.setMaxInterval(5000);\n retryTemplate.setRetryPolicy(rp);\n retryTemplate.setBackOffPolicy(bo);\n return retryTemplate; } }";
    let p = one(src);
    assert_eq!(p.name.as_deref(), Some("retryTemplate"));
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(5));
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: ms(200),
            multiplier: 2.0,
            cap: Some(ms(5000))
        }
    );
    let src = "class C { RetryTemplate t() { RetryTemplate t = new RetryTemplate(); t.setRetryPolicy(new SimpleRetryPolicy(4, Map.of(IOException.class, true))); t.setBackOffPolicy(new UniformRandomBackOffPolicy()); return t; } }";
    let p = one(src);
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(4));
    assert_eq!(p.delay.value, Delay::Fixed { delay: ms(1000) });
    assert_eq!(p.jitter.value, Jitter::Proportional { factor: 0.5 });
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(
        conditions[0].value,
        Condition::Exception("IOException".into())
    );
    // No setters: SimpleRetryPolicy's 3 attempts, no back-off.
    let p = one("class C { RetryTemplate t = new RetryTemplate(); }");
    assert_eq!(p.attempts.value.count, AttemptCount::Finite(3));
    assert_eq!(p.delay.value, Delay::None);
}

#[test]
fn idempotency_keys_inside_and_outside() {
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { return api.post(\"/x\", Map.of(\"Idempotency-Key\", UUID.randomUUID().toString())); } catch (IOException e) { } }").unwrap();
    assert_eq!(p.idempotency.len(), 1);
    assert!(p.idempotency[0].inside_retry);
    assert_eq!(p.idempotency[0].created_by, "UUID.randomUUID()");
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { String requestId = UUID.randomUUID().toString(); return api.post(requestId); } catch (IOException e) { } }").unwrap();
    assert_eq!(p.idempotency.len(), 1);
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { req.setIdempotencyKey(UUID.randomUUID()); return api.post(req); } catch (IOException e) { } }").unwrap();
    assert_eq!(p.idempotency.len(), 1);
    // Not a key: a temporary name.
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { return api.upload(\"tmp-\" + UUID.randomUUID()); } catch (IOException e) { } }").unwrap();
    assert!(p.idempotency.is_empty());
    // Minted once before the loop.
    let p = loop_policy("String key = UUID.randomUUID().toString(); for (int i = 0; i < 3; i++) { try { return api.post(\"/x\", Map.of(\"Idempotency-Key\", key)); } catch (IOException e) { } }").unwrap();
    assert_eq!(p.idempotency.len(), 1);
    assert!(
        !p.idempotency[0].inside_retry,
        "minted once, outside the retry"
    );
}

#[test]
fn keys_in_retry_lambdas_and_method_references() {
    let src = format!(
        "{R4J}class C {{ Retry retry = Retry.ofDefaults(\"r\"); Object a() {{ return retry.executeSupplier(this::send); }} Object send() {{ return api.post(\"/x\", UUID.randomUUID().toString(), \"X-Request-Id\"); }} }}"
    );
    let p = one(&src);
    assert_eq!(p.idempotency.len(), 1);
    let src = "import org.springframework.retry.support.RetryTemplate;\nclass C { RetryTemplate t = RetryTemplate.builder().build(); Object a() { return t.execute(ctx -> api.post(\"/x\", Map.of(\"Idempotency-Key\", UUID.randomUUID()))); } }";
    assert_eq!(one(src).idempotency.len(), 1);
    let src = "import dev.failsafe.*;\nclass C { RetryPolicy<Object> p = RetryPolicy.ofDefaults(); Object a() { return Failsafe.with(p).get(() -> api.post(\"/x\", Map.of(\"Idempotency-Key\", UUID.randomUUID()))); } }";
    assert_eq!(one(src).idempotency.len(), 1);
}

#[test]
fn url_literals_become_edges() {
    assert_eq!(
        url_host("http://payments:8080/v1/charges"),
        Some("payments:8080")
    );
    assert_eq!(
        url_host("${orders.url:https://orders.internal}"),
        Some("orders.internal")
    );
    assert_eq!(url_host("http://www.w3.org/2001/XMLSchema"), None);
    assert_eq!(url_host("file:///tmp/x"), None);
    let src = "class C { Object f(Api api) throws Exception { for (int i = 0; i < 3; i++) { try { return api.get(\"http://inventory:8080/stock\"); } catch (IOException e) { } } return api.get(\"http://pricing/\"); } }";
    let f = facts(src);
    assert_eq!(f.edges.len(), 2);
    assert_eq!(f.edges[0].callee, "inventory:8080");
    assert_eq!(f.edges[0].policies, vec![0]);
    assert!(f.edges[1].policies.is_empty());
}

#[test]
fn broken_and_hostile_input_never_panics() {
    for src in [
        "",
        "class {",
        "@Retryable(maxAttempts = ) void",
        "class C { void f() { for (int i = 0; i < ; i++) { try { return; } catch ( } } }",
        "import io.github.resilience4j.retry.Retry; class C { Retry r = Retry.of(); Object x = RetryConfig.from(RetryConfig.from(RetryConfig.from(null))); }",
        "class C { int a = a; Retry r = r; Object f() { return r.executeSupplier(r); } }",
    ] {
        let _ = facts(src);
    }
    // Deep nesting: long chains, nested parentheses and lambdas.
    let chain = format!(
        "import io.github.resilience4j.retry.*; class C {{ RetryConfig c = RetryConfig.custom(){}.build(); }}",
        ".maxAttempts(2)".repeat(20_000)
    );
    assert_eq!(one(&chain).attempts.value.count, AttemptCount::Finite(2));
    let parens = format!(
        "class C {{ Object f() {{ for (;;) {{ try {{ return {}1{}; }} catch (Exception e) {{ Thread.sleep({}5{}); }} }} }} }}",
        "(".repeat(5_000),
        ")".repeat(5_000),
        "(".repeat(5_000),
        ")".repeat(5_000)
    );
    let _ = facts(&parens);
    let lambdas = format!(
        "class C {{ Object f() {{ return retry.executeSupplier({}x{}); }} }}",
        "() -> ".repeat(3_000),
        ""
    );
    let _ = facts(&lambdas);
}

#[test]
fn grpc_service_config_in_a_string_literal() {
    let src = "class C { static final String CONFIG = \"{\\\"methodConfig\\\": [{\\\"name\\\": [{\\\"service\\\": \\\"a.B\\\"}], \\\"retryPolicy\\\": {\\\"maxAttempts\\\": 4, \\\"initialBackoff\\\": \\\"0.1s\\\", \\\"maxBackoff\\\": \\\"1s\\\", \\\"backoffMultiplier\\\": 2, \\\"retryableStatusCodes\\\": [\\\"UNAVAILABLE\\\"]}}]}\"; }";
    let f = facts(src);
    assert_eq!(f.policies.len(), 1, "{:?} {:?}", f.policies, f.diagnostics);
    assert_eq!(f.policies[0].system, System::Grpc);
    assert_eq!(f.policies[0].attempts.value.count, AttemptCount::Finite(4));
    // The span points into the Java file, inside the literal.
    let s = f.policies[0].attempts.span;
    assert!(src[s.start..s.end].contains("maxAttempts") || src[s.start..s.end].contains('4'));
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    const SOURCES: &[&str] = &[
        include_str!("../../../../../testdata/rules/RL203/ok/java-not-retry-loops.java"),
        include_str!("../../../../../testdata/rules/RL104/err/java-nested-execute.java"),
        include_str!("../../../../../testdata/rules/RL501/err/java-retryable-method.java"),
        include_str!("../../../../../testdata/rules/RL301/err/java-time-limiters.java"),
        include_str!("../../../../../testdata/rules/RL205/ok/java-bounded.java"),
    ];

    fn cut(s: &str, at: usize) -> usize {
        let mut i = at.min(s.len());
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Truncated, spliced and garbled Java never panics the extractor,
        /// and every span it reports lies inside the text.
        #[test]
        fn mangled_java_never_panics(which in 0..SOURCES.len(), a in 0usize..4000, b in 0usize..4000, junk in "[{}()\\[\\];.,=<>!&|+*/\"' a-zA-Z0-9\\n]{0,40}") {
            let src = SOURCES[which];
            let (x, y) = (cut(src, a.min(b)), cut(src, a.max(b)));
            let text = format!("{}{}{}", &src[..x], junk, &src[y..]);
            let f = facts(&text);
            for p in &f.policies {
                prop_assert!(p.span.end <= text.len());
                prop_assert!(p.attempts.span.end <= text.len());
                for k in &p.idempotency {
                    prop_assert!(k.span.end <= text.len());
                }
            }
            for d in &f.diagnostics {
                prop_assert!(d.span.end <= text.len());
            }
        }
    }
}

/// A fuzzer's input on which tree-sitter's error recovery ran for minutes:
/// the parse stops at its budget and the file is a finding.
#[test]
fn a_parse_that_does_not_end_is_cut_short_and_reported() {
    let bytes =
        std::fs::read("testdata/fuzz-regressions/java-parser-recovery-blowup.java").unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let f = facts(&text);
    assert_eq!(f.diagnostics.len(), 1, "{:?}", f.diagnostics);
    assert_eq!(f.diagnostics[0].code, "RL903");
    assert!(
        f.diagnostics[0].message.contains("gave up after"),
        "{}",
        f.diagnostics[0].message
    );
    assert!(f.policies.is_empty());
}

#[test]
fn java_limits_are_their_own_types() {
    for (limit, n) in [
        ("Integer.MAX_VALUE", 2_147_483_647u64),
        ("Short.MAX_VALUE", 32_767),
        ("Byte.MAX_VALUE", 127),
        ("Long.MAX_VALUE", 9_223_372_036_854_775_807),
    ] {
        let p = one(&format!(
            "{R4J}class C {{ Retry r = Retry.of(\"a\", RetryConfig.custom().maxAttempts({limit}).build()); }}"
        ));
        assert_eq!(p.attempts.value.count, AttemptCount::Finite(n), "{limit}");
    }
}
