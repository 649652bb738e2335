package com.example.payments;

import java.util.UUID;

import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;

// The key is minted once, before the retry: every attempt sends the same
// one and the server charges once.
public class PaymentClient {

    private final RetryTemplate retry = new RetryTemplate(RetryPolicy.withMaxRetries(2));

    public Receipt charge(Api api, Charge charge) throws Exception {
        String idempotencyKey = UUID.randomUUID().toString();
        return retry.execute(() -> api.charge(charge, idempotencyKey));
    }
}
