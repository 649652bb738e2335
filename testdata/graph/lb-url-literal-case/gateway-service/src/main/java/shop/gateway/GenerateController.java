package shop.gateway;

import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

@RestController
public class GenerateController {

    private static final String ORDER_SERVICE_URL = "lb://ORDER-SERVICE/order-service/api/orders/generate";

    private final WebClient webClient;

    public GenerateController(@LoadBalanced WebClient.Builder webClientBuilder) {
        this.webClient = webClientBuilder.build();
    }

    @PostMapping("/api/v1/generate")
    public Mono<String> generate() {
        return webClient.post().uri(ORDER_SERVICE_URL).retrieve().bodyToMono(String.class);
    }
}
