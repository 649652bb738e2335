package com.example.orders;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;

public class OrdersGateway {

    private final CircuitBreaker circuitBreaker;
    private final Retry retry;

    public OrdersGateway(CircuitBreaker circuitBreaker) {
        this.circuitBreaker = circuitBreaker;
        RetryConfig config = RetryConfig.custom()
                .maxAttempts(4)
                .retryExceptions(RuntimeException.class)
                .build();
        this.retry = Retry.of("orders", config);
    }

    public Order fetch(String id) {
        return retry.executeSupplier(() -> circuitBreaker.executeSupplier(() -> load(id)));
    }

    private Order load(String id) {
        return null;
    }

    record Order(String id) {}
}
