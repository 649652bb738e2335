package shop.cart.config;

import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestTemplate;

@Configuration
public class RestConfig {
    private final CartProperties properties;

    RestConfig(CartProperties properties) {
        this.properties = properties;
    }

    @Bean
    public RestTemplate pricingRestTemplate(RestTemplateBuilder builder) {
        return builder
                .rootUri(properties.getPricingServiceUrl().toString())
                .setReadTimeout(properties.getTimeout())
                .build();
    }
}
