package shop.catalog;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

@Component
class PricingClient {
    private final RestClient client;

    PricingClient(@Value("${pricing.url}") String pricingUrl) {
        this.client = RestClient.builder().baseUrl(pricingUrl).build();
    }

    String price(String sku) {
        return client.get().uri("/prices/{sku}", sku).retrieve().body(String.class);
    }
}
