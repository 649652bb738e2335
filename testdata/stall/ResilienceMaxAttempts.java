package com.example.stall;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;

public class ResilienceMaxAttempts {
    public RetryConfig config() {
        return RetryConfig.custom()
                .maxAttempts(Integer.MAX_VALUE - 1)
                .intervalFunction(IntervalFunction.ofExponentialBackoff(Duration.ofMillis(1), 2.0))
                .build();
    }
}
