package com.example.transfers;

import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.core.IntervalFunction;
import java.util.UUID;

public class TransferClient {

    private final Retry retry = Retry.of("transfers", RetryConfig.custom()
            .maxAttempts(3)
            .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(100, 2.0))
            .build());

    public Transfer send(TransfersApi api, Transfer t) {
        return retry.executeSupplier(() -> api.transfer(t.withIdempotencyKey(UUID.randomUUID())));
    }
}
