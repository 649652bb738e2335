package com.example.storage;

import software.amazon.awssdk.services.s3.S3Client;

public class Storage {
    // The client reads its defaults from the profile `batch`, which sets
    // no retry key (.aws/config): the SDK's legacy mode applies, written
    // nowhere. The default profile's retry mode is not read.
    private final S3Client s3 = S3Client.builder()
        .overrideConfiguration(o -> o.defaultProfileName("batch"))
        .build();
}
