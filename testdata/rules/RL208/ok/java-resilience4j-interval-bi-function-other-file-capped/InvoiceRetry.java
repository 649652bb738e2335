package com.example.billing;

import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.net.http.HttpResponse;

public class InvoiceRetry {

    // The interval is a class of another file (RetryAfterInterval.java): it
    // caps the server's Retry-After at 20 s and adds up to half of it at random.
    public Retry retry() {
        RetryConfig config = RetryConfig.<HttpResponse<String>>custom()
                .maxAttempts(4)
                .retryOnResult(r -> r.statusCode() == 429)
                .intervalBiFunction(new RetryAfterInterval())
                .build();
        return Retry.of("invoices", config);
    }
}
