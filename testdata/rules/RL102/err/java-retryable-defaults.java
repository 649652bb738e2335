package com.example.sync;

import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;

public interface SyncClient {

    // No retryFor: every exception is retried.
    @Retryable(maxAttempts = 4, backoff = @Backoff(delay = 500, multiplier = 2, random = true))
    void push(Batch batch);
}
