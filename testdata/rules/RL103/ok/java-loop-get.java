package com.example.billing;

import org.springframework.http.HttpMethod;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestTemplate;

public class InvoiceReader {

    private final RestTemplate rest;

    InvoiceReader(RestTemplate rest) {
        this.rest = rest;
    }

    // A GET is safe to send again.
    public String invoice(String id) throws InterruptedException {
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                return rest.exchange("http://billing/invoices/" + id, HttpMethod.GET, null, String.class).getBody();
            } catch (ResourceAccessException e) {
                Thread.sleep(200L * attempt);
            }
        }
        throw new IllegalStateException("billing unreachable");
    }
}
