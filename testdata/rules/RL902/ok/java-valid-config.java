package com.example.quotes;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;

public class QuotesRetry {

    // The base delay goes into the interval function, not waitDuration.
    RetryConfig config() {
        return RetryConfig.custom()
                .maxAttempts(3)
                .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(Duration.ofMillis(100), 2.0))
                .build();
    }

    private final Retry fixed = Retry.of("fixed", RetryConfig.custom()
            .maxAttempts(1)
            .waitDuration(Duration.ofMillis(250))
            .build());
}
