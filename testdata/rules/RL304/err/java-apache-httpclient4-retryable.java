package com.example.catalog;

import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;

// Spring Retry tries the price lookup four times, but the HttpClient 4
// client made with createDefault() has no connect or socket timeout: one
// try that never gets an answer blocks the thread for ever.
public class PriceClient {
    private final CloseableHttpClient http = HttpClients.createDefault();

    @Retryable(maxAttempts = 4, backoff = @Backoff(delay = 500, multiplier = 2))
    public String price(String sku) throws Exception {
        try (CloseableHttpResponse resp = http.execute(new HttpGet("http://pricing:8080/prices/" + sku))) {
            return EntityUtils.toString(resp.getEntity());
        }
    }
}
