package com.example.catalog;

import java.util.Arrays;
import java.util.Collections;
import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.HttpStatus;
import org.apache.hc.core5.util.TimeValue;

public class CatalogClient {
    // Retries a 502 only: the overload signals (429, 503) are returned.
    private final CloseableHttpClient http = HttpClients.custom()
            .setRetryStrategy(new DefaultHttpRequestRetryStrategy(2, TimeValue.ofSeconds(1),
                    Collections.emptyList(), Arrays.asList(HttpStatus.SC_BAD_GATEWAY)))
            .build();
}
