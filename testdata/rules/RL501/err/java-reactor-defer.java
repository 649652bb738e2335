package com.example.orders;

import java.time.Duration;
import java.util.UUID;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

public class OrdersClient {

    private final WebClient webClient = WebClient.create("http://orders:8080");

    // Mono.defer re-runs the lambda on every resubscription: a new key each time.
    public Mono<Order> create(Order order) {
        return Mono.defer(() -> webClient.post()
                        .uri("/orders")
                        .header("Idempotency-Key", UUID.randomUUID().toString())
                        .bodyValue(order)
                        .retrieve()
                        .bodyToMono(Order.class))
                .timeout(Duration.ofSeconds(2))
                .retryWhen(Retry.backoff(3, Duration.ofMillis(200)));
    }
}
