package com.example.ledger;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;

public class LedgerClient {

    // The cap is far above every delay three attempts reach.
    private final Retry retry = Retry.of("ledger", RetryConfig.custom()
            .maxAttempts(3)
            .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(
                    Duration.ofMillis(500), 2.0, 0.5, Duration.ofSeconds(60)))
            .build());
}
