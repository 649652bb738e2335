package com.example.payments;

import java.util.UUID;

import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;

// The callback runs once per attempt, so each attempt sends a new key:
// a charge that timed out and went through is charged again.
public class PaymentClient {

    private final RetryTemplate retry = new RetryTemplate(RetryPolicy.withMaxRetries(2));

    public Receipt charge(Api api, Charge charge) throws Exception {
        return retry.execute(() -> {
            String idempotencyKey = UUID.randomUUID().toString();
            return api.charge(charge, idempotencyKey);
        });
    }
}
