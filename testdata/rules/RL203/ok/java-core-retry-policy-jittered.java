package com.example.orders;

import java.time.Duration;

import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;

// The same back-off with a +/- 100 ms jitter that grows with the delay:
// clients spread out.
public class OrderClient {

    private final RetryTemplate retry = new RetryTemplate(
            RetryPolicy.builder()
                    .maxRetries(4)
                    .delay(Duration.ofMillis(200))
                    .jitter(Duration.ofMillis(100))
                    .multiplier(2)
                    .timeout(Duration.ofSeconds(20))
                    .includes(java.io.IOException.class)
                    .build());

    public Order fetch(Api api, String id) throws Exception {
        return retry.execute(() -> api.order(id));
    }
}
