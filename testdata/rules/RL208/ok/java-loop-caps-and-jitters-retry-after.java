package com.example.billing;

import java.io.IOException;
import java.net.http.HttpHeaders;
import java.util.concurrent.ThreadLocalRandom;

public class InvoiceClient {

    private static final long MAX_WAIT_MS = 30_000;

    private final Api api;

    public InvoiceClient(Api api) {
        this.api = api;
    }

    // The server's wait is capped at 30 s and spread by up to half of it.
    public Invoice fetch(String id) throws IOException, InterruptedException {
        RateLimitedException last = null;
        for (int attempt = 1; attempt <= 5; attempt++) {
            try {
                return api.invoice(id);
            } catch (RateLimitedException e) {
                last = e;
                HttpHeaders headers = e.headers();
                long wait = Math.min(Long.parseLong(headers.firstValue("Retry-After").orElse("1")) * 1000, MAX_WAIT_MS);
                Thread.sleep(wait + ThreadLocalRandom.current().nextLong(wait / 2 + 1));
            }
        }
        throw last;
    }
}
