package com.example.orders;

import io.github.resilience4j.retry.annotation.Retry;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestTemplate;

@Component
public class PaymentsClient {
    private static final String PAYMENTS = "http://payments:8080/charges";

    private final RestTemplate rest;

    public PaymentsClient(RestTemplate rest) {
        this.rest = rest;
    }

    /** Charges an order; the key is created by the caller, once per order. */
    @Retry(name = "payments")
    public ChargeResult charge(Order order, String idempotencyKey) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("Idempotency-Key", idempotencyKey);
        return rest.postForObject(PAYMENTS, new HttpEntity<>(order, headers), ChargeResult.class);
    }
}
