package shop.gateway;

import java.time.Duration;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

@RestController
public class BatchController {

    private static final String ORDERS_URL = "lb://order-service/api/orders/batch";
    private static final int ATTEMPTS = 2;
    private static final Duration PAUSE = Duration.ofMillis(200);

    private final WebClient client;

    public BatchController(@LoadBalanced WebClient.Builder builder) {
        this.client = builder.build();
    }

    @PostMapping("/api/batch")
    public Mono<String> batch() {
        return send(ORDERS_URL);
    }

    private Mono<String> send(String target) {
        return client.post()
                .uri(target)
                .retrieve()
                .bodyToMono(String.class)
                .retryWhen(retrySpec(target));
    }

    private Retry retrySpec(String target) {
        return Retry.backoff(ATTEMPTS, PAUSE)
                .filter(error -> !target.isEmpty());
    }
}
