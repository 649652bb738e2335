package com.example.ledger;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;

public class LedgerClient {

    // Randomised first, capped after: from the third delay on most delays
    // are exactly 2 s and the clients line up again.
    private final Retry retry = Retry.of("ledger", RetryConfig.custom()
            .maxAttempts(8)
            .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(
                    Duration.ofMillis(500), 2.0, 0.5, Duration.ofSeconds(2)))
            .build());
}
