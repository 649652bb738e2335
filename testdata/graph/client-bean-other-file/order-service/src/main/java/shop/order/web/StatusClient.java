package shop.order.web;

import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.util.retry.Retry;

// Builds its own WebClient: the bean is not the client it retries.
@Component
public class StatusClient {
    private final WebClient webClient = WebClient.create();

    public String status() {
        return webClient.get().uri("/status").retrieve().bodyToMono(String.class)
                .retryWhen(Retry.max(2)).block();
    }
}
