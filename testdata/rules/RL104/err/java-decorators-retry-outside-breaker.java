package com.example.payments;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.decorators.Decorators;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.function.Supplier;

public class PaymentsClient {

    private final CircuitBreaker breaker = CircuitBreaker.ofDefaults("payments");
    private final Retry retry = Retry.of("payments", RetryConfig.custom()
            .maxAttempts(3)
            .waitDuration(Duration.ofMillis(200))
            .build());
    private final HttpApi api;

    public PaymentsClient(HttpApi api) {
        this.api = api;
    }

    public String charge(String order) {
        Supplier<String> call = Decorators.ofSupplier(() -> api.post("/charges", order))
                .withCircuitBreaker(breaker)
                .withRetry(retry)
                .decorate();
        return call.get();
    }
}
