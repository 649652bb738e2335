package com.example.catalog;

import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.util.TimeValue;

public class CatalogClient {
    // Three retries of every 429 and 503, one second apart: when the
    // catalog sheds load, each shed request comes back three times.
    private final CloseableHttpClient http = HttpClients.custom()
            .setRetryStrategy(new DefaultHttpRequestRetryStrategy(3, TimeValue.ofSeconds(1)))
            .build();
}
