package com.example.http;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.util.UUID;

// The key is minted once and sent with every attempt: the server can
// recognise a retry of a request it already processed.
public class PaymentsClient {

    private final Retry retry = Retry.of("payments", RetryConfig.<Receipt>custom()
            .maxAttempts(3)
            .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(100, 2.0))
            .retryExceptions(IOException.class)
            .retryOnResult(r -> r.statusCode() >= 500)
            .build());

    public Receipt charge(Api api, Charge charge) {
        String idempotencyKey = UUID.randomUUID().toString();
        return retry.executeSupplier(() -> api.charge(charge, idempotencyKey));
    }
}
