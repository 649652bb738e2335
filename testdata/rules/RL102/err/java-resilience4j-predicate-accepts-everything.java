package com.example.storage;

import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;

// A predicate that returns `true` for every exception narrows nothing
// (the shape of a retry helper seen in several projects).
public class StorageRetry {

    private final Retry retry = Retry.of("storage", RetryConfig.custom()
            .maxAttempts(3)
            .waitDuration(Duration.ofMillis(200))
            .retryOnException(throwable -> true)
            .build());

    private final Retry uploads = Retry.of("uploads", RetryConfig.custom()
            .maxAttempts(3)
            .waitDuration(Duration.ofMillis(200))
            .retryOnException(StorageRetry::always)
            .build());

    private static boolean always(Throwable t) {
        return true;
    }
}
