package com.example.inventory;

import java.io.IOException;
import org.springframework.retry.annotation.Retryable;

public interface InventoryClient {

    // @Backoff defaults to a fixed 1000 ms: every client retries in step.
    @Retryable(retryFor = IOException.class, maxAttempts = 4)
    int stock(String sku) throws IOException;
}
