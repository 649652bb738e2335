package com.example.search;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import java.net.ConnectException;
import java.time.Duration;

public class SearchClient {

    private final RetryPolicy<Object> retryPolicy = RetryPolicy.builder()
            .handle(ConnectException.class)
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(5))
            .withMaxRetries(3)
            .build();

    public Object search(Api api, String q) {
        return Failsafe.with(retryPolicy).get(() -> api.search(q));
    }
}
