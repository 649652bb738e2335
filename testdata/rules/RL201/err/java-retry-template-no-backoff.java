package com.example.cache;

import java.io.IOException;
import org.springframework.retry.support.RetryTemplate;

public class CacheConfig {

    // RetryTemplate.builder() uses NoBackOffPolicy unless a back-off is set.
    RetryTemplate cacheRetryTemplate() {
        return RetryTemplate.builder()
                .maxAttempts(4)
                .retryOn(IOException.class)
                .build();
    }
}
