package com.example.ledger;

import dev.failsafe.RetryPolicy;
import java.net.ConnectException;
import java.time.Duration;

// `Integer.MAX_VALUE` retries is 2^31-1 (not Long's 2^63-1); the deadline
// ends them, so this is a count that is too high, not an unbounded retry.
public class LedgerRetry {

    private final RetryPolicy<Object> retryPolicy = RetryPolicy.builder()
            .handle(ConnectException.class)
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(30))
            .withJitter(0.2)
            .withMaxRetries(Integer.MAX_VALUE)
            .withMaxDuration(Duration.ofMinutes(5))
            .build();
}
