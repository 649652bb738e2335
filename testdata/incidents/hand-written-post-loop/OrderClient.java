package com.example.shop;

import org.springframework.http.HttpEntity;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestTemplate;

public class OrderClient {

    private final RestTemplate rest;

    OrderClient(RestTemplate rest) {
        this.rest = rest;
    }

    public String place(HttpEntity<String> order) throws InterruptedException {
        ResourceAccessException last = null;
        for (int i = 0; i < 3; i++) {
            try {
                return rest.exchange("http://orders/api/orders", HttpMethod.POST, order, String.class).getBody();
            } catch (ResourceAccessException e) {
                last = e;
                Thread.sleep(500);
            }
        }
        throw last;
    }
}
