package shop.webapp.clients;

import shop.webapp.ApplicationProperties;
import shop.webapp.clients.catalog.CatalogServiceClient;
import shop.webapp.clients.orders.OrderServiceClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer;
import org.springframework.web.service.registry.ImportHttpServices;

@Configuration(proxyBeanMethods = false)
@ImportHttpServices({CatalogServiceClient.class, OrderServiceClient.class})
class ClientsConfig {

    @Bean
    RestClientHttpServiceGroupConfigurer groupConfigurer(ApplicationProperties applicationProperties) {
        return groups -> groups.forEachClient((group, builder) -> builder.baseUrl(applicationProperties.apiGatewayUrl())
                .build());
    }
}
