package com.example.billing;

import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.net.http.HttpResponse;

public class InvoiceRetry {

    // The interval is a class of another file (RetryAfterInterval.java): it
    // waits the server's Retry-After as it is, with no cap and no jitter.
    public Retry retry() {
        RetryConfig config = RetryConfig.<HttpResponse<String>>custom()
                .maxAttempts(4)
                .retryOnResult(r -> r.statusCode() == 429)
                .intervalBiFunction(new RetryAfterInterval())
                .build();
        return Retry.of("invoices", config);
    }
}
