//! Hand-written retry loops: their bounds, waits and conditions, and the
//! loop shapes that are not retries.

use super::*;

#[test]
fn loop_bounds() {
    let fin = AttemptCount::Finite;
    assert_eq!(
        loop_attempts(
            "for (int i = 0; i < 3; i++) { try { return api.call(); } catch (IOException e) { } }"
        ),
        fin(3)
    );
    assert_eq!(
        loop_attempts(
            "for (int i = 1; i <= MAX; i++) { try { return api.call(); } catch (IOException e) { } }"
        ),
        fin(4)
    );
    assert_eq!(
        loop_attempts(
            "for (int i = 5; i > 0; i--) { try { return api.call(); } catch (IOException e) { } }"
        ),
        fin(5)
    );
    assert_eq!(
        loop_attempts(
            "int attempts = 0; while (true) { try { return api.call(); } catch (IOException e) { if (++attempts >= 5) throw e; } }"
        ),
        fin(5)
    );
    assert_eq!(
        loop_attempts(
            "int attempts = 0; while (true) { try { return api.call(); } catch (IOException e) { attempts++; if (attempts > 3) throw e; } }"
        ),
        fin(4)
    );
    assert_eq!(
        loop_attempts(
            "int attempts = 0; while (true) { try { return api.call(); } catch (IOException e) { if (attempts >= 3) throw e; attempts++; } }"
        ),
        fin(4)
    );
    assert_eq!(
        loop_attempts(
            "int retries = 3; while (retries-- > 0) { try { return api.call(); } catch (IOException e) { } }"
        ),
        fin(3)
    );
    assert_eq!(
        loop_attempts(
            "int n = 0; boolean ok = false; while (!ok && n < 6) { try { api.call(); ok = true; } catch (IOException e) { n++; } }"
        ),
        fin(6)
    );
    assert_eq!(
        loop_attempts(
            "int n = 0; do { try { return api.call(); } catch (IOException e) { n++; } } while (n < 2);"
        ),
        fin(2)
    );
    assert_eq!(
        loop_attempts(
            "for (int i = 0; i < Integer.MAX_VALUE; i++) { try { return api.call(); } catch (IOException e) { } }"
        ),
        AttemptCount::Unbounded
    );
    assert_eq!(
        loop_attempts(
            "while (true) { try { return api.call(); } catch (IOException e) { Thread.sleep(1000); } }"
        ),
        AttemptCount::Unbounded
    );
    assert_eq!(
        loop_attempts("for (;;) { try { api.connect(); break; } catch (IOException e) { } }"),
        AttemptCount::Unbounded
    );
    assert_eq!(
        loop_attempts(
            "for (int i = 0; i < api.maxRetries(); i++) { try { return api.call(); } catch (IOException e) { } }"
        ),
        AttemptCount::Unknown
    );
    // Counting down to an exit, on either side of `||`.
    assert_eq!(
        loop_attempts(
            "int left = 4; for (;;) { try { api.call(); break; } catch (IOException e) { if (aborted || (--left) <= 0) throw e; } }"
        ),
        AttemptCount::Finite(4)
    );
    // A field counter's start is not known at the loop.
    let src = "class C { int left = 3; Object f(Api api) throws Exception { for (;;) { try { return api.call(); } catch (IOException e) { if (--left <= 0) throw e; } } } }";
    let p = facts(src).policies.into_iter().next().unwrap();
    assert_eq!(p.attempts.value.count, AttemptCount::Unknown);
}

