package com.example.billing;

import io.github.resilience4j.core.functions.Either;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.net.http.HttpResponse;
import java.util.concurrent.ThreadLocalRandom;

public class InvoiceRetry {

    private static final long MAX_WAIT_MS = 20_000;

    // The method the reference names caps the server's wait at 20 s and
    // adds up to half of it at random.
    public Retry retry() {
        RetryConfig config = RetryConfig.<HttpResponse<String>>custom()
                .maxAttempts(4)
                .retryOnResult(r -> r.statusCode() == 429)
                .intervalBiFunction(InvoiceRetry::serverWait)
                .build();
        return Retry.of("invoices", config);
    }

    static Long serverWait(Integer attempt, Either<Throwable, HttpResponse<String>> either) {
        long wait = either.isRight()
                ? Math.min(Long.parseLong(either.get().headers().firstValue("Retry-After").orElse("1")) * 1000, MAX_WAIT_MS)
                : 500L;
        return wait + ThreadLocalRandom.current().nextLong(wait / 2 + 1);
    }
}
