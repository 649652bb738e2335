package com.example.orders;

import java.util.UUID;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;
import org.springframework.web.client.ResourceAccessException;

public class OrderPublisher {

    private final OrdersApi api;

    public OrderPublisher(OrdersApi api) {
        this.api = api;
    }

    @Retryable(retryFor = ResourceAccessException.class, maxAttempts = 4,
            backoff = @Backoff(delay = 100, multiplier = 2, random = true))
    public void publish(Order order) {
        String requestId = UUID.randomUUID().toString();
        api.create(order, requestId);
    }
}
