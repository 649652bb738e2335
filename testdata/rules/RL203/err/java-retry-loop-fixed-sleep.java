package com.example.orders;

import java.io.IOException;

public class OrdersClient {

    private static final int MAX_ATTEMPTS = 5;
    private static final long RETRY_DELAY_MS = 2_000;

    public Order fetch(Api api, String id) throws IOException, InterruptedException {
        IOException last = null;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            try {
                return api.order(id);
            } catch (IOException e) {
                last = e;
                Thread.sleep(RETRY_DELAY_MS);
            }
        }
        throw last;
    }
}
