package com.example.quotes;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import dev.failsafe.Timeout;
import java.time.Duration;

public class QuotesClient {

    private final RetryPolicy<Object> retryPolicy = RetryPolicy.builder()
            .withMaxRetries(4)
            .withDelay(Duration.ofMillis(200))
            .withMaxDuration(Duration.ofSeconds(3))
            .build();
    private final Timeout<Object> attemptTimeout = Timeout.of(Duration.ofSeconds(1));

    public Object quote(Api api, String symbol) {
        return Failsafe.with(retryPolicy, attemptTimeout).get(() -> api.quote(symbol));
    }
}
