package com.example.orders;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

public class OrderTable {
    // Nothing set: DynamoDB's own default retries 8 times (9 attempts)
    // from 25 ms in every retry mode, by itself.
    private final DynamoDbClient db = DynamoDbClient.builder().build();
}
