package com.example.quotes;

import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.RetryConfig;

public class QuotesRetry {

    RetryConfig config() {
        return RetryConfig.custom()
                .maxAttempts(3)
                .intervalFunction(IntervalFunction.ofExponentialBackoff(100, 2.0))
                .intervalBiFunction((attempt, result) -> 250L)
                .build();
    }
}
