package shop.front;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

@Configuration
class HttpConfig {
    @Bean
    RestClient.Builder restClientBuilder() {
        return RestClient.builder().baseUrl("http://api-gateway:8989");
    }
}
