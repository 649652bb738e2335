package com.example.billing;

import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.core.functions.Either;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.net.http.HttpResponse;

public class InvoiceRetry {

    // The interval is a class of this file: it waits the server's
    // Retry-After as it is, with no cap and no jitter.
    public Retry retry() {
        RetryConfig config = RetryConfig.<HttpResponse<String>>custom()
                .maxAttempts(4)
                .retryOnResult(r -> r.statusCode() == 429)
                .intervalBiFunction(new RetryAfterInterval())
                .build();
        return Retry.of("invoices", config);
    }

    static class RetryAfterInterval implements IntervalBiFunction<HttpResponse<String>> {
        @Override
        public Long apply(Integer attempt, Either<Throwable, HttpResponse<String>> either) {
            if (either.isRight()) {
                return Long.parseLong(either.get().headers().firstValue("Retry-After").orElse("1")) * 1000;
            }
            return 500L;
        }
    }
}
