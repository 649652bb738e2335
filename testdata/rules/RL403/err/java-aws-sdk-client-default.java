package com.example.invoices;

import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

public class InvoiceStore {
    // Nothing set: the Java SDK retries in its legacy mode, 4 attempts, by
    // itself (unless AWS_RETRY_MODE or AWS_MAX_ATTEMPTS say otherwise).
    private final S3Client s3 = S3Client.builder().region(Region.EU_WEST_1).build();

    public void put(String key, byte[] body) {
        s3.putObject(b -> b.bucket("invoices").key(key), software.amazon.awssdk.core.sync.RequestBody.fromBytes(body));
    }
}
