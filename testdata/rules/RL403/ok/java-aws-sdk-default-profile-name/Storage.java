package com.example.storage;

import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.services.s3.S3Client;

public class Storage {
    // The client reads its defaults from the profile `batch`, which sets
    // the retry mode (.aws/config); the default profile's are not read.
    private final S3Client s3 = S3Client.builder()
        .overrideConfiguration(ClientOverrideConfiguration.builder()
            .defaultProfileName("batch")
            .build())
        .build();
}
