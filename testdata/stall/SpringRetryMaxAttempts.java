package com.example.stall;

import java.io.IOException;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;

public interface SpringRetryMaxAttempts {
    @Retryable(retryFor = IOException.class, maxAttempts = 2147483646,
            backoff = @Backoff(delay = 1, multiplier = 2, maxDelay = 9223372036854775807L))
    int stock(String sku) throws IOException;
}
