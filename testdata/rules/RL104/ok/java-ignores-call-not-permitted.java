package com.example.payments;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.decorators.Decorators;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;

// The retry is outside the breaker but does not retry an open breaker.
public class PaymentsClient {

    private final CircuitBreaker breaker = CircuitBreaker.ofDefaults("payments");
    private final Retry retry = Retry.of("payments", RetryConfig.custom()
            .maxAttempts(3)
            .ignoreExceptions(CallNotPermittedException.class)
            .build());

    public String charge(HttpApi api, String order) {
        return Decorators.ofSupplier(() -> api.post("/charges", order))
                .withCircuitBreaker(breaker)
                .withRetry(retry)
                .get();
    }
}
