package com.example.orders;

import java.time.Duration;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.services.s3.S3Client;

public class InvoiceStore {
    // Standard mode without a count: 3 attempts (unless AWS_MAX_ATTEMPTS
    // says otherwise), each up to 2 s, inside an API call timeout of 3 s:
    // the third attempt can never run.
    private final S3Client s3 = S3Client.builder()
            .overrideConfiguration(ClientOverrideConfiguration.builder()
                    .retryStrategy(RetryMode.STANDARD)
                    .apiCallAttemptTimeout(Duration.ofSeconds(2))
                    .apiCallTimeout(Duration.ofSeconds(3))
                    .build())
            .build();
}
