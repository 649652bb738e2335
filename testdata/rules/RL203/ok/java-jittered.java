package com.example.payments;

import dev.failsafe.RetryPolicy;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;

public class Jittered {

    RetryConfig r4j() {
        return RetryConfig.custom()
                .maxAttempts(4)
                .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(Duration.ofMillis(200), 2.0, 0.5))
                .build();
    }

    RetryPolicy<Object> failsafe() {
        return RetryPolicy.builder()
                .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(5))
                .withJitter(0.25)
                .build();
    }

    @Retryable(retryFor = IOException.class, backoff = @Backoff(delay = 200, multiplier = 2, random = true))
    void annotated() throws IOException {}

    @Retryable(retryFor = IOException.class, backoff = @Backoff(delay = 200, maxDelay = 1000))
    void uniform() throws IOException {}

    String loop(Api api) throws IOException, InterruptedException {
        long backoff = 100;
        for (int attempt = 0; attempt < 4; attempt++) {
            try {
                return api.call();
            } catch (IOException e) {
                Thread.sleep(ThreadLocalRandom.current().nextLong(backoff));
                backoff = Math.min(backoff * 2, 5_000);
            }
        }
        throw new IOException("gave up");
    }
}
