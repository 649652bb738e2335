package shop.orders.clients;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

@Configuration
public class ClientsConfig {

    @Value("${orders.catalog-service-url}")
    private String catalogServiceUrl;

    @Bean
    public CatalogClient catalogClient() {
        RestClient restClient = RestClient.builder()
                .baseUrl(catalogServiceUrl)
                .build();
        var adapter = RestClientAdapter.create(restClient);
        return HttpServiceProxyFactory.builderFor(adapter).build().createClient(CatalogClient.class);
    }
}
