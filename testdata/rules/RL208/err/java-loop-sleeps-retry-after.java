package com.example.billing;

import java.io.IOException;
import java.net.http.HttpHeaders;

public class InvoiceClient {

    private final Api api;

    public InvoiceClient(Api api) {
        this.api = api;
    }

    // On a 429 the loop sleeps exactly the server's Retry-After: every
    // client turned away in the same second comes back in the same second.
    public Invoice fetch(String id) throws IOException, InterruptedException {
        RateLimitedException last = null;
        for (int attempt = 1; attempt <= 5; attempt++) {
            try {
                return api.invoice(id);
            } catch (RateLimitedException e) {
                last = e;
                HttpHeaders headers = e.headers();
                long seconds = Long.parseLong(headers.firstValue("Retry-After").orElse("1"));
                Thread.sleep(seconds * 1000);
            }
        }
        throw last;
    }
}
