package com.example.ledger;

import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.time.Duration;

// `Integer.MAX_VALUE` attempts: no limit in practice.
public class LedgerRetry {

    private final Retry retry = Retry.of("ledger", RetryConfig.custom()
            .maxAttempts(Integer.MAX_VALUE)
            .waitDuration(Duration.ofMillis(500))
            .retryExceptions(IOException.class)
            .build());
}
