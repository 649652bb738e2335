package com.example.orders;

import java.time.Duration;

import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;

// Spring Framework 7's own retry: the delay doubles from 200 ms, but with
// no jitter every client that failed together retries together.
public class OrderClient {

    private final RetryTemplate retry = new RetryTemplate(
            RetryPolicy.builder()
                    .maxRetries(4)
                    .delay(Duration.ofMillis(200))
                    .multiplier(2)
                    .maxDelay(Duration.ofSeconds(5))
                    .timeout(Duration.ofSeconds(20))
                    .includes(java.io.IOException.class)
                    .build());

    public Order fetch(Api api, String id) throws Exception {
        return retry.execute(() -> api.order(id));
    }
}
