package com.example.inventory;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.decorators.Decorators;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;

// The retry's settings live in application.yml (instance `inventory`),
// read together with this file.
public class InventoryClient {

    private final CircuitBreaker breaker;
    private final Retry retry;

    public InventoryClient(CircuitBreakerRegistry breakers, RetryRegistry retries) {
        this.breaker = breakers.circuitBreaker("inventory");
        this.retry = retries.retry("inventory");
    }

    public int stock(Api api, String sku) {
        return Decorators.ofSupplier(() -> api.stock(sku))
                .withCircuitBreaker(breaker)
                .withRetry(retry)
                .get();
    }
}
