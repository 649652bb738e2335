package com.example.gateway;

import org.springframework.web.reactive.function.client.WebClient;
import software.amazon.awssdk.regions.Region;

// Spring's WebClient built in a file that uses the AWS SDK: not an SDK
// service client (only clients imported from
// software.amazon.awssdk.services are).
public class Clients {
    private final WebClient web = WebClient.builder().baseUrl("http://orders:8080").build();
    private final Region region = Region.EU_WEST_1;
}
