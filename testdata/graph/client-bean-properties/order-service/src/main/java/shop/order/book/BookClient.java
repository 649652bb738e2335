package shop.order.book;

import java.time.Duration;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

@Component
public class BookClient {
    private final WebClient webClient;

    public BookClient(WebClient webClient) {
        this.webClient = webClient;
    }

    public Mono<String> getBook(String isbn) {
        return webClient
                .get()
                .uri("/books/" + isbn)
                .retrieve()
                .bodyToMono(String.class)
                .timeout(Duration.ofSeconds(3), Mono.empty())
                .retryWhen(Retry.backoff(3, Duration.ofMillis(100)))
                .onErrorResume(Exception.class, e -> Mono.empty());
    }
}
