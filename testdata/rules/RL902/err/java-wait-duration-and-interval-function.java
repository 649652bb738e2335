package com.example.quotes;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;

public class QuotesRetry {

    // waitDuration sets the bi-function slot: build() rejects the pair.
    RetryConfig config() {
        return RetryConfig.custom()
                .maxAttempts(3)
                .waitDuration(Duration.ofMillis(100))
                .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(100, 2.0))
                .build();
    }
}
