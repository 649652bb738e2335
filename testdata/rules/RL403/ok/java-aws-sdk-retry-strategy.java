package com.example.invoices;

import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

public class Orders {
    // The mode written: standard, 3 attempts.
    private final DynamoDbClient db = DynamoDbClient.builder()
        .overrideConfiguration(ClientOverrideConfiguration.builder()
            .retryStrategy(RetryMode.STANDARD)
            .build())
        .build();
}
