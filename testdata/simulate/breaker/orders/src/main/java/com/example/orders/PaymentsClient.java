package com.example.orders;

import io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker;
import io.github.resilience4j.retry.annotation.Retry;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestTemplate;

@Component
public class PaymentsClient {
    private final RestTemplate rest;

    public PaymentsClient(RestTemplate rest) {
        this.rest = rest;
    }

    @Retry(name = "payments")
    @CircuitBreaker(name = "payments")
    public String status(String id) {
        return rest.getForObject("http://payments:8080/status/" + id, String.class);
    }
}
