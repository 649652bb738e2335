package shop.checkout;

import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

@Configuration
public class Clients {
    private final DiscoveryClient discoveryClient;

    public Clients(DiscoveryClient discoveryClient) {
        this.discoveryClient = discoveryClient;
    }

    @Bean
    WebClient pricing() {
        return WebClient.builder().baseUrl("http://pricing:8080").build();
    }

    @Bean
    RestClient tax() {
        return RestClient.builder().baseUrl("${tax.base-url}").build();
    }

    @Bean
    RestTemplate fraud(RestTemplateBuilder builder) {
        return builder.rootUri("http://fraud-check:9000").build();
    }

    String customersUri() {
        // A service id, not a URL: the call goes where discovery says.
        return discoveryClient.getInstances("customers").get(0).getUri().toString();
    }
}
