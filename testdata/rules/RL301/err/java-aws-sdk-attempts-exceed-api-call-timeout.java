package com.example.orders;

import java.time.Duration;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

public class OrderTable {
    // 3 attempts, each up to 2 s, inside an API call
    // timeout of 3 s: the third attempt (and most of the second) can never
    // run; the client gives up with ApiCallTimeoutException instead.
    private final DynamoDbClient dynamo = DynamoDbClient.builder()
            .overrideConfiguration(ClientOverrideConfiguration.builder()
                    .retryStrategy(b -> b.maxAttempts(3))
                    .apiCallAttemptTimeout(Duration.ofSeconds(2))
                    .apiCallTimeout(Duration.ofSeconds(3))
                    .build())
            .build();
}
