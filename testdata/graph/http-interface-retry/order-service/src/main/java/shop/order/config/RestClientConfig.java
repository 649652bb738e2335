package shop.order.config;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;
import shop.order.client.AuditClient;
import shop.order.client.InventoryClient;

@Configuration
public class RestClientConfig {

    @Value("${inventory.service.url}")
    private String inventoryServiceUrl;

    @Value("${ledger.url}")
    private String ledgerUrl;

    @Bean
    public InventoryClient inventoryClient() {
        RestClient restClient = RestClient.builder()
                .baseUrl(inventoryServiceUrl)
                .build();
        var adapter = RestClientAdapter.create(restClient);
        return HttpServiceProxyFactory.builderFor(adapter).build().createClient(InventoryClient.class);
    }

    // A client built from a RestClient bean of another method: its base
    // URL is not here, and none is guessed.
    @Bean
    public AuditClient auditClient(RestClient auditRestClient) {
        return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(auditRestClient))
                .build()
                .createClient(AuditClient.class);
    }

    @Bean
    public RestClient ledgerClient() {
        return RestClient.builder().baseUrl(ledgerUrl).build();
    }
}
