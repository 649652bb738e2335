package com.example.broker;

import dev.failsafe.RetryPolicy;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

public class BrokerConnector {

    // Unlimited attempts, but a maximum elapsed time.
    private final RetryPolicy<Object> retryPolicy = RetryPolicy.builder()
            .handle(ConnectException.class)
            .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(30))
            .withJitter(0.2)
            .withMaxRetries(-1)
            .withMaxDuration(Duration.ofMinutes(2))
            .build();

    // while (true) with a counted exit.
    public Connection connect(Broker broker) throws IOException, InterruptedException {
        int attempts = 0;
        while (true) {
            try {
                return broker.open();
            } catch (IOException e) {
                if (++attempts >= 5) {
                    throw e;
                }
                Thread.sleep(1000 + ThreadLocalRandom.current().nextInt(500));
            }
        }
    }
}
