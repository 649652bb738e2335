package com.example.orders;

import java.time.Duration;
import java.util.UUID;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

public class OrdersClient {

    private final WebClient webClient = WebClient.create("http://orders:8080");

    // The header value is computed once, when the chain is assembled:
    // every resubscription sends the same key.
    public Mono<Order> create(Order order) {
        return webClient.post()
                .uri("/orders")
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .bodyValue(order)
                .retrieve()
                .bodyToMono(Order.class)
                .timeout(Duration.ofSeconds(2))
                .retryWhen(Retry.backoff(3, Duration.ofMillis(200)));
    }

    // A GET is safe to retry.
    public Mono<Order> find(String id) {
        return webClient.get()
                .uri("/orders/{id}", id)
                .retrieve()
                .bodyToMono(Order.class)
                .timeout(Duration.ofSeconds(2))
                .retryWhen(Retry.backoff(3, Duration.ofMillis(200)));
    }
}
