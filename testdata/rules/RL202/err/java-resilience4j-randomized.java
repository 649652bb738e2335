package com.example.mail;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.RetryConfig;
import java.io.IOException;
import java.time.Duration;

public class MailRetry {

    RetryConfig mailRetryConfig() {
        return RetryConfig.custom()
                .maxAttempts(4)
                .intervalFunction(IntervalFunction.ofRandomized(Duration.ofSeconds(1)))
                .retryExceptions(IOException.class)
                .build();
    }
}