#[test]
fn loop_waits() {
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { return api.call(); } catch (IOException e) { Thread.sleep(250); } }").unwrap();
    assert_eq!(p.delay.value, Delay::Fixed { delay: ms(250) });
    assert_eq!(p.jitter.value, Jitter::None);
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { return api.call(); } catch (IOException e) { TimeUnit.SECONDS.sleep(2); } }").unwrap();
    assert_eq!(
        p.delay.value,
        Delay::Fixed {
            delay: Duration::from_secs(2)
        }
    );
    let p = loop_policy("long delay = 100; for (int i = 0; i < 3; i++) { try { return api.call(); } catch (IOException e) { Thread.sleep(delay); delay = Math.min(delay * 2, 5000); } }").unwrap();
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: ms(100),
            multiplier: 2.0,
            cap: Some(ms(5000))
        }
    );
    let p = loop_policy("long delay = 100; for (int i = 0; i < 3; i++) { try { return api.call(); } catch (IOException e) { Thread.sleep(delay); delay *= 3; } }").unwrap();
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: ms(100),
            multiplier: 3.0,
            cap: None
        }
    );
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { return api.call(); } catch (IOException e) { Thread.sleep((long) (200 * Math.pow(2, i))); } }").unwrap();
    assert_eq!(
        p.delay.value,
        Delay::Exponential {
            base: ms(200),
            multiplier: 2.0,
            cap: None
        }
    );
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { return api.call(); } catch (IOException e) { Thread.sleep(ThreadLocalRandom.current().nextLong(1000)); } }").unwrap();
    assert_eq!(p.jitter.value, Jitter::Full);
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { return api.call(); } catch (IOException e) { Thread.sleep(500 + random.nextInt(100)); } }").unwrap();
    assert_eq!(p.jitter.value, Jitter::Additive);
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { return api.call(); } catch (IOException e) { LockSupport.parkNanos(1_000_000); } }").unwrap();
    assert_eq!(p.delay.value, Delay::Fixed { delay: ms(1) });
    let p = loop_policy(
        "for (int i = 0; i < 3; i++) { try { return api.call(); } catch (IOException e) { } }",
    )
    .unwrap();
    assert_eq!(p.delay.value, Delay::None);
}

#[test]
fn loop_conditions() {
    let p = loop_policy(
        "for (int i = 0; i < 3; i++) { try { return api.call(); } catch (Exception e) { } }",
    )
    .unwrap();
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { return api.call(); } catch (IllegalArgumentException e) { throw e; } catch (IOException | TimeoutException e) { } }").unwrap();
    let RetryOn::Listed { conditions } = &p.retry_on.value else {
        panic!()
    };
    assert_eq!(conditions.len(), 2);
    assert_eq!(p.ignores.len(), 1);
    // Throwable caught after InterruptedException is rethrown: all errors.
    let p = loop_policy("for (int i = 0; i < 3; i++) { try { return api.call(); } catch (InterruptedException e) { throw e; } catch (Throwable t) { } }").unwrap();
    assert_eq!(p.retry_on.value, RetryOn::AllErrors);
}

#[test]
fn loop_bounded_by_a_policy_object_is_unknown() {
    assert_eq!(
        loop_attempts(
            "while (policy.attempt()) { try { api.run(); return null; } catch (IOException e) { } }"
        ),
        AttemptCount::Unknown
    );
    assert_eq!(
        loop_attempts(
            "boolean done = false; while (!done) { try { api.run(); done = true; } catch (IOException e) { } }"
        ),
        AttemptCount::Unbounded
    );
}

#[test]
fn failover_over_indexed_candidates_is_not_a_retry() {
    assert!(loop_policy("for (int i = 0; i <= 9; ++i) { String p = params.get(\"\" + i); try { return api.connect(p); } catch (Throwable t) { } }").is_none());
    assert!(loop_policy("for (int i = 0; i < 3; i++) { try { return api.connect(hosts[i]); } catch (IOException e) { } }").is_none());
}

#[test]
fn non_retry_loop_shapes_make_no_policy() {
    let text = include_str!("../../../../../testdata/rules/RL203/ok/java-not-retry-loops.java");
    let f = facts(text);
    let loops: Vec<usize> = f
        .policies
        .iter()
        .filter(|p| p.system == System::JavaLoop)
        .map(|p| line_of(text, p.span))
        .collect();
    assert!(loops.is_empty(), "loops read as retries at lines {loops:?}");
}
