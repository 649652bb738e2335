package shop.cart.pricing;

import java.time.Duration;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestTemplate;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

@Component
public class PricingClient {
    private final RestTemplate restTemplate;

    PricingClient(RestTemplate restTemplate) {
        this.restTemplate = restTemplate;
    }

    public Mono<String> price(String sku) {
        return Mono.fromCallable(() -> restTemplate.getForObject("/prices/" + sku, String.class))
                .retryWhen(Retry.max(2));
    }
}
