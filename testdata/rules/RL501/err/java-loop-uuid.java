package com.example.billing;

import java.io.IOException;
import java.util.Map;
import java.util.UUID;

public class ChargeClient {

    private final HttpApi api;

    public ChargeClient(HttpApi api) {
        this.api = api;
    }

    public Receipt charge(Charge charge) throws InterruptedException, IOException {
        IOException last = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                return api.post("/charges", charge,
                        Map.of("Idempotency-Key", UUID.randomUUID().toString()));
            } catch (IOException e) {
                last = e;
                Thread.sleep(200L * attempt);
            }
        }
        throw last;
    }
}
