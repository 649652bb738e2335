package com.example.catalog;

import java.io.IOException;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;

public class CatalogClient {
    // The callers retry: the client does not.
    private final CloseableHttpClient http = HttpClients.custom()
            .setDefaultRequestConfig(RequestConfig.custom().setSocketTimeout(2000).build())
            .disableAutomaticRetries()
            .build();

    public String item(String id) throws IOException {
        return EntityUtils.toString(http.execute(new HttpGet("http://catalog:8080/items/" + id)).getEntity());
    }
}
