package com.example.billing;

import io.github.resilience4j.retry.Retry;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;

public class ChargeClient {

    private final HttpApi api;
    private final Retry retry = Retry.ofDefaults("charges");

    public ChargeClient(HttpApi api) {
        this.api = api;
    }

    // One key per logical request, reused by every attempt.
    public Receipt charge(Charge charge) throws InterruptedException, IOException {
        String key = UUID.randomUUID().toString();
        IOException last = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                return api.post("/charges", charge, Map.of("Idempotency-Key", key));
            } catch (IOException e) {
                last = e;
                Thread.sleep(200L * attempt);
            }
        }
        throw last;
    }

    public Receipt chargeWithRetry(Charge charge) {
        String idempotencyKey = UUID.randomUUID().toString();
        return retry.executeSupplier(() -> api.postUnchecked("/charges", charge, idempotencyKey));
    }
}
