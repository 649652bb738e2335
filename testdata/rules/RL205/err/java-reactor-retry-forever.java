package com.example.prices;

import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;

public class PriceStream {

    private final WebClient webClient = WebClient.create("http://prices");

    // .retry() with no argument resubscribes for ever, at once.
    public Flux<Price> stream() {
        return webClient.get()
                .uri("/prices/stream")
                .retrieve()
                .bodyToFlux(Price.class)
                .retry();
    }
}
