package com.example.geo;

import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import java.net.ConnectException;
import java.time.Duration;

public class GeoClient {

    // The attempts together are bounded, each one is not: a hung first
    // attempt uses all 10 s and no retry ever runs.
    private final RetryPolicy<Object> retryPolicy = RetryPolicy.builder()
            .handle(ConnectException.class)
            .withMaxRetries(3)
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
            .withJitter(0.2)
            .withMaxDuration(Duration.ofSeconds(10))
            .build();

    public Object locate(Api api, String ip) {
        return Failsafe.with(retryPolicy).get(() -> api.locate(ip));
    }
}
