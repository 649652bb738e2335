package com.example.claimcheck;

import java.time.Duration;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.retries.StandardRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

// The shape of CokeLee777/kafka-connect-smt-toolkit's S3ClientFactory: the
// builder kept in a variable, the strategy built by helpers of the class,
// and its token bucket left on: it stops the retries while most calls
// fail.
public class S3ClientFactory {
    public static S3Client create(int retryMax) {
        S3ClientBuilder builder = S3Client.builder()
            .overrideConfiguration(createOverrideConfiguration(retryMax));
        return builder.build();
    }

    private static ClientOverrideConfiguration createOverrideConfiguration(int retryMax) {
        StandardRetryStrategy retryStrategy = createRetryStrategy(retryMax + 1);
        return ClientOverrideConfiguration.builder().retryStrategy(retryStrategy).build();
    }

    private static StandardRetryStrategy createRetryStrategy(int maxAttempts) {
        BackoffStrategy backoff =
            BackoffStrategy.exponentialDelay(Duration.ofMillis(100), Duration.ofSeconds(20));
        return StandardRetryStrategy.builder()
            .maxAttempts(maxAttempts)
            .backoffStrategy(backoff)
            .build();
    }
}
