package com.example.prices;

import java.time.Duration;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

public class PricesClient {

    private final WebClient webClient = WebClient.create("http://prices");

    // Retry.fixedDelay has no jitter: every client retries in step.
    public Mono<Price> price(String sku) {
        return webClient.get()
                .uri("/prices/{sku}", sku)
                .retrieve()
                .bodyToMono(Price.class)
                .retryWhen(Retry.fixedDelay(3, Duration.ofSeconds(1)));
    }
}
