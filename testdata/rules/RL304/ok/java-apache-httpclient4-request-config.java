package com.example.catalog;

import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;
import org.springframework.retry.annotation.Backoff;
import org.springframework.retry.annotation.Retryable;

// The client's RequestConfig bounds each try (1 s to connect, 2 s between
// bytes).
public class PriceClient {
    private final CloseableHttpClient http = HttpClients.custom()
            .setDefaultRequestConfig(RequestConfig.custom().setConnectTimeout(1000).setSocketTimeout(2000).build())
            .build();

    @Retryable(maxAttempts = 4, backoff = @Backoff(delay = 500, multiplier = 2))
    public String price(String sku) throws Exception {
        try (CloseableHttpResponse resp = http.execute(new HttpGet("http://pricing:8080/prices/" + sku))) {
            return EntityUtils.toString(resp.getEntity());
        }
    }
}
