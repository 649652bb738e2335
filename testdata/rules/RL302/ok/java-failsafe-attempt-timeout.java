package com.example.geo;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import dev.failsafe.Timeout;
import java.net.ConnectException;
import java.time.Duration;

public class GeoClient {

    private final RetryPolicy<Object> retryPolicy = RetryPolicy.builder()
            .handle(ConnectException.class)
            .withMaxRetries(3)
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
            .withJitter(0.2)
            .withMaxDuration(Duration.ofSeconds(10))
            .build();
    private final Timeout<Object> perAttempt = Timeout.of(Duration.ofSeconds(2));

    // The Timeout after the retry policy bounds each attempt.
    public Object locate(Api api, String ip) {
        return Failsafe.with(retryPolicy, perAttempt).get(() -> api.locate(ip));
    }
}
