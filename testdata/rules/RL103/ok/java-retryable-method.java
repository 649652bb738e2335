package com.example.http;

import java.io.IOException;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;

// One Java method is retried; which HTTP method it sends is not visible,
// so nothing is claimed about idempotency.
public interface PricesClient {

    @Retryable(retryFor = IOException.class, backoff = @Backoff(delay = 100, multiplier = 2, random = true))
    Price price(String sku) throws IOException;
}
