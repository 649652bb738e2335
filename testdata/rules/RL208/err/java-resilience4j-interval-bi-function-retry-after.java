package com.example.billing;

import io.github.resilience4j.core.functions.Either;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.net.http.HttpResponse;
import java.time.Duration;

public class InvoiceRetry {

    // The interval is the server's Retry-After as it is: no cap, no jitter.
    public Retry retry() {
        RetryConfig config = RetryConfig.<HttpResponse<String>>custom()
                .maxAttempts(4)
                .retryOnResult(r -> r.statusCode() == 429)
                .intervalBiFunction((attempt, either) -> either.isRight()
                        ? Long.parseLong(either.get().headers().firstValue("Retry-After").orElse("1")) * 1000
                        : 500L)
                .build();
        return Retry.of("invoices", config);
    }
}
