package com.example.broker;

import dev.failsafe.RetryPolicy;
import java.net.ConnectException;
import java.time.Duration;

public class BrokerRetry {

    private final RetryPolicy<Object> retryPolicy = RetryPolicy.builder()
            .handle(ConnectException.class)
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(30))
            .withJitter(0.2)
            .withMaxRetries(-1)
            .build();
}
