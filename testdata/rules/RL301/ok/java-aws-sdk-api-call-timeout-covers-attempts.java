package com.example.orders;

import java.time.Duration;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

public class OrderTable {
    // 3 attempts of at most 1 s each and the waits between them (up to
    // 100 ms and 200 ms) fit in the 5 s API call timeout.
    private final DynamoDbClient dynamo = DynamoDbClient.builder()
            .overrideConfiguration(o -> o
                    .retryStrategy(b -> b.maxAttempts(3))
                    .apiCallAttemptTimeout(Duration.ofSeconds(1))
                    .apiCallTimeout(Duration.ofSeconds(5)))
            .build();
}
