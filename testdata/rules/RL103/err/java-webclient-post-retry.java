package com.example.orders;

import java.time.Duration;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

public class OrdersClient {

    private final WebClient webClient = WebClient.create("http://orders:8080");

    // A POST retried on every error, timeouts included, with no key: an
    // order that was created but whose response was lost is created again.
    public Mono<Order> create(Order order) {
        return webClient.post()
                .uri("/orders")
                .bodyValue(order)
                .retrieve()
                .bodyToMono(Order.class)
                .timeout(Duration.ofSeconds(2))
                .retryWhen(Retry.backoff(3, Duration.ofMillis(200)));
    }
}
