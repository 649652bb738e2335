package com.example.orders;

import java.io.IOException;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;
import org.springframework.stereotype.Service;

@Service
public class OrdersClient {
    // Written off by hand: every caller backs off in lockstep.
    @Retryable(retryFor = IOException.class, maxAttempts = 3,
            backoff = @Backoff(delay = 100, multiplier = 3, random = false))
    public String fetch(String id) throws IOException {
        return id;
    }

    @Retryable(retryFor = IOException.class, maxAttempts = 4,
            backoff = @Backoff(
                    delay = 250,
                    maxDelay = 4000,
                    multiplier = 2.0
            ))
    public String cancel(String id) throws IOException {
        return id;
    }
}
