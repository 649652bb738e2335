package com.example.search;

import dev.failsafe.CircuitBreaker;
import dev.failsafe.CircuitBreakerOpenException;
import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import java.time.Duration;

public class SearchClient {

    private final RetryPolicy<Object> retryPolicy = RetryPolicy.builder()
            .withMaxRetries(2)
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))
            .withJitter(0.25)
            .abortOn(CircuitBreakerOpenException.class)
            .build();
    private final CircuitBreaker<Object> breaker = CircuitBreaker.ofDefaults();

    public Object search(Api api, String q) {
        return Failsafe.with(retryPolicy, breaker).get(() -> api.search(q));
    }
}
