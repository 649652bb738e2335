package shop.front.clients;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

@Configuration
class ClientsConfig {
    @Bean
    CatalogClient catalogClient(RestClient.Builder builder) {
        var adapter = RestClientAdapter.create(builder.build());
        return HttpServiceProxyFactory.builderFor(adapter).build().createClient(CatalogClient.class);
    }
}
