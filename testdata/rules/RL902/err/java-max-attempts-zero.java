package com.example.quotes;

import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;

public class QuotesRetry {

    // RetryConfig.Builder.maxAttempts throws IllegalArgumentException below 1.
    private final Retry retry = Retry.of("quotes", RetryConfig.custom().maxAttempts(0).build());
}
