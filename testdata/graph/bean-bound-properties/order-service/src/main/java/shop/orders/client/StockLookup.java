package shop.orders.client;

import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;
import shop.orders.props.LookupSettings;

@Component
public class StockLookup {

    private final RestClient client;

    public StockLookup(LookupSettings settings) {
        this.client = RestClient.builder().baseUrl(settings.getBaseUrl()).build();
    }

    public String stock(String sku) {
        return client.get().uri("/api/stock/{sku}", sku).retrieve().body(String.class);
    }
}
